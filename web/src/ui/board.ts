// The board as SVG: each placed tile a square with its id and an arrow for its rotation (the
// client has no tile geometry), followers as the seat's marker, wall pieces and the gate along
// tile edges, towers at the wall ends, and, when the seat must place a tile, its legal cells.
// Engine y grows north; SVG y grows down, so a cell (x, y) is drawn at (x·C, −y·C).
import type { PublicState, WallPiece } from "../state";
import { s } from "./dom";
import { look, marker } from "./players";

export const CELL = 100;

export interface Placement {
  readonly x: number;
  readonly y: number;
  readonly rotation: number;
}

// What the board shows besides the state: the legal cells and the chosen ghost tile.
export interface BoardOverlay {
  readonly cells: readonly { x: number; y: number }[];
  readonly ghost: (Placement & { readonly tile: number }) | null;
  readonly onCell: ((x: number, y: number) => void) | null;
}

export const NO_OVERLAY: BoardOverlay = { cells: [], ghost: null, onCell: null };

function tileGroup(tile: number, p: Placement, cls: string): SVGGElement {
  const x0 = p.x * CELL;
  const y0 = -p.y * CELL;
  const h = CELL / 2;
  // The arrow points at the tile's own north side after turning it `rotation` quarter turns.
  const arrow = s("path", {
    d: `M 0 ${-h + 8} L 8 ${-h + 22} L -8 ${-h + 22} Z`,
    transform: `rotate(${p.rotation * 90})`,
    class: "arrow",
  });
  return s(
    "g",
    { transform: `translate(${x0 + h} ${y0 + h})`, class: cls },
    s("rect", { x: -h, y: -h, width: CELL, height: CELL, class: "tile-square" }),
    arrow,
    s("text", { x: 0, y: 8, "text-anchor": "middle", class: "tile-id" }, String(tile)),
  );
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

function wallLayer(st: PublicState): SVGGElement {
  const g = s("g", { class: "walls" });
  const pieces: readonly WallPiece[] = [...st.front, ...st.back];
  for (const w of pieces) g.append(edgeLine(w.x, w.y, w.side, "wall"));
  if (st.gate !== null) {
    g.append(edgeLine(st.gate.x, st.gate.y, st.gate.side, "gate"));
    const [mx, my] = mid(st.gate.x, st.gate.y, st.gate.side);
    g.append(s("rect", { x: mx - 7, y: my - 7, width: 14, height: 14, class: "gate-mark" }));
  }
  for (const w of pieces) {
    if (w.guard === null) continue;
    const [mx, my] = mid(w.x, w.y, w.side);
    g.append(marker(w.guard, mx, my, 7));
  }
  return g;
}

// A tower stands at the outer end of its side of the chain as it was when built: after
// `position` pieces from the gate (at the gate itself when there were none).
function towerLayer(st: PublicState): SVGGElement {
  const g = s("g", { class: "towers" });
  for (const t of st.towers) {
    const chain = t.end === 0 ? st.front : st.back;
    const at = t.position > 0 ? chain[t.position - 1] : st.gate;
    if (at === undefined || at === null) continue;
    const [mx, my] = mid(at.x, at.y, at.side);
    g.append(s("rect", { x: mx - 12, y: my - 12, width: 24, height: 24, class: "tower", stroke: look(t.player).colour }));
    g.append(marker(t.player, mx, my, 6));
  }
  return g;
}

// Followers of one tile are spread in a row so that several stay visible; the feature index is
// written beside each, because without geometry it is the only way to tell features apart.
function followerLayer(st: PublicState): SVGGElement {
  const g = s("g", { class: "followers" });
  const perCell = new Map<string, number>();
  for (const f of st.followers) {
    const key = `${f.x},${f.y}`;
    const i = perCell.get(key) ?? 0;
    perCell.set(key, i + 1);
    const cx = f.x * CELL + 20 + (i % 3) * 30;
    const cy = -f.y * CELL + 78 - Math.floor(i / 3) * 22;
    g.append(marker(f.player, cx, cy, 9));
    g.append(s("text", { x: cx + 11, y: cy + 4, class: "feature-label" }, String(f.feature)));
  }
  return g;
}

function overlayLayer(o: BoardOverlay): SVGGElement {
  const g = s("g", { class: "overlay" });
  for (const c of o.cells) {
    const r = s("rect", { x: c.x * CELL + 3, y: -c.y * CELL + 3, width: CELL - 6, height: CELL - 6, class: "legal-cell" });
    const onCell = o.onCell;
    if (onCell !== null) r.addEventListener("click", () => onCell(c.x, c.y));
    g.append(r);
  }
  if (o.ghost !== null) g.append(tileGroup(o.ghost.tile, o.ghost, "tile ghost"));
  return g;
}

export function drawBoard(st: PublicState, overlay: BoardOverlay): SVGGElement {
  const root = s("g", { class: "board" });
  for (const t of st.tiles) root.append(tileGroup(t.tile, t, "tile"));
  root.append(wallLayer(st), towerLayer(st), followerLayer(st), overlayLayer(overlay));
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
