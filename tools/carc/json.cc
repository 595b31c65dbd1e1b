#include "json.h"

#include <cstdio>
#include <type_traits>

namespace carc::tool {
namespace {

using nlohmann::json;
using namespace carc::city;

json PointsJson(const Points& points, int players) {
  json out = json::array();
  for (int p = 0; p < players; ++p) out.push_back(points[static_cast<size_t>(p)]);
  return out;
}

std::string Side(int side) {
  static constexpr std::string_view kLetters = "NESW";
  return side >= 0 && side < 4 ? std::string(1, kLetters[static_cast<size_t>(side)]) : "?";
}
const char* EndName(int end) { return end == kFrontEnd ? "front" : "back"; }

const char* CauseName(ScoreCause cause) {
  switch (cause) {
    case ScoreCause::kTile:
      return "tile";
    case ScoreCause::kWall:
      return "wall";
    case ScoreCause::kClosingWall:
      return "closing_wall";
  }
  return "?";
}

}  // namespace

std::string HexHash(uint64_t hash) {
  char buffer[19];
  std::snprintf(buffer, sizeof(buffer), "%016llx", static_cast<unsigned long long>(hash));
  return buffer;
}

json EventToJson(const Event& event) {
  json j = {{"event", EventName(event)}};
  std::visit(
      [&j](const auto& e) {
        using T = std::decay_t<decltype(e)>;
        constexpr int kAll = core::kMaxPlayers;
        if constexpr (std::is_same_v<T, TileDrawn>) {
          j["tile"] = e.tile;
          j["stack"] = e.stack;
        } else if constexpr (std::is_same_v<T, StackStarted>) {
          j["stack"] = e.stack;
        } else if constexpr (std::is_same_v<T, TileDiscarded>) {
          j["tile"] = e.tile;
        } else if constexpr (std::is_same_v<T, TilePlaced>) {
          j.update({{"player", e.player},
                    {"tile", e.tile},
                    {"x", e.x},
                    {"y", e.y},
                    {"rotation", e.rotation}});
        } else if constexpr (std::is_same_v<T, FollowerPlaced>) {
          j.update({{"player", e.player},
                    {"x", e.x},
                    {"y", e.y},
                    {"feature", e.feature},
                    {"role", ToString(e.role)}});
        } else if constexpr (std::is_same_v<T, FeatureScored>) {
          j.update({{"kind", ToString(e.kind)},
                    {"x", e.x},
                    {"y", e.y},
                    {"feature", e.feature},
                    {"tiles", e.tiles},
                    {"market_kinds", e.market_kinds},
                    {"cause", CauseName(e.cause)},
                    {"points", PointsJson(e.points, kAll)}});
        } else if constexpr (std::is_same_v<T, FollowerReturned>) {
          j.update({{"player", e.player},
                    {"x", e.x},
                    {"y", e.y},
                    {"feature", e.feature},
                    {"scored", e.scored}});
        } else if constexpr (std::is_same_v<T, WallRoundBegun>) {
          j.update({{"scorer", e.scorer}, {"pieces", e.pieces}});
        } else if constexpr (std::is_same_v<T, GatePlaced> || std::is_same_v<T, GuardPlaced>) {
          j.update({{"player", e.player}, {"x", e.x}, {"y", e.y}, {"side", Side(e.side)}});
        } else if constexpr (std::is_same_v<T, WallBuilt>) {
          j.update({{"player", e.player},
                    {"x", e.x},
                    {"y", e.y},
                    {"side", Side(e.side)},
                    {"end", EndName(e.end)}});
        } else if constexpr (std::is_same_v<T, TowerPlaced>) {
          j.update({{"player", e.player},
                    {"end", EndName(e.end)},
                    {"position", e.position},
                    {"points", e.points}});
        } else if constexpr (std::is_same_v<T, WallCompleted>) {
          j["sides"] = e.sides;
        } else if constexpr (std::is_same_v<T, StewardsScored>) {
          j.update({{"x", e.x},
                    {"y", e.y},
                    {"feature", e.feature},
                    {"markets", e.markets},
                    {"points", PointsJson(e.points, kAll)}});
        } else if constexpr (std::is_same_v<T, GuardScored>) {
          j.update({{"player", e.player},
                    {"x", e.x},
                    {"y", e.y},
                    {"side", Side(e.side)},
                    {"public", e.public_buildings},
                    {"historic", e.historic_buildings},
                    {"points", e.points}});
        } else if constexpr (std::is_same_v<T, GameOver>) {
          j["ended_by"] = ToString(e.condition);
          json winners = json::array();
          for (int p = 0; p < kAll; ++p) {
            if (e.winners & (1u << p)) winners.push_back(p);
          }
          j["winners"] = winners;
        } else if constexpr (std::is_same_v<T, DecisionRequested>) {
          j.update({{"actor", e.decision.actor},
                    {"decision", ToString(e.decision.kind)},
                    {"turn_player", e.turn_player}});
        }
      },
      event);
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
        {"x", chain.Gate().x}, {"y", chain.Gate().y}, {"side", Side(chain.Gate().side)}};
  }
  for (int end = 0; end < 2; ++end) {
    json pieces = json::array();
    for (int i = 0; i < chain.Count(end); ++i) {
      const WallPiece& w = chain.Piece(end, i);
      json piece = {{"x", w.x}, {"y", w.y}, {"side", Side(w.side)}};
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
