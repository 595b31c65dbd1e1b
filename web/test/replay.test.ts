// A whole game recorded from a real server (scripts/record-replay.mjs): the Replay of the game
// with seed 8 and 2 players that docs/protocol-city.md section 6 follows, in protocol 2's envelope
// with The City's payloads as bytes. Starting from its snapshot
// and applying every step must give the server's hash after each one.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { create, fromBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";

import { cityModule, totalScore, type PublicState } from "../src/games/city";
import { EndCondition } from "../src/gen/carcassonne/city/v1/city_pb";
import { DeltaSchema, ServerMessageSchema, type Replay } from "../src/gen/carcassonne/server/v2/server_pb";
import { applyDelta, fromSnapshot, hashHex, needsResync, type GameView } from "../src/state";

function loadReplay(): Replay {
  const path = fileURLToPath(new URL("./fixtures/game-seed8-2p.replay.bin", import.meta.url));
  const msg = fromBinary(ServerMessageSchema, readFileSync(path));
  if (msg.body.case !== "replay")
    throw new Error(`the fixture holds ${msg.body.case}, not a replay`);
  return msg.body.value;
}

function startView(replay: Replay): GameView<PublicState> {
  if (replay.start === undefined) throw new Error("a replay without start");
  const view = fromSnapshot(cityModule, replay.start);
  if (!view.ok) throw new Error(view.error);
  return view.value;
}

// Outcomes hold BigInts, which JSON cannot print by itself.
function show(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) => (typeof v === "bigint" ? hashHex(v) : v));
}

describe("a recorded game", () => {
  const replay = loadReplay();

  it("starts from a snapshot whose hash matches", () => {
    const view = startView(replay);
    expect(view.sequence).toBe(0n);
    expect(hashHex(view.hash)).toBe("6ed46e28de18307a");
  });

  it("stays in step with the server through every step", () => {
    let view = startView(replay);
    const vectors = new Map([
      [1n, "327d0c11cc262cf8"],
      [2n, "f94aacd642a42eea"],
      [3n, "b14e878a86ffee98"],
      [173n, "9a945374cfb6782d"],
      [267n, "acbb8b74f72ab694"],
    ]);
    for (const step of replay.steps) {
      const outcome = applyDelta(cityModule, view, step);
      if (outcome.kind !== "applied") throw new Error(`step ${step.sequence}: ${show(outcome)}`);
      view = outcome.view;
      expect(view.hash).toBe(step.stateHash);
      const vector = vectors.get(step.sequence);
      if (vector !== undefined)
        expect(hashHex(view.hash), `sequence ${step.sequence}`).toBe(vector);
    }
    expect(view.sequence).toBe(267n);
    expect(view.state.end).toBe(EndCondition.LAST_TILE_PLACED);
    expect(view.state.decision.actor).toBe(-2);
    expect(view.state.player.map((p) => totalScore(p.scores))).toEqual([67, 65]);
  });

  it("detects a gap in the sequence numbers", () => {
    const view = startView(replay);
    const [first, second] = replay.steps;
    if (first === undefined || second === undefined) throw new Error("too few steps");
    const outcome = applyDelta(cityModule, view, second);
    expect(outcome).toEqual({ kind: "gap", expected: 1n, got: 2n });
    expect(needsResync(outcome)).toBe(true);
  });

  it("ignores a delta it has applied already", () => {
    const view = startView(replay);
    const [first] = replay.steps;
    if (first === undefined) throw new Error("no steps");
    const once = applyDelta(cityModule, view, first);
    if (once.kind !== "applied") throw new Error(once.kind);
    expect(applyDelta(cityModule, once.view, first)).toEqual({ kind: "stale" });
  });

  it("reports a hash that differs, and keeps its view", () => {
    const view = startView(replay);
    const [first] = replay.steps;
    if (first === undefined) throw new Error("no steps");
    const forged = create(DeltaSchema, { ...first, stateHash: first.stateHash ^ 1n });
    const outcome = applyDelta(cityModule, view, forged);
    expect(outcome.kind).toBe("mismatch");
    expect(needsResync(outcome)).toBe(true);
    expect(view.sequence).toBe(0n);
  });
});
