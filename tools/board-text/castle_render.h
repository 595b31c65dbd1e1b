// A text picture of a game of Carcassonne: The Castle for a terminal: `carc show --rule-set
// the-castle` draws a Game; a client can draw the public state it follows.
#pragma once

#include <string>

#include "castle/game.h"
#include "castle/layout.h"
#include "castle/public_state.h"
#include "core/tileset.h"

namespace carc::tool {

// The castle as a public state shows it: the squares inside the wall (each 5x3 characters, a dot
// while empty), the wall cells around them with their first track number, the corner towers
// (W: a wall tile still lies face down on it), the start spaces, the tiles with their paths,
// towers, houses and courts (fountains, markets), the keeps and the followers where they stand;
// with a legend. `tiles` is the set the game is played with, `layout` its board.
std::string RenderCastleBoard(const castle::PublicState& state, const core::TileSet& tiles,
                              const castle::Layout& layout);
// One line per player: points in all and by source, followers in supply, keep, wall tiles held.
std::string CastlePlayersText(const castle::PublicState& state);
// "next: place_tile by player 1 (tile 12, CT09)", or "game over: winners 0".
std::string CastleNextLine(const castle::PublicState& state, const core::TileSet& tiles);

// The board, the players, the tiles left and the wall tiles still on the wall, what comes next.
std::string RenderCastleGame(const castle::Game& game);

}  // namespace carc::tool
