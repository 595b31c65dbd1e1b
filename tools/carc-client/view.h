// What the client shows of a game's public state (followed with protocol::Follower): the action
// notation, the text and JSON renderings, the scoring events of a step.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "carcassonne/city/v1/city.pb.h"
#include "city/action.h"
#include "city/event.h"
#include "city/public_state.h"
#include "core/tileset.h"
#include "protocol/follower.h"

namespace carc::client {

namespace v1 = ::carcassonne::city::v1;

// An action in the engine's notation (docs/formats.md): "place 0 -1 3", "follower b",
// "gate 5 2 E", "wall front", ... Follower features are named by the letter of the last placed
// tile's feature in `tiles`.
std::string FormatAction(const city::PublicState& state, const core::TileSet& tiles,
                         const city::Action& action);
// What a follower action would occupy, e.g. "street"; empty for other actions.
std::string FeatureKindOf(const city::PublicState& state, const core::TileSet& tiles,
                          const city::Action& action);

int Total(const city::PlayerCounters& player);
// [{"seat": 0, "total": 67, "streets": 13, ...}, ...]
nlohmann::json ScoresJson(const city::PublicState& state);
// The whole state as JSON (for show --json): scores, decision, tiles, followers, wall.
nlohmann::json StateJson(const city::PublicState& state, uint64_t sequence);
// Whose decision, in words: "seat 2 must place_follower", "the server draws for seat 1", ...
std::string DescribeDecision(const city::PublicState& state);
// A text picture: counters, scores, whose decision, a map of the tiles placed, the wall.
std::string RenderState(const city::PublicState& state, const core::TileSet& tiles,
                        uint64_t sequence);
// The scoring events of one delta (features, towers, stewards, guards, discarded tiles), each as
// the engine's FormatEvent line: what a person following a game wants to see of its events.
std::vector<std::string> NotableEvents(const std::vector<city::Event>& events);
// The GameOver among `events`, if there is one.
std::optional<city::GameOver> FindGameOver(const std::vector<city::Event>& events);
// "seat 0 25 (you), seat 1 26": every seat's total; `own_seat` is marked (-1: nobody).
std::string ScoresText(const city::PublicState& state, int own_seat);
// "game g6 is over (last_tile_placed); scores: seat 0 25, seat 1 26; winners: seat 1".
std::string GameOverText(const std::string& game_id, const city::PublicState& state,
                         const std::optional<city::GameOver>& over, int own_seat);
using protocol::HashHex;                        // 16 hex digits
std::string StatusName(v1::GameStatus status);  // "open", "running", "finished"

}  // namespace carc::client
