// Where the parts of a tile lie, in the tile's own SVG units: the tile is a square of side SIZE
// centred on (0, 0), north up (SVG y grows down). The twelve ports of docs/tiles.md run clockwise
// from the north-west corner; the eight half-side ports each span half a side, the four midpoints
// are points. Areas are drawn as the triangles from the centre to their half sides, which matches
// the model: two halves belong to one area exactly when the tile file says so.
import { Building, FeatureKind, StreetEnd } from "../gen/carcassonne/tiles/v1/tiles_pb";
import type { FeatureDef, TileTypeDef } from "./catalog";

export const SIZE = 100;
const H = SIZE / 2;

export type Point = readonly [number, number];

export const MIDPOINT_PORTS = [1, 4, 7, 10] as const;
export const HALF_PORTS = [0, 2, 3, 5, 6, 8, 9, 11] as const;

// The two ends of each half-side port, clockwise.
const HALF_EDGES: Readonly<Record<number, readonly [Point, Point]>> = {
  0: [[-H, -H], [0, -H]],
  2: [[0, -H], [H, -H]],
  3: [[H, -H], [H, 0]],
  5: [[H, 0], [H, H]],
  6: [[H, H], [0, H]],
  8: [[0, H], [-H, H]],
  9: [[-H, H], [-H, 0]],
  11: [[-H, 0], [-H, -H]],
};

const MIDPOINTS: Readonly<Record<number, Point>> = { 1: [0, -H], 4: [H, 0], 7: [0, H], 10: [-H, 0] };

export function isMidpoint(port: number): boolean {
  return port % 3 === 1;
}

export function midpoint(port: number): Point {
  return MIDPOINTS[port] ?? [0, 0];
}

// The triangle from the centre to a half side, as an SVG points list.
export function halfTriangle(port: number): Point[] {
  const e = HALF_EDGES[port];
  return e === undefined ? [] : [[0, 0], e[0], e[1]];
}

function centroid(points: readonly Point[]): Point {
  const n = Math.max(1, points.length);
  const sx = points.reduce((a, p) => a + p[0], 0);
  const sy = points.reduce((a, p) => a + p[1], 0);
  return [sx / n, sy / n];
}

// The middle of an area: the mean of its triangles' centroids. An area all around the tile has
// its middle at the centre, where streets and buildings go, so it uses one of its own corners.
function areaMiddle(f: FeatureDef): Point {
  const halves = f.ports.filter((p) => !isMidpoint(p));
  const middle = centroid(halves.map((p) => centroid(halfTriangle(p))));
  if (Math.hypot(middle[0], middle[1]) >= H * 0.25) return middle;
  const first = halves[0];
  const c = first === undefined ? middle : centroid(halfTriangle(first));
  return [c[0] * 1.3, c[1] * 1.3];
}

function streetMiddle(f: FeatureDef): Point {
  const mids = f.ports.filter(isMidpoint).map(midpoint);
  const first = mids[0] ?? [0, 0];
  // Part way in from the first side the street touches: clear of crossings and buildings.
  const k = mids.length === 1 ? 0.55 : 0.45;
  return [first[0] * k, first[1] * k];
}

// Where a city segment's pennant (its shield) goes: the plain middle of its triangles, which for
// a city all around the tile is its centre.
export function pennantAnchor(t: TileTypeDef, index: number): Point {
  const f = t.features[index];
  const halves = f === undefined ? [] : f.ports.filter((p) => !isMidpoint(p));
  return centroid(halves.map((p) => centroid(halfTriangle(p))));
}

// Where a market's symbol goes: the middle of the market.
export function symbolAnchor(t: TileTypeDef, index: number): Point {
  const f = t.features[index];
  return f === undefined ? [0, 0] : areaMiddle(f);
}

// The points a follower on an area may stand on: the area's middle, then the middle of each of
// its triangles.
function areaCandidates(f: FeatureDef): Point[] {
  const halves = f.ports.filter((p) => !isMidpoint(p));
  return [areaMiddle(f), ...halves.map((p) => centroid(halfTriangle(p)))];
}

function nearest(p: Point, others: readonly Point[]): number {
  return Math.min(Infinity, ...others.map((o) => Math.hypot(p[0] - o[0], p[1] - o[1])));
}

// What a follower on an area must keep clear of: the building, the streets' (roads', rivers')
// followers, the market symbols and pennants, and a monastery.
function obstacles(t: TileTypeDef): Point[] {
  const points: Point[] = [];
  if (t.building !== Building.NONE) points.push(buildingAnchor(t));
  t.features.forEach((f, i) => {
    if (f.kind === FeatureKind.STREET || f.kind === FeatureKind.RIVER) points.push(streetMiddle(f));
    else if (f.kind === FeatureKind.MARKET) points.push(symbolAnchor(t, i));
    else if (f.kind === FeatureKind.CITY && f.pennant) points.push(pennantAnchor(t, i));
    else if (f.kind === FeatureKind.MONASTERY) points.push([0, 0]);
  });
  return points;
}

// Where a follower on feature `index` stands, in the unturned tile's units: on a street (a road)
// part way along it; on a monastery in the centre; on an area at the candidate point farthest from everything else drawn on the tile.
export function featureAnchor(t: TileTypeDef, index: number): Point {
  const f = t.features[index];
  if (f === undefined) return [0, 0];
  if (f.kind === FeatureKind.STREET || f.kind === FeatureKind.RIVER) return streetMiddle(f);
  if (f.kind === FeatureKind.MONASTERY) return [0, 0];
  const avoid = obstacles(t);
  let best = areaMiddle(f);
  let room = nearest(best, avoid);
  for (const c of areaCandidates(f)) {
    const r = nearest(c, avoid);
    if (r > room + 0.5) [best, room] = [c, r];
  }
  return best;
}

// A point of the unturned tile after `rotation` quarter turns clockwise about its centre.
export function turn(p: Point, rotation: number): Point {
  let [x, y] = p;
  for (let i = 0; i < ((rotation % 4) + 4) % 4; i++) [x, y] = [-y, x];
  return [x, y];
}

// Where the tile's building stands: at the end of a street that leads to it, or at the centre
// when no street crosses the tile, or else in its largest residential area, towards the edge.
export function buildingAnchor(t: TileTypeDef): Point {
  const streets = t.features.filter((f) => f.kind === FeatureKind.STREET);
  if (streets.some((f) => f.end === StreetEnd.BUILDING) || streets.length === 0) return [0, 0];
  const areas = t.features.filter((f) => f.kind === FeatureKind.RESIDENTIAL);
  const largest = [...areas].sort((a, b) => b.ports.length - a.ports.length)[0];
  if (largest === undefined) return [0, 0];
  // Pushed out towards the tile's edge, which leaves the area's middle free for a follower.
  const [x, y] = areaMiddle(largest);
  const limit = H - 13; // the building's half width, inside the tile
  const clamp = (v: number): number => Math.max(-limit, Math.min(limit, v * 1.35));
  return [clamp(x), clamp(y)];
}

// How much of a tile's art a view shows: below FINE_DETAIL_MIN_PX screen pixels a tile, fine
// details (a pictogram's grains, a river's current) would run together, so the art shows bold
// signs instead (style.css reads the board's data-detail).
export type ArtDetail = "fine" | "coarse";
export const FINE_DETAIL_MIN_PX = 80;

export function artDetail(pixelsPerTile: number): ArtDetail {
  return pixelsPerTile < FINE_DETAIL_MIN_PX ? "coarse" : "fine";
}
