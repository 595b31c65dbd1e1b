// The carc-server binary as operators run it: stopped by SIGTERM while clients misbehave, run
// out of file descriptors (on the players' port and beside the operator's), and refused a game
// log another server holds or another shard owns. Each test starts its own process
// (tests/server/server_process.h) and talks to it with hand-made WebSocket clients
// (raw_client.h). Waits are bounded.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "raw_client.h"
#include "server_process.h"

namespace carc::server {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using test_server::FreeLoopbackPort;
using test_server::ServerProcess;
using test_server::TempDir;

// A game of `seats` created by `creator`, who takes seat 0; `others` take the next seats.
std::string GameOf(RawClient& creator, uint32_t seats, const std::vector<RawClient*>& others) {
  std::string game =
      Ask(creator, msg::CreateGame(msg::kCity, seats, 7), 2).game_created().game().game_id();
  const wire::ClientMessage join = msg::JoinSeat(game, std::nullopt, "p");
  EXPECT_TRUE(Ask(creator, join, 3).has_seat_joined());
  for (RawClient* other : others) EXPECT_TRUE(Ask(*other, join, 3).has_seat_joined());
  return game;
}

bool SawServerClosing(const ws::ServerOutput& out) {
  for (const auto& m : out.messages) {
    if (m.has_server_closing()) return true;
  }
  return false;
}

// SIGTERM with a running game, an open game, a client that closes politely, one that answers
// the close frame but keeps its socket, and one that reads nothing: every client that reads is
// told, and the process exits 0 after at most its grace time. Three times over.
TEST(ServerSignals, SigtermStopsCleanlyWhateverTheClientsDo) {
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    TempDir dir;
    ServerProcess server(dir.path(), FreeLoopbackPort(), {"--shutdown-grace", "1"});
    ASSERT_TRUE(server.Start());
    auto alice = Greeted(server.port());
    auto bob = Greeted(server.port());
    auto carol = Greeted(server.port());
    auto lingering = Greeted(server.port());
    auto deaf = Greeted(server.port());
    ASSERT_TRUE(alice && bob && carol && lingering && deaf);
    GameOf(*alice, 2, {bob.get()});  // full, so running
    GameOf(*carol, 3, {});           // open

    server.Signal(SIGTERM);
    for (RawClient* polite : {alice.get(), bob.get(), carol.get()}) {
      const auto out =
          polite->ReadUntil([](const auto& o) { return o.close_code.has_value(); }, seconds(10));
      EXPECT_TRUE(SawServerClosing(out));
      EXPECT_EQ(out.close_code, std::optional<uint16_t>(1001));
      polite->SendBytes(ws::CloseFrame(1001));
      polite->Close();
    }
    const auto told =
        lingering->ReadUntil([](const auto& o) { return o.close_code.has_value(); }, seconds(10));
    EXPECT_TRUE(SawServerClosing(told));
    lingering->SendBytes(ws::CloseFrame(1001));  // and keeps its socket open
    const std::optional<int> exit = server.WaitExit();
    ASSERT_EQ(exit, std::optional<int>(0)) << server.Tail(30);
  }
}

// With every descriptor in use the server neither spins nor floods its log: it answers the
// health check on a spare descriptor, refuses upgrades it cannot hold, keeps serving the
// connections it has, and takes new ones once descriptors are free again.
TEST(ServerDescriptors, RunningOutOfDescriptorsBacksOffAndKeepsServing) {
  TempDir dir;
  ServerProcess server(dir.path(), FreeLoopbackPort(), {}, /*max_descriptors=*/64);
  ASSERT_TRUE(server.Start());
  std::vector<std::unique_ptr<RawClient>> clients;
  bool refused = false;
  for (int i = 0; i < 100 && !refused; ++i) {
    auto client = Greeted(server.port(), seconds(2));
    if (client) {
      clients.push_back(std::move(client));
    } else {
      refused = true;
    }
  }
  ASSERT_TRUE(refused) << "64 descriptors cannot hold 100 connections";
  EXPECT_GT(clients.size(), 20u);

  RawClient health;
  ASSERT_TRUE(health.ConnectTcp(server.port()));
  ASSERT_TRUE(health.SendBytes("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"));
  EXPECT_TRUE(health.ReadUntilClosed(seconds(10)).http.starts_with("HTTP/1.1 200"))
      << "the health check is answered";

  EXPECT_TRUE(Ask(*clients.front(), msg::Ping(3), 9).has_pong()) << "open connections are served";
  // More connections keep arriving while descriptors are short: each waits in the backlog for
  // a retry (or takes a descriptor a closed one freed).
  for (int i = 0; i < 5; ++i) Greeted(server.port(), milliseconds(300));
  EXPECT_LE(server.CountLines("accept:"), 3u) << "reported once, not once per retry:\n"
                                              << server.Tail(10);

  clients.resize(clients.size() - 5);  // five leave
  std::unique_ptr<RawClient> back;
  for (int i = 0; i < 50 && !back; ++i) back = Greeted(server.port(), seconds(2));
  EXPECT_NE(back, nullptr) << "a freed descriptor takes a new connection";

  server.Signal(SIGTERM);
  EXPECT_EQ(server.WaitExit(), std::optional<int>(0)) << server.Tail(30);
}

// The operator's port answers the health check and the metrics at once, whatever the players'
// side does: here a hundred connections that say nothing hold every descriptor of the players'
// port. Its figures are not served on the players' port.
TEST(ServerDescriptors, TheOperatorsPortAnswersWhileSilentConnectionsHoldEveryDescriptor) {
  TempDir dir;
  const uint16_t operator_port = FreeLoopbackPort();
  ServerProcess server(dir.path(), FreeLoopbackPort(),
                       {"--operator-port", std::to_string(operator_port)},
                       /*max_descriptors=*/64);
  ASSERT_TRUE(server.Start());
  const auto get = [](uint16_t port, const std::string& path) {
    RawClient client;
    if (!client.ConnectTcp(port)) return std::string("(no connection)");
    client.SendBytes("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
    // A bound on an answer that comes at once; a health check that waits behind the players'
    // connections waits for their handshake timeout (10 s).
    client.ReadUntilClosed(seconds(3));
    return client.received();
  };
  EXPECT_TRUE(get(server.port(), "/metrics").starts_with("HTTP/1.1 404"))
      << "the metrics are the operator's";
  const std::string public_health = get(server.port(), "/healthz");
  EXPECT_TRUE(public_health.starts_with("HTTP/1.1 200"));
  EXPECT_EQ(public_health.find("\"games\""), std::string::npos) << public_health;

  std::vector<std::unique_ptr<RawClient>> silent;
  for (int i = 0; i < 100; ++i) {
    auto client = std::make_unique<RawClient>();
    ASSERT_TRUE(client->ConnectTcp(server.port()));
    silent.push_back(std::move(client));
  }
  // One after the other: each connection's descriptor, once freed, is not taken by the players'
  // port (which keeps trying to accept the silent connections waiting for it).
  for (int i = 0; i < 10; ++i) {
    const std::string health = get(operator_port, "/healthz");
    EXPECT_TRUE(health.starts_with("HTTP/1.1 200")) << "try " << i << ": " << health;
    EXPECT_NE(health.find("\"games\":0"), std::string::npos) << health;
    const std::string metrics = get(operator_port, "/metrics");
    EXPECT_TRUE(metrics.starts_with("HTTP/1.1 200")) << "try " << i << ": " << metrics;
    EXPECT_NE(metrics.find("carc_"), std::string::npos) << metrics;
  }
  EXPECT_TRUE(get(operator_port, "/").starts_with("HTTP/1.1 404")) << "only health and metrics";

  silent.clear();
  server.Signal(SIGTERM);
  EXPECT_EQ(server.WaitExit(), std::optional<int>(0)) << server.Tail(30);
}

// One server per game log, and a log keeps its shard's name: a second server on the file, or one
// started under another --shard, exits with 2 (as for every start it refuses) and says why.
TEST(ServerStart, ASecondServerOnItsFileOrAnotherShardNameIsRefused) {
  TempDir dir;
  ServerProcess first(dir.path(), FreeLoopbackPort(), {"--shard", "a"});
  ASSERT_TRUE(first.Start());
  ServerProcess second(dir.path(), FreeLoopbackPort(), {"--shard", "a"});
  EXPECT_EQ(second.StartRefused(), std::optional<int>(2)) << second.Tail(5);
  EXPECT_EQ(second.CountLines(".lock is held: a carc-server runs on it"), 1u) << second.Tail(5);
  const auto client = Greeted(first.port());
  ASSERT_NE(client, nullptr);
  EXPECT_TRUE(Ask(*client, msg::Ping(4), 5).has_pong()) << "the first goes on";
  first.Signal(SIGTERM);
  ASSERT_EQ(first.WaitExit(), std::optional<int>(0)) << first.Tail(10);

  ServerProcess renamed(dir.path(), FreeLoopbackPort(), {"--shard", "b"});
  EXPECT_EQ(renamed.StartRefused(), std::optional<int>(2)) << renamed.Tail(5);
  EXPECT_EQ(renamed.CountLines("holds the games of shard 'a', and this server was started as "
                               "shard 'b'"),
            1u)
      << renamed.Tail(5);
  ASSERT_TRUE(first.Start()) << "under its own name it starts again";
}

}  // namespace
}  // namespace carc::server
