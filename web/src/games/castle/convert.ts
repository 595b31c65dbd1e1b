// The wire's PublicState (castle.v1) into the client's model, checked once as the server's codec
// checks it: the reducer and the hash may then rely on one player entry per seat, sorted
// followers, a decision the engine could ask and a board with its wall.
import type {
  Board as WireBoard,
  Decision as WireDecision,
  Keep as WireKeep,
  PlayerState as WirePlayer,
  PublicState as WireState,
  Scores as WireScores,
} from "../../gen/carcassonne/castle/v1/castle_pb";
import { DecisionKind, WallKind } from "../../gen/carcassonne/castle/v1/castle_pb";
import { compareFollowers } from "../shared/facts";
import { fail, ok, WALL_TILE_KINDS, type Board, type Decision, type Follower, type Keep, type PlayerState, type PublicState, type Result, type Scores } from "./model";

export const PLAYERS = 2; // The Castle is a game for two
export const MAX_TILES = 84; // core::kMaxTiles
export const MAX_FEATURES_PER_TILE = 8;
const COORDINATE = 128; // coordinates are int8 in the engine
const MAX_CORNERS = 16; // wall_corners is 16 bits wide in the engine

export function scoresFromWire(s: WireScores | undefined): Scores {
  return {
    paths: s?.paths ?? 0,
    towers: s?.towers ?? 0,
    houses: s?.houses ?? 0,
    courts: s?.courts ?? 0,
    keep: s?.keep ?? 0,
    wallTiles: s?.wallTiles ?? 0,
  };
}

export function decisionFromWire(d: WireDecision | undefined): Decision {
  return { actor: d?.actor ?? 0, kind: d?.kind ?? 0, turnPlayer: d?.turnPlayer ?? 0, wall: d?.wall ?? 0 };
}

export function validWallTile(wall: number): boolean {
  return wall >= 1 && wall < WALL_TILE_KINDS;
}

export function validDecision(d: Decision, players: number): boolean {
  const kindOk = d.kind >= DecisionKind.DRAW_TILE && d.kind <= DecisionKind.NONE;
  const actorOk = d.actor >= -2 && d.actor < players;
  const wallOk = d.kind === DecisionKind.WALL_TILE ? validWallTile(d.wall) : d.wall === 0;
  return kindOk && actorOk && wallOk && d.turnPlayer >= 0 && d.turnPlayer < players;
}

export function validCoordinate(v: number): boolean {
  return v >= -COORDINATE && v < COORDINATE;
}

function keepFromWire(k: WireKeep | undefined): Keep {
  return { size: k?.size ?? 0, x: k?.x ?? 0, y: k?.y ?? 0, feature: k?.feature ?? 0 };
}

// Wall tile counts by number: exactly WALL_TILE_KINDS entries, or none (all zero).
function countsFromWire(counts: readonly number[]): number[] | null {
  if (counts.length === 0) return new Array<number>(WALL_TILE_KINDS).fill(0);
  if (counts.length !== WALL_TILE_KINDS || (counts[0] ?? 0) !== 0 || counts.some((c) => c > 255)) return null;
  return [...counts];
}

function playerFromWire(p: WirePlayer, followersPerPlayer: number): PlayerState | string {
  const wallTiles = countsFromWire(p.wallTiles);
  const fresh = countsFromWire(p.fresh);
  const used = countsFromWire(p.used);
  if (wallTiles === null || fresh === null || used === null) return "a player's wall tiles are not counted by number 1-9";
  if (fresh.some((f, i) => f > (wallTiles[i] ?? 0))) return "more fresh wall tiles than held";
  if (p.followers > followersPerPlayer) return "more followers in a supply than a player has";
  return { scores: scoresFromWire(p.scores), followers: p.followers, keep: keepFromWire(p.keep), wallTiles, fresh, used };
}

function boardFromWire(b: WireBoard | undefined): Board | string {
  if (b === undefined || b.squares.length === 0 || b.wall.length === 0) return "no castle board";
  if (b.cornerTracks.length === 0 || b.cornerTracks.length > MAX_CORNERS) return `${b.cornerTracks.length} corner towers`;
  for (const c of [...b.squares, ...b.wall]) if (!validCoordinate(c.x) || !validCoordinate(c.y)) return `a board cell at (${c.x}, ${c.y})`;
  for (const [i, w] of b.wall.entries()) {
    if (w.track !== 2 * i || w.kind < WallKind.WALL || w.kind > WallKind.START) return `a bad wall cell at track ${w.track}`;
  }
  return {
    squares: b.squares.map((q) => ({ x: q.x, y: q.y })),
    wall: b.wall.map((w) => ({ track: w.track, x: w.x, y: w.y, kind: w.kind })),
    cornerTracks: [...b.cornerTracks],
  };
}

function checkTiles(w: WireState): string | null {
  if (w.tiles.length > MAX_TILES || w.startSpaces > w.tiles.length) return `${w.tiles.length} placed tiles, ${w.startSpaces} start spaces`;
  for (const t of w.tiles) {
    if (t.tile >= MAX_TILES || t.rotation >= 4 || !validCoordinate(t.x) || !validCoordinate(t.y))
      return `a bad placed tile ${t.tile} at (${t.x}, ${t.y}) turned ${t.rotation}`;
  }
  return null;
}

function checkFollowers(w: WireState): string | null {
  if (w.followers.length > w.players * w.followersPerPlayer) return `${w.followers.length} followers on the board`;
  for (const [i, f] of w.followers.entries()) {
    if (f.player >= w.players || f.feature >= MAX_FEATURES_PER_TILE || !validCoordinate(f.x) || !validCoordinate(f.y))
      return `a bad follower of ${f.player} at (${f.x}, ${f.y}) feature ${f.feature}`;
    const before: Follower | undefined = w.followers[i - 1];
    if (before !== undefined && compareFollowers(before, f) >= 0) return "the followers are not sorted";
  }
  return null;
}

function checkCounters(w: WireState, d: Decision, board: Board): string | null {
  if (!validDecision(d, w.players)) return "the pending decision is not one the engine asks";
  if (w.drawnTile < -1 || w.drawnTile >= MAX_TILES) return `a bad drawn tile ${w.drawnTile}`;
  if (w.tilesDrawn > MAX_TILES || w.tilesDiscarded > w.tilesDrawn) return `${w.tilesDrawn} drawn, ${w.tilesDiscarded} discarded`;
  if (w.over !== (d.kind === DecisionKind.NONE)) return "over, and the decision, disagree";
  if (w.wallCorners >= 1 << board.cornerTracks.length) return `wall tiles on corner towers ${w.wallCorners} beyond the board's`;
  if (w.player.length !== w.players) return `${w.player.length} player entries for ${w.players} players`;
  return null;
}

export function stateFromWire(w: WireState): Result<PublicState> {
  if (w.players !== PLAYERS) return fail(`bad player count ${w.players}`);
  if (w.followersPerPlayer > 255) return fail(`${w.followersPerPlayer} followers per player`);
  const board = boardFromWire(w.board);
  if (typeof board === "string") return fail(board);
  const decision = decisionFromWire(w.decision);
  const fault = checkTiles(w) ?? checkFollowers(w) ?? checkCounters(w, decision, board);
  if (fault !== null) return fail(fault);
  const player: PlayerState[] = [];
  for (const p of w.player) {
    const read = playerFromWire(p, w.followersPerPlayer);
    if (typeof read === "string") return fail(read);
    player.push(read);
  }
  return ok({
    players: w.players,
    followersPerPlayer: w.followersPerPlayer,
    board,
    startSpaces: w.startSpaces,
    tiles: w.tiles.map((t) => ({ tile: t.tile, x: t.x, y: t.y, rotation: t.rotation })),
    followers: w.followers.map((f) => ({ player: f.player, x: f.x, y: f.y, feature: f.feature })),
    decision,
    drawnTile: w.drawnTile,
    tilesDrawn: w.tilesDrawn,
    tilesDiscarded: w.tilesDiscarded,
    over: w.over,
    wallCorners: w.wallCorners,
    player,
  });
}
