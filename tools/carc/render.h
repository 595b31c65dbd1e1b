// A text picture of a game of The City for a terminal (`carc show`).
#pragma once

#include <string>

#include "city/game.h"

namespace carc::tool {

// The board (each tile 5x3 characters, walls between cells) and a summary of the players.
std::string RenderGame(const city::Game& game);

}  // namespace carc::tool
