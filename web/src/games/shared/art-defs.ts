// Textures and pictograms that every tile of a game reuses, defined once per page: patterns
// (roofs, stalls, grass) and symbols live in one hidden <svg> of the document, which the board and
// the tile in hand refer to by id (fill="url(#…)", <use href="#…">). A 75-tile board then holds
// one path per area, not its houses one by one.
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

type Attrs = Record<string, string | number>;

// SVG markup for a texture's content (`m("rect", {…})`): textures are images, see pattern().
export function m(tag: string, attrs: Attrs, ...children: string[]): string {
  const a = Object.entries(attrs)
    .map(([k, v]) => ` ${k}="${String(v)}"`)
    .join("");
  return `<${tag}${a}>${children.join("")}</${tag}>`;
}

// A pattern tile of `size` units in the user space of whatever it fills, so that neighbouring
// tiles' textures line up. Its content is one image: the browser paints an element filled with a
// pattern of many shapes by drawing them all again, but an image only once, so a board stays
// quick to draw.
export function pattern(id: string, size: number, content: string): SVGPatternElement {
  const markup = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">${content}</svg>`;
  const href = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(markup)}`;
  return s("pattern", { id, width: size, height: size, patternUnits: "userSpaceOnUse" }, s("image", { width: size, height: size, href }));
}
