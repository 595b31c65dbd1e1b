// Server errors in words: a refused move names the game's reason (Error.rule_error).
import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";

import { ErrorCode, ServerMessageSchema } from "../src/gen/carcassonne/server/v2/server_pb";
import { replyError } from "../src/ui/errors";

function error(code: ErrorCode, reason: string, ruleError = ""): ReturnType<typeof replyError> {
  return replyError(create(ServerMessageSchema, { body: { case: "error", value: { code, reason, ruleError } } }));
}

describe("replyError", () => {
  it("shows the engine's refusal with the rule's name", () => {
    expect(error(ErrorCode.RULE_REFUSED, "That cell is taken", "cell_occupied")).toBe(
      "That cell is taken — RULE_REFUSED (400) (cell_occupied)",
    );
  });

  it("shows other refusals by their code only", () => {
    expect(error(ErrorCode.BAD_TOKEN, "")).toBe("The server refused the request — BAD_TOKEN (207)");
    expect(replyError(create(ServerMessageSchema, { body: { case: "pong", value: {} } }))).toBeNull();
  });
});
