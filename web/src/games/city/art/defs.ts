// The City's shared textures, as the box draws its tiles from above: residential areas are
// packed roofs, markets are plazas with their stalls (striped awnings for fish and grain, fenced
// pens for livestock, so the kinds differ in shape as well as colour), and streets are cobbled.
// Patterns are 25 units square, so four fit a tile and neighbouring tiles line up.
import { MarketKind } from "../../../gen/carcassonne/tiles/v1/tiles_pb";
import { s } from "../../../ui/dom";
import { SIZE } from "../../../tiles/geometry";
import { ensureArtDefs, pattern, tileClip } from "../../shared/art-defs";
import { pictogramDefs } from "./pictograms";

const DEFS_ID = "city-art-defs";
const P = 25;

export const ROOFS = "city-roofs";
export const COBBLES = "city-cobbles";
export const TILE_CLIP = "city-tile-clip";
export const STALLS: Readonly<Record<number, string>> = {
  [MarketKind.FISH]: "city-stalls-fish",
  [MarketKind.GRAIN]: "city-stalls-grain",
  [MarketKind.LIVESTOCK]: "city-stalls-livestock",
};

// A gabled roof seen from above: two slopes of one colour, the shaded one darker.
function roof(x: number, y: number, w: number, h: number, light: string, dark: string): SVGGElement {
  const across = w >= h;
  const lit = across ? { x, y, width: w, height: h / 2 } : { x, y, width: w / 2, height: h };
  const shaded = across ? { x, y: y + h / 2, width: w, height: h / 2 } : { x: x + w / 2, y, width: w / 2, height: h };
  return s("g", {}, s("rect", { ...lit, fill: light }), s("rect", { ...shaded, fill: dark }), s("rect", { x, y, width: w, height: h, fill: "none", stroke: "#7a5a48", "stroke-width": 0.4 }));
}

// Houses of a few sizes and roof colours, set irregularly with lanes between them, and a tree or
// two: a texture that reads as a town and stays quieter than the streets and markets.
function roofs(): SVGPatternElement {
  const R = 2 * P;
  return pattern(
    ROOFS,
    R,
    s("rect", { width: R, height: R, fill: "#eee5cf" }),
    roof(2, 3, 12, 8, "#d98c66", "#b86e4c"),
    roof(16, 2, 8, 11, "#c9a07a", "#a8805c"),
    roof(27, 4, 13, 8, "#d98c66", "#b86e4c"),
    roof(42, 2, 6, 9, "#aeaaa0", "#8f8b82"),
    roof(3, 16, 8, 12, "#aeaaa0", "#8f8b82"),
    roof(30, 16, 12, 8, "#c9a07a", "#a8805c"),
    roof(13, 31, 13, 8, "#d98c66", "#b86e4c"),
    roof(29, 29, 8, 12, "#d98c66", "#b86e4c"),
    roof(40, 35, 8, 11, "#c9a07a", "#a8805c"),
    roof(2, 41, 11, 7, "#c9a07a", "#a8805c"),
    roof(17, 42, 9, 6, "#aeaaa0", "#8f8b82"),
    s("circle", { cx: 19, cy: 21, r: 4, fill: "#8fb56a" }),
    s("circle", { cx: 45, cy: 25, r: 3, fill: "#8fb56a" }),
  );
}

// A stall's awning from above: stripes of the kind's colour and white.
function awning(x: number, y: number, w: number, h: number, colour: string): SVGGElement {
  const g = s("g", {});
  const stripes = 4;
  for (let i = 0; i < stripes; i++) {
    g.append(s("rect", { x: x + (i * w) / stripes, y, width: w / stripes, height: h, fill: i % 2 === 0 ? colour : "#fbf8ef" }));
  }
  g.append(s("rect", { x, y, width: w, height: h, fill: "none", stroke: "#3a3328", "stroke-width": 0.6 }));
  return g;
}

// A fenced pen with two animals in it.
function pen(x: number, y: number, w: number, h: number): SVGGElement {
  return s(
    "g",
    {},
    s("rect", { x, y, width: w, height: h, fill: "#c9a97c", stroke: "#5b3a1e", "stroke-width": 1.2, "stroke-dasharray": "2 1" }),
    s("ellipse", { cx: x + w * 0.32, cy: y + h * 0.4, rx: 1.8, ry: 1.2, fill: "#4a3220" }),
    s("ellipse", { cx: x + w * 0.68, cy: y + h * 0.65, rx: 1.8, ry: 1.2, fill: "#f3ede0", stroke: "#4a3220", "stroke-width": 0.4 }),
  );
}

function stalls(kind: MarketKind): SVGPatternElement {
  const id = STALLS[kind] ?? "";
  switch (kind) {
    case MarketKind.FISH:
      return pattern(id, P, s("rect", { width: P, height: P, fill: "#cfe2f1" }), awning(2, 3, 11, 7, "#2f6fa8"), awning(13, 14, 9, 7, "#2f6fa8"));
    case MarketKind.GRAIN:
      return pattern(
        id,
        P,
        s("rect", { width: P, height: P, fill: "#f4e6a6" }),
        awning(2, 3, 11, 7, "#c99a12"),
        awning(13, 14, 9, 7, "#c99a12"),
        s("circle", { cx: 6, cy: 17, r: 2, fill: "#b3893a" }),
        s("circle", { cx: 19, cy: 6, r: 2, fill: "#b3893a" }),
      );
    default:
      return pattern(id, P, s("rect", { width: P, height: P, fill: "#dcc09c" }), pen(2, 2, 11, 9), pen(13, 14, 10, 8));
  }
}

function cobbles(): SVGPatternElement {
  return pattern(
    COBBLES,
    6,
    s("rect", { width: 6, height: 6, fill: "#d6d1c6" }),
    s("rect", { x: 0.4, y: 0.4, width: 2.4, height: 2.4, fill: "#c2bbad" }),
    s("rect", { x: 3.4, y: 3.4, width: 2.4, height: 2.4, fill: "#c2bbad" }),
  );
}

export function ensureCityDefs(): void {
  ensureArtDefs(DEFS_ID, () => [roofs(), ...[MarketKind.FISH, MarketKind.GRAIN, MarketKind.LIVESTOCK].map(stalls), cobbles(), tileClip(TILE_CLIP, SIZE), ...pictogramDefs()]);
}
