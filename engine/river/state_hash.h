// The public-state hash of Carcassonne.
//
// A game's hash is the XOR of one key per fact of its public state (a tile on a cell, a follower
// on a feature) and one key for the rest (scores, supplies, counters, the pending decision).
// Facts are toggled in and out as they change, so the engine keeps the hash up to date cheaply; a
// client computes the same number from its own view. The order of the tiles still to be drawn is
// not public and is not hashed. The river's open end and last bend follow from the placed tiles,
// so they need no key of their own.
#pragma once

#include <array>
#include <cstdint>

#include "core/board.h"
#include "core/hash.h"
#include "river/action.h"
#include "river/rules.h"

namespace carc::river {

inline uint64_t U(int v) { return static_cast<uint64_t>(static_cast<int64_t>(v)); }

// Domains distinct from The City's, so the two games' hashes never share keys.
inline uint64_t TileFact(int tile, int x, int y, int rotation) {
  return core::FactKey(21, U(tile), U(x), U(y), U(rotation));
}
inline uint64_t FollowerFact(int player, int x, int y, int feature) {
  return core::FactKey(22, U(player), U(x), U(y), U(feature));
}

struct PlayerCounters {
  std::array<int, kSourceCount> score{};
  int followers = 0;
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
  std::array<PlayerCounters, core::kMaxPlayers> player{};
  friend bool operator==(const Counters&, const Counters&) = default;
};

inline uint64_t CountersHash(const Counters& c) {
  uint64_t h = core::FactKey(26, U(c.decision.actor), U(static_cast<int>(c.decision.kind)),
                             U(c.turn_player), U(c.drawn_tile));
  h = core::FactKey(h, U(c.tiles_drawn), U(c.tiles_discarded), U(c.over ? 1 : 0), U(c.players));
  for (int p = 0; p < c.players; ++p) {
    const PlayerCounters& pc = c.player[static_cast<size_t>(p)];
    h = core::FactKey(h, U(pc.score[kRoads]), U(pc.score[kCities]), U(pc.score[kMonasteries]),
                      U(pc.score[kFields]));
    h = core::FactKey(h, U(pc.followers));
  }
  return h;
}

}  // namespace carc::river
