// Game::RedrawHidden: what a player who looks ahead may assume about the stacks.
#include <algorithm>
#include <span>

#include "city/game.h"
#include "core/hash.h"

namespace carc::city {

// The stacks were one shuffle of every tile (R4), and what players saw of it is the tiles drawn
// so far, so every order of the tiles not yet drawn is equally likely. They are sorted first so
// that the new order owes nothing to the old one.
void Game::RedrawHidden(uint64_t seed) {
  const std::span<uint8_t> undrawn(order_.data() + counters_.tiles_drawn,
                                   static_cast<size_t>(tile_total_ - counters_.tiles_drawn));
  std::sort(undrawn.begin(), undrawn.end());
  core::Random random(seed);
  core::Shuffle(undrawn, random);
}

}  // namespace carc::city
