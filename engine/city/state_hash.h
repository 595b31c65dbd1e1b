// The public-state hash of The City.
//
// A game's hash is the XOR of one key per fact of its public state (a tile on a cell, a
// follower on a feature, a wall piece, a guard, a tower) and one key for the rest (scores,
// supplies, counters, the pending decision). Facts are toggled in and out as they change, so the
// engine keeps the hash up to date cheaply; a client computes the same number from its own view,
// which is how a server checks that a client is in step. The stack order is not public and is
// not hashed: two games with the same public history have the same hash.
#pragma once

#include <array>
#include <cstdint>

#include "city/action.h"
#include "city/rules.h"
#include "core/board.h"
#include "core/hash.h"

namespace carc::city {

inline uint64_t U(int v) { return static_cast<uint64_t>(static_cast<int64_t>(v)); }

inline uint64_t TileFact(int tile, int x, int y, int rotation) {
  return core::FactKey(1, U(tile), U(x), U(y), U(rotation));
}
inline uint64_t FollowerFact(int player, int x, int y, int feature) {
  return core::FactKey(2, U(player), U(x), U(y), U(feature));
}
// position: 0 for the gate, +i for the i-th piece on the front side, -i on the back side.
inline uint64_t WallFact(int position, int x, int y, int side) {
  return core::FactKey(3, U(position), U(x), U(y), U(side));
}
inline uint64_t GuardFact(int player, int x, int y, int side) {
  return core::FactKey(4, U(player), U(x), U(y), U(side));
}
inline uint64_t TowerFact(int player, int end, int position) {
  return core::FactKey(5, U(player), U(end), U(position));
}

struct PlayerCounters {
  std::array<int, kSourceCount> score{};
  int followers = 0;
  int towers = 0;
  friend bool operator==(const PlayerCounters&, const PlayerCounters&) = default;
};

// Everything public that is not a fact on the board.
struct Counters {
  Decision decision;
  int turn_player = 0;
  int drawn_tile = -1;  // the tile to place, -1 when none is in hand
  int tiles_drawn = 0;
  int tiles_discarded = 0;
  int walls_left = 0;
  bool chain_closed = false;
  EndCondition end = EndCondition::kNone;
  int players = 0;
  std::array<PlayerCounters, core::kMaxPlayers> player{};
  friend bool operator==(const Counters&, const Counters&) = default;
};

inline uint64_t CountersHash(const Counters& c) {
  uint64_t h = core::FactKey(6, U(c.decision.actor), U(static_cast<int>(c.decision.kind)),
                             U(c.turn_player), U(c.drawn_tile));
  h = core::FactKey(h, U(c.tiles_drawn), U(c.tiles_discarded), U(c.walls_left),
                    U(c.chain_closed ? 1 : 0) | (U(static_cast<int>(c.end)) << 1));
  for (int p = 0; p < c.players; ++p) {
    const PlayerCounters& pc = c.player[static_cast<size_t>(p)];
    h = core::FactKey(h, U(pc.score[kStreets]), U(pc.score[kMarkets]), U(pc.score[kTowers]),
                      U(pc.score[kStewards]));
    h = core::FactKey(h, U(pc.score[kGuards]), U(pc.followers), U(pc.towers));
  }
  return h;
}

}  // namespace carc::city
