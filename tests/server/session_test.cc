// A session over Boost.Beast's test stream: every byte the client sends is chosen by the test,
// and the stream can fail its Nth operation. Covers what sockets cannot pin down: each step of
// the handshake, reads and writes failing in turn; the Hello deadline; the rate limit on a clock
// the test moves.
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/write.hpp>
#include <memory>
#include <string>
#include <vector>

#include "net/session_impl.h"
#include "test_stream.h"
#include "wire_messages.h"

namespace carc::server {
namespace {

namespace test = boost::beast::test;
using std::chrono::milliseconds;

// Records what the session hands on, and answers each message with an empty game list.
class RecordingSink : public MessageSink {
 public:
  void Handle(const std::shared_ptr<Peer>& peer, const wire::ClientMessage& message) override {
    handled.push_back(message);
    wire::ServerMessage reply;
    reply.set_request_id(message.request_id());
    reply.mutable_game_list();
    auto bytes = std::make_shared<std::string>(reply.SerializeAsString());
    peer->Send(std::move(bytes));
  }
  void Disconnected(const std::shared_ptr<Peer>&) override { ++disconnected; }

  std::vector<wire::ClientMessage> handled;
  int disconnected = 0;
};

wire::ClientMessage Hello(uint64_t id) { return msg::Hello(id); }

wire::ClientMessage Ping(uint64_t id) {
  wire::ClientMessage m = msg::Ping(id);
  m.set_request_id(id);
  return m;
}

wire::ClientMessage ListGames(uint64_t id) {
  wire::ClientMessage m = msg::ListGames();
  m.set_request_id(id);
  return m;
}

const wire::ServerMessage* Find(const ws::ServerOutput& out, uint64_t request_id) {
  for (const auto& m : out.messages) {
    if (m.request_id() == request_id) return &m;
  }
  return nullptr;
}

ServerConfig QuietConfig() {
  spdlog::set_level(spdlog::level::warn);
  ServerConfig config;
  config.handshake_timeout = milliseconds(2000);
  return config;
}

// One session over a test stream whose client side has written `input` and then closed.
struct Harness {
  explicit Harness(ServerConfig c, Clock clock = SteadyNow)
      : config(std::move(c)), context{config, sink, registry, std::move(clock)} {}

  // Runs the session to its end (the io_context runs out of work; bounded as a safety limit).
  // The client sends its HTTP request, waits for the answer as RFC 6455 says, then sends
  // `frames` and, unless told otherwise, closes its end.
  ws::ServerOutput Run(const std::string& request, const std::string& frames,
                       test::fail_count* fail = nullptr, bool client_closes = true) {
    test::stream server_side = fail ? test::stream(io, *fail) : test::stream(io);
    test::stream client_side(io);
    server_side.connect(client_side);
    server_side.append(request);
    std::make_shared<TestSession>(std::move(server_side), context, 1)->Run();
    for (int i = 0; i < 1000 && client_side.str().find("\r\n\r\n") == std::string::npos; ++i) {
      if (io.poll() == 0) break;
    }
    boost::beast::error_code ignored;
    boost::asio::write(client_side, boost::asio::buffer(frames), ignored);
    if (client_closes) client_side.close();
    io.run_for(std::chrono::seconds(20));
    finished = io.stopped();
    const auto written = client_side.str();
    return ws::ParseServerOutput(std::string_view(written.data(), written.size()));
  }

  ServerConfig config;
  RecordingSink sink;
  SessionRegistry registry;
  SessionContext context;
  boost::asio::io_context io;
  bool finished = false;
};

std::string WholeConversation() {
  return ws::ClientMessageFrame(Hello(1)) + ws::ClientMessageFrame(Ping(2)) +
         ws::ClientMessageFrame(ListGames(3)) + ws::CloseFrame(1000);
}

// Beast's way: fail the first operation of the stream, then the second, and so on, until the
// whole conversation goes through. Whatever step fails, the session ends, leaves the registry,
// tells the lobby it is gone if it was open, and writes only well-formed frames.
TEST(SessionFailures, EveryStepOfAConversationMayFail) {
  int failed_runs = 0;
  bool completed = false;
  for (size_t n = 0; n < 200 && !completed; ++n) {
    Harness h(QuietConfig());
    test::fail_count fail(n);
    const ws::ServerOutput out = h.Run(ws::UpgradeRequest(), WholeConversation(), &fail);
    ASSERT_TRUE(h.finished) << "step " << n << ": the session did not end";
    EXPECT_EQ(h.registry.Total(), 0u) << "step " << n;
    EXPECT_TRUE(out.well_formed) << "step " << n;
    EXPECT_LE(h.sink.disconnected, 1) << "step " << n;
    EXPECT_LE(h.sink.handled.size(), 1u) << "step " << n;
    const wire::ServerMessage* welcome = Find(out, 1);
    const wire::ServerMessage* pong = Find(out, 2);
    // The lobby's answer to the third may lose the race with the client's close: not required.
    completed = welcome && welcome->has_welcome() && pong && pong->has_pong() &&
                h.sink.handled.size() == 1 && out.close_code == 1000;
    if (!completed) ++failed_runs;
    if (h.sink.handled.size() == 1 || welcome) {
      EXPECT_EQ(h.sink.disconnected, 1) << "step " << n << ": an open session says it is gone";
    }
  }
  EXPECT_TRUE(completed) << "the conversation never went through";
  EXPECT_GE(failed_runs, 4) << "the handshake, the reads and the writes each failed once";
}

TEST(SessionFailures, AnHttpRequestMayFailAtEveryStep) {
  bool completed = false;
  for (size_t n = 0; n < 50 && !completed; ++n) {
    Harness h(QuietConfig());
    test::fail_count fail(n);
    const ws::ServerOutput out =
        h.Run("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n", "", &fail);
    ASSERT_TRUE(h.finished) << "step " << n;
    EXPECT_EQ(h.registry.Total(), 0u) << "step " << n;
    completed = out.http.starts_with("HTTP/1.1 200");
  }
  EXPECT_TRUE(completed);
}

TEST(SessionDeadlines, AConnectionThatNeverSaysHelloIsClosed) {
  ServerConfig config = QuietConfig();
  config.handshake_timeout = milliseconds(50);
  Harness h(config);
  // The client upgrades, answers nothing and keeps its end open.
  const ws::ServerOutput out = h.Run(ws::UpgradeRequest(), "", nullptr, /*client_closes=*/false);
  ASSERT_TRUE(h.finished) << "the session is still open";
  ASSERT_EQ(out.messages.size(), 1u);
  EXPECT_EQ(out.messages[0].error().code(), wire::ERROR_CODE_HELLO_FIRST);
  EXPECT_EQ(out.messages[0].error().reason(), "no Hello within 50 ms");
  EXPECT_EQ(out.close_code, 1008) << "policy violation";
  EXPECT_EQ(h.registry.Total(), 0u);
}

TEST(SessionDeadlines, HelloInTimeKeepsTheConnection) {
  ServerConfig config = QuietConfig();
  config.handshake_timeout = milliseconds(50);
  Harness h(config);
  const ws::ServerOutput out =
      h.Run(ws::UpgradeRequest(), ws::ClientMessageFrame(Hello(1)) +
                                      ws::ClientMessageFrame(Ping(2)) + ws::CloseFrame(1000));
  ASSERT_TRUE(h.finished);
  ASSERT_NE(Find(out, 2), nullptr);
  EXPECT_TRUE(Find(out, 2)->has_pong());
  EXPECT_EQ(out.close_code, 1000) << "the client's close, echoed";
}

// The bucket holds two messages and refills one a second; the clock moves only when the test
// says so.
TEST(SessionRateLimit, TheBucketRefillsWithTheClock) {
  ServerConfig config = QuietConfig();
  config.messages_per_second = 1;
  config.message_burst = 2;
  const auto t0 = std::chrono::steady_clock::time_point{} + std::chrono::hours(1);
  // The times the session reads, in order: its start, then one per message.
  std::vector<std::chrono::steady_clock::time_point> times = {
      t0, t0, t0, t0, t0 + std::chrono::milliseconds(999), t0 + std::chrono::milliseconds(1500)};
  size_t next = 0;
  Clock clock = [&] { return times[std::min(next++, times.size() - 1)]; };
  Harness h(config, clock);
  std::string input;
  for (uint64_t id = 1; id <= 5; ++id) {
    input += ws::ClientMessageFrame(id == 1 ? Hello(id) : Ping(id));
  }
  const ws::ServerOutput out = h.Run(ws::UpgradeRequest(), input + ws::CloseFrame(1000));
  ASSERT_TRUE(h.finished);
  ASSERT_EQ(out.messages.size(), 5u);
  EXPECT_TRUE(Find(out, 1)->has_welcome());
  EXPECT_TRUE(Find(out, 2)->has_pong()) << "the second of the burst";
  EXPECT_EQ(Find(out, 3)->error().code(), wire::ERROR_CODE_RATE_LIMITED) << "the bucket is empty";
  EXPECT_EQ(Find(out, 4)->error().code(), wire::ERROR_CODE_RATE_LIMITED) << "0.999 s later";
  EXPECT_TRUE(Find(out, 5)->has_pong()) << "1.5 s later, one token is back";
}

TEST(SessionRateLimit, TokenBucketNeverHoldsMoreThanItsBurst) {
  const auto t0 = std::chrono::steady_clock::time_point{};
  TokenBucket bucket(10, 3, t0);
  const auto later = t0 + std::chrono::hours(1);
  int taken = 0;
  while (bucket.Take(later)) ++taken;
  EXPECT_EQ(taken, 3);
  EXPECT_FALSE(bucket.Take(later - std::chrono::seconds(1))) << "a clock going back adds nothing";
  EXPECT_TRUE(bucket.Take(later + std::chrono::milliseconds(100)));
}

}  // namespace
}  // namespace carc::server
