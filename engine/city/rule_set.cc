#include "city/rule_set.h"

#include <utility>

#include "city/notation.h"
#include "city/transcript.h"

namespace carc::city {
namespace {

core::RuleError ToRuleError(Error error) { return {ToString(error), Describe(error)}; }

class CityState final : public core::State {
 public:
  explicit CityState(Game game) : game_(std::move(game)) {}

  const Game& game() const { return game_; }
  std::span<const Event> last_events() const { return last_events_; }

  std::unique_ptr<core::State> Clone() const override { return std::make_unique<CityState>(game_); }
  int Players() const override { return game_.players(); }
  core::Actor CurrentActor() const override {
    return game_.IsOver() ? core::kNoActor : game_.CurrentDecision().actor;
  }
  std::vector<std::string> LegalActions() const override {
    std::vector<Action> legal;
    game_.LegalActions(&legal);
    std::vector<std::string> out;
    out.reserve(legal.size());
    for (const Action& a : legal) out.push_back(FormatAction(game_, a));
    return out;
  }
  std::optional<core::RuleError> Apply(core::Actor actor, std::string_view text,
                                       std::vector<std::string>* events) override {
    const auto parsed = ParseAction(game_, text);
    if (const auto* error = std::get_if<std::string>(&parsed)) {
      return core::RuleError{"malformed", *error};
    }
    const ParsedAction& action = std::get<ParsedAction>(parsed);
    if (action.has_actor && action.actor != actor) return ToRuleError(Error::kWrongPlayer);
    std::vector<Event> applied;
    if (auto error = game_.Apply(actor, action.action, &applied)) return ToRuleError(*error);
    if (events != nullptr) {
      for (const Event& e : applied) events->push_back(FormatEvent(e));
    }
    last_events_ = std::move(applied);
    return std::nullopt;
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

 private:
  Game game_;
  std::vector<Event> last_events_;
};

class CityRuleSet final : public core::RuleSet {
 public:
  explicit CityRuleSet(std::shared_ptr<const core::TileSet> tiles) : tiles_(std::move(tiles)) {}

  const core::GameType& Type() const override { return city::Type(); }
  const core::TileSet& Tiles() const override { return *tiles_; }

  std::variant<std::unique_ptr<core::State>, core::RuleError> NewGame(
      int players, const core::Options& options, uint64_t seed) const override {
    return Made(players, options,
                [&](const Config& config) { return Game::Create(tiles_, config, seed); });
  }
  std::variant<std::unique_ptr<core::State>, core::RuleError> NewGameWithOrder(
      int players, const core::Options& options, uint64_t seed,
      std::span<const int> order) const override {
    return Made(players, options, [&](const Config& config) {
      return Game::CreateWithOrder(tiles_, config, seed, order);
    });
  }

 private:
  template <typename Create>
  std::variant<std::unique_ptr<core::State>, core::RuleError> Made(int players,
                                                                   const core::Options& options,
                                                                   Create create) const {
    const auto complete = CompleteOptions(options);
    if (const auto* error = std::get_if<core::RuleError>(&complete)) return *error;
    Config config;
    config.players = players;
    auto game = create(config);
    if (auto* error = std::get_if<std::string>(&game)) {
      return core::RuleError{"bad_set_up", std::move(*error)};
    }
    return WrapGame(std::get<Game>(std::move(game)));
  }

  std::shared_ptr<const core::TileSet> tiles_;
};

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
  return std::make_shared<CityRuleSet>(std::move(tiles));
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

}  // namespace carc::city
