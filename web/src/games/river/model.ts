// Carcassonne's public state on the client (with or without the River): the same value as the
// engine's river::PublicState (engine/river/public_state.h), in plain readonly objects. The
// reducer (reducer.ts) never changes a state it is given, it returns a new one.
//
// Numbers keep the wire's meaning (proto/carcassonne/river/v1/river.proto): seats from 0, the
// wire's DecisionKind (the engine's plus one), -1 for "no tile in hand".
export { fail, invariant, ok, type Result } from "../../state/result";

// The board facts every game shares: the placed tiles, and the followers on a feature of a tile.
import type { Follower, PlacedTile } from "../shared/facts";

export type { Follower, PlacedTile };

export interface Decision {
  readonly actor: number; // a seat, -1 for the server's draw, -2 once the game is over
  readonly kind: number; // the wire's DecisionKind (DRAW_TILE 1 ... NONE 4)
  readonly turnPlayer: number;
}

// Points by source (river::Source).
export interface Scores {
  readonly roads: number;
  readonly cities: number;
  readonly monasteries: number;
  readonly fields: number;
}

export interface PlayerState {
  readonly scores: Scores;
  readonly followers: number; // in the supply
}

export interface PublicState {
  // The configuration (river::Config): fixed for the whole game.
  readonly players: number;
  readonly river: boolean;
  readonly followersPerPlayer: number;

  readonly tiles: readonly PlacedTile[]; // in the order they were placed; the set-up tile first
  readonly followers: readonly Follower[]; // sorted by (player, x, y, feature)
  readonly decision: Decision;
  readonly drawnTile: number;
  readonly tilesDrawn: number;
  readonly tilesDiscarded: number;
  readonly over: boolean;
  readonly player: readonly PlayerState[]; // one per seat
}

export const SOURCES: readonly (keyof Scores)[] = ["roads", "cities", "monasteries", "fields"];

export function totalScore(s: Scores): number {
  return s.roads + s.cities + s.monasteries + s.fields;
}
