// A game's typed values behind the rule-set boundary (core/rule_set.h), written once for every
// game: GameState wraps a Game value, GameRuleSet makes them.
//
// A game provides, in its own namespace (found by argument-dependent lookup): a Game value with
// the engine's contract (IsOver, CurrentDecision, LegalActions, Apply, Hash, RecomputeHash,
// TotalScore, Order, Create, CreateWithOrder, RedrawHidden), FormatAction(game, action),
// ParseAction(game, text) giving a ParsedAction or a message, FormatEvent(event),
// FormatTranscript(game, true), ToString / Describe of its Error, which has kWrongPlayer, and
// EagerChoice(legal, random) (core/random_play.h).
#pragma once

#include <cassert>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "core/hash.h"
#include "core/random_play.h"
#include "core/rule_set.h"

namespace carc::core {

template <typename Game, typename Action, typename Event, typename Error>
class GameState final : public State {
 public:
  explicit GameState(Game game) : game_(std::move(game)) {}

  const Game& game() const { return game_; }
  // The typed action and events of the last action applied (none before the first).
  const std::optional<Action>& last_action() const { return last_action_; }
  std::span<const Event> last_events() const { return last_events_; }

  // Apply for a typed action (what the game's protocol package decodes): the same checks, the
  // same effects.
  std::optional<RuleError> ApplyAction(Actor actor, const Action& action,
                                       std::vector<std::string>* events) {
    std::vector<Event> applied;
    if (auto error = game_.Apply(actor, action, &applied)) return ToRuleError(*error);
    if (events != nullptr) {
      for (const Event& e : applied) events->push_back(FormatEvent(e));
    }
    last_action_ = action;
    last_events_ = std::move(applied);
    return std::nullopt;
  }

  std::unique_ptr<State> Clone() const override { return std::make_unique<GameState>(*this); }
  int Players() const override { return game_.players(); }
  int TurnPlayer() const override { return game_.counters().turn_player; }
  Actor CurrentActor() const override {
    return game_.IsOver() ? kNoActor : game_.CurrentDecision().actor;
  }
  std::vector<std::string> LegalActions() const override {
    std::vector<Action> legal;
    game_.LegalActions(&legal);
    std::vector<std::string> out;
    out.reserve(legal.size());
    for (const Action& a : legal) out.push_back(FormatAction(game_, a));
    return out;
  }
  std::optional<RuleError> Apply(Actor actor, std::string_view text,
                                 std::vector<std::string>* events) override {
    const auto parsed = ParseAction(game_, text);
    if (const auto* error = std::get_if<std::string>(&parsed))
      return RuleError{"malformed", *error};
    const auto& action = std::get<0>(parsed);
    if (action.has_actor && action.actor != actor) return ToRuleError(Error::kWrongPlayer);
    return ApplyAction(actor, action.action, events);
  }
  uint64_t Hash() const override { return game_.Hash(); }
  uint64_t RecomputeHash() const override { return game_.RecomputeHash(); }
  std::vector<int> Scores() const override {
    std::vector<int> out(static_cast<size_t>(game_.players()));
    for (int p = 0; p < game_.players(); ++p) out[static_cast<size_t>(p)] = game_.TotalScore(p);
    return out;
  }
  std::vector<int> Order() const override { return game_.Order(); }
  std::string Transcript() const override { return FormatTranscript(game_, true); }
  // The game's RedrawHidden(seed) redraws what lies face down.
  std::unique_ptr<State> Redetermined(uint64_t seed) const override {
    auto copy = std::make_unique<GameState>(*this);
    copy->game_.RedrawHidden(seed);
    return copy;
  }
  std::vector<int> PlayOut(uint64_t seed, Policy policy, int max_steps) override {
    assert(max_steps >= 0);
    Random random(seed);
    PlayBuffers<Action, Event, 64> buffers;
    for (int steps = 0; max_steps == kToTheEnd || steps < max_steps; ++steps) {
      if (!RandomStep(game_, random, buffers, policy)) break;
    }
    return Scores();
  }

 private:
  static RuleError ToRuleError(Error error) { return {ToString(error), Describe(error)}; }

  Game game_;
  std::optional<Action> last_action_;
  std::vector<Event> last_events_;
};

// Makes States of one game: the options checked against the type, then turned into the game's
// Config by `make_config`.
template <typename State, typename Game, typename Config>
class GameRuleSet final : public RuleSet {
 public:
  using MakeConfig = Config (*)(int players, const Options& complete_options);

  GameRuleSet(const GameType& type, std::shared_ptr<const TileSet> tiles, MakeConfig make_config)
      : type_(type), tiles_(std::move(tiles)), make_config_(make_config) {}

  const GameType& Type() const override { return type_; }
  const TileSet& Tiles() const override { return *tiles_; }

  std::variant<std::unique_ptr<core::State>, RuleError> NewGame(int players, const Options& options,
                                                                uint64_t seed) const override {
    return Made(players, options,
                [&](const Config& config) { return Game::Create(tiles_, config, seed); });
  }
  std::variant<std::unique_ptr<core::State>, RuleError> NewGameWithOrder(
      int players, const Options& options, uint64_t seed,
      std::span<const int> order) const override {
    return Made(players, options, [&](const Config& config) {
      return Game::CreateWithOrder(tiles_, config, seed, order);
    });
  }

 private:
  template <typename Create>
  std::variant<std::unique_ptr<core::State>, RuleError> Made(int players, const Options& options,
                                                             Create create) const {
    const auto complete = CompleteOptions(options);
    if (const auto* error = std::get_if<RuleError>(&complete)) return *error;
    auto game = create(make_config_(players, std::get<Options>(complete)));
    if (auto* error = std::get_if<std::string>(&game)) {
      return RuleError{"bad_set_up", std::move(*error)};
    }
    return std::make_unique<State>(std::get<Game>(std::move(game)));
  }

  const GameType& type_;
  std::shared_ptr<const TileSet> tiles_;
  MakeConfig make_config_;
};

}  // namespace carc::core
