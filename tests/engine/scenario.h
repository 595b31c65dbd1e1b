// Helpers for engine tests: small tile sets written inline, games with a chosen tile order, and
// scripts of actions in the text notation (city/notation.h) with the chance draws filled in.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "city/event.h"
#include "city/game.h"
#include "city/public_state.h"
#include "core/tileset.h"

namespace carc::test {

// Parses "tileset test 1\n" + `tile_lines`; fails the test on a parse error.
std::shared_ptr<const core::TileSet> MakeTiles(std::string_view tile_lines);

// The tile ids of a type, by name.
std::vector<int> TilesOf(const core::TileSet& tiles, std::string_view type_name);

// A game whose stacks start with `first` (tile ids, in draw order), the other tiles following in
// id order. `config.stack_sizes` must add up to the tile set's size.
city::Game MakeGame(std::shared_ptr<const core::TileSet> tiles, const city::Config& config,
                    const std::vector<int>& first);

// Applies actions written in the notation, e.g. {"place 1 0 0", "follower a"}. Whenever the game
// waits for chance, the next tile is drawn first. Each action is taken by whoever must decide
// (or by the actor the line names). Fails the test, naming the line, if any is refused. Returns
// every event caused.
std::vector<city::Event> Run(city::Game& game, std::initializer_list<std::string_view> lines);
std::vector<city::Event> Run(city::Game& game, const std::vector<std::string>& lines);

// Applies one action; returns the engine's error (nullopt on success).
std::optional<city::Error> Try(city::Game& game, std::string_view line);

// Draws for chance while the game waits for chance.
void DrawIfNeeded(city::Game& game, std::vector<city::Event>* events = nullptr);

// Events of one type among `events`.
template <typename T>
std::vector<T> Only(const std::vector<city::Event>& events) {
  std::vector<T> out;
  for (const auto& e : events) {
    if (const T* t = std::get_if<T>(&e)) out.push_back(*t);
  }
  return out;
}

// Sum of points for `player` over FeatureScored events.
int FeaturePoints(const std::vector<city::Event>& events, int player);

}  // namespace carc::test
