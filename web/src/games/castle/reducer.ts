// The pure reducer of The Castle's events, exactly as the engine's castle::PublicState::Apply
// (engine/castle/public_state.cc).
//
// applyEvent and applyEvents never change the state they are given: they copy it once, apply the
// events to the copy and return it. An event that does not fit the state (a player out of range,
// a follower that is not there, a wall tile not held or not on its corner tower, points for the
// wrong number of seats, an empty event) is bad input from the server: the result is an error and
// the caller's state stays as it was, so the client can resynchronise.
import type { Event, FeatureScored, WallTileTaken, WallTileUsed } from "../../gen/carcassonne/castle/v1/castle_pb";
import { DecisionKind, FeatureKind } from "../../gen/carcassonne/castle/v1/castle_pb";
import * as shared from "../shared/facts";
import { addPoints, applyAll, seatOf, type Mutable } from "../shared/facts";
import { decisionFromWire, MAX_FEATURES_PER_TILE, MAX_TILES, validCoordinate, validDecision, validWallTile } from "./convert";
import { WALL_TILE_KINDS, type PublicState, type Result, type Scores } from "./model";

// Every level writable: only this module's private copies are.
type Draft = Mutable<PublicState>;

function copy(s: PublicState): Draft {
  return {
    ...s,
    // The board never changes in a game: the copy shares it, and the reducer never writes it.
    board: s.board as Draft["board"],
    tiles: s.tiles.map((t) => ({ ...t })),
    followers: s.followers.map((f) => ({ ...f })),
    decision: { ...s.decision },
    player: s.player.map((p) => ({ ...p, scores: { ...p.scores }, keep: { ...p.keep }, wallTiles: [...p.wallTiles], fresh: [...p.fresh], used: [...p.used] })),
  };
}

// null on success, else why the event does not fit.
type Step = string | null;

const SOURCE_OF_KIND: Record<number, keyof Scores> = {
  [FeatureKind.PATH]: "paths",
  [FeatureKind.TOWER]: "towers",
  [FeatureKind.HOUSE]: "houses",
  [FeatureKind.COURT]: "courts",
};

// Where a scored feature's points go (castle::SourceOfScore): an unfinished path, tower or house
// scores only with a wall tile at the end, so its points are the wall tiles'; courts always score
// at the end.
export function sourceOfScore(e: FeatureScored): keyof Scores | undefined {
  const source = SOURCE_OF_KIND[e.kind];
  if (source === undefined) return undefined;
  return !e.complete && e.kind !== FeatureKind.COURT ? "wallTiles" : source;
}

function validSpot(x: number, y: number, feature: number): boolean {
  return validCoordinate(x) && validCoordinate(y) && feature < MAX_FEATURES_PER_TILE;
}

function takeWallTile(s: Draft, e: WallTileTaken): Step {
  const p = seatOf(s, e.player);
  if (p === undefined) return `no player ${e.player}`;
  if (!validWallTile(e.wall)) return `no wall tile ${e.wall}`;
  if (e.corner >= s.board.cornerTracks.length || ((s.wallCorners >> e.corner) & 1) === 0) return `no wall tile on corner tower ${e.corner}`;
  s.wallCorners &= ~(1 << e.corner);
  p.wallTiles[e.wall] = (p.wallTiles[e.wall] ?? 0) + 1;
  p.fresh[e.wall] = (p.fresh[e.wall] ?? 0) + 1;
  return null;
}

function useWallTile(s: Draft, e: WallTileUsed): Step {
  const p = seatOf(s, e.player);
  if (p === undefined) return `no player ${e.player}`;
  const held = validWallTile(e.wall) ? (p.wallTiles[e.wall] ?? 0) : 0;
  if (held === 0) return `${e.player} holds no wall tile ${e.wall}`;
  p.wallTiles[e.wall] = held - 1;
  p.fresh[e.wall] = Math.min(p.fresh[e.wall] ?? 0, held - 1);
  p.used[e.wall] = (p.used[e.wall] ?? 0) + 1;
  p.scores.wallTiles += e.points;
  return null;
}

function requestDecision(s: Draft, e: Extract<Event["kind"], { case: "decisionRequested" }>["value"]): Step {
  const d = decisionFromWire(e.decision);
  if (!validDecision(d, s.players)) return "a decision the engine does not ask";
  // A new turn starts with a draw after another kind of decision: wall tiles taken before it may
  // be used from now on.
  if (d.kind === DecisionKind.DRAW_TILE && s.decision.kind !== DecisionKind.DRAW_TILE) {
    for (const p of s.player) p.fresh = new Array<number>(WALL_TILE_KINDS).fill(0);
  }
  s.decision = d;
  return null;
}

function reduce(s: Draft, event: Event): Step {
  const k = event.kind;
  switch (k.case) {
    case "tileDrawn":
      if (k.value.tile >= MAX_TILES) return `no tile ${k.value.tile}`;
      s.tilesDrawn += 1;
      s.drawnTile = k.value.tile;
      return null;
    case "tileDiscarded":
      s.tilesDiscarded += 1;
      s.drawnTile = -1;
      return null;
    case "tilePlaced": {
      const { player, tile, x, y, rotation } = k.value;
      if (seatOf(s, player) === undefined) return `no player ${player}`;
      if (tile >= MAX_TILES || rotation >= 4 || !validCoordinate(x) || !validCoordinate(y)) return `a bad placement of tile ${tile}`;
      s.tiles.push({ tile, x, y, rotation });
      s.drawnTile = -1;
      return null;
    }
    case "followerPlaced": {
      const e = k.value;
      return shared.placeFollower(s, e, () => {
        if (SOURCE_OF_KIND[e.role] === undefined) return `no follower role ${e.role}`;
        return validSpot(e.x, e.y, e.feature) ? null : `no feature ${e.feature} at (${e.x}, ${e.y})`;
      });
    }
    case "featureScored": {
      const source = sourceOfScore(k.value);
      return source === undefined ? `no feature kind ${k.value.kind}` : addPoints(s, k.value.points, source);
    }
    case "followerReturned":
      return shared.returnFollower(s, k.value);
    case "keepPlaced": {
      const { player, x, y, feature, size } = k.value;
      const p = seatOf(s, player);
      if (p === undefined) return `no player ${player}`;
      if (!validSpot(x, y, feature)) return `no house ${feature} at (${x}, ${y})`;
      p.keep = { size, x, y, feature };
      return null;
    }
    case "wallTileTaken":
      return takeWallTile(s, k.value);
    case "wallTileUsed":
      return useWallTile(s, k.value);
    case "keepScored":
      return addPoints(s, k.value.points, "keep");
    case "gameOver":
      if (k.value.scores.length !== s.players) return `${k.value.scores.length} scores for ${s.players} players`;
      if (k.value.winners >= 1 << s.players) return `winners ${k.value.winners} beyond the seats`;
      // The turn player is kept, as the engine does; the wall tiles left on the wall are out of play.
      s.decision = { actor: -2, kind: DecisionKind.NONE, turnPlayer: s.decision.turnPlayer, wall: 0 };
      s.drawnTile = -1;
      s.over = true;
      s.wallCorners = 0;
      return null;
    case "decisionRequested":
      return requestDecision(s, k.value);
    default:
      return "an event with no known kind";
  }
}

export function applyEvents(state: PublicState, events: readonly Event[]): Result<PublicState> {
  return applyAll(state, events, copy, reduce);
}

export function applyEvent(state: PublicState, event: Event): Result<PublicState> {
  return applyEvents(state, [event]);
}
