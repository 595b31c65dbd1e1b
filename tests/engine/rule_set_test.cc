// The rule-set boundary (core/rule_set.h, registry.h): every rule set of the registry, played
// through the interface that knows no game, as the game log's replay and the tools play it.
#include "city/rule_set.h"

#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "city/default_tiles.h"
#include "core/hash.h"
#include "core/rule_set.h"
#include "registry.h"
#include "river/default_tiles.h"

namespace carc {
namespace {

std::unique_ptr<core::State> MustCreate(const core::RuleSet& rules, int players, uint64_t seed,
                                        const core::Options& options = {}) {
  auto created = rules.NewGame(players, options, seed);
  if (auto* error = std::get_if<core::RuleError>(&created)) {
    ADD_FAILURE() << rules.Type().id << ": " << error->message;
    return nullptr;
  }
  return std::get<std::unique_ptr<core::State>>(std::move(created));
}

// Plays a seeded random game to its end through the interface, checking at every step that a
// clone is the same game, that the incremental hash is the recomputed one, and that a refused
// action changes nothing. Returns the game's transcript of actions, one per line.
std::vector<std::string> PlayRandom(core::State& state, uint64_t seed) {
  core::Random random(seed);
  std::vector<std::string> played;
  while (!state.IsOver()) {
    const std::vector<std::string> legal = state.LegalActions();
    EXPECT_FALSE(legal.empty());
    if (legal.empty()) break;
    const std::string& action = legal[static_cast<size_t>(random.Below(legal.size()))];
    const std::unique_ptr<core::State> before = state.Clone();
    EXPECT_EQ(before->Hash(), state.Hash());

    // The wrong actor is refused, and nothing changes.
    const core::Actor wrong = state.CurrentActor() == 0 ? 1 : 0;
    EXPECT_TRUE(state.Apply(wrong, action, nullptr).has_value());
    EXPECT_EQ(state.Hash(), before->Hash());

    std::vector<std::string> events;
    const auto error = state.Apply(state.CurrentActor(), action, &events);
    EXPECT_FALSE(error.has_value()) << action << ": " << error->message;
    if (error) break;
    EXPECT_FALSE(events.empty()) << action;
    EXPECT_EQ(state.Hash(), state.RecomputeHash()) << "after " << action;
    played.push_back(action);
  }
  return played;
}

TEST(RuleSetRegistry, KnowsEveryRuleSetByIdAndVersion) {
  const RuleSetRegistry registry = DefaultRuleSets();
  ASSERT_FALSE(registry.All().empty());
  for (const core::RuleSet* rules : registry.All()) {
    const core::GameType& type = rules->Type();
    EXPECT_EQ(registry.Find(type.id), rules);
    EXPECT_EQ(registry.Find(type.id, type.version), rules);
    EXPECT_EQ(registry.Find(type.id, type.version + 1), nullptr);
    EXPECT_LE(2, type.min_players);
    EXPECT_LE(type.min_players, type.max_players);
    EXPECT_FALSE(rules->Tiles().id().empty());
  }
  EXPECT_NE(registry.Find("the-city"), nullptr);
  EXPECT_EQ(registry.Find("chess"), nullptr);
}

TEST(RuleSetRegistry, AddingTheSameIdAndVersionReplacesIt) {
  RuleSetRegistry registry = DefaultRuleSets();
  const size_t count = registry.All().size();
  // A server started with a replaced tile set registers The City again with its own tiles.
  const auto replaced = city::MakeRuleSet(city::DefaultTileSet());
  registry.Add(replaced);
  EXPECT_EQ(registry.All().size(), count);
  EXPECT_EQ(registry.Find("the-city"), replaced.get());
}

TEST(RuleSetOptions, FormatAndParseAreInverse) {
  const core::Options options = {{"river", 1}, {"a-b2", -3}};
  const std::string text = core::FormatOptions(options);
  EXPECT_EQ(text, "a-b2=-3 river=1");
  const auto parsed = core::ParseOptions(text);
  ASSERT_TRUE(std::holds_alternative<core::Options>(parsed));
  EXPECT_EQ(std::get<core::Options>(parsed), options);
  EXPECT_EQ(core::FormatOptions({}), "");
  EXPECT_TRUE(std::get<core::Options>(core::ParseOptions("")).empty());
}

TEST(RuleSetOptions, BadTextIsRefusedWithAReason) {
  for (const char* text : {"river", "river=", "river=x", "River=1", "river=1 river=0", "=1",
                           "river=1  bridge=0", "river=99999999999"}) {
    const auto parsed = core::ParseOptions(text);
    ASSERT_TRUE(std::holds_alternative<std::string>(parsed)) << text;
    EXPECT_FALSE(std::get<std::string>(parsed).empty()) << text;
  }
}

TEST(RuleSetOptions, UnknownOrOutOfRangeOptionsMakeNoGame) {
  const RuleSetRegistry registry = DefaultRuleSets();
  for (const core::RuleSet* rules : registry.All()) {
    auto unknown = rules->NewGame(rules->Type().min_players, {{"no-such-option", 1}}, 1);
    ASSERT_TRUE(std::holds_alternative<core::RuleError>(unknown)) << rules->Type().id;
    EXPECT_EQ(std::get<core::RuleError>(unknown).code, "unknown_option");
    for (const core::OptionSpec& spec : rules->Type().options) {
      auto out = rules->NewGame(rules->Type().min_players, {{spec.name, spec.max + 1}}, 1);
      ASSERT_TRUE(std::holds_alternative<core::RuleError>(out)) << spec.name;
      EXPECT_EQ(std::get<core::RuleError>(out).code, "option_out_of_range");
    }
  }
}

TEST(RuleSetGames, PlayerCountsOutsideTheTypeMakeNoGame) {
  const RuleSetRegistry registry = DefaultRuleSets();
  for (const core::RuleSet* rules : registry.All()) {
    const core::GameType& type = rules->Type();
    EXPECT_TRUE(
        std::holds_alternative<core::RuleError>(rules->NewGame(type.min_players - 1, {}, 1)));
    EXPECT_TRUE(
        std::holds_alternative<core::RuleError>(rules->NewGame(type.max_players + 1, {}, 1)));
    for (int players = type.min_players; players <= type.max_players; ++players) {
      const auto state = MustCreate(*rules, players, 5);
      ASSERT_NE(state, nullptr);
      EXPECT_EQ(state->Players(), players);
      EXPECT_EQ(state->CurrentActor(), core::kChanceActor);  // every game starts with a draw
      EXPECT_EQ(state->LegalActions().size(), 1u);
    }
  }
}

// Seeded random games through the interface; the same actions applied to a game made with the
// first one's drawing order give the same hashes (what the game log's replay relies on).
TEST(RuleSetGames, RandomGamesPlayToTheEndAndReplayFromTheirOrder) {
  const RuleSetRegistry registry = DefaultRuleSets();
  for (const core::RuleSet* rules : registry.All()) {
    const core::GameType& type = rules->Type();
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      SCOPED_TRACE(type.id + " seed " + std::to_string(seed));
      const int players =
          type.min_players +
          static_cast<int>(seed % static_cast<uint64_t>(type.max_players - type.min_players + 1));
      const auto state = MustCreate(*rules, players, seed);
      ASSERT_NE(state, nullptr);
      const std::vector<std::string> played = PlayRandom(*state, seed * 7919);
      ASSERT_TRUE(state->IsOver());
      EXPECT_TRUE(state->LegalActions().empty());
      EXPECT_EQ(state->Scores().size(), static_cast<size_t>(players));
      EXPECT_FALSE(state->Transcript().empty());

      auto again = rules->NewGameWithOrder(players, {}, seed, state->Order());
      ASSERT_TRUE(std::holds_alternative<std::unique_ptr<core::State>>(again));
      auto& replay = *std::get<std::unique_ptr<core::State>>(again);
      for (const std::string& action : played) {
        ASSERT_FALSE(replay.Apply(replay.CurrentActor(), action, nullptr).has_value()) << action;
      }
      EXPECT_EQ(replay.Hash(), state->Hash());
      EXPECT_EQ(replay.Scores(), state->Scores());
    }
  }
}

TEST(RuleSetGames, ANonsenseActionIsRefusedAndChangesNothing) {
  const RuleSetRegistry registry = DefaultRuleSets();
  for (const core::RuleSet* rules : registry.All()) {
    const auto state = MustCreate(*rules, rules->Type().min_players, 3);
    ASSERT_NE(state, nullptr);
    const uint64_t hash = state->Hash();
    for (const char* text : {"", "fly away", "draw", "draw 9999", "place 0 0 9"}) {
      const auto error = state->Apply(state->CurrentActor(), text, nullptr);
      ASSERT_TRUE(error.has_value()) << text;
      EXPECT_FALSE(error->message.empty());
      EXPECT_EQ(state->Hash(), hash);
    }
  }
}

// Tile sets are shared by the games' format, not by their rules: The City refuses tiles with
// features it does not know, whatever their count.
TEST(RuleSetGames, TheCityRefusesTheTilesOfAnotherGame) {
  const auto tiles = river::DefaultTileSet();
  city::Config config;
  config.stack_sizes = {30, 30, tiles->TileCount() - 60};
  const auto game = city::Game::Create(tiles, config, 1);
  ASSERT_TRUE(std::holds_alternative<std::string>(game));
  EXPECT_NE(std::get<std::string>(game).find("The City's tiles hold streets, residential areas and "
                                             "markets only"),
            std::string::npos)
      << std::get<std::string>(game);
}

}  // namespace
}  // namespace carc
