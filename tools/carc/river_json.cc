#include "river_json.h"

#include "core/text.h"
#include "json.h"
#include "river/rules.h"

namespace carc::tool {
namespace {

using nlohmann::json;

// An integer or a comma-separated list of integers as JSON; null for anything else (a word).
json NumbersToJson(std::string_view text) {
  int number = 0;
  if (core::ParseNumber(text, &number)) return number;
  json list = json::array();
  for (;;) {
    const size_t comma = text.find(',');
    if (!core::ParseNumber(text.substr(0, comma), &number)) return nullptr;
    list.push_back(number);
    if (comma == std::string_view::npos) return list;
    text = text.substr(comma + 1);
  }
}

json Supplies(const river::Game& game) {
  json out = json::array();
  for (int p = 0; p < game.players(); ++p)
    out.push_back({{"followers", game.FollowersInSupply(p)}});
  return out;
}

json Board(const river::Game& game) {
  json tiles = json::array();
  for (int i = 0; i < game.board().TileCount(); ++i) {
    const core::PlacedTile& t = game.board().Placed(i);
    tiles.push_back({{"tile", t.tile},
                     {"name", game.tiles().TypeOf(t.tile).name},
                     {"x", t.x},
                     {"y", t.y},
                     {"rotation", t.rotation}});
  }
  return tiles;
}

json Followers(const river::Game& game) {
  json out = json::array();
  for (int i = 0; i < game.FollowerSpotCount(); ++i) {
    const river::FollowerSpot& s = game.Spot(i);
    const core::PlacedTile& t = game.board().Placed(s.index);
    const core::FeatureDef& def = game.tiles().TypeOf(t.tile).features[s.feature];
    out.push_back({{"player", s.player},
                   {"x", t.x},
                   {"y", t.y},
                   {"feature", s.feature},
                   {"label", std::string(1, def.label)},
                   {"role", river::RoleName(def.kind)}});
  }
  return out;
}

}  // namespace

json EventTextToJson(std::string_view text) {
  const std::vector<std::string_view> words = core::SplitWords(text);
  json j = {{"event", words.empty() ? std::string() : std::string(words[0])}};
  for (size_t i = 1; i < words.size(); ++i) {
    const size_t equals = words[i].find('=');
    if (equals == std::string_view::npos) continue;  // not a field: no event writes one
    const std::string_view value = words[i].substr(equals + 1);
    json parsed = NumbersToJson(value);
    j[std::string(words[i].substr(0, equals))] =
        parsed.is_null() ? json(std::string(value)) : std::move(parsed);
  }
  return j;
}

json RiverScoresToJson(const river::Game& game) {
  json out = json::array();
  for (int p = 0; p < game.players(); ++p) {
    json s;
    for (int src = 0; src < river::kSourceCount; ++src) {
      const auto source = static_cast<river::Source>(src);
      s[river::ToString(source)] = game.Score(p, source);
    }
    s["total"] = game.TotalScore(p);
    out.push_back(s);
  }
  return out;
}

json RiverStateToJson(const river::Game& game) {
  json j;
  j["game"] = "carcassonne";
  j["options"] = {{"river", game.config().river ? 1 : 0}};
  j["tileset"] = {{"id", game.tiles().id()}, {"version", game.tiles().version()}};
  j["players"] = game.players();
  j["seed"] = game.seed();
  j["actions"] = game.History().size();
  j["hash"] = HexHash(game.Hash());
  j["decision"] = {{"actor", game.CurrentDecision().actor},
                   {"kind", river::ToString(game.CurrentDecision().kind)},
                   {"turn_player", game.counters().turn_player}};
  j["game_over"] = game.IsOver();
  j["scores"] = RiverScoresToJson(game);
  j["supplies"] = Supplies(game);
  j["tiles_left"] = game.TilesLeft();
  j["tiles_placed"] = game.TilesPlaced();
  j["tiles_discarded"] = game.TilesDiscarded();
  j["river_open"] = game.RiverOpen();
  j["board"] = Board(game);
  j["followers"] = Followers(game);
  return j;
}

}  // namespace carc::tool
