// Choosing a tile's placement among the server's legal actions: cells in the server's order,
// rotations cycling at one cell, and the keyboard's next and previous cell.
import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";

import { ActionKind, ActionSchema, type Action } from "../src/gen/carcassonne/city/v1/city_pb";
import { nextCell, nextChoice, placementOf } from "../src/games/city/decisions";

function place(x: number, y: number, rotation: number): Action {
  return create(ActionSchema, { kind: ActionKind.PLACE_TILE, x, y, rotation });
}

// Three legal cells: (1, 0) fits two ways, (0, 1) and (-1, 0) one way each.
const LEGAL = [place(1, 0, 0), place(1, 0, 2), place(0, 1, 3), place(-1, 0, 1)];

describe("placing a tile", () => {
  it("starts a new cell at its first legal rotation and turns through the others", () => {
    let choice = nextChoice(null, 1, 0);
    expect(placementOf(LEGAL, choice)?.rotation).toBe(0);
    choice = nextChoice(choice, 1, 0);
    expect(placementOf(LEGAL, choice)?.rotation).toBe(2);
    choice = nextChoice(choice, 1, 0);
    expect(placementOf(LEGAL, choice)?.rotation).toBe(0);
    choice = nextChoice(choice, 0, 1);
    expect(placementOf(LEGAL, choice)).toEqual(place(0, 1, 3));
  });

  it("offers only the server's actions: a cell it did not list gives nothing", () => {
    expect(placementOf(LEGAL, { x: 5, y: 5, index: 0 })).toBeNull();
    expect(placementOf(LEGAL, null)).toBeNull();
    expect(placementOf([], { x: 1, y: 0, index: 0 })).toBeNull();
  });

  it("walks the legal cells forwards and backwards with wrap-around", () => {
    const first = nextCell(LEGAL, null, 1);
    expect(first).toEqual({ x: 1, y: 0, index: 0 });
    const second = nextCell(LEGAL, first, 1);
    expect(second).toEqual({ x: 0, y: 1, index: 0 });
    expect(nextCell(LEGAL, nextCell(LEGAL, second, 1), 1)).toEqual(first);
    expect(nextCell(LEGAL, first, -1)).toEqual({ x: -1, y: 0, index: 0 });
    expect(nextCell(LEGAL, null, -1)).toEqual({ x: -1, y: 0, index: 0 });
    expect(nextCell([], null, 1)).toBeNull();
  });
});
