// A whole game of Carcassonne with the River recorded from a real server (`npm run record-river`):
// the Replay of the game with seed 8 and 2 players in which every seat takes the first of its
// legal actions, the game whose hashes docs/protocol-carcassonne.md section 5 gives as test
// vectors; its tile set beside it. Starting from the snapshot and applying every step must give
// the server's hash after each one.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { create, fromBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";

import { riverModule, totalScore, type PublicState } from "../src/games/river";
import { choiceWord } from "../src/games/river/decisions";
import { tilesToDraw } from "../src/games/river/panel";
import { eventWord, tileWord } from "../src/games/river/words";
import { ActionKind, ActionSchema, EventSchema, FeatureKind as WireKind } from "../src/gen/carcassonne/river/v1/river_pb";
import { DeltaSchema, ServerMessageSchema, type Replay } from "../src/gen/carcassonne/server/v2/server_pb";
import { FeatureKind, TileRole } from "../src/gen/carcassonne/tiles/v1/tiles_pb";
import { applyDelta, deltaEvents, fromSnapshot, hashHex, needsResync, type GameView } from "../src/state";
import { catalogFromMessage, typeOf, type TileCatalog } from "../src/tiles/catalog";

function load(name: string): ReturnType<typeof fromBinary<typeof ServerMessageSchema>> {
  return fromBinary(ServerMessageSchema, readFileSync(fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url))));
}

function loadReplay(): Replay {
  const msg = load("river-seed8-2p.replay.bin");
  if (msg.body.case !== "replay") throw new Error(`the fixture holds ${msg.body.case}, not a replay`);
  return msg.body.value;
}

function loadCatalog(): TileCatalog {
  const msg = load("river-tileset.bin");
  if (msg.body.case !== "tileSet") throw new Error(`the fixture holds ${msg.body.case}, not a tile set`);
  const c = catalogFromMessage(msg.body.value);
  if (!c.ok) throw new Error(c.error);
  return c.value;
}

function startView(replay: Replay): GameView<PublicState> {
  if (replay.start === undefined) throw new Error("a replay without start");
  const view = fromSnapshot(riverModule, replay.start);
  if (!view.ok) throw new Error(view.error);
  return view.value;
}

function show(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) => (typeof v === "bigint" ? hashHex(v) : v));
}

describe("a recorded game of Carcassonne with the River", () => {
  const replay = loadReplay();

  it("is the game of rule set carcassonne with the River", () => {
    expect(replay.start?.ruleSet).toBe("carcassonne");
    const view = startView(replay);
    expect(view.state.river).toBe(true);
    expect(view.state.players).toBe(2);
    expect(view.sequence).toBe(0n);
    expect(hashHex(view.hash)).toBe("b863e2b9d9402b0f");
  });

  it("stays in step with the server through every step, with the protocol's test vectors", () => {
    let view = startView(replay);
    const vectors = new Map([
      [1n, "8683f49a9fe0cfc0"],
      [2n, "09c4db69fae2de1a"],
      [3n, "a27fea6ceb762e88"],
      [246n, "83d841dec927d822"],
    ]);
    const kinds = new Set<string>();
    for (const step of replay.steps) {
      const outcome = applyDelta(riverModule, view, step);
      if (outcome.kind !== "applied") throw new Error(`step ${step.sequence}: ${show(outcome)}`);
      view = outcome.view;
      expect(view.hash).toBe(step.stateHash);
      const vector = vectors.get(step.sequence);
      if (vector !== undefined) expect(hashHex(view.hash), `sequence ${step.sequence}`).toBe(vector);
      const events = deltaEvents(riverModule, step);
      if (events.ok) for (const e of events.value) kinds.add(e.kind.case ?? "");
    }
    expect(view.sequence).toBe(246n);
    expect(view.state.over).toBe(true);
    expect(view.state.decision.actor).toBe(-2);
    expect(view.state.player.map((p) => totalScore(p.scores))).toEqual([6, 7]);
    // The game scores features during the game and at its end.
    expect(kinds).toContain("featureScored");
    expect(kinds).toContain("followerReturned");
    expect(kinds).toContain("gameOver");
  });

  it("detects a gap, a stale delta and a hash that differs", () => {
    const view = startView(replay);
    const [first, second] = replay.steps;
    if (first === undefined || second === undefined) throw new Error("too few steps");
    expect(applyDelta(riverModule, view, second)).toEqual({ kind: "gap", expected: 1n, got: 2n });
    const once = applyDelta(riverModule, view, first);
    if (once.kind !== "applied") throw new Error(once.kind);
    expect(applyDelta(riverModule, once.view, first)).toEqual({ kind: "stale" });
    const forged = create(DeltaSchema, { ...first, stateHash: first.stateHash ^ 1n });
    const outcome = applyDelta(riverModule, view, forged);
    expect(outcome.kind).toBe("mismatch");
    expect(needsResync(outcome)).toBe(true);
  });
});

describe("Carcassonne's tile set from the server", () => {
  const catalog = loadCatalog();

  it("holds the base game and the River: 84 tiles, pennants, a spring and a lake", () => {
    expect(catalog.typeOfTile.length).toBe(84);
    const roles = catalog.types.map((t) => t.role);
    expect(roles.filter((r) => r === TileRole.SPRING)).toHaveLength(1);
    expect(roles.filter((r) => r === TileRole.LAKE)).toHaveLength(1);
    expect(roles.filter((r) => r === TileRole.START)).toHaveLength(1);
    expect(catalog.types.some((t) => t.features.some((f) => f.kind === FeatureKind.CITY && f.pennant))).toBe(true);
    // With the River the 82 tiles besides the spring and the start tile are drawn; without it, the 71
    // land tiles besides the start tile.
    expect(tilesToDraw(catalog, true)).toBe(82);
    expect(tilesToDraw(catalog, false)).toBe(71);
  });

  it("describes tiles in Carcassonne's words", () => {
    const spring = catalog.types.find((t) => t.role === TileRole.SPRING);
    expect(spring && tileWord(spring)).toBe("the river's spring");
    const cloister = catalog.types.find((t) => t.features.some((f) => f.kind === FeatureKind.MONASTERY) && !t.features.some((f) => f.kind === FeatureKind.STREET));
    expect(cloister && tileWord(cloister)).toBe("a monastery");
    const pennant = catalog.types.find((t) => t.name.startsWith("C-"));
    expect(pennant && tileWord(pennant)).toBe("a city with a pennant");
  });

  it("names each legal follower by role and feature, and tells two fields apart", () => {
    // The start tile's type: a city on the north side, a road from west to east between two fields.
    const start = catalog.types.find((t) => t.role === TileRole.START);
    if (start === undefined) throw new Error("no start tile");
    const state = startView(loadReplay()).state;
    const onStart = { ...state, tiles: [{ tile: start.firstId, x: 0, y: 0, rotation: 0 }] };
    const ctx = { state: onStart, catalog, legal: [], choice: null };
    const words = start.features.map((_, i) => choiceWord(ctx, create(ActionSchema, { kind: ActionKind.PLACE_FOLLOWER, feature: i })));
    expect(words).toEqual(["Knight on the city", "Farmer on the field (north-west)", "Thief on the road", "Farmer on the field (south-west)"]);
    expect(choiceWord(ctx, create(ActionSchema, { kind: ActionKind.SKIP_FOLLOWER }))).toBe("No follower");
    expect(typeOf(catalog, start.firstId)?.features.map((f) => f.kind)).toEqual([FeatureKind.CITY, FeatureKind.FIELD, FeatureKind.STREET, FeatureKind.FIELD]);
  });

  it("tells the log what was scored", () => {
    const names = ["Alice", "Bob"];
    const city = create(EventSchema, { kind: { case: "featureScored", value: { kind: WireKind.CITY, tiles: 3, pennants: 1, complete: true, points: [8, 0] } } });
    expect(eventWord(city, names)).toBe("Alice scored 8 for a city of 3 tiles and 1 pennant");
    const field = create(EventSchema, { kind: { case: "fieldScored", value: { cities: 2, points: [0, 6] } } });
    expect(eventWord(field, names)).toBe("Bob scored 6 for a field next to 2 completed cities");
    const farmer = create(EventSchema, { kind: { case: "followerPlaced", value: { player: 1, x: 2, y: -1, role: WireKind.FIELD } } });
    expect(eventWord(farmer, names)).toBe("Bob placed a farmer in the field");
    const nobody = create(EventSchema, { kind: { case: "featureScored", value: { kind: WireKind.ROAD, tiles: 1, complete: false, points: [0, 0] } } });
    expect(eventWord(nobody, names)).toBeNull();
    const placed = create(EventSchema, { kind: { case: "tilePlaced", value: { player: 0, tile: 30, x: 1, y: -2 } } });
    expect(eventWord(placed, names, () => "a monastery", { tiles: [{ x: 0, y: 0 }], river: true })).toBe(
      "Alice placed a tile showing a monastery 2 tiles south and 1 east of the spring",
    );
  });
});
