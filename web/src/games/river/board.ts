// The board as SVG: each placed tile drawn from the tile set (tile-art.ts), followers as their
// seat's marker on the feature they stand on (farmers lying on their field: a flat marker on a
// ground line, so they are told from standing followers without colour), and the overlay of the
// seat's decision: legal cells, the tile being placed, clickable spots for a follower. Without
// the tile set (not yet loaded) tiles are plain squares. Engine y grows north; SVG y grows down,
// so a cell (x, y) is drawn with its top-left corner at (x·C, −y·C).
import { FeatureKind } from "../../gen/carcassonne/tiles/v1/tiles_pb";
import { typeOf, type FeatureDef, type TileCatalog } from "../../tiles/catalog";
import { featureAnchor, turn, type Point } from "../../tiles/geometry";
import { s } from "../../ui/dom";
import { marker, playerName } from "../../ui/players";
import type { PublicState } from "./model";
import { tileArt } from "./tile-art";
import { tileRoleWord } from "./words";

export const CELL = 100;

export interface Placement {
  readonly x: number;
  readonly y: number;
  readonly rotation: number;
}

// A follower's feature to pick on the board.
export interface BoardPick {
  readonly x: number;
  readonly y: number;
  readonly feature: number;
  readonly label: string;
  readonly pick: () => void;
}

export interface BoardOverlay {
  readonly cells: readonly { x: number; y: number }[];
  readonly ghost: (Placement & { readonly tile: number }) | null;
  readonly onCell: ((x: number, y: number) => void) | null;
  readonly picks: readonly BoardPick[];
}

export const NO_OVERLAY: BoardOverlay = { cells: [], ghost: null, onCell: null, picks: [] };

export interface BoardInput {
  readonly state: PublicState;
  readonly catalog: TileCatalog | null;
  readonly names: readonly string[];
}

export function cellCentre(x: number, y: number): Point {
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

// The feature of the tile at (x, y), and where a follower on it stands in board units; null
// when the tile or its type is unknown.
export function featureAt(inp: BoardInput, x: number, y: number, feature: number): { def: FeatureDef | undefined; at: Point } | null {
  const placed = inp.state.tiles.find((t) => t.x === x && t.y === y);
  if (placed === undefined || inp.catalog === null) return null;
  const type = typeOf(inp.catalog, placed.tile);
  if (type === undefined) return null;
  const [ax, ay] = turn(featureAnchor(type, feature), placed.rotation);
  const [cx, cy] = cellCentre(x, y);
  return { def: type.features[feature], at: [cx + ax, cy + ay] };
}

// A farmer lies on its field: the seat's marker flattened, on a ground line.
function farmer(seat: number, x: number, y: number): SVGGElement {
  const body = marker(seat, 0, 0, 9);
  return s(
    "g",
    { class: "marker follower farmer", transform: `translate(${x} ${y})`, "data-role": "farmer" },
    s("g", { transform: "scale(1.5 0.6)" }, body),
    s("line", { x1: -15, y1: 8, x2: 15, y2: 8, class: "farmer-ground" }),
  );
}

// Followers stand on their feature; where the tile set is unknown they are spread in a row.
function followerLayer(inp: BoardInput): SVGGElement {
  const g = s("g", { class: "followers" });
  const perCell = new Map<string, number>();
  for (const f of inp.state.followers) {
    const key = `${f.x},${f.y}`;
    const i = perCell.get(key) ?? 0;
    perCell.set(key, i + 1);
    const found = featureAt(inp, f.x, f.y, f.feature);
    const at = found?.at ?? [f.x * CELL + 20 + (i % 3) * 30, -f.y * CELL + 78];
    const role = tileRoleWord(found?.def);
    let m: SVGElement;
    if (found?.def?.kind === FeatureKind.FIELD) {
      m = farmer(f.player, at[0], at[1]);
    } else {
      m = marker(f.player, at[0], at[1], 9);
      m.setAttribute("class", "marker follower");
      m.setAttribute("data-role", role);
    }
    m.append(s("title", {}, `${playerName(inp.names, f.player)}'s ${role}`));
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
  for (const p of o.picks) {
    const at = featureAt(inp, p.x, p.y, p.feature)?.at ?? cellCentre(p.x, p.y);
    g.append(activatable(s("circle", { cx: at[0], cy: at[1], r: 11, class: "follower-spot", "data-feature": p.feature }), p.label, p.pick));
  }
  return g;
}

export function drawBoard(inp: BoardInput, overlay: BoardOverlay): SVGGElement {
  const root = s("g", { class: "board" });
  for (const t of inp.state.tiles) root.append(tileGroup(inp.catalog, t.tile, t, "tile"));
  root.append(followerLayer(inp), overlayLayer(inp, overlay));
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
