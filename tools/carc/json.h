// JSON views of the engine's values for the command-line tool (docs/formats.md).
#pragma once

#include <nlohmann/json.hpp>

#include "city/event.h"
#include "city/game.h"

namespace carc::tool {

nlohmann::json EventToJson(const city::Event& event);
nlohmann::json ScoresToJson(const city::Game& game);
// The final (or current) state of a game: scores, supplies, board, wall, decision, hash.
nlohmann::json StateToJson(const city::Game& game);
std::string HexHash(uint64_t hash);

}  // namespace carc::tool
