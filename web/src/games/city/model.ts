// The City's public state on the client: the same value as the engine's PublicState
// (engine/city/public_state.h), in plain objects so that views can read it without the protobuf
// runtime. Every field is readonly: the reducer (reducer.ts) never changes a state it is given,
// it returns a new one, so a view may keep an old state (for undo displays or replays) safely.
//
// Numbers keep the wire's meaning (docs/protocol-city.md section 2): seats from 0, the wire's DecisionKind,
// EndCondition and FeatureKind values, -1 for "no tile in hand".
export { fail, invariant, ok, type Result } from "../../state/result";

// The board facts every game shares: the placed tiles, and the followers on a feature of a tile.
import type { Follower, PlacedTile } from "../shared/facts";

export type { Follower, PlacedTile };

// The gate: the tile inside it and the side the wall runs along. It never holds a guard.
export interface Gate {
  readonly x: number;
  readonly y: number;
  readonly side: number;
}

export interface WallPiece extends Gate {
  readonly guard: number | null; // the guard's owner, null when none
}

export interface Tower {
  readonly player: number;
  readonly end: number; // 0 front, 1 back
  readonly position: number; // pieces on that end's side when it was placed
}

export interface Decision {
  readonly actor: number; // a seat, -1 for the server's draw, -2 once the game is over
  readonly kind: number; // the wire's DecisionKind (DRAW_TILE 1 ... NONE 8)
  readonly turnPlayer: number;
}

export interface Scores {
  readonly streets: number;
  readonly markets: number;
  readonly towers: number;
  readonly stewards: number;
  readonly guards: number;
}

export interface PlayerState {
  readonly scores: Scores;
  readonly followers: number; // in the supply
  readonly towers: number; // left
}

export interface PublicState {
  // The configuration: fixed for the whole game and not hashed.
  readonly players: number;
  readonly stackSizes: readonly number[];
  readonly walls: number;
  readonly followersPerPlayer: number;
  readonly towersTotal: number;
  readonly closingDistance: number;

  readonly tiles: readonly PlacedTile[]; // in the order they were placed
  readonly followers: readonly Follower[]; // sorted by (player, x, y, feature)
  readonly gate: Gate | null;
  readonly front: readonly WallPiece[]; // from the gate outwards
  readonly back: readonly WallPiece[];
  readonly towers: readonly Tower[];
  readonly decision: Decision;
  readonly drawnTile: number;
  readonly tilesDrawn: number;
  readonly tilesDiscarded: number;
  readonly wallsLeft: number;
  readonly chainClosed: boolean;
  readonly end: number; // the wire's EndCondition, 0 while the game runs
  readonly player: readonly PlayerState[]; // one per seat
}

export function totalScore(s: Scores): number {
  return s.streets + s.markets + s.towers + s.stewards + s.guards;
}
