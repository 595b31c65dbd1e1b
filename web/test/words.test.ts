// The log in words: what people read about each event.
import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";

import { EventSchema, FeatureKind, ScoreCause } from "../src/gen/carcassonne/city/v1/city_pb";
import { eventWord } from "../src/games/city/words";

const NAMES = ["Alice", ""]; // seat 1 has no name: it goes by its colour

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

  it("names the gate's side and leaves out what people need not read", () => {
    const gate = create(EventSchema, { kind: { case: "gatePlaced", value: { player: 0, x: -3, y: 4, side: 0 } } });
    expect(eventWord(gate, NAMES)).toBe("Alice placed the gate at (-3, 4), north side");
    expect(eventWord(create(EventSchema, {}), NAMES)).toBeNull();
  });

  it("says what a tile shows when it can", () => {
    const placed = create(EventSchema, { kind: { case: "tilePlaced", value: { player: 0, tile: 16, x: 1, y: -3 } } });
    expect(eventWord(placed, NAMES)).toBe("Alice placed tile 16 at (1, -3)");
    expect(eventWord(placed, NAMES, () => "a curved street")).toBe("Alice placed tile 16 (a curved street) at (1, -3)");
    const drawn = create(EventSchema, { kind: { case: "tileDrawn", value: { tile: 3, stack: 2 } } });
    expect(eventWord(drawn, NAMES, () => null)).toBe("Tile 3 drawn from stack 2");
  });
});
