// Clocks and absent players: what a room needs to keep a game moving (docs/protocol.md,
// section 15).
//
// A game's TimeControl (persistence/store.h) is chosen at the creation and kept in the log.
// SeatClocks is its arithmetic, pure: every seat's clock, which one runs and since when, all in
// the milliseconds of a monotonic clock it is given. The room decides when a clock runs (the
// decision is a person's), records in the log what the mover's clock showed after each action,
// and rebuilds the clocks from those records after a restart, where the decision under way
// starts again with the clock it had: the outage is charged to nobody.
//
// Timed work (a clock that runs out, a grace period that ends) is set off by an Alarm: one per
// room, which the server backs with a timer on the room's strand and tests ring by hand.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "persistence/store.h"
#include "protocol/envelope.h"

namespace carc::server {

namespace wire = protocol::wire;

// The limits of a time control (docs/protocol.md, section 15).
inline constexpr int64_t kMinClockMs = 1'000;
inline constexpr int64_t kMaxBankMs = 24 * 3'600'000LL;
inline constexpr int64_t kMaxIncrementMs = 3'600'000LL;
inline constexpr int64_t kMaxDecisionMs = 30 * 24 * 3'600'000LL;
inline constexpr int64_t kMaxGraceMs = 30 * 24 * 3'600'000LL;

// The time control of a CreateGame (none when absent), or why it is refused: the reason of
// ERROR_CODE_BAD_TIME_CONTROL.
std::variant<persistence::TimeControl, std::string> ParseTimeControl(
    const wire::CreateGame& create);
// As GameInfo shows it: kind and policy never UNSPECIFIED.
wire::TimeControl ToProto(const persistence::TimeControl& control);

// Sets off a room's timed work. Setting it again replaces what was set.
class Alarm {
 public:
  virtual ~Alarm() = default;
  // `ring` runs on the room's thread about `delay_ms` from now (at once if 0 or less).
  virtual void Set(int64_t delay_ms, std::function<void()> ring) = 0;
  virtual void Clear() = 0;
};

// Every seat's clock of one game.
class SeatClocks {
 public:
  SeatClocks() = default;  // a game without a clock
  SeatClocks(const persistence::TimeControl& control, int seats);

  bool enabled() const { return control_.kind != persistence::ClockKind::kNone; }
  // From `now_ms` on, `seat`'s clock runs (none when empty). A seat that runs on (the same
  // player's next decision) starts again from what its clock showed when it last moved.
  void Run(std::optional<int> seat, int64_t now_ms);
  std::optional<int> running() const { return running_; }
  // What the running seat's clock shows after a move at `now_ms`: live, the bank left, with the
  // increment when the move ends the player's turn; correspondence, the time the decision left.
  int64_t AfterMove(int64_t now_ms, bool turn_ends) const;
  // What `seat`'s clock shows at `now_ms` (never below 0).
  int64_t Remaining(int seat, int64_t now_ms) const;
  // A seat's live bank, as the log or a move left it (ignored for correspondence).
  void Set(int seat, int64_t remaining_ms);
  // What `seat`'s live bank becomes when its player takes the seat back from a stand-in: a bank
  // that ran out starts again at a tenth of the starting bank. Empty without a live clock.
  std::optional<int64_t> Refilled(int seat) const;
  // When the running clock reaches zero, in the monotonic clock's milliseconds; empty when no
  // clock runs.
  std::optional<int64_t> RunsOutAt() const;
  // Every seat's clock at `now_ms`, as the wire shows it.
  wire::Clocks Message(const std::string& game_id, uint64_t sequence, int64_t now_ms) const;

 private:
  // What a seat's clock shows when its decision starts.
  int64_t AtStart(int seat) const;

  persistence::TimeControl control_{};
  std::vector<int64_t> bank_ms_;  // live: each seat's bank when its clock last stopped
  std::optional<int> running_;
  int64_t started_ms_ = 0;
};

}  // namespace carc::server
