// The server's address: a ws:// URL split into host, port and path.
#pragma once

#include <string>
#include <string_view>
#include <variant>

namespace carc::client {

struct ServerUrl {
  std::string host;  // a name or an address; IPv6 without brackets
  std::string port;  // "8080"
  std::string path;  // "/" at least
  // The Host header of the upgrade: host:port, IPv6 in brackets.
  std::string HostHeader() const;
  std::string ToString() const;
};

// Parses "ws://host[:port][/path]" (the port defaults to 80, the path to "/"). wss:// is not
// supported; the error says what is wrong.
std::variant<ServerUrl, std::string> ParseServerUrl(std::string_view url);

// Whether `host` is a loopback address: 127.0.0.0/8, ::1 or the name "localhost".
bool IsLoopbackHost(const std::string& host);

}  // namespace carc::client
