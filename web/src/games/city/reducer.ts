// The pure reducer of the engine's events (engine/city/public_state.cc, docs/protocol-city.md section 3).
//
// applyEvent and applyEvents never change the state they are given: they copy it once, apply the
// events to the copy and return it. An event that does not fit the state (a player out of range,
// a follower or wall piece that is not there, an empty event) is bad input from the server: the
// result is an error and the caller's state stays as it was, so the client can resynchronise.
import type {
  Event,
  FollowerPlaced,
  FollowerReturned,
  GuardPlaced,
  TowerPlaced,
  WallBuilt,
} from "../../gen/carcassonne/city/v1/city_pb";
import { DecisionKind, FeatureKind } from "../../gen/carcassonne/city/v1/city_pb";
import { decisionFromWire, validDecision } from "./convert";
import * as shared from "../shared/facts";
import { addPoints, applyAll, seatOf, type Mutable } from "../shared/facts";
import type { PublicState, Result } from "./model";

// Every level writable: only this module's private copies are.
type Draft = Mutable<PublicState>;

function copy(s: PublicState): Draft {
  return {
    ...s,
    stackSizes: [...s.stackSizes],
    tiles: s.tiles.map((t) => ({ ...t })),
    followers: s.followers.map((f) => ({ ...f })),
    gate: s.gate === null ? null : { ...s.gate },
    front: s.front.map((w) => ({ ...w })),
    back: s.back.map((w) => ({ ...w })),
    towers: s.towers.map((t) => ({ ...t })),
    decision: { ...s.decision },
    player: s.player.map((p) => ({ ...p, scores: { ...p.scores } })),
  };
}

// null on success, else why the event does not fit.
type Step = string | null;

function placeFollower(s: Draft, e: FollowerPlaced): Step {
  return shared.placeFollower(s, e);
}

function returnFollower(s: Draft, e: FollowerReturned): Step {
  return shared.returnFollower(s, e);
}

function buildWall(s: Draft, e: WallBuilt): Step {
  if (e.end !== 0 && e.end !== 1) return `no wall end ${e.end}`;
  (e.end === 0 ? s.front : s.back).push({ x: e.x, y: e.y, side: e.side, guard: null });
  s.wallsLeft -= 1;
  return null;
}

function placeGuard(s: Draft, e: GuardPlaced): Step {
  const owner = seatOf(s, e.player);
  const piece = [...s.front, ...s.back].find(
    (w) => w.x === e.x && w.y === e.y && w.side === e.side,
  );
  if (owner === undefined || piece === undefined)
    return `no wall piece at (${e.x}, ${e.y}) side ${e.side}`;
  piece.guard = e.player;
  owner.followers -= 1;
  return null;
}

function placeTower(s: Draft, e: TowerPlaced): Step {
  const owner = seatOf(s, e.player);
  if (owner === undefined) return `no player ${e.player}`;
  s.towers.push({ player: e.player, end: e.end, position: e.position });
  owner.towers -= 1;
  owner.scores.towers += e.points;
  return null;
}

function scoreGuard(s: Draft, player: number, points: number): Step {
  const owner = seatOf(s, player);
  if (owner === undefined) return `no player ${player}`;
  owner.scores.guards += points;
  return null;
}

// The events that change the board or the counters; the others only inform displays.
function reduce(s: Draft, event: Event): Step {
  const k = event.kind;
  switch (k.case) {
    case "tileDrawn":
      s.tilesDrawn += 1;
      s.drawnTile = k.value.tile;
      return null;
    case "tileDiscarded":
      s.tilesDiscarded += 1;
      s.drawnTile = -1;
      return null;
    case "tilePlaced": {
      const { tile, x, y, rotation } = k.value;
      s.tiles.push({ tile, x, y, rotation });
      s.drawnTile = -1;
      return null;
    }
    case "followerPlaced":
      return placeFollower(s, k.value);
    case "featureScored":
      return addPoints(
        s,
        k.value.points,
        k.value.kind === FeatureKind.STREET ? "streets" : "markets",
      );
    case "followerReturned":
      return returnFollower(s, k.value);
    case "gatePlaced":
      s.gate = { x: k.value.x, y: k.value.y, side: k.value.side };
      return null;
    case "wallBuilt":
      return buildWall(s, k.value);
    case "chainClosed":
      s.chainClosed = true;
      return null;
    case "guardPlaced":
      return placeGuard(s, k.value);
    case "towerPlaced":
      return placeTower(s, k.value);
    case "stewardsScored":
      return addPoints(s, k.value.points, "stewards");
    case "guardScored":
      return scoreGuard(s, k.value.player, k.value.points);
    default:
      return reduceEnd(s, event);
  }
}

function reduceEnd(s: Draft, event: Event): Step {
  const k = event.kind;
  switch (k.case) {
    case "gameOver":
      s.end = k.value.condition;
      // The turn player is kept, as the engine does.
      s.decision = { actor: -2, kind: DecisionKind.NONE, turnPlayer: s.decision.turnPlayer };
      s.drawnTile = -1;
      return null;
    case "decisionRequested": {
      const d = decisionFromWire(k.value.decision);
      if (!validDecision(d, s.players)) return "a decision the engine does not ask";
      s.decision = d;
      return null;
    }
    case "stackStarted":
    case "wallPhaseBegun":
    case "wallRoundBegun":
    case "wallCompleted":
      return null;
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
