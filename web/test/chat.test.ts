// The chat as the client holds it (src/match/chat.ts): lines by number, each once, the muted seats
// left out, the replay's lines up to a step, and the limits of a line.
import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";

import { ChatMessageSchema, type ChatMessage } from "../src/gen/carcassonne/server/v2/server_pb";
import { CHAT_MAX_BYTES, ChatLog, chatTextProblem, utf8Bytes } from "../src/match/chat";

function line(number: number, seat: number | undefined, text: string, afterSequence = 0, gameId = "g1"): ChatMessage {
  return create(ChatMessageSchema, {
    gameId,
    ...(seat === undefined ? {} : { seat }),
    name: seat === undefined ? "spectator" : `P${seat}`,
    text,
    timeMs: 1_700_000_000_000n + BigInt(number),
    afterSequence: BigInt(afterSequence),
    number: BigInt(number),
  });
}

const texts = (lines: readonly ChatMessage[]): string[] => lines.map((l) => l.text);

describe("ChatLog", () => {
  it("orders lines by number whatever order they come in, and keeps each once", () => {
    const log = new ChatLog("g1");
    expect(log.add(line(3, 1, "c"))).toBe(true);
    expect(log.addAll([line(1, 0, "a"), line(2, undefined, "b"), line(3, 1, "c")])).toBe(2);
    expect(log.add(line(2, undefined, "b"))).toBe(false);
    expect(texts(log.lines())).toEqual(["a", "b", "c"]);
  });

  it("ignores another game's lines", () => {
    const log = new ChatLog("g1");
    expect(log.add(line(1, 0, "elsewhere", 0, "g2"))).toBe(false);
    expect(log.lines()).toEqual([]);
  });

  it("leaves out a muted seat's lines, and shows them again once unmuted", () => {
    const log = new ChatLog("g1");
    log.addAll([line(1, 0, "a"), line(2, 1, "b"), line(3, undefined, "c"), line(4, 1, "d")]);
    log.setMuted(1, true);
    expect(log.isMuted(1)).toBe(true);
    expect(texts(log.lines())).toEqual(["a", "c"]);
    // Lines of a muted seat that come later are held, not shown.
    log.add(line(5, 1, "e"));
    expect(texts(log.lines())).toEqual(["a", "c"]);
    log.setMuted(3, true);
    expect(log.muted()).toEqual([1, 3]);
    log.setMuted(1, false);
    expect(texts(log.lines())).toEqual(["a", "b", "c", "d", "e"]);
  });

  it("gives a replay the lines said by a step", () => {
    const log = new ChatLog("g1");
    log.addAll([line(1, 0, "before", 0), line(2, 1, "after 3", 3), line(3, 0, "after 7", 7)]);
    expect(texts(log.lines(0n))).toEqual(["before"]);
    expect(texts(log.lines(6n))).toEqual(["before", "after 3"]);
    expect(texts(log.lines(7n))).toEqual(["before", "after 3", "after 7"]);
  });
});

describe("chatTextProblem", () => {
  it("refuses an empty line and one over the server's bytes, counted in UTF-8", () => {
    expect(chatTextProblem("   ")).toBe("Type a message first.");
    expect(chatTextProblem("hello")).toBeNull();
    expect(utf8Bytes("é")).toBe(2);
    expect(chatTextProblem("é".repeat(CHAT_MAX_BYTES / 2))).toBeNull();
    expect(chatTextProblem("é".repeat(CHAT_MAX_BYTES / 2) + "x")).toBe(`The message is too long: ${CHAT_MAX_BYTES + 1} bytes, at most ${CHAT_MAX_BYTES}.`);
    // Spaces around the line are not sent, so they do not count.
    expect(chatTextProblem(`  ${"x".repeat(CHAT_MAX_BYTES)}  `)).toBeNull();
  });
});
