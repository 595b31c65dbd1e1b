#include "json.h"

#include <cstdio>
#include <type_traits>

#include "city/event_fields.h"

namespace carc::tool {
namespace {

using nlohmann::json;
using namespace carc::city;

json PointsJson(const Points& points, int players) {
  json out = json::array();
  for (int p = 0; p < players; ++p) out.push_back(points[static_cast<size_t>(p)]);
  return out;
}

}  // namespace

std::string HexHash(uint64_t hash) {
  char buffer[19];
  std::snprintf(buffer, sizeof(buffer), "%016llx", static_cast<unsigned long long>(hash));
  return buffer;
}

namespace {
// Fields as JSON members; points as an array with one value per seat.
struct JsonSink {
  void Number(const char* key, int value) { object[key] = value; }
  void Text(const char* key, const char* value) { object[key] = value; }
  void Points(const char* key, const Points& points) {
    object[key] = PointsJson(points, kMaxPlayers);
  }
  json& object;
};
}  // namespace

json EventToJson(const Event& event) {
  json j = {{"event", EventName(event)}};
  JsonSink sink{j};
  ForEachField(event, sink);
  return j;
}

json ScoresToJson(const Game& game) {
  json out = json::array();
  for (int p = 0; p < game.players(); ++p) {
    json s;
    for (int src = 0; src < kSourceCount; ++src) {
      s[ToString(static_cast<Source>(src))] = game.Score(p, static_cast<Source>(src));
    }
    s["total"] = game.TotalScore(p);
    out.push_back(s);
  }
  return out;
}

json StateToJson(const Game& game) {
  json j;
  j["game"] = "the-city";
  j["tileset"] = {{"id", game.tiles().id()}, {"version", game.tiles().version()}};
  j["players"] = game.players();
  j["seed"] = game.seed();
  j["actions"] = game.History().size();
  j["hash"] = HexHash(game.Hash());
  j["decision"] = {{"actor", game.CurrentDecision().actor},
                   {"kind", ToString(game.CurrentDecision().kind)},
                   {"turn_player", game.counters().turn_player}};
  j["game_over"] = game.IsOver();
  j["ended_by"] = ToString(game.EndedBy());
  j["scores"] = ScoresToJson(game);
  json supplies = json::array();
  for (int p = 0; p < game.players(); ++p) {
    supplies.push_back({{"followers", game.FollowersInSupply(p)}, {"towers", game.TowersLeft(p)}});
  }
  j["supplies"] = supplies;
  j["stacks_left"] = {game.StackLeft(0), game.StackLeft(1), game.StackLeft(2)};
  j["tiles_placed"] = game.TilesPlaced();
  j["tiles_discarded"] = game.TilesDiscarded();
  j["walls_left"] = game.WallsLeft();
  json tiles = json::array();
  for (int i = 0; i < game.board().TileCount(); ++i) {
    const core::PlacedTile& t = game.board().Placed(i);
    tiles.push_back({{"tile", t.tile},
                     {"name", game.tiles().TypeOf(t.tile).name},
                     {"x", t.x},
                     {"y", t.y},
                     {"rotation", t.rotation}});
  }
  j["board"] = tiles;
  json followers = json::array();
  for (int i = 0; i < game.FollowerSpotCount(); ++i) {
    const FollowerSpot& s = game.Spot(i);
    const core::PlacedTile& t = game.board().Placed(s.index);
    followers.push_back(
        {{"player", s.player},
         {"x", t.x},
         {"y", t.y},
         {"feature", s.feature},
         {"label", std::string(1, game.tiles().TypeOf(t.tile).features[s.feature].label)}});
  }
  j["followers"] = followers;
  const WallChain& chain = game.chain();
  json wall = {{"closed", chain.Closed()}, {"unwalled_distance", game.UnwalledDistance()}};
  if (chain.HasGate()) {
    wall["gate"] = {
        {"x", chain.Gate().x}, {"y", chain.Gate().y}, {"side", SideLetter(chain.Gate().side)}};
  }
  for (int end = 0; end < 2; ++end) {
    json pieces = json::array();
    for (int i = 0; i < chain.Count(end); ++i) {
      const WallPiece& w = chain.Piece(end, i);
      json piece = {{"x", w.x}, {"y", w.y}, {"side", SideLetter(w.side)}};
      if (w.guard != kNoGuard) piece["guard"] = w.guard;
      pieces.push_back(piece);
    }
    wall[EndName(end)] = pieces;
  }
  json towers = json::array();
  for (int i = 0; i < chain.TowerCount(); ++i) {
    const Tower& t = chain.TowerAt(i);
    towers.push_back({{"player", t.player}, {"end", EndName(t.end)}, {"position", t.position}});
  }
  wall["towers"] = towers;
  j["wall"] = wall;
  return j;
}

}  // namespace carc::tool
