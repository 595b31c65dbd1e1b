#include "shards.h"

#include <algorithm>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>

namespace carc::client {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

std::optional<std::vector<std::string>> ParseShardList(unsigned status, std::string_view body) {
  if (status != 200) return std::nullopt;
  const nlohmann::json answer = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!answer.is_object() || !answer.contains("shards") || !answer["shards"].is_array()) {
    return std::nullopt;
  }
  std::vector<std::string> names;
  for (const nlohmann::json& name : answer["shards"]) {
    // A name goes into a URL's path: only what a shard may be called.
    if (!name.is_string() || !ValidShardName(name.get<std::string>())) {
      return std::nullopt;
    }
    names.push_back(name.get<std::string>());
  }
  if (names.empty()) return std::nullopt;
  return names;
}

namespace {

// One GET on a connection of its own, every step bounded by `timeout`; the response, or nullopt
// if there was none.
std::optional<http::response<http::string_body>> Get(const ServerUrl& url, const std::string& path,
                                                     std::chrono::seconds timeout) {
  asio::io_context io;
  asio::ip::tcp::resolver resolver(io);
  beast::error_code ec;
  const auto endpoints = resolver.resolve(url.host, url.port, ec);
  if (ec) return std::nullopt;
  beast::tcp_stream stream(io);
  http::request<http::empty_body> request{http::verb::get, path, 11};
  request.set(http::field::host, url.HostHeader());
  request.set(http::field::user_agent, "carc-client");
  request.set(http::field::accept, "application/json");
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(std::uint64_t{64} * 1024);
  bool ok = false;
  stream.expires_after(timeout);
  stream.async_connect(endpoints, [&](beast::error_code e, const asio::ip::tcp::endpoint&) {
    if (e) return;
    stream.expires_after(timeout);
    http::async_write(stream, request, [&](beast::error_code e2, size_t) {
      if (e2) return;
      stream.expires_after(timeout);
      http::async_read(stream, buffer, parser, [&](beast::error_code e3, size_t) { ok = !e3; });
    });
  });
  io.run();
  stream.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ec);
  if (!ok) return std::nullopt;
  return parser.release();
}

}  // namespace

std::vector<std::string> ShardsToTryAfter(const std::vector<std::string>& shards,
                                          std::string_view refused) {
  const auto at = std::find(shards.begin(), shards.end(), refused);
  if (at == shards.end()) return shards;
  std::vector<std::string> others(std::next(at), shards.end());
  others.insert(others.end(), shards.begin(), at);
  return others;
}

std::vector<std::string> FetchShards(const ServerUrl& base, std::chrono::seconds timeout) {
  const auto response = Get(base, ShardListPath(base), timeout);
  if (!response) return {};
  return ParseShardList(response->result_int(), response->body())
      .value_or(std::vector<std::string>{});
}

}  // namespace carc::client
