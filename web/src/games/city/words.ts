// The City's values in words for people: actions, decisions, events and end conditions. Names
// are passed in (seat → name) because the state knows seats only.
import {
  ActionKind,
  DecisionKind,
  EndCondition,
  FeatureKind,
  ScoreCause,
  type Action,
  type Event,
} from "../../gen/carcassonne/city/v1/city_pb";
import { playerName } from "../../ui/players";
import {
  anyPoints,
  placeWord,
  plural,
  pointsWords,
  tileDiscardedWord,
  upperFirst,
  tilePlacedWord,
  type Landmark,
  type TileDescriber,
} from "../shared/words";

const SIDES = ["north", "east", "south", "west"];
const ENDS = ["front", "back"];

export function sideWord(side: number): string {
  return SIDES[side] ?? `side ${side}`;
}

export function endWord(end: number): string {
  return ENDS[end] ?? `end ${end}`;
}

// A legal action as a button label: the seat already knows it is its own decision.
// The gate is named by the tile it lies on when the board is given, as the log names it.
export function actionWord(a: Action, board?: WordsBoard): string {
  switch (a.kind) {
    case ActionKind.DRAW:
      return "draw a tile";
    case ActionKind.PLACE_TILE:
      return `place at (${a.x}, ${a.y}) turned ${a.rotation * 90}°`;
    case ActionKind.PLACE_FOLLOWER:
      return "place a follower";
    case ActionKind.SKIP_FOLLOWER:
      return "no follower";
    case ActionKind.PLACE_GATE:
      return board === undefined
        ? `gate at (${a.x}, ${a.y}) ${sideWord(a.side)} side`
        : `gate on the ${sideWord(a.side)} side of ${cityTileWord(a.x, a.y, board)}`;
    case ActionKind.BUILD_WALL:
      return `build wall at the ${endWord(a.end)}`;
    case ActionKind.PLACE_GUARD:
      return "place a guard";
    case ActionKind.SKIP_GUARD:
      return "no guard";
    case ActionKind.PLACE_TOWER:
      return `tower at the ${endWord(a.end)}`;
    case ActionKind.SKIP_TOWER:
      return "no tower";
    default:
      return `action ${a.kind}`;
  }
}

// The words of an action the client may send as the only choice ("No guard"); null for a tile
// placement or a draw, never sent by themselves.
export function onlyChoiceWord(a: Action, board?: WordsBoard): string | null {
  if (a.kind === ActionKind.PLACE_TILE || a.kind === ActionKind.DRAW) return null;
  return upperFirst(actionWord(a, board));
}

const DECISIONS: Record<number, string> = {
  [DecisionKind.DRAW_TILE]: "the server draws a tile",
  [DecisionKind.PLACE_TILE]: "place the tile",
  [DecisionKind.PLACE_FOLLOWER]: "place a follower or not",
  [DecisionKind.PLACE_GATE]: "place the gate",
  [DecisionKind.BUILD_WALL]: "build a wall piece",
  [DecisionKind.PLACE_GUARD]: "place a guard or not",
  [DecisionKind.PLACE_TOWER]: "place a tower or not",
  [DecisionKind.NONE]: "the game is over",
};

export function decisionWord(kind: number): string {
  return DECISIONS[kind] ?? `decision ${kind}`;
}

const CONDITIONS: Record<number, string> = {
  [EndCondition.LAST_WALL_BUILT]: "the last wall piece was built",
  [EndCondition.LAST_TILE_PLACED]: "the last tile was placed",
  [EndCondition.WALL_NEARLY_CLOSED]: "the wall was nearly closed",
  [EndCondition.WALL_CLOSED]: "the wall was closed",
};

export function endConditionWord(c: number): string {
  return CONDITIONS[c] ?? "the game ended";
}

type Value<C extends Event["kind"]["case"]> = Extract<Event["kind"], { case: C }>["value"];

function featureScoredWord(e: Value<"featureScored">, names: readonly string[]): string | null {
  if (!anyPoints(e.points)) return null;
  const what = e.kind === FeatureKind.STREET ? "street" : "market";
  const why = e.cause === ScoreCause.TILE ? "" : e.cause === ScoreCause.WALL ? " (by the wall)" : " (at the closing)";
  return `${pointsWords(e.points, names)} for a ${what} of ${plural(e.tiles, "tile")}${why}`;
}

// The board as the log names places on it: next to the gate, else from the first tile.
export interface WordsBoard {
  readonly tiles: readonly { x: number; y: number }[];
  readonly gate: { x: number; y: number } | null;
}

const EMPTY_BOARD: WordsBoard = { tiles: [], gate: null };

function landmarks(board: WordsBoard, withGate = true): Landmark[] {
  const marks: Landmark[] = [];
  if (withGate && board.gate !== null) marks.push({ x: board.gate.x, y: board.gate.y, name: "the gate" });
  const first = board.tiles[0];
  if (first !== undefined) marks.push({ x: first.x, y: first.y, name: "the first tile" });
  return marks;
}

// The tile a gate or wall lies on: "the first tile", "the tile 2 tiles east of the first tile".
export function cityTileWord(x: number, y: number, board: WordsBoard): string {
  const first = board.tiles[0];
  if (first === undefined) return "a tile";
  if (first.x === x && first.y === y) return "the first tile";
  return `the tile ${placeWord(x, y, landmarks(board, false))}`;
}

export type { TileDescriber };

// One event as a log line, or null for events that say nothing a person needs (a tile drawn:
// the tile in hand shows it; a scoring of nobody). `board` is the state the event led to.
export function eventWord(event: Event, names: readonly string[], describe?: TileDescriber, board: WordsBoard = EMPTY_BOARD): string | null {
  const n = (seat: number): string => playerName(names, seat);
  const k = event.kind;
  switch (k.case) {
    case "stackStarted":
      return `The ${ordinal(k.value.stack)} stack begins`;
    case "wallPhaseBegun":
      return "The wall phase begins";
    case "tileDiscarded":
      return tileDiscardedWord(k.value.tile, describe);
    case "tilePlaced":
      return tilePlacedWord(names, k.value, describe, landmarks(board));
    case "followerPlaced":
      return `${n(k.value.player)} placed a ${roleWord(k.value.role)}`;
    case "featureScored":
      return featureScoredWord(k.value, names);
    case "followerReturned":
      return k.value.scored ? null : `${n(k.value.player)}'s follower goes back unscored`;
    case "wallRoundBegun":
      return `${n(k.value.scorer)}'s wall round: ${plural(k.value.pieces, "piece")} to build`;
    default:
      return wallEventWord(event, names, board);
  }
}

const ORDINALS = ["first", "second", "third", "fourth"];

function ordinal(stack: number): string {
  return ORDINALS[stack - 1] ?? "next";
}

function wallEventWord(event: Event, names: readonly string[], board: WordsBoard): string | null {
  const n = (seat: number): string => playerName(names, seat);
  const k = event.kind;
  switch (k.case) {
    case "gatePlaced":
      return `${n(k.value.player)} placed the gate on the ${sideWord(k.value.side)} side of ${cityTileWord(k.value.x, k.value.y, board)}`;
    case "wallBuilt":
      return `${n(k.value.player)} built a wall piece at the ${endWord(k.value.end)}`;
    case "chainClosed":
      return "The wall is closed";
    case "guardPlaced":
      return `${n(k.value.player)} placed a guard`;
    case "towerPlaced":
      return `${n(k.value.player)} placed a tower at the ${endWord(k.value.end)} for ${plural(k.value.points, "point")}`;
    case "stewardsScored":
      if (!anyPoints(k.value.points)) return null;
      return `${pointsWords(k.value.points, names)} for stewards next to ${plural(k.value.markets, "market")}`;
    case "guardScored":
      return k.value.points === 0 ? null : `${n(k.value.player)} scored ${k.value.points} for a guard`;
    case "gameOver":
      return `Game over: ${endConditionWord(k.value.condition)}`;
    default:
      return null;
  }
}

function roleWord(role: number): string {
  if (role === FeatureKind.STREET) return "citizen on a street";
  if (role === FeatureKind.MARKET) return "seller in a market";
  if (role === FeatureKind.RESIDENTIAL) return "steward in a residential area";
  return "follower";
}
