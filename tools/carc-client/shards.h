// The shards behind a proxy (docs/operations.md, "Shards"): the proxy answers GET BASE/shards
// with {"shards":["a","b",...]}; a server alone has no such list. The lobby across shards asks
// each shard at BASE/shard/NAME/ and merges the answers; a game that the shard the proxy chose has
// no room for is created on another, at its BASE/shard/NAME/.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "url.h"

namespace carc::client {

// The shard names in an answer to GET /shards; nullopt when the answer is not such a list (a
// status other than 200, a body that is not JSON or of another shape, a name that is not a
// shard's): the base URL is then one server alone.
std::optional<std::vector<std::string>> ParseShardList(unsigned status, std::string_view body);

// Asks BASE/shards over HTTP. Empty when BASE is one server alone: it answers no list, or does
// not answer at all (the WebSocket that follows then says why).
std::vector<std::string> FetchShards(const ServerUrl& base,
                                     std::chrono::seconds timeout = std::chrono::seconds(10));

// The shards to send a CreateGame to after shard `refused` answered it ERROR_CODE_SERVER_FULL:
// every other one, from the one after it in the list round to the one before, so that the
// creates one full shard refuses spread over the others. Every shard when `refused` is not in
// the list (empty: the server did not say its name).
std::vector<std::string> ShardsToTryAfter(const std::vector<std::string>& shards,
                                          std::string_view refused);

}  // namespace carc::client
