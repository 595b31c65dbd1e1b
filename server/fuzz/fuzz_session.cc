// libFuzzer target: bytes from a client into one Session over Boost.Beast's test stream, the
// way a socket would bring them: the HTTP request, then WebSocket frames. It checks the
// session's own duties, which the dispatcher's fuzzer (fuzz_dispatch.cc) does not reach:
// framing, the Hello gate, the rate limit, text frames, close frames, oversized messages.
//
// The input is a list of steps, each `kind, length, bytes`:
//   0  raw bytes, as they are (broken frames, a second HTTP request, anything)
//   1  one masked binary frame around the bytes (a ClientMessage, or not)
//   2  a Hello frame (protocol version from the first byte)   3  a ping frame
//   4  a close frame                                          5  a text frame
// The first byte of the input says whether the HTTP request is the upgrade (even) or the
// input's own bytes up to the first step (odd). After the input the client closes its end.
//
// Checked after each run: the session ended (the io_context ran out of work) and left the
// registry; every binary frame it wrote parses as a ServerMessage; nothing reached the lobby
// before the session sent Welcome; the lobby heard of the end once for an open session.
#include <spdlog/spdlog.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/write.hpp>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "net/session_impl.h"
#include "test_stream.h"

namespace carc::server {
namespace {

namespace test = boost::beast::test;

class Sink : public MessageSink {
 public:
  void Handle(const std::shared_ptr<Peer>& peer, const wire::ClientMessage& message) override {
    ++handled;
    wire::ServerMessage reply;
    reply.set_request_id(message.request_id());
    reply.mutable_game_list();
    peer->Send(std::make_shared<std::string>(reply.SerializeAsString()));
  }
  void Disconnected(const std::shared_ptr<Peer>&) override { ++disconnected; }
  int handled = 0;
  int disconnected = 0;
};

ServerConfig FuzzConfig() {
  ServerConfig config;
  config.max_message_bytes = 4096;
  config.messages_per_second = 1;
  config.message_burst = 4;
  config.max_outbound_queue = 8;
  config.max_outbound_bytes = 64 * 1024;
  // A session the client leaves half-way (a close frame it never answers, a Hello it never
  // sends) ends by these timers: short, so that such inputs take milliseconds.
  config.handshake_timeout = std::chrono::milliseconds(100);
  config.idle_timeout = std::chrono::milliseconds(200);
  return config;
}

// Reads the steps of the input into the client's bytes.
std::string Frames(const uint8_t* data, size_t size) {
  std::string out;
  size_t at = 0;
  while (at + 2 <= size) {
    const uint8_t kind = data[at] % 6;
    const size_t length = std::min<size_t>(data[at + 1], size - at - 2);
    const std::string bytes(reinterpret_cast<const char*>(data + at + 2), length);
    at += 2 + length;
    switch (kind) {
      case 0:
        out += bytes;
        break;
      case 1:
        out += ws::ClientFrame(ws::Opcode::kBinary, bytes);
        break;
      case 2: {
        wire::ClientMessage hello;
        hello.set_request_id(length);
        hello.mutable_hello()->set_protocol_version(bytes.empty() ? protocol::kProtocolVersion
                                                                  : uint8_t(bytes[0]) % 4);
        out += ws::ClientMessageFrame(hello);
        break;
      }
      case 3:
        out += ws::ClientFrame(ws::Opcode::kPing, bytes.substr(0, 125));
        break;
      case 4:
        out += ws::ClientFrame(ws::Opcode::kClose, bytes.substr(0, 125));
        break;
      default:
        out += ws::ClientFrame(ws::Opcode::kText, bytes);
        break;
    }
  }
  return out;
}

void Check(bool condition, const char* what) {
  if (!condition) {
    fprintf(stderr, "fuzz_session: %s\n", what);
    std::abort();
  }
}

}  // namespace
}  // namespace carc::server

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace carc::server;
  static const bool quiet = [] {
    spdlog::set_level(spdlog::level::off);
    return true;
  }();
  (void)quiet;
  if (size == 0) return 0;
  const bool upgrade = data[0] % 2 == 0;
  const std::string frames = Frames(data + 1, size - 1);
  const std::string request = upgrade
                                  ? ws::UpgradeRequest()
                                  : std::string(reinterpret_cast<const char*>(data + 1), size - 1);

  static const ServerConfig config = FuzzConfig();
  Sink sink;
  SessionRegistry registry;
  auto now = std::chrono::steady_clock::time_point{};
  const SessionContext context{config, sink, registry, [&now] {
                                 now += std::chrono::milliseconds(100);
                                 return now;
                               }};
  boost::asio::io_context io;
  boost::beast::test::stream server_side(io);
  boost::beast::test::stream client_side(io);
  server_side.connect(client_side);
  server_side.append(request);
  std::make_shared<TestSession>(std::move(server_side), context, 1)->Run();
  for (int i = 0; i < 100 && io.poll() > 0;) ++i;  // the HTTP answer first, as RFC 6455 says
  if (upgrade) {
    boost::beast::error_code ignored;
    boost::asio::write(client_side, boost::asio::buffer(frames), ignored);
  }
  client_side.close();
  io.run();

  const auto written = client_side.str();
  const ws::ServerOutput out =
      ws::ParseServerOutput(std::string_view(written.data(), written.size()));
  Check(registry.Total() == 0, "the session outlived its connection");
  Check(out.well_formed, "a binary frame the server wrote does not parse");
  bool welcomed = false;
  for (const auto& m : out.messages) welcomed = welcomed || m.has_welcome();
  Check(sink.handled == 0 || welcomed, "a message reached the lobby without Hello");
  Check(sink.disconnected <= 1, "the lobby heard of one end twice");
  return 0;
}
