// The wire's PublicState (river.v1) into the client's model, checked once as the server's codec
// checks it (server/protocol/river/codec.cc): the reducer and the hash may then rely on one
// player entry per seat, sorted followers and a decision the engine could ask.
import type {
  Decision as WireDecision,
  PublicState as WireState,
  Scores as WireScores,
} from "../../gen/carcassonne/river/v1/river_pb";
import { DecisionKind } from "../../gen/carcassonne/river/v1/river_pb";
import { fail, ok, type Decision, type Follower, type PublicState, type Result, type Scores } from "./model";
import { compareFollowers } from "../shared/facts";

export const MIN_PLAYERS = 2;
export const MAX_PLAYERS = 5; // core::kMaxPlayers
export const MAX_TILES = 84; // core::kMaxTiles
export const MAX_FEATURES_PER_TILE = 8;
const COORDINATE = 128; // coordinates are int8 in the engine

// Absent messages read as their defaults, as proto3 says.
export function scoresFromWire(s: WireScores | undefined): Scores {
  return { roads: s?.roads ?? 0, cities: s?.cities ?? 0, monasteries: s?.monasteries ?? 0, fields: s?.fields ?? 0 };
}

export function decisionFromWire(d: WireDecision | undefined): Decision {
  return { actor: d?.actor ?? 0, kind: d?.kind ?? 0, turnPlayer: d?.turnPlayer ?? 0 };
}

export function validDecision(d: Decision, players: number): boolean {
  const kindOk = d.kind >= DecisionKind.DRAW_TILE && d.kind <= DecisionKind.NONE;
  const actorOk = d.actor >= -2 && d.actor < players;
  return kindOk && actorOk && d.turnPlayer >= 0 && d.turnPlayer < players;
}

export function validCoordinate(v: number): boolean {
  return v >= -COORDINATE && v < COORDINATE;
}

function checkTiles(w: WireState): string | null {
  if (w.tiles.length === 0 || w.tiles.length > MAX_TILES) return `${w.tiles.length} placed tiles`;
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

function checkCounters(w: WireState, d: Decision): string | null {
  if (!validDecision(d, w.players)) return "the pending decision is not one the engine asks";
  if (w.drawnTile < -1 || w.drawnTile >= MAX_TILES) return `a bad drawn tile ${w.drawnTile}`;
  if (w.tilesDrawn > MAX_TILES || w.tilesDiscarded > w.tilesDrawn) return `${w.tilesDrawn} drawn, ${w.tilesDiscarded} discarded`;
  if (w.over !== (d.kind === DecisionKind.NONE)) return "over, and the decision, disagree";
  if (w.player.length !== w.players) return `${w.player.length} player entries for ${w.players} players`;
  if (w.player.some((p) => p.followers > w.followersPerPlayer)) return "more followers in a supply than a player has";
  return null;
}

export function stateFromWire(w: WireState): Result<PublicState> {
  if (w.players < MIN_PLAYERS || w.players > MAX_PLAYERS) return fail(`bad player count ${w.players}`);
  if (w.followersPerPlayer > 255) return fail(`${w.followersPerPlayer} followers per player`);
  const decision = decisionFromWire(w.decision);
  const fault = checkTiles(w) ?? checkFollowers(w) ?? checkCounters(w, decision);
  if (fault !== null) return fail(fault);
  return ok({
    players: w.players,
    river: w.river,
    followersPerPlayer: w.followersPerPlayer,
    tiles: w.tiles.map((t) => ({ tile: t.tile, x: t.x, y: t.y, rotation: t.rotation })),
    followers: w.followers.map((f) => ({ player: f.player, x: f.x, y: f.y, feature: f.feature })),
    decision,
    drawnTile: w.drawnTile,
    tilesDrawn: w.tilesDrawn,
    tilesDiscarded: w.tilesDiscarded,
    over: w.over,
    player: w.player.map((p) => ({ scores: scoresFromWire(p.scores), followers: p.followers })),
  });
}
