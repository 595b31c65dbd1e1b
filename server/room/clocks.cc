#include "room/clocks.h"

#include <algorithm>
#include <cassert>

namespace carc::server {
namespace {

using persistence::AbsentPolicy;
using persistence::ClockKind;

// Whether `value` is within [low, high], or else the reason naming `field`.
std::optional<std::string> OutOfRange(const char* field, uint64_t value, int64_t low,
                                      int64_t high) {
  if (std::cmp_greater_equal(value, low) && std::cmp_less_equal(value, high)) return std::nullopt;
  return std::string("time_control.") + field + ": " + std::to_string(value) + " is not within " +
         std::to_string(low) + " to " + std::to_string(high) + " ms";
}

}  // namespace

std::variant<persistence::TimeControl, std::string> ParseTimeControl(
    const wire::CreateGame& create) {
  persistence::TimeControl control;
  if (!create.has_time_control()) return control;
  const wire::TimeControl& in = create.time_control();
  switch (in.kind()) {
    case wire::CLOCK_KIND_UNSPECIFIED:
    case wire::CLOCK_KIND_NONE:
      control.kind = ClockKind::kNone;
      break;
    case wire::CLOCK_KIND_LIVE:
      control.kind = ClockKind::kLive;
      if (auto bad = OutOfRange("bank_ms", in.bank_ms(), kMinClockMs, kMaxBankMs)) return *bad;
      if (auto bad = OutOfRange("increment_ms", in.increment_ms(), 0, kMaxIncrementMs)) {
        return *bad;
      }
      control.bank_ms = static_cast<int64_t>(in.bank_ms());
      control.increment_ms = static_cast<int64_t>(in.increment_ms());
      break;
    case wire::CLOCK_KIND_CORRESPONDENCE:
      control.kind = ClockKind::kCorrespondence;
      if (auto bad = OutOfRange("decision_ms", in.decision_ms(), kMinClockMs, kMaxDecisionMs)) {
        return *bad;
      }
      control.decision_ms = static_cast<int64_t>(in.decision_ms());
      break;
    default:
      return "time_control.kind: CLOCK_KIND_NONE, CLOCK_KIND_LIVE or CLOCK_KIND_CORRESPONDENCE";
  }
  if (in.grace_ms() != 0) {
    if (auto bad = OutOfRange("grace_ms", in.grace_ms(), kMinClockMs, kMaxGraceMs)) return *bad;
    control.grace_ms = static_cast<int64_t>(in.grace_ms());
  }
  switch (in.on_absent()) {
    case wire::ABSENT_POLICY_UNSPECIFIED:
    case wire::ABSENT_POLICY_STAND_IN:
      control.on_absent = AbsentPolicy::kStandIn;
      break;
    case wire::ABSENT_POLICY_FORFEIT:
      control.on_absent = AbsentPolicy::kForfeit;
      break;
    default:
      return "time_control.on_absent: ABSENT_POLICY_STAND_IN or ABSENT_POLICY_FORFEIT";
  }
  return control;
}

wire::TimeControl ToProto(const persistence::TimeControl& control) {
  wire::TimeControl out;
  switch (control.kind) {
    case ClockKind::kNone:
      out.set_kind(wire::CLOCK_KIND_NONE);
      break;
    case ClockKind::kLive:
      out.set_kind(wire::CLOCK_KIND_LIVE);
      break;
    case ClockKind::kCorrespondence:
      out.set_kind(wire::CLOCK_KIND_CORRESPONDENCE);
      break;
  }
  out.set_bank_ms(static_cast<uint64_t>(control.bank_ms));
  out.set_increment_ms(static_cast<uint64_t>(control.increment_ms));
  out.set_decision_ms(static_cast<uint64_t>(control.decision_ms));
  out.set_grace_ms(static_cast<uint64_t>(control.grace_ms));
  switch (control.on_absent) {
    case AbsentPolicy::kStandIn:
      out.set_on_absent(wire::ABSENT_POLICY_STAND_IN);
      break;
    case AbsentPolicy::kForfeit:
      out.set_on_absent(wire::ABSENT_POLICY_FORFEIT);
      break;
  }
  return out;
}

SeatClocks::SeatClocks(const persistence::TimeControl& control, int seats)
    : control_(control), bank_ms_(static_cast<size_t>(seats), control.bank_ms) {}

int64_t SeatClocks::AtStart(int seat) const {
  if (control_.kind == ClockKind::kCorrespondence) return control_.decision_ms;
  return bank_ms_[static_cast<size_t>(seat)];
}

void SeatClocks::Run(std::optional<int> seat, int64_t now_ms) {
  if (!enabled()) return;
  assert((!seat || (*seat >= 0 && static_cast<size_t>(*seat) < bank_ms_.size())) &&
         "a seat of the game");
  running_ = seat;
  started_ms_ = now_ms;
}

int64_t SeatClocks::Remaining(int seat, int64_t now_ms) const {
  const int64_t at_start = AtStart(seat);
  if (running_ != seat) return at_start;
  return std::max<int64_t>(0, at_start - (now_ms - started_ms_));
}

int64_t SeatClocks::AfterMove(int64_t now_ms, bool turn_ends) const {
  assert(running_ && "a move of the seat whose clock runs");
  const int64_t left = Remaining(*running_, now_ms);
  if (control_.kind == ClockKind::kLive && turn_ends) return left + control_.increment_ms;
  return left;
}

void SeatClocks::Set(int seat, int64_t remaining_ms) {
  if (control_.kind != ClockKind::kLive) return;
  bank_ms_[static_cast<size_t>(seat)] = std::max<int64_t>(0, remaining_ms);
}

std::optional<int64_t> SeatClocks::Refilled(int seat) const {
  if (control_.kind != ClockKind::kLive) return std::nullopt;
  return std::max(bank_ms_[static_cast<size_t>(seat)], control_.bank_ms / 10);
}

std::optional<int64_t> SeatClocks::RunsOutAt() const {
  if (!running_) return std::nullopt;
  return started_ms_ + AtStart(*running_);
}

wire::Clocks SeatClocks::Message(const std::string& game_id, uint64_t sequence,
                                 int64_t now_ms) const {
  wire::Clocks message;
  message.set_game_id(game_id);
  message.set_sequence(sequence);
  for (size_t i = 0; i < bank_ms_.size(); ++i) {
    message.add_remaining_ms(Remaining(static_cast<int>(i), now_ms));
  }
  if (running_) message.set_running(static_cast<uint32_t>(*running_));
  return message;
}

}  // namespace carc::server
