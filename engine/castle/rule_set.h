// The Castle behind the rule-set boundary (core/rule_set.h): its GameType, and a State that wraps
// a castle::Game. Code written for this game reaches the typed game through GameOf.
#pragma once

#include <memory>

#include "castle/game.h"
#include "castle/notation.h"
#include "castle/random_play.h"
#include "castle/transcript.h"
#include "core/game_state.h"
#include "core/rule_set.h"

namespace carc::castle {

inline constexpr const char* kRuleSetId = "the-castle";
// 1: the 2003 rule book, and the decisions of docs/rules.md.
inline constexpr int kRuleSetVersion = 1;

// The State of this game: typed access (its game, its last action and events, a typed apply)
// for code written for it, such as its protocol package.
using CastleState = core::GameState<Game, Action, Event, Error>;

const core::GameType& Type();
// The Castle played with `tiles` on the board compiled in.
std::shared_ptr<const core::RuleSet> MakeRuleSet(std::shared_ptr<const core::TileSet> tiles);
// A State of The Castle wrapping `game`.
std::unique_ptr<core::State> WrapGame(Game game);
// The typed game behind a State of The Castle; null for a State of another rule set.
const Game* GameOf(const core::State& state);
// The typed State behind a State of this game; null for a State of another rule set.
const CastleState* StateOf(const core::State& state);
CastleState* StateOf(core::State& state);

}  // namespace carc::castle
