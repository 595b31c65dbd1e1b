// A text picture of a game of Carcassonne (with or without the River) for a terminal
// (`carc show --rule-set carcassonne`).
#pragma once

#include <string>

#include "river/game.h"

namespace carc::tool {

// The board (each tile 5x3 characters: fields, cities with their pennants, roads, the river,
// monasteries, followers where they stand) and a summary of the players.
std::string RenderRiverGame(const river::Game& game);

}  // namespace carc::tool
