// Helpers for the tests of Carcassonne (engine/river/): small tile sets written inline, games
// with a chosen tile order, and scripts of actions in the text notation with the chance draws
// filled in. Header-only, so each test file includes what it needs.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/tileset.h"
#include "river/game.h"
#include "river/notation.h"

namespace carc::river::test {

// Parses "tileset test 1\n" + `tile_lines`; fails the test on a parse error.
inline std::shared_ptr<const core::TileSet> MakeTiles(std::string_view tile_lines) {
  auto parsed = core::ParseTileSet("tileset test 1\n" + std::string(tile_lines));
  if (auto* error = std::get_if<core::ParseError>(&parsed)) {
    ADD_FAILURE() << "test tile set: " << error->ToString();
    return nullptr;
  }
  return std::get<std::shared_ptr<const core::TileSet>>(parsed);
}

// Tile ids for type names, in order: each name takes the next copy of that type not taken yet.
inline std::vector<int> TileIds(const core::TileSet& tiles,
                                std::initializer_list<std::string_view> names) {
  std::map<std::string, int, std::less<>> taken;
  std::vector<int> ids;
  for (std::string_view name : names) {
    bool found = false;
    for (const core::TileType& type : tiles.types()) {
      if (type.name != name) continue;
      found = true;
      int& n = taken[std::string(name)];
      EXPECT_LT(n, type.count) << "not enough copies of " << name;
      ids.push_back(type.first_id + n++);
    }
    EXPECT_TRUE(found) << "no tile type " << name;
  }
  return ids;
}

// The order of a game whose draws start with `first`: the set-up tile, `first`, then every other
// tile of the game in id order (River tiles before the lake and the land tiles).
inline std::vector<int> OrderStartingWith(const core::TileSet& tiles, bool river,
                                          const std::vector<int>& first) {
  std::vector<int> setup, river_tiles, lake, land;
  for (int id = 0; id < tiles.TileCount(); ++id) {
    const core::TileType& type = tiles.TypeOf(id);
    const bool is_river = type.HasFeature(core::FeatureKind::kRiver);
    if (type.role == core::TileRole::kStart) {
      if (!river) setup.push_back(id);
    } else if (type.role == core::TileRole::kSpring) {
      if (river) setup.push_back(id);
    } else if (type.role == core::TileRole::kLake) {
      if (river) lake.push_back(id);
    } else if (is_river) {
      if (river) river_tiles.push_back(id);
    } else {
      land.push_back(id);
    }
  }
  std::vector<int> order = setup;
  const auto add_group = [&](const std::vector<int>& group) {
    for (int id : first) {
      if (std::find(group.begin(), group.end(), id) != group.end()) order.push_back(id);
    }
    for (int id : group) {
      if (std::find(first.begin(), first.end(), id) == first.end()) order.push_back(id);
    }
  };
  add_group(river_tiles);
  order.insert(order.end(), lake.begin(), lake.end());
  add_group(land);
  return order;
}

// A game of `players` whose draws start with the tiles named (see TileIds).
inline Game MakeGame(std::shared_ptr<const core::TileSet> tiles, int players, bool river,
                     std::initializer_list<std::string_view> first) {
  const std::vector<int> order = OrderStartingWith(*tiles, river, TileIds(*tiles, first));
  auto created =
      Game::CreateWithOrder(std::move(tiles), Config{.players = players, .river = river}, 0, order);
  if (auto* message = std::get_if<std::string>(&created)) {
    ADD_FAILURE() << "MakeGame: " << *message;
    std::abort();
  }
  return std::get<Game>(std::move(created));
}

// Draws for chance while the game waits for chance.
inline void DrawIfNeeded(Game& game, std::vector<Event>* events = nullptr) {
  while (!game.IsOver() && game.CurrentDecision().actor == kChance) {
    std::vector<Action> legal;
    game.LegalActions(&legal);
    ASSERT_EQ(legal.size(), 1u);
    ASSERT_FALSE(game.Apply(kChance, legal[0], events).has_value());
  }
}

// Applies actions written in the notation, e.g. {"place 1 0 0", "follower a"}, each by whoever
// must decide, drawing for chance first whenever it must. Fails the test, naming the line, if
// one is refused. Returns every event caused.
inline std::vector<Event> Run(Game& game, std::initializer_list<std::string_view> lines) {
  std::vector<Event> events;
  for (std::string_view line : lines) {
    DrawIfNeeded(game, &events);
    auto parsed = ParseAction(game, line);
    if (auto* message = std::get_if<std::string>(&parsed)) {
      ADD_FAILURE() << "cannot parse '" << line << "': " << *message;
      return events;
    }
    const auto& p = std::get<ParsedAction>(parsed);
    const Actor actor = p.has_actor ? p.actor : game.CurrentDecision().actor;
    if (auto error = game.Apply(actor, p.action, &events)) {
      ADD_FAILURE() << "'" << line << "' was refused: " << ToString(*error) << " ("
                    << Describe(*error) << ")";
      return events;
    }
  }
  DrawIfNeeded(game, &events);
  return events;
}

// Applies one action (after the chance draws); returns the engine's error (nullopt on success).
inline std::optional<Error> Try(Game& game, std::string_view line) {
  DrawIfNeeded(game);
  auto parsed = ParseAction(game, line);
  if (auto* message = std::get_if<std::string>(&parsed)) {
    ADD_FAILURE() << "cannot parse '" << line << "': " << *message;
    return Error::kMalformed;
  }
  const auto& p = std::get<ParsedAction>(parsed);
  return game.Apply(p.has_actor ? p.actor : game.CurrentDecision().actor, p.action, nullptr);
}

// Events of one type among `events`.
template <typename T>
std::vector<T> Only(const std::vector<Event>& events) {
  std::vector<T> out;
  for (const auto& e : events) {
    if (const T* t = std::get_if<T>(&e)) out.push_back(*t);
  }
  return out;
}

// The labels of the features a follower may go on now (the follower decision), sorted.
inline std::string FollowerChoices(const Game& game) {
  EXPECT_EQ(game.CurrentDecision().kind, DecisionKind::kPlaceFollower);
  std::vector<Action> legal;
  game.LegalActions(&legal);
  const core::TileType& type =
      game.tiles().TypeOf(game.board().Placed(game.board().TileCount() - 1).tile);
  std::string labels;
  for (const Action& a : legal) {
    if (a.kind == ActionKind::kPlaceFollower) labels += type.features[a.feature].label;
  }
  std::sort(labels.begin(), labels.end());
  return labels;
}

}  // namespace carc::river::test
