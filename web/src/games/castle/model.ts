// The Castle's public state on the client: the same value as the engine's castle::PublicState
// (engine/castle/public_state.h), in plain readonly objects, with the castle's board (the
// squares inside the wall, the wall's cells and corner towers) that comes with it. The reducer
// (reducer.ts) never changes a state it is given, it returns a new one.
//
// Numbers keep the wire's meaning (proto/carcassonne/castle/v1/castle.proto): seats from 0, the
// wire's DecisionKind (the engine's plus one), -1 for "no tile in hand".
export { fail, invariant, ok, type Result } from "../../state/result";

import type { Follower, PlacedTile } from "../shared/facts";

export type { Follower, PlacedTile };

export interface Decision {
  readonly actor: number; // a seat, -1 for the server's draw, -2 once the game is over
  readonly kind: number; // the wire's DecisionKind (DRAW_TILE 1 ... NONE 7)
  readonly turnPlayer: number;
  readonly wall: number; // DecisionKind.WALL_TILE: the wall tile's number, else 0
}

// Points by source (castle::Source).
export interface Scores {
  readonly paths: number;
  readonly towers: number;
  readonly houses: number;
  readonly courts: number;
  readonly keep: number;
  readonly wallTiles: number; // wall tiles 4, 5, 6 and 9
}

// A player's keep: the house it stands on (size 0: none yet).
export interface Keep {
  readonly size: number;
  readonly x: number;
  readonly y: number;
  readonly feature: number;
}

// The wall tiles are numbered 1-9 (castle::WallTile); index 0 of the counts is unused.
export const WALL_TILE_KINDS = 10;

export interface PlayerState {
  readonly scores: Scores;
  readonly followers: number; // in the supply
  readonly keep: Keep;
  readonly wallTiles: readonly number[]; // held face up, by number (WALL_TILE_KINDS entries)
  readonly fresh: readonly number[]; // of those, taken this turn: usable from the next
  readonly used: readonly number[]; // used, by number: gone from the game
}

// A cell of the wall: it carries track spaces `track` and `track + 1`.
export interface WallCell {
  readonly track: number;
  readonly x: number;
  readonly y: number;
  readonly kind: number; // the wire's WallKind: WALL 1, TOWER 2 (a corner tower), START 3
}

// The castle's board (castle::Layout): fixed for the whole game.
export interface Board {
  readonly squares: readonly { readonly x: number; readonly y: number }[]; // sorted by y, then x
  readonly wall: readonly WallCell[]; // in track order, from track 0
  readonly cornerTracks: readonly number[]; // the corner towers' first track numbers, in track order
}

export interface PublicState {
  // The configuration (castle::Config): fixed for the whole game.
  readonly players: number;
  readonly followersPerPlayer: number;
  readonly board: Board;
  readonly startSpaces: number; // how many of `tiles` are start spaces (the first ones)

  readonly tiles: readonly PlacedTile[]; // in the order they were placed; the start spaces first
  readonly followers: readonly Follower[]; // sorted by (player, x, y, feature)
  readonly decision: Decision;
  readonly drawnTile: number;
  readonly tilesDrawn: number;
  readonly tilesDiscarded: number;
  readonly over: boolean;
  readonly wallCorners: number; // bit c: corner tower c still holds a face-down wall tile
  readonly player: readonly PlayerState[]; // one per seat
}

export const SOURCES: readonly (keyof Scores)[] = ["paths", "towers", "houses", "courts", "keep", "wallTiles"];

// The scoring track has 100 spaces: a marker stands on the total modulo 100.
export const TRACK_LENGTH = 100;

export function totalScore(s: Scores): number {
  return s.paths + s.towers + s.houses + s.courts + s.keep + s.wallTiles;
}

// The castle tiles on the board, start spaces not counted.
export function castleTiles(s: PublicState): readonly PlacedTile[] {
  return s.tiles.slice(s.startSpaces);
}
