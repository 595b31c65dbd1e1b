// The board as SVG: each placed tile drawn from the tile set (tile-art.ts), followers as their
// seat's marker on the feature they stand on, wall pieces and the gate along tile edges, towers at
// the wall ends, and the overlay of the seat's decision: legal cells, the tile being placed, and
// clickable spots and edges for the other choices. Without the tile set (not yet loaded) tiles
// are plain squares. Engine y grows north; SVG y grows down, so a cell (x, y) is drawn with its
// top-left corner at (x·C, −y·C).
import type { PublicState, WallPiece } from "./model";
import { typeOf, type TileCatalog } from "../../tiles/catalog";
import { featureAnchor, turn, type Point } from "../../tiles/geometry";
import { s } from "../../ui/dom";
import { look, marker, playerName } from "../../ui/players";
import { tileArt } from "./tile-art";

export const CELL = 100;

export interface Placement {
  readonly x: number;
  readonly y: number;
  readonly rotation: number;
}

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
export interface BoardOverlay {
  readonly cells: readonly { x: number; y: number }[];
  readonly ghost: (Placement & { readonly tile: number }) | null;
  readonly onCell: ((x: number, y: number) => void) | null;
  readonly picks: readonly BoardPick[];
  readonly marks: readonly WallPiece[]; // wall ends to point out (where the next piece goes)
}

export const NO_OVERLAY: BoardOverlay = { cells: [], ghost: null, onCell: null, picks: [], marks: [] };

export interface BoardInput {
  readonly state: PublicState;
  readonly catalog: TileCatalog | null;
  readonly names: readonly string[];
}

function cellCentre(x: number, y: number): Point {
  return [x * CELL + CELL / 2, -y * CELL + CELL / 2];
}

function plainTile(tile: number, rotation: number): SVGGElement {
  const h = CELL / 2;
  return s(
    "g",
    {},
    s("rect", { x: -h, y: -h, width: CELL, height: CELL, class: "tile-square" }),
    s("path", { d: `M 0 ${-h + 8} L 8 ${-h + 22} L -8 ${-h + 22} Z`, transform: `rotate(${rotation * 90})`, class: "arrow" }),
    s("text", { x: 0, y: 8, "text-anchor": "middle", class: "tile-id" }, String(tile)),
  );
}

function tileGroup(catalog: TileCatalog | null, tile: number, p: Placement, cls: string): SVGGElement {
  const [cx, cy] = cellCentre(p.x, p.y);
  const type = catalog === null ? undefined : typeOf(catalog, tile);
  const body = type === undefined ? plainTile(tile, p.rotation) : tileArt(type, p.rotation);
  return s("g", { transform: `translate(${cx} ${cy})`, class: cls, "data-tile": tile }, body);
}

// Where a follower on `feature` of the tile at (x, y) stands, in board units; null when the
// tile or its type is unknown.
export function featurePoint(inp: BoardInput, x: number, y: number, feature: number): Point | null {
  const placed = inp.state.tiles.find((t) => t.x === x && t.y === y);
  if (placed === undefined || inp.catalog === null) return null;
  const type = typeOf(inp.catalog, placed.tile);
  if (type === undefined) return null;
  const [ax, ay] = turn(featureAnchor(type, feature), placed.rotation);
  const [cx, cy] = cellCentre(x, y);
  return [cx + ax, cy + ay];
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
  const g = s("g", { class: "followers" });
  const perCell = new Map<string, number>();
  for (const f of inp.state.followers) {
    const key = `${f.x},${f.y}`;
    const i = perCell.get(key) ?? 0;
    perCell.set(key, i + 1);
    const at = featurePoint(inp, f.x, f.y, f.feature) ?? [f.x * CELL + 20 + (i % 3) * 30, -f.y * CELL + 78];
    const m = marker(f.player, at[0], at[1], 9);
    m.setAttribute("class", "marker follower");
    m.append(s("title", {}, `${playerName(inp.names, f.player)}'s follower`));
    g.append(m);
  }
  return g;
}

// Picks are focusable and answer Enter and Space as well as clicks: keyboard play needs no mouse.
function activatable<E extends SVGElement>(el: E, label: string, onPick: () => void): E {
  el.setAttribute("tabindex", "0");
  el.setAttribute("role", "button");
  el.setAttribute("aria-label", label);
  el.append(s("title", {}, label));
  el.addEventListener("click", onPick);
  el.addEventListener("keydown", (e) => {
    if (e.key !== "Enter" && e.key !== " ") return;
    e.preventDefault();
    e.stopPropagation();
    onPick();
  });
  return el;
}

function pickElement(inp: BoardInput, p: BoardPick): SVGElement {
  if (p.shape === "edge") {
    const [x1, y1, x2, y2] = edge(p.x, p.y, p.at);
    return activatable(s("line", { x1, y1, x2, y2, class: "legal-edge", "data-side": p.at }), p.label, p.pick);
  }
  const at = featurePoint(inp, p.x, p.y, p.at) ?? cellCentre(p.x, p.y);
  return activatable(s("circle", { cx: at[0], cy: at[1], r: 11, class: "follower-spot", "data-feature": p.at }), p.label, p.pick);
}

function overlayLayer(inp: BoardInput, o: BoardOverlay): SVGGElement {
  const g = s("g", { class: "overlay" });
  for (const c of o.cells) {
    const r = s("rect", {
      x: c.x * CELL + 3,
      y: -c.y * CELL + 3,
      width: CELL - 6,
      height: CELL - 6,
      class: "legal-cell",
      "data-x": c.x,
      "data-y": c.y,
    });
    const onCell = o.onCell;
    g.append(onCell === null ? r : activatable(r, `Place the tile at ${c.x}, ${c.y}`, () => onCell(c.x, c.y)));
  }
  if (o.ghost !== null) g.append(tileGroup(inp.catalog, o.ghost.tile, o.ghost, "tile ghost"));
  for (const w of o.marks) g.append(edgeLine(w.x, w.y, w.side, "wall-end-mark"));
  for (const p of o.picks) g.append(pickElement(inp, p));
  return g;
}

export function drawBoard(inp: BoardInput, overlay: BoardOverlay): SVGGElement {
  const root = s("g", { class: "board" });
  for (const t of inp.state.tiles) root.append(tileGroup(inp.catalog, t.tile, t, "tile"));
  root.append(wallLayer(inp), towerLayer(inp), followerLayer(inp), overlayLayer(inp, overlay));
  return root;
}

// The board's extent in SVG units (with a margin of one cell), for fitting the view.
export function boardBounds(st: PublicState): { x: number; y: number; w: number; h: number } {
  const xs = st.tiles.map((t) => t.x);
  const ys = st.tiles.map((t) => -t.y);
  const minX = Math.min(0, ...xs) - 1;
  const maxX = Math.max(0, ...xs) + 2;
  const minY = Math.min(0, ...ys) - 1;
  const maxY = Math.max(0, ...ys) + 2;
  return { x: minX * CELL, y: minY * CELL, w: (maxX - minX) * CELL, h: (maxY - minY) * CELL };
}
