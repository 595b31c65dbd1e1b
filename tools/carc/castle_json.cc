#include "castle_json.h"

#include "castle/layout.h"
#include "castle/rule_set.h"
#include "castle/rules.h"
#include "json.h"

namespace carc::tool {
namespace {

using nlohmann::json;

// The wall tiles a player holds face up, by name, each as often as held.
json WallTilesHeld(const castle::Game& game, int player) {
  json out = json::array();
  for (int k = 1; k < castle::kWallTileKinds; ++k) {
    const auto tile = static_cast<castle::WallTile>(k);
    for (int n = 0; n < game.WallTilesHeld(player, tile); ++n) {
      out.push_back({{"number", k}, {"name", castle::ToString(tile)}});
    }
  }
  return out;
}

json Keep(const castle::Game& game, int player) {
  const castle::Keep& keep = game.KeepOf(player);
  if (keep.size == 0) return nullptr;
  return {{"size", keep.size}, {"x", keep.x}, {"y", keep.y}, {"feature", keep.feature}};
}

json Supplies(const castle::Game& game) {
  json out = json::array();
  for (int p = 0; p < game.players(); ++p) {
    out.push_back({{"followers", game.FollowersInSupply(p)},
                   {"keep", Keep(game, p)},
                   {"wall_tiles", WallTilesHeld(game, p)}});
  }
  return out;
}

// The corner towers that still hold a face-down wall tile, by their first track space (which
// tile lies there is secret).
json WallTilesOnWall(const castle::Game& game) {
  json out = json::array();
  const castle::Layout& layout = game.layout();
  for (int corner = 0; corner < layout.CornerCount(); ++corner) {
    if ((game.counters().wall_corners & (1u << corner)) != 0) {
      out.push_back({{"corner", corner}, {"track", layout.CornerTrack(corner)}});
    }
  }
  return out;
}

json Board(const castle::Game& game) {
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

json Followers(const castle::Game& game) {
  json out = json::array();
  for (int i = 0; i < game.FollowerSpotCount(); ++i) {
    const castle::FollowerSpot& s = game.Spot(i);
    const core::PlacedTile& t = game.board().Placed(s.index);
    const core::FeatureDef& def = game.tiles().TypeOf(t.tile).features[s.feature];
    out.push_back({{"player", s.player},
                   {"x", t.x},
                   {"y", t.y},
                   {"feature", s.feature},
                   {"label", std::string(1, def.label)},
                   {"role", castle::RoleName(def.kind)}});
  }
  return out;
}

}  // namespace

json CastleScoresToJson(const castle::Game& game) {
  json out = json::array();
  for (int p = 0; p < game.players(); ++p) {
    json s;
    for (int src = 0; src < castle::kSourceCount; ++src) {
      const auto source = static_cast<castle::Source>(src);
      s[castle::ToString(source)] = game.Score(p, source);
    }
    s["total"] = game.TotalScore(p);
    out.push_back(s);
  }
  return out;
}

json CastleStateToJson(const castle::Game& game) {
  const castle::Decision& decision = game.CurrentDecision();
  json j;
  j["game"] = castle::kRuleSetId;
  j["options"] = json::object();
  j["tileset"] = {{"id", game.tiles().id()}, {"version", game.tiles().version()}};
  j["board_layout"] = {{"id", game.layout().id()}, {"version", game.layout().version()}};
  j["players"] = game.players();
  j["seed"] = game.seed();
  j["actions"] = game.History().size();
  j["hash"] = HexHash(game.Hash());
  j["decision"] = {{"actor", decision.actor},
                   {"kind", castle::ToString(decision.kind)},
                   {"turn_player", game.counters().turn_player}};
  if (decision.kind == castle::DecisionKind::kWallTile) j["decision"]["wall"] = decision.wall;
  j["game_over"] = game.IsOver();
  j["scores"] = CastleScoresToJson(game);
  j["supplies"] = Supplies(game);
  j["wall_tiles_on_wall"] = WallTilesOnWall(game);
  j["tiles_left"] = game.TilesLeft();
  j["tiles_placed"] = game.TilesPlaced();
  j["tiles_discarded"] = game.TilesDiscarded();
  j["largest_empty_area"] = game.LargestEmptyArea();
  j["board"] = Board(game);
  j["followers"] = Followers(game);
  return j;
}

}  // namespace carc::tool
