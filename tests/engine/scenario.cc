#include "scenario.h"

#include <numeric>

#include "city/notation.h"

namespace carc::test {

std::shared_ptr<const core::TileSet> MakeTiles(std::string_view tile_lines) {
  auto parsed = core::ParseTileSet("tileset test 1\n" + std::string(tile_lines));
  if (auto* error = std::get_if<core::ParseError>(&parsed)) {
    ADD_FAILURE() << "test tile set: " << error->ToString();
    return nullptr;
  }
  return std::get<std::shared_ptr<const core::TileSet>>(parsed);
}

std::vector<int> TilesOf(const core::TileSet& tiles, std::string_view type_name) {
  std::vector<int> ids;
  for (const core::TileType& type : tiles.types()) {
    if (type.name != type_name) continue;
    for (int i = 0; i < type.count; ++i) ids.push_back(type.first_id + i);
  }
  EXPECT_FALSE(ids.empty()) << "no tile type " << type_name;
  return ids;
}

city::Game MakeGame(std::shared_ptr<const core::TileSet> tiles, const city::Config& config,
                    const std::vector<int>& first) {
  std::vector<int> order = first;
  std::vector<bool> used(static_cast<size_t>(tiles->TileCount()), false);
  for (int t : first) used[static_cast<size_t>(t)] = true;
  for (int t = 0; t < tiles->TileCount(); ++t) {
    if (!used[static_cast<size_t>(t)]) order.push_back(t);
  }
  auto created = city::Game::CreateWithOrder(tiles, config, 0, order);
  if (auto* message = std::get_if<std::string>(&created)) {
    ADD_FAILURE() << "MakeGame: " << *message;
    std::abort();
  }
  return std::get<city::Game>(std::move(created));
}

void DrawIfNeeded(city::Game& game, std::vector<city::Event>* events) {
  while (!game.IsOver() && game.CurrentDecision().actor == city::kChance) {
    std::vector<city::Action> legal;
    game.LegalActions(&legal);
    ASSERT_EQ(legal.size(), 1u);
    ASSERT_FALSE(game.Apply(city::kChance, legal[0], events).has_value());
  }
}

std::optional<city::Error> Try(city::Game& game, std::string_view line) {
  DrawIfNeeded(game);
  auto parsed = city::ParseAction(game, line);
  if (auto* message = std::get_if<std::string>(&parsed)) {
    ADD_FAILURE() << "cannot parse '" << line << "': " << *message;
    return city::Error::kMalformed;
  }
  const auto& p = std::get<city::ParsedAction>(parsed);
  return game.Apply(p.has_actor ? p.actor : game.CurrentDecision().actor, p.action, nullptr);
}

std::vector<city::Event> Run(city::Game& game, const std::vector<std::string>& lines) {
  std::vector<city::Event> events;
  for (const std::string& line : lines) {
    DrawIfNeeded(game, &events);
    auto parsed = city::ParseAction(game, line);
    if (auto* message = std::get_if<std::string>(&parsed)) {
      ADD_FAILURE() << "cannot parse '" << line << "': " << *message;
      return events;
    }
    const auto& p = std::get<city::ParsedAction>(parsed);
    const city::Actor actor = p.has_actor ? p.actor : game.CurrentDecision().actor;
    if (auto error = game.Apply(actor, p.action, &events)) {
      ADD_FAILURE() << "'" << line << "' was refused: " << city::ToString(*error) << " ("
                    << city::Describe(*error) << "); decision was "
                    << city::ToString(game.CurrentDecision().kind);
      return events;
    }
  }
  return events;
}

std::vector<city::Event> Run(city::Game& game, std::initializer_list<std::string_view> lines) {
  std::vector<std::string> copy;
  for (std::string_view l : lines) copy.emplace_back(l);
  return Run(game, copy);
}

int FeaturePoints(const std::vector<city::Event>& events, int player) {
  int sum = 0;
  for (const auto& s : Only<city::FeatureScored>(events))
    sum += s.points[static_cast<size_t>(player)];
  return sum;
}

}  // namespace carc::test
