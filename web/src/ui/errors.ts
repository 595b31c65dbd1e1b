// Server errors in words: the server's sentence (Error.reason), the code programs match on, and
// for a move the engine refused, the game's own name for why (Error.rule_error).
import { ErrorCode, type ServerMessage } from "../gen/carcassonne/server/v2/server_pb";
import type { Connection, RequestBody } from "../net/connection";

// "BAD_TOKEN (207)": the enum's name without its prefix, then the number programs match on.
export function errorCodeWord(code: number): string {
  const name = ErrorCode[code];
  return name === undefined ? `error ${code}` : `${name} (${code})`;
}

// What some refusals mean for the person who sees them, said before the server's reason.
const CODE_WORDS: Partial<Record<ErrorCode, string>> = {
  [ErrorCode.STAND_IN_PLAYS]: "A stand-in plays your seat while you were away: take your seat back to play again.",
  [ErrorCode.BAD_TIME_CONTROL]: "The server does not take that clock.",
};

// The error in a reply, or null when the reply is not one.
export function replyError(m: ServerMessage): string | null {
  if (m.body.case !== "error") return null;
  const e = m.body.value;
  const said = e.reason !== "" ? e.reason : "The server refused the request";
  const words = CODE_WORDS[e.code];
  const reason = words === undefined ? said : `${words} ${said}`;
  const rule = e.code === ErrorCode.RULE_REFUSED && e.ruleError !== "" ? ` (${e.ruleError})` : "";
  return `${reason} — ${errorCodeWord(e.code)}${rule}`;
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

// ServerClosing in words, said once: the server's reason usually says it is shutting down already.
export function closingText(reason: string): string {
  const said = reason.trim().replace(/[.!]+$/, "");
  if (said === "") return "The server is shutting down.";
  if (/^the server is shutting down\b/i.test(said)) return `${said.charAt(0).toUpperCase()}${said.slice(1)}.`;
  return `The server is shutting down: ${said}.`;
}
