// JSON views of a game of Carcassonne: The Castle for the command-line tool (docs/formats.md).
#pragma once

#include <nlohmann/json.hpp>

#include "castle/game.h"

namespace carc::tool {

// Per player: points by source (paths, towers, houses, courts, keep, wall-tiles) and their total.
nlohmann::json CastleScoresToJson(const castle::Game& game);
// The final (or current) state of a game: set-up, decision, scores, supplies (followers, keep,
// wall tiles held), the wall tiles still on the wall, board, followers.
nlohmann::json CastleStateToJson(const castle::Game& game);

}  // namespace carc::tool
