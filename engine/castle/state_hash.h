// The public-state hash of The Castle.
//
// A game's hash is the XOR of one key per fact of its public state (a tile on a cell, a follower
// on a feature) and one key for the rest (scores, supplies, keeps, wall tiles held, used and
// left on the wall, counters, the pending decision). Facts are toggled in and out as they
// change, so the engine keeps the hash up to date cheaply; a client computes the same number
// from its own view.
// Neither the order of the tiles still to be drawn nor the face-down wall tiles are hashed.
#pragma once

#include <array>
#include <cstdint>

#include "castle/action.h"
#include "castle/rules.h"
#include "core/board.h"
#include "core/hash.h"

namespace carc::castle {

inline uint64_t U(int v) { return static_cast<uint64_t>(static_cast<int64_t>(v)); }

// Domains distinct from the other games', so their hashes never share keys.
inline uint64_t TileFact(int tile, int x, int y, int rotation) {
  return core::FactKey(31, U(tile), U(x), U(y), U(rotation));
}
inline uint64_t FollowerFact(int player, int x, int y, int feature) {
  return core::FactKey(32, U(player), U(x), U(y), U(feature));
}

// A player's keep: the house it stands on (size 0: no keep yet).
struct Keep {
  int size = 0;
  int x = 0, y = 0, feature = 0;
  friend bool operator==(const Keep&, const Keep&) = default;
};

struct PlayerCounters {
  std::array<int, kSourceCount> score{};
  int followers = 0;
  Keep keep;
  // Wall tiles held face up, by number; `fresh` of them were taken this turn and wait for the
  // player's next turn. `used` ones have left the game.
  std::array<uint8_t, kWallTileKinds> wall_tiles{};
  std::array<uint8_t, kWallTileKinds> fresh{};
  std::array<uint8_t, kWallTileKinds> used{};
  int Total() const {
    int total = 0;
    for (int s : score) total += s;
    return total;
  }
  // The space of the scoring track the player's marker stands on.
  int Position() const { return Total() % 100; }
  friend bool operator==(const PlayerCounters&, const PlayerCounters&) = default;
};

// Everything public that is not a fact on the board.
struct Counters {
  Decision decision;
  int turn_player = 0;
  int drawn_tile = -1;  // the tile to place, -1 when none is in hand
  int tiles_drawn = 0;
  int tiles_discarded = 0;
  bool over = false;
  int players = 0;
  uint16_t wall_corners = 0;  // bit c: corner tower c still holds a face-down wall tile
  std::array<PlayerCounters, core::kMaxPlayers> player{};
  friend bool operator==(const Counters&, const Counters&) = default;
};

inline uint64_t CountersHash(const Counters& c) {
  uint64_t h = core::FactKey(36, U(c.decision.actor), U(static_cast<int>(c.decision.kind)),
                             U(c.decision.wall), U(c.turn_player));
  h = core::FactKey(h, U(c.drawn_tile), U(c.tiles_drawn), U(c.tiles_discarded), U(c.over ? 1 : 0));
  h = core::FactKey(h, U(c.players), U(c.wall_corners));
  for (int p = 0; p < c.players; ++p) {
    const PlayerCounters& pc = c.player[static_cast<size_t>(p)];
    h = core::FactKey(h, U(pc.score[kPaths]), U(pc.score[kTowers]), U(pc.score[kHouses]),
                      U(pc.score[kCourts]));
    h = core::FactKey(h, U(pc.score[kKeep]), U(pc.score[kWallTiles]), U(pc.followers));
    h = core::FactKey(h, U(pc.keep.size), U(pc.keep.x), U(pc.keep.y), U(pc.keep.feature));
    for (int k = 1; k < kWallTileKinds; ++k) {
      h = core::FactKey(h, U(k), U(pc.wall_tiles[static_cast<size_t>(k)]),
                        U(pc.fresh[static_cast<size_t>(k)]), U(pc.used[static_cast<size_t>(k)]));
    }
  }
  return h;
}

}  // namespace carc::castle
