// The board as SVG: each placed tile drawn from the tile set (tile-art.ts), followers as their
// seat's marker on the feature they stand on, wall pieces and the gate along tile edges, towers at
// the wall ends, and the overlay of the seat's decision: legal cells, the tile being placed, and
// clickable spots and edges for the other choices. Without the tile set (not yet loaded) tiles
// are plain squares. Engine y grows north; SVG y grows down, so a cell (x, y) is drawn with its
// top-left corner at (x·C, −y·C).
import type { TileCatalog } from "../../tiles/catalog";
import type { Point } from "../../tiles/geometry";
import { s } from "../../ui/dom";
import { look, marker, playerName } from "../../ui/players";
import * as shared from "../shared/board";
import { activatable, CELL, type BoardTiles, type CellOverlay, type Placement } from "../shared/board";
import type { PublicState, WallPiece } from "./model";
import { tileArt } from "./tile-art";

export { CELL };
export type { Placement };

// A choice drawn on the board: a spot (a follower's feature) or an edge (a gate's side).
export interface BoardPick {
  readonly shape: "spot" | "edge";
  readonly x: number;
  readonly y: number;
  readonly at: number; // the feature (spot) or the side (edge)
  readonly label: string;
  readonly pick: () => void;
}

// What the board shows besides the state: the legal cells, the chosen ghost tile, other picks.
export interface BoardOverlay extends CellOverlay {
  readonly picks: readonly BoardPick[];
  readonly marks: readonly WallPiece[]; // wall ends to point out (where the next piece goes)
}

export const NO_OVERLAY: BoardOverlay = { cells: [], ghost: null, onCell: null, picks: [], marks: [] };

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

function wallLayer(inp: BoardInput): SVGGElement {
  const st = inp.state;
  const g = s("g", { class: "walls" });
  const pieces: readonly WallPiece[] = [...st.front, ...st.back];
  for (const w of pieces) g.append(edgeLine(w.x, w.y, w.side, "wall"));
  if (st.gate !== null) {
    g.append(edgeLine(st.gate.x, st.gate.y, st.gate.side, "gate"));
    const [mx, my] = mid(st.gate.x, st.gate.y, st.gate.side);
    g.append(s("rect", { x: mx - 7, y: my - 7, width: 14, height: 14, class: "gate-mark" }, s("title", {}, "The gate")));
  }
  for (const w of pieces) {
    if (w.guard === null) continue;
    const [mx, my] = mid(w.x, w.y, w.side);
    const m = marker(w.guard, mx, my, 8);
    m.append(s("title", {}, `${playerName(inp.names, w.guard)}'s guard`));
    g.append(m);
  }
  return g;
}

// A tower stands at the outer end of its side of the chain as it was when built: after
// `position` pieces from the gate (at the gate itself when there were none).
function towerLayer(inp: BoardInput): SVGGElement {
  const st = inp.state;
  const g = s("g", { class: "towers" });
  for (const t of st.towers) {
    const chain = t.end === 0 ? st.front : st.back;
    const at = t.position > 0 ? chain[t.position - 1] : st.gate;
    if (at === undefined || at === null) continue;
    const [mx, my] = mid(at.x, at.y, at.side);
    const tower = s("g", { class: "tower-group" }, s("title", {}, `${playerName(inp.names, t.player)}'s tower`));
    tower.append(s("rect", { x: mx - 12, y: my - 12, width: 24, height: 24, class: "tower", stroke: look(t.player).colour }));
    tower.append(marker(t.player, mx, my, 6));
    g.append(tower);
  }
  return g;
}

// Followers stand on their feature; where the tile set is unknown they are spread in a row.
function followerLayer(inp: BoardInput): SVGGElement {
  return shared.followerLayer(tilesOf(inp), inp.state.followers, (f, _def, at) => {
    const m = marker(f.player, at[0], at[1], 9);
    m.setAttribute("class", "marker follower");
    m.append(s("title", {}, `${playerName(inp.names, f.player)}'s follower`));
    return m;
  });
}

function pickElement(inp: BoardInput, p: BoardPick): SVGElement {
  if (p.shape === "edge") {
    const [x1, y1, x2, y2] = edge(p.x, p.y, p.at);
    return activatable(s("line", { x1, y1, x2, y2, class: "legal-edge", "data-side": p.at }), p.label, p.pick);
  }
  return shared.followerSpot(tilesOf(inp), p.x, p.y, p.at, p.label, p.pick);
}

function overlayLayer(inp: BoardInput, o: BoardOverlay): SVGGElement {
  const g = shared.overlayLayer(tilesOf(inp), o);
  for (const w of o.marks) g.append(edgeLine(w.x, w.y, w.side, "wall-end-mark"));
  for (const p of o.picks) g.append(pickElement(inp, p));
  return g;
}

export function drawBoard(inp: BoardInput, overlay: BoardOverlay): SVGGElement {
  return shared.boardGroup(tilesOf(inp), [wallLayer(inp), towerLayer(inp), followerLayer(inp), overlayLayer(inp, overlay)]);
}

// The board's extent in SVG units (with a margin of one cell), for fitting the view.
export function boardBounds(st: PublicState): { x: number; y: number; w: number; h: number } {
  return shared.boardBounds(st.tiles);
}
