#include "stats.h"

#include <array>
#include <map>

#include "city/game.h"
#include "city/random_play.h"

namespace carc::tool {
namespace {

using nlohmann::json;

// The street shapes a tile shows, by name.
std::vector<std::string> StreetShapes(const core::TileType& type) {
  std::vector<std::string> shapes;
  int crossing = 0;
  for (const core::FeatureDef& def : type.features) {
    if (def.kind != core::FeatureKind::kStreet) continue;
    std::vector<int> sides;
    for (int s = 0; s < core::kSides; ++s) {
      if (def.ports & (1u << core::PortOf(s, core::kMidPort))) sides.emplace_back(s);
    }
    if (sides.size() == 2) shapes.emplace_back(sides[1] - sides[0] == 2 ? "straight" : "curve");
    if (def.end == core::StreetEnd::kCrossing) ++crossing;
    if (def.end == core::StreetEnd::kBuilding) shapes.emplace_back("ends_at_building");
    if (def.end == core::StreetEnd::kMarket) shapes.emplace_back("ends_at_market");
  }
  if (crossing == 3) shapes.emplace_back("three_way_crossing");
  if (crossing >= 4) shapes.emplace_back("four_way_crossing");
  return shapes;
}

}  // namespace

json TileSetContents(const core::TileSet& tiles) {
  std::map<std::string, int> shapes;
  std::array<int, 4> market_areas{};
  int tiles_with_market = 0, public_buildings = 0, historic = 0, no_street = 0;
  for (const core::TileType& type : tiles.types()) {
    for (const std::string& shape : StreetShapes(type)) shapes[shape] += type.count;
    bool market = false;
    for (const core::FeatureDef& def : type.features) {
      if (def.kind == core::FeatureKind::kMarket) {
        market_areas[static_cast<size_t>(def.market)] += type.count;
        market = true;
      }
    }
    if (market) tiles_with_market += type.count;
    if (type.street_sides == 0) no_street += type.count;
    if (type.building == core::Building::kPublic) public_buildings += type.count;
    if (type.building == core::Building::kHistoric) historic += type.count;
  }
  return {{"id", tiles.id()},
          {"version", tiles.version()},
          {"types", tiles.TypeCount()},
          {"tiles", tiles.TileCount()},
          {"street_shapes", shapes},
          {"tiles_without_street", no_street},
          {"market_areas",
           {{"fish", market_areas[1]}, {"grain", market_areas[2]}, {"livestock", market_areas[3]}}},
          {"tiles_with_market", tiles_with_market},
          {"public_buildings", public_buildings},
          {"historic_buildings", historic}};
}

json TileSetReport(const std::shared_ptr<const core::TileSet>& tiles, int games, uint64_t seed,
                   int players, city::Policy policy) {
  json report = {{"contents", TileSetContents(*tiles)}};
  if (games <= 0) return report;
  city::Config config;
  config.players = players;
  std::map<std::string, int> ended_by;
  std::array<double, city::kSourceCount> points{};
  long draws = 0, discards = 0, games_with_discard = 0, games_with_walls = 0, walls = 0;
  city::PlayBuffers buffers;
  for (int g = 0; g < games; ++g) {
    const uint64_t game_seed = seed + static_cast<uint64_t>(g);
    auto created = city::Game::Create(tiles, config, game_seed);
    if (auto* message = std::get_if<std::string>(&created)) return {{"error", *message}};
    city::Game& game = std::get<city::Game>(created);
    core::Random random = city::ChoiceRandom(game_seed);
    while (city::RandomStep(game, random, buffers, policy)) {
    }
    ++ended_by[city::ToString(game.EndedBy())];
    for (int p = 0; p < players; ++p) {
      for (int s = 0; s < city::kSourceCount; ++s) {
        points[static_cast<size_t>(s)] += game.Score(p, static_cast<city::Source>(s));
      }
    }
    draws += game.TilesDrawn();
    discards += game.TilesDiscarded();
    games_with_discard += game.TilesDiscarded() > 0 ? 1 : 0;
    games_with_walls += game.chain().HasGate() ? 1 : 0;
    walls += game.chain().PieceCount();
  }
  const double n = games;
  json mean;
  double total = 0;
  for (int s = 0; s < city::kSourceCount; ++s) {
    const double v = points[static_cast<size_t>(s)] / (n * players);
    mean[city::ToString(static_cast<city::Source>(s))] = v;
    total += v;
  }
  mean["total"] = total;
  json share;
  for (const auto& [name, count] : ended_by) share[name] = count / n;
  report["simulation"] = {
      {"games", games},
      {"players", players},
      {"first_seed", seed},
      {"wall_phase_with_walls", games_with_walls / n},
      {"mean_wall_pieces", walls / n},
      {"ended_by", share},
      {"mean_points_per_player", mean},
      {"draws_unplaceable", draws ? static_cast<double>(discards) / draws : 0.0},
      {"games_with_unplaceable_draw", games_with_discard / n}};
  return report;
}

}  // namespace carc::tool
