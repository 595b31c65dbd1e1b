// Carcassonne through the rule-set boundary (core/rule_set.h), as the server, the game log and
// the tools see it: found in the registry by its id, created with options, played to the end by
// its notation alone, cloned, and rebuilt from its order and actions.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/hash.h"
#include "registry.h"
#include "river/rule_set.h"

namespace carc {
namespace {

const core::RuleSet& Carcassonne() {
  static const RuleSetRegistry registry = DefaultRuleSets();
  const core::RuleSet* rules = registry.Find("carcassonne");
  EXPECT_NE(rules, nullptr);
  return *rules;
}

TEST(RiverRuleSet, TheRegistryKnowsBothGames) {
  const RuleSetRegistry registry = DefaultRuleSets();
  ASSERT_NE(registry.Find("the-city"), nullptr);
  ASSERT_NE(registry.Find("carcassonne", 1), nullptr);
  const core::GameType& type = Carcassonne().Type();
  EXPECT_EQ(type.name, "Carcassonne (with the River)");
  EXPECT_EQ(type.min_players, 2);
  EXPECT_EQ(type.max_players, 5);
  ASSERT_EQ(type.options.size(), 1u);
  EXPECT_EQ(type.options[0].name, "river");
  EXPECT_EQ(type.options[0].default_value, 1);
  EXPECT_EQ(Carcassonne().Tiles().id(), "base-and-river");
}

TEST(RiverRuleSet, BadSetUpsAreRefused) {
  const core::RuleSet& rules = Carcassonne();
  const auto refused = [&](int players, const core::Options& options) {
    auto made = rules.NewGame(players, options, 1);
    return std::holds_alternative<core::RuleError>(made);
  };
  EXPECT_TRUE(refused(1, {}));
  EXPECT_TRUE(refused(6, {}));
  EXPECT_TRUE(refused(2, {{"river", 2}}));
  EXPECT_TRUE(refused(2, {{"castle", 1}}));
  EXPECT_FALSE(refused(5, {{"river", 0}}));
}

// Plays a game by text only: every step picks one of the legal actions' texts, applies it to the
// state and to a clone, and checks the hashes; at the end the order and the actions rebuild it.
void PlayByNotation(int players, int river, uint64_t seed) {
  const core::RuleSet& rules = Carcassonne();
  const core::Options options = {{"river", river}};
  auto made = rules.NewGame(players, options, seed);
  ASSERT_TRUE(std::holds_alternative<std::unique_ptr<core::State>>(made));
  std::unique_ptr<core::State> state = std::move(std::get<std::unique_ptr<core::State>>(made));
  ASSERT_NE(river::GameOf(*state), nullptr);
  std::vector<std::pair<core::Actor, std::string>> played;
  core::Random random(seed);
  int steps = 0;
  while (!state->IsOver()) {
    ASSERT_LT(++steps, 1000);
    const std::vector<std::string> legal = state->LegalActions();
    ASSERT_FALSE(legal.empty());
    const core::Actor actor = state->CurrentActor();
    const std::string& action = legal[static_cast<size_t>(random.Below(legal.size()))];
    std::unique_ptr<core::State> clone = state->Clone();
    std::vector<std::string> events;
    ASSERT_FALSE(state->Apply(actor, action, &events).has_value()) << action;
    ASSERT_FALSE(events.empty());
    ASSERT_FALSE(clone->Apply(actor, action, nullptr).has_value());
    ASSERT_EQ(clone->Hash(), state->Hash());
    ASSERT_EQ(state->Hash(), state->RecomputeHash());
    played.emplace_back(actor, action);
  }
  EXPECT_TRUE(state->LegalActions().empty());
  const std::optional<core::RuleError> late = state->Apply(0, "follower none", nullptr);
  ASSERT_TRUE(late.has_value());
  EXPECT_EQ(late->code, "game_over");
  EXPECT_EQ(state->Scores().size(), static_cast<size_t>(players));

  // The stored form: the order and the actions rebuild the same game.
  const std::vector<int> order = state->Order();
  auto again = rules.NewGameWithOrder(players, options, seed, order);
  ASSERT_TRUE(std::holds_alternative<std::unique_ptr<core::State>>(again));
  std::unique_ptr<core::State> replay = std::move(std::get<std::unique_ptr<core::State>>(again));
  for (const auto& [actor, action] : played) {
    ASSERT_FALSE(replay->Apply(actor, action, nullptr).has_value());
  }
  EXPECT_EQ(replay->Hash(), state->Hash());
  EXPECT_EQ(replay->Scores(), state->Scores());
  EXPECT_EQ(replay->Transcript(), state->Transcript());
  EXPECT_NE(state->Transcript().find("game carcassonne\n"), std::string::npos);
  EXPECT_NE(state->Transcript().find("options river=" + std::to_string(river) + "\n"),
            std::string::npos);
}

TEST(RiverRuleSet, RandomGamesPlayedByNotation) {
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    const int players = 2 + static_cast<int>(seed % 4);
    const int river = static_cast<int>(seed % 2);
    SCOPED_TRACE("seed " + std::to_string(seed));
    ASSERT_NO_FATAL_FAILURE(PlayByNotation(players, river, seed));
  }
}

TEST(RiverRuleSet, RefusalsComeBackAsRuleErrors) {
  auto made = Carcassonne().NewGame(2, {}, 3);
  std::unique_ptr<core::State> state = std::move(std::get<std::unique_ptr<core::State>>(made));
  ASSERT_EQ(state->CurrentActor(), core::kChanceActor);
  const std::string draw = state->LegalActions().front();
  ASSERT_FALSE(state->Apply(core::kChanceActor, draw, nullptr).has_value());
  const uint64_t hash = state->Hash();
  const auto malformed = state->Apply(0, "place here", nullptr);
  ASSERT_TRUE(malformed.has_value());
  EXPECT_EQ(malformed->code, "malformed");
  const auto occupied = state->Apply(0, "place 0 0 0", nullptr);
  ASSERT_TRUE(occupied.has_value());
  EXPECT_EQ(occupied->code, "cell_occupied");
  const auto wrong = state->Apply(0, "p1 place 1 0 0", nullptr);
  ASSERT_TRUE(wrong.has_value());
  EXPECT_EQ(wrong->code, "wrong_player");
  EXPECT_EQ(state->Hash(), hash);
}

}  // namespace
}  // namespace carc
