// Carcassonne's values in words for people: tiles and their features, actions, decisions and
// events. Names are passed in (seat → name) because the state knows seats only.
import {
  ActionKind,
  DecisionKind,
  FeatureKind,
  type Action,
  type Event,
} from "../../gen/carcassonne/river/v1/river_pb";
import { FeatureKind as TileKind, StreetEnd, TileRole } from "../../gen/carcassonne/tiles/v1/tiles_pb";
import type { FeatureDef, TileTypeDef } from "../../tiles/catalog";
import { playerName } from "../../ui/players";
import {
  anyPoints,
  plural,
  pointsWords,
  tileDiscardedWord,
  upperFirst,
  tilePlacedWord,
  type Landmark,
  type TileDescriber,
} from "../shared/words";

// A follower's name by what it stands on (river::RoleName), by the wire's FeatureKind.
const ROLES: Record<number, string> = {
  [FeatureKind.ROAD]: "thief",
  [FeatureKind.CITY]: "knight",
  [FeatureKind.MONASTERY]: "monk",
  [FeatureKind.FIELD]: "farmer",
};

// The same by the tile set's kinds, for a feature of a tile.
const TILE_ROLES: Record<number, string> = {
  [TileKind.STREET]: "thief",
  [TileKind.CITY]: "knight",
  [TileKind.MONASTERY]: "monk",
  [TileKind.FIELD]: "farmer",
};

const KINDS: Record<number, string> = {
  [FeatureKind.ROAD]: "road",
  [FeatureKind.CITY]: "city",
  [FeatureKind.MONASTERY]: "monastery",
  [FeatureKind.FIELD]: "field",
};

export function roleWord(kind: number): string {
  return ROLES[kind] ?? "follower";
}

// What a follower on a feature of a tile is called: "knight", "farmer"; "follower" if unknown.
export function tileRoleWord(f: FeatureDef | undefined): string {
  return f === undefined ? "follower" : (TILE_ROLES[f.kind] ?? "follower");
}

// A feature of a tile in Carcassonne's words: "the road", "the city", "the field".
export function featureWord(f: FeatureDef): string {
  switch (f.kind) {
    case TileKind.STREET:
      return "the road";
    case TileKind.CITY:
      return f.pennant ? "the city (with a pennant)" : "the city";
    case TileKind.FIELD:
      return "the field";
    case TileKind.MONASTERY:
      return "the monastery";
    case TileKind.RIVER:
      return "the river";
    default:
      return "the area";
  }
}

const COMPASS = ["east", "south-east", "south", "south-west", "west", "north-west", "north", "north-east"];

// Where a point of a tile lies as seen on the board ("north-west"), "centre" near the middle.
// SVG y grows down, so north is negative y.
export function compassWord(x: number, y: number): string {
  if (Math.hypot(x, y) < 8) return "centre";
  const octant = Math.round(Math.atan2(y, x) / (Math.PI / 4));
  return COMPASS[(octant + 8) % 8] ?? "centre";
}

function roadWord(roads: readonly FeatureDef[]): string | null {
  const [first] = roads;
  if (first === undefined) return null;
  if (roads.some((f) => f.end === StreetEnd.CROSSING)) return `a ${roads.length}-way crossing`;
  if (roads.length > 1) return `${roads.length} roads`;
  if (first.end !== StreetEnd.THROUGH) return "a road";
  const [a, b] = first.ports.filter((p) => p % 3 === 1);
  return a !== undefined && b !== undefined && Math.abs(a - b) === 6 ? "a straight road" : "a curved road";
}

function cityWord(cities: readonly FeatureDef[]): string | null {
  if (cities.length === 0) return null;
  const pennant = cities.some((f) => f.pennant) ? " with a pennant" : "";
  return cities.length === 1 ? `a city${pennant}` : `${cities.length} cities${pennant}`;
}

// What a tile shows, for the log: "a city with a pennant and a curved road", "the spring".
export function tileWord(t: TileTypeDef): string {
  if (t.role === TileRole.SPRING) return "the river's spring";
  if (t.role === TileRole.LAKE) return "the river's lake";
  const of = (k: TileKind): FeatureDef[] => t.features.filter((f) => f.kind === k);
  const parts = [
    of(TileKind.RIVER).length > 0 ? "the river" : null,
    cityWord(of(TileKind.CITY)),
    roadWord(of(TileKind.STREET)),
    of(TileKind.MONASTERY).length > 0 ? "a monastery" : null,
  ].filter((p): p is string => p !== null);
  if (parts.length === 0) return "fields only";
  return parts.length === 1 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1] ?? ""}`;
}

// A legal action as a button label: the seat already knows it is its own decision.
export function actionWord(a: Action): string {
  switch (a.kind) {
    case ActionKind.DRAW:
      return "draw a tile";
    case ActionKind.PLACE_TILE:
      return `place at (${a.x}, ${a.y}) turned ${a.rotation * 90}°`;
    case ActionKind.PLACE_FOLLOWER:
      return "place a follower";
    case ActionKind.SKIP_FOLLOWER:
      return "no follower";
    default:
      return `action ${a.kind}`;
  }
}

// The words of an action the client may send as the only choice ("No follower"); null for a tile
// placement or a draw, never sent by themselves.
export function onlyChoiceWord(a: Action): string | null {
  if (a.kind === ActionKind.PLACE_TILE || a.kind === ActionKind.DRAW) return null;
  return upperFirst(actionWord(a));
}

const DECISIONS: Record<number, string> = {
  [DecisionKind.DRAW_TILE]: "the server draws a tile",
  [DecisionKind.PLACE_TILE]: "place the tile",
  [DecisionKind.PLACE_FOLLOWER]: "place a follower or not",
  [DecisionKind.NONE]: "the game is over",
};

export function decisionWord(kind: number): string {
  return DECISIONS[kind] ?? `decision ${kind}`;
}

type Value<C extends Event["kind"]["case"]> = Extract<Event["kind"], { case: C }>["value"];

function featureScoredWord(e: Value<"featureScored">, names: readonly string[]): string | null {
  if (!anyPoints(e.points)) return null;
  const what = KINDS[e.kind] ?? "feature";
  const size = e.kind === FeatureKind.MONASTERY ? `with ${Math.max(0, e.tiles - 1)} of 8 tiles around it` : `of ${plural(e.tiles, "tile")}`;
  const pennants = e.pennants > 0 ? ` and ${plural(e.pennants, "pennant")}` : "";
  const when = e.complete ? "" : " (incomplete, at the end)";
  return `${pointsWords(e.points, names)} for a ${what} ${size}${pennants}${when}`;
}

// The board as the log names places on it: from the first tile, the river's spring or the start.
export interface WordsBoard {
  readonly tiles: readonly { x: number; y: number }[];
  readonly river: boolean;
}

const EMPTY_BOARD: WordsBoard = { tiles: [], river: false };

function landmarks(board: WordsBoard): Landmark[] {
  const first = board.tiles[0];
  return first === undefined ? [] : [{ x: first.x, y: first.y, name: board.river ? "the spring" : "the start tile" }];
}

export type { TileDescriber };

// One event as a log line, or null for events that say nothing a person needs (a tile drawn: the
// tile in hand shows it; a scoring of nobody). `board` is the state the event led to.
export function eventWord(event: Event, names: readonly string[], describe?: TileDescriber, board: WordsBoard = EMPTY_BOARD): string | null {
  const n = (seat: number): string => playerName(names, seat);
  const k = event.kind;
  switch (k.case) {
    case "tileDiscarded":
      return tileDiscardedWord(k.value.tile, describe);
    case "tilePlaced":
      return tilePlacedWord(names, k.value, describe, landmarks(board));
    case "followerPlaced":
      return `${n(k.value.player)} placed a ${roleWord(k.value.role)} ${k.value.role === FeatureKind.ROAD ? "on" : "in"} the ${KINDS[k.value.role] ?? "tile"}`;
    case "featureScored":
      return featureScoredWord(k.value, names);
    case "fieldScored":
      if (!anyPoints(k.value.points)) return null;
      return `${pointsWords(k.value.points, names)} for a field next to ${plural(k.value.cities, "completed city", "completed cities")}`;
    case "gameOver":
      return "Game over: the last tile was placed";
    default:
      return null;
  }
}
