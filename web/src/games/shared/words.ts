// Words every tile-laying game uses alike in its log: a tile named by what it shows when the tile
// set is known, a place on the board named by what lies next to it, points scored by the seats,
// and the events of placing or discarding a tile. Names are passed in (seat → name) because a
// state knows seats only. The log never shows coordinates or tile ids: the board shows neither.
import { playerName } from "../../ui/players";

// What a tile shows, when the tile set is known ("a curved street and a fish market").
export type TileDescriber = (tile: number) => string | null;

// "3 tiles", "1 tile"; `many` for irregular plurals ("cities").
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

// "a tile showing a city with a pennant", or "a tile" when the tile set does not say.
export function tileText(tile: number, describe: TileDescriber | undefined): string {
  const what = describe?.(tile) ?? null;
  return what === null ? "a tile" : `a tile showing ${what}`;
}

// The same with a capital first letter, to start a line.
export function upperFirst(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

// A tile on the board people can point at: the start, the gate.
export interface Landmark {
  readonly x: number;
  readonly y: number;
  readonly name: string; // "the start", "the gate"
}

const NEIGHBOURS: readonly { dx: number; dy: number; word: string }[] = [
  { dx: 0, dy: 1, word: "north" },
  { dx: 1, dy: 0, word: "east" },
  { dx: 0, dy: -1, word: "south" },
  { dx: -1, dy: 0, word: "west" },
];

function offsetWords(dx: number, dy: number): string {
  const parts: string[] = [];
  if (dy !== 0) parts.push(`${plural(Math.abs(dy), "tile")} ${dy > 0 ? "north" : "south"}`);
  if (dx !== 0) parts.push(`${dy !== 0 ? Math.abs(dx) : plural(Math.abs(dx), "tile")} ${dx > 0 ? "east" : "west"}`);
  return parts.join(" and ");
}

// Where a cell lies, in words: "as the first tile" (the landmark itself), "north of the gate" for a landmark next to it (the
// first landmark given wins), else its distance from the last landmark ("3 tiles north and 2 west
// of the start"). Engine y grows north. With no landmark: "on the board".
export function placeWord(x: number, y: number, landmarks: readonly Landmark[]): string {
  for (const l of landmarks) {
    if (l.x === x && l.y === y) return `as ${l.name}`;
    const n = NEIGHBOURS.find((d) => l.x + d.dx === x && l.y + d.dy === y);
    if (n !== undefined) return `${n.word} of ${l.name}`;
  }
  const origin = landmarks[landmarks.length - 1];
  return origin === undefined ? "on the board" : `${offsetWords(x - origin.x, y - origin.y)} of ${origin.name}`;
}

// "Alice scored 8, Bob scored 4", or "nobody scored".
export function pointsWords(points: readonly number[], names: readonly string[]): string {
  const parts = points.flatMap((p, seat) => (p > 0 ? [`${playerName(names, seat)} scored ${p}`] : []));
  return parts.length > 0 ? parts.join(", ") : "nobody scored";
}

// Whether anybody scored: a scoring of nobody is left out of the log.
export function anyPoints(points: readonly number[]): boolean {
  return points.some((p) => p !== 0);
}

export function tileDiscardedWord(tile: number, describe: TileDescriber | undefined): string {
  return `${upperFirst(tileText(tile, describe))} fits nowhere and is discarded`;
}

// "Alice placed a tile showing a curved road north of the start".
export function tilePlacedWord(
  names: readonly string[],
  e: { player: number; tile: number; x: number; y: number },
  describe: TileDescriber | undefined,
  landmarks: readonly Landmark[],
): string {
  return `${playerName(names, e.player)} placed ${tileText(e.tile, describe)} ${placeWord(e.x, e.y, landmarks)}`;
}
