// Carcassonne, with or without the River (rule set "carcassonne", option river 0/1, package
// carcassonne.river.v1) as a client game module: its payloads, reducer and hash (model.ts,
// convert.ts, reducer.ts, hash.ts), and its drawing (table.ts with board.ts, decisions.ts,
// panel.ts, tile-art.ts, words.ts).
import {
  ActionKind,
  ActionSchema,
  EventSchema,
  PublicStateSchema,
  type Action,
  type Event,
} from "../../gen/carcassonne/river/v1/river_pb";
import { tileDescriber } from "../../tiles/catalog";
import type { GameModule } from "../module";
import { protoPayloads } from "../shared/wire";
import { boardBounds } from "./board";
import { stateFromWire } from "./convert";
import { stateHash } from "./hash";
import type { PublicState } from "./model";
import { applyEvents } from "./reducer";
import { RiverTable } from "./table";
import { moveMarks } from "./recent";
import { eventWord, onlyChoiceWord, tileWord } from "./words";

export const RULE_SET = "carcassonne";

export const riverModule: GameModule<PublicState, Event, Action> = {
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
  // Order() lists the set-up tile (the start tile, or the River's spring) first; it is never drawn.
  tilesLaidAtSetUp: 1,
  winners: (event) => (event.kind.case === "gameOver" ? event.kind.value.winners : null),
  table: (host) => new RiverTable(host),
};

export { applyEvent, applyEvents } from "./reducer";
export { stateHash } from "./hash";
export { stateFromWire } from "./convert";
export * from "./model";
