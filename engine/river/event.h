// Everything that changes in a game of Carcassonne is reported as an event.
//
// Game::Apply appends the events an action caused, in order. A client that starts from the
// initial public state and reduces the events (PublicState::Apply) holds the same public state as
// the engine. Events never reveal the order of the tiles still to be drawn.
#pragma once

#include <array>
#include <cstdint>
#include <variant>

#include "core/board.h"
#include "core/tileset.h"
#include "river/action.h"
#include "river/rules.h"

namespace carc::river {

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
  core::FeatureKind role;  // road: thief, city: knight, monastery: monk, field: farmer
};
// A road, city or monastery scored: completed during the game, or incomplete at its end.
// `points` per player (all zero if nobody held it).
struct FeatureScored {
  core::FeatureKind kind;
  int8_t x, y;      // one tile of the feature (the earliest placed) ...
  uint8_t feature;  // ... and the feature's index on it
  uint8_t tiles;    // tiles of the road or city; the monastery's tile and its neighbours
  uint8_t pennants;
  bool complete;  // false: the final scoring of an incomplete feature
  Points points;
};
struct FollowerReturned {
  uint8_t player;
  int8_t x, y;
  uint8_t feature;
};
// The final scoring of one field that holds farmers: 3 points per completed city it touches.
struct FieldScored {
  int8_t x, y;
  uint8_t feature;  // one tile and feature of the field
  uint8_t cities;   // completed cities it touches
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
                           FollowerReturned, FieldScored, GameOver, DecisionRequested>;

// The name of an event's type, e.g. "tile_placed".
const char* EventName(const Event& event);
// The words this game uses for a feature kind: "road" (not "street"), "city", ...
const char* KindName(core::FeatureKind kind);
// What a follower is called on a feature of that kind: "thief", "knight", "monk", "farmer".
const char* RoleName(core::FeatureKind kind);

}  // namespace carc::river
