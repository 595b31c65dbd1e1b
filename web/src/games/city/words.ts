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
import { pointsWords, tileDiscardedWord, tilePlacedWord, tileText, upperFirst, type TileDescriber } from "../shared/words";

const SIDES = ["north", "east", "south", "west"];
const ENDS = ["front", "back"];

export function sideWord(side: number): string {
  return SIDES[side] ?? `side ${side}`;
}

export function endWord(end: number): string {
  return ENDS[end] ?? `end ${end}`;
}

// A legal action as a button label: the seat already knows it is its own decision.
export function actionWord(a: Action): string {
  switch (a.kind) {
    case ActionKind.DRAW:
      return `draw tile ${a.tile}`;
    case ActionKind.PLACE_TILE:
      return `place at (${a.x}, ${a.y}) turned ${a.rotation * 90}°`;
    case ActionKind.PLACE_FOLLOWER:
      return `follower on feature ${a.feature}`;
    case ActionKind.SKIP_FOLLOWER:
      return "no follower";
    case ActionKind.PLACE_GATE:
      return `gate at (${a.x}, ${a.y}) ${sideWord(a.side)} side`;
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

function featureScoredWord(e: Extract<Event["kind"], { case: "featureScored" }>["value"], names: readonly string[]): string {
  const what = e.kind === FeatureKind.STREET ? "street" : "market";
  const why = e.cause === ScoreCause.TILE ? "" : e.cause === ScoreCause.WALL ? " (by the wall)" : " (at the closing)";
  return `${pointsWords(e.points, names)} for a ${what} of ${e.tiles} tile${e.tiles === 1 ? "" : "s"}${why}`;
}

export type { TileDescriber };

// One event as a log line, or null for events that say nothing a person needs.
export function eventWord(event: Event, names: readonly string[], describe?: TileDescriber): string | null {
  const n = (seat: number): string => playerName(names, seat);
  const k = event.kind;
  switch (k.case) {
    case "tileDrawn": {
      return `${upperFirst(tileText(k.value.tile, describe))} drawn from stack ${k.value.stack}`;
    }
    case "stackStarted":
      return `Stack ${k.value.stack} begins`;
    case "wallPhaseBegun":
      return "The wall phase begins";
    case "tileDiscarded":
      return tileDiscardedWord(k.value.tile);
    case "tilePlaced":
      return tilePlacedWord(names, k.value, describe);
    case "followerPlaced":
      return `${n(k.value.player)} placed a ${roleWord(k.value.role)} at (${k.value.x}, ${k.value.y})`;
    case "featureScored":
      return featureScoredWord(k.value, names);
    case "followerReturned":
      return k.value.scored ? null : `${n(k.value.player)}'s follower at (${k.value.x}, ${k.value.y}) leaves unscored`;
    case "wallRoundBegun":
      return `Wall round for ${n(k.value.scorer)}: ${k.value.pieces} pieces`;
    default:
      return wallEventWord(event, names);
  }
}

function wallEventWord(event: Event, names: readonly string[]): string | null {
  const n = (seat: number): string => playerName(names, seat);
  const k = event.kind;
  switch (k.case) {
    case "gatePlaced":
      return `${n(k.value.player)} placed the gate at (${k.value.x}, ${k.value.y}), ${sideWord(k.value.side)} side`;
    case "wallBuilt":
      return `${n(k.value.player)} built a wall piece at the ${endWord(k.value.end)}`;
    case "chainClosed":
      return "The wall is closed";
    case "guardPlaced":
      return `${n(k.value.player)} placed a guard`;
    case "towerPlaced":
      return `${n(k.value.player)} placed a tower at the ${endWord(k.value.end)} for ${k.value.points} points`;
    case "stewardsScored":
      return `${pointsWords(k.value.points, names)} for stewards next to ${k.value.markets} markets`;
    case "guardScored":
      return `${n(k.value.player)} scored ${k.value.points} for a guard`;
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
