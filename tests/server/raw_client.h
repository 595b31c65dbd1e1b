// A WebSocket client by hand over a blocking loopback socket: it sends exactly the bytes a test
// chooses and does only what the test says. It never answers a ping or a close frame by itself,
// so it can play the clients a server must survive: one that reads nothing, one that answers the
// close frame but keeps its socket open. Reads wait at most a given time (a safety limit).
#pragma once

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <memory>
#include <optional>
#include <string>

#include "test_stream.h"
#include "wire_messages.h"

namespace carc::server {

class RawClient {
 public:
  RawClient() = default;
  RawClient(const RawClient&) = delete;
  RawClient& operator=(const RawClient&) = delete;
  ~RawClient() { Close(); }

  // TCP only.
  bool ConnectTcp(uint16_t port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0) return false;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return ::connect(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
  }

  // TCP and the upgrade: true once the server answered 101.
  bool Connect(uint16_t port, std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    if (!ConnectTcp(port) || !SendBytes(ws::UpgradeRequest())) return false;
    const auto end = std::chrono::steady_clock::now() + timeout;
    while (received_.find("\r\n\r\n") == std::string::npos) {
      if (!ReadSome(end)) break;
    }
    return received_.starts_with("HTTP/1.1 101");
  }

  bool SendBytes(const std::string& bytes) {
    return ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) ==
           static_cast<ssize_t>(bytes.size());
  }
  bool Send(const wire::ClientMessage& message) {
    return SendBytes(ws::ClientMessageFrame(message));
  }

  // Reads until `done` holds for what has arrived, the server closes, or the time is up.
  template <typename Done>
  ws::ServerOutput ReadUntil(Done done, std::chrono::milliseconds timeout) {
    const auto end = std::chrono::steady_clock::now() + timeout;
    ws::ServerOutput out = ws::ParseServerOutput(received_);
    while (!done(out) && ReadSome(end)) out = ws::ParseServerOutput(received_);
    return out;
  }
  // Everything the server wrote so far (reading what has arrived, up to `timeout`).
  ws::ServerOutput ReadUntilClosed(std::chrono::milliseconds timeout) {
    return ReadUntil([](const ws::ServerOutput&) { return false; }, timeout);
  }
  // A request and the reply with its id.
  std::optional<wire::ServerMessage> Request(
      const wire::ClientMessage& message,
      std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    if (!Send(message)) return std::nullopt;
    const auto has = [&](const ws::ServerOutput& out) { return Reply(out, message); };
    return Reply(ReadUntil(has, timeout), message);
  }

  // Reads for `how_long`, answering every ping with its pong (as a browser does).
  void AnswerPingsFor(std::chrono::milliseconds how_long) {
    const auto end = std::chrono::steady_clock::now() + how_long;
    size_t answered = 0;
    while (std::chrono::steady_clock::now() < end) {
      ReadSome(end);
      const ws::ServerOutput out = ws::ParseServerOutput(received_);
      for (; answered < out.pings.size(); ++answered) {
        SendBytes(ws::ClientFrame(ws::Opcode::kPong, out.pings[answered]));
      }
      if (eof_ || reset_) return;
    }
  }

  // Connect, then Hello with request id 1: true once the Welcome came.
  bool Greet(uint16_t port, std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    if (!Connect(port, timeout)) return false;
    const auto welcome = Request(msg::Hello(1), timeout);
    return welcome && welcome->has_welcome();
  }

  // Every byte received so far (an HTTP answer whole, body included).
  const std::string& received() const { return received_; }

  // The server ended the connection: an orderly close, or a reset.
  bool closed_by_server() const { return eof_ || reset_; }
  void Close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  static std::optional<wire::ServerMessage> Reply(const ws::ServerOutput& out,
                                                  const wire::ClientMessage& message) {
    for (const auto& m : out.messages) {
      if (m.request_id() == message.request_id()) return m;
    }
    return std::nullopt;
  }

  // One read, waiting at most until `end`; false at the end of the stream, on an error or when
  // the time is up.
  bool ReadSome(std::chrono::steady_clock::time_point end) {
    const auto left = end - std::chrono::steady_clock::now();
    if (left <= std::chrono::steady_clock::duration::zero() || fd_ < 0) return false;
    const auto us = std::chrono::duration_cast<std::chrono::microseconds>(left).count();
    timeval tv{static_cast<time_t>(us / 1'000'000), static_cast<suseconds_t>(us % 1'000'000)};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char buffer[16384];
    const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
    if (n == 0) eof_ = true;
    if (n < 0 && errno == ECONNRESET) reset_ = true;
    if (n <= 0) return false;
    received_.append(buffer, static_cast<size_t>(n));
    return true;
  }

  int fd_ = -1;
  std::string received_;
  bool eof_ = false;
  bool reset_ = false;
};

// A client that has said Hello, or null if the server did not take it.
// `message` with request id `id`, and its answer (an empty message, and a test failure, when
// none came).
inline wire::ServerMessage Ask(RawClient& client, wire::ClientMessage message, uint64_t id) {
  message.set_request_id(id);
  const auto reply = client.Request(message);
  EXPECT_TRUE(reply.has_value()) << message.ShortDebugString();
  return reply.value_or(wire::ServerMessage{});
}

inline std::unique_ptr<RawClient> Greeted(
    uint16_t port, std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
  auto client = std::make_unique<RawClient>();
  if (!client->Greet(port, timeout)) return nullptr;
  return client;
}

}  // namespace carc::server
