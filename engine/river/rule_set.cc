#include "river/rule_set.h"

#include <utility>

#include "core/game_state.h"
#include "river/notation.h"
#include "river/transcript.h"

namespace carc::river {
namespace {

Config ConfigFor(int players, const core::Options& options) {
  Config config;
  config.players = players;
  config.river = options.at("river") == 1;
  return config;
}

}  // namespace

const core::GameType& Type() {
  static const core::GameType type{
      .id = kRuleSetId,
      .version = kRuleSetVersion,
      .name = "Carcassonne (with the River)",
      .min_players = 2,
      .max_players = 5,
      .options = {{.name = "river",
                   .description = "play the River: its 12 tiles come first, the spring replacing "
                                  "the start tile (0: the base game alone)",
                   .default_value = 1,
                   .min = 0,
                   .max = 1}},
  };
  return type;
}

std::shared_ptr<const core::RuleSet> MakeRuleSet(std::shared_ptr<const core::TileSet> tiles) {
  return std::make_shared<core::GameRuleSet<RiverState, Game, Config>>(Type(), std::move(tiles),
                                                                       &ConfigFor);
}

std::unique_ptr<core::State> WrapGame(Game game) {
  return std::make_unique<RiverState>(std::move(game));
}

const Game* GameOf(const core::State& state) {
  const auto* river = dynamic_cast<const RiverState*>(&state);
  return river != nullptr ? &river->game() : nullptr;
}

const RiverState* StateOf(const core::State& state) {
  return dynamic_cast<const RiverState*>(&state);
}

RiverState* StateOf(core::State& state) { return dynamic_cast<RiverState*>(&state); }

}  // namespace carc::river
