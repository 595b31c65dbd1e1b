// The city's outline and where the wall goes along it, from the public state alone, as the engine
// walks it (docs/rules.md 2.7 and 2.8, engine/city/walls.cc): each side of a cell is a directed
// edge walked with the cell on its right, so walking the outline goes clockwise. `wall front` lays
// the outline edge leaving the front end, `wall back` the one arriving at the back end; towers
// stand at the ends. At the end of the game every outline side facing open land that holds no
// piece is taken as walled (R26).
import type { PlacedTile, PublicState } from "./model";

// A side of a cell (0 N, 1 E, 2 S, 3 W), as the wall pieces and the gate name it.
export interface Edge {
  readonly x: number;
  readonly y: number;
  readonly side: number;
}

// A corner of the lattice: cell (x, y) spans the vertices (x, y) to (x + 1, y + 1), north up.
export interface Vertex {
  readonly x: number;
  readonly y: number;
}

const DX = [0, 1, 0, -1];
const DY = [1, 0, -1, 0];

const key = (x: number, y: number): string => `${x},${y}`;

function occupied(tiles: readonly PlacedTile[]): Set<string> {
  return new Set(tiles.map((t) => key(t.x, t.y)));
}

export function edgeStart(e: Edge): Vertex {
  switch (e.side) {
    case 0:
      return { x: e.x, y: e.y + 1 };
    case 1:
      return { x: e.x + 1, y: e.y + 1 };
    case 2:
      return { x: e.x + 1, y: e.y };
    default:
      return { x: e.x, y: e.y };
  }
}

export function edgeEnd(e: Edge): Vertex {
  return edgeStart({ ...e, side: (e.side + 1) % 4 });
}

// The edge leaving (arriving at) `v` travelling in compass direction `heading` (0 N, 1 E, ...).
function edgeLeaving(v: Vertex, heading: number): Edge {
  switch (heading) {
    case 1:
      return { x: v.x, y: v.y - 1, side: 0 };
    case 2:
      return { x: v.x - 1, y: v.y - 1, side: 1 };
    case 3:
      return { x: v.x - 1, y: v.y, side: 2 };
    default:
      return { x: v.x, y: v.y, side: 3 };
  }
}

function edgeArriving(v: Vertex, heading: number): Edge {
  switch (heading) {
    case 1:
      return { x: v.x - 1, y: v.y - 1, side: 0 };
    case 2:
      return { x: v.x - 1, y: v.y, side: 1 };
    case 3:
      return { x: v.x, y: v.y, side: 2 };
    default:
      return { x: v.x, y: v.y - 1, side: 3 };
  }
}

const headingOf = (side: number): number => (side + 1) % 4;

// A side of a tile facing an empty cell.
function isBoundary(cells: Set<string>, e: Edge): boolean {
  return cells.has(key(e.x, e.y)) && !cells.has(key(e.x + (DX[e.side] ?? 0), e.y + (DY[e.side] ?? 0)));
}

// The outline edge after `e` clockwise: at its end, a left turn first, then straight, then right.
export function nextOutlineEdge(cells: Set<string>, e: Edge): Edge | null {
  const v = edgeEnd(e);
  for (const turn of [3, 0, 1]) {
    const next = edgeLeaving(v, (headingOf(e.side) + turn) % 4);
    if (isBoundary(cells, next)) return next;
  }
  return null;
}

// The outline edge before `e`: the one nextOutlineEdge would turn onto `e` from.
export function previousOutlineEdge(cells: Set<string>, e: Edge): Edge | null {
  const v = edgeStart(e);
  for (const turn of [1, 0, 3]) {
    const prev = edgeArriving(v, (headingOf(e.side) + turn) % 4);
    if (isBoundary(cells, prev)) return prev;
  }
  return null;
}

// The outermost piece of each side of the chain (the gate when that side has none).
export function chainEnds(st: PublicState): { front: Edge; back: Edge } | null {
  if (st.gate === null) return null;
  return { front: st.front[st.front.length - 1] ?? st.gate, back: st.back[st.back.length - 1] ?? st.gate };
}

// Where the next piece at each end would lie: [front, back]; null for both before the gate.
export function nextWallEdges(st: PublicState): readonly [Edge | null, Edge | null] {
  const ends = chainEnds(st);
  if (ends === null || st.chainClosed) return [null, null];
  const cells = occupied(st.tiles);
  return [nextOutlineEdge(cells, ends.front), previousOutlineEdge(cells, ends.back)];
}

// The corner each end of the chain stops at, where a tower goes: [front, back].
export function endVertices(st: PublicState): readonly [Vertex, Vertex] | null {
  const ends = chainEnds(st);
  return ends === null ? null : [edgeEnd(ends.front), edgeStart(ends.back)];
}

// Where a tower placed with `position` pieces on its side stands: the end of that side then.
export function towerVertex(st: PublicState, end: number, position: number): Vertex | null {
  if (st.gate === null) return null;
  const chain = end === 0 ? st.front : st.back;
  const piece = position > 0 ? chain[position - 1] : st.gate;
  if (piece === undefined) return null;
  return end === 0 ? edgeEnd(piece) : edgeStart(piece);
}

// The empty cells joined side to side to the land beyond the board (holes excluded).
function openLand(tiles: readonly PlacedTile[], cells: Set<string>): (x: number, y: number) => boolean {
  const xs = tiles.map((t) => t.x);
  const ys = tiles.map((t) => t.y);
  const [x0, x1, y0, y1] = [Math.min(...xs) - 1, Math.max(...xs) + 1, Math.min(...ys) - 1, Math.max(...ys) + 1];
  const open = new Set<string>();
  const stack: [number, number][] = [];
  const visit = (x: number, y: number): void => {
    if (x < x0 || x > x1 || y < y0 || y > y1 || open.has(key(x, y)) || cells.has(key(x, y))) return;
    open.add(key(x, y));
    stack.push([x, y]);
  };
  for (let x = x0; x <= x1; x++) [y0, y1].forEach((y) => visit(x, y));
  for (let y = y0; y <= y1; y++) [x0, x1].forEach((x) => visit(x, y));
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [x, y] = top;
    for (let side = 0; side < 4; side++) visit(x + (DX[side] ?? 0), y + (DY[side] ?? 0));
  }
  return (x, y) => x < x0 || x > x1 || y < y0 || y > y1 || open.has(key(x, y));
}

// R26: the outline sides facing open land that hold neither a piece nor the gate, which the
// final scoring takes as walled; in placement order, each tile's sides N, E, S, W.
export function closingEdges(st: PublicState): Edge[] {
  if (st.tiles.length === 0) return [];
  const cells = occupied(st.tiles);
  const isOpen = openLand(st.tiles, cells);
  const built = new Set([...(st.gate === null ? [] : [st.gate]), ...st.front, ...st.back].map((e) => `${e.x},${e.y},${e.side}`));
  const edges: Edge[] = [];
  for (const t of st.tiles) {
    for (let side = 0; side < 4; side++) {
      if (built.has(`${t.x},${t.y},${side}`)) continue;
      if (isOpen(t.x + (DX[side] ?? 0), t.y + (DY[side] ?? 0))) edges.push({ x: t.x, y: t.y, side });
    }
  }
  return edges;
}
