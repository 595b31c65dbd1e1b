// A BasicSession over Boost.Beast's test stream (session tests, the session fuzzer): the stream
// has no timeouts of its own and no address, and it can fail its Nth operation (fail_count).
// Also: the client's side of the WebSocket by hand, for tests that must send any bytes at all.
#pragma once

#include <boost/beast/_experimental/test/stream.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "net/session.h"

namespace carc::server {

template <>
struct StreamTraits<boost::beast::test::stream> {
  static void ExpiresAfter(boost::beast::test::stream&, std::chrono::milliseconds) {}
  static void ExpiresNever(boost::beast::test::stream&) {}
  static void ShutdownSend(boost::beast::test::stream& s) { s.close(); }
  static void Close(boost::beast::test::stream& s) { s.close(); }
  static std::string RemoteAddress(boost::beast::test::stream&, bool with_port) {
    return with_port ? "192.0.2.1:1" : "192.0.2.1";
  }
};

using TestSession = BasicSession<boost::beast::test::stream>;

// (Not `wire`: that is the protocol's envelope, protocol/envelope.h.)
namespace ws {

// The request that upgrades a connection (RFC 6455's sample key).
inline std::string UpgradeRequest() {
  return "GET / HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: upgrade\r\n"
         "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
}

enum class Opcode : uint8_t { kText = 1, kBinary = 2, kClose = 8, kPing = 9, kPong = 10 };

// One final frame as a client sends it: masked, with a zero key (so the payload reads as is).
inline std::string ClientFrame(Opcode opcode, std::string_view payload) {
  std::string frame;
  frame += static_cast<char>(0x80 | static_cast<uint8_t>(opcode));
  const size_t n = payload.size();
  if (n < 126) {
    frame += static_cast<char>(0x80 | n);
  } else if (n < 65536) {
    frame += static_cast<char>(0x80 | 126);
    frame += static_cast<char>(n >> 8);
    frame += static_cast<char>(n & 0xff);
  } else {
    frame += static_cast<char>(0x80 | 127);
    for (int shift = 56; shift >= 0; shift -= 8) frame += static_cast<char>((n >> shift) & 0xff);
  }
  frame.append(4, '\0');  // the masking key
  frame += payload;
  return frame;
}

inline std::string ClientMessageFrame(const wire::ClientMessage& message) {
  return ClientFrame(Opcode::kBinary, message.SerializeAsString());
}

inline std::string CloseFrame(uint16_t code) {
  std::string payload;
  payload += static_cast<char>(code >> 8);
  payload += static_cast<char>(code & 0xff);
  return ClientFrame(Opcode::kClose, payload);
}

// What the server wrote: its HTTP answer, then its frames (unmasked, unfragmented).
struct ServerOutput {
  std::string http;  // the status line and headers
  std::vector<wire::ServerMessage> messages;
  std::optional<uint16_t> close_code;
  std::vector<std::string> pings;  // the payload of each ping, in order
  bool well_formed = true;         // every binary frame parsed as a ServerMessage
};

inline ServerOutput ParseServerOutput(std::string_view bytes) {
  ServerOutput out;
  const size_t end = bytes.find("\r\n\r\n");
  if (end == std::string_view::npos) {
    out.http = std::string(bytes);
    return out;
  }
  out.http = std::string(bytes.substr(0, end));
  size_t at = end + 4;
  const auto byte = [&](size_t i) { return static_cast<uint8_t>(bytes[i]); };
  while (at + 2 <= bytes.size()) {
    const uint8_t opcode = byte(at) & 0x0f;
    uint64_t length = byte(at + 1) & 0x7f;
    size_t header = 2;
    if (length == 126 || length == 127) {
      const size_t width = length == 126 ? 2 : 8;
      if (at + 2 + width > bytes.size()) break;
      length = 0;
      for (size_t i = 0; i < width; ++i) length = length << 8 | byte(at + 2 + i);
      header += width;
    }
    if (at + header + length > bytes.size()) break;
    const std::string_view payload = bytes.substr(at + header, length);
    if (opcode == static_cast<uint8_t>(Opcode::kBinary)) {
      wire::ServerMessage message;
      if (message.ParseFromArray(payload.data(), static_cast<int>(payload.size()))) {
        out.messages.push_back(std::move(message));
      } else {
        out.well_formed = false;
      }
    } else if (opcode == static_cast<uint8_t>(Opcode::kPing)) {
      out.pings.emplace_back(payload);
    } else if (opcode == static_cast<uint8_t>(Opcode::kClose) && payload.size() >= 2) {
      out.close_code = static_cast<uint16_t>(static_cast<uint8_t>(payload[0]) << 8 |
                                             static_cast<uint8_t>(payload[1]));
    }
    at += header + length;
  }
  return out;
}

}  // namespace ws
}  // namespace carc::server
