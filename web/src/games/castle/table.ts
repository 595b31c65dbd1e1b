// The Castle's table: its board (the castle inside its wall, the scoring track, tiles, followers,
// keeps), the seat's decision built from the server's legal actions, the tile in hand, and the
// panel of players, wall tiles and tiles left. The choice in the making and the keys are the
// shared placement table's.
import type { Action } from "../../gen/carcassonne/castle/v1/castle_pb";
import type { TableHost, TableInput } from "../module";
import { PlacementTable } from "../shared/table";
import { CELL, drawBoard, NO_OVERLAY } from "./board";
import { decisionOverlay, drawDecision, handTile, isPlacement, type DecisionContext, type DecisionHandlers } from "./decisions";
import type { PublicState } from "./model";
import { drawPanel } from "./panel";

type Input = TableInput<PublicState, Action>;

export class CastleTable extends PlacementTable<PublicState, Action> {
  constructor(host: TableHost<Action>) {
    super(host, isPlacement, CELL);
  }

  protected drawBoard(inp: Input, decision: { ctx: DecisionContext; on: DecisionHandlers } | null): SVGGElement {
    const board = { state: inp.state, catalog: inp.tiles, names: inp.names };
    return drawBoard(board, decision === null ? NO_OVERLAY : decisionOverlay(decision.ctx, decision.on));
  }

  protected drawPanel(inp: Input): HTMLElement {
    return drawPanel({ state: inp.state, catalog: inp.tiles, names: inp.names, online: inp.online, yourSeat: inp.yourSeat, winners: inp.winners });
  }

  protected drawDecision(ctx: DecisionContext, on: DecisionHandlers): HTMLElement | null {
    return drawDecision(ctx, on);
  }

  protected handTile(ctx: DecisionContext): SVGSVGElement | null {
    return handTile(ctx);
  }
}
