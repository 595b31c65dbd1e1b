// Everything that changes in a game of The Castle is reported as an event.
//
// Game::Apply appends the events an action caused, in order. A client that starts from the
// initial public state and reduces the events (PublicState::Apply) holds the same public state as
// the engine. Events never reveal the order of the tiles still to be drawn, nor a wall tile
// before a player takes it.
#pragma once

#include <array>
#include <cstdint>
#include <variant>

#include "castle/action.h"
#include "castle/rules.h"
#include "core/board.h"
#include "core/tileset.h"

namespace carc::castle {

using core::kMaxPlayers;
using Points = std::array<int16_t, kMaxPlayers>;

struct TileDrawn {
  uint8_t tile;
};
// The tile fits nowhere: it goes back to the box and the same player draws again.
struct TileDiscarded {
  uint8_t tile;
};
struct TilePlaced {
  uint8_t player, tile;
  int8_t x, y;
  uint8_t rotation;
};
struct FollowerPlaced {
  uint8_t player;
  int8_t x, y;             // the tile
  uint8_t feature;         // index of the feature on that tile
  core::FeatureKind role;  // path: herald, tower: knight, house: squire, court: merchant
};
// A path, tower or house scored when completed; a court at the game's end; a path, tower or
// house at the game's end with a wall tile 4-6. `points` per player (all zero when nobody has
// more followers on it than the others).
struct FeatureScored {
  core::FeatureKind kind;
  int8_t x, y;      // the feature's first tile (the earliest placed) ...
  uint8_t feature;  // ... and the feature's index on it
  uint8_t tiles;    // tiles of the feature, start spaces counted as tiles
  uint8_t symbols;  // fountains on a path, markets on a court
  bool complete;    // false: scored at the game's end
  uint8_t wall;     // the wall tile that changed the score (0: none)
  Points points;
};
struct FollowerReturned {
  uint8_t player;
  int8_t x, y;
  uint8_t feature;
};
// A player's keep stands on a house (the first one scored, or a larger one).
struct KeepPlaced {
  uint8_t player;
  int8_t x, y;
  uint8_t feature;
  uint8_t size;  // the house's tiles
};
// A scoring marker ended on a corner tower that held a wall tile: its player takes it, face up.
struct WallTileTaken {
  uint8_t player;
  uint8_t corner;  // the corner tower, numbered along the track from the one at 0
  uint8_t wall;    // the wall tile's number
};
// A player used a wall tile. Tiles 2-7 also change a FeatureScored; 1 gives another turn; 8
// enlarges the keep; 9 scores `points`.
struct WallTileUsed {
  uint8_t player;
  uint8_t wall;
  int16_t points;
};
// The final scoring of the keeps: the largest empty area inside the wall, in squares, scores for
// the player with the largest keep (none when tied).
struct KeepScored {
  uint8_t area;
  std::array<uint8_t, kMaxPlayers> sizes;  // each player's keep, wall tile 8 included
  Points points;
};
struct GameOver {
  std::array<std::array<int16_t, kSourceCount>, kMaxPlayers> scores;
  uint8_t winners;  // bit per player
};
// The next decision, after every action that did not end the game.
struct DecisionRequested {
  Decision decision;
  uint8_t turn_player;
};

using Event = std::variant<TileDrawn, TileDiscarded, TilePlaced, FollowerPlaced, FeatureScored,
                           FollowerReturned, KeepPlaced, WallTileTaken, WallTileUsed, KeepScored,
                           GameOver, DecisionRequested>;

// The name of an event's type, e.g. "tile_placed".
const char* EventName(const Event& event);
// The words this game uses for a feature kind: "path", "tower", "house", "court".
const char* KindName(core::FeatureKind kind);
// What a follower is called on a feature of that kind: "herald", "knight", "squire", "merchant".
const char* RoleName(core::FeatureKind kind);

}  // namespace carc::castle
