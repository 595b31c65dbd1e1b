// Names of the engine's enumerations, for people, logs and text formats.
#include <type_traits>

#include "city/action.h"
#include "city/event.h"
#include "city/rules.h"

namespace carc::city {

const char* ToString(ActionKind kind) {
  switch (kind) {
    case ActionKind::kDraw:
      return "draw";
    case ActionKind::kPlaceTile:
      return "place";
    case ActionKind::kPlaceFollower:
      return "follower";
    case ActionKind::kSkipFollower:
      return "follower none";
    case ActionKind::kPlaceGate:
      return "gate";
    case ActionKind::kBuildWall:
      return "wall";
    case ActionKind::kPlaceGuard:
      return "guard yes";
    case ActionKind::kSkipGuard:
      return "guard no";
    case ActionKind::kPlaceTower:
      return "tower";
    case ActionKind::kSkipTower:
      return "tower none";
  }
  return "?";
}

const char* ToString(DecisionKind kind) {
  switch (kind) {
    case DecisionKind::kDrawTile:
      return "draw_tile";
    case DecisionKind::kPlaceTile:
      return "place_tile";
    case DecisionKind::kPlaceFollower:
      return "place_follower";
    case DecisionKind::kPlaceGate:
      return "place_gate";
    case DecisionKind::kBuildWall:
      return "build_wall";
    case DecisionKind::kPlaceGuard:
      return "place_guard";
    case DecisionKind::kPlaceTower:
      return "place_tower";
    case DecisionKind::kNone:
      return "none";
  }
  return "?";
}

const char* ToString(Error error) {
  switch (error) {
    case Error::kGameOver:
      return "game_over";
    case Error::kWrongPlayer:
      return "wrong_player";
    case Error::kWrongPhase:
      return "wrong_phase";
    case Error::kMalformed:
      return "malformed";
    case Error::kNotNextTile:
      return "not_next_tile";
    case Error::kOutOfBounds:
      return "out_of_bounds";
    case Error::kNotAtOrigin:
      return "not_at_origin";
    case Error::kCellOccupied:
      return "cell_occupied";
    case Error::kNoNeighbour:
      return "no_neighbour";
    case Error::kStreetNotContinued:
      return "street_not_continued";
    case Error::kBeyondWall:
      return "beyond_wall";
    case Error::kWallSurrounded:
      return "wall_surrounded";
    case Error::kNoSuchFeature:
      return "no_such_feature";
    case Error::kNoFollowerLeft:
      return "no_follower_left";
    case Error::kFeatureOccupied:
      return "feature_occupied";
    case Error::kFeatureJustCompleted:
      return "feature_just_completed";
    case Error::kNotOnOutline:
      return "not_on_outline";
    case Error::kNotAWallEnd:
      return "not_a_wall_end";
    case Error::kGuardOpposite:
      return "guard_opposite";
    case Error::kNoTowerLeft:
      return "no_tower_left";
    case Error::kTowerEndTaken:
      return "tower_end_taken";
  }
  return "?";
}

const char* Describe(Error error) {
  switch (error) {
    case Error::kGameOver:
      return "the game is over";
    case Error::kWrongPlayer:
      return "it is not this player's decision";
    case Error::kWrongPhase:
      return "this action does not answer the current decision";
    case Error::kMalformed:
      return "a field of the action is out of range";
    case Error::kNotNextTile:
      return "that is not the next tile of the stacks";
    case Error::kOutOfBounds:
      return "that cell is beyond the board's reach";
    case Error::kNotAtOrigin:
      return "the first tile must be placed at (0, 0)";
    case Error::kCellOccupied:
      return "a tile already lies on that cell";
    case Error::kNoNeighbour:
      return "the tile must share a full side with a placed tile";
    case Error::kStreetNotContinued:
      return "streets must continue: a street side must meet a street side, and only one";
    case Error::kBeyondWall:
      return "that cell lies beyond the city wall";
    case Error::kWallSurrounded:
      return "the tile would cut the outside of the wall off from the open land";
    case Error::kNoSuchFeature:
      return "the tile has no such feature";
    case Error::kNoFollowerLeft:
      return "the player has no follower left in the supply";
    case Error::kFeatureOccupied:
      return "that feature already holds a follower";
    case Error::kFeatureJustCompleted:
      return "no follower may go on a street or market that the tile completes";
    case Error::kNotOnOutline:
      return "the gate must lie on a side between a city tile and the open land";
    case Error::kNotAWallEnd:
      return "the end must be the front or the back of the wall";
    case Error::kGuardOpposite:
      return "the wall piece opposite already holds a guard";
    case Error::kNoTowerLeft:
      return "the player has no tower left";
    case Error::kTowerEndTaken:
      return "that end of the wall already holds a tower";
  }
  return "?";
}

const char* ToString(EndCondition condition) {
  switch (condition) {
    case EndCondition::kNone:
      return "none";
    case EndCondition::kLastWallBuilt:
      return "last_wall_built";
    case EndCondition::kLastTilePlaced:
      return "last_tile_placed";
    case EndCondition::kWallNearlyClosed:
      return "wall_nearly_closed";
    case EndCondition::kWallClosed:
      return "wall_closed";
  }
  return "?";
}

const char* ToString(Source source) {
  switch (source) {
    case kStreets:
      return "streets";
    case kMarkets:
      return "markets";
    case kTowers:
      return "towers";
    case kStewards:
      return "stewards";
    case kGuards:
      return "guards";
    case kSourceCount:
      break;
  }
  return "?";
}

const char* ToString(ScoreCause cause) {
  switch (cause) {
    case ScoreCause::kTile:
      return "tile";
    case ScoreCause::kWall:
      return "wall";
    case ScoreCause::kClosingWall:
      return "closing_wall";
  }
  return "?";
}

const char* EventName(const Event& event) {
  return std::visit(
      [](const auto& e) -> const char* {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, TileDrawn>) return "tile_drawn";
        if constexpr (std::is_same_v<T, StackStarted>) return "stack_started";
        if constexpr (std::is_same_v<T, WallPhaseBegun>) return "wall_phase_begun";
        if constexpr (std::is_same_v<T, TileDiscarded>) return "tile_discarded";
        if constexpr (std::is_same_v<T, TilePlaced>) return "tile_placed";
        if constexpr (std::is_same_v<T, FollowerPlaced>) return "follower_placed";
        if constexpr (std::is_same_v<T, FeatureScored>) return "feature_scored";
        if constexpr (std::is_same_v<T, FollowerReturned>) return "follower_returned";
        if constexpr (std::is_same_v<T, WallRoundBegun>) return "wall_round_begun";
        if constexpr (std::is_same_v<T, GatePlaced>) return "gate_placed";
        if constexpr (std::is_same_v<T, WallBuilt>) return "wall_built";
        if constexpr (std::is_same_v<T, ChainClosed>) return "chain_closed";
        if constexpr (std::is_same_v<T, GuardPlaced>) return "guard_placed";
        if constexpr (std::is_same_v<T, TowerPlaced>) return "tower_placed";
        if constexpr (std::is_same_v<T, WallCompleted>) return "wall_completed";
        if constexpr (std::is_same_v<T, StewardsScored>) return "stewards_scored";
        if constexpr (std::is_same_v<T, GuardScored>) return "guard_scored";
        if constexpr (std::is_same_v<T, GameOver>) return "game_over";
        if constexpr (std::is_same_v<T, DecisionRequested>) return "decision_requested";
        return "?";
      },
      event);
}

}  // namespace carc::city
