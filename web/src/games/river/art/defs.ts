// Carcassonne's shared textures: grass in the fields, roofs inside the city walls. Patterns are
// 25 units square, so four fit a tile and neighbouring tiles line up.
import { SIZE } from "../../../tiles/geometry";
import { s } from "../../../ui/dom";
import { ensureArtDefs, pattern, tileClip } from "../../shared/art-defs";

const DEFS_ID = "carcassonne-art-defs";
const P = 25;

export const GRASS = "carc-grass";
export const CITY_ROOFS = "carc-city-roofs";
export const TILE_CLIP = "carc-tile-clip";

function tuft(x: number, y: number): SVGPathElement {
  return s("path", { d: `M ${x - 1.6} ${y} L ${x - 2.4} ${y - 3} M ${x} ${y} L ${x} ${y - 3.6} M ${x + 1.6} ${y} L ${x + 2.4} ${y - 3}`, stroke: "#6e9f45", "stroke-width": 0.8, fill: "none" });
}

function grass(): SVGPatternElement {
  return pattern(GRASS, P, s("rect", { width: P, height: P, fill: "#9ccc6a" }), tuft(5, 7), tuft(17, 4), tuft(11, 15), tuft(21, 20), tuft(4, 22));
}

function roof(x: number, y: number, w: number, h: number, light: string, dark: string): SVGGElement {
  return s("g", {}, s("rect", { x, y, width: w, height: h / 2, fill: light }), s("rect", { x, y: y + h / 2, width: w, height: h / 2, fill: dark }));
}

// Roofs packed close behind the walls, of a few sizes, with narrow lanes.
function cityRoofs(): SVGPatternElement {
  const R = 2 * P;
  return pattern(
    CITY_ROOFS,
    R,
    s("rect", { width: R, height: R, fill: "#dcc29a" }),
    roof(2, 2, 12, 8, "#c4684a", "#9c4e35"),
    roof(16, 3, 9, 10, "#b98a5e", "#946a45"),
    roof(27, 2, 12, 9, "#c4684a", "#9c4e35"),
    roof(41, 4, 7, 10, "#a9a398", "#88837a"),
    roof(3, 13, 9, 11, "#a9a398", "#88837a"),
    roof(15, 16, 13, 8, "#c4684a", "#9c4e35"),
    roof(31, 14, 8, 10, "#b98a5e", "#946a45"),
    roof(41, 17, 8, 9, "#c4684a", "#9c4e35"),
    roof(2, 27, 12, 9, "#b98a5e", "#946a45"),
    roof(17, 27, 9, 11, "#c4684a", "#9c4e35"),
    roof(29, 27, 12, 8, "#a9a398", "#88837a"),
    roof(43, 29, 6, 9, "#b98a5e", "#946a45"),
    roof(4, 39, 9, 9, "#c4684a", "#9c4e35"),
    roof(15, 41, 12, 7, "#b98a5e", "#946a45"),
    roof(30, 38, 9, 10, "#c4684a", "#9c4e35"),
    roof(41, 41, 8, 7, "#a9a398", "#88837a"),
  );
}

export function ensureCarcassonneDefs(): void {
  ensureArtDefs(DEFS_ID, () => [grass(), cityRoofs(), tileClip(TILE_CLIP, SIZE)]);
}
