// What just happened: the marks a move leaves on the board, each player's last move kept by the
// game page, the replay's steps by move, and the only choice answered for the seat.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { fromBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";

import { cityModule, type PublicState } from "../src/games/city";
import type { MoveMark } from "../src/games/module";
import { edgePoint, pointsMarks, RecentMoves } from "../src/games/shared/recent";
import { ServerMessageSchema, type Replay } from "../src/gen/carcassonne/server/v2/server_pb";
import { applyDelta, deltaEvents, fromSnapshot, type GameView } from "../src/state";
import { catalogFromMessage, type TileCatalog } from "../src/tiles/catalog";
import { onlyChoice } from "../src/ui/auto-answer";
import { moveSteps } from "../src/ui/replay";

function load(name: string): ReturnType<typeof fromBinary<typeof ServerMessageSchema>> {
  return fromBinary(ServerMessageSchema, readFileSync(fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url))));
}

function cityReplay(): Replay {
  const m = load("game-seed8-2p.replay.bin");
  if (m.body.case !== "replay") throw new Error("not a replay");
  return m.body.value;
}

function cityCatalog(): TileCatalog {
  const m = load("tileset.bin");
  if (m.body.case !== "tileSet") throw new Error("not a tile set");
  const c = catalogFromMessage(m.body.value);
  if (!c.ok) throw new Error(c.error);
  return c.value;
}

// Every view of the recorded game, by sequence.
function views(replay: Replay): GameView<PublicState>[] {
  if (replay.start === undefined) throw new Error("no start");
  const first = fromSnapshot(cityModule, replay.start);
  if (!first.ok) throw new Error(first.error);
  const out: GameView<PublicState>[] = [first.value];
  for (const d of replay.steps) {
    const last = out[out.length - 1];
    if (last === undefined) throw new Error("no view");
    const next = applyDelta(cityModule, last, d);
    if (next.kind !== "applied") throw new Error(next.kind);
    out.push(next.view);
  }
  return out;
}

describe("the replay's steps", () => {
  it("fold the server's draws into the move before them", () => {
    // draw, place, follower, draw, place, draw, place, follower
    expect(moveSteps([true, false, false, true, false, true, false, false])).toEqual([1, 2, 4, 6, 7, 8]);
    expect(moveSteps([])).toEqual([0]);
  });

  it("are as many as the players' moves of a recorded game", () => {
    const replay = cityReplay();
    const server = replay.steps.map((d) => {
      const a = cityModule.decodeAction(d.action);
      return a.ok && cityModule.isServerAction(a.value);
    });
    const draws = server.filter((s) => s).length;
    const steps = moveSteps(server);
    expect(draws).toBeGreaterThan(70);
    expect(steps.length - 1).toBe(replay.steps.length - draws);
    expect(steps[steps.length - 1]).toBe(replay.steps.length);
  });
});

describe("a move's marks", () => {
  const replay = cityReplay();
  const all = views(replay);
  const catalog = cityCatalog();

  it("outline the tile placed and ring the follower put, in the player's seat", () => {
    const marks: MoveMark[] = [];
    for (const seq of [2, 3]) {
      const d = replay.steps[seq - 1];
      const events = d === undefined ? null : deltaEvents(cityModule, d);
      const state = all[seq]?.state;
      if (events === null || !events.ok || state === undefined) throw new Error("no step");
      marks.push(...cityModule.moveMarks(state, events.value, catalog));
    }
    expect(marks.map((m) => [m.kind, m.player])).toEqual([
      ["tile", 0],
      ["piece", 0],
    ]);
  });

  it("put a +N label where points were scored", () => {
    const at = replay.steps.findIndex((d) => {
      const e = deltaEvents(cityModule, d);
      return e.ok && e.value.some((x) => x.kind.case === "featureScored" && x.kind.value.points.some((p) => p > 0));
    });
    const d = replay.steps[at];
    const state = all[at + 1]?.state;
    const events = d === undefined ? null : deltaEvents(cityModule, d);
    if (events === null || !events.ok || state === undefined) throw new Error("no scoring");
    const labels = cityModule.moveMarks(state, events.value, catalog).filter((m) => m.kind === "points");
    expect(labels.length).toBeGreaterThan(0);
    expect(labels.every((m) => m.kind === "points" && m.points > 0)).toBe(true);
  });

  it("stack the labels of several scorers and skip those who scored nothing", () => {
    expect(pointsMarks([4, 0, 2], [10, 20])).toEqual([
      { kind: "points", player: 0, points: 4, at: [10, 20] },
      { kind: "points", player: 2, points: 2, at: [10, 42] },
    ]);
    expect(pointsMarks([3], null)).toEqual([]);
    expect(edgePoint(0, 0, 1)).toEqual([100, 50]);
  });
});

describe("RecentMoves", () => {
  it("keeps each player's last move, and a move of one's own ends the others'", () => {
    const r = new RecentMoves<string>();
    const events = (): string[] => r.chunks().flatMap((c) => [...c.events]);
    r.add(1, false, ["bob tile"], 0, 0);
    r.add(1, false, ["bob follower"], 0, 1);
    r.add(1, true, ["draw"], 0, 2);
    expect(events()).toEqual(["bob tile", "bob follower", "draw"]);
    r.add(0, false, ["alice tile"], 0, 3);
    expect(events()).toEqual(["alice tile"]);
    r.add(1, false, ["bob tile 2"], 0, 4);
    expect(events()).toEqual(["alice tile", "bob tile 2"]);
    r.add(1, false, ["bob follower 2"], 0, 5);
    r.add(2, false, ["carol tile"], 0, 6);
    expect(events()).toEqual(["alice tile", "bob tile 2", "bob follower 2", "carol tile"]);
    r.add(1, false, ["bob tile 3"], 0, 7);
    expect(events()).toEqual(["alice tile", "bob tile 3", "carol tile"]);
  });

  it("keeps every player's last move for a spectator", () => {
    const r = new RecentMoves<string>();
    r.add(0, false, ["a"], null, 0);
    r.add(1, false, ["b"], null, 1);
    r.add(0, false, ["a2"], null, 2);
    expect(r.chunks().flatMap((c) => [...c.events])).toEqual(["a2", "b"]);
  });
});

describe("onlyChoice", () => {
  const word = (a: string): string | null => (a === "tile" ? null : a);

  it("answers a decision with exactly one legal action the game allows", () => {
    expect(onlyChoice(["No follower"], word)).toEqual({ action: "No follower", word: "No follower" });
    expect(onlyChoice(["No follower", "Follower"], word)).toBeNull();
    expect(onlyChoice([], word)).toBeNull();
    expect(onlyChoice(["tile"], word)).toBeNull();
  });
});
