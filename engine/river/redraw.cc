// Game::RedrawHidden: what a player who looks ahead may assume about the stacks.
#include <algorithm>
#include <span>

#include "core/hash.h"
#include "river/game.h"

namespace carc::river {

// The River's tiles and the land tiles are shuffled apart (the lake last), and what players saw
// of them is the tiles drawn so far, so every order of each group's undrawn tiles is equally
// likely. Each group is sorted first so that the new order owes nothing to the old one.
void Game::RedrawHidden(uint64_t seed) {
  // order_: the set-up tile, then (with the River) its tiles with the lake last, then the land.
  int land_begin = 1;
  if (config_.river) {
    while (land_begin < tile_total_ &&
           tiles_->TypeOf(order_[static_cast<size_t>(land_begin)]).role != core::TileRole::kLake) {
      ++land_begin;
    }
    ++land_begin;  // past the lake, which stays last
  }
  const int next = 1 + counters_.tiles_drawn;
  core::Random random(seed);
  const auto redraw = [&](int begin, int end) {
    begin = std::max(begin, next);
    if (begin >= end) return;
    const std::span<uint8_t> group(order_.data() + begin, static_cast<size_t>(end - begin));
    std::sort(group.begin(), group.end());
    core::Shuffle(group, random);
  };
  redraw(1, config_.river ? land_begin - 1 : 1);
  redraw(land_begin, tile_total_);
}

}  // namespace carc::river
