// Carcassonne, with or without the River (rule set "carcassonne", option river 0/1, package
// carcassonne.river.v1) as a client game module: its payloads, reducer and hash (model.ts,
// convert.ts, reducer.ts, hash.ts), and its drawing (table.ts with board.ts, decisions.ts,
// panel.ts, tile-art.ts, words.ts).
import { fromBinary, toBinary, type DescMessage, type MessageShape } from "@bufbuild/protobuf";

import {
  ActionSchema,
  EventSchema,
  PublicStateSchema,
  type Action,
  type Event,
} from "../../gen/carcassonne/river/v1/river_pb";
import { typeOf, type TileCatalog } from "../../tiles/catalog";
import type { GameModule } from "../module";
import { boardBounds } from "./board";
import { stateFromWire } from "./convert";
import { stateHash } from "./hash";
import { fail, ok, type PublicState, type Result } from "./model";
import { applyEvents } from "./reducer";
import { RiverTable } from "./table";
import { eventWord, tileWord } from "./words";

export const RULE_SET = "carcassonne";

// fromBinary throws on bytes that are not the message; here that is bad input, a value.
function decode<D extends DescMessage>(schema: D, bytes: Uint8Array): Result<MessageShape<D>> {
  try {
    return ok(fromBinary(schema, bytes));
  } catch (e) {
    return fail(`not a ${schema.typeName}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function describer(tiles: TileCatalog | null): (tile: number) => string | null {
  return (tile) => {
    const type = tiles === null ? undefined : typeOf(tiles, tile);
    return type === undefined ? null : tileWord(type);
  };
}

export const riverModule: GameModule<PublicState, Event, Action> = {
  ruleSet: RULE_SET,
  decodeState(bytes) {
    const wire = decode(PublicStateSchema, bytes);
    return wire.ok ? stateFromWire(wire.value) : wire;
  },
  decodeEvent: (bytes) => decode(EventSchema, bytes),
  decodeAction: (bytes) => decode(ActionSchema, bytes),
  encodeAction: (action) => toBinary(ActionSchema, action),
  applyEvents,
  stateHash,
  isOver: (state) => state.over,
  bounds: boardBounds,
  eventWord: (event, names, tiles) => eventWord(event, names, describer(tiles)),
  winners: (event) => (event.kind.case === "gameOver" ? event.kind.value.winners : null),
  table: (host) => new RiverTable(host),
};

export { applyEvent, applyEvents } from "./reducer";
export { stateHash } from "./hash";
export { stateFromWire } from "./convert";
export * from "./model";
