#include "city/rule_set.h"

#include <utility>

#include "city/notation.h"
#include "city/transcript.h"
#include "core/game_state.h"

namespace carc::city {
namespace {

Config ConfigFor(int players, const core::Options& /*options: The City has none*/) {
  Config config;
  config.players = players;
  return config;
}

}  // namespace

const core::GameType& Type() {
  static const core::GameType type{
      .id = kRuleSetId,
      .version = kRuleSetVersion,
      .name = "Carcassonne: The City",
      .min_players = 2,
      .max_players = 4,
      .options = {},
  };
  return type;
}

std::shared_ptr<const core::RuleSet> MakeRuleSet(std::shared_ptr<const core::TileSet> tiles) {
  return std::make_shared<core::GameRuleSet<CityState, Game, Config>>(Type(), std::move(tiles),
                                                                      &ConfigFor);
}

std::unique_ptr<core::State> WrapGame(Game game) {
  return std::make_unique<CityState>(std::move(game));
}

const Game* GameOf(const core::State& state) {
  const auto* city = dynamic_cast<const CityState*>(&state);
  return city != nullptr ? &city->game() : nullptr;
}

std::span<const Event> LastEvents(const core::State& state) {
  const auto* city = dynamic_cast<const CityState*>(&state);
  return city != nullptr ? city->last_events() : std::span<const Event>();
}

const CityState* StateOf(const core::State& state) {
  return dynamic_cast<const CityState*>(&state);
}

CityState* StateOf(core::State& state) { return dynamic_cast<CityState*>(&state); }

}  // namespace carc::city
