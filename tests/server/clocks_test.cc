// Clocks and absent players (docs/protocol.md, section 15): the time control CreateGame may
// carry, the clocks' arithmetic, and through a room: a clock that runs out under each policy, a
// grace period that ends, a seat taken back from its stand-in, and a restart that charges the
// outage to nobody.
#include "room/clocks.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "room_fixture.h"

namespace carc::server {
namespace {

using namespace fixture;  // NOLINT(google-build-using-namespace): the tests' own fixture
using persistence::AbsentPolicy;
using persistence::ClockKind;
using persistence::ResignPolicy;
using persistence::TimeControl;

// ---------------------------------------------------------------------------------------------
// The time control of a CreateGame

std::string Refusal(const wire::TimeControl& control) {
  wire::CreateGame create;
  *create.mutable_time_control() = control;
  const auto parsed = ParseTimeControl(create);
  return std::holds_alternative<std::string>(parsed) ? std::get<std::string>(parsed) : "";
}

TEST(TimeControl, AnAbsentOrEmptyTimeControlIsNoClock) {
  const auto none = ParseTimeControl(wire::CreateGame{});
  ASSERT_TRUE(std::holds_alternative<TimeControl>(none));
  EXPECT_EQ(std::get<TimeControl>(none), TimeControl{});
  wire::CreateGame create;
  create.mutable_time_control();
  EXPECT_EQ(std::get<TimeControl>(ParseTimeControl(create)), TimeControl{});
}

TEST(TimeControl, TimesOutOfTheirLimitsAndUnknownValuesAreRefused) {
  wire::TimeControl live;
  live.set_kind(wire::CLOCK_KIND_LIVE);
  live.set_bank_ms(999);
  EXPECT_EQ(Refusal(live), "time_control.bank_ms: 999 is not within 1000 to 86400000 ms");
  live.set_bank_ms(60'000);
  live.set_increment_ms(3'600'001);
  EXPECT_EQ(Refusal(live), "time_control.increment_ms: 3600001 is not within 0 to 3600000 ms");
  live.set_increment_ms(2'000);
  live.set_grace_ms(10);
  EXPECT_EQ(Refusal(live), "time_control.grace_ms: 10 is not within 1000 to 2592000000 ms");
  live.set_grace_ms(0);
  live.set_on_absent(static_cast<wire::AbsentPolicy>(7));
  EXPECT_EQ(Refusal(live),
            "time_control.on_absent: ABSENT_POLICY_STAND_IN or ABSENT_POLICY_FORFEIT");
  wire::TimeControl correspondence;
  correspondence.set_kind(wire::CLOCK_KIND_CORRESPONDENCE);
  EXPECT_EQ(Refusal(correspondence),
            "time_control.decision_ms: 0 is not within 1000 to 2592000000 ms");
  wire::TimeControl unknown;
  unknown.set_kind(static_cast<wire::ClockKind>(9));
  EXPECT_EQ(Refusal(unknown),
            "time_control.kind: CLOCK_KIND_NONE, CLOCK_KIND_LIVE or CLOCK_KIND_CORRESPONDENCE");
}

TEST(TimeControl, AGoodOneIsKeptAsGivenAndShownBackWithNothingUnspecified) {
  wire::CreateGame create;
  wire::TimeControl* control = create.mutable_time_control();
  control->set_kind(wire::CLOCK_KIND_LIVE);
  control->set_bank_ms(300'000);
  control->set_increment_ms(5'000);
  control->set_grace_ms(60'000);
  control->set_on_absent(wire::ABSENT_POLICY_FORFEIT);
  const auto parsed = ParseTimeControl(create);
  ASSERT_TRUE(std::holds_alternative<TimeControl>(parsed));
  const TimeControl expected{ClockKind::kLive, 300'000, 5'000, 0, 60'000, AbsentPolicy::kForfeit};
  EXPECT_EQ(std::get<TimeControl>(parsed), expected);
  const wire::TimeControl shown = ToProto(expected);
  EXPECT_EQ(shown.kind(), wire::CLOCK_KIND_LIVE);
  EXPECT_EQ(shown.on_absent(), wire::ABSENT_POLICY_FORFEIT);
  EXPECT_EQ(ToProto(TimeControl{}).kind(), wire::CLOCK_KIND_NONE);
  EXPECT_EQ(ToProto(TimeControl{}).on_absent(), wire::ABSENT_POLICY_STAND_IN);
}

// ---------------------------------------------------------------------------------------------
// The clocks' arithmetic

TEST(SeatClocks, ALiveBankRunsDownWhileItsSeatDecidesAndGainsTheIncrementWhenTheTurnEnds) {
  SeatClocks clocks(TimeControl{ClockKind::kLive, 60'000, 5'000}, 2);
  clocks.Run(0, 1'000);
  EXPECT_EQ(clocks.Remaining(0, 11'000), 50'000);
  EXPECT_EQ(clocks.Remaining(1, 11'000), 60'000);  // not running
  EXPECT_EQ(clocks.RunsOutAt(), 61'000);
  EXPECT_EQ(clocks.AfterMove(11'000, false), 50'000);  // the same player decides on
  EXPECT_EQ(clocks.AfterMove(11'000, true), 55'000);
  clocks.Set(0, 55'000);
  clocks.Run(1, 11'000);
  EXPECT_EQ(clocks.Remaining(0, 99'000), 55'000);
  EXPECT_EQ(clocks.Remaining(1, 99'000), 0);  // never below 0
  clocks.Run(std::nullopt, 99'000);
  EXPECT_FALSE(clocks.RunsOutAt());
  clocks.Set(1, 0);
  EXPECT_EQ(clocks.Refilled(1), 6'000);   // a tenth of the bank
  EXPECT_EQ(clocks.Refilled(0), 55'000);  // a bank that did not run out stays
}

TEST(SeatClocks, ACorrespondenceClockStartsAgainWithEveryDecision) {
  SeatClocks clocks(TimeControl{ClockKind::kCorrespondence, 0, 0, 3'600'000}, 3);
  clocks.Run(2, 0);
  EXPECT_EQ(clocks.Remaining(2, 600'000), 3'000'000);
  EXPECT_EQ(clocks.Remaining(0, 600'000), 3'600'000);
  clocks.Set(2, 3'000'000);  // a live bank only: ignored
  clocks.Run(2, 600'000);    // its next decision
  EXPECT_EQ(clocks.RunsOutAt(), 4'200'000);
  const wire::Clocks message = clocks.Message("g1", 7, 600'000);
  EXPECT_EQ(message.remaining_ms_size(), 3);
  EXPECT_EQ(message.running(), 2U);
  EXPECT_EQ(message.sequence(), 7U);
}

TEST(SeatClocks, AGameWithoutAClockHasNoneRunning) {
  SeatClocks clocks;
  EXPECT_FALSE(clocks.enabled());
  clocks.Run(0, 5);
  EXPECT_FALSE(clocks.running());
  EXPECT_FALSE(clocks.RunsOutAt());
}

// ---------------------------------------------------------------------------------------------
// Through a room

RoomOptions Timed(int seats, TimeControl control,
                  ResignPolicy on_resign = ResignPolicy::kBotTakesSeat,
                  std::vector<BotSeatOption> bots = {}) {
  RoomOptions options = Options(seats, std::move(bots), on_resign);
  options.time_control = control;
  return options;
}

const TimeControl kLiveStandIn{ClockKind::kLive, 10'000, 2'000, 0, 0, AbsentPolicy::kStandIn};
const TimeControl kLiveForfeit{ClockKind::kLive, 10'000, 2'000, 0, 0, AbsentPolicy::kForfeit};

std::optional<wire::Clocks> LastClocks(const Player& p) {
  for (auto it = p.received.rbegin(); it != p.received.rend(); ++it) {
    if (it->has_clocks()) return it->clocks();
  }
  return std::nullopt;
}

// The person whose decision it is.
std::shared_ptr<Player> Decider(const std::vector<std::shared_ptr<Player>>& people) {
  const auto found =
      std::find_if(people.begin(), people.end(), [](const auto& p) { return !p->legal.empty(); });
  EXPECT_NE(found, people.end());
  return found == people.end() ? nullptr : *found;
}

wire::Resume ResumeOf(const Player& p) {
  wire::Resume resume;
  resume.set_game_id("g1");
  resume.set_seat_token(p.token);
  resume.set_last_seen_sequence(0);
  return resume;
}

TEST(Clocks, EverybodySeesEveryClockAndTheDecidersRuns) {
  Table t("the-city", 2, {});
  Table timed("the-city", Timed(2, kLiveStandIn));
  auto ann = timed.Join("ann");
  auto bob = timed.Join("bob");
  ASSERT_EQ(timed.room.Status(), wire::GAME_STATUS_RUNNING);
  const std::optional<wire::Clocks> seen = LastClocks(*bob);
  ASSERT_TRUE(seen);
  EXPECT_EQ(seen->remaining_ms_size(), 2);
  EXPECT_EQ(seen->remaining_ms(0), 10'000);
  EXPECT_EQ(static_cast<int>(seen->running()), Decider({ann, bob})->seat);
  EXPECT_EQ(timed.room.Info().time_control().kind(), wire::CLOCK_KIND_LIVE);
  // A game without a clock sends none.
  auto cy = t.Join("cy");
  auto di = t.Join("di");
  EXPECT_FALSE(LastClocks(*cy));
}

// A restart of the server: the game of `t` (2 seats of The City, live clock, stand-ins) restored
// from its log in a new room, with its own alarm.
struct Restarted {
  explicit Restarted(Table& t)
      : alarm(t.now),
        room(Table::WithClock(Timed(2, kLiveStandIn), t.now), GameOf("the-city"), CountingTokens(),
             t.log) {
    room.SetAlarm(&alarm);
    restored = !room.Restore(t.Stored()).has_value();
  }
  // Every seat's clock, as a spectator's snapshot shows them.
  wire::Clocks Clocks() {
    auto watcher = std::make_shared<Player>();
    room.Spectate(watcher, 1);
    EXPECT_TRUE(watcher->received.back().snapshot().has_clocks());
    return watcher->received.back().snapshot().clocks();
  }
  ManualAlarm alarm;
  Room room;
  bool restored = false;
};

TEST(Clocks, OutOfTimeUnderStandInABotPlaysTheSeatUntilItsPlayerTakesItBack) {
  Table t("the-city", Timed(2, kLiveStandIn));
  auto ann = t.Join("ann");
  auto bob = t.Join("bob");
  const std::shared_ptr<Player> late_player = Decider({ann, bob});
  Player& late = *late_player;
  const int seat = late.seat;
  Player& other = late_player == ann ? *bob : *ann;
  t.Advance(9'999);
  EXPECT_FALSE(t.room.Info().seat(seat).stand_in());
  t.Advance(1);
  const wire::GameInfo info = t.room.Info();
  EXPECT_TRUE(info.seat(seat).stand_in());
  EXPECT_EQ(info.seat(seat).bot(), "greedy");
  EXPECT_TRUE(other.Count([&](const wire::ServerMessage& m) {
    return m.has_lobby_update() && m.lobby_update().game().seat(seat).stand_in();
  }) > 0);
  EXPECT_EQ(t.Stored().game.seat_records[static_cast<size_t>(seat)].stand_in, true);
  // The player's own move is refused; the stand-in's goes through and is logged as the seat's.
  ASSERT_FALSE(late.legal.empty());
  t.room.Move(late_player, 9, t.MoveOf(late, late.legal.front()));
  EXPECT_EQ(late.LastError(), wire::ERROR_CODE_STAND_IN_PLAYS);
  ASSERT_EQ(t.runner.jobs.size(), 1U);
  const uint64_t before = t.room.Sequence();
  t.runner.RunOne();
  EXPECT_GT(t.room.Sequence(), before);
  const persistence::StoredGame stored = t.Stored();
  EXPECT_EQ(stored.actions[before].seat, seat);
  // Resume with the token takes the seat back, and the bank starts again at a tenth.
  auto back = std::make_shared<Player>();
  back->token = late.token;
  t.room.Resume(back, 3, ResumeOf(late));
  EXPECT_FALSE(t.room.Info().seat(seat).stand_in());
  EXPECT_EQ(t.room.Info().seat(seat).bot(), "");
  EXPECT_FALSE(t.Stored().game.seat_records[static_cast<size_t>(seat)].stand_in);
  const std::optional<wire::Clocks> clocks = LastClocks(other);
  ASSERT_TRUE(clocks);
  EXPECT_EQ(clocks->remaining_ms(seat), 1'000);

  // The refill is in the log: a restart before the player's next action keeps it.
  const persistence::SeatRecord record = t.Stored().game.seat_records[static_cast<size_t>(seat)];
  EXPECT_EQ(record.taken_back_clock_ms, 1'000);
  EXPECT_EQ(record.taken_back_after, t.room.Sequence());
  Restarted restarted(t);
  ASSERT_TRUE(restarted.restored);
  EXPECT_EQ(restarted.Clocks().remaining_ms(seat), 1'000);
}

TEST(Clocks, OutOfTimeUnderForfeitEndsTheGameWhenItsPolicyIsToEndIt) {
  Table t("the-city", Timed(2, kLiveForfeit, ResignPolicy::kEndGame));
  auto ann = t.Join("ann");
  auto bob = t.Join("bob");
  const int seat = Decider({ann, bob})->seat;
  t.Advance(10'000);
  EXPECT_EQ(t.room.Status(), wire::GAME_STATUS_RESIGNED);
  const persistence::StoredGame stored = t.Stored();
  EXPECT_EQ(stored.game.status, persistence::GameStatus::kResigned);
  const auto result = nlohmann::json::parse(stored.game.result);
  EXPECT_EQ(result["ended_by"], "forfeited");
  EXPECT_EQ(result["resigned_seat"], seat);
  EXPECT_FALSE(LastClocks(*ann)->has_running());
}

TEST(Clocks, OutOfTimeUnderForfeitHandsTheSeatToABotWhenThatIsThePolicy) {
  Table t("the-city", Timed(3, kLiveForfeit, ResignPolicy::kBotTakesSeat));
  auto ann = t.Join("ann");
  auto bob = t.Join("bob");
  auto cy = t.Join("cy");
  const int seat = Decider({ann, bob, cy})->seat;
  t.Advance(10'000);
  EXPECT_EQ(t.room.Status(), wire::GAME_STATUS_RUNNING);
  const wire::GameInfo info = t.room.Info();
  EXPECT_TRUE(info.seat(seat).resigned());
  EXPECT_FALSE(info.seat(seat).stand_in());
  EXPECT_EQ(info.seat(seat).bot(), "greedy");
  EXPECT_EQ(t.runner.jobs.size(), 1U);  // the bot plays on
}

TEST(Clocks, ACorrespondenceDeadlineIsPerDecision) {
  const TimeControl daily{ClockKind::kCorrespondence, 0, 0, 86'400'000, 0, AbsentPolicy::kForfeit};
  Table t("the-city", Timed(2, daily, ResignPolicy::kEndGame));
  auto ann = t.Join("ann");
  auto bob = t.Join("bob");
  for (int decision = 0; decision < 6; ++decision) {
    t.Advance(86'000'000);  // nearly a day, every time
    const std::shared_ptr<Player> p = Decider({ann, bob});
    const std::string action = p->legal.front();
    p->legal.clear();
    t.room.Move(p, 2, t.MoveOf(*p, action));
    ASSERT_FALSE(p->LastError()) << p->received.back().error().reason();
    ASSERT_EQ(t.room.Status(), wire::GAME_STATUS_RUNNING);
  }
  t.Advance(86'400'000);
  EXPECT_EQ(t.room.Status(), wire::GAME_STATUS_RESIGNED);
}

TEST(Clocks, ARestartChargesTheOutageToNobody) {
  Table t("the-city", Timed(2, kLiveStandIn));
  auto ann = t.Join("ann");
  auto bob = t.Join("bob");
  // Moves, each 3 s after the last, until the other seat decides.
  const std::shared_ptr<Player> first_player = Decider({ann, bob});
  Player& first = *first_player;
  while (!first.legal.empty()) {
    t.Advance(3'000);
    const std::string action = first.legal.front();
    first.legal.clear();
    t.room.Move(first_player, 2, t.MoveOf(first, action));
    ASSERT_FALSE(first.LastError());
  }
  const std::optional<wire::Clocks> before = LastClocks(first);
  ASSERT_TRUE(before);
  const int64_t first_bank = before->remaining_ms(first.seat);
  EXPECT_LE(first_bank, 10'000 - 3'000 + 2'000);  // at least one move's 3 s, and the increment

  // The server is down for an hour; the restored room starts the decision under way again.
  *t.now += 3'600'000;
  Restarted restarted(t);
  ASSERT_TRUE(restarted.restored);
  const wire::Clocks after = restarted.Clocks();
  EXPECT_EQ(after.remaining_ms(first.seat), first_bank);
  EXPECT_EQ(after.remaining_ms(1 - first.seat), 10'000);
  EXPECT_EQ(static_cast<int>(after.running()), 1 - first.seat);
  EXPECT_EQ(restarted.alarm.at, *t.now + 10'000);  // the whole bank, from now
}

// Ann (seat 0) and bob (seat 1) at a table of The City without a clock, with a grace period of
// 5 s under `on_absent`.
struct Seated {
  explicit Seated(AbsentPolicy on_absent, ResignPolicy on_resign = ResignPolicy::kBotTakesSeat)
      : table("the-city",
              Timed(2, TimeControl{ClockKind::kNone, 0, 0, 0, 5'000, on_absent}, on_resign)),
        ann(table.Join("ann")),
        bob(table.Join("bob")) {}
  Table table;
  std::shared_ptr<Player> ann;
  std::shared_ptr<Player> bob;
};

TEST(AbsentPlayers, AfterTheGracePeriodAStandInPlaysAndTheReturningPlayerTakesTheSeatBack) {
  Seated s(AbsentPolicy::kStandIn);
  Table& t = s.table;
  const std::shared_ptr<Player>& ann = s.ann;
  const std::shared_ptr<Player>& bob = s.bob;
  t.room.Disconnected(bob.get());
  t.Advance(4'999);
  EXPECT_FALSE(t.room.Info().seat(1).stand_in());
  t.Advance(1);
  EXPECT_TRUE(t.room.Info().seat(1).stand_in());
  EXPECT_TRUE(ann->Count([](const wire::ServerMessage& m) {
    return m.has_lobby_update() && m.lobby_update().game().seat(1).stand_in();
  }) > 0);
  // The game goes on: ann and the stand-in play.
  for (int i = 0; i < 8 && t.room.Status() == wire::GAME_STATUS_RUNNING; ++i) {
    if (!t.runner.jobs.empty()) {
      t.runner.RunOne();
      continue;
    }
    const std::string action = ann->legal.front();
    ann->legal.clear();
    t.room.Move(ann, 2, t.MoveOf(*ann, action));
  }
  EXPECT_GT(t.Stored().actions.size(), 4U);
  // Bob is back with his token: the seat is his again.
  auto back = std::make_shared<Player>();
  t.room.Resume(back, 3, ResumeOf(*bob));
  EXPECT_TRUE(back->received.back().has_snapshot());
  const wire::GameInfo info = t.room.Info();
  EXPECT_FALSE(info.seat(1).stand_in());
  EXPECT_TRUE(info.seat(1).online());
  EXPECT_FALSE(t.Stored().game.seat_records[1].stand_in);
}

TEST(AbsentPlayers, APlayerBackWithinTheGracePeriodKeepsTheSeat) {
  Seated s(AbsentPolicy::kForfeit, ResignPolicy::kEndGame);
  Table& t = s.table;
  const std::shared_ptr<Player>& bob = s.bob;
  t.room.Disconnected(bob.get());
  t.Advance(4'000);
  auto back = std::make_shared<Player>();
  t.room.Resume(back, 3, ResumeOf(*bob));
  t.Advance(60'000);
  EXPECT_EQ(t.room.Status(), wire::GAME_STATUS_RUNNING);
  EXPECT_FALSE(t.room.Info().seat(1).resigned());
}

TEST(AbsentPlayers, AfterTheGracePeriodUnderForfeitThePlayerForfeits) {
  Seated s(AbsentPolicy::kForfeit, ResignPolicy::kEndGame);
  Table& t = s.table;
  const std::shared_ptr<Player>& bob = s.bob;
  t.room.Disconnected(bob.get());
  t.Advance(5'000);
  EXPECT_EQ(t.room.Status(), wire::GAME_STATUS_RESIGNED);
  EXPECT_EQ(nlohmann::json::parse(t.Stored().game.result)["resigned_seat"], 1);
}

TEST(AbsentPlayers, NobodyHereMeansNoStandInTheGameWaits) {
  Seated s(AbsentPolicy::kStandIn);
  Table& t = s.table;
  const std::shared_ptr<Player>& ann = s.ann;
  const std::shared_ptr<Player>& bob = s.bob;
  t.room.Disconnected(bob.get());
  t.room.Disconnected(ann.get());
  t.Advance(60'000);
  const wire::GameInfo info = t.room.Info();
  EXPECT_FALSE(info.seat(0).stand_in());
  EXPECT_FALSE(info.seat(1).stand_in());
  EXPECT_TRUE(t.runner.jobs.empty());
  // Ann is back: bob's grace period starts again, and then a stand-in plays for him.
  auto back = std::make_shared<Player>();
  t.room.Resume(back, 3, ResumeOf(*ann));
  t.Advance(5'000);
  EXPECT_TRUE(t.room.Info().seat(1).stand_in());
  EXPECT_FALSE(t.room.Info().seat(0).stand_in());
}

TEST(AbsentPlayers, AStandInsPlayerResumesAGameThatEndedMeanwhile) {
  Seated s(AbsentPolicy::kStandIn);
  Table& t = s.table;
  const std::shared_ptr<Player>& ann = s.ann;
  const std::shared_ptr<Player>& bob = s.bob;
  t.room.Disconnected(bob.get());
  t.Advance(5'000);
  ASSERT_TRUE(t.room.Info().seat(1).stand_in());
  wire::Resign resign;
  resign.set_game_id("g1");
  resign.set_seat_token(ann->token);
  t.room.Resign(ann, 4, resign);  // nobody else plays in person: the game ends
  ASSERT_EQ(t.room.Status(), wire::GAME_STATUS_RESIGNED);
  auto back = std::make_shared<Player>();
  t.room.Resume(back, 5, ResumeOf(*bob));
  ASSERT_FALSE(back->received.empty());
  EXPECT_TRUE(back->received.back().has_snapshot()) << back->received.back().DebugString();
}

}  // namespace
}  // namespace carc::server
