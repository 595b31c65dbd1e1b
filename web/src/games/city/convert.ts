// Conversion of the wire's PublicState (generated protobuf types) into the client's model. The
// wire value comes from outside, so it is checked here once: the reducer and the hash may then
// rely on one player entry per seat and a decision the engine could ask.
import type {
  Decision as WireDecision,
  PlayerState as WirePlayerState,
  PublicState as WireState,
  Scores as WireScores,
  WallPiece as WireWallPiece,
} from "../../gen/carcassonne/city/v1/city_pb";
import { DecisionKind } from "../../gen/carcassonne/city/v1/city_pb";
import {
  fail,
  ok,
  type Decision,
  type PlayerState,
  type PublicState,
  type Result,
  type Scores,
  type WallPiece,
} from "./model";

export const MAX_PLAYERS = 4;

// Absent messages read as their defaults, as proto3 says (docs/protocol.md 2).
export function scoresFromWire(s: WireScores | undefined): Scores {
  return {
    streets: s?.streets ?? 0,
    markets: s?.markets ?? 0,
    towers: s?.towers ?? 0,
    stewards: s?.stewards ?? 0,
    guards: s?.guards ?? 0,
  };
}

export function decisionFromWire(d: WireDecision | undefined): Decision {
  return { actor: d?.actor ?? 0, kind: d?.kind ?? 0, turnPlayer: d?.turnPlayer ?? 0 };
}

function playerFromWire(p: WirePlayerState): PlayerState {
  return { scores: scoresFromWire(p.scores), followers: p.followers, towers: p.towers };
}

function pieceFromWire(w: WireWallPiece): WallPiece {
  return { x: w.x, y: w.y, side: w.side, guard: w.guard ?? null };
}

export function validDecision(d: Decision, players: number): boolean {
  const kindOk = d.kind >= DecisionKind.DRAW_TILE && d.kind <= DecisionKind.NONE;
  const actorOk = d.actor >= -2 && d.actor < players;
  return kindOk && actorOk && d.turnPlayer >= 0 && d.turnPlayer < players;
}

export function stateFromWire(w: WireState): Result<PublicState> {
  if (w.players < 1 || w.players > MAX_PLAYERS) return fail(`bad player count ${w.players}`);
  if (w.player.length !== w.players) {
    return fail(`${w.player.length} player entries for ${w.players} players`);
  }
  const decision = decisionFromWire(w.decision);
  if (!validDecision(decision, w.players))
    return fail("the pending decision is not one the engine asks");
  return ok({
    players: w.players,
    stackSizes: [...w.stackSizes],
    walls: w.walls,
    followersPerPlayer: w.followersPerPlayer,
    towersTotal: w.towersTotal,
    closingDistance: w.closingDistance,
    tiles: w.tiles.map((t) => ({ tile: t.tile, x: t.x, y: t.y, rotation: t.rotation })),
    followers: w.followers.map((f) => ({ player: f.player, x: f.x, y: f.y, feature: f.feature })),
    gate: w.gate === undefined ? null : { x: w.gate.x, y: w.gate.y, side: w.gate.side },
    front: w.front.map(pieceFromWire),
    back: w.back.map(pieceFromWire),
    towers: w.towers.map((t) => ({ player: t.player, end: t.end, position: t.position })),
    decision,
    drawnTile: w.drawnTile,
    tilesDrawn: w.tilesDrawn,
    tilesDiscarded: w.tilesDiscarded,
    wallsLeft: w.wallsLeft,
    chainClosed: w.chainClosed,
    end: w.end,
    player: w.player.map(playerFromWire),
  });
}
