// The parameters of Carcassonne's rules (with or without the River) and the reasons a move is
// refused.
#pragma once

#include <cstdint>

namespace carc::river {

// Counts and options that the rulebook fixes. The defaults are the published game with the River.
struct Config {
  int players = 2;    // 2 to 5
  bool river = true;  // play the River: the spring replaces the start tile, river tiles first
  int followers = 7;  // 8 each, one of them marks the score
  friend bool operator==(const Config&, const Config&) = default;
};

// Why Game::Apply refused an action. The game is unchanged after any of these.
enum class Error : uint8_t {
  kGameOver,           // the game has ended
  kWrongPlayer,        // the actor is not the one who must decide now
  kWrongPhase,         // the action does not answer the current decision
  kMalformed,          // a field is out of range (rotation, tile id) or unused by the action
  kNotNextTile,        // a draw names another tile than the next one
  kOutOfBounds,        // the cell is beyond the board's reach
  kCellOccupied,       // a tile lies there already
  kNoNeighbour,        // the tile would touch no placed tile along a full side
  kSidesDoNotMatch,    // a side would meet a different side: city, road, field and river continue
  kRiverNotContinued,  // a River tile must continue the river at its open end
  kRiverUTurn,         // two bends of the river in the same direction, one after the other
  kNoSuchFeature,      // the tile just placed has no feature with that index
  kOnTheRiver,         // no follower may stand on the river
  kNoFollowerLeft,     // the player's supply is empty
  kFeatureOccupied,    // the road, city or field joined holds a follower already
};

const char* ToString(Error error);
// A sentence for people, e.g. for a client's error message.
const char* Describe(Error error);

// Sources of points, for the final breakdown.
enum Source : uint8_t { kRoads, kCities, kMonasteries, kFields, kSourceCount };
const char* ToString(Source source);

}  // namespace carc::river
