// A game's chat, as its room keeps it (docs/protocol.md, section 13).
//
// A line is checked (the speaker's seat or a spectator allowed to write, its text, the rate),
// written to the game log, and only once that write is committed answered and broadcast, like a
// move; a line refused for any reason is not stored. The room's handlers for SendChat and
// MuteSeat live in chat.cc; ChatLog holds what they need between requests: the recent lines (for
// snapshots), the next line's number, each connection's recent lines (for the rate limit), and
// the mutes.
//
// Mutes belong to the muting seat, not to a connection: a player who reconnects (Resume) still
// does not get the lines of the seats it muted. Like a line, a mute is written to the log (the
// seat's mask of muted seats) and takes effect once the write is committed, so it survives a
// restart.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "persistence/store.h"
#include "protocol/envelope.h"

namespace carc::server {

namespace wire = protocol::wire;

class Peer;

// The most lines a snapshot carries (Snapshot.recent_chat).
inline constexpr size_t kRecentChatLines = 50;
// The rate limit: at most kChatBurst lines from one connection in one game within kChatWindowMs.
inline constexpr size_t kChatBurst = 5;
inline constexpr int64_t kChatWindowMs = 10'000;
// The name a spectator's lines show.
inline constexpr const char* kSpectatorName = "spectator";

// Milliseconds of a clock that only goes forward (the rate limit's); tests give their own.
using MonotonicClock = std::function<int64_t()>;
MonotonicClock SteadyClockMs();

// A stored chat line as the wire shows it.
wire::ChatMessage ChatLineMessage(const std::string& game_id, const persistence::ChatRecord& line);

class ChatLog {
 public:
  explicit ChatLog(MonotonicClock clock);

  // The lines of a game from the log, after a restart.
  void Restore(const std::vector<persistence::ChatRecord>& lines, const std::string& game_id);
  uint64_t NextNumber() const { return last_number_ + 1; }
  // Whether `connection` may say one more line now; if so, the line is counted.
  bool Allow(const Peer* connection);
  // The connection is gone: its count goes.
  void Forget(const Peer* connection) { said_.erase(connection); }
  // A line committed to the log.
  void Add(wire::ChatMessage line);

  // The seats whose lines `muter` does not get, bit i for seat i (as the log stores them).
  uint32_t MutesOf(int muter) const;
  void SetMutes(int muter, uint32_t seats);
  bool Muted(int muter, std::optional<int> speaker) const;
  // The seats were numbered again (an early start dropped empty ones): the mutes no longer apply.
  void ClearMutes() { mutes_.clear(); }

  // The recent lines `reader` (a seat, or a spectator) gets, oldest first.
  void AddRecent(std::optional<int> reader,
                 google::protobuf::RepeatedPtrField<wire::ChatMessage>* out) const;
  // The recent lines said since the game's action `sequence` (that action's included) that seat
  // `reader` gets, oldest first: what a seat resumed by deltas may have missed.
  std::vector<wire::ChatMessage> SaidSince(uint64_t sequence, int reader) const;

 private:
  // Whether `reader` (a seat, or a spectator) gets `line`: not if it muted the line's seat.
  bool Hears(std::optional<int> reader, const wire::ChatMessage& line) const;

  MonotonicClock clock_;
  uint64_t last_number_ = 0;
  std::deque<wire::ChatMessage> recent_;
  std::map<const Peer*, std::deque<int64_t>> said_;  // when each connection's recent lines came
  std::map<int, uint32_t> mutes_;                    // muter -> MutesOf(muter)
};

// `seats` with `seat`'s bit set (muted) or cleared.
uint32_t WithSeatMuted(uint32_t seats, int seat, bool muted);

// Whether `text` has something to say (not only spaces).
bool HasChatText(const std::string& text);

}  // namespace carc::server
