// Carcassonne: The Castle (rule set "the-castle", package carcassonne.castle.v1) as a client game
// module: its payloads, reducer and hash (model.ts, convert.ts, reducer.ts, hash.ts), and its
// drawing (table.ts with board.ts, decisions.ts, panel.ts, tile-art.ts, words.ts, recent.ts).
import { ActionKind, ActionSchema, EventSchema, PublicStateSchema, type Action, type Event } from "../../gen/carcassonne/castle/v1/castle_pb";
import { tileDescriber } from "../../tiles/catalog";
import type { GameModule } from "../module";
import { protoPayloads } from "../shared/wire";
import { boardBounds } from "./board";
import { stateFromWire } from "./convert";
import { stateHash } from "./hash";
import type { PublicState } from "./model";
import { moveMarks } from "./recent";
import { applyEvents } from "./reducer";
import { CastleTable } from "./table";
import { eventWord, onlyChoiceWord, tileWord } from "./words";

export const RULE_SET = "the-castle";

export const castleModule: GameModule<PublicState, Event, Action> = {
  ruleSet: RULE_SET,
  ...protoPayloads(PublicStateSchema, EventSchema, ActionSchema, stateFromWire),
  applyEvents,
  stateHash,
  isOver: (state) => state.over,
  bounds: boardBounds,
  eventWord: (event, names, tiles, state) => eventWord(event, names, tileDescriber(tiles, tileWord), state),
  moveMarks,
  onlyChoiceWord,
  isServerAction: (action) => action.kind === ActionKind.DRAW,
  drawnTile: (action) => (action.kind === ActionKind.DRAW ? action.tile : null),
  tilesLaidAtSetUp: 0,
  winners: (event) => (event.kind.case === "gameOver" ? event.kind.value.winners : null),
  table: (host) => new CastleTable(host),
};

export { applyEvent, applyEvents } from "./reducer";
export { stateHash } from "./hash";
export { stateFromWire } from "./convert";
export * from "./model";
