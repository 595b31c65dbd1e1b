// The City as carc-client draws it: the typed public state behind a follower's view
// (protocol::CityStateOf) as text and JSON. Only GameDrawing (games.h) reaches it.
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "city/action.h"
#include "city/public_state.h"
#include "city/rule_set.h"
#include "city/rules.h"
#include "games.h"
#include "protocol/city/game_codec.h"

namespace carc::client {
namespace {

constexpr const char* kSideLetters = "NESW";

const core::TileType* LastPlacedType(const city::PublicState& state, const core::TileSet& tiles) {
  if (state.tiles.empty()) return nullptr;
  const int tile = state.tiles.back().tile;
  if (tile < 0 || tile >= tiles.TileCount()) return nullptr;
  return &tiles.TypeOf(tile);
}

char SideLetter(int side) { return side >= 0 && side < 4 ? kSideLetters[side] : '?'; }

std::string Piece(const city::WallPiece& piece) {
  std::string text =
      "(" + std::to_string(piece.x) + "," + std::to_string(piece.y) + ")" + SideLetter(piece.side);
  if (piece.guard != city::kNoGuard) text += " guard of seat " + std::to_string(piece.guard);
  return text;
}

int Total(const city::PlayerCounters& player) {
  int total = 0;
  for (int s : player.score) total += s;
  return total;
}

nlohmann::json ScoresJson(const city::PublicState& state) {
  nlohmann::json scores = nlohmann::json::array();
  for (int p = 0; p < state.counters.players; ++p) {
    const city::PlayerCounters& pc = state.counters.player[static_cast<size_t>(p)];
    scores.push_back({{"seat", p},
                      {"total", Total(pc)},
                      {"streets", pc.score[city::kStreets]},
                      {"markets", pc.score[city::kMarkets]},
                      {"towers", pc.score[city::kTowers]},
                      {"stewards", pc.score[city::kStewards]},
                      {"guards", pc.score[city::kGuards]}});
  }
  return scores;
}

std::string DescribeDecision(const city::PublicState& state) {
  const city::Counters& c = state.counters;
  if (c.decision.kind == city::DecisionKind::kNone) {
    return std::string("the game is over (") + city::ToString(c.end) + ")";
  }
  if (c.decision.actor == city::kChance) {
    return "the server draws a tile for seat " + std::to_string(c.turn_player);
  }
  std::string text =
      "seat " + std::to_string(c.decision.actor) + " must " + city::ToString(c.decision.kind);
  if (c.turn_player != c.decision.actor) {
    text += " (in seat " + std::to_string(c.turn_player) + "'s turn)";
  }
  return text;
}

nlohmann::json StateJson(const city::PublicState& state) {
  const city::Counters& c = state.counters;
  nlohmann::json out;
  out["players"] = c.players;
  out["decision"] = {{"actor", c.decision.actor},
                     {"kind", city::ToString(c.decision.kind)},
                     {"turn_player", c.turn_player},
                     {"text", DescribeDecision(state)}};
  out["drawn_tile"] = c.drawn_tile;
  out["tiles_drawn"] = c.tiles_drawn;
  out["tiles_discarded"] = c.tiles_discarded;
  out["walls_left"] = c.walls_left;
  out["chain_closed"] = c.chain_closed;
  out["end"] = city::ToString(c.end);
  nlohmann::json supplies = nlohmann::json::array();
  for (int p = 0; p < c.players; ++p) {
    const city::PlayerCounters& pc = c.player[static_cast<size_t>(p)];
    supplies.push_back({{"seat", p}, {"followers", pc.followers}, {"towers", pc.towers}});
  }
  out["supplies"] = supplies;
  nlohmann::json tiles = nlohmann::json::array();
  for (const city::PublicTile& t : state.tiles) {
    tiles.push_back({{"tile", t.tile}, {"x", t.x}, {"y", t.y}, {"rotation", t.rotation}});
  }
  out["tiles"] = tiles;
  nlohmann::json followers = nlohmann::json::array();
  for (const city::PublicFollower& f : state.followers) {
    followers.push_back({{"seat", f.player}, {"x", f.x}, {"y", f.y}, {"feature", f.feature}});
  }
  out["followers"] = followers;
  const auto pieces = [](const std::vector<city::WallPiece>& list) {
    nlohmann::json array = nlohmann::json::array();
    for (const city::WallPiece& p : list) {
      nlohmann::json piece = {{"x", p.x}, {"y", p.y}, {"side", std::string(1, SideLetter(p.side))}};
      if (p.guard != city::kNoGuard) piece["guard"] = p.guard;
      array.push_back(piece);
    }
    return array;
  };
  nlohmann::json wall;
  if (state.has_gate) {
    wall["gate"] = {{"x", state.gate.x},
                    {"y", state.gate.y},
                    {"side", std::string(1, SideLetter(state.gate.side))}};
  }
  wall["front"] = pieces(state.pieces[city::kFrontEnd]);
  wall["back"] = pieces(state.pieces[city::kBackEnd]);
  nlohmann::json towers = nlohmann::json::array();
  for (const city::Tower& t : state.towers) {
    towers.push_back({{"seat", t.player},
                      {"end", t.end == city::kFrontEnd ? "front" : "back"},
                      {"position", t.position}});
  }
  wall["towers"] = towers;
  out["wall"] = wall;
  return out;
}

std::string Render(const city::PublicState& state, const core::TileSet& tiles) {
  const city::Counters& c = state.counters;
  std::ostringstream out;
  int stacked = 0;
  for (int s : state.config.stack_sizes) stacked += s;
  out << c.players << " players; tiles drawn " << c.tiles_drawn << " of " << stacked << " ("
      << c.tiles_discarded << " discarded), " << state.tiles.size() << " placed; walls left "
      << c.walls_left << " of " << state.config.walls << "\n";
  out << "decision: " << DescribeDecision(state) << "\n";
  if (c.drawn_tile >= 0 && c.drawn_tile < tiles.TileCount()) {
    out << "tile in hand: " << c.drawn_tile << " (" << tiles.TypeOf(c.drawn_tile).name << ")\n";
  }

  out << "\nseat  total  streets markets towers stewards guards  followers towers-left\n";
  for (int p = 0; p < c.players; ++p) {
    const city::PlayerCounters& pc = c.player[static_cast<size_t>(p)];
    char line[128];
    std::snprintf(line, sizeof line, "%4d  %5d  %7d %7d %6d %8d %6d  %9d %11d%s\n", p, Total(pc),
                  pc.score[city::kStreets], pc.score[city::kMarkets], pc.score[city::kTowers],
                  pc.score[city::kStewards], pc.score[city::kGuards], pc.followers, pc.towers,
                  c.decision.actor == p ? "  <- to decide" : "");
    out << line;
  }

  out << "\ntiles placed (" << state.tiles.size() << "): tile ids by cell, * the last placed\n";
  if (!state.tiles.empty()) {
    int min_x = 127, max_x = -128, min_y = 127, max_y = -128;
    for (const city::PublicTile& t : state.tiles) {
      min_x = std::min<int>(min_x, t.x);
      max_x = std::max<int>(max_x, t.x);
      min_y = std::min<int>(min_y, t.y);
      max_y = std::max<int>(max_y, t.y);
    }
    const auto at = [&](int x, int y) -> const city::PublicTile* {
      for (const city::PublicTile& t : state.tiles) {
        if (t.x == x && t.y == y) return &t;
      }
      return nullptr;
    };
    char cell[16];
    out << "   y\\x";
    for (int x = min_x; x <= max_x; ++x) {
      std::snprintf(cell, sizeof cell, "%4d", x);
      out << cell;
    }
    out << "\n";
    for (int y = max_y; y >= min_y; --y) {
      std::snprintf(cell, sizeof cell, "%6d", y);
      out << cell;
      for (int x = min_x; x <= max_x; ++x) {
        const city::PublicTile* t = at(x, y);
        if (t == nullptr) {
          out << "   .";
        } else {
          std::snprintf(cell, sizeof cell, "%3d%c", t->tile, t == &state.tiles.back() ? '*' : ' ');
          out << cell;
        }
      }
      out << "\n";
    }
  }

  if (!state.followers.empty()) {
    out << "\nfollowers:";
    for (const city::PublicFollower& f : state.followers) {
      out << " seat " << static_cast<int>(f.player) << " at (" << static_cast<int>(f.x) << ","
          << static_cast<int>(f.y) << ") feature " << static_cast<int>(f.feature) << ";";
    }
    out << "\n";
  }

  out << "\nwall: ";
  if (!state.has_gate) {
    out << "no gate yet\n";
  } else {
    out << "gate " << Piece(state.gate) << "; " << (c.chain_closed ? "chain closed" : "chain open")
        << "\n";
    for (int end = 0; end < 2; ++end) {
      const auto& list = state.pieces[static_cast<size_t>(end)];
      out << "  " << (end == city::kFrontEnd ? "front" : "back") << " (" << list.size()
          << " pieces):";
      for (const city::WallPiece& p : list) out << " " << Piece(p) << ";";
      out << "\n";
    }
    for (const city::Tower& t : state.towers) {
      out << "  tower of seat " << static_cast<int>(t.player) << " at the "
          << (t.end == city::kFrontEnd ? "front" : "back") << " end, position "
          << static_cast<int>(t.position) << "\n";
    }
  }
  return out.str();
}

// What "follower <label>" would occupy on the tile just placed, e.g. "street: a citizen".
std::string FeatureKindOf(const city::PublicState& state, const core::TileSet& tiles,
                          std::string_view action) {
  constexpr std::string_view kFollower = "follower ";
  if (!action.starts_with(kFollower) || action == "follower none") return "";
  const std::string_view label = action.substr(kFollower.size());
  const core::TileType* type = LastPlacedType(state, tiles);
  if (type == nullptr) return "";
  for (const core::FeatureDef& feature : type->features) {
    if (std::string_view(&feature.label, 1) != label) continue;
    switch (feature.kind) {
      case core::FeatureKind::kStreet:
        return "street: a citizen";
      case core::FeatureKind::kMarket:
        return "market: a seller";
      case core::FeatureKind::kResidential:
        return "residential area: a steward";
      // Not on The City's tiles (Game::Create refuses them).
      case core::FeatureKind::kCity:
      case core::FeatureKind::kField:
      case core::FeatureKind::kMonastery:
      case core::FeatureKind::kRiver:
      case core::FeatureKind::kTower:
      case core::FeatureKind::kHouse:
      case core::FeatureKind::kCourt:
        return "";
    }
  }
  return "";
}

// A follower, a guard or a tower placed (docs/formats.md): what the eager bots prefer, as
// city::EagerChoice does.
bool Placing(std::string_view action) {
  return (action.starts_with("follower ") && action != "follower none") || action == "guard yes" ||
         action == "tower front" || action == "tower back";
}

// Scores, towers, stewards, guards and discarded tiles: the events a person following a game
// wants to see.
bool Notable(std::string_view event) {
  for (const std::string_view name :
       {"feature_scored", "tower_placed", "stewards_scored", "guard_scored", "tile_discarded"}) {
    if (event.starts_with(name) && (event.size() == name.size() || event[name.size()] == ' ')) {
      return true;
    }
  }
  return false;
}

}  // namespace

const GameDrawing& CityDrawing() {
  static const GameDrawing drawing{
      .rule_set = city::kRuleSetId,
      .render = [](const protocol::PublicView& view, const core::TileSet& tiles) -> std::string {
        const city::PublicState* state = protocol::CityStateOf(view);
        return state != nullptr ? Render(*state, tiles) : std::string();
      },
      .state_json = [](const protocol::PublicView& view) -> nlohmann::json {
        const city::PublicState* state = protocol::CityStateOf(view);
        return state != nullptr ? StateJson(*state) : nlohmann::json();
      },
      .scores_json = [](const protocol::PublicView& view) -> nlohmann::json {
        const city::PublicState* state = protocol::CityStateOf(view);
        return state != nullptr ? ScoresJson(*state) : nlohmann::json();
      },
      .decision = [](const protocol::PublicView& view) -> std::string {
        const city::PublicState* state = protocol::CityStateOf(view);
        return state != nullptr ? DescribeDecision(*state) : std::string();
      },
      .ended_by = [](const protocol::PublicView& view) -> std::string {
        const city::PublicState* state = protocol::CityStateOf(view);
        return state != nullptr ? std::string(city::ToString(state->counters.end)) : std::string();
      },
      .hint = [](const protocol::PublicView& view, const core::TileSet& tiles,
                 std::string_view action) -> std::string {
        const city::PublicState* state = protocol::CityStateOf(view);
        return state != nullptr ? FeatureKindOf(*state, tiles, action) : std::string();
      },
      .placing = Placing,
      .notable = Notable,
  };
  return drawing;
}

}  // namespace carc::client
