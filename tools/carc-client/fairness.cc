#include "fairness.h"

#include <algorithm>
#include <optional>
#include <string_view>
#include <vector>

#include "persistence/fair_draws.h"
#include "protocol/game_codec.h"
#include "registry.h"

namespace carc::client {
namespace {

std::string Described(const protocol::GameCodec& codec, std::string_view event) {
  return codec.DescribeEvent(event).value_or("an event that does not decode");
}

// Where the replay's events of a step differ from the engine's, in the events' notation; nullopt
// when they are the same.
std::optional<std::string> DifferentEvents(
    const protocol::GameCodec& codec, const std::vector<std::string>& engine,
    const google::protobuf::RepeatedPtrField<std::string>& replay) {
  const size_t shown = static_cast<size_t>(replay.size());
  for (size_t e = 0; e < std::max(engine.size(), shown); ++e) {
    const std::string theirs =
        e < shown ? Described(codec, replay[static_cast<int>(e)]) : "no event";
    const std::string ours = e < engine.size() ? Described(codec, engine[e]) : "no event";
    if (theirs != ours) {
      return "the replay's event " + std::to_string(e + 1) + " is '" + theirs +
             "', the engine's on the committed seed and order '" + ours + "'";
    }
  }
  return std::nullopt;
}

}  // namespace

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
  // Each step's action applied as the engine's current actor: the chance actor for a draw. Its
  // events must be the engine's on the committed set-up: what the replay shows revealed (a wall
  // tile taken in The Castle) is what the seed laid.
  const auto apply = [&](core::State& state, size_t i) -> std::optional<std::string> {
    const wire::Delta& step = replay.steps(static_cast<int>(i));
    auto applied = codec->ApplyEncoded(state, state.CurrentActor(), step.action());
    if (auto* error = std::get_if<core::RuleError>(&applied)) {
      return error->message;
    }
    return DifferentEvents(*codec, codec->EncodeLastStep(state).events, step.events());
  };
  // And the state hash after each step the replay's (the state shown is the engine's).
  const auto hash = [&](size_t i) { return replay.steps(static_cast<int>(i)).state_hash(); };
  auto checked = persistence::VerifyDraws(*rules, static_cast<int>(game.seats()), options,
                                          commitment, game.draw_proof(),
                                          static_cast<size_t>(replay.steps_size()), apply, hash);
  if (auto* why = std::get_if<std::string>(&checked)) return *why;
  return CheckedDraws{std::get<persistence::FairDraws>(checked).draws, commitment};
}

}  // namespace carc::client
