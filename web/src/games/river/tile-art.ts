// The art of one Carcassonne tile, generated from its type (docs/tiles.md) and drawn as the box's
// tiles are: grassy fields, cities of roofs behind a stone wall (a city on one side is the usual
// arc; a larger one fills its triangles from the centre to its half sides, walled where it meets
// the field), a shield on each city segment with a pennant, roads as sandy bands between edges,
// the river as water between green banks (the spring and the lake as pools), crossings, and the
// monastery as a chapel on its garden. Feature names show on hover (SVG <title>). Textures are
// patterns defined once per page (art/defs.ts). The group is centred on (0, 0) and turned as the
// tile lies; shields and the monastery are turned back, so they stay upright.
import { FeatureKind, StreetEnd, TileRole } from "../../gen/carcassonne/tiles/v1/tiles_pb";
import type { FeatureDef, TileTypeDef } from "../../tiles/catalog";
import { halfTriangle, isMidpoint, midpoint, pennantAnchor, SIZE, turn, type Point } from "../../tiles/geometry";
import { s } from "../../ui/dom";
import { ensureCarcassonneDefs } from "./art/defs";
import { featureWord } from "./words";

const H = SIZE / 2;

function pointsAttr(points: readonly Point[]): string {
  return points.map((p) => `${p[0]},${p[1]}`).join(" ");
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function fieldLayer(t: TileTypeDef): SVGGElement {
  // The ground is grass: what a city's arc leaves of its side's triangles is field.
  const g = s("g", { class: "areas" }, s("rect", { x: -H, y: -H, width: SIZE, height: SIZE, class: "field-ground" }));
  // Each field over it, unpainted, names itself on hover.
  for (const f of t.features.filter((x) => x.kind === FeatureKind.FIELD)) {
    g.append(s("path", { d: trianglesPath(f), class: "area field" }, s("title", {}, capitalise(featureWord(f)))));
  }
  return g;
}

// The feature's triangles as one path: a textured fill is painted once per area.
function trianglesPath(f: FeatureDef): string {
  return halvesOf(f)
    .map((p) => `M ${pointsAttr(halfTriangle(p))} Z`)
    .join(" ");
}

function halvesOf(f: FeatureDef): number[] {
  return f.ports.filter((p) => !isMidpoint(p));
}

// The side whose two halves are exactly the city's, or null for a city on more than one side.
function oneSide(f: FeatureDef): number | null {
  const halves = halvesOf(f);
  const [a, b] = halves;
  if (halves.length !== 2 || a === undefined || b === undefined) return null;
  return a % 3 === 0 && b === a + 2 ? a / 3 : null;
}

function pathOf(points: readonly Point[], close: boolean): string {
  const [p0, k1, k2, p1] = points.map((p) => `${p[0]} ${p[1]}`);
  return `M ${p0} C ${k1} ${k2} ${p1}${close ? " Z" : ""}`;
}

// A city on one side: an arc from corner to corner, 30 units deep at its middle.
function arc(side: number): Point[] {
  const north: Point[] = [[-H, -H], [-H * 0.6, -H * 0.2], [H * 0.6, -H * 0.2], [H, -H]];
  return north.map((p) => turn(p, side));
}

// The wall of a city drawn as triangles: each line from the centre to the tile's edge with the
// city on one side of it and not on the other. Half port 3s+2 and 3s+3 meet at a corner; 3s and
// 3s+2 at side s's midpoint.
function triangleWalls(f: FeatureDef): string {
  const mine = new Set(halvesOf(f));
  const lines: string[] = [];
  for (let side = 0; side < 4; side++) {
    const [first, second, next] = [3 * side, 3 * side + 2, (3 * side + 3) % 12];
    if (mine.has(first) !== mine.has(second)) lines.push(edgeLine(midpoint(3 * side + 1)));
    if (mine.has(second) !== mine.has(next)) lines.push(edgeLine(halfTriangle(second)[2] ?? [0, 0]));
  }
  return lines.join(" ");
}

function edgeLine(to: Point): string {
  return `M 0 0 L ${to[0]} ${to[1]}`;
}

function cityLayer(t: TileTypeDef): SVGGElement {
  const g = s("g", { class: "cities" });
  const walls: string[] = [];
  for (const f of t.features.filter((x) => x.kind === FeatureKind.CITY)) {
    const side = oneSide(f);
    const d = side !== null ? pathOf(arc(side), true) : trianglesPath(f);
    g.append(s("path", { d, class: "area city" }, s("title", {}, capitalise(featureWord(f)))));
    walls.push(side !== null ? pathOf(arc(side), false) : triangleWalls(f));
  }
  const d = walls.filter((w) => w !== "").join(" ");
  if (d !== "") g.append(s("path", { d, class: "city-wall-edge" }), s("path", { d, class: "city-wall" }));
  return g;
}

// How far towards the centre a segment that touches one side runs (0: to the centre).
const END_STOP: Record<number, number> = {
  [StreetEnd.CROSSING]: 0,
  [StreetEnd.MONASTERY]: 0.3,
  [StreetEnd.CITY]: 0.1,
};

// A lane from each side a road or the river touches: straight across, a curve through the
// centre, or in to where it ends.
function lanePath(f: FeatureDef): string {
  const mids = f.ports.filter(isMidpoint).map(midpoint);
  const [a, b] = mids;
  if (a === undefined) return "";
  if (b === undefined) {
    const stop = END_STOP[f.end] ?? 0;
    return `M ${a[0]} ${a[1]} L ${a[0] * stop} ${a[1] * stop}`;
  }
  const straight = a[0] === -b[0] && a[1] === -b[1];
  return straight ? `M ${a[0]} ${a[1]} L ${b[0]} ${b[1]}` : `M ${a[0]} ${a[1]} Q 0 0 ${b[0]} ${b[1]}`;
}

// Banks first, then the water with a lighter current down its middle, then the pool.
function riverLayer(t: TileTypeDef): SVGGElement {
  const g = s("g", { class: "rivers" });
  const rivers = t.features.filter((x) => x.kind === FeatureKind.RIVER).map(lanePath);
  const pool =
    t.role === TileRole.SPRING ? { rx: 12, ry: 12, title: "The spring" } : t.role === TileRole.LAKE ? { rx: 24, ry: 17, title: "The lake" } : null;
  for (const d of rivers) g.append(s("path", { d, class: "river-bank" }));
  if (pool !== null) g.append(s("ellipse", { rx: pool.rx + 4, ry: pool.ry + 4, class: "river-bank" }));
  for (const d of rivers) g.append(s("path", { d, class: "river" }, s("title", {}, "The river")));
  for (const d of rivers) g.append(s("path", { d, class: "river-current" }));
  if (pool !== null) g.append(s("ellipse", { rx: pool.rx, ry: pool.ry, class: "river-pool" }, s("title", {}, pool.title)));
  return g;
}

function roadLayer(t: TileTypeDef): SVGGElement {
  const g = s("g", { class: "roads" });
  const roads = t.features.filter((f) => f.kind === FeatureKind.STREET);
  for (const f of roads) g.append(s("path", { d: lanePath(f), class: "road-edge" }));
  for (const f of roads) g.append(s("path", { d: lanePath(f), class: "road" }, s("title", {}, "Road")));
  if (roads.some((f) => f.end === StreetEnd.CROSSING)) {
    g.append(s("rect", { x: -7, y: -7, width: 14, height: 14, class: "crossing" }, s("title", {}, "Crossing")));
  }
  return g;
}

// A shield, the pennant's mark, about (0, 0).
function shield(): SVGGElement {
  return s(
    "g",
    { class: "pennant" },
    s("path", { d: "M -8 -9 L 8 -9 L 8 0 Q 8 7 0 11 Q -8 7 -8 0 Z" }),
    s("path", { d: "M 0 -9 L 0 11 M -8 -2 L 8 -2", class: "pennant-cross" }),
  );
}

function pennantLayer(t: TileTypeDef, rotation: number): SVGGElement {
  const g = s("g", { class: "pennants" });
  for (const [i, f] of t.features.entries()) {
    if (f.kind !== FeatureKind.CITY || !f.pennant) continue;
    const [x, y] = pennantAnchor(t, i);
    const mark = shield();
    mark.setAttribute("transform", `translate(${x} ${y}) rotate(${-rotation * 90})`);
    mark.append(s("title", {}, "A pennant: the city scores 2 more points for this tile"));
    g.append(mark);
  }
  return g;
}

// A chapel with a bell tower and a cross, on its garden in the centre.
function monastery(rotation: number): SVGGElement {
  return s(
    "g",
    { class: "monastery", transform: `rotate(${-rotation * 90})` },
    s("title", {}, "Monastery"),
    s("rect", { x: -21, y: -21, width: 42, height: 42, rx: 6, class: "monastery-garden" }),
    s("rect", { x: -14, y: -4, width: 22, height: 16, class: "monastery-wall" }),
    s("polygon", { points: "-17,-4 -3,-14 11,-4", class: "monastery-roof" }),
    s("rect", { x: 8, y: -14, width: 8, height: 26, class: "monastery-wall" }),
    s("polygon", { points: "7,-14 12,-22 17,-14", class: "monastery-roof" }),
    s("path", { d: "M -3 -24 L -3 -14 M -7 -20 L 1 -20", class: "monastery-cross" }),
    s("path", { d: "M -6 12 L -6 5 Q -3 2 0 5 L 0 12 Z", class: "monastery-door" }),
  );
}

// The tile of type `t` turned `rotation` quarter turns clockwise, centred on (0, 0).
export function tileArt(t: TileTypeDef, rotation: number): SVGGElement {
  ensureCarcassonneDefs();
  const layers = [fieldLayer(t), cityLayer(t), riverLayer(t), roadLayer(t), pennantLayer(t, rotation)];
  const body = s("g", { transform: `rotate(${rotation * 90})` }, ...layers);
  if (t.features.some((f) => f.kind === FeatureKind.MONASTERY)) body.append(monastery(rotation));
  const frame = s("rect", { x: -H, y: -H, width: SIZE, height: SIZE, class: "tile-frame" });
  return s("g", { class: "tile-art carcassonne" }, body, frame);
}
