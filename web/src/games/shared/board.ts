// The board's SVG scaffolding for a game of square tiles on a grid: where a cell lies, each placed
// tile drawn with the game's tile art (a plain square with its id and an arrow before the tile set
// has come), followers on the feature they stand on, the overlay of legal cells and the ghost of
// the tile being placed, and picks that answer the keyboard as well as clicks. A game's board adds
// its own layers (walls, towers, farmers) and picks. Engine y grows north; SVG y grows down, so a
// cell (x, y) is drawn with its top-left corner at (x·C, −y·C).
import { typeOf, type FeatureDef, type TileCatalog, type TileTypeDef } from "../../tiles/catalog";
import { featureAnchor, turn, type Point } from "../../tiles/geometry";
import { s } from "../../ui/dom";
import type { Placement } from "./placement";

export type { Placement };

export const CELL = 100;

// One tile type's art, centred on (0, 0), turned by `rotation` quarter turns.
export type TileArt = (t: TileTypeDef, rotation: number) => SVGGElement;

export interface PlacedTile extends Placement {
  readonly tile: number;
}

export interface PlacedFollower {
  readonly x: number;
  readonly y: number;
  readonly feature: number;
  readonly player: number;
}

// What the shared layers read: the tiles on the board and the tile set (null until it has come).
export interface BoardTiles {
  readonly tiles: readonly PlacedTile[];
  readonly catalog: TileCatalog | null;
  readonly art: TileArt;
}

// What the overlay of a decision shows in common: the legal cells and the ghost tile.
export interface CellOverlay {
  readonly cells: readonly { x: number; y: number }[];
  readonly ghost: (Placement & { readonly tile: number }) | null;
  readonly onCell: ((x: number, y: number) => void) | null;
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

export function tileGroup(b: BoardTiles, tile: number, p: Placement, cls: string): SVGGElement {
  const [cx, cy] = cellCentre(p.x, p.y);
  const type = b.catalog === null ? undefined : typeOf(b.catalog, tile);
  const body = type === undefined ? plainTile(tile, p.rotation) : b.art(type, p.rotation);
  return s("g", { transform: `translate(${cx} ${cy})`, class: cls, "data-tile": tile }, body);
}

// The feature of the tile at (x, y), and where a follower on it stands in board units; null
// when the tile or its type is unknown.
export function featureAt(b: BoardTiles, x: number, y: number, feature: number): { def: FeatureDef | undefined; at: Point } | null {
  const placed = b.tiles.find((t) => t.x === x && t.y === y);
  if (placed === undefined || b.catalog === null) return null;
  const type = typeOf(b.catalog, placed.tile);
  if (type === undefined) return null;
  const [ax, ay] = turn(featureAnchor(type, feature), placed.rotation);
  const [cx, cy] = cellCentre(x, y);
  return { def: type.features[feature], at: [cx + ax, cy + ay] };
}

// Followers stand on their feature; where the tile set is unknown they are spread in a row.
// `draw` makes one follower's marker, given its feature (undefined when unknown) and its point.
export function followerLayer<F extends PlacedFollower>(
  b: BoardTiles,
  followers: readonly F[],
  draw: (f: F, def: FeatureDef | undefined, at: Point) => SVGElement,
): SVGGElement {
  const g = s("g", { class: "followers" });
  const perCell = new Map<string, number>();
  for (const f of followers) {
    const key = `${f.x},${f.y}`;
    const i = perCell.get(key) ?? 0;
    perCell.set(key, i + 1);
    const found = featureAt(b, f.x, f.y, f.feature);
    const at = found?.at ?? [f.x * CELL + 20 + (i % 3) * 30, -f.y * CELL + 78];
    g.append(draw(f, found?.def, at));
  }
  return g;
}

// Picks are focusable and answer Enter and Space as well as clicks: keyboard play needs no mouse.
export function activatable<E extends SVGElement>(el: E, label: string, onPick: () => void): E {
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

// A follower's feature to pick on the board: a spot where the follower would stand.
export function followerSpot(b: BoardTiles, x: number, y: number, feature: number, label: string, pick: () => void): SVGElement {
  const at = featureAt(b, x, y, feature)?.at ?? cellCentre(x, y);
  return activatable(s("circle", { cx: at[0], cy: at[1], r: 11, class: "follower-spot", "data-feature": feature }), label, pick);
}

// The overlay layer with the legal cells and the ghost tile; a game appends its own picks.
export function overlayLayer(b: BoardTiles, o: CellOverlay): SVGGElement {
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
  if (o.ghost !== null) g.append(tileGroup(b, o.ghost.tile, o.ghost, "tile ghost"));
  return g;
}

// The board: the placed tiles, then the game's layers in order.
export function boardGroup(b: BoardTiles, layers: readonly SVGElement[]): SVGGElement {
  const root = s("g", { class: "board" });
  for (const t of b.tiles) root.append(tileGroup(b, t.tile, t, "tile"));
  root.append(...layers);
  return root;
}

// The board's extent in SVG units (with a margin of one cell), for fitting the view.
export function boardBounds(tiles: readonly Placement[]): { x: number; y: number; w: number; h: number } {
  const xs = tiles.map((t) => t.x);
  const ys = tiles.map((t) => -t.y);
  const minX = Math.min(0, ...xs) - 1;
  const maxX = Math.max(0, ...xs) + 2;
  const minY = Math.min(0, ...ys) - 1;
  const maxY = Math.max(0, ...ys) + 2;
  return { x: minX * CELL, y: minY * CELL, w: (maxX - minX) * CELL, h: (maxY - minY) * CELL };
}
