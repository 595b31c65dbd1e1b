// What every game's public state shows of the board: the placed tiles in the order they were
// placed and the followers on features, sorted; how the events of a tile or a follower change
// them, how a Game shows its board and followers that way, and the hash of those facts.
//
// A game supplies its fact keys (TileFact and FollowerFact of its state_hash.h) to HashBoardFacts
// and keeps everything else of its public state (counters, walls, ...) itself.
#pragma once

#include <algorithm>
#include <cassert>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/board.h"
#include "core/follower_spots.h"

namespace carc::core {

struct PublicTile {
  uint8_t tile = 0;
  int8_t x = 0, y = 0;
  uint8_t rotation = 0;
  friend bool operator==(const PublicTile&, const PublicTile&) = default;
};

struct PublicFollower {
  uint8_t player = 0;
  int8_t x = 0, y = 0;  // the tile
  uint8_t feature = 0;  // its feature
  friend bool operator==(const PublicFollower&, const PublicFollower&) = default;
  friend auto operator<=>(const PublicFollower&, const PublicFollower&) = default;
};

// A follower placed: into the sorted list.
inline void AddPublicFollower(std::vector<PublicFollower>* followers, const PublicFollower& f) {
  followers->insert(std::upper_bound(followers->begin(), followers->end(), f), f);
}

// A follower returned: out of the sorted list, where it must be.
inline void RemovePublicFollower(std::vector<PublicFollower>* followers, const PublicFollower& f) {
  const auto it = std::lower_bound(followers->begin(), followers->end(), f);
  assert(it != followers->end() && *it == f);
  followers->erase(it);
}

// Appends the board's tiles in placement order and its followers, sorted, as the public state
// shows them.
template <size_t kMax>
void ShowBoard(const Board& board, const FollowerSpots<kMax>& spots, std::vector<PublicTile>* tiles,
               std::vector<PublicFollower>* followers) {
  for (int i = 0; i < board.TileCount(); ++i) {
    const PlacedTile& p = board.Placed(i);
    tiles->push_back({p.tile, p.x, p.y, p.rotation});
  }
  for (int i = 0; i < spots.Count(); ++i) {
    const FollowerSpot& spot = spots[i];
    const PlacedTile& p = board.Placed(spot.index);
    followers->push_back({spot.player, p.x, p.y, spot.feature});
  }
  std::sort(followers->begin(), followers->end());
}

// The XOR of the keys of every tile and every follower: tile_fact(tile, x, y, rotation) and
// follower_fact(player, x, y, feature).
template <typename TileFact, typename FollowerFact>
uint64_t HashBoardFacts(const std::vector<PublicTile>& tiles,
                        const std::vector<PublicFollower>& followers, TileFact tile_fact,
                        FollowerFact follower_fact) {
  uint64_t h = 0;
  for (const PublicTile& t : tiles) h ^= tile_fact(t.tile, t.x, t.y, t.rotation);
  for (const PublicFollower& f : followers) h ^= follower_fact(f.player, f.x, f.y, f.feature);
  return h;
}

}  // namespace carc::core
