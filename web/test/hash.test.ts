// The test vectors of docs/protocol.md section 6 and docs/protocol-city.md section 5: the mixing
// functions, and the game with seed 8 and 2 players through its first three actions, built from
// the events protocol-city.md section 6 lists. The later vectors (173, 267) are checked against
// the recorded game in replay.test.ts.
import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";

import {
  DecisionKind,
  EventSchema,
  FeatureKind,
  type Event,
} from "../src/gen/carcassonne/city/v1/city_pb";
import { applyEvents, factKey, mix64, stateHash, word, type PublicState } from "../src/games/city";
import { hashHex } from "../src/state";

const zeroScores = { streets: 0, markets: 0, towers: 0, stewards: 0, guards: 0 };

// The state of section 8's Snapshot at sequence 0.
const start: PublicState = {
  players: 2,
  stackSizes: [30, 25, 20],
  walls: 70,
  followersPerPlayer: 7,
  towersTotal: 12,
  closingDistance: 5,
  tiles: [],
  followers: [],
  gate: null,
  front: [],
  back: [],
  towers: [],
  decision: { actor: -1, kind: DecisionKind.DRAW_TILE, turnPlayer: 0 },
  drawnTile: -1,
  tilesDrawn: 0,
  tilesDiscarded: 0,
  wallsLeft: 70,
  chainClosed: false,
  end: 0,
  player: [
    { scores: zeroScores, followers: 7, towers: 6 },
    { scores: zeroScores, followers: 7, towers: 6 },
  ],
};

function decision(actor: number, kind: DecisionKind, turnPlayer: number): Event {
  return create(EventSchema, {
    kind: { case: "decisionRequested", value: { decision: { actor, kind, turnPlayer } } },
  });
}

// The events of deltas 1, 2 and 3 in section 8.
const deltas: Event[][] = [
  [
    create(EventSchema, { kind: { case: "tileDrawn", value: { tile: 34, stack: 1 } } }),
    decision(0, DecisionKind.PLACE_TILE, 0),
  ],
  [
    create(EventSchema, {
      kind: { case: "tilePlaced", value: { player: 0, tile: 34, x: 0, y: 0, rotation: 2 } },
    }),
    decision(0, DecisionKind.PLACE_FOLLOWER, 0),
  ],
  [
    create(EventSchema, {
      kind: {
        case: "followerPlaced",
        value: { player: 0, x: 0, y: 0, feature: 4, role: FeatureKind.RESIDENTIAL },
      },
    }),
    decision(-1, DecisionKind.DRAW_TILE, 1),
  ],
];

describe("mixing", () => {
  it("matches the engine's Mix64 and FactKey", () => {
    expect(hashHex(mix64(0n))).toBe("e220a8397b1dcdaf");
    expect(hashHex(factKey(1, 0, 0, 0, 0))).toBe("348c3d1af8bec8e5");
  });

  it("feeds negative values as two's complement words", () => {
    expect(word(-1)).toBe(0xffffffffffffffffn);
    expect(word(-2)).toBe(0xfffffffffffffffen);
    expect(factKey(3, -1, 0, 0, 0)).toBe(factKey(3, 0xffffffffffffffffn, 0, 0, 0));
  });
});

describe("stateHash", () => {
  it("hashes the start of the seed-8 game", () => {
    expect(hashHex(stateHash(start))).toBe("6ed46e28de18307a");
  });

  it("follows the first three actions of the seed-8 game", () => {
    const expected = ["327d0c11cc262cf8", "f94aacd642a42eea", "b14e878a86ffee98"];
    let state = start;
    deltas.forEach((events, i) => {
      const next = applyEvents(state, events);
      if (!next.ok) throw new Error(next.error);
      state = next.value;
      expect(hashHex(stateHash(state)), `sequence ${i + 1}`).toBe(expected[i]);
    });
    expect(state.followers).toEqual([{ player: 0, x: 0, y: 0, feature: 4 }]);
    expect(state.player[0]?.followers).toBe(6);
  });

  it("leaves the given state unchanged", () => {
    const before = structuredClone(start);
    const next = applyEvents(start, deltas.flat());
    expect(next.ok).toBe(true);
    expect(start).toEqual(before);
  });
});
