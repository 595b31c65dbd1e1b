// The parameters of The City's rules and the reasons a move is refused.
#pragma once

#include <array>
#include <cstdint>

namespace carc::city {

// Counts that the rulebook fixes (R1-R3). The defaults are the published game; tests use
// smaller stacks with small tile sets to reach late-game positions quickly.
struct Config {
  int players = 4;
  std::array<int, 3> stack_sizes = {30, 25, 20};  // R2: the tile set must hold their sum
  int walls = 70;                                 // R2
  int towers_total = 12;                          // R3: split evenly among the players
  int followers = 7;                              // R1: 8 each, one of them marks the score
  int closing_distance = 5;                       // R24: the game ends at this distance or less
  friend bool operator==(const Config&, const Config&) = default;
};

// Why Game::Apply refused an action. The game is unchanged after any of these.
enum class Error : uint8_t {
  kGameOver,              // the game has ended
  kWrongPlayer,           // the actor is not the one who must decide now
  kWrongPhase,            // the action does not answer the current decision
  kMalformed,             // a field is out of range (rotation, side, end, tile id)
  kNotNextTile,           // a draw names another tile than the next one of the stacks
  kOutOfBounds,           // the cell is beyond the board's reach
  kNotAtOrigin,           // R5: the first tile goes to (0, 0)
  kCellOccupied,          // a tile lies there already
  kNoNeighbour,           // R6: the tile would touch no placed tile along a full side
  kStreetNotContinued,    // R6: a street meets a side without street, or the reverse
  kBeyondWall,            // R8: the cell lies just outside a wall piece or the gate
  kWallSurrounded,        // R8: the tile would cut a wall's outside off from the open land
  kNoSuchFeature,         // the tile just placed has no feature with that index
  kNoFollowerLeft,        // the player's supply is empty
  kFeatureOccupied,       // R10: the joined feature already holds a follower
  kFeatureJustCompleted,  // R11: the tile completes that street or market
  kNotOnOutline,          // R19: the gate must lie between a tile and the open land
  kNotAWallEnd,           // R19/R23: the end must be the front (0) or back (1) of the chain
  kGuardOpposite,         // R22: the opposite wall piece holds a guard with no gap between
  kNoTowerLeft,           // R23: the player has no tower left
  kTowerEndTaken,         // R23: that end already holds a tower
};

const char* ToString(Error error);
// A sentence for people, e.g. for a client's error message.
const char* Describe(Error error);

enum class EndCondition : uint8_t {
  kNone,
  kLastWallBuilt,     // R24: the wall supply ran out
  kLastTilePlaced,    // R24/R7: no tile left to draw
  kWallNearlyClosed,  // R24: the unwalled outline between the chain's ends is short enough
  kWallClosed,        // R24: the chain closed on itself
};
const char* ToString(EndCondition condition);

// Sources of points, for the final breakdown.
enum Source : uint8_t { kStreets, kMarkets, kTowers, kStewards, kGuards, kSourceCount };
const char* ToString(Source source);

}  // namespace carc::city
