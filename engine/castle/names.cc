// Names of the game's enumerations, for people, logs and text formats.
#include <type_traits>

#include "castle/action.h"
#include "castle/event.h"
#include "castle/rules.h"

namespace carc::castle {

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
    case ActionKind::kScore:
      return "score";
    case ActionKind::kScoreDoubled:
      return "score double";
    case ActionKind::kExtraTurn:
      return "extra-turn yes";
    case ActionKind::kEndTurn:
      return "extra-turn no";
    case ActionKind::kUseWallTile:
      return "walltile";
    case ActionKind::kSkipWallTile:
      return "walltile none";
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
    case DecisionKind::kScoreNext:
      return "score_next";
    case DecisionKind::kExtraTurn:
      return "extra_turn";
    case DecisionKind::kWallTile:
      return "wall_tile";
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
    case Error::kOutsideCastle:
      return "outside_castle";
    case Error::kCellOccupied:
      return "cell_occupied";
    case Error::kNoNeighbour:
      return "no_neighbour";
    case Error::kPathNotContinued:
      return "path_not_continued";
    case Error::kNoSuchFeature:
      return "no_such_feature";
    case Error::kNoFollowerLeft:
      return "no_follower_left";
    case Error::kFeatureOccupied:
      return "feature_occupied";
    case Error::kNotPending:
      return "not_pending";
    case Error::kNoWallTile:
      return "no_wall_tile";
    case Error::kNotEligible:
      return "not_eligible";
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
    case Error::kOutsideCastle:
      return "tiles lie on the squares inside the castle wall";
    case Error::kCellOccupied:
      return "a tile already lies on that square";
    case Error::kNoNeighbour:
      return "the tile must share a full side with a placed tile or a start space";
    case Error::kPathNotContinued:
      return "a path must be continued by a path on the next tile or start space";
    case Error::kNoSuchFeature:
      return "the tile has no such feature";
    case Error::kNoFollowerLeft:
      return "the player has no follower left in the supply";
    case Error::kFeatureOccupied:
      return "that path, tower, house or court already holds a follower";
    case Error::kNotPending:
      return "that feature is not one that scores next";
    case Error::kNoWallTile:
      return "the player holds no such wall tile that may be used now";
    case Error::kNotEligible:
      return "that wall tile does not apply there: it needs more followers there than the "
             "opponent's";
  }
  return "?";
}

const char* ToString(Source source) {
  switch (source) {
    case kPaths:
      return "paths";
    case kTowers:
      return "towers";
    case kHouses:
      return "houses";
    case kCourts:
      return "courts";
    case kKeep:
      return "keep";
    case kWallTiles:
      return "wall_tiles";
    case kSourceCount:
      break;
  }
  return "?";
}

const char* ToString(WallTile tile) {
  switch (tile) {
    case WallTile::kNone:
      return "none";
    case WallTile::kExtraTurn:
      return "extra-turn";
    case WallTile::kDoubleTower:
      return "double-tower";
    case WallTile::kDoubleHouse:
      return "double-house";
    case WallTile::kUnfinishedPath:
      return "unfinished-path";
    case WallTile::kUnfinishedTower:
      return "unfinished-tower";
    case WallTile::kUnfinishedHouse:
      return "unfinished-house";
    case WallTile::kMarkets:
      return "markets";
    case WallTile::kLargerKeep:
      return "larger-keep";
    case WallTile::kFivePoints:
      return "five-points";
  }
  return "?";
}

const char* Describe(WallTile tile) {
  switch (tile) {
    case WallTile::kNone:
      return "no wall tile";
    case WallTile::kExtraTurn:
      return "take another turn";
    case WallTile::kDoubleTower:
      return "a completed tower scores double (4 points per tile)";
    case WallTile::kDoubleHouse:
      return "a completed house scores double (2 points per tile)";
    case WallTile::kUnfinishedPath:
      return "at the end, an unfinished path scores 1 point per tile (2 with a fountain)";
    case WallTile::kUnfinishedTower:
      return "at the end, an unfinished tower scores 2 points per tile";
    case WallTile::kUnfinishedHouse:
      return "at the end, an unfinished house scores 1 point per tile";
    case WallTile::kMarkets:
      return "at the end, a court scores 4 points per market instead of 3";
    case WallTile::kLargerKeep:
      return "at the end, the keep counts 2 tiles larger";
    case WallTile::kFivePoints:
      return "at the end, 5 points";
  }
  return "?";
}

const char* KindName(core::FeatureKind kind) {
  switch (kind) {
    case core::FeatureKind::kStreet:
      return "path";
    case core::FeatureKind::kTower:
      return "tower";
    case core::FeatureKind::kHouse:
      return "house";
    case core::FeatureKind::kCourt:
      return "court";
    default:
      return "?";
  }
}

const char* RoleName(core::FeatureKind kind) {
  switch (kind) {
    case core::FeatureKind::kStreet:
      return "herald";
    case core::FeatureKind::kTower:
      return "knight";
    case core::FeatureKind::kHouse:
      return "squire";
    case core::FeatureKind::kCourt:
      return "merchant";
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
        if constexpr (std::is_same_v<T, KeepPlaced>) return "keep_placed";
        if constexpr (std::is_same_v<T, WallTileTaken>) return "wall_tile_taken";
        if constexpr (std::is_same_v<T, WallTileUsed>) return "wall_tile_used";
        if constexpr (std::is_same_v<T, KeepScored>) return "keep_scored";
        if constexpr (std::is_same_v<T, GameOver>) return "game_over";
        if constexpr (std::is_same_v<T, DecisionRequested>) return "decision_requested";
        return "?";
      },
      event);
}

}  // namespace carc::castle
