// Names of the game's enumerations, for people, logs and text formats.
#include <type_traits>

#include "river/action.h"
#include "river/event.h"
#include "river/rules.h"

namespace carc::river {

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
    case Error::kCellOccupied:
      return "cell_occupied";
    case Error::kNoNeighbour:
      return "no_neighbour";
    case Error::kSidesDoNotMatch:
      return "sides_do_not_match";
    case Error::kRiverNotContinued:
      return "river_not_continued";
    case Error::kRiverUTurn:
      return "river_u_turn";
    case Error::kNoSuchFeature:
      return "no_such_feature";
    case Error::kOnTheRiver:
      return "on_the_river";
    case Error::kNoFollowerLeft:
      return "no_follower_left";
    case Error::kFeatureOccupied:
      return "feature_occupied";
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
      return "that is not the next tile";
    case Error::kOutOfBounds:
      return "that cell is beyond the board's reach";
    case Error::kCellOccupied:
      return "a tile already lies on that cell";
    case Error::kNoNeighbour:
      return "the tile must share a full side with a placed tile";
    case Error::kSidesDoNotMatch:
      return "every side must continue its neighbour's: city to city, road to road, field to "
             "field, river to river";
    case Error::kRiverNotContinued:
      return "a River tile must continue the river at its open end";
    case Error::kRiverUTurn:
      return "the river may not bend twice in a row in the same direction";
    case Error::kNoSuchFeature:
      return "the tile has no such feature";
    case Error::kOnTheRiver:
      return "no follower may stand on the river";
    case Error::kNoFollowerLeft:
      return "the player has no follower left in the supply";
    case Error::kFeatureOccupied:
      return "that road, city or field already holds a follower";
  }
  return "?";
}

const char* ToString(Source source) {
  switch (source) {
    case kRoads:
      return "roads";
    case kCities:
      return "cities";
    case kMonasteries:
      return "monasteries";
    case kFields:
      return "fields";
    case kSourceCount:
      break;
  }
  return "?";
}

const char* KindName(core::FeatureKind kind) {
  switch (kind) {
    case core::FeatureKind::kStreet:
      return "road";
    case core::FeatureKind::kCity:
      return "city";
    case core::FeatureKind::kField:
      return "field";
    case core::FeatureKind::kMonastery:
      return "monastery";
    case core::FeatureKind::kRiver:
      return "river";
    case core::FeatureKind::kResidential:
    case core::FeatureKind::kMarket:
    case core::FeatureKind::kTower:
    case core::FeatureKind::kHouse:
    case core::FeatureKind::kCourt:
      break;
  }
  return "?";
}

const char* RoleName(core::FeatureKind kind) {
  switch (kind) {
    case core::FeatureKind::kStreet:
      return "thief";
    case core::FeatureKind::kCity:
      return "knight";
    case core::FeatureKind::kField:
      return "farmer";
    case core::FeatureKind::kMonastery:
      return "monk";
    default:
      return "?";
  }
}

const char* EventName(const Event& event) {
  return std::visit(
      [](const auto& e) -> const char* {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, TileDrawn>) return "tile_drawn";
        if constexpr (std::is_same_v<T, TileDiscarded>) return "tile_discarded";
        if constexpr (std::is_same_v<T, TilePlaced>) return "tile_placed";
        if constexpr (std::is_same_v<T, FollowerPlaced>) return "follower_placed";
        if constexpr (std::is_same_v<T, FeatureScored>) return "feature_scored";
        if constexpr (std::is_same_v<T, FollowerReturned>) return "follower_returned";
        if constexpr (std::is_same_v<T, FieldScored>) return "field_scored";
        if constexpr (std::is_same_v<T, GameOver>) return "game_over";
        if constexpr (std::is_same_v<T, DecisionRequested>) return "decision_requested";
        return "?";
      },
      event);
}

}  // namespace carc::river
