// The Castle's state on the client: the wire state checked on the way in, the reducer as the
// engine's castle::PublicState::Apply, and the engine's hash. The fixture
// castle-seed10-events.json is a whole two-player game the engine played (castle::Game::Create
// with the compiled-in tile set and board, seed 10, 6 followers each; each decision answered by a
// fixed rule), with the public state's start spaces and wall corners, every event and the hash
// castle::PublicState::Hash gave after it: the reducer and the hash are checked against the C++.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { create, toBinary, type MessageInitShape } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";

import { applyEvent, applyEvents, castleModule, stateFromWire, stateHash, totalScore, type PublicState } from "../src/games/castle";
import { hashHex } from "../src/state";
import { factKey } from "../src/state/fact-key";
import {
  ActionKind,
  ActionSchema,
  DecisionKind,
  EventSchema,
  FeatureKind,
  PublicStateSchema,
  WallKind,
  type Event,
} from "../src/gen/carcassonne/castle/v1/castle_pb";

type WireInit = Exclude<MessageInitShape<typeof PublicStateSchema>, { $typeName: string }>;
type EventInit = MessageInitShape<typeof EventSchema>["kind"];

interface Recorded {
  readonly followersPerPlayer: number;
  readonly wallCorners: number;
  readonly startTiles: readonly { tile: number; x: number; y: number; rotation: number }[];
  readonly initialHash: string;
  readonly events: readonly [EventInit, string][];
}

const GAME = JSON.parse(readFileSync(join(__dirname, "fixtures/castle-seed10-events.json"), "utf8")) as Recorded;

// A board with 14 corner towers (the box's count, so that wall_corners fits); the hash does not
// read the board, the reducer only its corner count.
function board() {
  const wall = Array.from({ length: 50 }, (_, i) => ({ track: 2 * i, x: i, y: 0, kind: i % 4 === 0 ? WallKind.TOWER : WallKind.WALL }));
  return { squares: [{ x: 1, y: 1 }], wall, cornerTracks: Array.from({ length: 14 }, (_, i) => 8 * i) };
}

// castle::PublicState::Initial for the recorded game, on the wire.
function initialWire(): WireInit {
  return {
    players: 2,
    followersPerPlayer: GAME.followersPerPlayer,
    tiles: GAME.startTiles.map((t) => ({ ...t })),
    startSpaces: GAME.startTiles.length,
    decision: { actor: -1, kind: DecisionKind.DRAW_TILE, turnPlayer: 0 },
    drawnTile: -1,
    wallCorners: GAME.wallCorners,
    player: [
      { scores: {}, followers: GAME.followersPerPlayer },
      { scores: {}, followers: GAME.followersPerPlayer },
    ],
    board: board(),
  };
}

function fromWire(init: WireInit): PublicState {
  const s = stateFromWire(create(PublicStateSchema, init));
  if (!s.ok) throw new Error(s.error);
  return s.value;
}

function event(kind: EventInit): Event {
  return create(EventSchema, { kind });
}

describe("The Castle's state from the wire", () => {
  it("reads the initial state, whose hash is the engine's (and docs/protocol-castle.md's)", () => {
    expect(GAME.initialHash).toBe("53e6336b7189cb40");
    const s = fromWire(initialWire());
    expect(s.players).toBe(2);
    expect(s.startSpaces).toBe(7);
    expect(s.player[0]?.wallTiles).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(hashHex(stateHash(s))).toBe(GAME.initialHash);
  });

  it("goes through the module's bytes", () => {
    const bytes = toBinary(PublicStateSchema, create(PublicStateSchema, initialWire()));
    const s = castleModule.decodeState(bytes);
    expect(s.ok && hashHex(castleModule.stateHash(s.value))).toBe(GAME.initialHash);
    expect(castleModule.decodeState(new Uint8Array([0xff, 0xff, 0xff])).ok).toBe(false);
    const action = create(ActionSchema, { kind: ActionKind.USE_WALL_TILE, x: 4, y: 7, feature: 2, wall: 5 });
    expect(castleModule.decodeAction(castleModule.encodeAction(action))).toEqual({ ok: true, value: action });
  });

  it("refuses what the engine could not hold", () => {
    const counts = (n: number): number[] => [0, n, 0, 0, 0, 0, 0, 0, 0, 0];
    const bad: [string, WireInit][] = [
      ["three players", { ...initialWire(), players: 3 }],
      ["a missing player entry", { ...initialWire(), player: [{ followers: 6 }] }],
      ["no board", { ...initialWire(), board: undefined }],
      ["a wall out of track order", { ...initialWire(), board: { ...board(), wall: [{ track: 2, kind: WallKind.WALL }] } }],
      ["more start spaces than tiles", { ...initialWire(), startSpaces: 8 }],
      ["a tile beyond the set", { ...initialWire(), tiles: [{ tile: 84 }] }],
      ["a decision kind out of range", { ...initialWire(), decision: { actor: 0, kind: 8 as DecisionKind, turnPlayer: 0 } }],
      ["a wall-tile decision of no wall tile", { ...initialWire(), decision: { actor: 0, kind: DecisionKind.WALL_TILE, turnPlayer: 0, wall: 0 } }],
      ["over, but a decision pending", { ...initialWire(), over: true }],
      ["wall tiles on corners the board lacks", { ...initialWire(), wallCorners: 1 << 14 }],
      ["wall tiles counted short", { ...initialWire(), player: [{ followers: 6, wallTiles: [0, 1] }, { followers: 6 }] }],
      ["more fresh than held", { ...initialWire(), player: [{ followers: 6, wallTiles: counts(1), fresh: counts(2) }, { followers: 6 }] }],
      ["more followers than a supply holds", { ...initialWire(), player: [{ followers: 7 }, { followers: 6 }] }],
      [
        "unsorted followers",
        {
          ...initialWire(),
          followers: [
            { player: 1, x: 2, y: 2, feature: 0 },
            { player: 0, x: 2, y: 2, feature: 0 },
          ],
        },
      ],
    ];
    for (const [why, init] of bad) expect(stateFromWire(create(PublicStateSchema, init)).ok, why).toBe(false);
  });
});

describe("The Castle's reducer and hash", () => {
  it("keys facts in The Castle's own domains (docs/protocol-castle.md section 5)", () => {
    expect(hashHex(factKey(31, 0, 0, 0, 0))).toBe("9e3732e66e5b9c92");
  });

  it("follow the engine event by event through a whole game", () => {
    let s = fromWire(initialWire());
    const seen = new Set<string>();
    for (const [init, hash] of GAME.events) {
      const e = event(init);
      const next = applyEvent(s, e);
      if (!next.ok) throw new Error(next.error);
      s = next.value;
      seen.add(e.kind.case ?? "");
      expect(hashHex(stateHash(s)), `${e.kind.case} to ${hash}`).toBe(hash);
    }
    expect([...seen].sort()).toEqual(
      ["decisionRequested", "featureScored", "followerPlaced", "followerReturned", "gameOver", "keepPlaced", "keepScored", "tileDrawn", "tilePlaced", "wallTileTaken", "wallTileUsed"],
    );
    expect(s.over).toBe(true);
    expect(s.wallCorners).toBe(0);
    expect(s.tiles.length).toBe(7 + s.tilesDrawn - s.tilesDiscarded);
    const over = GAME.events[GAME.events.length - 1]?.[0];
    if (over?.case !== "gameOver") throw new Error("the game ends with gameOver");
    expect(s.player.map((p) => totalScore(p.scores))).toEqual(over.value.scores?.map((sc) => totalScore({ paths: 0, towers: 0, houses: 0, courts: 0, keep: 0, wallTiles: 0, ...sc })));
  });

  it("takes and uses wall tiles as the engine does: fresh until the next turn", () => {
    const start = fromWire(initialWire());
    const took = applyEvents(start, [
      event({ case: "wallTileTaken", value: { player: 1, corner: 3, wall: 1 } }),
      event({ case: "decisionRequested", value: { decision: { actor: 1, kind: DecisionKind.EXTRA_TURN, turnPlayer: 1 } } }),
    ]);
    if (!took.ok) throw new Error(took.error);
    expect(took.value.wallCorners).toBe(GAME.wallCorners & ~(1 << 3));
    expect(took.value.player[1]?.wallTiles[1]).toBe(1);
    expect(took.value.player[1]?.fresh[1]).toBe(1);
    const nextTurn = applyEvent(took.value, event({ case: "decisionRequested", value: { decision: { actor: -1, kind: DecisionKind.DRAW_TILE, turnPlayer: 0 } } }));
    if (!nextTurn.ok) throw new Error(nextTurn.error);
    expect(nextTurn.value.player[1]?.fresh[1]).toBe(0);
    const used = applyEvent(nextTurn.value, event({ case: "wallTileUsed", value: { player: 1, wall: 1, points: 0 } }));
    if (!used.ok) throw new Error(used.error);
    expect(used.value.player[1]?.wallTiles[1]).toBe(0);
    // A doubled tower: the points are the towers'; an unfinished one at the end, the wall tiles'.
    const scored = applyEvents(used.value, [
      event({ case: "featureScored", value: { kind: FeatureKind.TOWER, complete: true, wall: 2, tiles: 3, points: [12, 0] } }),
      event({ case: "featureScored", value: { kind: FeatureKind.TOWER, complete: false, wall: 5, tiles: 2, points: [0, 4] } }),
      event({ case: "featureScored", value: { kind: FeatureKind.COURT, complete: false, tiles: 2, symbols: 1, points: [3, 0] } }),
      event({ case: "keepScored", value: { area: 5, sizes: [3, 1], points: [5, 0] } }),
    ]);
    if (!scored.ok) throw new Error(scored.error);
    expect(scored.value.player.map((p) => p.scores)).toEqual([
      { paths: 0, towers: 12, houses: 0, courts: 3, keep: 5, wallTiles: 0 },
      { paths: 0, towers: 0, houses: 0, courts: 0, keep: 0, wallTiles: 4 },
    ]);
  });

  it("never changes the state it is given", () => {
    const start = fromWire(initialWire());
    const before = structuredClone(start);
    expect(applyEvents(start, GAME.events.map(([e]) => event(e))).ok).toBe(true);
    expect(start).toEqual(before);
  });

  it("turns an event that does not fit into an error, and keeps the state", () => {
    const start = fromWire(initialWire());
    const bad: [string, Event][] = [
      ["an empty event", event({ case: undefined })],
      ["a follower of no seat", event({ case: "followerPlaced", value: { player: 2, role: FeatureKind.PATH } })],
      ["a follower with no role", event({ case: "followerPlaced", value: { player: 0 } })],
      ["a follower that is not there", event({ case: "followerReturned", value: { player: 0, x: 1, y: 1, feature: 0 } })],
      ["points for three seats", event({ case: "featureScored", value: { kind: FeatureKind.PATH, points: [1, 2, 3] } })],
      ["a wall tile from the corner at 0", event({ case: "wallTileTaken", value: { player: 0, corner: 0, wall: 4 } })],
      ["a wall tile of no number", event({ case: "wallTileTaken", value: { player: 0, corner: 1, wall: 10 } })],
      ["a wall tile not held", event({ case: "wallTileUsed", value: { player: 0, wall: 9, points: 5 } })],
      ["a keep of no seat", event({ case: "keepPlaced", value: { player: 3, size: 2 } })],
      ["keep points for one seat", event({ case: "keepScored", value: { points: [3] } })],
      ["a decision of nobody", event({ case: "decisionRequested", value: { decision: { actor: 5, kind: DecisionKind.PLACE_TILE } } })],
      ["winners beyond the seats", event({ case: "gameOver", value: { scores: [{}, {}], winners: 4 } })],
    ];
    for (const [why, e] of bad) expect(applyEvent(start, e).ok, why).toBe(false);
    expect(hashHex(stateHash(start))).toBe(GAME.initialHash);
  });
});
