// The Castle's values in words for people: tiles and their features, wall tiles, actions,
// decisions and events. Names are passed in (seat → name) because the state knows seats only.
// Places are named by what the board shows: the wall's track numbers ("by the wall at 24"),
// never by coordinates.
import { ActionKind, DecisionKind, FeatureKind, type Action, type Event } from "../../gen/carcassonne/castle/v1/castle_pb";
import { FeatureKind as TileKind, StreetEnd, TileRole } from "../../gen/carcassonne/tiles/v1/tiles_pb";
import { typeOf, type FeatureDef, type TileCatalog, type TileTypeDef } from "../../tiles/catalog";
import { playerName } from "../../ui/players";
import { anyPoints, plural, pointsWords, tileDiscardedWord, tileText, upperFirst, type TileDescriber } from "../shared/words";
import type { Board, PlacedTile } from "./model";

// A follower's name by what it stands on (castle::RoleName), by the wire's FeatureKind.
const ROLES: Record<number, string> = {
  [FeatureKind.PATH]: "herald",
  [FeatureKind.TOWER]: "knight",
  [FeatureKind.HOUSE]: "squire",
  [FeatureKind.COURT]: "merchant",
};

// The wire's FeatureKind of a tile's feature kind.
const KIND_OF_TILE_KIND: Record<number, FeatureKind> = {
  [TileKind.STREET]: FeatureKind.PATH,
  [TileKind.TOWER]: FeatureKind.TOWER,
  [TileKind.HOUSE]: FeatureKind.HOUSE,
  [TileKind.COURT]: FeatureKind.COURT,
};

const KINDS: Record<number, string> = {
  [FeatureKind.PATH]: "path",
  [FeatureKind.TOWER]: "tower",
  [FeatureKind.HOUSE]: "house",
  [FeatureKind.COURT]: "court",
};

export function roleWord(kind: number): string {
  return ROLES[kind] ?? "follower";
}

export function kindWord(kind: number): string {
  return KINDS[kind] ?? "feature";
}

// The wire's kind of a tile's feature (PATH for a path), or UNSPECIFIED.
export function kindOfFeature(f: FeatureDef | undefined): FeatureKind {
  return f === undefined ? FeatureKind.UNSPECIFIED : (KIND_OF_TILE_KIND[f.kind] ?? FeatureKind.UNSPECIFIED);
}

// What a follower on a feature of a tile is called: "knight", "merchant"; "follower" if unknown.
export function tileRoleWord(f: FeatureDef | undefined): string {
  return roleWord(kindOfFeature(f));
}

// A feature of a tile in The Castle's words: "the path with a fountain", "the court with a market".
export function featureWord(f: FeatureDef): string {
  switch (f.kind) {
    case TileKind.STREET:
      return f.symbol ? "the path with a fountain" : "the path";
    case TileKind.TOWER:
      return "the tower";
    case TileKind.HOUSE:
      return "the house";
    case TileKind.COURT:
      return f.symbol ? "the court with a market" : "the court";
    default:
      return "the area";
  }
}

// What each wall tile does (castle::Describe(WallTile)), by its number.
const WALL_TILE_EFFECTS: Record<number, string> = {
  1: "take another turn",
  2: "a completed tower scores double (4 points per tile)",
  3: "a completed house scores double (2 points per tile)",
  4: "at the end, an unfinished path scores 1 point per tile (2 with a fountain)",
  5: "at the end, an unfinished tower scores 2 points per tile",
  6: "at the end, an unfinished house scores 1 point per tile",
  7: "at the end, a court scores 4 points per market instead of 3",
  8: "at the end, the keep counts 2 tiles larger",
  9: "at the end, 5 points",
};

export function wallTileEffect(wall: number): string {
  return WALL_TILE_EFFECTS[wall] ?? "no wall tile";
}

// "Wall tile 2: a completed tower scores double (4 points per tile)".
export function wallTileWord(wall: number): string {
  return `Wall tile ${wall}: ${wallTileEffect(wall)}`;
}

const COMPASS = ["east", "south-east", "south", "south-west", "west", "north-west", "north", "north-east"];

// Where a point of a tile lies as seen on the board ("north-west"), "centre" near the middle.
// SVG y grows down, so north is negative y.
export function compassWord(x: number, y: number): string {
  if (Math.hypot(x, y) < 8) return "centre";
  const octant = Math.round(Math.atan2(y, x) / (Math.PI / 4));
  return COMPASS[(octant + 8) % 8] ?? "centre";
}

function areaWord(t: TileTypeDef, kind: TileKind, one: string): string | null {
  const areas = t.features.filter((f) => f.kind === kind);
  if (areas.length === 0) return null;
  const markets = kind === TileKind.COURT && areas.some((f) => f.symbol) ? " with a market" : "";
  return `${areas.length === 1 ? `a ${one}` : `${areas.length} ${one}s`}${markets}`;
}

function pathWord(t: TileTypeDef): string | null {
  const paths = t.features.filter((f) => f.kind === TileKind.STREET);
  const [first] = paths;
  if (first === undefined) return null;
  const fountain = paths.some((f) => f.symbol) ? " with a fountain" : "";
  if (paths.some((f) => f.end === StreetEnd.SQUARE)) return `paths meeting at a square${fountain}`;
  if (paths.some((f) => f.ports.filter((p) => p % 3 === 1).length > 2)) return `a branching path${fountain}`;
  if (first.end === StreetEnd.BUILDING) return `a path ending at a building${fountain}`;
  return paths.length > 1 ? `${paths.length} paths${fountain}` : `a path${fountain}`;
}

// What a tile shows, for the log: "a tower, a house and a branching path with a fountain".
export function tileWord(t: TileTypeDef): string {
  if (t.role === TileRole.START_SPACE) return "a start space";
  const parts = [areaWord(t, TileKind.TOWER, "tower"), areaWord(t, TileKind.HOUSE, "house"), areaWord(t, TileKind.COURT, "court"), pathWord(t)].filter(
    (p): p is string => p !== null,
  );
  if (parts.length === 0) return "nothing";
  return parts.length === 1 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1] ?? ""}`;
}

// What the log and the buttons need to name places: the board's wall, and the start spaces lying on it.
export interface WordsBoard {
  readonly board: Board | null;
  readonly tiles: readonly PlacedTile[];
  readonly startSpaces: number;
}

// Where a cell lies, by the wall that the board shows with its track numbers: "on the start space
// at 6", "by the wall at 24" (next to it), "2 squares in from the wall at 24".
export function placeWord(x: number, y: number, b: WordsBoard): string {
  const wall = b.board?.wall ?? [];
  const on = wall.find((w) => w.x === x && w.y === y);
  if (on !== undefined) return `on the start space at ${on.track}`;
  let best: { track: number; d: number } | null = null;
  for (const w of wall) {
    const d = Math.abs(w.x - x) + Math.abs(w.y - y);
    if (best === null || d < best.d) best = { track: w.track, d };
  }
  if (best === null) return "in the castle";
  return best.d <= 1 ? `by the wall at ${best.track}` : `${best.d - 1} ${best.d === 2 ? "square" : "squares"} in from the wall at ${best.track}`;
}

// A feature of the tile at (x, y) named for a button: "the tower by the wall at 24", with where
// it lies on its tile when the tile has two of that kind ("the court (north-east) ...").
export function featureAtWord(b: WordsBoard, catalog: TileCatalog | null, x: number, y: number, feature: number, kind?: number): string {
  const placed = b.tiles.find((t) => t.x === x && t.y === y);
  const type = placed === undefined || catalog === null ? undefined : typeOf(catalog, placed.tile);
  const f = type?.features[feature];
  const name = f !== undefined ? featureWord(f) : `the ${kindWord(kind ?? FeatureKind.UNSPECIFIED)}`;
  return `${name} ${placeWord(x, y, b)}`;
}

// A legal action as a button label when nothing else is known of it: the seat already knows it is
// its own decision.
export function actionWord(a: Action): string {
  switch (a.kind) {
    case ActionKind.DRAW:
      return "draw a tile";
    case ActionKind.PLACE_TILE:
      return "place the tile";
    case ActionKind.PLACE_FOLLOWER:
      return "place a follower";
    case ActionKind.SKIP_FOLLOWER:
      return "no follower";
    case ActionKind.SCORE:
      return "score this feature next";
    case ActionKind.SCORE_DOUBLED:
      return "score this feature next, doubled with a wall tile";
    case ActionKind.EXTRA_TURN:
      return "use wall tile 1: take another turn";
    case ActionKind.END_TURN:
      return "end the turn";
    case ActionKind.USE_WALL_TILE:
      return `use wall tile ${a.wall}`;
    case ActionKind.SKIP_WALL_TILE:
      return "keep it unused";
    default:
      return `action ${a.kind}`;
  }
}

// The words of an action the client may send as the only choice ("No follower", "End the turn");
// null for a tile placement or a draw, never sent by themselves.
export function onlyChoiceWord(a: Action): string | null {
  if (a.kind === ActionKind.PLACE_TILE || a.kind === ActionKind.DRAW) return null;
  if (a.kind === ActionKind.SKIP_WALL_TILE) return `Keep wall tile ${a.wall} unused`;
  return upperFirst(actionWord(a));
}

const DECISIONS: Record<number, string> = {
  [DecisionKind.DRAW_TILE]: "the server draws a tile",
  [DecisionKind.PLACE_TILE]: "place the tile",
  [DecisionKind.PLACE_FOLLOWER]: "place a follower or not",
  [DecisionKind.SCORE_NEXT]: "choose which completed feature scores next",
  [DecisionKind.EXTRA_TURN]: "use wall tile 1 for another turn, or end the turn",
  [DecisionKind.WALL_TILE]: "use a wall tile for the final scoring, or keep it",
  [DecisionKind.NONE]: "the game is over",
};

export function decisionWord(kind: number): string {
  return DECISIONS[kind] ?? `decision ${kind}`;
}

type Value<C extends Event["kind"]["case"]> = Extract<Event["kind"], { case: C }>["value"];

function symbolsWord(e: Value<"featureScored">): string {
  if (e.symbols === 0) return "";
  if (e.kind === FeatureKind.PATH) return ` and ${plural(e.symbols, "fountain")}`;
  if (e.kind === FeatureKind.COURT) return ` and ${plural(e.symbols, "market")}`;
  return "";
}

function featureScoredWord(e: Value<"featureScored">, names: readonly string[]): string | null {
  if (!anyPoints(e.points)) return null;
  const what = kindWord(e.kind);
  const when = e.complete ? "" : e.kind === FeatureKind.COURT ? " at the end" : " (unfinished, at the end)";
  const doubled = e.wall === 2 || e.wall === 3 ? ", doubled with wall tile " : e.wall !== 0 ? " with wall tile " : "";
  const wall = e.wall !== 0 ? `${doubled}${e.wall}` : "";
  return `${pointsWords(e.points, names)} for a ${what} of ${plural(e.tiles, "tile")}${symbolsWord(e)}${when}${wall}`;
}

const EMPTY_BOARD: WordsBoard = { board: null, tiles: [], startSpaces: 0 };

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
      return `${n(k.value.player)} placed ${tileText(k.value.tile, describe)} ${placeWord(k.value.x, k.value.y, board)}`;
    case "followerPlaced":
      return `${n(k.value.player)} placed a ${roleWord(k.value.role)} ${k.value.role === FeatureKind.PATH ? "on the path" : `in the ${kindWord(k.value.role)}`}`;
    case "featureScored":
      return featureScoredWord(k.value, names);
    case "keepPlaced":
      return `${n(k.value.player)}'s keep stands on a house of ${plural(k.value.size, "tile")}`;
    case "wallTileTaken":
      return `${n(k.value.player)}'s marker stopped on a corner tower: ${n(k.value.player)} takes wall tile ${k.value.wall} (${wallTileEffect(k.value.wall)})`;
    case "wallTileUsed":
      return k.value.wall === 1 ? `${n(k.value.player)} used wall tile 1 and takes another turn` : `${n(k.value.player)} used wall tile ${k.value.wall}${k.value.points !== 0 ? ` for ${plural(k.value.points, "point")}` : ""}`;
    case "keepScored": {
      if (!anyPoints(k.value.points)) return `No keep is the largest: nobody scores the ${plural(k.value.area, "empty square")}`;
      return `${pointsWords(k.value.points, names)} for the largest keep: the largest empty area is ${plural(k.value.area, "square")}`;
    }
    case "gameOver":
      return "Game over: the last tile was placed";
    default:
      return null;
  }
}
