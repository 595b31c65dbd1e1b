// The art of one tile, generated from its type (docs/tiles.md) and drawn as the box's tiles are,
// from above: residential areas are packed roofs, markets are plazas with their stalls and the
// kind's pictogram on a badge, streets are bands of setts between kerbs (to a paved crossing, a
// building or a market), and the building stands on its square, its name shown on hover (an SVG
// <title>). Areas are the triangles from the centre to their half sides; their textures are
// patterns defined once per page (art/defs.ts). The group is centred on (0, 0) and turned as the
// tile lies; pictograms and buildings are turned back, so they stay upright.
import { Building, FeatureKind, MarketKind, StreetEnd } from "../../gen/carcassonne/tiles/v1/tiles_pb";
import { buildingWord, featureWord, type FeatureDef, type TileTypeDef } from "../../tiles/catalog";
import { buildingAnchor, halfTriangle, isMidpoint, midpoint, SIZE, symbolAnchor, type Point } from "../../tiles/geometry";
import { s } from "../../ui/dom";
import { historicBuilding, publicBuilding } from "./art/buildings";
import { ensureCityDefs } from "./art/defs";
import { BADGE_RADIUS, marketSign } from "./art/pictograms";

const H = SIZE / 2;

// The area's class; style.css fills it with its texture (roofs, or the kind's stalls) and a
// plain colour where patterns are not drawn. Fills differ in lightness as well as hue.
const AREA_CLASS: Record<number, string> = {
  [MarketKind.FISH]: "area market market-fish",
  [MarketKind.GRAIN]: "area market market-grain",
  [MarketKind.LIVESTOCK]: "area market market-livestock",
};

function pointsAttr(points: readonly Point[]): string {
  return points.map((p) => `${p[0]},${p[1]}`).join(" ");
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// One path per area, its triangles as subpaths: a textured fill is painted once per area, not
// once per triangle, which keeps a full board quick to draw.
function areaPath(f: FeatureDef): string {
  return f.ports
    .filter((p) => !isMidpoint(p))
    .map((p) => `M ${pointsAttr(halfTriangle(p))} Z`)
    .join(" ");
}

function areaLayer(t: TileTypeDef): SVGGElement {
  const g = s("g", { class: "areas" });
  for (const f of t.features) {
    if (f.kind === FeatureKind.STREET) continue;
    const cls = f.kind === FeatureKind.MARKET ? (AREA_CLASS[f.market] ?? "area market") : "area residential";
    g.append(s("path", { d: areaPath(f), class: cls }, s("title", {}, capitalise(featureWord(f)))));
  }
  return g;
}

// Where a street that touches one side stops: short of the building, which stands at the centre,
// or at the centre (a crossing, a market).
function deadEndStop(f: FeatureDef): number {
  return f.end === StreetEnd.BUILDING ? 0.3 : 0;
}

// A lane from each side the street touches: straight across, a curve through the centre, or in
// to where it ends.
function streetPath(f: FeatureDef): string {
  const mids = f.ports.filter(isMidpoint).map(midpoint);
  const [a, b] = mids;
  if (a === undefined) return "";
  if (b === undefined) {
    const stop = deadEndStop(f);
    return `M ${a[0]} ${a[1]} L ${a[0] * stop} ${a[1] * stop}`;
  }
  const straight = a[0] === -b[0] && a[1] === -b[1];
  return straight ? `M ${a[0]} ${a[1]} L ${b[0]} ${b[1]}` : `M ${a[0]} ${a[1]} Q 0 0 ${b[0]} ${b[1]}`;
}

// Kerbs first, then the paving over them, so streets that meet join without a seam.
function streetLayer(t: TileTypeDef): SVGGElement {
  const g = s("g", { class: "streets" });
  const streets = t.features.filter((f) => f.kind === FeatureKind.STREET);
  for (const f of streets) g.append(s("path", { d: streetPath(f), class: "street-edge" }));
  for (const f of streets) g.append(s("path", { d: streetPath(f), class: "street" }, s("title", {}, capitalise(featureWord(f)))));
  // The rows of setts across the paving: a dashed stroke, far cheaper to paint than a texture.
  for (const f of streets) g.append(s("path", { d: streetPath(f), class: "street-setts" }));
  if (streets.some((f) => f.end === StreetEnd.CROSSING)) g.append(crossing());
  return g;
}

// The square where streets meet, with a well in its middle.
function crossing(): SVGGElement {
  const w = STREET_WIDTH / 2;
  return s(
    "g",
    { class: "crossing" },
    s("title", {}, "Crossing"),
    s("rect", { x: -w, y: -w, width: 2 * w, height: 2 * w, class: "crossing-paving" }),
    s("circle", { r: 4.5, class: "crossing-well" }),
  );
}

// The paving's width (style.css draws .street this wide).
const STREET_WIDTH = 17;

// A sign's centre, kept far enough in for the larger badge to stay on the tile.
function insideForSign(v: number): number {
  const limit = H - BADGE_RADIUS.coarse - 1;
  return Math.max(-limit, Math.min(limit, v));
}

function marketLayer(t: TileTypeDef, rotation: number): SVGGElement {
  const g = s("g", { class: "markets" });
  for (const [i, f] of t.features.entries()) {
    if (f.kind !== FeatureKind.MARKET) continue;
    const [ax, ay] = symbolAnchor(t, i);
    const [x, y] = [insideForSign(ax), insideForSign(ay)];
    const sign = marketSign(f.market);
    sign.setAttribute("transform", `translate(${x} ${y}) rotate(${-rotation * 90})`);
    sign.append(s("title", {}, capitalise(featureWord(f))));
    g.append(sign);
  }
  return g;
}

// The building at full size needs 17 units around its anchor; one pushed towards the tile's edge
// is drawn smaller, so that it stays on its tile.
const BUILDING_REACH = 17;

function buildingScale([x, y]: Point): number {
  const room = H - 1 - Math.max(Math.abs(x), Math.abs(y));
  return Math.min(1, room / BUILDING_REACH);
}

function buildingShape(t: TileTypeDef, rotation: number): SVGGElement | null {
  const title = buildingWord(t);
  if (title === null) return null;
  const at = buildingAnchor(t);
  const historic = t.building === Building.HISTORIC;
  const place = `translate(${at[0]} ${at[1]}) rotate(${-rotation * 90}) scale(${buildingScale(at).toFixed(2)})`;
  return s(
    "g",
    { class: historic ? "building historic" : "building public", transform: place },
    s("title", {}, title),
    ...(historic ? historicBuilding() : publicBuilding()),
  );
}

// The tile of type `t` turned `rotation` quarter turns clockwise, centred on (0, 0).
export function tileArt(t: TileTypeDef, rotation: number): SVGGElement {
  ensureCityDefs();
  const body = s("g", { transform: `rotate(${rotation * 90})` }, areaLayer(t), streetLayer(t));
  const building = buildingShape(t, rotation);
  if (building !== null) body.append(building);
  // Market signs over the building: a sign that comes near it stays whole.
  body.append(marketLayer(t, rotation));
  const frame = s("rect", { x: -H, y: -H, width: SIZE, height: SIZE, class: "tile-frame" });
  return s("g", { class: "tile-art" }, body, frame);
}
