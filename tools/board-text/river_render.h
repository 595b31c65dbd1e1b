// A text picture of a game of Carcassonne (with or without the River) for a terminal: `carc show
// --rule-set carcassonne` draws a Game, carc-client the public state it follows.
#pragma once

#include <string>

#include "core/tileset.h"
#include "river/game.h"
#include "river/public_state.h"

namespace carc::tool {

// The board as a public state shows it (each tile 5x3 characters: fields, cities with their
// pennants, roads, the river, monasteries, followers where they stand), with a legend; `tiles`
// is the set the game is played with.
std::string RenderRiverBoard(const river::PublicState& state, const core::TileSet& tiles);
// One line per player: points in all and by source, followers in supply.
std::string RiverPlayersText(const river::PublicState& state);
// "next: place_tile by player 1 (tile 12, city-road)", or "game over: winners 0 2".
std::string RiverNextLine(const river::PublicState& state, const core::TileSet& tiles);

// The board, the players, the tiles left and the River's course, and what comes next.
std::string RenderRiverGame(const river::Game& game);

}  // namespace carc::tool
