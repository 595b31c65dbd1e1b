// The pure reducer of Carcassonne's events, exactly as the engine's river::PublicState::Apply
// (engine/river/public_state.cc).
//
// applyEvent and applyEvents never change the state they are given: they copy it once, apply the
// events to the copy and return it. An event that does not fit the state (a player out of range,
// a follower that is not there, points for the wrong number of seats, an empty event) is bad
// input from the server: the result is an error and the caller's state stays as it was, so the
// client can resynchronise.
import type { Event, FollowerPlaced, FollowerReturned } from "../../gen/carcassonne/river/v1/river_pb";
import { DecisionKind, FeatureKind } from "../../gen/carcassonne/river/v1/river_pb";
import { decisionFromWire, MAX_FEATURES_PER_TILE, MAX_TILES, validCoordinate, validDecision } from "./convert";
import * as shared from "../shared/facts";
import { addPoints, applyAll, seatOf, type Mutable } from "../shared/facts";
import type { PublicState, Result, Scores } from "./model";

// Every level writable: only this module's private copies are.
type Draft = Mutable<PublicState>;

function copy(s: PublicState): Draft {
  return {
    ...s,
    tiles: s.tiles.map((t) => ({ ...t })),
    followers: s.followers.map((f) => ({ ...f })),
    decision: { ...s.decision },
    player: s.player.map((p) => ({ ...p, scores: { ...p.scores } })),
  };
}

// null on success, else why the event does not fit.
type Step = string | null;

// The source a scored feature's points go to (SourceOfKind).
const SOURCE_OF_KIND: Record<number, keyof Scores> = {
  [FeatureKind.ROAD]: "roads",
  [FeatureKind.CITY]: "cities",
  [FeatureKind.MONASTERY]: "monasteries",
  [FeatureKind.FIELD]: "fields",
};

function validSpot(x: number, y: number, feature: number): boolean {
  return validCoordinate(x) && validCoordinate(y) && feature < MAX_FEATURES_PER_TILE;
}

function placeFollower(s: Draft, e: FollowerPlaced): Step {
  return shared.placeFollower(s, e, () => {
    if (SOURCE_OF_KIND[e.role] === undefined) return `no follower role ${e.role}`;
    if (!validSpot(e.x, e.y, e.feature)) return `no feature ${e.feature} at (${e.x}, ${e.y})`;
    return null;
  });
}

function returnFollower(s: Draft, e: FollowerReturned): Step {
  return shared.returnFollower(s, e);
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
    case "followerPlaced":
      return placeFollower(s, k.value);
    case "featureScored": {
      const source = SOURCE_OF_KIND[k.value.kind];
      return source === undefined ? `no feature kind ${k.value.kind}` : addPoints(s, k.value.points, source);
    }
    case "followerReturned":
      return returnFollower(s, k.value);
    case "fieldScored":
      return addPoints(s, k.value.points, "fields");
    case "gameOver":
      if (k.value.scores.length !== s.players) return `${k.value.scores.length} scores for ${s.players} players`;
      if (k.value.winners >= 1 << s.players) return `winners ${k.value.winners} beyond the seats`;
      // The turn player is kept, as the engine does.
      s.decision = { actor: -2, kind: DecisionKind.NONE, turnPlayer: s.decision.turnPlayer };
      s.drawnTile = -1;
      s.over = true;
      return null;
    case "decisionRequested": {
      const d = decisionFromWire(k.value.decision);
      if (!validDecision(d, s.players)) return "a decision the engine does not ask";
      s.decision = d;
      return null;
    }
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
