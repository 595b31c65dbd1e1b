// The table of a game whose tiles are placed on a grid: it holds the one choice in the making, the
// cell and rotation of a tile being placed, and answers the clicks and keys that make it (a cell,
// the same cell again or R to turn, N / P for the next or previous legal cell, Enter to place). A
// game's table says how its board, its decision, the tile in hand and its panel are drawn.
import { h } from "../../ui/dom";
import type { TileCatalog } from "../../tiles/catalog";
import type { GameTable, TableHost, TableInput } from "../module";
import { nextCell, nextChoice, placementOf, type IsPlacement, type Placement, type TileChoice } from "./placement";

// What the seat's decision is built from.
export interface PlacementContext<S, A> {
  readonly state: S;
  readonly catalog: TileCatalog | null;
  readonly legal: readonly A[];
  readonly choice: TileChoice | null;
}

export interface PlacementHandlers<A> {
  readonly send: (a: A) => void;
  readonly turn: () => void; // next legal rotation at the chosen cell
  readonly onCell: (x: number, y: number) => void;
}

export abstract class PlacementTable<S, A extends Placement> implements GameTable<S, A> {
  private choice: TileChoice | null = null;

  // `cell` is the size of a board cell in SVG units, to centre the view on a chosen cell.
  protected constructor(
    private readonly host: TableHost<A>,
    private readonly isPlacement: IsPlacement<A>,
    private readonly cell: number,
  ) {}

  // The board, with the overlay of the decision's choices when `decision` is given.
  protected abstract drawBoard(inp: TableInput<S, A>, decision: { ctx: PlacementContext<S, A>; on: PlacementHandlers<A> } | null): SVGGElement;
  // The panel of players and what is left.
  protected abstract drawPanel(inp: TableInput<S, A>): HTMLElement;
  // The controls for the seat's decision (null when it has nothing to decide).
  protected abstract drawDecision(ctx: PlacementContext<S, A>, on: PlacementHandlers<A>): HTMLElement | null;
  // The tile in hand (null when there is none, or the tile set has not come).
  protected abstract handTile(ctx: PlacementContext<S, A>): SVGSVGElement | null;

  newLegal(legal: readonly A[], keep: boolean): void {
    // After a reconnect the same decision comes back: the cell and rotation chosen are kept.
    if (!keep || placementOf(legal, this.isPlacement, this.choice) === null) this.choice = null;
  }

  board(inp: TableInput<S, A>): SVGGElement {
    if (inp.legal.length === 0) return this.drawBoard(inp, null);
    return this.drawBoard(inp, { ctx: this.context(inp), on: this.handlers(inp) });
  }

  side(inp: TableInput<S, A>): HTMLElement {
    const ctx = this.context(inp);
    const panel = this.drawPanel(inp);
    const decision = this.drawDecision(ctx, this.handlers(inp));
    // Everybody sees the tile in hand; the seat placing it sees it in its decision.
    const hand = decision === null ? this.handTile(ctx) : null;
    const handBox = hand === null ? null : h("div", { class: "hand" }, hand, h("p", {}, hand.getAttribute("aria-label") ?? ""));
    return h("div", {}, decision, handBox, panel);
  }

  // Keys for placing a tile without a mouse: N / P next or previous legal cell, R turn, Enter place.
  key(e: KeyboardEvent, inp: TableInput<S, A>): boolean {
    if (!inp.legal.some(this.isPlacement)) return false;
    const key = e.key.toLowerCase();
    const t = e.target;
    if (key === "n" || key === "p") {
      this.choice = nextCell(inp.legal, this.isPlacement, this.choice, key === "n" ? 1 : -1);
      if (this.choice !== null) this.host.centreOn(this.choice.x * this.cell + this.cell / 2, -this.choice.y * this.cell + this.cell / 2);
      this.host.render();
    } else if (key === "r") {
      this.turn(inp.legal);
    } else if (key === "enter" && !(t instanceof HTMLButtonElement) && !(t instanceof SVGElement && t.getAttribute("role") === "button")) {
      const chosen = placementOf(inp.legal, this.isPlacement, this.choice);
      if (chosen !== null) this.host.send(chosen);
    } else {
      return false;
    }
    return true;
  }

  private context(inp: TableInput<S, A>): PlacementContext<S, A> {
    return { state: inp.state, catalog: inp.tiles, legal: inp.legal, choice: this.choice };
  }

  private handlers(inp: TableInput<S, A>): PlacementHandlers<A> {
    return {
      send: (a) => this.host.send(a),
      turn: () => this.turn(inp.legal),
      onCell: (x, y) => {
        this.choice = nextChoice(this.choice, x, y);
        this.host.render();
      },
    };
  }

  private turn(legal: readonly A[]): void {
    const c = this.choice;
    if (c !== null && placementOf(legal, this.isPlacement, c) !== null) this.choice = nextChoice(c, c.x, c.y);
    this.host.render();
  }
}
