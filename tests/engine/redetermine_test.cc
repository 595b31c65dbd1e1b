// Hidden information redrawn (core::State::Redetermined) and fast random playouts
// (core::State::PlayOut), for every rule set: the public state stays, the hidden one is drawn
// anew from the seed alone, and the result plays on legally.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "castle/game.h"
#include "castle/rule_set.h"
#include "core/hash.h"
#include "core/rule_set.h"
#include "game_setups.h"
#include "registry.h"

namespace carc {
namespace {

using engine_tests::GameSetup;
using engine_tests::GameSetups;
using engine_tests::Name;
using engine_tests::NewGame;
using engine_tests::Registry;

// Plays `steps` seeded random actions (fewer if the game ends), then any draws up to a player's
// decision; the actions, for a replay.
std::vector<std::pair<core::Actor, std::string>> Advance(core::State& state, int steps,
                                                         uint64_t seed) {
  core::Random random(seed);
  std::vector<std::pair<core::Actor, std::string>> played;
  for (int i = 0; i < steps && !state.IsOver(); ++i) {
    const std::vector<std::string> legal = state.LegalActions();
    const std::string action = legal[static_cast<size_t>(random.Below(legal.size()))];
    const core::Actor actor = state.CurrentActor();
    EXPECT_FALSE(state.Apply(actor, action, nullptr).has_value());
    played.emplace_back(actor, action);
  }
  // On to a player's decision: the draw's action names the next tile, which is not public.
  while (!state.IsOver() && state.CurrentActor() == core::kChanceActor) {
    const std::string draw = state.LegalActions().front();
    EXPECT_FALSE(state.Apply(core::kChanceActor, draw, nullptr).has_value());
    played.emplace_back(core::kChanceActor, draw);
  }
  return played;
}

int Draws(const std::vector<std::pair<core::Actor, std::string>>& played) {
  return static_cast<int>(std::count_if(
      played.begin(), played.end(), [](const auto& p) { return p.first == core::kChanceActor; }));
}

// Plays uniform random actions through the text interface, checking every step: to the end, or
// `max_steps` actions (draws included) if that comes first. The actions played.
int PlayLegally(core::State& state, uint64_t seed, int max_steps = core::kToTheEnd) {
  core::Random random(seed);
  int steps = 0;
  for (; !state.IsOver() && (max_steps == core::kToTheEnd || steps < max_steps); ++steps) {
    const std::vector<std::string> legal = state.LegalActions();
    if (legal.empty()) {
      ADD_FAILURE() << "a game not over without a legal action";
      break;
    }
    const std::string& action = legal[static_cast<size_t>(random.Below(legal.size()))];
    const auto error = state.Apply(state.CurrentActor(), action, nullptr);
    EXPECT_FALSE(error.has_value()) << action << ": " << error->message;
    EXPECT_EQ(state.Hash(), state.RecomputeHash());
    if (error) break;
  }
  return steps;
}

std::vector<int> Sorted(std::vector<int> v) {
  std::sort(v.begin(), v.end());
  return v;
}

TEST(Redetermined, KeepsThePublicStateAndRedrawsTheUndrawnTiles) {
  for (const GameSetup& setup : GameSetups()) {
    SCOPED_TRACE(Name(setup));
    for (const int steps : {0, 7, 40, 120}) {
      SCOPED_TRACE(steps);
      const std::unique_ptr<core::State> state = NewGame(setup, 11);
      const auto played = Advance(*state, steps, 5);
      const size_t drawn = static_cast<size_t>(setup.order_offset + Draws(played));
      const std::vector<int> order = state->Order();
      std::vector<std::vector<int>> orders;
      for (const uint64_t seed : {1u, 2u, 3u}) {
        const std::unique_ptr<core::State> other = state->Redetermined(seed);
        EXPECT_EQ(other->Hash(), state->Hash());
        EXPECT_EQ(other->RecomputeHash(), state->Hash());
        EXPECT_EQ(other->LegalActions(), state->LegalActions());
        EXPECT_EQ(other->Scores(), state->Scores());
        const std::vector<int> redrawn = other->Order();
        // The tiles drawn stay, the rest are the same tiles, and the order is one the game
        // accepts (the River's stack first, the lake last).
        ASSERT_EQ(redrawn.size(), order.size());
        EXPECT_TRUE(std::equal(order.begin(), order.begin() + static_cast<ptrdiff_t>(drawn),
                               redrawn.begin()));
        EXPECT_EQ(Sorted(redrawn), Sorted(order));
        EXPECT_FALSE(std::holds_alternative<core::RuleError>(
            Registry()
                .Find(setup.rule_set)
                ->NewGameWithOrder(setup.players, setup.options, 1, redrawn)));
        // The same seed redraws the same way.
        EXPECT_EQ(state->Redetermined(seed)->Order(), redrawn);
        orders.push_back(redrawn);
        PlayLegally(*other, seed);
      }
      if (order.size() - drawn > 3) {
        EXPECT_TRUE(orders[0] != orders[1] || orders[1] != orders[2]) << "the future is redrawn";
      }
    }
  }
}

// The redrawn order depends on the public state and the seed only: the same public history
// with another hidden order gives the same result.
TEST(Redetermined, OwesNothingToTheHiddenOrder) {
  for (const GameSetup& setup : GameSetups()) {
    SCOPED_TRACE(Name(setup));
    const std::unique_ptr<core::State> state = NewGame(setup, 21);
    const auto played = Advance(*state, 30, 8);
    // Another game whose order agrees on the tiles drawn and differs after them.
    const std::vector<int> other_order = state->Redetermined(99)->Order();
    ASSERT_NE(other_order, state->Order());
    auto created = Registry()
                       .Find(setup.rule_set)
                       ->NewGameWithOrder(setup.players, setup.options, 21, other_order);
    std::unique_ptr<core::State> twin = std::get<std::unique_ptr<core::State>>(std::move(created));
    for (const auto& [actor, action] : played) {
      ASSERT_FALSE(twin->Apply(actor, action, nullptr).has_value()) << action;
    }
    ASSERT_EQ(twin->Hash(), state->Hash());
    EXPECT_EQ(twin->Redetermined(4)->Order(), state->Redetermined(4)->Order());
  }
}

TEST(Redetermined, DrawsTheCastlesFaceDownWallTilesAnew) {
  const castle::Game* game = nullptr;
  const GameSetup setup = GameSetups().back();
  std::unique_ptr<core::State> state = NewGame(setup, 3);
  game = castle::GameOf(*state);
  ASSERT_NE(game, nullptr);
  const std::vector<int> wall = game->WallLayout();
  bool differs = false;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    const std::unique_ptr<core::State> other = state->Redetermined(seed);
    const std::vector<int> redrawn = castle::GameOf(*other)->WallLayout();
    ASSERT_EQ(redrawn.size(), wall.size());
    EXPECT_EQ(redrawn.front(), 0);  // the first corner holds none
    differs = differs || redrawn != wall;
    EXPECT_EQ(other->Hash(), state->Hash());
  }
  EXPECT_TRUE(differs);
  // Wall tiles taken stay what they were: play on until one is taken, then redraw.
  core::Random random(17);
  const uint16_t at_start = game->counters().wall_corners;
  while (!state->IsOver() && castle::GameOf(*state)->counters().wall_corners == at_start) {
    const std::vector<std::string> legal = state->LegalActions();
    ASSERT_FALSE(state->Apply(state->CurrentActor(),
                              legal[static_cast<size_t>(random.Below(legal.size()))], nullptr));
  }
  const castle::Game& now = *castle::GameOf(*state);
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    const std::vector<int> redrawn = castle::GameOf(*state->Redetermined(seed))->WallLayout();
    for (size_t corner = 1; corner < redrawn.size(); ++corner) {
      if (!(now.counters().wall_corners & (1u << corner))) {
        EXPECT_EQ(redrawn[corner], now.WallLayout()[corner]) << "corner " << corner;
      }
    }
  }
}

// PlayOut plays exactly what uniform random choices through the text interface play.
TEST(PlayOut, IsARandomGameToTheEnd) {
  for (const GameSetup& setup : GameSetups()) {
    SCOPED_TRACE(Name(setup));
    const std::unique_ptr<core::State> state = NewGame(setup, 31);
    Advance(*state, 25, 2);
    const std::unique_ptr<core::State> fast = state->Clone();
    const std::vector<int> scores = fast->PlayOut(77, core::Policy::kUniform, core::kToTheEnd);
    EXPECT_TRUE(fast->IsOver());
    EXPECT_EQ(scores, fast->Scores());
    EXPECT_EQ(fast->Hash(), fast->RecomputeHash());

    const std::unique_ptr<core::State> slow = state->Clone();
    PlayLegally(*slow, 77);
    EXPECT_EQ(slow->Hash(), fast->Hash());
    EXPECT_EQ(slow->Scores(), scores);
    EXPECT_EQ(state->Clone()->PlayOut(77, core::Policy::kUniform, core::kToTheEnd), scores);
  }
}

// With a horizon, PlayOut stops after that many actions, chance draws included, at the state the
// same random choices through the text interface reach, and gives the points so far.
TEST(PlayOut, StopsAfterMaxStepsWhereTheSameChoicesLead) {
  for (const GameSetup& setup : GameSetups()) {
    SCOPED_TRACE(Name(setup));
    const std::unique_ptr<core::State> state = NewGame(setup, 31);
    Advance(*state, 25, 2);
    const std::unique_ptr<core::State> whole = state->Clone();
    const int length = PlayLegally(*whole, 77);
    ASSERT_GT(length, 40);
    for (const int max_steps : {1, 2, 12, 40, length - 1}) {
      SCOPED_TRACE(max_steps);
      const std::unique_ptr<core::State> cut = state->Clone();
      const std::vector<int> scores = cut->PlayOut(77, core::Policy::kUniform, max_steps);
      EXPECT_FALSE(cut->IsOver());
      EXPECT_EQ(scores, cut->Scores());
      EXPECT_EQ(cut->Hash(), cut->RecomputeHash());

      const std::unique_ptr<core::State> slow = state->Clone();
      EXPECT_EQ(PlayLegally(*slow, 77, max_steps), max_steps);
      EXPECT_EQ(slow->Hash(), cut->Hash());
      EXPECT_EQ(slow->CurrentActor(), cut->CurrentActor());
      EXPECT_EQ(slow->Scores(), scores);
    }
    // A horizon the game does not reach: the whole playout.
    for (const int max_steps : {length, length + 1000}) {
      const std::unique_ptr<core::State> past = state->Clone();
      EXPECT_EQ(past->PlayOut(77, core::Policy::kUniform, max_steps), whole->Scores());
      EXPECT_TRUE(past->IsOver());
      EXPECT_EQ(past->Hash(), whole->Hash());
    }
  }
}

TEST(PlayOut, WithAHorizonIsReproducibleForASeed) {
  for (const GameSetup& setup : GameSetups()) {
    SCOPED_TRACE(Name(setup));
    const std::unique_ptr<core::State> state = NewGame(setup, 8);
    Advance(*state, 30, 4);
    const std::unique_ptr<core::State> first = state->Clone();
    const std::vector<int> scores = first->PlayOut(5, core::Policy::kEager, 16);
    const std::unique_ptr<core::State> second = state->Clone();
    EXPECT_EQ(second->PlayOut(5, core::Policy::kEager, 16), scores);
    EXPECT_EQ(second->Hash(), first->Hash());
  }
}

}  // namespace
}  // namespace carc
