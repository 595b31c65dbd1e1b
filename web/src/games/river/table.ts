// Carcassonne's table: its board (tiles, followers, farmers), the seat's decision built from the
// server's legal actions, the tile in hand, and the panel of players and tiles left. It holds the
// one choice in the making, the cell and rotation of a tile being placed.
import { ActionKind, type Action } from "../../gen/carcassonne/river/v1/river_pb";
import { h } from "../../ui/dom";
import type { GameTable, TableHost, TableInput } from "../module";
import { CELL, drawBoard, NO_OVERLAY } from "./board";
import {
  decisionOverlay,
  drawDecision,
  handTile,
  nextCell,
  nextChoice,
  placementOf,
  type DecisionContext,
  type DecisionHandlers,
  type TileChoice,
} from "./decisions";
import type { PublicState } from "./model";
import { drawPanel } from "./panel";

type Input = TableInput<PublicState, Action>;

export class RiverTable implements GameTable<PublicState, Action> {
  private choice: TileChoice | null = null;

  constructor(private readonly host: TableHost<Action>) {}

  newLegal(legal: readonly Action[], keep: boolean): void {
    // After a reconnect the same decision comes back: the cell and rotation chosen are kept.
    if (!keep || placementOf(legal, this.choice) === null) this.choice = null;
  }

  board(inp: Input): SVGGElement {
    const board = { state: inp.state, catalog: inp.tiles, names: inp.names };
    if (inp.legal.length === 0) return drawBoard(board, NO_OVERLAY);
    return drawBoard(board, decisionOverlay(this.context(inp), this.handlers(inp)));
  }

  side(inp: Input): HTMLElement {
    const ctx = this.context(inp);
    const panel = drawPanel({ state: inp.state, catalog: inp.tiles, names: inp.names, online: inp.online, yourSeat: inp.yourSeat, winners: inp.winners });
    const decision = drawDecision(ctx, this.handlers(inp));
    // Everybody sees the tile in hand; the seat placing it sees it in its decision.
    const hand = decision === null ? handTile(ctx) : null;
    const handBox = hand === null ? null : h("div", { class: "hand" }, hand, h("p", {}, hand.getAttribute("aria-label") ?? ""));
    return h("div", {}, decision, handBox, panel);
  }

  // Keys for placing a tile without a mouse: N / P next or previous legal cell, R turn, Enter place.
  key(e: KeyboardEvent, inp: Input): boolean {
    if (!inp.legal.some((a) => a.kind === ActionKind.PLACE_TILE)) return false;
    const key = e.key.toLowerCase();
    const t = e.target;
    if (key === "n" || key === "p") {
      this.choice = nextCell(inp.legal, this.choice, key === "n" ? 1 : -1);
      if (this.choice !== null) this.host.centreOn(this.choice.x * CELL + CELL / 2, -this.choice.y * CELL + CELL / 2);
      this.host.render();
    } else if (key === "r") {
      this.turn(inp.legal);
    } else if (key === "enter" && !(t instanceof HTMLButtonElement) && !(t instanceof SVGElement && t.getAttribute("role") === "button")) {
      const chosen = placementOf(inp.legal, this.choice);
      if (chosen !== null) this.host.send(chosen);
    } else {
      return false;
    }
    return true;
  }

  private context(inp: Input): DecisionContext {
    return { state: inp.state, catalog: inp.tiles, legal: inp.legal, choice: this.choice };
  }

  private handlers(inp: Input): DecisionHandlers {
    return {
      send: (a) => this.host.send(a),
      turn: () => this.turn(inp.legal),
      onCell: (x, y) => {
        this.choice = nextChoice(this.choice, x, y);
        this.host.render();
      },
    };
  }

  private turn(legal: readonly Action[]): void {
    const c = this.choice;
    if (c !== null && placementOf(legal, c) !== null) this.choice = nextChoice(c, c.x, c.y);
    this.host.render();
  }
}
