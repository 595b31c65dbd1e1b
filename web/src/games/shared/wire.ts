// A game's payloads from the wire: protobuf bytes into a game's message, checked.
import { fromBinary, toBinary, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { fail, ok, type Result } from "../../state/result";

// fromBinary throws on bytes that are not the message; here that is bad input, a value.
export function decode<D extends DescMessage>(schema: D, bytes: Uint8Array): Result<MessageShape<D>> {
  try {
    return ok(fromBinary(schema, bytes));
  } catch (e) {
    return fail(`not a ${schema.typeName}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

// A game module's four payload functions from its package's schemas: the state (checked by the
// game's `fromWire`), an event and an action decoded; an action encoded.
export function protoPayloads<SD extends DescMessage, ED extends DescMessage, AD extends DescMessage, S>(
  stateSchema: SD,
  eventSchema: ED,
  actionSchema: AD,
  fromWire: (wire: MessageShape<SD>) => Result<S>,
): {
  decodeState(bytes: Uint8Array): Result<S>;
  decodeEvent(bytes: Uint8Array): Result<MessageShape<ED>>;
  decodeAction(bytes: Uint8Array): Result<MessageShape<AD>>;
  encodeAction(action: MessageShape<AD>): Uint8Array;
} {
  return {
    decodeState(bytes) {
      const wire = decode(stateSchema, bytes);
      return wire.ok ? fromWire(wire.value) : wire;
    },
    decodeEvent: (bytes) => decode(eventSchema, bytes),
    decodeAction: (bytes) => decode(actionSchema, bytes),
    encodeAction: (action) => toBinary(actionSchema, action),
  };
}
