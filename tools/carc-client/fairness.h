// verify-draws: checks a finished game's tile draws from its Replay (docs/fairness.md): the proof
// in its GameInfo hashes to the commitment, the order in the proof is the one its rule set deals
// from the proof's seed, and every draw in the replay was that order's next tile.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <variant>

#include "core/tileset.h"
#include "protocol/envelope.h"

namespace carc::client {

namespace wire = protocol::wire;

struct CheckedDraws {
  size_t draws = 0;
  std::string commitment;
};

// `tiles` is the server's tile set of the game's rule set (GetTileSet). `noted_commitment`, when
// not empty, is the commitment the player noted during the game: checked instead of the one the
// replay shows. The reason the game fails, otherwise.
std::variant<CheckedDraws, std::string> CheckReplayDraws(const wire::Replay& replay,
                                                         std::shared_ptr<const core::TileSet> tiles,
                                                         const std::string& noted_commitment);

}  // namespace carc::client
