// Everything that changes in a game of The City is reported as an event.
//
// Game::Apply appends the events an action caused, in order. A client that starts from the
// initial public state and reduces the events (PublicState::Apply) holds the same public state
// as the engine. Events never reveal the order of the stacks.
#pragma once

#include <array>
#include <cstdint>
#include <variant>

#include "city/action.h"
#include "city/rules.h"
#include "core/board.h"
#include "core/tileset.h"

namespace carc::city {

using core::kMaxPlayers;
using Points = std::array<int16_t, kMaxPlayers>;

// Why a street or market was scored.
enum class ScoreCause : uint8_t { kTile, kWall, kClosingWall };

struct TileDrawn {
  uint8_t tile;
  uint8_t stack;  // 1, 2 or 3
};
struct StackStarted {
  uint8_t stack;  // 2 or 3: the first tile was just drawn from it
};
struct WallPhaseBegun {};  // R16: the first tile of stack 2 was drawn
struct TileDiscarded {
  uint8_t tile;  // R7: it fits nowhere
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
  core::FeatureKind role;  // street: citizen, market: seller, residential: steward
};
// A street or market was completed; `points` per player (all zero if nobody held it).
struct FeatureScored {
  core::FeatureKind kind;
  int8_t x, y;      // one tile of the feature (the earliest placed) ...
  uint8_t feature;  // ... and the feature's index on it
  uint8_t tiles;
  uint8_t market_kinds;  // number of different kinds (markets)
  ScoreCause cause;
  Points points;
};
struct FollowerReturned {
  uint8_t player;
  int8_t x, y;
  uint8_t feature;
  bool scored;  // false: removed unscored from an incomplete feature at the end (R26)
};
struct WallRoundBegun {
  uint8_t scorer;
  uint8_t pieces;  // pieces planned for the round (the gate included); fewer if walls run out
};
struct GatePlaced {
  uint8_t player;
  int8_t x, y;  // the tile inside
  uint8_t side;
};
struct WallBuilt {
  uint8_t player;
  int8_t x, y;
  uint8_t side;
  uint8_t end;  // kFrontEnd or kBackEnd
};
struct ChainClosed {};
struct GuardPlaced {
  uint8_t player;
  int8_t x, y;
  uint8_t side;
};
struct TowerPlaced {
  uint8_t player;
  uint8_t end;
  uint8_t position;  // pieces on that end's side of the gate when it was placed
  int16_t points;
};
struct WallCompleted {
  uint8_t sides;  // R26: sides of the outline taken as walled at the end
};
struct StewardsScored {
  int8_t x, y;
  uint8_t feature;  // one tile and feature of the residential area
  uint8_t markets;  // different markets touching it
  Points points;
};
struct GuardScored {
  uint8_t player;
  int8_t x, y;
  uint8_t side;  // the wall piece
  uint8_t public_buildings, historic_buildings;
  int16_t points;
};
struct GameOver {
  EndCondition condition;
  uint8_t conditions;  // bit per EndCondition that held
  std::array<std::array<int16_t, kSourceCount>, kMaxPlayers> scores;
  uint8_t winners;  // bit per player
};
// The next decision, after every action that did not end the game.
struct DecisionRequested {
  Decision decision;
  uint8_t turn_player;
};

using Event = std::variant<TileDrawn, StackStarted, WallPhaseBegun, TileDiscarded, TilePlaced,
                           FollowerPlaced, FeatureScored, FollowerReturned, WallRoundBegun,
                           GatePlaced, WallBuilt, ChainClosed, GuardPlaced, TowerPlaced,
                           WallCompleted, StewardsScored, GuardScored, GameOver, DecisionRequested>;

const char* ToString(ScoreCause cause);  // "tile", "wall", "closing_wall"

// The name of an event's type, e.g. "tile_placed".
const char* EventName(const Event& event);

}  // namespace carc::city
