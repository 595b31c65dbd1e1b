// A game's payloads from the wire: protobuf bytes into a game's message, checked.
import { fromBinary, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { fail, ok, type Result } from "../../state/result";

// fromBinary throws on bytes that are not the message; here that is bad input, a value.
export function decode<D extends DescMessage>(schema: D, bytes: Uint8Array): Result<MessageShape<D>> {
  try {
    return ok(fromBinary(schema, bytes));
  } catch (e) {
    return fail(`not a ${schema.typeName}: ${e instanceof Error ? e.message : String(e)}`);
  }
}
