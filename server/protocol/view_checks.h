// Whether game values decoded from the wire fit the game a client follows: the checks every
// game's view (protocol/<game>/game_codec.cc) makes before it reduces an event, shared.
//
// A game's codec bounds a tile id by the engine's type (core::kMaxTiles) and a seat by
// core::kMaxPlayers; the game may have fewer of both. A client's view looks tiles up in its set (to
// name a feature of the tile just placed, to draw it) and seats up in its scores, so every id it
// takes in, from a snapshot or an event, must be below the game's count.
#pragma once

#include <type_traits>
#include <variant>

#include "core/tileset.h"

namespace carc::protocol {

// Whether an event of a game's Event variant names only tiles of `tiles`: every alternative with
// a `tile` field is checked, whatever the game.
template <typename EventVariant>
bool EventFitsTiles(const EventVariant& event, const core::TileSet& tiles) {
  return std::visit(
      [&tiles](const auto& e) {
        if constexpr (requires { e.tile; }) {
          return static_cast<int>(e.tile) < tiles.TileCount();
        } else {
          return true;
        }
      },
      event);
}

// Whether an event names only seats of a game of `players`: every alternative with a `player`
// field is checked.
template <typename EventVariant>
bool EventFitsSeats(const EventVariant& event, int players) {
  return std::visit(
      [players](const auto& e) {
        if constexpr (requires { e.player; }) {
          return static_cast<int>(e.player) < players;
        } else {
          return true;
        }
      },
      event);
}

// Whether a public state's placed tiles and tile in hand (-1: none) are all of `tiles`.
template <typename PublicState>
bool StateFitsTiles(const PublicState& state, const core::TileSet& tiles) {
  for (const auto& placed : state.tiles) {
    if (static_cast<int>(placed.tile) >= tiles.TileCount()) return false;
  }
  return state.counters.drawn_tile < tiles.TileCount();
}

}  // namespace carc::protocol
