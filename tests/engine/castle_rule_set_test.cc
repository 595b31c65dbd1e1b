// The Castle through the rule-set boundary (core/rule_set.h), as the server, the game log and the
// tools see it: created, played to the end by its notation alone, cloned, and rebuilt from its
// order and actions.
#include <gtest/gtest.h>

#include <algorithm>

#include "castle/default_data.h"
#include "castle/rule_set.h"
#include "core/hash.h"

namespace carc {
namespace {

const core::RuleSet& TheCastle() {
  static const std::shared_ptr<const core::RuleSet> rules =
      castle::MakeRuleSet(castle::DefaultTileSet());
  return *rules;
}

TEST(CastleRuleSet, TypeAndTiles) {
  const core::GameType& type = TheCastle().Type();
  EXPECT_EQ(type.id, "the-castle");
  EXPECT_EQ(type.name, "Carcassonne: The Castle");
  EXPECT_EQ(type.min_players, 2);
  EXPECT_EQ(type.max_players, 2);
  EXPECT_TRUE(type.options.empty());
  EXPECT_EQ(TheCastle().Tiles().id(), "castle");
}

TEST(CastleRuleSet, BadSetUpsAreRefused) {
  const core::RuleSet& rules = TheCastle();
  const auto refused = [&](int players, const core::Options& options) {
    auto made = rules.NewGame(players, options, 1);
    return std::holds_alternative<core::RuleError>(made);
  };
  EXPECT_TRUE(refused(1, {}));
  EXPECT_TRUE(refused(3, {}));
  EXPECT_TRUE(refused(2, {{"river", 1}}));
  EXPECT_FALSE(refused(2, {}));
}

// Plays a game by text only: every step picks one of the legal actions' texts, applies it to the
// state and to a clone, and checks the hashes; at the end the order and the actions rebuild it.
void PlayByNotation(uint64_t seed) {
  const core::RuleSet& rules = TheCastle();
  auto made = rules.NewGame(2, {}, seed);
  ASSERT_TRUE(std::holds_alternative<std::unique_ptr<core::State>>(made));
  std::unique_ptr<core::State> state = std::move(std::get<std::unique_ptr<core::State>>(made));
  ASSERT_NE(castle::GameOf(*state), nullptr);
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
  EXPECT_EQ(state->Scores().size(), 2u);
  EXPECT_EQ(state->Players(), 2);

  // The stored form: the order and the actions rebuild the same game.
  const std::vector<int> order = state->Order();
  auto again = rules.NewGameWithOrder(2, {}, seed, order);
  ASSERT_TRUE(std::holds_alternative<std::unique_ptr<core::State>>(again));
  std::unique_ptr<core::State> replay = std::move(std::get<std::unique_ptr<core::State>>(again));
  for (const auto& [actor, action] : played) {
    ASSERT_FALSE(replay->Apply(actor, action, nullptr).has_value());
  }
  EXPECT_EQ(replay->Hash(), state->Hash());
  EXPECT_EQ(replay->Scores(), state->Scores());
  EXPECT_EQ(replay->Transcript(), state->Transcript());
  EXPECT_NE(state->Transcript().find("game the-castle\n"), std::string::npos);
  EXPECT_EQ(state->Transcript().find("options"), std::string::npos);
}

TEST(CastleRuleSet, RandomGamesPlayedByNotation) {
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    ASSERT_NO_FATAL_FAILURE(PlayByNotation(seed));
  }
}

TEST(CastleRuleSet, RefusalsComeBackAsRuleErrors) {
  auto made = TheCastle().NewGame(2, {}, 3);
  std::unique_ptr<core::State> state = std::move(std::get<std::unique_ptr<core::State>>(made));
  ASSERT_EQ(state->CurrentActor(), core::kChanceActor);
  const std::string draw = state->LegalActions().front();
  ASSERT_FALSE(state->Apply(core::kChanceActor, draw, nullptr).has_value());
  const uint64_t hash = state->Hash();
  const std::string transcript = state->Transcript();
  const auto malformed = state->Apply(0, "place here", nullptr);
  ASSERT_TRUE(malformed.has_value());
  EXPECT_EQ(malformed->code, "malformed");
  const auto outside = state->Apply(0, "place 0 0 0", nullptr);  // a corner tower of the wall
  ASSERT_TRUE(outside.has_value());
  EXPECT_EQ(outside->code, "outside_castle");
  const auto wrong = state->Apply(0, "p1 place 2 3 0", nullptr);
  ASSERT_TRUE(wrong.has_value());
  EXPECT_EQ(wrong->code, "wrong_player");
  EXPECT_EQ(state->Hash(), hash);
  EXPECT_EQ(state->Transcript(), transcript);
}

}  // namespace
}  // namespace carc
