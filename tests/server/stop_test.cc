// carc-server stopped by SIGTERM while its games hold clocks, grace periods and bots: the stop
// ends within --shutdown-grace whatever the games hold, decides nothing in any game (no clock
// runs down, no grace period ends, no stand-in is seated, no forfeit is written), and after a
// restart the clocks and grace periods carry on from the log as after a kill -9.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <ostream>
#include <string>

#include "persistence/store.h"
#include "raw_client.h"
#include "server_process.h"

namespace carc::server {
namespace {

using std::chrono::seconds;
using test_server::FreeLoopbackPort;
using test_server::ServerProcess;
using test_server::TempDir;

// Every timed thing a game holds is shorter than the stop: a stop that let them run would see
// each of them due before it ends. The seat's clock and the away player's grace period are the
// shortest the protocol allows.
constexpr int kShutdownGraceSeconds = 3;
constexpr uint64_t kClockMs = 1'000;
constexpr uint64_t kGraceMs = 1'000;
// What may pass between SIGTERM and the exit besides the grace time: the commits in flight,
// closing the log. A bound, not a measurement: a stop that lets a game's timers run waits for
// the next of them, minutes away.
constexpr seconds kStopBound{kShutdownGraceSeconds + 7};

struct StopCase {
  std::string name;
  wire::ClockKind clock = wire::CLOCK_KIND_NONE;
  wire::AbsentPolicy on_absent = wire::ABSENT_POLICY_STAND_IN;
};

std::string PrintCase(const testing::TestParamInfo<StopCase>& info) { return info.param.name; }
void PrintTo(const StopCase& c, std::ostream* out) { *out << c.name; }

wire::ClientMessage CreateFor(const StopCase& c) {
  wire::ClientMessage create = msg::CreateGame(msg::kCity, 2, 7);
  wire::TimeControl& control = *create.mutable_create_game()->mutable_time_control();
  control.set_kind(c.clock);
  if (c.clock == wire::CLOCK_KIND_LIVE) control.set_bank_ms(kClockMs);
  if (c.clock == wire::CLOCK_KIND_CORRESPONDENCE) control.set_decision_ms(kClockMs);
  control.set_grace_ms(kGraceMs);
  control.set_on_absent(c.on_absent);
  return create;
}

template <typename Pred>
bool Saw(const ws::ServerOutput& out, Pred pred) {
  for (const auto& m : out.messages) {
    if (pred(m)) return true;
  }
  return false;
}

// The game as the log holds it.
persistence::StoredGame Logged(const std::string& db, const std::string& game_id) {
  persistence::StoreOptions options;
  options.path = db;
  options.create = false;
  auto store = persistence::Store::Open(options);
  EXPECT_TRUE(store) << store.error().message;
  if (!store) return {};
  auto loaded = store->LoadGame(persistence::ParseGameId(game_id).value_or(0));
  EXPECT_TRUE(loaded && loaded->has_value()) << "game " << game_id << " is in the log";
  return loaded && loaded->has_value() ? **loaded : persistence::StoredGame{};
}

// What a stop may not change: the status, the seats (no stand-in, no resignation) and the
// actions.
void ExpectUnchanged(const persistence::StoredGame& before, const persistence::StoredGame& after) {
  EXPECT_EQ(after.game.status, persistence::GameStatus::kRunning);
  EXPECT_EQ(after.game.seat_records, before.game.seat_records);
  EXPECT_EQ(after.actions.size(), before.actions.size());
}

class StopWithGames : public testing::TestWithParam<StopCase> {};

TEST_P(StopWithGames, SigtermEndsWithinTheGraceAndDecidesNothing) {
  const StopCase& c = GetParam();
  TempDir dir;
  ServerProcess server(dir.path(), FreeLoopbackPort(),
                       {"--shutdown-grace", std::to_string(kShutdownGraceSeconds)});
  ASSERT_TRUE(server.Start());
  auto alice = Greeted(server.port());
  ASSERT_TRUE(alice);
  const std::string game = Ask(*alice, CreateFor(c), 2).game_created().game().game_id();
  ASSERT_FALSE(game.empty());

  // Alice plays and stays; Bob takes the other seat, which starts the game, and goes away.
  const wire::ServerMessage joined = Ask(*alice, msg::JoinSeat(game, 0, "alice"), 3);
  ASSERT_TRUE(joined.has_seat_joined());
  const std::string alice_token = joined.seat_joined().seat_token();
  auto bob = Greeted(server.port());
  ASSERT_TRUE(bob);
  ASSERT_TRUE(Ask(*bob, msg::JoinSeat(game, 1, "bob"), 3).has_seat_joined());
  bob->Close();
  const auto bob_away = [](const wire::ServerMessage& m) {
    return m.has_seat_status() && m.seat_status().seat() == 1 && !m.seat_status().online();
  };
  const auto away =
      alice->ReadUntil([&](const auto& out) { return Saw(out, bob_away); }, seconds(10));
  ASSERT_TRUE(Saw(away, bob_away)) << "Bob's seat shows offline";
  const persistence::StoredGame before = Logged(server.db(), game);
  ASSERT_EQ(before.game.status, persistence::GameStatus::kRunning);

  // Alice is told, answers nothing and keeps her socket: the server waits its whole grace time.
  const auto stopped_at = std::chrono::steady_clock::now();
  server.Signal(SIGTERM);
  const auto told = alice->ReadUntil(
      [](const auto& out) {
        return Saw(out, [](const auto& m) { return m.has_server_closing(); });
      },
      seconds(10));
  EXPECT_TRUE(Saw(told, [](const auto& m) { return m.has_server_closing(); }));
  const std::optional<int> exit = server.WaitExit(kStopBound);
  ASSERT_EQ(exit, std::optional<int>(0)) << "the stop did not end within the bound:\n"
                                         << server.Tail(30);
  EXPECT_LT(std::chrono::steady_clock::now() - stopped_at, kStopBound);
  alice->Close();
  ExpectUnchanged(before, Logged(server.db(), game));

  // Started again: the game's timed work carries on from the log (Alice is back, Bob's grace
  // period or a clock runs out and the absent policy seats a bot).
  ASSERT_TRUE(server.Start());
  auto back = Greeted(server.port());
  ASSERT_TRUE(back);
  const wire::ServerMessage rejoined = Ask(*back, msg::Resume(game, alice_token, 0), 3);
  ASSERT_FALSE(rejoined.has_error()) << rejoined.ShortDebugString();
  const auto carried_on = [](const auto& m) { return m.has_lobby_update() || m.has_delta(); };
  const auto after =
      back->ReadUntil([&](const auto& out) { return Saw(out, carried_on); }, seconds(20));
  EXPECT_TRUE(Saw(after, carried_on)) << server.Tail(30);
  server.Signal(SIGTERM);
  back->Close();
  EXPECT_EQ(server.WaitExit(kStopBound), std::optional<int>(0)) << server.Tail(30);
}

INSTANTIATE_TEST_SUITE_P(
    EveryClockAndPolicy, StopWithGames,
    testing::Values(StopCase{"LiveStandIn", wire::CLOCK_KIND_LIVE, wire::ABSENT_POLICY_STAND_IN},
                    StopCase{"LiveForfeit", wire::CLOCK_KIND_LIVE, wire::ABSENT_POLICY_FORFEIT},
                    StopCase{"CorrespondenceStandIn", wire::CLOCK_KIND_CORRESPONDENCE,
                             wire::ABSENT_POLICY_STAND_IN},
                    StopCase{"CorrespondenceForfeit", wire::CLOCK_KIND_CORRESPONDENCE,
                             wire::ABSENT_POLICY_FORFEIT},
                    StopCase{"NoClockStandIn", wire::CLOCK_KIND_NONE, wire::ABSENT_POLICY_STAND_IN},
                    StopCase{"NoClockForfeit", wire::CLOCK_KIND_NONE, wire::ABSENT_POLICY_FORFEIT}),
    PrintCase);

}  // namespace
}  // namespace carc::server
