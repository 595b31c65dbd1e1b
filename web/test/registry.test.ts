// The game modules by rule set: The City, Carcassonne (the River) and The Castle are drawn; a
// rule set the server hosts without a module here is listed but not offered; and the City module
// reads its own bytes.
import { create, toBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";

import { castleModule } from "../src/games/castle";
import { cityModule } from "../src/games/city";
import { riverModule } from "../src/games/river";
import { moduleFor, offeredRuleSets } from "../src/games/registry";
import { ActionKind, ActionSchema, EventSchema } from "../src/gen/carcassonne/city/v1/city_pb";
import { RuleSetInfoSchema } from "../src/gen/carcassonne/server/v2/server_pb";

const CITY = create(RuleSetInfoSchema, { id: "the-city", name: "Carcassonne: The City", minPlayers: 2, maxPlayers: 4 });
const RIVER = create(RuleSetInfoSchema, { id: "carcassonne", name: "Carcassonne", minPlayers: 2, maxPlayers: 5 });
const OTHER = create(RuleSetInfoSchema, { id: "inns-and-cathedrals", name: "Inns and Cathedrals", minPlayers: 2, maxPlayers: 6 });

describe("the module registry", () => {
  it("has The City, Carcassonne and The Castle under their rule-set ids and nothing under others", () => {
    expect(moduleFor("the-city")).toBe(cityModule);
    expect(moduleFor("carcassonne")).toBe(riverModule);
    expect(moduleFor("the-castle")).toBe(castleModule);
    expect(moduleFor("inns-and-cathedrals")).toBeNull();
    expect(moduleFor("")).toBeNull();
  });

  it("offers only the hosted rule sets it can draw, in the server's order", () => {
    const offered = offeredRuleSets([RIVER, OTHER, CITY]);
    expect(offered.map((r) => [r.info.id, r.available])).toEqual([
      ["carcassonne", true],
      ["inns-and-cathedrals", false],
      ["the-city", true],
    ]);
    // A rule set this client draws but the server does not host is not offered either.
    expect(offeredRuleSets([OTHER]).filter((r) => r.available)).toEqual([]);
  });

  it("can be given other modules", () => {
    const offered = offeredRuleSets([RIVER, CITY], (id) => (id === "carcassonne" ? cityModule : null));
    expect(offered.map((r) => r.available)).toEqual([true, false]);
  });
});

describe("the City module's payloads", () => {
  it("encodes and decodes actions", () => {
    const action = create(ActionSchema, { kind: ActionKind.PLACE_TILE, x: -2, y: 3, rotation: 1 });
    const back = cityModule.decodeAction(cityModule.encodeAction(action));
    expect(back).toEqual({ ok: true, value: action });
  });

  it("turns bytes that are not its messages into an error value", () => {
    const garbage = new Uint8Array([0xff, 0xff, 0xff]);
    expect(cityModule.decodeEvent(garbage).ok).toBe(false);
    expect(cityModule.decodeState(garbage).ok).toBe(false);
    const event = create(EventSchema, { kind: { case: "chainClosed", value: {} } });
    expect(cityModule.decodeEvent(toBinary(EventSchema, event))).toEqual({ ok: true, value: event });
  });
});
