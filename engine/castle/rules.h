// The parameters of The Castle's rules, the reasons a move is refused, the sources of points and
// the wall tiles.
#pragma once

#include <cstdint>
#include <memory>

namespace carc::castle {

class Layout;

// Counts the rule book fixes (two players, seven followers each, one of which marks the score)
// and the board the game is played on (layout.h; the one compiled in when none is given).
struct Config {
  int players = 2;
  int followers = 6;
  std::shared_ptr<const Layout> layout;
  friend bool operator==(const Config&, const Config&) = default;
};

// Why Game::Apply refused an action. The game is unchanged after any of these.
enum class Error : uint8_t {
  kGameOver,          // the game has ended
  kWrongPlayer,       // the actor is not the one who must decide now
  kWrongPhase,        // the action does not answer the current decision
  kMalformed,         // a field is out of range or unused by the action
  kNotNextTile,       // a draw names another tile than the next one
  kOutsideCastle,     // the cell is not one of the squares inside the castle wall
  kCellOccupied,      // a tile lies there already
  kNoNeighbour,       // the tile would touch neither a placed tile nor a start space along a side
  kPathNotContinued,  // a path would meet a side without a path, or the other way round
  kNoSuchFeature,     // the tile just placed has no feature with that index
  kNoFollowerLeft,    // the player's supply is empty
  kFeatureOccupied,   // the feature joined holds a follower already
  kNotPending,        // that feature is not one the turn scores next
  kNoWallTile,        // the player holds no wall tile of that kind that may be used now
  kNotEligible,       // the wall tile's effect does not apply to that feature
};

const char* ToString(Error error);
// A sentence for people, e.g. for a client's error message.
const char* Describe(Error error);

// Sources of points, for the final breakdown.
enum Source : uint8_t { kPaths, kTowers, kHouses, kCourts, kKeep, kWallTiles, kSourceCount };
const char* ToString(Source source);

// The wall tiles, by their number in the rule book (docs/rules.md, "The Castle").
enum class WallTile : uint8_t {
  kNone = 0,
  kExtraTurn = 1,        // another complete turn, during the game
  kDoubleTower = 2,      // a completed tower scores 4 points per tile
  kDoubleHouse = 3,      // a completed house scores 2 points per tile
  kUnfinishedPath = 4,   // at the end: 1 point per tile (2 with a fountain) for a path
  kUnfinishedTower = 5,  // at the end: 2 points per tile for a tower
  kUnfinishedHouse = 6,  // at the end: 1 point per tile for a house
  kMarkets = 7,          // at the end: 4 points per market on a court instead of 3
  kLargerKeep = 8,       // at the end: the keep counts 2 tiles larger
  kFivePoints = 9,       // at the end: 5 points
};
inline constexpr int kWallTileKinds = 10;  // indices 1..9 are used
// A short name, e.g. "double-tower" (the one the board file and the notation use).
const char* ToString(WallTile tile);
// What it does, in words for people.
const char* Describe(WallTile tile);

}  // namespace carc::castle
