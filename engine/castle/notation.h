// The text notation of The Castle's actions and events, used by action-list files, transcripts
// and the rule-set boundary (docs/formats.md):
//
//   draw 17            place 4 11 3        follower b          follower none
//   score 4 11 a       score 4 11 a double
//   extra-turn yes     extra-turn no
//   walltile 4 5 8 1   walltile 7 none
//
// A line may start with its actor, `p0` or `p1` or `chance`; without one, the action is taken by
// whoever must decide. Features are named by their letter or digit in the tile file: a
// follower's on the tile placed last, a scored feature's or a wall tile's on the tile at the
// cell given (the feature's first tile). Parsing needs the game the action is meant for.
#pragma once

#include <string>
#include <string_view>
#include <variant>

#include "castle/action.h"
#include "castle/game.h"
#include "core/notation.h"

namespace carc::castle {

using ParsedAction = core::ParsedAction<Action>;
using core::FormatActor;

// Formats an action as the game before it would see it (no actor prefix).
std::string FormatAction(const Game& game, const Action& action);
// The same, for a client that holds no Game: `last_placed` is the type of the tile placed last
// (null before any), and `at_cell` the type of the tile at the action's cell (for score and
// walltile actions; null otherwise).
std::string FormatAction(const core::TileType* last_placed, const core::TileType* at_cell,
                         const Action& action);
// One event as a line of `name key=value ...`. Stable: golden transcripts use it.
std::string FormatEvent(const Event& event);
// Parses one line (no comment, not blank) of the notation; the error says what is wrong.
std::variant<ParsedAction, std::string> ParseAction(const Game& game, std::string_view line);

}  // namespace carc::castle
