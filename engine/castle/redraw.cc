// Game::RedrawHidden: what a player who looks ahead may assume about the stacks and the wall.
#include <algorithm>
#include <span>
#include <vector>

#include "castle/game.h"
#include "core/hash.h"

namespace carc::castle {

// Every order of the castle tiles not yet drawn is equally likely, and the wall tiles still face
// down are any of the wall tiles not yet seen (the board's set less those taken). Both are sorted
// first so that the new draw owes nothing to the old one.
void Game::RedrawHidden(uint64_t seed) {
  core::Random random(seed);
  const std::span<uint8_t> undrawn(order_.data() + counters_.tiles_drawn,
                                   static_cast<size_t>(tile_total_ - counters_.tiles_drawn));
  std::sort(undrawn.begin(), undrawn.end());
  core::Shuffle(undrawn, random);

  std::vector<int> unseen = config_.layout->WallTiles();
  std::vector<int> face_down;  // corners whose wall tile nobody has taken
  for (int corner = 1; corner < config_.layout->CornerCount(); ++corner) {
    if (counters_.wall_corners & (1u << corner)) {
      face_down.push_back(corner);
    } else {
      const auto seen =
          std::find(unseen.begin(), unseen.end(), corner_wall_[static_cast<size_t>(corner)]);
      if (seen != unseen.end()) unseen.erase(seen);
    }
  }
  std::sort(unseen.begin(), unseen.end());
  core::Shuffle(std::span<int>(unseen), random);
  for (size_t i = 0; i < face_down.size(); ++i) {
    corner_wall_[static_cast<size_t>(face_down[i])] = static_cast<uint8_t>(unseen[i]);
  }
}

}  // namespace carc::castle
