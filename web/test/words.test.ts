// The log in words: what people read about each event, with places named by what lies next to
// them, never by coordinates or tile ids.
import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";

import { ActionKind, ActionSchema, EventSchema, FeatureKind, ScoreCause } from "../src/gen/carcassonne/city/v1/city_pb";
import { actionWord, eventWord, onlyChoiceWord } from "../src/games/city/words";
import { placeWord, plural } from "../src/games/shared/words";

const NAMES = ["Alice", ""]; // seat 1 has no name: it goes by its colour
const BOARD = { tiles: [{ x: 0, y: 0 }, { x: 0, y: 1 }, { x: 1, y: 1 }], gate: null };

describe("eventWord", () => {
  it("says who scored what for which feature", () => {
    const street = create(EventSchema, {
      kind: { case: "featureScored", value: { kind: FeatureKind.STREET, tiles: 4, cause: ScoreCause.TILE, points: [8, 0] } },
    });
    expect(eventWord(street, NAMES)).toBe("Alice scored 8 for a street of 4 tiles");
    const market = create(EventSchema, {
      kind: { case: "featureScored", value: { kind: FeatureKind.MARKET, tiles: 1, cause: ScoreCause.WALL, points: [0, 3] } },
    });
    expect(eventWord(market, NAMES)).toBe("Orange scored 3 for a market of 1 tile (by the wall)");
  });

  it("leaves out scorings of nobody and tiles drawn", () => {
    const nobody = create(EventSchema, {
      kind: { case: "featureScored", value: { kind: FeatureKind.STREET, tiles: 1, cause: ScoreCause.TILE, points: [0, 0] } },
    });
    expect(eventWord(nobody, NAMES)).toBeNull();
    const drawn = create(EventSchema, { kind: { case: "tileDrawn", value: { tile: 3, stack: 2 } } });
    expect(eventWord(drawn, NAMES, () => "a curved street")).toBeNull();
    expect(eventWord(create(EventSchema, {}), NAMES)).toBeNull();
  });

  it("counts in the right number", () => {
    const stewards = create(EventSchema, { kind: { case: "stewardsScored", value: { markets: 1, points: [2, 0] } } });
    expect(eventWord(stewards, NAMES)).toBe("Alice scored 2 for stewards next to 1 market");
    const tower = create(EventSchema, { kind: { case: "towerPlaced", value: { player: 0, end: 1, points: 1 } } });
    expect(eventWord(tower, NAMES)).toBe("Alice placed a tower at the back for 1 point");
    const round = create(EventSchema, { kind: { case: "wallRoundBegun", value: { scorer: 0, pieces: 1 } } });
    expect(eventWord(round, NAMES)).toBe("Alice's wall round: 1 piece to build");
    expect(eventWord(create(EventSchema, { kind: { case: "stackStarted", value: { stack: 2 } } }), NAMES)).toBe("The second stack begins");
  });

  it("names a tile by what it shows and where it lies, not by its id or coordinates", () => {
    const placed = create(EventSchema, { kind: { case: "tilePlaced", value: { player: 0, tile: 16, x: 1, y: 1 } } });
    expect(eventWord(placed, NAMES, () => "a curved street", BOARD)).toBe("Alice placed a tile showing a curved street 1 tile north and 1 east of the first tile");
    const north = create(EventSchema, { kind: { case: "tilePlaced", value: { player: 0, tile: 16, x: 0, y: 1 } } });
    expect(eventWord(north, NAMES, () => null, BOARD)).toBe("Alice placed a tile north of the first tile");
    const first = create(EventSchema, { kind: { case: "tilePlaced", value: { player: 0, tile: 16, x: 0, y: 0 } } });
    expect(eventWord(first, NAMES, () => "a 4-way crossing", BOARD)).toBe("Alice placed a tile showing a 4-way crossing as the first tile");
    const nextToGate = create(EventSchema, { kind: { case: "tilePlaced", value: { player: 1, tile: 16, x: 2, y: 1 } } });
    expect(eventWord(nextToGate, NAMES, () => "a fish market", { ...BOARD, gate: { x: 1, y: 1 } })).toBe("Orange placed a tile showing a fish market east of the gate");
  });

  it("names the gate by the tile it lies on, in the log and on its button", () => {
    const gate = create(EventSchema, { kind: { case: "gatePlaced", value: { player: 0, x: 0, y: 1, side: 0 } } });
    expect(eventWord(gate, NAMES, undefined, BOARD)).toBe("Alice placed the gate on the north side of the tile north of the first tile");
    const action = create(ActionSchema, { kind: ActionKind.PLACE_GATE, x: 1, y: 1, side: 1 });
    expect(actionWord(action, BOARD)).toBe("gate on the east side of the tile 1 tile north and 1 east of the first tile");
  });
});

describe("onlyChoiceWord", () => {
  it("gives the words of a choice the client may answer, never for a tile", () => {
    expect(onlyChoiceWord(create(ActionSchema, { kind: ActionKind.SKIP_FOLLOWER }))).toBe("No follower");
    expect(onlyChoiceWord(create(ActionSchema, { kind: ActionKind.SKIP_GUARD }))).toBe("No guard");
    expect(onlyChoiceWord(create(ActionSchema, { kind: ActionKind.PLACE_TILE, x: 0, y: 1 }))).toBeNull();
    expect(onlyChoiceWord(create(ActionSchema, { kind: ActionKind.DRAW }))).toBeNull();
  });
});

describe("placeWord", () => {
  const start = [{ x: 0, y: 0, name: "the start" }];

  it("names a neighbour of a landmark by its side, the first landmark first", () => {
    expect(placeWord(0, -1, start)).toBe("south of the start");
    expect(placeWord(3, 4, [{ x: 3, y: 3, name: "the gate" }, ...start])).toBe("north of the gate");
  });

  it("counts tiles from the last landmark otherwise", () => {
    expect(placeWord(-3, 0, start)).toBe("3 tiles west of the start");
    expect(placeWord(2, -1, start)).toBe("1 tile south and 2 east of the start");
    expect(placeWord(2, -1, [])).toBe("on the board");
  });

  it("puts words in the plural only for more than one", () => {
    expect(plural(1, "market")).toBe("1 market");
    expect(plural(0, "market")).toBe("0 markets");
    expect(plural(2, "city", "cities")).toBe("2 cities");
  });
});
