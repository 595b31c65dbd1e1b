// The Castle's shared textures: grey stone for towers and the castle wall, red roofs for houses,
// lawn for courts, cobbles for paths. Patterns are 25 units square, so four fit a tile and
// neighbouring tiles line up.
import { ensureArtDefs, m, pattern } from "../../shared/art-defs";

const DEFS_ID = "castle-art-defs";
const P = 25;

export const TOWER_STONE = "castle-tower-stone";
export const HOUSE_ROOFS = "castle-house-roofs";
export const COURT_LAWN = "castle-court-lawn";
export const WALL_STONE = "castle-wall-stone";

// Courses of stone blocks, offset every other row.
function stone(id: string, light: string, joint: string): SVGPatternElement {
  const rows = [0, 1, 2, 3, 4]
    .map((r) => {
      const y = r * 5;
      const shift = r % 2 === 0 ? 0 : 6;
      const joints = [0, 12].map((x) => m("path", { d: `M ${(x + shift) % P} ${y} L ${(x + shift) % P} ${y + 5}`, stroke: joint, "stroke-width": 0.6 })).join("");
      return m("path", { d: `M 0 ${y} L ${P} ${y}`, stroke: joint, "stroke-width": 0.6 }) + joints;
    })
    .join("");
  return pattern(id, P, m("rect", { width: P, height: P, fill: light }) + rows);
}

// Red roofs with a ridge, two to a pattern.
function roofs(): SVGPatternElement {
  const roof = (x: number, y: number): string =>
    m("rect", { x, y, width: 11, height: 5, fill: "#c8553d" }) + m("rect", { x, y: y + 5, width: 11, height: 5, fill: "#9e3d2a" });
  return pattern(HOUSE_ROOFS, P, m("rect", { width: P, height: P, fill: "#e3c9a4" }) + roof(1, 2) + roof(13, 13) + roof(13, 1) + roof(1, 14));
}

function lawn(): SVGPatternElement {
  const blade = (x: number, y: number): string => m("path", { d: `M ${x} ${y} l 1 -3 M ${x + 2} ${y} l -1 -3`, stroke: "#4f8a3c", "stroke-width": 0.7 });
  return pattern(COURT_LAWN, P, m("rect", { width: P, height: P, fill: "#8fc37a" }) + blade(4, 8) + blade(16, 5) + blade(10, 18) + blade(20, 21));
}

export function ensureCastleDefs(): void {
  ensureArtDefs(DEFS_ID, () => [stone(TOWER_STONE, "#a7a7a2", "#7b7b76"), stone(WALL_STONE, "#c9c2b3", "#8d8676"), roofs(), lawn()]);
}
