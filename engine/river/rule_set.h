// Carcassonne (with the River) behind the rule-set boundary (core/rule_set.h): its GameType, and
// a State that wraps a river::Game. Code written for this game reaches the typed game through
// GameOf.
#pragma once

#include <memory>

#include "core/game_state.h"
#include "core/rule_set.h"
#include "river/game.h"
#include "river/notation.h"
#include "river/random_play.h"
#include "river/transcript.h"

namespace carc::river {

inline constexpr const char* kRuleSetId = "carcassonne";
// 1: the 2012 rulebook with the River, and the decisions of docs/rules.md.
inline constexpr int kRuleSetVersion = 1;

// The State of this game: typed access (its game, its last action and events, a typed apply)
// for code written for it, such as its protocol package.
using RiverState = core::GameState<Game, Action, Event, Error>;

const core::GameType& Type();
std::shared_ptr<const core::RuleSet> MakeRuleSet(std::shared_ptr<const core::TileSet> tiles);
// A State of Carcassonne wrapping `game`.
std::unique_ptr<core::State> WrapGame(Game game);
// The typed game behind a State of Carcassonne; null for a State of another rule set.
const Game* GameOf(const core::State& state);
// The typed State behind a State of this game; null for a State of another rule set.
const RiverState* StateOf(const core::State& state);
RiverState* StateOf(core::State& state);

}  // namespace carc::river
