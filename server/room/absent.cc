// The room's clocks and absent players (room/clocks.h; the rest of Room is in room.cc).
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cassert>

#include "room/clocks.h"
#include "room/room.h"

namespace carc::server {
namespace {

// How long a write the alarm asked for waits before it is tried again after a failure.
constexpr int64_t kAlarmRetryMs = 5'000;

}  // namespace

std::optional<int> Room::ClockSeat() const {
  const std::optional<int> seat = DecidingSeat();
  if (!seat || seats_[static_cast<size_t>(*seat)].bot) return std::nullopt;
  return seat;
}

// game_ already holds the action and the draws it caused: the turn ends when somebody else (or
// nobody) decides next.
void Room::StampClock(int seat, persistence::ActionRecord* record) const {
  if (!clocks_.enabled()) return;
  const int64_t now = clock_();
  if (clocks_.running() != seat) {
    record->clock_ms = clocks_.Remaining(seat, now);  // a bot's: its clock stood still
    return;
  }
  record->clock_ms = clocks_.AfterMove(now, game_->CurrentActor() != seat);
}

void Room::Freeze() {
  frozen_ = true;
  if (alarm_ != nullptr) alarm_->Clear();
}

void Room::RestartClocks() {
  clocks_.Run(ClockSeat(), clock_());
  SendClocks();
  ArmAlarm();
}

void Room::SendClocks() {
  if (!clocks_.enabled() || !game_) return;
  wire::ServerMessage message;
  *message.mutable_clocks() = clocks_.Message(id_, Sequence(), clock_());
  Broadcast(message);
}

// One alarm for the earliest of: the running clock's end, and every grace period's.
void Room::ArmAlarm() {
  if (alarm_ == nullptr) return;
  if (frozen_) return alarm_->Clear();
  std::optional<int64_t> at;
  if (status_ == wire::GAME_STATUS_RUNNING) {
    at = clocks_.RunsOutAt();
    const int64_t grace = options_.time_control.grace_ms;
    for (const Seat& s : seats_) {
      if (grace <= 0 || !s.away_since_ms) continue;
      at = std::min(at.value_or(*s.away_since_ms + grace), *s.away_since_ms + grace);
    }
  }
  if (!at) return alarm_->Clear();
  alarm_->Set(*at - clock_(), [this] { AlarmRang(); });
}

// Deals with the first thing that is due; what it writes sets the alarm again when committed.
void Room::AlarmRang() {
  if (Deferred(nullptr, 0, [this] { AlarmRang(); })) return;
  if (frozen_ || status_ != wire::GAME_STATUS_RUNNING) return;
  const int64_t now = clock_();
  if (const auto at = clocks_.RunsOutAt(); at && *at <= now) {
    const int seat = *clocks_.running();
    spdlog::info("game {}: seat {} is out of time", id_, seat);
    clocks_.Set(seat, 0);
    clocks_.Run(std::nullopt, now);
    return ApplyAbsentPolicy(seat);
  }
  const int64_t grace = options_.time_control.grace_ms;
  for (size_t i = 0; i < seats_.size(); ++i) {
    Seat& s = seats_[i];
    if (grace <= 0 || !s.away_since_ms || *s.away_since_ms + grace > now) continue;
    spdlog::info("game {}: the player of seat {} is away past the grace period", id_, i);
    s.away_since_ms.reset();
    return ApplyAbsentPolicy(static_cast<int>(i));
  }
  ArmAlarm();  // rang early
}

void Room::StartGraceForAbsent() {
  if (frozen_ || status_ != wire::GAME_STATUS_RUNNING || options_.time_control.grace_ms <= 0)
    return;
  const int64_t now = clock_();
  for (Seat& s : seats_) {
    if (s.taken && !s.bot && !s.online && !s.away_since_ms) s.away_since_ms = now;
  }
}

// The grace periods of the others start again: a game that waited because nobody was here may
// now have stand-ins.
void Room::Returned(int seat) {
  seats_[static_cast<size_t>(seat)].away_since_ms.reset();
  StartGraceForAbsent();
  if (!clocks_.running() && ClockSeat()) {
    RestartClocks();
  } else {
    ArmAlarm();
  }
}

bool Room::SomeoneHere() const {
  return std::any_of(seats_.begin(), seats_.end(),
                     [](const Seat& s) { return s.taken && !s.bot && s.online; });
}

void Room::ApplyAbsentPolicy(int seat) {
  if (seats_[static_cast<size_t>(seat)].bot) return RestartClocks();  // somebody plays it
  if (options_.time_control.on_absent == persistence::AbsentPolicy::kForfeit) {
    return Forfeit(seat);
  }
  if (!SomeoneHere()) {
    // Bots do not play on for nobody: the game waits (and is abandoned in time).
    spdlog::info("game {}: nobody is here; no stand-in for seat {}", id_, seat);
    SendClocks();
    return ArmAlarm();
  }
  StandIn(seat);
}

void Room::StandIn(int seat) {
  constexpr bots::Level kLevel = bots::Level::kGreedy;
  Write({persistence::StandInSeatOp{options_.number, seat, std::string(bots::ToString(kLevel))}},
        [this, seat](const persistence::Status& status) {
          if (status) return RetryAlarmLater();
          Seat& s = seats_[static_cast<size_t>(seat)];
          s.bot = NewSeatBot(kLevel);
          s.stand_in = true;
          s.away_since_ms.reset();
          SendLobbyUpdate();
          RestartClocks();
          ThinkIfBotDecides();
        });
}

// As a resignation under the game's policy, with nobody to answer.
void Room::Forfeit(int seat) {
  seats_[static_cast<size_t>(seat)].away_since_ms.reset();
  if (options_.on_resign == persistence::ResignPolicy::kEndGame || !PersonPlaysBesides(seat)) {
    return ResignAndEnd(nullptr, 0, seat, "forfeited");
  }
  ResignToBot(nullptr, 0, seat);
}

void Room::RetryAlarmLater() {
  if (alarm_ != nullptr && !frozen_) alarm_->Set(kAlarmRetryMs, [this] { RestartClocks(); });
}

// The stand-in leaves once that is written, with the seat's live bank refilled (so that a
// restart finds it); then the Resume is answered as any other.
void Room::TakeBack(const std::shared_ptr<Peer>& peer, uint64_t request_id,
                    const wire::Resume& resume, int seat) {
  const std::optional<int64_t> refilled = clocks_.Refilled(seat);
  Write({persistence::TakeBackSeatOp{options_.number, seat, refilled.value_or(-1), Sequence()}},
        [this, peer, request_id, resume, seat, refilled](const persistence::Status& status) {
          if (status) return StorageFailed(*peer, request_id);
          Seat& s = seats_[static_cast<size_t>(seat)];
          assert(s.stand_in && "a take-back is written only for a stand-in's seat");
          s.bot.reset();
          s.stand_in = false;
          if (refilled) clocks_.Set(seat, *refilled);
          SendLobbyUpdate();
          RestartClocks();
          Resume(peer, request_id, resume);
        });
}

}  // namespace carc::server
