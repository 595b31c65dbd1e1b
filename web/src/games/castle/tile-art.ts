// The art of one tile of The Castle, generated from its type (docs/tiles.md, "Paths, towers,
// houses and courts"): towers in grey stone, houses under red roofs, courts as lawn (a market on
// a court as a stall with an awning), paths as cobbled lanes between kerbs that branch through
// the centre, meet at a paved square or end at a building, fountains as a round basin. A start
// space is a strip of the castle wall whose inner side (the tile's north) shows the features a
// tile beside it must continue; its blank halves are wall. Feature names show on hover (SVG
// <title>). The group is centred on (0, 0) and turned as the tile lies; symbols are turned back,
// so they stay upright.
import { FeatureKind, StreetEnd, TileRole } from "../../gen/carcassonne/tiles/v1/tiles_pb";
import type { FeatureDef, TileTypeDef } from "../../tiles/catalog";
import { halfTriangle, isMidpoint, midpoint, SIZE, symbolAnchor, type Point } from "../../tiles/geometry";
import { s } from "../../ui/dom";
import { ensureCastleDefs } from "./art/defs";
import { featureWord } from "./words";

const H = SIZE / 2;
// How deep a start space's strip reaches into its wall cell.
const STRIP = 30;

const AREA_CLASS: Record<number, string> = {
  [FeatureKind.TOWER]: "area castle-tower",
  [FeatureKind.HOUSE]: "area castle-house",
  [FeatureKind.COURT]: "area castle-court",
};

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function pointsAttr(points: readonly Point[]): string {
  return points.map((p) => `${p[0]},${p[1]}`).join(" ");
}

function halvesOf(f: FeatureDef): number[] {
  return f.ports.filter((p) => !isMidpoint(p));
}

// The area's triangles as one path: a textured fill is painted once per area.
function trianglesPath(f: FeatureDef): string {
  return halvesOf(f)
    .map((p) => `M ${pointsAttr(halfTriangle(p))} Z`)
    .join(" ");
}

function areaLayer(t: TileTypeDef): SVGGElement {
  const g = s("g", { class: "areas" }, s("rect", { x: -H, y: -H, width: SIZE, height: SIZE, class: "castle-ground" }));
  for (const f of t.features) {
    const cls = AREA_CLASS[f.kind];
    if (cls === undefined) continue;
    g.append(s("path", { d: trianglesPath(f), class: cls }, s("title", {}, capitalise(featureWord(f)))));
  }
  return g;
}

// How far towards the centre a path that touches one side runs (0: to the centre).
const END_STOP: Record<number, number> = {
  [StreetEnd.SQUARE]: 0.25,
  [StreetEnd.BUILDING]: 0.35,
  [StreetEnd.CROSSING]: 0,
};

// A lane from each side the path touches: straight across, a curve through the centre, spokes
// to the centre for a branching path, or in to where it ends.
function lanePath(f: FeatureDef): string {
  const mids = f.ports.filter(isMidpoint).map(midpoint);
  const [a, b] = mids;
  if (a === undefined) return "";
  if (mids.length > 2) return mids.map((p) => `M ${p[0]} ${p[1]} L 0 0`).join(" ");
  if (b === undefined) {
    const stop = END_STOP[f.end] ?? 0;
    return `M ${a[0]} ${a[1]} L ${a[0] * stop} ${a[1] * stop}`;
  }
  const straight = a[0] === -b[0] && a[1] === -b[1];
  return straight ? `M ${a[0]} ${a[1]} L ${b[0]} ${b[1]}` : `M ${a[0]} ${a[1]} Q 0 0 ${b[0]} ${b[1]}`;
}

// A fountain: a round basin with water, about (x, y).
function fountain(x: number, y: number): SVGGElement {
  return s(
    "g",
    { class: "fountain", transform: `translate(${x} ${y})` },
    s("title", {}, "A fountain"),
    s("circle", { r: 9, class: "fountain-basin" }),
    s("circle", { r: 5, class: "fountain-water" }),
  );
}

function pathLayer(t: TileTypeDef): SVGGElement {
  const g = s("g", { class: "paths" });
  const paths = t.features.filter((f) => f.kind === FeatureKind.STREET);
  for (const f of paths) g.append(s("path", { d: lanePath(f), class: "castle-path-edge" }));
  for (const f of paths) g.append(s("path", { d: lanePath(f), class: "castle-path" }, s("title", {}, capitalise(featureWord(f)))));
  if (paths.some((f) => f.end === StreetEnd.SQUARE)) {
    g.append(s("rect", { x: -13, y: -13, width: 26, height: 26, rx: 3, class: "castle-square" }, s("title", {}, "A square: the paths end here")));
  }
  for (const f of paths.filter((p) => p.end === StreetEnd.BUILDING)) {
    const [m] = f.ports.filter(isMidpoint).map(midpoint);
    if (m === undefined) continue;
    const [x, y] = [m[0] * 0.2, m[1] * 0.2];
    g.append(s("rect", { x: x - 9, y: y - 9, width: 18, height: 18, class: "castle-building" }, s("title", {}, "A building: the path ends here")));
  }
  return g;
}

// Where a path's fountain stands: the centre of a branching path, else part way along it.
function fountainAt(f: FeatureDef): Point {
  const mids = f.ports.filter(isMidpoint).map(midpoint);
  if (mids.length > 2 || mids.length === 0) return [0, 0];
  const [a] = mids;
  return a === undefined ? [0, 0] : [a[0] * 0.55, a[1] * 0.55];
}

// A market: a stall under a striped awning.
function market(x: number, y: number, rotation: number): SVGGElement {
  return s(
    "g",
    { class: "castle-market", transform: `translate(${x} ${y}) rotate(${-rotation * 90})` },
    s("title", {}, "A market: the court scores 3 more points for it at the end"),
    s("rect", { x: -9, y: -2, width: 18, height: 9, class: "market-stall" }),
    s("path", { d: "M -11 -2 L -7 -9 L 7 -9 L 11 -2 Z", class: "market-awning" }),
  );
}

function symbolLayer(t: TileTypeDef, rotation: number): SVGGElement {
  const g = s("g", { class: "symbols" });
  for (const [i, f] of t.features.entries()) {
    if (!f.symbol) continue;
    if (f.kind === FeatureKind.STREET) {
      const [x, y] = fountainAt(f);
      g.append(fountain(x, y));
    } else if (f.kind === FeatureKind.COURT) {
      const [x, y] = symbolAnchor(t, i);
      g.append(market(x * 0.8, y * 0.8, rotation));
    }
  }
  return g;
}

// A start space: wall stone, with the strip along its north side showing its features (the
// halves that have one) and its path reaching the wall.
function startSpaceArt(t: TileTypeDef): SVGGElement {
  const g = s("g", { class: "start-space" }, s("rect", { x: -H, y: -H, width: SIZE, height: SIZE, class: "castle-wall-stone" }));
  const halves: [number, number][] = [
    [0, -H],
    [2, 0],
  ];
  for (const [port, x0] of halves) {
    const f = t.features[t.portFeature[port] ?? -1];
    const cls = f === undefined ? undefined : AREA_CLASS[f.kind];
    if (f === undefined || cls === undefined) continue;
    g.append(s("rect", { x: x0, y: -H, width: H, height: STRIP, class: cls }, s("title", {}, capitalise(featureWord(f)))));
  }
  const path = t.features[t.portFeature[1] ?? -1];
  if (path !== undefined && path.kind === FeatureKind.STREET) {
    const d = `M 0 ${-H} L 0 ${-H + STRIP}`;
    g.append(s("path", { d, class: "castle-path-edge" }), s("path", { d, class: "castle-path" }, s("title", {}, capitalise(featureWord(path)))));
    if (path.symbol) g.append(fountain(0, -H + STRIP - 8));
  }
  g.append(s("path", { d: `M ${-H} ${-H + STRIP} L ${H} ${-H + STRIP}`, class: "start-space-edge" }));
  return g;
}

// The tile of type `t` turned `rotation` quarter turns clockwise, centred on (0, 0).
export function tileArt(t: TileTypeDef, rotation: number): SVGGElement {
  ensureCastleDefs();
  const frame = s("rect", { x: -H, y: -H, width: SIZE, height: SIZE, class: "tile-frame" });
  if (t.role === TileRole.START_SPACE) {
    return s("g", { class: "tile-art castle start" }, s("g", { transform: `rotate(${rotation * 90})` }, startSpaceArt(t)), frame);
  }
  const body = s("g", { transform: `rotate(${rotation * 90})` }, areaLayer(t), pathLayer(t), symbolLayer(t, rotation));
  return s("g", { class: "tile-art castle" }, body, frame);
}
