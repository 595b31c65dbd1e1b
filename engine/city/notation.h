// The text notation of actions, used by action-list files and transcripts (docs/formats.md).
//
//   draw 17            place 0 -1 3        follower b       follower none
//   gate 0 -1 S        wall front          guard yes        guard no
//   tower back         tower none
//
// A line may start with its actor, `p0` .. `p3` or `chance`; without one, the action is taken by
// whoever must decide. Follower features are named by their letter or digit in the tile file.
// Parsing needs the game the action is meant for (to name a placed tile's features).
#pragma once

#include <string>
#include <string_view>
#include <variant>

#include "city/action.h"
#include "city/game.h"
#include "core/notation.h"

namespace carc::city {

using ParsedAction = core::ParsedAction<Action>;
using core::FormatActor;

// Formats an action as the game before it would see it (no actor prefix).
std::string FormatAction(const Game& game, const Action& action);
// The same, for a client that holds no Game: `last_placed` is the type of the tile placed last
// (null before any), whose features a follower's action names.
std::string FormatAction(const core::TileType* last_placed, const Action& action);
// One event as a line of `name key=value ...`, e.g.
// "tile_placed player=0 tile=12 x=0 y=-1 rotation=3". Stable: golden transcripts use it.
std::string FormatEvent(const Event& event);
// Parses one line (no comment, not blank) of the notation; the error says what is wrong.
std::variant<ParsedAction, std::string> ParseAction(const Game& game, std::string_view line);

}  // namespace carc::city
