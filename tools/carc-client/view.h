// A client's view of one game: the public state followed from a Snapshot through Deltas and
// checked against the server's hash after every step (docs/protocol.md sections 5 and 6), and
// the text the client shows of it.
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

namespace carc::client {

namespace v1 = ::carcassonne::city::v1;

class GameView {
 public:
  enum class Step {
    kApplied,
    kAlreadySeen,  // a delta at or before the current sequence: ignored
    kLost,         // a gap, an undecodable event or a different hash: problem() says which
  };

  // Starts over from a snapshot. False if it does not decode or its hash is not the state's.
  bool Reset(const v1::Snapshot& snapshot);
  Step Apply(const v1::Delta& delta);

  bool has_state() const { return state_.has_value(); }
  const city::PublicState& state() const { return *state_; }
  uint64_t sequence() const { return sequence_; }
  const std::string& problem() const { return problem_; }
  // The decoded events of the last delta applied.
  const std::vector<city::Event>& events() const { return events_; }
  bool over() const {
    return state_ && state_->counters.decision.kind == city::DecisionKind::kNone;
  }

 private:
  std::optional<city::PublicState> state_;
  uint64_t sequence_ = 0;
  std::string problem_;
  std::vector<city::Event> events_;
};

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
std::string HashHex(uint64_t hash);
std::string StatusName(v1::GameStatus status);  // "open", "running", "finished"

}  // namespace carc::client
