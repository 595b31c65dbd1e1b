// The tile set of a rule set's games (tiles.v1.TileSet, docs/tiles.md), shared by every game, checked once and kept
// as plain readonly objects: for each tile id, the type it is a copy of. The client draws tiles
// and names features from this and holds no tile data of its own, so any tile set the server
// loads is drawn correctly.
import { Building, FeatureKind, MarketKind, StreetEnd, TileRole, type TileSet } from "../gen/carcassonne/tiles/v1/tiles_pb";

export const PORTS = 12;
export const NO_FEATURE = -1;

export interface FeatureDef {
  readonly kind: FeatureKind;
  readonly market: MarketKind;
  readonly end: StreetEnd;
  readonly pennant: boolean; // a city segment with a pennant (Carcassonne)
  readonly symbol: boolean; // a market on a court, a fountain on a path (The Castle)
  readonly ports: readonly number[]; // the unturned tile's ports it touches, ascending
}

export interface TileTypeDef {
  readonly name: string;
  readonly firstId: number;
  readonly count: number;
  readonly portFeature: readonly number[]; // PORTS entries, NO_FEATURE at a plain midpoint
  readonly features: readonly FeatureDef[];
  readonly building: Building;
  readonly historicName: string;
  readonly role: TileRole; // the start tile, the River's spring or lake, a start space of The Castle, or none
}

export interface TileCatalog {
  readonly id: string;
  readonly version: number;
  readonly types: readonly TileTypeDef[];
  readonly typeOfTile: readonly number[]; // tile id → index into types
}

export type CatalogResult = { ok: true; value: TileCatalog } | { ok: false; error: string };

type WireType = TileSet["types"][number];

function checkType(t: WireType, expectedFirst: number): string | null {
  if (t.firstId !== expectedFirst) return `type ${t.name}: first id ${t.firstId}, expected ${expectedFirst}`;
  if (t.count < 1) return `type ${t.name}: no copies`;
  if (t.portFeature.length !== PORTS) return `type ${t.name}: ${t.portFeature.length} ports, expected ${PORTS}`;
  for (const f of t.portFeature) {
    if (f !== NO_FEATURE && (f < 0 || f >= t.features.length)) return `type ${t.name}: port feature ${f} out of range`;
  }
  return null;
}

function typeDef(t: WireType): TileTypeDef {
  const features = t.features.map((f, i) => ({
    kind: f.kind,
    market: f.market,
    end: f.end,
    pennant: f.pennant,
    symbol: f.symbol,
    ports: t.portFeature.flatMap((pf, port) => (pf === i ? [port] : [])),
  }));
  return {
    name: t.name,
    firstId: t.firstId,
    count: t.count,
    portFeature: [...t.portFeature],
    features,
    building: t.building,
    historicName: t.historicName,
    role: t.role,
  };
}

// Checks the message's internal consistency; the result describes the first fault found.
export function catalogFromMessage(m: TileSet): CatalogResult {
  const types: TileTypeDef[] = [];
  const typeOfTile: number[] = [];
  for (const t of m.types) {
    const fault = checkType(t, typeOfTile.length);
    if (fault !== null) return { ok: false, error: fault };
    types.push(typeDef(t));
    for (let i = 0; i < t.count; i++) typeOfTile.push(types.length - 1);
  }
  if (types.length === 0) return { ok: false, error: "the tile set has no tiles" };
  return { ok: true, value: { id: m.id, version: m.version, types, typeOfTile } };
}

export function typeOf(catalog: TileCatalog, tile: number): TileTypeDef | undefined {
  const index = catalog.typeOfTile[tile];
  return index === undefined ? undefined : catalog.types[index];
}

const MARKET_WORDS: Record<number, string> = {
  [MarketKind.FISH]: "fish",
  [MarketKind.GRAIN]: "grain",
  [MarketKind.LIVESTOCK]: "livestock",
};

export function marketWord(kind: MarketKind): string {
  return MARKET_WORDS[kind] ?? "market";
}

const END_WORDS: Record<number, string> = {
  [StreetEnd.CROSSING]: "ending at a crossing",
  [StreetEnd.BUILDING]: "ending at a building",
  [StreetEnd.MARKET]: "ending at a market",
};

// A feature in words, for buttons and titles: "the street ending at a crossing", "the fish market".
export function featureWord(f: FeatureDef): string {
  switch (f.kind) {
    case FeatureKind.STREET: {
      const end = END_WORDS[f.end];
      return end === undefined ? "the street" : `the street ${end}`;
    }
    case FeatureKind.MARKET:
      return `the ${marketWord(f.market)} market`;
    case FeatureKind.CITY:
      return "the city";
    case FeatureKind.FIELD:
      return "the field";
    case FeatureKind.MONASTERY:
      return "the monastery";
    case FeatureKind.RIVER:
      return "the river";
    default:
      return "the residential area";
  }
}

export function buildingWord(t: TileTypeDef): string | null {
  if (t.building === Building.PUBLIC) return "Public building";
  if (t.building === Building.HISTORIC) return `${t.historicName !== "" ? t.historicName : "Historic building"} (historic building)`;
  return null;
}

function streetsWord(t: TileTypeDef): string | null {
  const streets = t.features.filter((f) => f.kind === FeatureKind.STREET);
  const [first] = streets;
  if (first === undefined) return null;
  if (streets.some((f) => f.end === StreetEnd.CROSSING)) return `a ${streets.length}-way crossing`;
  if (first.end !== StreetEnd.THROUGH) return `a street ${END_WORDS[first.end] ?? "ending here"}`;
  const [a, b] = first.ports.filter((p) => p % 3 === 1);
  return a !== undefined && b !== undefined && Math.abs(a - b) === 6 ? "a straight street" : "a curved street";
}

function marketsWord(t: TileTypeDef): string | null {
  const kinds = t.features.filter((f) => f.kind === FeatureKind.MARKET).map((f) => marketWord(f.market));
  if (kinds.length === 0) return null;
  return kinds.length === 1 ? `a ${kinds[0]} market` : `${kinds.join(" and ")} markets`;
}

// What a tile shows, for the log: "a curved street and a fish market", "Saint Sernin".
export function tileWord(t: TileTypeDef): string {
  const building = t.building === Building.PUBLIC ? "a public building" : t.building === Building.HISTORIC ? t.historicName : null;
  const parts = [streetsWord(t), marketsWord(t), building].filter((p): p is string => p !== null && p !== "");
  if (parts.length === 0) return "houses only";
  return parts.length === 1 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1] ?? ""}`;
}

// The words for a tile id, or null when the catalog is not loaded or does not know the id. A game
// with its own words for a tile type gives them as `word`.
export function tileDescriber(catalog: TileCatalog | null, word: (t: TileTypeDef) => string = tileWord): (tile: number) => string | null {
  return (tile) => {
    const type = catalog === null ? undefined : typeOf(catalog, tile);
    return type === undefined ? null : word(type);
  };
}
