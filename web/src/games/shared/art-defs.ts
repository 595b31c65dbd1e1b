// Textures and pictograms that every tile of a game reuses, defined once per page: patterns
// (roofs, stalls, grass, cobbles) and symbols live in one hidden <svg> of the document, which
// the board and the tile in hand refer to by id (fill="url(#…)", <use href="#…">). A 75-tile
// board then holds one polygon per area, not its houses one by one.
import { s } from "../../ui/dom";

// Adds the game's definitions to the page once; `id` names that hidden <svg>.
export function ensureArtDefs(id: string, build: () => readonly SVGElement[]): void {
  if (typeof document === "undefined" || document.getElementById(id) !== null) return;
  // Not display:none: Chromium does not paint patterns defined in a hidden (display:none) SVG.
  const svg = s(
    "svg",
    { id, class: "art-defs", width: 0, height: 0, "aria-hidden": "true", focusable: "false", style: "position:absolute;width:0;height:0;overflow:hidden" },
    s("defs", {}, ...build()),
  );
  document.body.append(svg);
}

// A pattern tile of `size` units in the user space of whatever it fills, so that neighbouring
// tiles' textures line up.
export function pattern(id: string, size: number, ...children: SVGElement[]): SVGPatternElement {
  return s("pattern", { id, width: size, height: size, patternUnits: "userSpaceOnUse" }, ...children);
}

// Clips a tile's art to its square: a building or a bank near the edge stays on its own tile.
export function tileClip(id: string, size: number): SVGClipPathElement {
  return s("clipPath", { id }, s("rect", { x: -size / 2, y: -size / 2, width: size, height: size }));
}
