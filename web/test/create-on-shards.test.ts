// Creating a game behind a proxy of shards: a shard that is full (SERVER_FULL) passes the
// CreateGame on to the others in turn, until one creates the game; every other answer is final.
import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";

import { ErrorCode, ServerMessageSchema, type ServerMessage } from "../src/gen/carcassonne/server/v2/server_pb";
import { createWhereThereIsRoom, isServerFull, shardsToTryAfter } from "../src/net/create-on-shards";

function refusal(code: ErrorCode): ServerMessage {
  return create(ServerMessageSchema, { body: { case: "error", value: { code, reason: "refused" } } });
}

function created(gameId: string): ServerMessage {
  return create(ServerMessageSchema, { body: { case: "gameCreated", value: { game: { gameId } } } });
}

const FULL = refusal(ErrorCode.SERVER_FULL);

// Shards that answer as `answers` says (undefined: it does not answer), the site as shard
// `site`; every shard asked, in order ("site" for the site itself).
function proxy(site: string, answers: Record<string, ServerMessage | undefined>) {
  const asked: string[] = [];
  const send = (shard: string | null): Promise<ServerMessage | null> => {
    asked.push(shard ?? "site");
    return Promise.resolve(answers[shard ?? site] ?? null);
  };
  return { asked, send };
}

function gameIdOf(m: ServerMessage | null): string | null {
  return m?.body.case === "gameCreated" ? (m.body.value.game?.gameId ?? null) : null;
}

describe("the shards tried after a full one", () => {
  it("are the others, from the one after it round to the one before", () => {
    expect(shardsToTryAfter(["a", "b", "c", "d"], "b")).toEqual(["c", "d", "a"]);
    expect(shardsToTryAfter(["a", "b", "c", "d"], "d")).toEqual(["a", "b", "c"]);
    expect(shardsToTryAfter(["a"], "a")).toEqual([]);
  });

  it("are all of them when the full one is not in the list", () => {
    expect(shardsToTryAfter(["a", "b"], null)).toEqual(["a", "b"]);
    expect(shardsToTryAfter(["a", "b"], "z")).toEqual(["a", "b"]);
  });
});

describe("creating a game where there is room", () => {
  it("lands on the next shard with room when the proxy's choice is full", async () => {
    const { asked, send } = proxy("b", { b: FULL, c: FULL, a: created("a-g3") });
    const m = await createWhereThereIsRoom(send, ["a", "b", "c"], () => "b");
    expect(gameIdOf(m)).toBe("a-g3");
    expect(asked).toEqual(["site", "c", "a"]);
  });

  it("asks no other shard when the site creates the game", async () => {
    const { asked, send } = proxy("a", { a: created("a-g1"), b: created("b-g1") });
    expect(gameIdOf(await createWhereThereIsRoom(send, ["a", "b"], () => "a"))).toBe("a-g1");
    expect(asked).toEqual(["site"]);
  });

  it("passes over a shard that does not answer", async () => {
    const { asked, send } = proxy("a", { a: FULL, b: undefined, c: created("c-g9") });
    expect(gameIdOf(await createWhereThereIsRoom(send, ["a", "b", "c"], () => "a"))).toBe("c-g9");
    expect(asked).toEqual(["site", "b", "c"]);
  });

  it("gives SERVER_FULL back only when every shard that answers is full", async () => {
    const { asked, send } = proxy("a", { a: FULL, b: FULL, c: undefined });
    const m = await createWhereThereIsRoom(send, ["a", "b", "c"], () => "a");
    expect(isServerFull(m)).toBe(true);
    expect(asked).toEqual(["site", "b", "c"]);
  });

  it("stops at another refusal: every shard would give it", async () => {
    const badOptions = refusal(ErrorCode.BAD_OPTIONS);
    const { asked, send } = proxy("a", { a: FULL, b: badOptions, c: created("c-g1") });
    expect(await createWhereThereIsRoom(send, ["a", "b", "c"], () => "a")).toBe(badOptions);
    expect(asked).toEqual(["site", "b"]);
  });

  it("asks a server alone once, full or not", async () => {
    const { asked, send } = proxy("", { "": FULL });
    expect(isServerFull(await createWhereThereIsRoom(send, null, () => null))).toBe(true);
    expect(asked).toEqual(["site"]);
  });

  it("stops when the site's connection was lost", async () => {
    const { asked, send } = proxy("a", {});
    expect(await createWhereThereIsRoom(send, ["a", "b"], () => "a")).toBeNull();
    expect(asked).toEqual(["site"]);
  });

  it("tries every shard when the site did not say which it reached", async () => {
    const { asked, send } = proxy("b", { a: FULL, b: FULL, c: created("c-g2") });
    expect(gameIdOf(await createWhereThereIsRoom(send, ["a", "b", "c"], () => null))).toBe("c-g2");
    expect(asked).toEqual(["site", "a", "b", "c"]);
  });
});
