// The City's table: its board (tiles, followers, the wall, gate, guards and towers), the seat's
// decision built from the server's legal actions, the tile in hand, and the panel of players and
// stacks. The choice in the making and the keys are the shared placement table's.
import type { Action } from "../../gen/carcassonne/city/v1/city_pb";
import type { TableHost, TableInput } from "../module";
import { PlacementTable } from "../shared/table";
import { CELL, drawBoard, NO_OVERLAY } from "./board";
import { decisionOverlay, drawDecision, handTile, isPlacement, type DecisionContext, type DecisionHandlers } from "./decisions";
import type { PublicState } from "./model";
import { drawPanel } from "./panel";

type Input = TableInput<PublicState, Action>;

export class CityTable extends PlacementTable<PublicState, Action> {
  constructor(host: TableHost<Action>) {
    super(host, isPlacement, CELL);
  }

  protected drawBoard(inp: Input, decision: { ctx: DecisionContext; on: DecisionHandlers } | null): SVGGElement {
    const board = { state: inp.state, catalog: inp.tiles, names: inp.names };
    return drawBoard(board, decision === null ? NO_OVERLAY : decisionOverlay(decision.ctx, decision.on));
  }

  protected drawPanel(inp: Input): HTMLElement {
    return drawPanel({ state: inp.state, names: inp.names, online: inp.online, yourSeat: inp.yourSeat, winners: inp.winners, tiles: inp.tiles });
  }

  protected drawDecision(ctx: DecisionContext, on: DecisionHandlers): HTMLElement | null {
    return drawDecision(ctx, on);
  }

  protected handTile(ctx: DecisionContext): SVGSVGElement | null {
    return handTile(ctx);
  }
}
