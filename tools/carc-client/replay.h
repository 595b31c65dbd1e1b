// `carc-client replay`: a stored game followed again from the server's Replay (the answer to
// GetReplay), step by step, with the same protocol::Follower that follows a live game. Every step's
// state hash is checked: a replay that does not follow (a gap, an action or event that does not
// decode, a different hash, a time missing) is reported as an error, never shown as the game.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

#include "core/tileset.h"
#include "protocol/follower.h"
#include "view.h"

namespace carc::client {

// One step of a replay, as it is shown.
struct ReplayStep {
  uint64_t sequence = 0;
  uint32_t seat = 0;        // whose action it was (the server's tile draws: the turn player)
  std::string action;       // the game's notation, named against the state before the step
  int64_t time_ms = 0;      // when the server committed it (Unix time, milliseconds)
  uint64_t state_hash = 0;  // of the state after the step; equal to the follower's
  std::vector<std::string> events;  // NotableEvents of the step
};

// Follows `replay` (a game played with `tiles`, the server's GetTileSet for its rule set) with
// `follower` from its start (sequence 0) through every step, calling
// `on_step` after each step has been applied and its hash checked. Returns what went wrong, if
// anything; the follower then holds the last state that was checked (or none).
std::optional<std::string> FollowReplay(const wire::Replay& replay,
                                        std::shared_ptr<const core::TileSet> tiles,
                                        protocol::Follower& follower,
                                        const std::function<void(const ReplayStep&)>& on_step);

// "14:03:27" and "2025-06-01 14:03:27": a Unix time in milliseconds, in UTC.
std::string UtcTime(int64_t time_ms);
std::string UtcDateTime(int64_t time_ms);

// The replay as text on `out`: a line about the game, one line per step
// ("seq 12  seat 1  place 0 -1 3      14:03:27 UTC") with its events indented below it, and the
// final scores; `step_delay` is waited after every step but the last. Returns the error, if any
// (what was written until then stays written).
std::optional<std::string> WriteReplayText(const wire::Replay& replay,
                                           std::shared_ptr<const core::TileSet> tiles,
                                           std::chrono::milliseconds step_delay, std::ostream& out);

// The replay as JSON: {"steps": [{sequence, seat, action, time_ms, state_hash, events}...],
// "final": StateJson of the last state, "over", "winners"}; or the error.
std::variant<nlohmann::json, std::string> ReplayJson(const wire::Replay& replay,
                                                     std::shared_ptr<const core::TileSet> tiles);

}  // namespace carc::client
