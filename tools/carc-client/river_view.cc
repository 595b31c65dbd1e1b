// Carcassonne (with or without the River) as carc-client draws it: the typed public state behind
// a follower's view (protocol::RiverStateOf), drawn with the board pictures `carc show` uses
// (tools/board-text). Only GameDrawing (games.h) reaches it.
#include <string>

#include "games.h"
#include "protocol/river/game_codec.h"
#include "river/action.h"
#include "river/public_state.h"
#include "river/rule_set.h"
#include "river/rules.h"
#include "river_render.h"

namespace carc::client {
namespace {

int Total(const river::PlayerCounters& player) {
  int total = 0;
  for (const int points : player.score) total += points;
  return total;
}

std::string DescribeDecision(const river::PublicState& state) {
  const river::Counters& c = state.counters;
  if (c.over) return "the game is over";
  if (c.decision.actor == river::kChance) {
    return "the server draws a tile for seat " + std::to_string(c.turn_player);
  }
  return "seat " + std::to_string(c.decision.actor) + " must " + river::ToString(c.decision.kind);
}

std::string Render(const river::PublicState& state, const core::TileSet& tiles) {
  const river::Counters& c = state.counters;
  std::string out = std::to_string(c.players) + " players; tiles drawn " +
                    std::to_string(c.tiles_drawn) + " (" + std::to_string(c.tiles_discarded) +
                    " discarded), " + std::to_string(state.tiles.size()) + " placed; the River " +
                    (state.config.river ? "played" : "not played") + "\n";
  out += "decision: " + DescribeDecision(state) + "\n";
  if (c.drawn_tile >= 0 && c.drawn_tile < tiles.TileCount()) {
    out += "tile in hand: " + std::to_string(c.drawn_tile) + " (" +
           tiles.TypeOf(c.drawn_tile).name + ")\n";
  }
  return out + "\n" + tool::RenderRiverBoard(state, tiles) + tool::RiverPlayersText(state) +
         tool::RiverNextLine(state, tiles);
}

nlohmann::json ScoresJson(const river::PublicState& state) {
  nlohmann::json scores = nlohmann::json::array();
  for (int p = 0; p < state.counters.players; ++p) {
    const river::PlayerCounters& pc = state.counters.player[static_cast<size_t>(p)];
    nlohmann::json seat = {{"seat", p}, {"total", Total(pc)}};
    for (int s = 0; s < river::kSourceCount; ++s) {
      seat[river::ToString(static_cast<river::Source>(s))] = pc.score[static_cast<size_t>(s)];
    }
    scores.push_back(seat);
  }
  return scores;
}

nlohmann::json StateJson(const river::PublicState& state) {
  const river::Counters& c = state.counters;
  nlohmann::json out;
  out["players"] = c.players;
  out["river"] = state.config.river;
  out["decision"] = {{"actor", c.decision.actor},
                     {"kind", river::ToString(c.decision.kind)},
                     {"turn_player", c.turn_player},
                     {"text", DescribeDecision(state)}};
  out["drawn_tile"] = c.drawn_tile;
  out["tiles_drawn"] = c.tiles_drawn;
  out["tiles_discarded"] = c.tiles_discarded;
  nlohmann::json supplies = nlohmann::json::array();
  for (int p = 0; p < c.players; ++p) {
    supplies.push_back({{"seat", p}, {"followers", c.player[static_cast<size_t>(p)].followers}});
  }
  out["supplies"] = supplies;
  nlohmann::json tiles = nlohmann::json::array();
  for (const river::PublicTile& t : state.tiles) {
    tiles.push_back({{"tile", t.tile}, {"x", t.x}, {"y", t.y}, {"rotation", t.rotation}});
  }
  out["tiles"] = tiles;
  nlohmann::json followers = nlohmann::json::array();
  for (const river::PublicFollower& f : state.followers) {
    followers.push_back({{"seat", f.player}, {"x", f.x}, {"y", f.y}, {"feature", f.feature}});
  }
  out["followers"] = followers;
  return out;
}

// What "follower <label>" would occupy on the tile just placed, e.g. "road: a thief".
std::string FeatureKindOf(const river::PublicState& state, const core::TileSet& tiles,
                          std::string_view action) {
  constexpr std::string_view kFollower = "follower ";
  if (!action.starts_with(kFollower) || action == "follower none" || state.tiles.empty()) {
    return "";
  }
  const std::string_view label = action.substr(kFollower.size());
  const int tile = state.tiles.back().tile;
  if (tile >= tiles.TileCount()) return "";
  for (const core::FeatureDef& feature : tiles.TypeOf(tile).features) {
    if (std::string_view(&feature.label, 1) != label) continue;
    switch (feature.kind) {
      case core::FeatureKind::kStreet:
        return "road: a thief";
      case core::FeatureKind::kCity:
        return "city: a knight";
      case core::FeatureKind::kField:
        return "field: a farmer";
      case core::FeatureKind::kMonastery:
        return "monastery: a monk";
      // Nobody stands on the river; The City's and The Castle's kinds are not on this game's
      // tiles.
      case core::FeatureKind::kRiver:
      case core::FeatureKind::kMarket:
      case core::FeatureKind::kResidential:
      case core::FeatureKind::kTower:
      case core::FeatureKind::kHouse:
      case core::FeatureKind::kCourt:
        return "";
    }
  }
  return "";
}

// A follower placed: what the eager bots prefer, as river::EagerChoice does.
bool Placing(std::string_view action) {
  return action.starts_with("follower ") && action != "follower none";
}

// Scores and discarded tiles: the events a person following a game wants to see.
bool Notable(std::string_view event) {
  for (const std::string_view name : {"feature_scored", "field_scored", "tile_discarded"}) {
    if (event.starts_with(name) && (event.size() == name.size() || event[name.size()] == ' ')) {
      return true;
    }
  }
  return false;
}

}  // namespace

const GameDrawing& RiverDrawing() {
  static const GameDrawing drawing{
      .rule_set = river::kRuleSetId,
      .render = [](const protocol::PublicView& view, const core::TileSet& tiles) -> std::string {
        const river::PublicState* state = protocol::RiverStateOf(view);
        return state != nullptr ? Render(*state, tiles) : std::string();
      },
      .state_json = [](const protocol::PublicView& view) -> nlohmann::json {
        const river::PublicState* state = protocol::RiverStateOf(view);
        return state != nullptr ? StateJson(*state) : nlohmann::json();
      },
      .scores_json = [](const protocol::PublicView& view) -> nlohmann::json {
        const river::PublicState* state = protocol::RiverStateOf(view);
        return state != nullptr ? ScoresJson(*state) : nlohmann::json();
      },
      .decision = [](const protocol::PublicView& view) -> std::string {
        const river::PublicState* state = protocol::RiverStateOf(view);
        return state != nullptr ? DescribeDecision(*state) : std::string();
      },
      // The game ends one way only: the last tile placed; the generic "over" says it.
      .ended_by = nullptr,
      .hint = [](const protocol::PublicView& view, const core::TileSet& tiles,
                 std::string_view action) -> std::string {
        const river::PublicState* state = protocol::RiverStateOf(view);
        return state != nullptr ? FeatureKindOf(*state, tiles, action) : std::string();
      },
      .placing = Placing,
      .notable = Notable,
  };
  return drawing;
}

}  // namespace carc::client
