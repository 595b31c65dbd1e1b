// The bots (engine/bots/): legal, reproducible, ordered in strength, and blind to what is hidden.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "bots/bot.h"
#include "castle/game.h"
#include "castle/rule_set.h"
#include "core/hash.h"
#include "core/rule_set.h"
#include "game_setups.h"
#include "registry.h"

namespace carc::bots {
namespace {

using engine_tests::GameSetup;
using engine_tests::GameSetups;
using engine_tests::Name;
using engine_tests::NewGame;
using engine_tests::Registry;

using Played = std::vector<std::pair<core::Actor, std::string>>;

// Seeded random actions, then draws up to a player's decision.
Played Advance(core::State& state, int steps, uint64_t seed) {
  core::Random random(seed);
  Played played;
  const auto apply = [&](const std::string& action) {
    const core::Actor actor = state.CurrentActor();
    EXPECT_FALSE(state.Apply(actor, action, nullptr).has_value());
    played.emplace_back(actor, action);
  };
  for (int i = 0; i < steps && !state.IsOver(); ++i) {
    const std::vector<std::string> legal = state.LegalActions();
    apply(legal[static_cast<size_t>(random.Below(legal.size()))]);
  }
  while (!state.IsOver() && state.CurrentActor() == core::kChanceActor) {
    apply(state.LegalActions().front());
  }
  return played;
}

// A game with `seat_bots[seat]` in each seat; its final scores. Every choice must be legal.
std::vector<int> PlayGame(const GameSetup& setup, uint64_t seed,
                          const std::vector<const Bot*>& seat_bots) {
  std::unique_ptr<core::State> state = NewGame(setup, seed);
  uint64_t step = 0;
  while (!state->IsOver()) {
    const core::Actor actor = state->CurrentActor();
    const std::vector<std::string> legal = state->LegalActions();
    std::string action = legal.front();
    if (actor != core::kChanceActor) {
      action = seat_bots[static_cast<size_t>(actor)]->Choose(*state, core::Mix64(seed + ++step));
      EXPECT_NE(std::find(legal.begin(), legal.end(), action), legal.end())
          << ToString(seat_bots[static_cast<size_t>(actor)]->level()) << " chose " << action;
    }
    const auto error = state->Apply(actor, action, nullptr);
    if (error) {
      ADD_FAILURE() << action << ": " << error->message;
      break;
    }
  }
  return state->Scores();
}

// Wins of `a` and of `b` (ties split) over `pairs` pairs of 2-player games, seats swapped.
std::pair<double, double> Match(const GameSetup& setup, const Bot& a, const Bot& b, int pairs) {
  double a_wins = 0, b_wins = 0;
  for (int g = 0; g < 2 * pairs; ++g) {
    const bool a_first = g % 2 == 0;
    const std::vector<int> scores = PlayGame(setup, 100 + static_cast<uint64_t>(g / 2),
                                             a_first ? std::vector{&a, &b} : std::vector{&b, &a});
    const int a_score = scores[a_first ? 0 : 1], b_score = scores[a_first ? 1 : 0];
    a_wins += a_score > b_score ? 1 : a_score == b_score ? 0.5 : 0;
    b_wins += b_score > a_score ? 1 : a_score == b_score ? 0.5 : 0;
  }
  return {a_wins, b_wins};
}

constexpr Budget kSmallBudget{.playouts = 4, .max_microseconds = 0};

TEST(Bots, LevelsHaveNames) {
  for (const Level level : AllLevels()) EXPECT_EQ(ParseLevel(ToString(level)), level);
  EXPECT_EQ(ParseLevel("grandmaster"), std::nullopt);
  for (const Level level : AllLevels()) EXPECT_EQ(MakeBot(level)->level(), level);
}

TEST(Bots, EveryLevelChoosesALegalActionAtEveryDecision) {
  for (const GameSetup& setup : GameSetups()) {
    SCOPED_TRACE(Name(setup));
    for (const Level level : AllLevels()) {
      SCOPED_TRACE(ToString(level));
      const std::unique_ptr<Bot> bot = MakeBot(level, kSmallBudget);
      const std::vector<int> scores = PlayGame(
          setup, 7, std::vector<const Bot*>(static_cast<size_t>(setup.players), bot.get()));
      EXPECT_EQ(scores.size(), static_cast<size_t>(setup.players));
    }
  }
}

TEST(Bots, TheSameStateAndSeedGiveTheSameAction) {
  for (const GameSetup& setup : GameSetups()) {
    SCOPED_TRACE(Name(setup));
    for (const int steps : {0, 30, 90}) {
      const std::unique_ptr<core::State> state = NewGame(setup, 3);
      Advance(*state, steps, 9);
      if (state->IsOver()) continue;
      for (const Level level : AllLevels()) {
        const std::unique_ptr<Bot> bot = MakeBot(level, Budget{.playouts = 30});
        const std::string first = bot->Choose(*state, 42);
        EXPECT_EQ(bot->Choose(*state->Clone(), 42), first) << ToString(level);
      }
    }
  }
}

TEST(Bots, AStrongBotWithAPlayoutHorizonPlaysLegallyAndReproducibly) {
  const std::unique_ptr<Bot> bot =
      MakeBot(Level::kStrong, Budget{.playouts = 6, .playout_steps = 5});
  for (const GameSetup& setup : GameSetups()) {
    SCOPED_TRACE(Name(setup));
    const std::vector<int> scores =
        PlayGame(setup, 7, std::vector<const Bot*>(static_cast<size_t>(setup.players), bot.get()));
    EXPECT_EQ(scores.size(), static_cast<size_t>(setup.players));
    const std::unique_ptr<core::State> state = NewGame(setup, 3);
    Advance(*state, 40, 9);
    if (state->IsOver()) continue;
    const std::string first = bot->Choose(*state, 42);
    EXPECT_EQ(bot->Choose(*state->Clone(), 42), first);
  }
}

// The horizon reaches the search: cut after one action, the playouts score other positions than
// whole games, and somewhere in a game the choice differs.
TEST(Bots, TheStrongBotsPlayoutHorizonChangesItsChoices) {
  const Budget whole{.playouts = 40};
  const Budget cut{.playouts = 40, .playout_steps = 1};
  const std::unique_ptr<Bot> to_the_end = MakeBot(Level::kStrong, whole);
  const std::unique_ptr<Bot> one_step = MakeBot(Level::kStrong, cut);
  for (const GameSetup& setup : GameSetups()) {
    SCOPED_TRACE(Name(setup));
    const std::unique_ptr<core::State> state = NewGame(setup, 12);
    core::Random random(6);
    int differ = 0;
    for (int step = 0; step < 60 && !state->IsOver(); ++step) {
      const std::vector<std::string> legal = state->LegalActions();
      if (state->CurrentActor() != core::kChanceActor && legal.size() > 2) {
        differ += to_the_end->Choose(*state, 17) != one_step->Choose(*state, 17) ? 1 : 0;
      }
      ASSERT_FALSE(state->Apply(state->CurrentActor(),
                                legal[static_cast<size_t>(random.Below(legal.size()))], nullptr));
    }
    EXPECT_GT(differ, 0);
  }
}

TEST(Bots, ThePlayoutHorizonIsTheHostsChoiceElseTheRuleSets) {
  const core::GameType& castle = castle::Type();
  EXPECT_EQ(castle.playout_horizon, 4);
  EXPECT_EQ(PlayoutStepsFor(castle, std::nullopt), 4);
  EXPECT_EQ(PlayoutStepsFor(castle, 0), 0);
  EXPECT_EQ(PlayoutStepsFor(castle, 12), 12);
  for (const GameSetup& setup : GameSetups()) {
    const core::GameType& type = Registry().Find(setup.rule_set)->Type();
    if (type.id != castle.id) {
      EXPECT_EQ(PlayoutStepsFor(type, std::nullopt), core::kToTheEnd) << type.id;
    }
  }
}

TEST(Bots, AStrongBotWithOneLegalActionAnswersIt) {
  const std::unique_ptr<core::State> state = NewGame(GameSetups().front(), 5);
  Advance(*state, 0, 1);
  // The first decision of The City places the first tile at the origin, in any rotation; play
  // until a decision with one choice comes, and check that the bot gives it.
  core::Random random(3);
  const std::unique_ptr<Bot> bot = MakeBot(Level::kStrong, Budget{.playouts = 1000000});
  for (int i = 0; i < 400 && !state->IsOver(); ++i) {
    const std::vector<std::string> legal = state->LegalActions();
    if (state->CurrentActor() != core::kChanceActor && legal.size() == 1) {
      EXPECT_EQ(bot->Choose(*state, 1), legal.front());  // no million playouts: at once
      return;
    }
    ASSERT_FALSE(state->Apply(state->CurrentActor(),
                              legal[static_cast<size_t>(random.Below(legal.size()))], nullptr));
  }
  GTEST_SKIP() << "no decision with a single legal action in this game";
}

TEST(Bots, GreedyBeatsRandom) {
  const std::unique_ptr<Bot> greedy = MakeBot(Level::kGreedy);
  const std::unique_ptr<Bot> random = MakeBot(Level::kRandom);
  for (const GameSetup& setup : {GameSetups()[0], GameSetups()[4]}) {
    SCOPED_TRACE(Name(setup));
    const auto [greedy_wins, random_wins] = Match(setup, *greedy, *random, 5);
    EXPECT_GT(greedy_wins, random_wins);
  }
}

TEST(Bots, StrongBeatsGreedy) {
  const std::unique_ptr<Bot> strong = MakeBot(Level::kStrong, Budget{.playouts = 40});
  const std::unique_ptr<Bot> greedy = MakeBot(Level::kGreedy);
  const auto [strong_wins, greedy_wins] = Match(GameSetups()[0], *strong, *greedy, 2);
  EXPECT_GT(strong_wins, greedy_wins);
}

// Two games with the same public history and different hidden orders: every bot answers the
// same, so none reads the order.
TEST(Bots, NoBotReadsTheHiddenOrder) {
  for (const GameSetup& setup : GameSetups()) {
    SCOPED_TRACE(Name(setup));
    for (const int steps : {10, 60}) {
      const std::unique_ptr<core::State> state = NewGame(setup, 13);
      const Played played = Advance(*state, steps, 4);
      if (state->IsOver()) continue;
      const std::vector<int> other_order = state->Redetermined(1234)->Order();
      ASSERT_NE(other_order, state->Order());
      auto created = Registry()
                         .Find(setup.rule_set)
                         ->NewGameWithOrder(setup.players, setup.options, 13, other_order);
      const std::unique_ptr<core::State> twin =
          std::get<std::unique_ptr<core::State>>(std::move(created));
      for (const auto& [actor, action] : played) {
        ASSERT_FALSE(twin->Apply(actor, action, nullptr).has_value()) << action;
      }
      ASSERT_EQ(twin->Hash(), state->Hash());
      for (const Level level : AllLevels()) {
        const std::unique_ptr<Bot> bot = MakeBot(level, Budget{.playouts = 60});
        EXPECT_EQ(bot->Choose(*twin, 77), bot->Choose(*state, 77)) << ToString(level);
      }
    }
  }
}

// The Castle's face-down wall tiles are hidden too.
TEST(Bots, NoBotReadsTheCastlesFaceDownWallTiles) {
  const GameSetup& setup = GameSetups().back();
  const std::unique_ptr<core::State> state = NewGame(setup, 17);
  const castle::Game& game = *castle::GameOf(*state);
  const std::vector<int> wall = game.WallLayout();
  std::vector<int> other_wall(wall.begin() + 1, wall.end());  // the first corner holds none
  std::rotate(other_wall.begin(), other_wall.begin() + 1, other_wall.end());
  ASSERT_NE(std::vector<int>(wall.begin() + 1, wall.end()), other_wall);
  auto twin_game = castle::Game::CreateWithOrder(game.shared_tiles(), game.config(), 17,
                                                 game.Order(), other_wall);
  const std::unique_ptr<core::State> twin =
      castle::WrapGame(std::get<castle::Game>(std::move(twin_game)));
  const Played played = Advance(*state, 40, 6);
  for (const auto& [actor, action] : played) {
    ASSERT_FALSE(twin->Apply(actor, action, nullptr).has_value()) << action;
  }
  ASSERT_EQ(twin->Hash(), state->Hash());
  for (const Level level : AllLevels()) {
    const std::unique_ptr<Bot> bot = MakeBot(level, Budget{.playouts = 60});
    EXPECT_EQ(bot->Choose(*twin, 5), bot->Choose(*state, 5)) << ToString(level);
  }
}

TEST(Bots, RewardPrefersAWinAndABiggerMargin) {
  EXPECT_GT(Reward(std::vector{30, 20}, 0), Reward(std::vector{20, 30}, 0));
  EXPECT_GT(Reward(std::vector{40, 20}, 0), Reward(std::vector{30, 20}, 0));
  EXPECT_DOUBLE_EQ(Reward(std::vector{25, 25}, 0), Reward(std::vector{25, 25}, 1));
  EXPECT_DOUBLE_EQ(Reward(std::vector{25, 25}, 0), 0.5);
  for (const auto& scores : {std::vector{0, 100, 3, 3}, std::vector{9, 9, 9, 1}}) {
    for (int p = 0; p < 4; ++p) {
      EXPECT_GE(Reward(scores, p), 0.0);
      EXPECT_LE(Reward(scores, p), 1.0);
    }
  }
}

}  // namespace
}  // namespace carc::bots
