// The highlight of what just happened on the board: each player's last move since this seat's own
// last move (the tile placed, outlined in the player's colour, the follower or wall piece put,
// ringed), and a "+N" label where points were scored, fading. The game page keeps the moves
// (RecentMoves), a game module says what a move's events changed (MoveMark), and this layer draws
// them over the board. A replay draws the marks of the step shown.
import type { MoveMark } from "../module";
import { typeOf, type TileCatalog } from "../../tiles/catalog";
import { featureAnchor, turn, type Point } from "../../tiles/geometry";
import { s } from "../../ui/dom";
import { look, playerName } from "../../ui/players";
import { CELL, cellCentre } from "./board";

export type { MoveMark };

// How long a "+N" label takes to fade (the stylesheet's animation runs as long).
export const POINTS_FADE_MS = 4000;

// Where a follower on the feature of the tile at (x, y) stands, in board units; the tile's centre
// when the tile set does not say, null when no tile lies there.
export function featurePoint(tiles: readonly { tile: number; x: number; y: number; rotation: number }[], catalog: TileCatalog | null, x: number, y: number, feature: number): Point | null {
  const placed = tiles.find((t) => t.x === x && t.y === y);
  if (placed === undefined) return null;
  const [cx, cy] = cellCentre(x, y);
  const type = catalog === null ? undefined : typeOf(catalog, placed.tile);
  if (type === undefined) return [cx, cy];
  const [ax, ay] = turn(featureAnchor(type, feature), placed.rotation);
  return [cx + ax, cy + ay];
}

const SIDE_OFFSETS: readonly Point[] = [
  [0, -CELL / 2],
  [CELL / 2, 0],
  [0, CELL / 2],
  [-CELL / 2, 0],
];

// The middle of a side of the cell (x, y) (0 north, 1 east, 2 south, 3 west), in board units.
export function edgePoint(x: number, y: number, side: number): Point {
  const [cx, cy] = cellCentre(x, y);
  const [dx, dy] = SIDE_OFFSETS[side] ?? [0, 0];
  return [cx + dx, cy + dy];
}

// A "+N" label for each seat that scored, at `at`, stacked when several did.
export function pointsMarks(points: readonly number[], at: Point | null): MoveMark[] {
  if (at === null) return [];
  const scorers = points.flatMap((p, player) => (p > 0 ? [{ player, p }] : []));
  return scorers.map(({ player, p }, i) => ({ kind: "points", player, points: p, at: [at[0], at[1] + i * 22] }));
}

interface Chunk<E> {
  readonly events: readonly E[];
  readonly at: number; // when it came (ms, the page's clock), for the labels' fading
}

// Each player's last move, as the game page saw it come: a player's consecutive actions (a tile
// and its follower) make one move, and the server's draws join the move of the turn's player. A
// move of this page's own seat ends the moves before it: they are no longer news.
export class RecentMoves<E> {
  private readonly moves = new Map<number, Chunk<E>[]>();
  private lastActor: number | null = null;

  add(seat: number, serverAction: boolean, events: readonly E[], yourSeat: number | null, now: number): void {
    if (!serverAction) {
      if (seat !== this.lastActor) this.moves.set(seat, []);
      if (seat === yourSeat) for (const player of this.moves.keys()) if (player !== seat) this.moves.delete(player);
      this.lastActor = seat;
    }
    const chunks = this.moves.get(seat) ?? [];
    chunks.push({ events, at: now });
    this.moves.set(seat, chunks);
  }

  clear(): void {
    this.moves.clear();
    this.lastActor = null;
  }

  // Every move's chunks, with when each came.
  chunks(): readonly Chunk<E>[] {
    return [...this.moves.values()].flat();
  }
}

export interface TimedMark {
  readonly mark: MoveMark;
  readonly at: number | null; // when its move came (ms); null: no fading (a replay's step)
}

function pointsLabel(m: Extract<MoveMark, { kind: "points" }>, age: number | null, names: readonly string[]): SVGElement {
  const text = s("text", { x: m.at[0], y: m.at[1], class: "recent-points", "text-anchor": "middle", fill: look(m.player).colour }, `+${m.points}`);
  text.append(s("title", {}, `${playerName(names, m.player)} scored ${m.points}`));
  // Drawn again on every render: the fading goes on from where it was.
  if (age !== null) text.setAttribute("style", `animation-delay: -${Math.max(0, age)}ms`);
  else text.classList.add("still");
  return text;
}

function markElement(m: MoveMark, age: number | null, names: readonly string[]): SVGElement {
  const colour = look(m.player).colour;
  const who = playerName(names, m.player);
  switch (m.kind) {
    case "tile":
      return s("rect", { x: m.x * CELL + 2, y: -m.y * CELL + 2, width: CELL - 4, height: CELL - 4, class: "recent-tile", stroke: colour, "data-player": m.player }, s("title", {}, `${who}'s last tile`));
    case "piece":
      return s("circle", { cx: m.at[0], cy: m.at[1], r: 16, class: "recent-piece", stroke: colour, "data-player": m.player }, s("title", {}, `${who}'s last piece`));
    case "points":
      return pointsLabel(m, age, names);
  }
}

// The layer over the board: outlines and rings first, the labels on top.
export function recentLayer(marks: readonly TimedMark[], names: readonly string[], now: number): SVGGElement {
  const g = s("g", { class: "recent", "aria-hidden": "true" });
  const ordered = [...marks].sort((a, b) => Number(a.mark.kind === "points") - Number(b.mark.kind === "points"));
  for (const { mark, at } of ordered) g.append(markElement(mark, at === null ? null : now - at, names));
  return g;
}
