// The wall's choices drawn on the board: each legal wall piece becomes a ghost on the edge the
// engine would lay it on, each legal tower a spot at its end's corner, labelled as the buttons are,
// and picking one sends exactly the legal action.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { create, fromBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";

import { cityModule, type PublicState } from "../src/games/city";
import { decisionOverlay, type DecisionContext } from "../src/games/city/decisions";
import { ActionKind, ActionSchema, DecisionKind, type Action } from "../src/gen/carcassonne/city/v1/city_pb";
import { ServerMessageSchema } from "../src/gen/carcassonne/server/v2/server_pb";
import { fromSnapshot } from "../src/state";

function startState(): PublicState {
  const path = fileURLToPath(new URL("./fixtures/game-seed8-2p.replay.bin", import.meta.url));
  const msg = fromBinary(ServerMessageSchema, readFileSync(path));
  if (msg.body.case !== "replay" || msg.body.value.start === undefined) throw new Error("not a replay");
  const view = fromSnapshot(cityModule, msg.body.value.start);
  if (!view.ok) throw new Error(view.error);
  return view.value.state;
}

// rules.md 2.9's city: tiles at (0, 0) and (0, 1), the gate on the south side of (0, 0).
function wallState(kind: DecisionKind): PublicState {
  const base = startState();
  return {
    ...base,
    tiles: [
      { tile: 0, x: 0, y: 0, rotation: 0 },
      { tile: 1, x: 0, y: 1, rotation: 0 },
    ],
    gate: { x: 0, y: 0, side: 2 },
    front: [{ x: 0, y: 0, side: 3, guard: null }],
    decision: { actor: 0, kind, turnPlayer: 0 },
  };
}

function overlay(state: PublicState, legal: Action[]): { picks: ReturnType<typeof decisionOverlay>["picks"]; sent: Action[] } {
  const sent: Action[] = [];
  const ctx: DecisionContext = { state, catalog: null, legal, choice: null };
  const o = decisionOverlay(ctx, { send: (a) => sent.push(a), turn: () => undefined, onCell: () => undefined });
  return { picks: o.picks, sent };
}

describe("the wall's choices on the board", () => {
  it("draws a ghost piece where each end's next piece goes, and picking it builds there", () => {
    const legal = [0, 1].map((end) => create(ActionSchema, { kind: ActionKind.BUILD_WALL, end }));
    const { picks, sent } = overlay(wallState(DecisionKind.BUILD_WALL), legal);
    expect(picks.map(({ shape, x, y, at, end, label }) => ({ shape, x, y, at, end, label }))).toEqual([
      { shape: "wall", x: 0, y: 1, at: 3, end: 0, label: "Build wall at the front" },
      { shape: "wall", x: 0, y: 0, at: 1, end: 1, label: "Build wall at the back" },
    ]);
    picks[1]?.pick();
    expect(sent).toEqual([legal[1]]);
  });

  it("puts each tower's spot at the corner its end stops at", () => {
    const legal = [
      create(ActionSchema, { kind: ActionKind.PLACE_TOWER, end: 0 }),
      create(ActionSchema, { kind: ActionKind.PLACE_TOWER, end: 1 }),
      create(ActionSchema, { kind: ActionKind.SKIP_TOWER }),
    ];
    const { picks, sent } = overlay(wallState(DecisionKind.PLACE_TOWER), legal);
    expect(picks.map(({ shape, x, y, end, label }) => ({ shape, x, y, end, label }))).toEqual([
      { shape: "tower", x: 0, y: 1, end: 0, label: "Tower at the front" },
      { shape: "tower", x: 1, y: 0, end: 1, label: "Tower at the back" },
    ]);
    picks[0]?.pick();
    expect(sent).toEqual([legal[0]]);
  });

  it("shows nothing for a seat with nothing to decide", () => {
    expect(overlay(wallState(DecisionKind.BUILD_WALL), []).picks).toEqual([]);
  });
});
