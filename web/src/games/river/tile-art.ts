// The art of one Carcassonne tile, generated from its type (docs/tiles.md): fields and cities as
// coloured triangles from the centre to their half sides, a shield on each city segment with a
// pennant, roads as lanes between side midpoints, the river as a blue band (the spring and the
// lake as pools), crossings, and the monastery in the centre. Feature names show on hover (SVG
// <title>). The group is centred on (0, 0) and turned as the tile lies; shields and the
// monastery are turned back, so they stay upright.
import { FeatureKind, StreetEnd, TileRole } from "../../gen/carcassonne/tiles/v1/tiles_pb";
import type { FeatureDef, TileTypeDef } from "../../tiles/catalog";
import { halfTriangle, isMidpoint, midpoint, pennantAnchor, SIZE, type Point } from "../../tiles/geometry";
import { s } from "../../ui/dom";
import { featureWord } from "./words";

const H = SIZE / 2;

function pointsAttr(points: readonly Point[]): string {
  return points.map((p) => `${p[0]},${p[1]}`).join(" ");
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function areaLayer(t: TileTypeDef): SVGGElement {
  const g = s("g", { class: "areas" });
  t.features.forEach((f) => {
    if (f.kind !== FeatureKind.CITY && f.kind !== FeatureKind.FIELD) return;
    const cls = f.kind === FeatureKind.CITY ? "area city" : "area field";
    const area = s("g", {}, s("title", {}, capitalise(featureWord(f))));
    for (const port of f.ports) {
      if (!isMidpoint(port)) area.append(s("polygon", { points: pointsAttr(halfTriangle(port)), class: cls }));
    }
    g.append(area);
  });
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

function riverLayer(t: TileTypeDef): SVGGElement {
  const g = s("g", { class: "rivers" });
  for (const f of t.features.filter((x) => x.kind === FeatureKind.RIVER)) {
    g.append(s("path", { d: lanePath(f), class: "river" }, s("title", {}, "The river")));
  }
  if (t.role === TileRole.SPRING) g.append(s("circle", { cx: 0, cy: 0, r: 11, class: "river-pool" }, s("title", {}, "The spring")));
  if (t.role === TileRole.LAKE) g.append(s("ellipse", { cx: 0, cy: 0, rx: 22, ry: 16, class: "river-pool" }, s("title", {}, "The lake")));
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

// A chapel with a cross, in the centre.
function monastery(rotation: number): SVGGElement {
  return s(
    "g",
    { class: "monastery", transform: `rotate(${-rotation * 90})` },
    s("title", {}, "Monastery"),
    s("rect", { x: -11, y: -6, width: 22, height: 18 }),
    s("polygon", { points: "-14,-6 0,-17 14,-6" }),
    s("path", { d: "M 0 -26 L 0 -17 M -4 -22 L 4 -22", class: "monastery-cross" }),
    s("rect", { x: -3, y: 3, width: 6, height: 9, class: "monastery-door" }),
  );
}

// The tile of type `t` turned `rotation` quarter turns clockwise, centred on (0, 0).
export function tileArt(t: TileTypeDef, rotation: number): SVGGElement {
  const body = s("g", { transform: `rotate(${rotation * 90})` }, areaLayer(t), riverLayer(t), roadLayer(t), pennantLayer(t, rotation));
  if (t.features.some((f) => f.kind === FeatureKind.MONASTERY)) body.append(monastery(rotation));
  const frame = s("rect", { x: -H, y: -H, width: SIZE, height: SIZE, class: "tile-frame" });
  return s("g", { class: "tile-art carcassonne" }, body, frame);
}
