// Public game ids, and the shard each names (docs/operations.md, "Shards").
//
// A server started with a shard name owns the games whose ids carry that name: "b-g12" is game
// 12 of shard "b". Each shard numbers its own games in its own game log, which keeps the number
// only. A server without a shard name (one instance alone) names its games "g12".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "protocol/shard_name.h"

namespace carc::server {

using protocol::ValidShardName;  // the rule for a shard's name

// Game `number` of `shard` ("" for a server alone).
std::string PublicGameId(std::string_view shard, int64_t number);

// What an id names, as the server of `shard` sees it.
struct OwnGame {
  int64_t number = 0;
};
struct OtherShardsGame {
  std::string shard;
};
struct NotAGameId {};
using GameIdMeaning = std::variant<OwnGame, OtherShardsGame, NotAGameId>;
GameIdMeaning ParsePublicGameId(std::string_view shard, std::string_view id);

}  // namespace carc::server
