// The followers standing on a board's features, in the order they were placed: what every game
// keeps to score them, to return them, to hash them and to show them.
//
// A game supplies the board (core/board.h) the spots point into, and what happens as a follower
// comes back (its supply, its hash key, its event) through the callback of Return.
#pragma once

#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>

#include "core/board.h"

namespace carc::core {

// A follower on a feature of a placed tile.
struct FollowerSpot {
  uint8_t player = 0;
  uint8_t index = 0;    // placement index of the tile
  uint8_t feature = 0;  // feature of that tile
  friend bool operator==(const FollowerSpot&, const FollowerSpot&) = default;
};

template <size_t kMax>
class FollowerSpots {
 public:
  int Count() const { return count_; }
  const FollowerSpot& operator[](int i) const { return spots_[static_cast<size_t>(i)]; }

  void Add(int player, int index, int feature) {
    assert(count_ < static_cast<int>(kMax));
    spots_[static_cast<size_t>(count_++)] = {
        static_cast<uint8_t>(player), static_cast<uint8_t>(index), static_cast<uint8_t>(feature)};
  }

  // Takes every follower on the feature whose root is `root` off the list, keeping the others in
  // order, and calls returned(spot, feature) for each, in placement order.
  template <typename Returned>
  void Return(const Board& board, FeatureId root, Returned returned) {
    int kept = 0;
    for (int i = 0; i < count_; ++i) {
      const FollowerSpot spot = spots_[static_cast<size_t>(i)];
      const FeatureId f = board.FeatureOf(spot.index, spot.feature);
      if (board.Root(f) != root) {
        spots_[static_cast<size_t>(kept++)] = spot;
        continue;
      }
      returned(spot, f);
    }
    count_ = kept;
  }

  friend bool operator==(const FollowerSpots&, const FollowerSpots&) = default;

 private:
  std::array<FollowerSpot, kMax> spots_{};
  int count_ = 0;
};

}  // namespace carc::core
