// Server errors in words: the server's sentence (Error.reason) and the code programs match on.
import type { ServerMessage } from "../gen/carcassonne/city/v1/city_pb";
import type { Connection, RequestBody } from "../net/connection";
import { errorCodeWord } from "./words";

// The error in a reply, or null when the reply is not one.
export function replyError(m: ServerMessage): string | null {
  if (m.body.case !== "error") return null;
  const e = m.body.value;
  return `${e.reason !== "" ? e.reason : "The server refused the request"} — ${errorCodeWord(e.code)}`;
}

export function failureText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

// Sends a request and tells `show` how it went in words: the refusal, the lost connection, or
// null for a reply that is not a refusal. The reply comes back, or null when none came.
export async function requestShowingErrors(
  conn: Connection,
  body: RequestBody,
  show: (text: string | null) => void,
): Promise<ServerMessage | null> {
  try {
    const m = await conn.request(body);
    show(replyError(m));
    return m;
  } catch (e) {
    show(failureText(e));
    return null;
  }
}
