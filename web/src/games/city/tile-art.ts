// The art of one tile, generated from its type (docs/tiles.md): residential areas and markets as
// coloured triangles from the centre to their half sides, each market with its kind's symbol,
// streets as lanes between side midpoints, crossings, and the building, whose name is shown on
// hover (an SVG <title>). The group is centred on (0, 0) and turned as the tile lies.
import { Building, FeatureKind, MarketKind, StreetEnd } from "../../gen/carcassonne/tiles/v1/tiles_pb";
import { buildingWord, featureWord, type FeatureDef, type TileTypeDef } from "../../tiles/catalog";
import { buildingAnchor, halfTriangle, isMidpoint, midpoint, SIZE, symbolAnchor, type Point } from "../../tiles/geometry";
import { s } from "../../ui/dom";

const H = SIZE / 2;

// Fills chosen to stay apart in lightness as well as hue; the symbols carry the kind too.
const AREA_CLASS: Record<number, string> = {
  [MarketKind.FISH]: "area market-fish",
  [MarketKind.GRAIN]: "area market-grain",
  [MarketKind.LIVESTOCK]: "area market-livestock",
};

function pointsAttr(points: readonly Point[]): string {
  return points.map((p) => `${p[0]},${p[1]}`).join(" ");
}

function areaLayer(t: TileTypeDef): SVGGElement {
  const g = s("g", { class: "areas" });
  t.features.forEach((f) => {
    if (f.kind === FeatureKind.STREET) return;
    const cls = f.kind === FeatureKind.MARKET ? (AREA_CLASS[f.market] ?? "area") : "area residential";
    for (const port of f.ports) {
      if (!isMidpoint(port)) g.append(s("polygon", { points: pointsAttr(halfTriangle(port)), class: cls }));
    }
  });
  return g;
}

// A lane from each side the street touches: straight across, a curve through the centre, or in
// to where it ends (the crossing, the building or the market near the centre).
function streetPath(f: FeatureDef): string {
  const mids = f.ports.filter(isMidpoint).map(midpoint);
  const [a, b] = mids;
  if (a === undefined) return "";
  if (b === undefined) {
    const stop = f.end === StreetEnd.BUILDING ? 0.3 : 0;
    return `M ${a[0]} ${a[1]} L ${a[0] * stop} ${a[1] * stop}`;
  }
  const straight = a[0] === -b[0] && a[1] === -b[1];
  return straight ? `M ${a[0]} ${a[1]} L ${b[0]} ${b[1]}` : `M ${a[0]} ${a[1]} Q 0 0 ${b[0]} ${b[1]}`;
}

function streetLayer(t: TileTypeDef): SVGGElement {
  const g = s("g", { class: "streets" });
  const streets = t.features.filter((f) => f.kind === FeatureKind.STREET);
  for (const f of streets) g.append(s("path", { d: streetPath(f), class: "street-edge" }));
  for (const f of streets) {
    g.append(s("path", { d: streetPath(f), class: "street" }, s("title", {}, capitalise(featureWord(f)))));
  }
  if (streets.some((f) => f.end === StreetEnd.CROSSING)) {
    g.append(s("rect", { x: -7, y: -7, width: 14, height: 14, class: "crossing" }, s("title", {}, "Crossing")));
  }
  return g;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// Small pictograms, drawn about (0, 0) within about ±9 units.
function symbol(kind: MarketKind): SVGGElement {
  const g = s("g", { class: "market-symbol" });
  switch (kind) {
    case MarketKind.FISH:
      g.append(s("ellipse", { cx: -2, cy: 0, rx: 7, ry: 4 }), s("polygon", { points: "4,0 10,-5 10,5" }));
      break;
    case MarketKind.GRAIN:
      g.append(s("line", { x1: 0, y1: 9, x2: 0, y2: -8, class: "stalk" }));
      for (const y of [-5, 0, 5]) {
        g.append(s("ellipse", { cx: -3, cy: y, rx: 2.5, ry: 4 }), s("ellipse", { cx: 3, cy: y, rx: 2.5, ry: 4 }));
      }
      break;
    case MarketKind.LIVESTOCK:
      g.append(
        s("rect", { x: -8, y: -4, width: 13, height: 8, rx: 3 }),
        s("circle", { cx: 7, cy: -4, r: 3.5 }),
        s("line", { x1: -6, y1: 3, x2: -6, y2: 9, class: "leg" }),
        s("line", { x1: 3, y1: 3, x2: 3, y2: 9, class: "leg" }),
      );
      break;
    default:
      break;
  }
  return g;
}

function marketLayer(t: TileTypeDef, rotation: number): SVGGElement {
  const g = s("g", { class: "markets" });
  for (const [i, f] of t.features.entries()) {
    if (f.kind !== FeatureKind.MARKET) continue;
    const [x, y] = symbolAnchor(t, i);
    // Symbols are turned back, so they stay upright however the tile lies.
    const sym = symbol(f.market);
    sym.setAttribute("transform", `translate(${x} ${y}) rotate(${-rotation * 90})`);
    sym.append(s("title", {}, capitalise(featureWord(f))));
    g.append(sym);
  }
  return g;
}

function buildingShape(t: TileTypeDef, rotation: number): SVGGElement | null {
  const title = buildingWord(t);
  if (title === null) return null;
  const [x, y] = buildingAnchor(t);
  const g = s("g", { transform: `translate(${x} ${y}) rotate(${-rotation * 90})` }, s("title", {}, title));
  if (t.building === Building.HISTORIC) {
    g.setAttribute("class", "building historic");
    g.append(
      s("rect", { x: -13, y: -6, width: 26, height: 17 }),
      s("rect", { x: -5, y: -17, width: 10, height: 12 }),
      s("polygon", { points: "-7,-17 0,-25 7,-17" }),
    );
  } else {
    g.setAttribute("class", "building public");
    g.append(s("rect", { x: -10, y: -3, width: 20, height: 13 }), s("polygon", { points: "-13,-3 0,-13 13,-3" }));
  }
  return g;
}

// The tile of type `t` turned `rotation` quarter turns clockwise, centred on (0, 0).
export function tileArt(t: TileTypeDef, rotation: number): SVGGElement {
  const body = s("g", { transform: `rotate(${rotation * 90})` }, areaLayer(t), streetLayer(t), marketLayer(t, rotation));
  const building = buildingShape(t, rotation);
  if (building !== null) body.append(building);
  const frame = s("rect", { x: -H, y: -H, width: SIZE, height: SIZE, class: "tile-frame" });
  return s("g", { class: "tile-art" }, body, frame);
}
