// What the client shows of a game it follows (protocol::Follower), whatever the game: the state
// as text and JSON, whose decision, the scores, the notable events of a step, the result. A game
// with a drawing of its own (games.h) is drawn with it; any other game the protocol carries is
// shown as plain text (whose decision, the scores, the legal actions), never refused.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/hash.h"
#include "core/tileset.h"
#include "protocol/envelope.h"
#include "protocol/follower.h"

namespace carc::client {

namespace wire = protocol::wire;
using protocol::HashHex;  // 16 hex digits

// A text picture: the sequence and state hash, then the game's drawing (or whose decision, the
// scores and the legal actions, for a game without one).
std::string RenderState(const protocol::Follower& follower, const core::TileSet& tiles);
// The state as JSON (show --json, replay's final state): rule_set, sequence, state_hash, actor,
// over, scores, and whatever the game's drawing adds.
nlohmann::json StateJson(const protocol::Follower& follower);
// [{"seat": 0, "total": 67, ...}, ...]: by source where the game's drawing says.
nlohmann::json ScoresJson(const protocol::Follower& follower);
// Whose decision, in words: "seat 2 must place_follower", "the server draws", ...
std::string DescribeDecision(const protocol::Follower& follower);
// How the game ended, in the game's words ("last_tile_placed"; "over" for a game without a
// drawing); "none" while it runs.
std::string EndedBy(const protocol::Follower& follower);
// An action in the game's notation, with the name of the tile from `tiles` for a draw:
// "draw 17 (market-street)".
std::string ActionText(std::string_view action, const core::TileSet& tiles);
// What legal action `index` would do, for a person choosing it; empty when nothing to add.
std::string ActionHint(const protocol::Follower& follower, const core::TileSet& tiles,
                       size_t index);
// The events of the last delta applied worth showing (the game's drawing chooses; every event
// for a game without one), in the game's notation.
std::vector<std::string> NotableEvents(const protocol::Follower& follower);
// The seats with the most points once the game is over; empty while it runs.
std::vector<int> Winners(const protocol::Follower& follower);
// "seat 0 25 (you), seat 1 26": every seat's total; `own_seat` is marked (-1: nobody).
std::string ScoresText(const protocol::Follower& follower, int own_seat);
// "game g6 is over (last_tile_placed); scores: seat 0 25, seat 1 26; winners: seat 1".
std::string GameOverText(const std::string& game_id, const protocol::Follower& follower,
                         int own_seat);
// A bot's choice among the follower's legal actions (an index): uniform, or eager (a piece placed
// nine times in ten when the game's drawing says which actions place one).
size_t ChooseAction(const protocol::Follower& follower, bool eager, core::Random& random);
std::string StatusName(wire::GameStatus status);  // "open", "running", "finished"
// "chat #3 after step 12, ann (seat 0): good luck": a chat line as the client prints it.
std::string ChatLineText(const wire::ChatMessage& line);

}  // namespace carc::client
