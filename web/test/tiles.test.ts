// The tile catalog (from the server's TileSet message) and the geometry the board draws with.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { create, fromBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";

import { ServerMessageSchema } from "../src/gen/carcassonne/server/v2/server_pb";
import {
  Building,
  FeatureKind,
  MarketKind,
  StreetEnd,
  TileSetSchema,
  type TileSet,
} from "../src/gen/carcassonne/tiles/v1/tiles_pb";
import { buildingWord, catalogFromMessage, featureWord, tileWord, typeOf, type TileCatalog } from "../src/tiles/catalog";
import { buildingAnchor, featureAnchor, SIZE, turn } from "../src/tiles/geometry";

const R = { kind: FeatureKind.RESIDENTIAL };
const street = (end = StreetEnd.THROUGH) => ({ kind: FeatureKind.STREET, end });
const market = (m: MarketKind) => ({ kind: FeatureKind.MARKET, market: m });

// Two types in the notation of docs/tiles.md: "straight-fish 2 a1b b-b b1a a-a a=residential
// b=fish" and "cross4 1 a1b b2c c3d d4a" (four residential areas, four streets to a crossing)
// with a public building.
function sampleSet(): TileSet {
  return create(TileSetSchema, {
    id: "sample",
    version: 3,
    types: [
      { name: "straight-fish", firstId: 0, count: 2, portFeature: [0, 2, 1, 1, -1, 1, 1, 2, 0, 0, -1, 0], features: [R, market(MarketKind.FISH), street()] },
      {
        name: "cross4",
        firstId: 2,
        count: 1,
        // a=0 b=1 c=2 d=3 residential; streets 1..4 are features 4..7
        portFeature: [0, 4, 1, 1, 5, 2, 2, 6, 3, 3, 7, 0],
        features: [R, R, R, R, street(StreetEnd.CROSSING), street(StreetEnd.CROSSING), street(StreetEnd.CROSSING), street(StreetEnd.CROSSING)],
        building: Building.PUBLIC,
      },
    ],
  });
}

function sampleCatalog(): TileCatalog {
  const c = catalogFromMessage(sampleSet());
  if (!c.ok) throw new Error(c.error);
  return c.value;
}

describe("catalogFromMessage", () => {
  it("maps every tile id to its type and each feature to its ports", () => {
    const c = sampleCatalog();
    expect(c.typeOfTile).toEqual([0, 0, 1]);
    expect(typeOf(c, 1)?.name).toBe("straight-fish");
    expect(typeOf(c, 2)?.name).toBe("cross4");
    expect(typeOf(c, 3)).toBeUndefined();
    expect(typeOf(c, 0)?.features[1]?.ports).toEqual([2, 3, 5, 6]);
    expect(typeOf(c, 0)?.features[2]?.ports).toEqual([1, 7]);
  });

  it("refuses a message whose ids or ports do not add up", () => {
    const gap = sampleSet();
    gap.types[1]!.firstId = 3;
    expect(catalogFromMessage(gap)).toEqual({ ok: false, error: "type cross4: first id 3, expected 2" });
    const short = sampleSet();
    short.types[0]!.portFeature.pop();
    expect(catalogFromMessage(short).ok).toBe(false);
    const range = sampleSet();
    range.types[0]!.portFeature[4] = 9;
    expect(catalogFromMessage(range)).toEqual({ ok: false, error: "type straight-fish: port feature 9 out of range" });
    expect(catalogFromMessage(create(TileSetSchema, {})).ok).toBe(false);
  });
});

describe("words", () => {
  it("names features and buildings for people", () => {
    const c = sampleCatalog();
    const straight = typeOf(c, 0)!;
    const cross = typeOf(c, 2)!;
    expect(featureWord(straight.features[1]!)).toBe("the fish market");
    expect(featureWord(straight.features[2]!)).toBe("the street");
    expect(featureWord(cross.features[4]!)).toBe("the street ending at a crossing");
    expect(featureWord(cross.features[0]!)).toBe("the residential area");
    expect(buildingWord(cross)).toBe("Public building");
    expect(buildingWord(straight)).toBeNull();
  });
});

describe("geometry", () => {
  it("turns points clockwise a quarter at a time", () => {
    expect(turn([0, -50], 1)).toEqual([50, 0]); // north to east
    expect(turn([0, -50], 2)).toEqual([-0, 50]);
    expect(turn([10, 20], 4)).toEqual([10, 20]);
  });

  it("puts every follower of a tile inside it, apart from the others and the building", () => {
    const c = sampleCatalog();
    for (const t of c.types) {
      const anchors = t.features.map((_, i) => featureAnchor(t, i));
      const building = t.building === Building.NONE ? null : buildingAnchor(t);
      for (const [i, a] of anchors.entries()) {
        expect(Math.abs(a[0]), `${t.name} feature ${i}`).toBeLessThan(SIZE / 2);
        expect(Math.abs(a[1]), `${t.name} feature ${i}`).toBeLessThan(SIZE / 2);
        for (const b of anchors.slice(i + 1)) expect(Math.hypot(a[0] - b[0], a[1] - b[1])).toBeGreaterThan(16);
        if (building !== null) expect(Math.hypot(a[0] - building[0], a[1] - building[1])).toBeGreaterThan(16);
      }
    }
  });

  it("places the fish market of the straight street on the east half", () => {
    const t = typeOf(sampleCatalog(), 0)!;
    const [x] = featureAnchor(t, 1);
    expect(x).toBeGreaterThan(16);
    const [wx] = featureAnchor(t, 0);
    expect(wx).toBeLessThan(-10);
  });
});

// The tile set carc-server sends (test/fixtures/tileset.bin, recorded by scripts/record-replay.mjs).
function serverCatalog(): TileCatalog {
  const path = fileURLToPath(new URL("./fixtures/tileset.bin", import.meta.url));
  const msg = fromBinary(ServerMessageSchema, readFileSync(path));
  if (msg.body.case !== "tileSet") throw new Error(`the fixture holds ${msg.body.case}, not a tile set`);
  const c = catalogFromMessage(msg.body.value);
  if (!c.ok) throw new Error(c.error);
  return c.value;
}

describe("the server's tile set", () => {
  const c = serverCatalog();

  it("has the 75 tiles of The City, 7 of them historic", () => {
    expect(c.typeOfTile).toHaveLength(75);
    const historic = c.types.filter((t) => t.building === Building.HISTORIC).map((t) => t.historicName);
    expect(historic).toHaveLength(7);
    expect(historic).toContain("Saint Sernin");
  });

  it("says what each tile shows", () => {
    const word = (name: string): string => tileWord(c.types.find((t) => t.name === name)!);
    expect(word("straight-fish")).toBe("a straight street and a fish market");
    expect(word("curve-res-public")).toBe("a curved street and a public building");
    expect(word("cross4-res")).toBe("a 4-way crossing");
    expect(word("end-grain")).toBe("a street ending at a market and a grain market");
    expect(word("corners-fish-grain")).toBe("fish and grain markets");
    expect(word("historic-saint-sernin")).toBe("a street ending at a building and Saint Sernin");
    expect(word("res-public")).toBe("a public building");
  });

  it("gives every follower of every tile its own place, clear of the building", () => {
    for (const t of c.types) {
      const [bx, by] = buildingAnchor(t);
      if (t.building !== Building.NONE) expect(Math.max(Math.abs(bx), Math.abs(by)), `${t.name}'s building`).toBeLessThanOrEqual(SIZE / 2 - 13);
      const anchors = t.features.map((_, i) => featureAnchor(t, i));
      const building = t.building === Building.NONE ? null : buildingAnchor(t);
      for (const [i, a] of anchors.entries()) {
        const where = `${t.name} feature ${i}`;
        expect(Math.max(Math.abs(a[0]), Math.abs(a[1])), where).toBeLessThan(SIZE / 2);
        for (const b of anchors.slice(i + 1)) expect(Math.hypot(a[0] - b[0], a[1] - b[1]), where).toBeGreaterThan(16);
        if (building !== null) expect(Math.hypot(a[0] - building[0], a[1] - building[1]), where).toBeGreaterThan(16);
      }
    }
  });
});
