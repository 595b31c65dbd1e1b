// The server's address: a ws:// URL split into host, port and path; and where a game is played
// when the address is a proxy in front of several shards (docs/protocol.md, section 1).
#pragma once

#include <string>
#include <string_view>
#include <variant>

#include "protocol/shard_name.h"

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

using protocol::ValidShardName;  // the server's rule for a shard's name (carc-server --shard)

// The shard a game id names: "b" for "b-g12"; empty for an id that names none ("g12", the id of a
// server alone), and for anything that is not a shard's id (the server then answers it).
std::string ShardOfGame(std::string_view game_id);

// Shard `shard`'s instance behind the proxy at `base`: BASE/shard/NAME/ (ws://h:8080/carc ->
// ws://h:8080/carc/shard/b/).
ServerUrl ShardUrl(const ServerUrl& base, std::string_view shard);

// Where game `game_id` is played: its shard's URL when the id names a shard, `base` itself
// otherwise. Every command that names a game connects there.
ServerUrl GameUrl(const ServerUrl& base, std::string_view game_id);

// The HTTP path of the proxy's list of shards: BASE/shards.
std::string ShardListPath(const ServerUrl& base);

// Whether `host` is a loopback address: 127.0.0.0/8, ::1 or the name "localhost".
bool IsLoopbackHost(const std::string& host);

}  // namespace carc::client
