#include "castle/rule_set.h"

#include <utility>

#include "castle/default_data.h"

namespace carc::castle {
namespace {

Config ConfigFor(int players, const core::Options&) {
  Config config;
  config.players = players;
  config.layout = DefaultLayout();
  return config;
}

}  // namespace

const core::GameType& Type() {
  static const core::GameType type{
      .id = kRuleSetId,
      .version = kRuleSetVersion,
      .name = "Carcassonne: The Castle",
      .min_players = 2,
      .max_players = 2,
      .options = {},
      .playout_horizon = 4,  // measured in docs/bots.md ("The playout horizon")
  };
  return type;
}

std::shared_ptr<const core::RuleSet> MakeRuleSet(std::shared_ptr<const core::TileSet> tiles) {
  return std::make_shared<core::GameRuleSet<CastleState, Game, Config>>(Type(), std::move(tiles),
                                                                        &ConfigFor);
}

std::unique_ptr<core::State> WrapGame(Game game) {
  return std::make_unique<CastleState>(std::move(game));
}

const Game* GameOf(const core::State& state) {
  const auto* castle = dynamic_cast<const CastleState*>(&state);
  return castle != nullptr ? &castle->game() : nullptr;
}

const CastleState* StateOf(const core::State& state) {
  return dynamic_cast<const CastleState*>(&state);
}

CastleState* StateOf(core::State& state) { return dynamic_cast<CastleState*>(&state); }

}  // namespace carc::castle
