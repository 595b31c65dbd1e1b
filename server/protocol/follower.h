// Following one game over the wire, as every C++ client of the server does (the command-line
// client, the tests, the fuzzer): the public state from a Snapshot, then each Delta's events
// applied in order, the server's state hash checked after every step (docs/protocol.md
// sections 5 and 6).
//
// A Follower is a value that one thread owns. It starts empty; Start takes a snapshot (and
// starts over on a later one), Apply takes the next delta. A message that does not follow — a
// delta before any snapshot, of another game, out of order (a gap or one already applied), with
// a part that does not decode, or a state whose hash is not the server's — is refused with a
// sentence saying why, and the follower is left exactly as it was: the caller decides whether to
// ask for a snapshot, skip a copy it has seen, or fail. Depends on the codec and the engine only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "carcassonne/city/v1/city.pb.h"
#include "city/action.h"
#include "city/event.h"
#include "city/public_state.h"

namespace carc::protocol {

namespace v1 = ::carcassonne::city::v1;

class Follower {
 public:
  // Starts, or starts over, from a snapshot. Refused when its state or one of its legal actions
  // does not decode, or its state does not hash to its state_hash. nullopt: it was taken.
  std::optional<std::string> Start(const v1::Snapshot& snapshot);

  // Applies the delta numbered sequence() + 1 of this game: its events in order, then the hash
  // check. Refused as the header comment says. nullopt: it was applied.
  std::optional<std::string> Apply(const v1::Delta& delta);

  // Whether a snapshot was taken; everything below but game_id and sequence needs one.
  bool started() const { return state_.has_value(); }
  const std::string& game_id() const { return game_id_; }
  // The sequence number of the state: the snapshot's, then the last delta's.
  uint64_t sequence() const { return sequence_; }
  const city::PublicState& state() const { return *state_; }
  // Equal to the server's state_hash at sequence(): Start and Apply check it.
  uint64_t hash() const { return hash_; }
  const city::Decision& decision() const { return state_->counters.decision; }
  bool over() const { return state_->counters.decision.kind == city::DecisionKind::kNone; }
  // The seat the snapshot named as the receiver's (absent for a spectator, a replay, a seek).
  std::optional<int> your_seat() const { return your_seat_; }
  // The legal actions that came with the last snapshot or delta taken: the seat that must decide
  // gets them on its own copy; every other copy has none. As sent (to be sent back unchanged) and
  // decoded, in the engine's order.
  const std::vector<v1::Action>& legal_actions() const { return legal_wire_; }
  const std::vector<city::Action>& legal() const { return legal_; }
  // The decoded action and events of the last delta applied; no action and no events right after
  // a snapshot.
  const std::optional<city::Action>& last_action() const { return action_; }
  const std::vector<city::Event>& events() const { return events_; }

 private:
  std::optional<city::PublicState> state_;
  std::string game_id_;
  uint64_t sequence_ = 0;
  uint64_t hash_ = 0;
  std::optional<int> your_seat_;
  std::vector<v1::Action> legal_wire_;
  std::vector<city::Action> legal_;
  std::optional<city::Action> action_;
  std::vector<city::Event> events_;
};

// A state hash as the protocol's documents write it: 16 hex digits.
std::string HashHex(uint64_t hash);

}  // namespace carc::protocol
