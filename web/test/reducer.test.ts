// The reducer's handling of events that do not fit the state: an error value naming the event,
// and the caller's state left as it was.
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";

import {
  DecisionKind,
  EventSchema,
  PublicStateSchema,
  type Event,
} from "../src/gen/carcassonne/city/v1/city_pb";
import { applyEvent, applyEvents, stateFromWire, type PublicState } from "../src/games/city";

function twoPlayerStart(): PublicState {
  const wire = create(PublicStateSchema, {
    players: 2,
    stackSizes: [30, 25, 20],
    walls: 70,
    decision: { actor: -1, kind: DecisionKind.DRAW_TILE, turnPlayer: 0 },
    drawnTile: -1,
    wallsLeft: 70,
    player: [
      { scores: {}, followers: 7, towers: 6 },
      { scores: {}, followers: 7, towers: 6 },
    ],
  });
  const state = stateFromWire(wire);
  if (!state.ok) throw new Error(state.error);
  return state.value;
}

function event(kind: MessageInitShape<typeof EventSchema>["kind"]): Event {
  return create(EventSchema, { kind });
}

describe("applyEvent", () => {
  it("keeps followers sorted by player, x, y, feature", () => {
    const placed = applyEvents(twoPlayerStart(), [
      event({ case: "followerPlaced", value: { player: 1, x: 0, y: 0, feature: 1 } }),
      event({ case: "followerPlaced", value: { player: 0, x: 2, y: -1, feature: 3 } }),
      event({ case: "followerPlaced", value: { player: 0, x: -1, y: 5, feature: 0 } }),
    ]);
    if (!placed.ok) throw new Error(placed.error);
    expect(placed.value.followers.map((f) => [f.player, f.x])).toEqual([
      [0, -1],
      [0, 2],
      [1, 0],
    ]);
  });

  it("refuses to return a follower that is not there", () => {
    const start = twoPlayerStart();
    const result = applyEvent(
      start,
      event({
        case: "followerReturned",
        value: { player: 0, x: 0, y: 0, feature: 1, scored: true },
      }),
    );
    expect(result.ok).toBe(false);
    expect(start.player[0]?.followers).toBe(7);
  });

  it("refuses a guard on a wall piece that is not built", () => {
    const result = applyEvent(
      twoPlayerStart(),
      event({ case: "guardPlaced", value: { player: 0, x: 1, y: 1, side: 0 } }),
    );
    expect(result.ok).toBe(false);
  });

  it("refuses points for the wrong number of seats and an empty event", () => {
    const points = event({ case: "stewardsScored", value: { points: [1, 2, 3] } });
    expect(applyEvent(twoPlayerStart(), points).ok).toBe(false);
    expect(applyEvent(twoPlayerStart(), create(EventSchema, {})).ok).toBe(false);
  });

  it("refuses a wire state whose players do not match its seats", () => {
    const wire = create(PublicStateSchema, {
      players: 2,
      decision: { kind: DecisionKind.DRAW_TILE, actor: -1 },
    });
    expect(stateFromWire(wire).ok).toBe(false);
  });
});
