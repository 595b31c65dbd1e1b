// verify-draws: checks a stored game's draws against its commitment (docs/fairness.md).
#include <iostream>

#include "commands.h"
#include "persistence/fair_draws.h"
#include "registry.h"

namespace carc::db {

int RunVerifyDraws(persistence::Store& store, const std::string& game) {
  std::optional<persistence::StoredGame> stored;
  if (const int status = LoadOne(store, game, &stored)) return status;
  const persistence::GameRecord& g = stored->game;
  const std::string id = persistence::GameId(g.number);
  static const RuleSetRegistry registry = DefaultRuleSets();
  const core::RuleSet* rules = registry.Find(g.rule_set, g.rule_set_version);
  if (rules == nullptr) {
    return Fail(kFailed, id + ": this build does not have rule set '" + g.rule_set + "' version " +
                             std::to_string(g.rule_set_version));
  }
  const auto parsed = core::ParseOptions(g.options);
  const auto* given = std::get_if<core::Options>(&parsed);
  if (given == nullptr) return Fail(kFailed, id + ": its stored options do not parse");
  const auto options = rules->CompleteOptions(*given);
  if (!std::holds_alternative<core::Options>(options)) {
    return Fail(kFailed, id + ": its stored options are not its rule set's");
  }
  // The proof is the game's own, whatever the log's games row says of its order and seed: a log
  // whose draws differ from it fails below.
  const auto result = persistence::VerifyDraws(
      *rules, g.seats, std::get<core::Options>(options), g.draw_commitment, g.draw_proof,
      stored->actions.size(),
      [&](core::State& state, size_t i) -> std::optional<std::string> {
        const persistence::ActionRecord& a = stored->actions[i];
        const core::Actor actor = a.seat < 0 ? core::kChanceActor : a.seat;
        if (auto error = state.Apply(actor, a.action, nullptr)) {
          return "'" + a.action + "': " + error->message;
        }
        return std::nullopt;
      },
      // The states the server recorded as the game went: played on the committed seed's wall
      // tiles too (The Castle), not only on its order.
      [&](size_t i) { return stored->actions[i].state_hash; });
  if (const auto* reason = std::get_if<std::string>(&result)) {
    return Fail(kFailed, id + " is not fair: " + *reason);
  }
  // The log's own set-up must be the committed one too (the server replays from it).
  const auto proof = std::get<persistence::DrawProof>(persistence::ParseDrawProof(g.draw_proof));
  if (proof.seed != g.seed) {
    return Fail(kFailed, id + " is not fair: the log's seed " + std::to_string(g.seed) +
                             " is not the committed seed " + std::to_string(proof.seed));
  }
  if (proof.order != g.order) {
    return Fail(kFailed, id + " is not fair: the log's drawing order is not the committed one");
  }
  std::cout << "fair: " << std::get<persistence::FairDraws>(result).draws
            << " draws match commitment " << g.draw_commitment << "\n";
  return kOk;
}

}  // namespace carc::db
