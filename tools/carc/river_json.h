// JSON views of a game of Carcassonne for the command-line tool (docs/formats.md), and the
// game-independent JSON of an event's text form.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "river/game.h"

namespace carc::tool {

// An event in its text form ("tile_placed player=0 tile=12 x=0 y=0 rotation=1", as every game's
// FormatEvent writes it) as a JSON object: {"event":"tile_placed","player":0,...}. Numbers
// become numbers, comma-separated numbers arrays, anything else stays text.
nlohmann::json EventTextToJson(std::string_view text);

// Per player: points by source (roads, cities, monasteries, fields) and their total.
nlohmann::json RiverScoresToJson(const river::Game& game);
// The final (or current) state of a game: set-up, scores, supplies, board, followers, decision.
nlohmann::json RiverStateToJson(const river::Game& game);

}  // namespace carc::tool
