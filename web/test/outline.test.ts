// Where the wall goes, as the client works it out from the public state, against the engine: the
// example of docs/rules.md 2.9, and every wall piece, tower and closing wall of the recorded game
// (the same fixture as replay.test.ts).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { fromBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";

import { cityModule, type PublicState } from "../src/games/city";
import { closingEdges, endVertices, nextWallEdges, towerVertex } from "../src/games/city/outline";
import { ServerMessageSchema, type Replay } from "../src/gen/carcassonne/server/v2/server_pb";
import { applyDelta, fromSnapshot, type GameView } from "../src/state";

function loadReplay(): Replay {
  const path = fileURLToPath(new URL("./fixtures/game-seed8-2p.replay.bin", import.meta.url));
  const msg = fromBinary(ServerMessageSchema, readFileSync(path));
  if (msg.body.case !== "replay") throw new Error(`the fixture holds ${msg.body.case}, not a replay`);
  return msg.body.value;
}

function startView(replay: Replay): GameView<PublicState> {
  if (replay.start === undefined) throw new Error("a replay without start");
  const view = fromSnapshot(cityModule, replay.start);
  if (!view.ok) throw new Error(view.error);
  return view.value;
}

describe("the wall's outline", () => {
  it("follows the example of rules.md 2.9", () => {
    const replay = loadReplay();
    const base = startView(replay).state;
    const tiles = [
      { tile: 0, x: 0, y: 0, rotation: 0 },
      { tile: 1, x: 0, y: 1, rotation: 0 },
    ];
    const st: PublicState = { ...base, tiles, gate: { x: 0, y: 0, side: 2 } };
    expect(nextWallEdges(st)).toEqual([
      { x: 0, y: 0, side: 3 },
      { x: 0, y: 0, side: 1 },
    ]);
    const built: PublicState = {
      ...st,
      front: [
        { x: 0, y: 0, side: 3, guard: null },
        { x: 0, y: 1, side: 3, guard: null },
      ],
      back: [{ x: 0, y: 0, side: 1, guard: null }],
    };
    expect(nextWallEdges(built)).toEqual([
      { x: 0, y: 1, side: 0 },
      { x: 0, y: 1, side: 1 },
    ]);
    expect(endVertices(built)).toEqual([
      { x: 0, y: 2 },
      { x: 1, y: 1 },
    ]);
    expect(closingEdges(built)).toEqual([
      { x: 0, y: 1, side: 0 },
      { x: 0, y: 1, side: 1 },
    ]);
  });

  it("predicts every piece of the recorded game, its towers' ends and its closing walls", () => {
    const replay = loadReplay();
    let view = startView(replay);
    let pieces = 0;
    let towers = 0;
    let closing: number | null = null;
    for (const step of replay.steps) {
      const before = view.state;
      const [front, back] = nextWallEdges(before);
      const ends = endVertices(before);
      const outcome = applyDelta(cityModule, view, step);
      if (outcome.kind !== "applied") throw new Error(`step ${step.sequence}: ${outcome.kind}`);
      view = outcome.view;
      const after = view.state;
      if (after.front.length > before.front.length) {
        expect(after.front[after.front.length - 1]).toMatchObject(front ?? {});
        pieces += 1;
      }
      if (after.back.length > before.back.length) {
        expect(after.back[after.back.length - 1]).toMatchObject(back ?? {});
        pieces += 1;
      }
      if (after.towers.length > before.towers.length) {
        const t = after.towers[after.towers.length - 1];
        if (t === undefined || ends === null) throw new Error("a tower without a chain");
        expect(towerVertex(after, t.end, t.position)).toEqual(ends[t.end]);
        towers += 1;
      }
      for (const bytes of step.events) {
        const e = cityModule.decodeEvent(bytes);
        if (e.ok && e.value.kind.case === "wallCompleted") closing = e.value.kind.value.sides;
      }
    }
    expect(pieces).toBeGreaterThan(5);
    expect(towers).toBeGreaterThan(0);
    expect(closing).not.toBeNull();
    expect(closingEdges(view.state).length).toBe(closing);
  });
});
