// The City's shared textures, as the box draws its tiles from above: residential areas are
// packed roofs, and markets are plazas with their stalls (striped awnings for fish and grain,
// fenced pens for livestock, so the kinds differ in shape as well as colour). Patterns are 25 or
// 50 units square, so a whole number of them fits a tile and neighbouring tiles line up.
import { MarketKind } from "../../../gen/carcassonne/tiles/v1/tiles_pb";
import { ensureArtDefs, m, pattern } from "../../shared/art-defs";
import { pictogramDefs } from "./pictograms";

const DEFS_ID = "city-art-defs";
const P = 25;

export const ROOFS = "city-roofs";
export const STALLS: Readonly<Record<number, string>> = {
  [MarketKind.FISH]: "city-stalls-fish",
  [MarketKind.GRAIN]: "city-stalls-grain",
  [MarketKind.LIVESTOCK]: "city-stalls-livestock",
};

// A gabled roof seen from above: two slopes of one colour, the shaded one darker.
function roof(x: number, y: number, w: number, h: number, light: string, dark: string): string {
  const across = w >= h;
  const lit = across ? { x, y, width: w, height: h / 2 } : { x, y, width: w / 2, height: h };
  const shaded = across ? { x, y: y + h / 2, width: w, height: h / 2 } : { x: x + w / 2, y, width: w / 2, height: h };
  return m("rect", { ...lit, fill: light }) + m("rect", { ...shaded, fill: dark }) + m("rect", { x, y, width: w, height: h, fill: "none", stroke: "#7a5a48", "stroke-width": 0.4 });
}

// Houses of a few sizes and roof colours, set irregularly with lanes between them, and a tree or
// two: a texture that reads as a town and stays quieter than the streets and markets.
function roofs(): SVGPatternElement {
  const R = 2 * P;
  const terracotta = ["#d98c66", "#b86e4c"] as const;
  const ochre = ["#c9a07a", "#a8805c"] as const;
  const slate = ["#aeaaa0", "#8f8b82"] as const;
  const houses: [number, number, number, number, readonly [string, string]][] = [
    [2, 3, 12, 8, terracotta],
    [16, 2, 8, 11, ochre],
    [27, 4, 13, 8, terracotta],
    [42, 2, 6, 9, slate],
    [3, 16, 8, 12, slate],
    [30, 16, 12, 8, ochre],
    [13, 31, 13, 8, terracotta],
    [29, 29, 8, 12, terracotta],
    [40, 35, 8, 11, ochre],
    [2, 41, 11, 7, ochre],
    [17, 42, 9, 6, slate],
  ];
  return pattern(
    ROOFS,
    R,
    m("rect", { width: R, height: R, fill: "#eee5cf" }) +
      houses.map(([x, y, w, h, [light, dark]]) => roof(x, y, w, h, light, dark)).join("") +
      m("circle", { cx: 19, cy: 21, r: 4, fill: "#8fb56a" }) +
      m("circle", { cx: 45, cy: 25, r: 3, fill: "#8fb56a" }),
  );
}

// A stall's awning from above: stripes of the kind's colour and white.
function awning(x: number, y: number, w: number, h: number, colour: string): string {
  const stripes = [0, 1, 2, 3].map((i) => m("rect", { x: x + (i * w) / 4, y, width: w / 4, height: h, fill: i % 2 === 0 ? colour : "#fbf8ef" }));
  return stripes.join("") + m("rect", { x, y, width: w, height: h, fill: "none", stroke: "#3a3328", "stroke-width": 0.6 });
}

// A fenced pen with two animals in it.
function pen(x: number, y: number, w: number, h: number): string {
  return (
    m("rect", { x, y, width: w, height: h, fill: "#c9a97c", stroke: "#5b3a1e", "stroke-width": 1.2, "stroke-dasharray": "2 1" }) +
    m("ellipse", { cx: x + w * 0.32, cy: y + h * 0.4, rx: 1.8, ry: 1.2, fill: "#4a3220" }) +
    m("ellipse", { cx: x + w * 0.68, cy: y + h * 0.65, rx: 1.8, ry: 1.2, fill: "#f3ede0", stroke: "#4a3220", "stroke-width": 0.4 })
  );
}

function stalls(kind: MarketKind): SVGPatternElement {
  const id = STALLS[kind] ?? "";
  const ground = (fill: string): string => m("rect", { width: P, height: P, fill });
  switch (kind) {
    case MarketKind.FISH:
      return pattern(id, P, ground("#cfe2f1") + awning(2, 3, 11, 7, "#2f6fa8") + awning(13, 14, 9, 7, "#2f6fa8"));
    case MarketKind.GRAIN: {
      const sacks = m("circle", { cx: 6, cy: 17, r: 2, fill: "#b3893a" }) + m("circle", { cx: 19, cy: 6, r: 2, fill: "#b3893a" });
      return pattern(id, P, ground("#f4e6a6") + awning(2, 3, 11, 7, "#c99a12") + awning(13, 14, 9, 7, "#c99a12") + sacks);
    }
    default:
      return pattern(id, P, ground("#dcc09c") + pen(2, 2, 11, 9) + pen(13, 14, 10, 8));
  }
}

export function ensureCityDefs(): void {
  ensureArtDefs(DEFS_ID, () => [roofs(), ...[MarketKind.FISH, MarketKind.GRAIN, MarketKind.LIVESTOCK].map(stalls), ...pictogramDefs()]);
}
