// The City behind the rule-set boundary (core/rule_set.h): its GameType, and a State that wraps a
// city::Game. Code written for The City (its protocol package, its clients) reaches the typed
// game through GameOf.
#pragma once

#include <memory>
#include <span>

#include "city/game.h"
#include "city/notation.h"
#include "city/random_play.h"
#include "city/transcript.h"
#include "core/game_state.h"
#include "core/rule_set.h"

namespace carc::city {

inline constexpr const char* kRuleSetId = "the-city";
// 1: the rules of docs/rules.md with rulings R1-R31.
inline constexpr int kRuleSetVersion = 1;

// The State of this game: typed access (its game, its last action and events, a typed apply)
// for code written for it, such as its protocol package.
using CityState = core::GameState<Game, Action, Event, Error>;

const core::GameType& Type();
std::shared_ptr<const core::RuleSet> MakeRuleSet(std::shared_ptr<const core::TileSet> tiles);
// A State of The City wrapping `game`.
std::unique_ptr<core::State> WrapGame(Game game);
// The typed game behind a State of The City; null for a State of another rule set.
const Game* GameOf(const core::State& state);
// The typed State behind a State of this game; null for a State of another rule set.
const CityState* StateOf(const core::State& state);
CityState* StateOf(core::State& state);
// The typed events of the last action applied to a State of The City (empty before the first,
// and for a State of another rule set).
std::span<const Event> LastEvents(const core::State& state);

}  // namespace carc::city
