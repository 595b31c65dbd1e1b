#include "fairness.h"

#include "persistence/fair_draws.h"
#include "protocol/game_codec.h"
#include "registry.h"

namespace carc::client {

std::variant<CheckedDraws, std::string> CheckReplayDraws(const wire::Replay& replay,
                                                         std::shared_ptr<const core::TileSet> tiles,
                                                         const std::string& noted_commitment) {
  const wire::GameInfo& game = replay.game();
  auto made = RuleSetWithTiles(game.rule_set(), std::move(tiles));
  if (auto* why = std::get_if<std::string>(&made)) return *why;
  const auto rules = std::get<std::shared_ptr<const core::RuleSet>>(std::move(made));
  if (rules->Type().version != static_cast<int>(game.rule_set_version())) {
    return "the game is played by " + game.rule_set() + " version " +
           std::to_string(game.rule_set_version()) + "; this client has version " +
           std::to_string(rules->Type().version);
  }
  const protocol::GameCodec* codec = protocol::FindGameCodec(game.rule_set());
  if (codec == nullptr) return "this client does not know the game " + game.rule_set();
  core::Options options(game.options().begin(), game.options().end());
  const std::string commitment =
      noted_commitment.empty() ? game.draw_commitment() : noted_commitment;
  // Each step's action applied as the engine's current actor: the chance actor for a draw.
  const auto apply = [&](core::State& state, size_t i) -> std::optional<std::string> {
    const wire::Delta& step = replay.steps(static_cast<int>(i));
    auto applied = codec->ApplyEncoded(state, state.CurrentActor(), step.action());
    if (auto* error = std::get_if<core::RuleError>(&applied)) {
      return error->message;
    }
    if (state.Hash() != step.state_hash()) return "the state hash differs from the replay's";
    return std::nullopt;
  };
  auto checked =
      persistence::VerifyDraws(*rules, static_cast<int>(game.seats()), options, commitment,
                               game.draw_proof(), static_cast<size_t>(replay.steps_size()), apply);
  if (auto* why = std::get_if<std::string>(&checked)) return *why;
  return CheckedDraws{std::get<persistence::FairDraws>(checked).draws, commitment};
}

}  // namespace carc::client
