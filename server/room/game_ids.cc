#include "room/game_ids.h"

#include "persistence/store.h"

namespace carc::server {

std::string PublicGameId(std::string_view shard, int64_t number) {
  std::string id = persistence::GameId(number);
  return shard.empty() ? id : std::string(shard) + "-" + id;
}

GameIdMeaning ParsePublicGameId(std::string_view shard, std::string_view id) {
  const size_t dash = id.find('-');
  const std::string_view named = dash == std::string_view::npos ? "" : id.substr(0, dash);
  const std::string_view rest = dash == std::string_view::npos ? id : id.substr(dash + 1);
  if (dash != std::string_view::npos && !ValidShardName(named)) return NotAGameId{};
  const auto number = persistence::ParseGameId(rest);
  if (!number) return NotAGameId{};
  if (named == shard) return OwnGame{*number};
  if (named.empty()) return NotAGameId{};  // an id of a server alone, asked of a shard
  return OtherShardsGame{std::string(named)};
}

}  // namespace carc::server
