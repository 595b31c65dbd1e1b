// The Castle in words and pictures: every decision's buttons say what the choice does (wall tiles
// by their effect, features by kind and by the wall's track numbers, never by coordinates), the
// log says what happened, the tiles show their towers, houses, courts, markets, paths, fountains,
// squares and start spaces, and the board shows the wall with its scoring track, the corner
// towers' face-down wall tiles, both scoring markers and the keeps.
import { create } from "@bufbuild/protobuf";
import { beforeAll, describe, expect, it } from "vitest";

import { ActionKind, ActionSchema, DecisionKind, EventSchema, FeatureKind, PublicStateSchema, WallKind, type Action, type Event } from "../src/gen/carcassonne/castle/v1/castle_pb";
import { FeatureKind as TileKind, StreetEnd, TileRole, TileSetSchema } from "../src/gen/carcassonne/tiles/v1/tiles_pb";
import { drawBoard, NO_OVERLAY } from "../src/games/castle/board";
import { choiceWord, drawDecision } from "../src/games/castle/decisions";
import { stateFromWire, type PublicState } from "../src/games/castle";
import { drawPanel } from "../src/games/castle/panel";
import { tileArt } from "../src/games/castle/tile-art";
import { eventWord, onlyChoiceWord, tileWord, wallTileWord } from "../src/games/castle/words";
import { catalogFromMessage, tileDescriber, typeOf, type TileCatalog } from "../src/tiles/catalog";
import { asFake, classes, find, installFakeDocument, withClass, type FakeElement } from "./fake-svg";

const NO = -1;

// Three tile types as the server's tile set sends them: a start space (a house, a path ending at
// the wall and a court on its north side, blank elsewhere), CT01 (two houses, two towers, a
// branching path with a fountain) and CT10 (a court with a market, a tower, a house and three
// paths meeting at a square).
function castleCatalog(): TileCatalog {
  const msg = create(TileSetSchema, {
    id: "castle",
    version: 1,
    types: [
      {
        name: "start-6",
        firstId: 0,
        count: 1,
        role: TileRole.START_SPACE,
        portFeature: [0, 1, 2, NO, NO, NO, NO, NO, NO, NO, NO, NO],
        features: [{ kind: TileKind.HOUSE }, { kind: TileKind.STREET, end: StreetEnd.WALL }, { kind: TileKind.COURT }],
      },
      {
        name: "CT01",
        firstId: 1,
        count: 1,
        portFeature: [0, 4, 1, 1, 4, 2, 2, 4, 3, 3, 4, 0],
        features: [{ kind: TileKind.HOUSE }, { kind: TileKind.TOWER }, { kind: TileKind.HOUSE }, { kind: TileKind.TOWER }, { kind: TileKind.STREET, symbol: true }],
      },
      {
        name: "CT10",
        firstId: 2,
        count: 1,
        portFeature: [0, NO, 0, 0, 4, 2, 2, 5, 1, 1, 3, 0],
        features: [
          { kind: TileKind.COURT, symbol: true },
          { kind: TileKind.TOWER },
          { kind: TileKind.HOUSE },
          { kind: TileKind.STREET, end: StreetEnd.SQUARE },
          { kind: TileKind.STREET, end: StreetEnd.SQUARE },
          { kind: TileKind.STREET, end: StreetEnd.SQUARE },
        ],
      },
    ],
  });
  const c = catalogFromMessage(msg);
  if (!c.ok) throw new Error(c.error);
  return c.value;
}

// A small castle: four squares ringed by twelve wall cells, four of them corner towers.
const RING: [number, number, WallKind][] = [
  [0, 0, WallKind.TOWER],
  [0, 1, WallKind.START],
  [0, 2, WallKind.WALL],
  [0, 3, WallKind.TOWER],
  [1, 3, WallKind.WALL],
  [2, 3, WallKind.WALL],
  [3, 3, WallKind.TOWER],
  [3, 2, WallKind.WALL],
  [3, 1, WallKind.WALL],
  [3, 0, WallKind.TOWER],
  [2, 0, WallKind.WALL],
  [1, 0, WallKind.WALL],
];

function state(decision: { actor: number; kind: DecisionKind; wall?: number }, over = false): PublicState {
  const s = stateFromWire(
    create(PublicStateSchema, {
      players: 2,
      followersPerPlayer: 6,
      startSpaces: 1,
      tiles: [
        { tile: 0, x: 0, y: 1, rotation: 1 },
        { tile: 2, x: 2, y: 2, rotation: 0 },
        { tile: 1, x: 1, y: 1, rotation: 0 },
      ],
      followers: [{ player: 1, x: 1, y: 1, feature: 1 }],
      decision: { ...decision, turnPlayer: 0 },
      drawnTile: -1,
      over,
      wallCorners: 0b1010,
      player: [
        { scores: { paths: 7, towers: 4 }, followers: 6, keep: { size: 2, x: 2, y: 2, feature: 2 }, wallTiles: [0, 1, 0, 0, 0, 0, 0, 2, 0, 0], fresh: [0, 0, 0, 0, 0, 0, 0, 1, 0, 0], used: [0, 0, 0, 1, 0, 0, 0, 0, 0, 0] },
        { scores: { courts: 11 }, followers: 5 },
      ],
      board: {
        squares: [
          { x: 1, y: 1 },
          { x: 2, y: 1 },
          { x: 1, y: 2 },
          { x: 2, y: 2 },
        ],
        wall: RING.map(([x, y, kind], i) => ({ track: 2 * i, x, y, kind })),
        cornerTracks: [0, 6, 12, 18],
      },
    }),
  );
  if (!s.ok) throw new Error(s.error);
  return s.value;
}

function action(init: Parameters<typeof create<typeof ActionSchema>>[1]): Action {
  return create(ActionSchema, init);
}

let catalog: TileCatalog;

beforeAll(() => {
  installFakeDocument();
  catalog = castleCatalog();
});

describe("The Castle's decisions in words", () => {
  it("name the follower by its role and the feature of the tile just placed", () => {
    const st = state({ actor: 0, kind: DecisionKind.PLACE_FOLLOWER });
    expect(choiceWord(st, catalog, action({ kind: ActionKind.PLACE_FOLLOWER, feature: 4 }))).toBe("Herald on the path with a fountain");
    expect(choiceWord(st, catalog, action({ kind: ActionKind.PLACE_FOLLOWER, feature: 1 }))).toMatch(/^Knight on the tower \((north|east|south|west)[a-z-]*\)$/);
    expect(choiceWord(st, catalog, action({ kind: ActionKind.PLACE_FOLLOWER, feature: 0 }))).toMatch(/^Squire on the house \(/);
    expect(choiceWord(st, catalog, action({ kind: ActionKind.SKIP_FOLLOWER }))).toBe("No follower");
  });

  it("say which feature scores next, and that a wall tile doubles it", () => {
    const st = state({ actor: 0, kind: DecisionKind.SCORE_NEXT });
    expect(choiceWord(st, catalog, action({ kind: ActionKind.SCORE, x: 2, y: 2, feature: 1 }))).toBe("Score the tower by the wall at 10 next");
    expect(choiceWord(st, catalog, action({ kind: ActionKind.SCORE_DOUBLED, x: 2, y: 2, feature: 1 }))).toBe(
      "Score the tower by the wall at 10 next, doubled with wall tile 2 (4 points per tile)",
    );
    expect(choiceWord(st, catalog, action({ kind: ActionKind.SCORE_DOUBLED, x: 2, y: 2, feature: 2 }))).toBe(
      "Score the house by the wall at 10 next, doubled with wall tile 3 (2 points per tile)",
    );
  });

  it("offer wall tile 1's extra turn, and each final wall tile with what it does", () => {
    const st = state({ actor: 0, kind: DecisionKind.EXTRA_TURN });
    expect(choiceWord(st, catalog, action({ kind: ActionKind.EXTRA_TURN }))).toBe("Use wall tile 1: take another turn");
    expect(choiceWord(st, catalog, action({ kind: ActionKind.END_TURN }))).toBe("End the turn");
    const end = state({ actor: 0, kind: DecisionKind.WALL_TILE, wall: 4 });
    expect(choiceWord(end, catalog, action({ kind: ActionKind.USE_WALL_TILE, wall: 4, x: 1, y: 1, feature: 4 }))).toBe(
      "Wall tile 4: score the unfinished path with a fountain by the wall at 2, 1 point per tile (2 with a fountain)",
    );
    expect(choiceWord(end, catalog, action({ kind: ActionKind.USE_WALL_TILE, wall: 5, x: 2, y: 2, feature: 1 }))).toBe(
      "Wall tile 5: score the unfinished tower by the wall at 10, 2 points per tile",
    );
    expect(choiceWord(end, catalog, action({ kind: ActionKind.USE_WALL_TILE, wall: 6, x: 2, y: 2, feature: 2 }))).toBe(
      "Wall tile 6: score the unfinished house by the wall at 10, 1 point per tile",
    );
    expect(choiceWord(end, catalog, action({ kind: ActionKind.USE_WALL_TILE, wall: 7, x: 2, y: 2, feature: 0 }))).toBe(
      "Wall tile 7: the court with a market by the wall at 10 scores 4 points per market instead of 3",
    );
    expect(choiceWord(end, catalog, action({ kind: ActionKind.SKIP_WALL_TILE, wall: 4 }))).toBe("Keep it unused");
  });

  it("never show coordinates, and say each wall tile's effect as the engine does", () => {
    const st = state({ actor: 0, kind: DecisionKind.WALL_TILE, wall: 5 });
    const legal = [action({ kind: ActionKind.USE_WALL_TILE, wall: 5, x: 2, y: 2, feature: 1 }), action({ kind: ActionKind.SKIP_WALL_TILE, wall: 5 })];
    const section = drawDecision({ state: st, catalog, legal, choice: null }, { send: () => undefined, turn: () => undefined, onCell: () => undefined });
    const text = asFake(section).textContent;
    expect(text).toContain("wall tile 5 — at the end, an unfinished tower scores 2 points per tile");
    expect(text).not.toMatch(/\(-?\d+, ?-?\d+\)/);
    expect(wallTileWord(1)).toBe("Wall tile 1: take another turn");
    expect(wallTileWord(2)).toBe("Wall tile 2: a completed tower scores double (4 points per tile)");
    expect(wallTileWord(8)).toBe("Wall tile 8: at the end, the keep counts 2 tiles larger");
    expect(wallTileWord(9)).toBe("Wall tile 9: at the end, 5 points");
    expect(onlyChoiceWord(action({ kind: ActionKind.END_TURN }))).toBe("End the turn");
    expect(onlyChoiceWord(action({ kind: ActionKind.SKIP_WALL_TILE, wall: 6 }))).toBe("Keep wall tile 6 unused");
    expect(onlyChoiceWord(action({ kind: ActionKind.PLACE_TILE }))).toBeNull();
  });
});

describe("The Castle's log", () => {
  const names = ["Alice", "Bob"];
  const word = (e: Event): string | null => eventWord(e, names, tileDescriber(catalog, tileWord), state({ actor: -1, kind: DecisionKind.DRAW_TILE }));
  const ev = (kind: Parameters<typeof create<typeof EventSchema>>[1]): Event => create(EventSchema, kind);

  it("tells tiles by what they show and places by the wall's numbers", () => {
    expect(word(ev({ kind: { case: "tilePlaced", value: { player: 0, tile: 2, x: 2, y: 2 } } }))).toBe(
      "Alice placed a tile showing a tower, a house, a court with a market and paths meeting at a square by the wall at 10",
    );
    expect(word(ev({ kind: { case: "followerPlaced", value: { player: 1, role: FeatureKind.COURT } } }))).toBe("Bob placed a merchant in the court");
  });

  it("tells scorings, wall tiles and keeps", () => {
    expect(word(ev({ kind: { case: "featureScored", value: { kind: FeatureKind.TOWER, tiles: 3, complete: true, wall: 2, points: [12, 0] } } }))).toBe(
      "Alice scored 12 for a tower of 3 tiles, doubled with wall tile 2",
    );
    expect(word(ev({ kind: { case: "featureScored", value: { kind: FeatureKind.COURT, tiles: 2, symbols: 1, complete: false, points: [0, 5] } } }))).toBe(
      "Bob scored 5 for a court of 2 tiles and 1 market at the end",
    );
    expect(word(ev({ kind: { case: "wallTileTaken", value: { player: 1, corner: 2, wall: 3 } } }))).toBe(
      "Bob's marker stopped on a corner tower: Bob takes wall tile 3 (a completed house scores double (2 points per tile))",
    );
    expect(word(ev({ kind: { case: "wallTileUsed", value: { player: 0, wall: 9, points: 5 } } }))).toBe("Alice used wall tile 9 for 5 points");
    expect(word(ev({ kind: { case: "keepScored", value: { area: 6, sizes: [3, 1], points: [6, 0] } } }))).toBe(
      "Alice scored 6 for the largest keep: the largest empty area is 6 squares",
    );
  });
});

describe("The Castle's tiles and board", () => {
  const art = (tile: number, rotation = 0): FakeElement => {
    const t = typeOf(catalog, tile);
    if (t === undefined) throw new Error(`no tile ${tile}`);
    return asFake(tileArt(t, rotation));
  };

  it("draws towers, houses, a branching path with its fountain", () => {
    const a = art(1);
    expect(find(a, withClass("castle-tower"))).toHaveLength(2);
    expect(find(a, withClass("castle-house"))).toHaveLength(2);
    expect(find(a, withClass("castle-path"))).toHaveLength(1);
    expect(find(a, withClass("fountain"))).toHaveLength(1);
  });

  it("draws a court with its market and paths meeting at a square", () => {
    const a = art(2);
    expect(find(a, withClass("castle-court"))).toHaveLength(1);
    expect(find(a, withClass("castle-market"))).toHaveLength(1);
    expect(find(a, withClass("castle-square"))).toHaveLength(1);
    expect(find(a, withClass("castle-path"))).toHaveLength(3);
  });

  it("draws a start space as wall with its features on one side only", () => {
    const a = art(0, 1);
    expect(classes(a)).toContain("start");
    expect(find(a, withClass("castle-wall-stone"))).toHaveLength(1);
    expect(find(a, withClass("castle-house"))).toHaveLength(1);
    expect(find(a, withClass("castle-court"))).toHaveLength(1);
    expect(find(a, withClass("castle-path"))).toHaveLength(1);
  });

  it("draws the wall with the scoring track, corner towers, wall tiles, markers and keeps", () => {
    const st = state({ actor: 0, kind: DecisionKind.PLACE_TILE });
    const board = asFake(drawBoard({ state: st, catalog, names: ["Alice", "Bob"] }, NO_OVERLAY));
    expect(find(board, withClass("wall-cell"))).toHaveLength(12);
    expect(find(board, withClass("corner-tower"))).toHaveLength(4);
    expect(find(board, withClass("track-number"))).toHaveLength(24);
    expect(find(board, withClass("face-down")).map((g) => g.getAttribute("data-corner"))).toEqual(["1", "3"]);
    const markers = find(board, withClass("score-marker"));
    expect(markers.map((m) => m.textContent)).toEqual(["Alice's scoring marker: 11 points", "Bob's scoring marker: 11 points"]);
    expect(find(board, withClass("keep"))).toHaveLength(1);
    expect(find(board, withClass("follower-group")).map((f) => f.getAttribute("data-role"))).toEqual(["knight"]);
    expect(find(board, withClass("castle-square-cell"))).toHaveLength(4);
  });

  it("lists each player's wall tiles face up with their effect, the fresh ones marked, and those used", () => {
    const panel = asFake(drawPanel({ state: state({ actor: 0, kind: DecisionKind.PLACE_TILE }), catalog, names: ["Alice", "Bob"], online: [null, null], yourSeat: 0, winners: null }));
    const held = find(panel, withClass("wall-tile-held"));
    expect(held.map((li) => li.getAttribute("data-wall"))).toEqual(["1", "7", "7"]);
    expect(held.map((li) => classes(li).includes("fresh"))).toEqual([false, true, false]);
    const used = find(panel, withClass("wall-tile-used"));
    expect(used.map((u) => u.getAttribute("data-wall"))).toEqual(["3"]);
    expect(panel.textContent).toContain("at the end, a court scores 4 points per market instead of 3");
    expect(panel.textContent).toContain("keep on a house of 2 tiles");
  });

  it("shows the final scores by source", () => {
    const panel = asFake(drawPanel({ state: state({ actor: -2, kind: DecisionKind.NONE }, true), catalog, names: ["Alice", "Bob"], online: [null, null], yourSeat: null, winners: 3 }));
    const text = panel.textContent;
    for (const source of ["Paths", "Towers", "Houses", "Courts", "Keep", "Wall tiles", "Total"]) expect(text).toContain(source);
    expect(text).toContain("win together with 11 points");
  });
});

