// Following one game over the wire, as every C++ client of the server does (the command-line
// client, the tests, the fuzzer): the public state from a Snapshot, then each Delta's events
// applied in order, the server's state hash checked after every step (docs/protocol.md
// sections 5 and 6). It knows no game: the snapshot's rule set picks the GameCodec
// (protocol/game_codec.h) that decodes the game's own messages.
//
// A Follower is a value that one thread owns. It starts empty; Start takes a snapshot (and
// starts over on a later one), Apply takes the next delta. A message that does not follow — a
// delta before any snapshot, of another game, out of order (a gap or one already applied), with
// a part that does not decode, or a state whose hash is not the server's — is refused with a
// sentence saying why, and the follower is left exactly as it was: the caller decides whether to
// ask for a snapshot, skip a copy it has seen, or fail. Depends on the codecs and the engine only.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "protocol/envelope.h"
#include "protocol/game_codec.h"

namespace carc::protocol {

class Follower {
 public:
  Follower() = default;
  // A copy follows on from the same state on its own (its view is cloned).
  Follower(const Follower& other);
  Follower& operator=(const Follower& other);
  Follower(Follower&&) noexcept = default;
  Follower& operator=(Follower&&) noexcept = default;
  ~Follower() = default;

  // Starts, or starts over, from a snapshot of a game played with `tiles` (what GetTileSet
  // answers for its rule set). Refused when the protocol carries no such rule set, its state or
  // one of its legal actions does not decode, or its state does not hash to its state_hash.
  // nullopt: it was taken.
  std::optional<std::string> Start(const wire::Snapshot& snapshot,
                                   std::shared_ptr<const core::TileSet> tiles);

  // Applies the delta numbered sequence() + 1 of this game: its events in order, then the hash
  // check. Refused as the header comment says. nullopt: it was applied.
  std::optional<std::string> Apply(const wire::Delta& delta);

  // Whether a snapshot was taken; everything below but game_id and sequence needs one.
  bool started() const { return view_ != nullptr; }
  const std::string& game_id() const { return game_id_; }
  const std::string& rule_set() const { return rule_set_; }
  const GameCodec& codec() const { return *codec_; }
  // The sequence number of the state: the snapshot's, then the last delta's.
  uint64_t sequence() const { return sequence_; }
  const PublicView& view() const { return *view_; }
  // Equal to the server's state_hash at sequence(): Start and Apply check it.
  uint64_t hash() const { return hash_; }
  // Who must decide: a seat, core::kChanceActor, or core::kNoActor once the game is over.
  core::Actor actor() const { return view_->Actor(); }
  bool over() const { return actor() == core::kNoActor; }
  // The seat the snapshot named as the receiver's (absent for a spectator, a replay, a seek).
  std::optional<int> your_seat() const { return your_seat_; }
  // The legal actions that came with the last snapshot or delta taken: the seat that must decide
  // gets them on its own copy; every other copy has none. As sent (to be sent back unchanged in
  // a Move) and in the game's notation, in the engine's order.
  const std::vector<std::string>& legal_actions() const { return legal_wire_; }
  const std::vector<std::string>& legal() const { return legal_; }
  // The action of the last delta applied, in the game's notation, and its events as sent; no
  // action and no events right after a snapshot.
  const std::optional<std::string>& last_action() const { return action_; }
  const std::vector<std::string>& events() const { return events_; }

 private:
  const GameCodec* codec_ = nullptr;
  std::unique_ptr<PublicView> view_;
  std::string game_id_;
  std::string rule_set_;
  uint64_t sequence_ = 0;
  uint64_t hash_ = 0;
  std::optional<int> your_seat_;
  std::vector<std::string> legal_wire_;
  std::vector<std::string> legal_;
  std::optional<std::string> action_;
  std::vector<std::string> events_;
};

// A state hash as the protocol's documents write it: 16 hex digits.
std::string HashHex(uint64_t hash);

}  // namespace carc::protocol
