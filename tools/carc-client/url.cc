#include "url.h"

#include <boost/asio/ip/address.hpp>
#include <charconv>

namespace carc::client {

std::string ServerUrl::HostHeader() const {
  const bool v6 = host.find(':') != std::string::npos;
  return (v6 ? "[" + host + "]" : host) + ":" + port;
}

std::string ServerUrl::ToString() const { return "ws://" + HostHeader() + path; }

std::variant<ServerUrl, std::string> ParseServerUrl(std::string_view url) {
  constexpr std::string_view kScheme = "ws://";
  if (url.substr(0, 6) == "wss://") {
    return std::string("wss:// is not supported; use ws:// (the server speaks plain WebSocket)");
  }
  if (url.substr(0, kScheme.size()) != kScheme) {
    return "expected ws://host[:port][/path], got '" + std::string(url) + "'";
  }
  std::string_view rest = url.substr(kScheme.size());
  const size_t slash = rest.find('/');
  ServerUrl parsed;
  parsed.path = slash == std::string_view::npos ? "/" : std::string(rest.substr(slash));
  std::string_view authority = rest.substr(0, slash);
  std::string_view port;
  if (!authority.empty() && authority.front() == '[') {
    const size_t close = authority.find(']');
    if (close == std::string_view::npos) return std::string("unclosed '[' in the server's host");
    parsed.host = std::string(authority.substr(1, close - 1));
    const std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return std::string("expected ':port' after ']'");
      port = after.substr(1);
    }
  } else {
    const size_t colon = authority.rfind(':');
    parsed.host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) port = authority.substr(colon + 1);
  }
  if (parsed.host.empty()) return std::string("the server URL has no host");
  if (port.empty()) {
    parsed.port = "80";
  } else {
    int number = 0;
    const auto [end, error] = std::from_chars(port.data(), port.data() + port.size(), number);
    if (error != std::errc() || end != port.data() + port.size() || number < 1 || number > 65535) {
      return "bad port '" + std::string(port) + "'";
    }
    parsed.port = std::to_string(number);
  }
  return parsed;
}

namespace {

// `base`'s path without its trailing slashes: "" for "/", "/carc" for "/carc/".
std::string_view PathPrefix(const ServerUrl& base) {
  std::string_view path = base.path;
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  return path;
}

}  // namespace

std::string ShardOfGame(std::string_view game_id) {
  return std::string(protocol::ShardNamedBy(game_id));
}

ServerUrl ShardUrl(const ServerUrl& base, std::string_view shard) {
  ServerUrl url = base;
  url.path = std::string(PathPrefix(base)) + "/shard/" + std::string(shard) + "/";
  return url;
}

ServerUrl GameUrl(const ServerUrl& base, std::string_view game_id) {
  const std::string shard = ShardOfGame(game_id);
  return shard.empty() ? base : ShardUrl(base, shard);
}

std::string ShardListPath(const ServerUrl& base) {
  return std::string(PathPrefix(base)) + "/shards";
}

bool IsLoopbackHost(const std::string& host) {
  if (host == "localhost") return true;
  boost::system::error_code ec;
  const auto address = boost::asio::ip::make_address(host, ec);
  return !ec && address.is_loopback();
}

}  // namespace carc::client
