// The tiles' art: each kind of tile has the pieces a player looks for (The City's roofs, stalls,
// pictograms, streets and buildings; Carcassonne's fields, walled cities, roads, river and
// monastery), textures are defined once per page, and pictograms give way to bold signs when a
// tile is small on the screen.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { fromBinary } from "@bufbuild/protobuf";
import { beforeAll, describe, expect, it } from "vitest";

import { ServerMessageSchema } from "../src/gen/carcassonne/server/v2/server_pb";
import { Building, FeatureKind, MarketKind, StreetEnd, TileRole } from "../src/gen/carcassonne/tiles/v1/tiles_pb";
import { tileArt as cityArt } from "../src/games/city/tile-art";
import { BADGE_RADIUS, pictogramId } from "../src/games/city/art/pictograms";
import { tileArt as riverArt } from "../src/games/river/tile-art";
import { catalogFromMessage, type TileCatalog, type TileTypeDef } from "../src/tiles/catalog";
import { artDetail, FINE_DETAIL_MIN_PX } from "../src/tiles/geometry";
import { asFake, classes, find, installFakeDocument, tagged, withClass, type FakeElement } from "./fake-svg";

function catalog(file: string): TileCatalog {
  const msg = fromBinary(ServerMessageSchema, readFileSync(fileURLToPath(new URL(`./fixtures/${file}`, import.meta.url))));
  if (msg.body.case !== "tileSet") throw new Error(`${file} holds ${msg.body.case}`);
  const c = catalogFromMessage(msg.body.value);
  if (!c.ok) throw new Error(c.error);
  return c.value;
}

function first(c: TileCatalog, test: (t: TileTypeDef) => boolean, what: string): TileTypeDef {
  const t = c.types.find(test);
  if (t === undefined) throw new Error(`no tile type with ${what}`);
  return t;
}

const has = (kind: FeatureKind, more: (f: TileTypeDef["features"][number]) => boolean = () => true) => (t: TileTypeDef): boolean =>
  t.features.some((f) => f.kind === kind && more(f));

// The numbers of a transform's translate(x y).
function translation(el: FakeElement): [number, number] {
  const m = /translate\(([-\d.e]+) ([-\d.e]+)\)/.exec(el.getAttribute("transform") ?? "");
  return m === null ? [0, 0] : [Number(m[1]), Number(m[2])];
}

let body: FakeElement;
beforeAll(() => {
  body = installFakeDocument();
});

describe("The City's tiles", () => {
  const c = catalog("tileset.bin");
  const art = (t: TileTypeDef, rotation = 0): FakeElement => asFake(cityArt(t, rotation));

  it("draw residential areas as roofs: one path per area, its half sides' triangles, of the roofs' texture", () => {
    const t = first(c, (x) => x.features.every((f) => f.kind !== FeatureKind.MARKET), "no market");
    const areas = t.features.filter((f) => f.kind === FeatureKind.RESIDENTIAL);
    const paths = find(art(t), withClass("residential"));
    expect(paths).toHaveLength(areas.length);
    const halves = areas.flatMap((f) => f.ports.filter((p) => p % 3 !== 1));
    expect(paths.map((p) => p.getAttribute("d")?.match(/M /g)?.length ?? 0).reduce((a, b) => a + b, 0)).toBe(halves.length);
    const roofs = find(body, (el) => el.getAttribute("id") === "city-roofs")[0];
    expect(roofs?.tagName).toBe("pattern");
    const image = decodeURIComponent(find(roofs!, tagged("image"))[0]?.getAttribute("href") ?? "");
    expect(image.match(/<rect /g)?.length ?? 0, "houses in the texture").toBeGreaterThan(10);
  });

  it.each([
    [MarketKind.FISH, "fish"],
    [MarketKind.GRAIN, "grain"],
    [MarketKind.LIVESTOCK, "livestock"],
  ])("draw a %s market as its stalls and its pictogram, fine and bold", (kind, name) => {
    const t = first(c, has(FeatureKind.MARKET, (f) => f.market === kind), name);
    const a = art(t, 1);
    expect(find(a, withClass(`market-${name}`)).length, "the market's area").toBeGreaterThan(0);
    const stalls = find(body, (el) => el.getAttribute("id") === `city-stalls-${name}`);
    expect(stalls, "the stalls' texture").toHaveLength(1);
    const sign = find(a, (el) => el.getAttribute("data-kind") === name);
    expect(sign).toHaveLength(t.features.filter((f) => f.kind === FeatureKind.MARKET && f.market === kind).length);
    for (const detail of ["fine", "coarse"] as const) {
      const badge = find(sign[0]!, withClass(`pictogram-${detail}`))[0]!;
      expect(find(badge, withClass("pictogram-badge"))).toHaveLength(1);
      expect(find(badge, tagged("use"))[0]?.getAttribute("href")).toBe(`#${pictogramId(kind, detail)}`);
      expect(find(body, (el) => el.getAttribute("id") === pictogramId(kind, detail)), `the ${detail} drawing`).toHaveLength(1);
    }
    // Turned back against the tile's rotation, so it stays upright.
    expect(sign[0]!.getAttribute("transform")).toContain("rotate(-90)");
  });

  it("make the far view's pictograms larger and no more detailed than the close view's", () => {
    const drawing = (kind: MarketKind, detail: "fine" | "coarse") => find(body, (el) => el.getAttribute("id") === pictogramId(kind, detail))[0]!;
    expect(BADGE_RADIUS.coarse).toBeGreaterThan(BADGE_RADIUS.fine);
    for (const kind of [MarketKind.FISH, MarketKind.GRAIN, MarketKind.LIVESTOCK]) {
      expect(drawing(kind, "coarse").getAttribute("transform")).toBe("scale(1.5)");
      expect(drawing(kind, "coarse").children.length).toBeLessThanOrEqual(drawing(kind, "fine").children.length);
    }
    // The ear of grain, whose seven grains ran into a blob at 42 pixels a tile, is one spindle.
    expect(find(drawing(MarketKind.GRAIN, "fine"), tagged("ellipse"))).toHaveLength(7);
    expect(find(drawing(MarketKind.GRAIN, "coarse"), tagged("ellipse"))).toHaveLength(1);
  });

  it("keep every market sign on its tile, even seen from far", () => {
    for (const t of c.types) {
      for (const sign of find(art(t), withClass("market-symbol"))) {
        const [x, y] = translation(sign);
        expect(Math.max(Math.abs(x), Math.abs(y)) + 18, t.name).toBeLessThanOrEqual(50);
      }
    }
  });

  it("draw a street as a band of setts between kerbs, one for each street", () => {
    const t = first(c, has(FeatureKind.STREET), "a street");
    const a = art(t);
    const streets = t.features.filter((f) => f.kind === FeatureKind.STREET).length;
    const kerbs = find(a, withClass("street-edge"));
    const paving = find(a, withClass("street"));
    expect(kerbs).toHaveLength(streets);
    expect(paving.map((p) => p.getAttribute("d"))).toEqual(kerbs.map((k) => k.getAttribute("d")));
    expect(find(a, withClass("street-setts")).map((p) => p.getAttribute("d")), "rows of setts on the paving").toEqual(kerbs.map((k) => k.getAttribute("d")));
    expect(paving[0]!.getAttribute("d")).toMatch(/^M /);
  });

  it("draw a crossing as a square with a well", () => {
    const t = first(c, has(FeatureKind.STREET, (f) => f.end === StreetEnd.CROSSING), "a crossing");
    const crossing = find(art(t), withClass("crossing"));
    expect(crossing).toHaveLength(1);
    expect(find(crossing[0]!, withClass("crossing-well"))).toHaveLength(1);
  });

  it("draw public and historic buildings with different shapes, named on hover, on their tile", () => {
    const pub = find(art(first(c, (t) => t.building === Building.PUBLIC, "a public building")), withClass("building"))[0]!;
    const historic = find(art(first(c, (t) => t.building === Building.HISTORIC, "a historic building")), withClass("building"))[0]!;
    expect(classes(pub)).toContain("public");
    expect(find(pub, withClass("building-column")), "a hall's columns").toHaveLength(4);
    expect(classes(historic)).toContain("historic");
    expect(find(historic, withClass("building-roof")), "a church's roof and two spires").toHaveLength(3);
    expect(find(historic, tagged("title"))[0]?.text).not.toBe("");
    for (const t of c.types.filter((x) => x.building !== Building.NONE)) {
      const b = find(art(t), withClass("building"))[0]!;
      const [x, y] = translation(b);
      const scale = Number(/scale\(([\d.]+)\)/.exec(b.getAttribute("transform") ?? "")?.[1] ?? "1");
      expect(Math.max(Math.abs(x), Math.abs(y)) + 17 * scale, t.name).toBeLessThanOrEqual(50);
    }
  });

  it("define the textures once per page", () => {
    for (const t of c.types) art(t);
    expect(find(body, (el) => el.getAttribute("id") === "city-art-defs")).toHaveLength(1);
  });
});

describe("Carcassonne's tiles", () => {
  const c = catalog("river-tileset.bin");
  const art = (t: TileTypeDef, rotation = 0): FakeElement => asFake(riverArt(t, rotation));
  const cityHalves = (t: TileTypeDef): number[][] => t.features.filter((f) => f.kind === FeatureKind.CITY).map((f) => f.ports.filter((p) => p % 3 !== 1));

  it("lay every tile on grass, with the fields' texture", () => {
    for (const t of c.types) expect(find(art(t), withClass("field-ground")), t.name).toHaveLength(1);
    expect(find(body, (el) => el.getAttribute("id") === "carc-grass")[0]?.tagName).toBe("pattern");
  });

  it("draw a city on one side as an arc behind its wall", () => {
    const t = first(c, (x) => cityHalves(x).some((h) => h.length === 2), "a city on one side");
    const a = art(t);
    expect(find(a, (el) => el.tagName === "path" && classes(el).includes("city")).length).toBeGreaterThan(0);
    expect(find(a, withClass("city-wall")), "the wall").toHaveLength(1);
    expect(find(a, withClass("city-wall-edge")), "the wall's edge").toHaveLength(1);
  });

  it("wall a larger city where it meets the field, and not a city all around the tile", () => {
    const larger = first(c, (x) => cityHalves(x).some((h) => h.length > 2 && h.length < 8), "a city on two or three sides");
    expect(find(art(larger), withClass("city-wall"))[0]?.getAttribute("d")).toMatch(/M 0 0 L/);
    const whole = first(c, (x) => cityHalves(x).some((h) => h.length === 8), "a city all around");
    expect(find(art(whole), withClass("city-wall"))).toHaveLength(0);
  });

  it("draw a road as a band with edges, and a pennant as a shield", () => {
    const road = art(first(c, has(FeatureKind.STREET), "a road"));
    expect(find(road, withClass("road-edge")).length).toBeGreaterThan(0);
    expect(find(road, withClass("road"))).toHaveLength(find(road, withClass("road-edge")).length);
    expect(find(art(first(c, has(FeatureKind.CITY, (f) => f.pennant), "a pennant")), withClass("pennant")).length).toBeGreaterThan(0);
  });

  it("draw the river as water between banks, the spring and the lake as one pool each", () => {
    const t = first(c, (x) => has(FeatureKind.RIVER)(x) && x.role === TileRole.NONE, "a river");
    const a = art(t);
    const rivers = t.features.filter((f) => f.kind === FeatureKind.RIVER).length;
    expect(find(a, (el) => el.tagName === "path" && classes(el).includes("river"))).toHaveLength(rivers);
    expect(find(a, withClass("river-bank"))).toHaveLength(rivers);
    for (const role of [TileRole.SPRING, TileRole.LAKE]) {
      const pool = art(first(c, (x) => x.role === role, `role ${role}`));
      expect(find(pool, withClass("river-pool"))).toHaveLength(1);
    }
  });

  it("draw the monastery as a chapel on its garden", () => {
    const m = find(art(first(c, has(FeatureKind.MONASTERY), "a monastery"), 2), withClass("monastery"))[0]!;
    expect(find(m, withClass("monastery-garden"))).toHaveLength(1);
    expect(find(m, withClass("monastery-roof")).length).toBeGreaterThan(0);
    expect(m.getAttribute("transform")).toBe("rotate(-180)");
  });
});

describe("the art's detail", () => {
  it("shows bold signs below the threshold and fine details from it on", () => {
    expect(artDetail(40)).toBe("coarse");
    expect(artDetail(FINE_DETAIL_MIN_PX - 1)).toBe("coarse");
    expect(artDetail(FINE_DETAIL_MIN_PX)).toBe("fine");
    expect(artDetail(200)).toBe("fine");
  });
});
