// The board as SVG: each placed tile drawn from the tile set (tile-art.ts), followers as their
// seat's marker on the feature they stand on with a letter for their role, wall pieces and the
// gate (an arch) along tile edges, guards (the marker with a G), towers (battlements) at the
// corners where the chain's ends stood, at the end the sides R26 took as walled, and the overlay
// of the seat's decision: legal cells, the tile being placed, and clickable spots, edges, ghost
// wall pieces and tower spots for the other choices. Without the tile set (not yet loaded) tiles
// are plain squares. Engine y grows north; SVG y grows down, so a cell (x, y) is drawn with its
// top-left corner at (x·C, −y·C).
import type { TileCatalog } from "../../tiles/catalog";
import type { Point } from "../../tiles/geometry";
import { s } from "../../ui/dom";
import { look, marker, playerName } from "../../ui/players";
import * as shared from "../shared/board";
import { activatable, CELL, type BoardTiles, type CellOverlay, type Placement } from "../shared/board";
import { FeatureKind } from "../../gen/carcassonne/tiles/v1/tiles_pb";
import type { PublicState, WallPiece } from "./model";
import { closingEdges, towerVertex, type Vertex } from "./outline";
import { tileArt } from "./tile-art";
import { endWord } from "./words";

export { CELL };
export type { Placement };

// A choice drawn on the board: a spot (a follower's feature), an edge (a gate's side), a wall
// piece's ghost on the edge it would occupy (`at` its side) or a tower's spot at a corner of the
// lattice (`x`, `y` the vertex); the last two belong to an end of the chain (0 front, 1 back).
export interface BoardPick {
  readonly shape: "spot" | "edge" | "wall" | "tower";
  readonly x: number;
  readonly y: number;
  readonly at: number; // the feature (spot) or the side (edge, wall)
  readonly end?: number;
  readonly label: string;
  readonly pick: () => void;
}

// What the board shows besides the state: the legal cells, the chosen ghost tile, other picks.
export interface BoardOverlay extends CellOverlay {
  readonly picks: readonly BoardPick[];
}

export const NO_OVERLAY: BoardOverlay = { cells: [], ghost: null, onCell: null, picks: [] };

export interface BoardInput {
  readonly state: PublicState;
  readonly catalog: TileCatalog | null;
  readonly names: readonly string[];
}

// Where a follower on `feature` of the tile at (x, y) stands, in board units; null when the
// tile or its type is unknown.
export function featurePoint(inp: BoardInput, x: number, y: number, feature: number): Point | null {
  return shared.featureAt(tilesOf(inp), x, y, feature)?.at ?? null;
}

function tilesOf(inp: BoardInput): BoardTiles {
  return { tiles: inp.state.tiles, catalog: inp.catalog, art: tileArt };
}

// The two ends of side `side` of cell (x, y), in SVG units.
function edge(x: number, y: number, side: number): [number, number, number, number] {
  const l = x * CELL;
  const t = -y * CELL;
  const r = l + CELL;
  const b = t + CELL;
  switch (side) {
    case 0:
      return [l, t, r, t];
    case 1:
      return [r, t, r, b];
    case 2:
      return [l, b, r, b];
    default:
      return [l, t, l, b];
  }
}

function edgeLine(x: number, y: number, side: number, cls: string): SVGLineElement {
  const [x1, y1, x2, y2] = edge(x, y, side);
  return s("line", { x1, y1, x2, y2, class: cls });
}

function mid(x: number, y: number, side: number): [number, number] {
  const [x1, y1, x2, y2] = edge(x, y, side);
  return [(x1 + x2) / 2, (y1 + y2) / 2];
}

// A corner of the lattice in SVG units: vertex (x, y) is the south-west corner of cell (x, y).
function corner(v: Vertex): Point {
  return [v.x * CELL, (1 - v.y) * CELL];
}

// The unit vector from side `side` of a cell out of it, in SVG directions.
const OUTWARDS: readonly Point[] = [
  [0, -1],
  [1, 0],
  [0, 1],
  [-1, 0],
];

// A tower: a turret with battlements, half as wide as `r`, its base on (x, y + r).
export function turretPath(x: number, y: number, r: number): string {
  const k = r * 0.6;
  const b = r * 0.2;
  const p = [
    [-r, r], [-r, -k], [-k, -k], [-k, -r], [-b, -r], [-b, -k], [b, -k], [b, -r], [k, -r], [k, -k], [r, -k], [r, r],
  ];
  return `M ${p.map(([px = 0, py = 0]) => `${x + px} ${y + py}`).join(" L ")} Z`;
}

// The gate: an arch, to tell it from a tower (battlements) and a guard (the seat's marker).
export function archPath(x: number, y: number, r: number): string {
  return `M ${x - r} ${y + r} L ${x - r} ${y - r * 0.1} A ${r} ${r} 0 0 1 ${x + r} ${y - r * 0.1} L ${x + r} ${y + r} Z`;
}

// A short word on the board (front, back) in a tag that stays readable over any tile.
function tag(x: number, y: number, text: string, cls: string): SVGGElement {
  const w = text.length * 13 + 14;
  return s(
    "g",
    { class: cls },
    s("rect", { x: x - w / 2, y: y - 15, width: w, height: 30, rx: 6 }),
    s("text", { x, y: y + 7.5, "text-anchor": "middle" }, text),
  );
}

function wallLayer(inp: BoardInput): SVGGElement {
  const st = inp.state;
  const g = s("g", { class: "walls" });
  const pieces: readonly WallPiece[] = [...st.front, ...st.back];
  for (const w of pieces) g.append(edgeLine(w.x, w.y, w.side, "wall"));
  if (st.gate !== null) {
    g.append(edgeLine(st.gate.x, st.gate.y, st.gate.side, "gate"));
    const [mx, my] = mid(st.gate.x, st.gate.y, st.gate.side);
    g.append(s("path", { d: archPath(mx, my, 9), class: "gate-mark" }, s("title", {}, "The gate")));
  }
  for (const w of pieces) {
    if (w.guard === null) continue;
    const [mx, my] = mid(w.x, w.y, w.side);
    g.append(roleMarker(w.guard, mx, my, "G", `${playerName(inp.names, w.guard)}'s guard`, "guard"));
  }
  return g;
}

// R26: at the end, the outline sides the final scoring took as walled, hatched.
function closingLayer(inp: BoardInput): SVGGElement {
  const g = s("g", { class: "closing-walls" });
  if (inp.state.end === 0) return g;
  for (const e of closingEdges(inp.state)) {
    const line = edgeLine(e.x, e.y, e.side, "wall-closing");
    line.append(s("title", {}, "Taken as walled at the end of the game"));
    g.append(line);
  }
  return g;
}

// A tower stands at the corner where its end of the chain stopped when it was built.
function towerLayer(inp: BoardInput): SVGGElement {
  const st = inp.state;
  const g = s("g", { class: "towers" });
  for (const t of st.towers) {
    const v = towerVertex(st, t.end, t.position);
    if (v === null) continue;
    const [cx, cy] = corner(v);
    const tower = s("g", { class: "tower-group", "data-end": t.end }, s("title", {}, `${playerName(inp.names, t.player)}'s tower at the ${endWord(t.end)}`));
    tower.append(s("path", { d: turretPath(cx, cy, 14), class: "tower", stroke: look(t.player).colour }));
    tower.append(marker(t.player, cx, cy + 3, 6));
    g.append(tower);
  }
  return g;
}

// The seat's marker with a letter inside for what it stands as (S street, M market, R
// residential, G guard), so the role shows without hovering.
function roleMarker(seat: number, x: number, y: number, letter: string, title: string, cls: string): SVGGElement {
  const r = 11;
  const m = marker(seat, x, y, r);
  m.setAttribute("class", `marker ${cls}`);
  const dy = look(seat).shape === "triangle" ? r * 0.45 : 0;
  const text = s("text", { x, y: y + dy + 4.5, "text-anchor": "middle", class: "role-letter", "aria-hidden": true }, letter);
  return s("g", { class: `${cls}-group`, "data-role": letter }, s("title", {}, title), m, text);
}

const ROLE_LETTERS: Record<number, string> = { [FeatureKind.STREET]: "S", [FeatureKind.MARKET]: "M", [FeatureKind.RESIDENTIAL]: "R" };
const ROLE_WORDS: Record<number, string> = { [FeatureKind.STREET]: "street", [FeatureKind.MARKET]: "market", [FeatureKind.RESIDENTIAL]: "residential area" };

// Followers stand on their feature; where the tile set is unknown they are spread in a row.
function followerLayer(inp: BoardInput): SVGGElement {
  return shared.followerLayer(tilesOf(inp), inp.state.followers, (f, def, at) => {
    const letter = def === undefined ? "" : (ROLE_LETTERS[def.kind] ?? "");
    const role = def === undefined ? "" : ` on a ${ROLE_WORDS[def.kind] ?? "feature"}`;
    return roleMarker(f.player, at[0], at[1], letter, `${playerName(inp.names, f.player)}'s follower${role}`, "follower");
  });
}

// A wall piece's ghost on the edge it would occupy, labelled with its end outside the city.
function wallChoice(p: BoardPick): SVGElement {
  const [x1, y1, x2, y2] = edge(p.x, p.y, p.at);
  const [mx, my] = mid(p.x, p.y, p.at);
  const [ox, oy] = OUTWARDS[p.at] ?? [0, 0];
  const word = endWord(p.end ?? 0);
  const g = s(
    "g",
    { class: "wall-choice", "data-end": word },
    s("line", { x1, y1, x2, y2, class: "wall-choice-hit" }),
    s("line", { x1, y1, x2, y2, class: "wall-ghost" }),
    tag(mx + ox * 30, my + oy * 30, word, "choice-tag"),
  );
  return activatable(g, p.label, p.pick);
}

// A tower's ghost at the corner of its end; when both ends meet (a closed chain) they stand
// side by side.
function towerChoice(p: BoardPick, shift: number): SVGElement {
  const [vx, vy] = corner({ x: p.x, y: p.y });
  const cx = vx + shift;
  const word = endWord(p.end ?? 0);
  const g = s(
    "g",
    { class: "tower-choice", "data-end": word },
    s("circle", { cx, cy: vy, r: 26, class: "tower-choice-hit" }),
    s("path", { d: turretPath(cx, vy, 14), class: "tower-ghost" }),
    tag(cx, vy + 36, word, "choice-tag"),
  );
  return activatable(g, p.label, p.pick);
}

function pickElement(inp: BoardInput, p: BoardPick, all: readonly BoardPick[]): SVGElement {
  switch (p.shape) {
    case "edge": {
      const [x1, y1, x2, y2] = edge(p.x, p.y, p.at);
      return activatable(s("line", { x1, y1, x2, y2, class: "legal-edge", "data-side": p.at }), p.label, p.pick);
    }
    case "wall":
      return wallChoice(p);
    case "tower": {
      const shared = all.some((o) => o !== p && o.shape === "tower" && o.x === p.x && o.y === p.y);
      return towerChoice(p, shared ? (p.end === 0 ? 34 : -34) : 0);
    }
    default:
      return shared.followerSpot(tilesOf(inp), p.x, p.y, p.at, p.label, p.pick);
  }
}

function overlayLayer(inp: BoardInput, o: BoardOverlay): SVGGElement {
  const g = shared.overlayLayer(tilesOf(inp), o);
  for (const p of o.picks) g.append(pickElement(inp, p, o.picks));
  return g;
}

export function drawBoard(inp: BoardInput, overlay: BoardOverlay): SVGGElement {
  return shared.boardGroup(tilesOf(inp), [closingLayer(inp), wallLayer(inp), towerLayer(inp), followerLayer(inp), overlayLayer(inp, overlay)]);
}

// The board's extent in SVG units (with a margin of one cell), for fitting the view.
export function boardBounds(st: PublicState): { x: number; y: number; w: number; h: number } {
  return shared.boardBounds(st.tiles);
}
