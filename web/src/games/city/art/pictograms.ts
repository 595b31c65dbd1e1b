// The markets' pictograms: a fish, an ear of grain, a horned head. Each has two drawings on a
// white badge: a fine one for a close view, and a bold silhouette for a far one, where the fine
// one's details would run together (the board shows the one that fits its zoom, style.css and
// artDetail in tiles/geometry.ts). The silhouettes differ in shape, so no kind rests on colour.
import { MarketKind } from "../../../gen/carcassonne/tiles/v1/tiles_pb";
import { s } from "../../../ui/dom";

export type Detail = "fine" | "coarse";

const KIND_NAME: Readonly<Record<number, string>> = {
  [MarketKind.FISH]: "fish",
  [MarketKind.GRAIN]: "grain",
  [MarketKind.LIVESTOCK]: "livestock",
};

// The badge's radius: the far view's badge is larger, so that its pictogram keeps about 14 screen
// pixels at 40 pixels a tile.
export const BADGE_RADIUS: Readonly<Record<Detail, number>> = { fine: 12, coarse: 18 };

export function pictogramId(kind: MarketKind, detail: Detail): string {
  return `city-pict-${KIND_NAME[kind] ?? "market"}-${detail}`;
}

// Drawn about (0, 0) within ±9 units.
function fineDrawing(kind: MarketKind): SVGElement[] {
  switch (kind) {
    case MarketKind.FISH:
      return [
        s("path", { d: "M -9 0 Q -3 -6.5 4 -1.2 L 9 -5 L 7.6 0 L 9 5 L 4 1.2 Q -3 6.5 -9 0 Z", fill: "#1d4a72" }),
        s("circle", { cx: -5, cy: -0.8, r: 1.1, fill: "#ffffff" }),
        s("path", { d: "M -1.5 -3.2 Q 0 0 -1.5 3.2", fill: "none", stroke: "#ffffff", "stroke-width": 0.8 }),
      ];
    case MarketKind.GRAIN: {
      const grains: SVGElement[] = [s("line", { x1: 0, y1: 9, x2: 0, y2: -6, stroke: "#7a5a00", "stroke-width": 1.4 })];
      for (const y of [-5, -1.5, 2]) {
        grains.push(
          s("ellipse", { cx: -2.4, cy: y, rx: 1.6, ry: 3, transform: `rotate(-28 -2.4 ${y})`, fill: "#a87b00" }),
          s("ellipse", { cx: 2.4, cy: y, rx: 1.6, ry: 3, transform: `rotate(28 2.4 ${y})`, fill: "#a87b00" }),
        );
      }
      grains.push(s("ellipse", { cx: 0, cy: -8, rx: 1.5, ry: 2.6, fill: "#a87b00" }));
      return grains;
    }
    default:
      return [
        s("rect", { x: -8.5, y: -3, width: 13, height: 7, rx: 2.5, fill: "#5b3a1e" }),
        s("circle", { cx: 6, cy: -3.5, r: 3.2, fill: "#5b3a1e" }),
        s("path", { d: "M 4.4 -6 Q 3.5 -9 1.8 -9 M 7.6 -6 Q 8.5 -9 10 -9", fill: "none", stroke: "#5b3a1e", "stroke-width": 1.2 }),
        s("path", { d: "M -6.5 3 L -6.5 8.5 M -3.5 3 L -3.5 8.5 M 0.5 3 L 0.5 8.5 M 3 3 L 3 8.5", stroke: "#5b3a1e", "stroke-width": 1.6 }),
      ];
  }
}

// Bold silhouettes about (0, 0) within ±10 units, drawn at 1.5 times that on the far badge.
function coarseDrawing(kind: MarketKind): SVGElement[] {
  switch (kind) {
    case MarketKind.FISH:
      return [s("path", { d: "M -10 0 Q -3 -8 4 -1.5 L 10 -7 L 10 7 L 4 1.5 Q -3 8 -10 0 Z", fill: "#1d4a72" })];
    case MarketKind.GRAIN:
      // An ear on its stalk, with one leaf: a spindle on a stick.
      return [
        s("path", { d: "M 0 10 L 0 0 M 0 6 L 5 2", fill: "none", stroke: "#7a5a00", "stroke-width": 2.6, "stroke-linecap": "round" }),
        s("ellipse", { cx: 0, cy: -4, rx: 4.2, ry: 7, fill: "#a87b00" }),
        s("path", { d: "M -3.5 -6 L 0 -3.5 L 3.5 -6 M -3.5 -1.5 L 0 1 L 3.5 -1.5", fill: "none", stroke: "#fff7dc", "stroke-width": 1.2 }),
      ];
    default:
      // A horned head from the front.
      return [
        s("path", { d: "M -5 -4 Q -6 8 0 9.5 Q 6 8 5 -4 Q 0 -6 -5 -4 Z", fill: "#5b3a1e" }),
        s("path", { d: "M -4.5 -4 Q -10 -4 -9.5 -10 M 4.5 -4 Q 10 -4 9.5 -10", fill: "none", stroke: "#5b3a1e", "stroke-width": 2.6, "stroke-linecap": "round" }),
        s("circle", { cx: -2.2, cy: 0, r: 1, fill: "#ffffff" }),
        s("circle", { cx: 2.2, cy: 0, r: 1, fill: "#ffffff" }),
      ];
  }
}

// The drawings, once per page, for <use>.
export function pictogramDefs(): SVGElement[] {
  const kinds = [MarketKind.FISH, MarketKind.GRAIN, MarketKind.LIVESTOCK];
  return kinds.flatMap((k) => [
    s("g", { id: pictogramId(k, "fine") }, ...fineDrawing(k)),
    s("g", { id: pictogramId(k, "coarse"), transform: "scale(1.5)" }, ...coarseDrawing(k)),
  ]);
}

function badge(kind: MarketKind, detail: Detail): SVGGElement {
  return s(
    "g",
    { class: `pictogram pictogram-${detail}` },
    s("circle", { r: BADGE_RADIUS[detail], class: "pictogram-badge" }),
    s("use", { href: `#${pictogramId(kind, detail)}` }),
  );
}

// A market's sign: both drawings of its kind; the board shows one of them.
export function marketSign(kind: MarketKind): SVGGElement {
  return s("g", { class: "market-symbol", "data-kind": KIND_NAME[kind] ?? "market" }, badge(kind, "fine"), badge(kind, "coarse"));
}
