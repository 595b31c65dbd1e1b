// Words every tile-laying game uses alike in its log: a tile named by what it shows when the tile
// set is known, points scored by the seats, and the events of drawing and placing a tile. Names
// are passed in (seat → name) because a state knows seats only.
import { playerName } from "../../ui/players";

// What a tile shows, when the tile set is known ("a curved street and a fish market").
export type TileDescriber = (tile: number) => string | null;

// "tile 12 (a city with a pennant)", or "tile 12" when the tile set does not say.
export function tileText(tile: number, describe: TileDescriber | undefined): string {
  const what = describe?.(tile) ?? null;
  return what === null ? `tile ${tile}` : `tile ${tile} (${what})`;
}

// The same with a capital first letter, to start a line.
export function upperFirst(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

// "Alice scored 8, Bob scored 4", or "nobody scored".
export function pointsWords(points: readonly number[], names: readonly string[]): string {
  const parts = points.flatMap((p, seat) => (p > 0 ? [`${playerName(names, seat)} scored ${p}`] : []));
  return parts.length > 0 ? parts.join(", ") : "nobody scored";
}

export function tileDiscardedWord(tile: number): string {
  return `Tile ${tile} fits nowhere and is discarded`;
}

export function tilePlacedWord(names: readonly string[], e: { player: number; tile: number; x: number; y: number }, describe: TileDescriber | undefined): string {
  return `${playerName(names, e.player)} placed ${tileText(e.tile, describe)} at (${e.x}, ${e.y})`;
}
