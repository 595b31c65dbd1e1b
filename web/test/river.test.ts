// Carcassonne's (the River's) state on the client: the wire state checked on the way in, the
// reducer as the engine's river::PublicState::Apply, and the engine's hash. The hashes below were
// printed by the engine itself (river::PublicState::Initial and Apply over the same events, with
// PublicState::Hash after each), so the reducer and the hash are checked against the C++.
import { create, toBinary, type MessageInitShape } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";

import { applyEvent, applyEvents, riverModule, stateFromWire, stateHash, totalScore, type PublicState } from "../src/games/river";
import { hashHex } from "../src/state";
import { factKey } from "../src/state/fact-key";
import {
  ActionKind,
  ActionSchema,
  DecisionKind,
  EventSchema,
  FeatureKind,
  PublicStateSchema,
  type Event,
} from "../src/gen/carcassonne/river/v1/river_pb";

// The plain-object form of a wire state (not a built message), so that tests can spread it.
type WireInit = Exclude<MessageInitShape<typeof PublicStateSchema>, { $typeName: string }>;

// river::PublicState::Initial({players 2, river, 7 followers}, spring 72) on the wire.
function initialWire(): WireInit {
  return {
    players: 2,
    river: true,
    followersPerPlayer: 7,
    tiles: [{ tile: 72, x: 0, y: 0, rotation: 0 }],
    decision: { actor: -1, kind: DecisionKind.DRAW_TILE, turnPlayer: 0 },
    drawnTile: -1,
    player: [
      { scores: {}, followers: 7 },
      { scores: {}, followers: 7 },
    ],
  };
}

function fromWire(init: WireInit): PublicState {
  const s = stateFromWire(create(PublicStateSchema, init));
  if (!s.ok) throw new Error(s.error);
  return s.value;
}

function event(kind: MessageInitShape<typeof EventSchema>["kind"]): Event {
  return create(EventSchema, { kind });
}

// The events of the engine's run, each with the hash the engine printed after it.
const RUN: readonly [Event, string][] = [
  [event({ case: "tileDrawn", value: { tile: 73 } }), "99a6d71face60b66"],
  [event({ case: "decisionRequested", value: { decision: { actor: 0, kind: DecisionKind.PLACE_TILE, turnPlayer: 0 } } }), "5d673860e63818b2"],
  [event({ case: "tilePlaced", value: { player: 0, tile: 73, x: 0, y: -1, rotation: 2 } }), "e10281d83e2eb447"],
  [event({ case: "decisionRequested", value: { decision: { actor: 0, kind: DecisionKind.PLACE_FOLLOWER, turnPlayer: 0 } } }), "4e01e6f53634eeae"],
  [event({ case: "followerPlaced", value: { player: 0, x: 0, y: -1, feature: 1, role: FeatureKind.FIELD } }), "b03b2d8e32813392"],
  [event({ case: "followerPlaced", value: { player: 1, x: -3, y: 5, feature: 0, role: FeatureKind.CITY } }), "768ad692507bfa1b"],
  [event({ case: "featureScored", value: { kind: FeatureKind.CITY, x: -3, y: 5, feature: 0, tiles: 2, pennants: 1, complete: true, points: [4, 0] } }), "0f607b9a8fcedb65"],
  [event({ case: "followerReturned", value: { player: 1, x: -3, y: 5, feature: 0 } }), "e7464a8c0ff68839"],
  [event({ case: "fieldScored", value: { x: 0, y: -1, feature: 1, cities: 2, points: [0, 6] } }), "dd87ec1a9e623045"],
  [event({ case: "tileDiscarded", value: { tile: 40 } }), "36c9e18d02d900ae"],
  [event({ case: "gameOver", value: { scores: [{ cities: 4 }, { fields: 6 }], winners: 1 } }), "6d210329fd7f749a"],
];

describe("the River's state from the wire", () => {
  it("reads the initial state, whose hash is the engine's", () => {
    const s = fromWire(initialWire());
    expect(s.players).toBe(2);
    expect(s.river).toBe(true);
    expect(s.tiles).toEqual([{ tile: 72, x: 0, y: 0, rotation: 0 }]);
    expect(hashHex(stateHash(s))).toBe("b863e2b9d9402b0f");
  });

  it("goes through the module's bytes", () => {
    const bytes = toBinary(PublicStateSchema, create(PublicStateSchema, initialWire()));
    const s = riverModule.decodeState(bytes);
    expect(s.ok && hashHex(riverModule.stateHash(s.value))).toBe("b863e2b9d9402b0f");
    expect(riverModule.decodeState(new Uint8Array([0xff, 0xff, 0xff])).ok).toBe(false);
    const action = create(ActionSchema, { kind: ActionKind.PLACE_TILE, x: -2, y: 3, rotation: 1 });
    expect(riverModule.decodeAction(riverModule.encodeAction(action))).toEqual({ ok: true, value: action });
  });

  it("refuses what the engine could not hold", () => {
    const bad: [string, WireInit][] = [
      ["one player", { ...initialWire(), players: 1, player: [{ followers: 7 }] }],
      ["six players", { ...initialWire(), players: 6 }],
      ["a missing player entry", { ...initialWire(), player: [{ followers: 7 }] }],
      ["no set-up tile", { ...initialWire(), tiles: [] }],
      ["a tile beyond the set", { ...initialWire(), tiles: [{ tile: 84 }] }],
      ["a rotation of 4", { ...initialWire(), tiles: [{ tile: 3, rotation: 4 }] }],
      ["a coordinate beyond int8", { ...initialWire(), tiles: [{ tile: 3, x: 128 }] }],
      ["a decision kind out of range", { ...initialWire(), decision: { actor: 0, kind: 5 as DecisionKind, turnPlayer: 0 } }],
      ["an actor out of range", { ...initialWire(), decision: { actor: 2, kind: DecisionKind.PLACE_TILE, turnPlayer: 0 } }],
      ["over, but a decision pending", { ...initialWire(), over: true }],
      ["the end, but not over", { ...initialWire(), decision: { actor: -2, kind: DecisionKind.NONE, turnPlayer: 0 } }],
      ["more discarded than drawn", { ...initialWire(), tilesDiscarded: 1 }],
      ["a drawn tile below -1", { ...initialWire(), drawnTile: -2 }],
      ["more followers than a supply holds", { ...initialWire(), player: [{ followers: 8 }, { followers: 7 }] }],
      [
        "unsorted followers",
        {
          ...initialWire(),
          followers: [
            { player: 1, x: 0, y: 0, feature: 0 },
            { player: 0, x: 0, y: 0, feature: 0 },
          ],
        },
      ],
      [
        "the same follower twice",
        {
          ...initialWire(),
          followers: [
            { player: 0, x: 0, y: 0, feature: 0 },
            { player: 0, x: 0, y: 0, feature: 0 },
          ],
        },
      ],
      ["a follower of no seat", { ...initialWire(), followers: [{ player: 2, x: 0, y: 0, feature: 0 }] }],
    ];
    for (const [why, init] of bad) expect(stateFromWire(create(PublicStateSchema, init)).ok, why).toBe(false);
  });
});

describe("the River's reducer and hash", () => {
  it("keys facts in the River's own domains (docs/protocol-carcassonne.md section 5)", () => {
    expect(hashHex(factKey(21, 0, 0, 0, 0))).toBe("0a1a47dc0704ebcc");
  });


  it("follow the engine event by event", () => {
    let s = fromWire(initialWire());
    for (const [e, hash] of RUN) {
      const next = applyEvent(s, e);
      if (!next.ok) throw new Error(next.error);
      s = next.value;
      expect(hashHex(stateHash(s)), e.kind.case).toBe(hash);
    }
    expect(s.over).toBe(true);
    expect(s.decision).toEqual({ actor: -2, kind: DecisionKind.NONE, turnPlayer: 0 });
    expect(s.drawnTile).toBe(-1);
    expect(s.tilesDrawn).toBe(1);
    expect(s.tilesDiscarded).toBe(1);
    expect(s.followers).toEqual([{ player: 0, x: 0, y: -1, feature: 1 }]);
    expect(s.player.map((p) => p.followers)).toEqual([6, 7]);
    expect(s.player.map((p) => p.scores)).toEqual([
      { roads: 0, cities: 4, monasteries: 0, fields: 0 },
      { roads: 0, cities: 0, monasteries: 0, fields: 6 },
    ]);
    expect(s.player.map((p) => totalScore(p.scores))).toEqual([4, 6]);
  });

  it("never changes the state it is given", () => {
    const start = fromWire(initialWire());
    const before = structuredClone(start);
    const after = applyEvents(
      start,
      RUN.map(([e]) => e),
    );
    expect(after.ok).toBe(true);
    expect(start).toEqual(before);
  });

  it("keeps followers sorted by player, x, y, feature", () => {
    const placed = applyEvents(fromWire(initialWire()), [
      event({ case: "followerPlaced", value: { player: 1, x: 0, y: 0, feature: 1, role: FeatureKind.ROAD } }),
      event({ case: "followerPlaced", value: { player: 0, x: 2, y: -1, feature: 3, role: FeatureKind.MONASTERY } }),
      event({ case: "followerPlaced", value: { player: 0, x: -1, y: 4, feature: 0, role: FeatureKind.CITY } }),
      event({ case: "followerPlaced", value: { player: 0, x: 2, y: -1, feature: 2, role: FeatureKind.FIELD } }),
    ]);
    if (!placed.ok) throw new Error(placed.error);
    expect(placed.value.followers.map((f) => [f.player, f.x, f.y, f.feature])).toEqual([
      [0, -1, 4, 0],
      [0, 2, -1, 2],
      [0, 2, -1, 3],
      [1, 0, 0, 1],
    ]);
  });

  it("turns an event that does not fit into an error, and keeps the state", () => {
    const start = fromWire(initialWire());
    const bad: [string, Event][] = [
      ["an empty event", event({ case: undefined })],
      ["a follower of no seat", event({ case: "followerPlaced", value: { player: 2, role: FeatureKind.ROAD } })],
      ["a follower with no role", event({ case: "followerPlaced", value: { player: 0 } })],
      ["a follower that is not there", event({ case: "followerReturned", value: { player: 0, x: 1, y: 1, feature: 0 } })],
      ["points for three seats", event({ case: "featureScored", value: { kind: FeatureKind.ROAD, points: [1, 2, 3] } })],
      ["a scored feature of no kind", event({ case: "featureScored", value: { points: [1, 2] } })],
      ["field points for one seat", event({ case: "fieldScored", value: { points: [3] } })],
      ["a decision of nobody", event({ case: "decisionRequested", value: { decision: { actor: 5, kind: DecisionKind.PLACE_TILE } } })],
      ["winners beyond the seats", event({ case: "gameOver", value: { scores: [{}, {}], winners: 4 } })],
      ["a tile beyond the set", event({ case: "tileDrawn", value: { tile: 84 } })],
    ];
    for (const [why, e] of bad) {
      const out = applyEvent(start, e);
      expect(out.ok, why).toBe(false);
    }
    expect(hashHex(stateHash(start))).toBe("b863e2b9d9402b0f");
  });
});
