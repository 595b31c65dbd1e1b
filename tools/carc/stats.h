// The tile set's contents and its balance measured over random games (R30; `carc tiles`).
#pragma once

#include <memory>
#include <nlohmann/json.hpp>

#include "city/random_play.h"
#include "core/tileset.h"

namespace carc::tool {

nlohmann::json TileSetContents(const core::TileSet& tiles);
// Contents plus, over `games` random games from `seed` on: how often walls are built, how games
// end, mean points per player by source, how often a drawn tile fits nowhere.
nlohmann::json TileSetReport(const std::shared_ptr<const core::TileSet>& tiles, int games,
                             uint64_t seed, int players, city::Policy policy);

}  // namespace carc::tool
