// The parts of the seat's decision every tile-laying game draws alike, from the server's legal
// actions only: the board overlay of legal cells and the ghost of the chosen placement, the tile
// in hand, one button per legal action in the server's order, and the section that frames it.
import { typeOf, type TileTypeDef } from "../../tiles/catalog";
import { button, h, s, type Child } from "../../ui/dom";
import type { CellOverlay, TileArt } from "./board";
import { legalCells, placementOf, type IsPlacement, type Placement } from "./placement";
import type { PlacementContext, PlacementHandlers } from "./table";

// What a game's state shows of the tile in hand: its id, or −1 when there is none.
export interface DrawnTile {
  readonly drawnTile: number;
}

// The legal cells, the ghost of the chosen placement and the cell clicks, for the board's overlay.
export function cellOverlay<S extends DrawnTile, A extends Placement>(
  ctx: PlacementContext<S, A>,
  on: PlacementHandlers<A>,
  isPlacement: IsPlacement<A>,
): CellOverlay {
  const cells = legalCells(ctx.legal, isPlacement);
  const chosen = placementOf(ctx.legal, isPlacement, ctx.choice);
  const ghost = chosen === null ? null : { tile: ctx.state.drawnTile, x: chosen.x, y: chosen.y, rotation: chosen.rotation };
  return { cells, ghost, onCell: cells.length > 0 ? on.onCell : null };
}

// The tile in hand, drawn as it would lie (turned as chosen, or as drawn).
export function handTile<S extends DrawnTile, A extends Placement>(
  ctx: PlacementContext<S, A>,
  isPlacement: IsPlacement<A>,
  art: TileArt,
  tileWord: (t: TileTypeDef) => string,
): SVGSVGElement | null {
  const type = ctx.catalog === null || ctx.state.drawnTile < 0 ? undefined : typeOf(ctx.catalog, ctx.state.drawnTile);
  if (type === undefined) return null;
  const rotation = placementOf(ctx.legal, isPlacement, ctx.choice)?.rotation ?? 0;
  return s("svg", { class: "hand-tile", viewBox: "-52 -52 104 104", width: 88, height: 88, role: "img", "aria-label": `The tile in hand: ${tileWord(type)}` }, art(type, rotation));
}

// One button per legal action, in the server's order.
export function legalButtons<A>(legal: readonly A[], label: (a: A) => string, send: (a: A) => void): HTMLElement {
  const buttons = legal.map((a) => button(label(a), () => send(a), { "data-legal": "" }));
  const many = buttons.length > 6 ? " many" : "";
  return h("div", { class: `buttons${many}` }, ...buttons);
}

// The section of a decision: its name on the page (`section.decision[data-decision]`), its heading
// and what it holds.
export function decisionSection(name: string, heading: string, ...body: Child[]): HTMLElement {
  return h("section", { class: "decision", "data-decision": name }, h("h3", {}, heading), ...body);
}
