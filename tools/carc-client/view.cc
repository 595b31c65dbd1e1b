#include "view.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "city/notation.h"

namespace carc::client {
namespace {

constexpr const char* kSideLetters = "NESW";

const core::TileType* LastPlacedType(const city::PublicState& state, const core::TileSet& tiles) {
  if (state.tiles.empty()) return nullptr;
  const int tile = state.tiles.back().tile;
  if (tile >= tiles.TileCount()) return nullptr;
  return &tiles.TypeOf(tile);
}

char SideLetter(int side) { return side >= 0 && side < 4 ? kSideLetters[side] : '?'; }

std::string Piece(const city::WallPiece& piece) {
  std::string text =
      "(" + std::to_string(piece.x) + "," + std::to_string(piece.y) + ")" + SideLetter(piece.side);
  if (piece.guard != city::kNoGuard) text += " guard of seat " + std::to_string(piece.guard);
  return text;
}

}  // namespace

std::string FormatAction(const city::PublicState& state, const core::TileSet& tiles,
                         const city::Action& a) {
  const std::string xy = std::to_string(a.x) + " " + std::to_string(a.y);
  switch (a.kind) {
    case city::ActionKind::kDraw:
      return "draw " + std::to_string(a.tile);
    case city::ActionKind::kPlaceTile:
      return "place " + xy + " " + std::to_string(a.rotation);
    case city::ActionKind::kPlaceFollower: {
      const core::TileType* type = LastPlacedType(state, tiles);
      if (type == nullptr || a.feature >= type->FeatureCount()) {
        return "follower #" + std::to_string(a.feature);
      }
      return std::string("follower ") + type->features[a.feature].label;
    }
    case city::ActionKind::kSkipFollower:
      return "follower none";
    case city::ActionKind::kPlaceGate:
      return "gate " + xy + " " + SideLetter(a.side);
    case city::ActionKind::kBuildWall:
      return a.end == city::kFrontEnd ? "wall front" : "wall back";
    case city::ActionKind::kPlaceGuard:
      return "guard yes";
    case city::ActionKind::kSkipGuard:
      return "guard no";
    case city::ActionKind::kPlaceTower:
      return a.end == city::kFrontEnd ? "tower front" : "tower back";
    case city::ActionKind::kSkipTower:
      return "tower none";
  }
  return "?";
}

std::string FeatureKindOf(const city::PublicState& state, const core::TileSet& tiles,
                          const city::Action& action) {
  if (action.kind != city::ActionKind::kPlaceFollower) return "";
  const core::TileType* type = LastPlacedType(state, tiles);
  if (type == nullptr || action.feature >= type->FeatureCount()) return "";
  switch (type->features[action.feature].kind) {
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
      return "";
  }
  return "";
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

nlohmann::json StateJson(const city::PublicState& state, uint64_t sequence) {
  const city::Counters& c = state.counters;
  nlohmann::json out;
  out["sequence"] = sequence;
  out["state_hash"] = HashHex(state.Hash());
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
  out["scores"] = ScoresJson(state);
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

std::string RenderState(const city::PublicState& state, const core::TileSet& tiles,
                        uint64_t sequence) {
  const city::Counters& c = state.counters;
  std::ostringstream out;
  int stacked = 0;
  for (int s : state.config.stack_sizes) stacked += s;
  out << "sequence " << sequence << ", state hash " << HashHex(state.Hash()) << "\n";
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

std::vector<std::string> NotableEvents(const std::vector<city::Event>& events) {
  std::vector<std::string> lines;
  for (const city::Event& e : events) {
    if (std::holds_alternative<city::FeatureScored>(e) ||
        std::holds_alternative<city::TowerPlaced>(e) ||
        std::holds_alternative<city::StewardsScored>(e) ||
        std::holds_alternative<city::GuardScored>(e) ||
        std::holds_alternative<city::TileDiscarded>(e)) {
      lines.push_back(city::FormatEvent(e));
    }
  }
  return lines;
}

std::optional<city::GameOver> FindGameOver(const std::vector<city::Event>& events) {
  for (const city::Event& e : events) {
    if (const auto* over = std::get_if<city::GameOver>(&e)) return *over;
  }
  return std::nullopt;
}

std::string ScoresText(const city::PublicState& state, int own_seat) {
  const city::Counters& c = state.counters;
  std::string text;
  for (int p = 0; p < c.players; ++p) {
    text += "seat " + std::to_string(p) + " " +
            std::to_string(Total(c.player[static_cast<size_t>(p)])) +
            (p == own_seat ? " (you)" : "") + (p + 1 < c.players ? ", " : "");
  }
  return text;
}

std::string GameOverText(const std::string& game_id, const city::PublicState& state,
                         const std::optional<city::GameOver>& over, int own_seat) {
  std::string line = "game " + game_id + " is over (" + city::ToString(state.counters.end) +
                     "); scores: " + ScoresText(state, own_seat);
  if (over) {
    line += "; winners:";
    for (int p = 0; p < state.counters.players; ++p) {
      if (over->winners >> p & 1) line += " seat " + std::to_string(p);
    }
  }
  return line;
}

std::string StatusName(v1::GameStatus status) {
  switch (status) {
    case v1::GAME_STATUS_OPEN:
      return "open";
    case v1::GAME_STATUS_RUNNING:
      return "running";
    case v1::GAME_STATUS_FINISHED:
      return "finished";
    case v1::GAME_STATUS_DAMAGED:
      return "damaged";
    case v1::GAME_STATUS_ABANDONED:
      return "abandoned";
    default:
      return "unknown";
  }
}

}  // namespace carc::client
