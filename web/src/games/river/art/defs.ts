// Carcassonne's shared textures: grass in the fields, roofs inside the city walls. Patterns are
// 25 or 50 units square, so a whole number of them fits a tile and neighbouring tiles line up.
import { ensureArtDefs, m, pattern } from "../../shared/art-defs";

const DEFS_ID = "carcassonne-art-defs";
const P = 25;

export const GRASS = "carc-grass";
export const CITY_ROOFS = "carc-city-roofs";

function tuft(x: number, y: number): string {
  const d = `M ${x - 1.6} ${y} L ${x - 2.4} ${y - 3} M ${x} ${y} L ${x} ${y - 3.6} M ${x + 1.6} ${y} L ${x + 2.4} ${y - 3}`;
  return m("path", { d, stroke: "#6e9f45", "stroke-width": 0.8, fill: "none" });
}

function grass(): SVGPatternElement {
  const tufts: [number, number][] = [[5, 7], [17, 4], [11, 15], [21, 20], [4, 22]];
  return pattern(GRASS, P, m("rect", { width: P, height: P, fill: "#9ccc6a" }) + tufts.map(([x, y]) => tuft(x, y)).join(""));
}

function roof(x: number, y: number, w: number, h: number, light: string, dark: string): string {
  return m("rect", { x, y, width: w, height: h / 2, fill: light }) + m("rect", { x, y: y + h / 2, width: w, height: h / 2, fill: dark });
}

// Roofs packed close behind the walls, of a few sizes, with narrow lanes.
function cityRoofs(): SVGPatternElement {
  const R = 2 * P;
  const red = ["#c4684a", "#9c4e35"] as const;
  const brown = ["#b98a5e", "#946a45"] as const;
  const grey = ["#a9a398", "#88837a"] as const;
  const houses: [number, number, number, number, readonly [string, string]][] = [
    [2, 2, 12, 8, red],
    [16, 3, 9, 10, brown],
    [27, 2, 12, 9, red],
    [41, 4, 7, 10, grey],
    [3, 13, 9, 11, grey],
    [15, 16, 13, 8, red],
    [31, 14, 8, 10, brown],
    [41, 17, 8, 9, red],
    [2, 27, 12, 9, brown],
    [17, 27, 9, 11, red],
    [29, 27, 12, 8, grey],
    [43, 29, 6, 9, brown],
    [4, 39, 9, 9, red],
    [15, 41, 12, 7, brown],
    [30, 38, 9, 10, red],
    [41, 41, 8, 7, grey],
  ];
  return pattern(
    CITY_ROOFS,
    R,
    m("rect", { width: R, height: R, fill: "#dcc29a" }) + houses.map(([x, y, w, h, [light, dark]]) => roof(x, y, w, h, light, dark)).join(""),
  );
}

export function ensureCarcassonneDefs(): void {
  ensureArtDefs(DEFS_ID, () => [grass(), cityRoofs()]);
}
