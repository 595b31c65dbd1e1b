// Carcassonne: The Castle as carc-client draws it: the typed public state and the castle's board
// behind a follower's view (protocol::CastleStateOf, protocol::CastleBoardOf), drawn as text: the
// board inside the wall, both scores and track positions, the wall tiles, and every decision in
// words. Only GameDrawing (games.h) reaches it.
#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "castle/action.h"
#include "castle/event.h"
#include "castle/public_state.h"
#include "castle/rule_set.h"
#include "castle/rules.h"
#include "games.h"
#include "protocol/castle/game_codec.h"

namespace carc::client {
namespace {

using castle_wire = protocol::castle_wire::Board;

size_t Z(int i) { return static_cast<size_t>(i); }

std::string WallTileName(int number) {
  return std::to_string(number) + " (" + castle::ToString(static_cast<castle::WallTile>(number)) +
         ")";
}

std::string DescribeDecision(const castle::PublicState& state) {
  const castle::Counters& c = state.counters;
  if (c.over) return "the game is over";
  if (c.decision.actor == castle::kChance) {
    return "the server draws a tile for seat " + std::to_string(c.turn_player);
  }
  const std::string seat = "seat " + std::to_string(c.decision.actor);
  switch (c.decision.kind) {
    case castle::DecisionKind::kPlaceTile:
      return seat + " must place_tile";
    case castle::DecisionKind::kPlaceFollower:
      return seat + " must place_follower (or none)";
    case castle::DecisionKind::kScoreNext:
      return seat + " must score_next: which completed feature scores next, doubled or not";
    case castle::DecisionKind::kExtraTurn:
      return seat + " must extra_turn: use wall tile 1 for another turn, or not";
    case castle::DecisionKind::kWallTile:
      return seat + " must wall_tile: where wall tile " + WallTileName(c.decision.wall) +
             " applies, or none (" +
             castle::Describe(static_cast<castle::WallTile>(c.decision.wall)) + ")";
    default:
      return seat + " must " + castle::ToString(c.decision.kind);
  }
}

// The tile lying on a cell; null when none.
const castle::PublicTile* TileAt(const castle::PublicState& state, int x, int y) {
  for (const castle::PublicTile& t : state.tiles) {
    if (t.x == x && t.y == y) return &t;
  }
  return nullptr;
}

// One cell of the picture, four characters wide.
std::string CellText(const castle::PublicState& state, const castle_wire& board, int x, int y,
                     const std::map<std::pair<int, int>, int>& follower_at) {
  const castle::PublicTile* tile = TileAt(state, x, y);
  if (tile != nullptr) {
    // The start spaces are the first tiles of the state.
    const bool start = tile - state.tiles.data() < board.start_spaces;
    std::string id = std::to_string(tile->tile);
    if (id.size() < 2) id = " " + id;
    const auto f = follower_at.find({x, y});
    const char mark = f != follower_at.end() ? static_cast<char>('A' + f->second) : ' ';
    return (start ? "S" : " ") + id + mark;
  }
  for (const castle::WallCell& w : board.wall) {
    if (w.cell.x != x || w.cell.y != y) continue;
    if (w.kind != castle::WallKind::kTower) return "####";
    for (size_t c = 0; c < board.corner_tracks.size(); ++c) {
      if (board.corner_tracks[c] == w.track) {
        return (state.counters.wall_corners >> c) & 1u ? "[??]" : "[  ]";
      }
    }
    return "[  ]";
  }
  const bool square =
      std::find(board.squares.begin(), board.squares.end(),
                core::Cell{static_cast<int8_t>(x), static_cast<int8_t>(y)}) != board.squares.end();
  return square ? "  . " : "    ";
}

std::string RenderBoard(const castle::PublicState& state, const castle_wire& board) {
  int max_x = 0;
  int max_y = 0;
  for (const castle::WallCell& w : board.wall) {
    max_x = std::max(max_x, static_cast<int>(w.cell.x));
    max_y = std::max(max_y, static_cast<int>(w.cell.y));
  }
  for (const core::Cell& c : board.squares) {
    max_x = std::max(max_x, static_cast<int>(c.x));
    max_y = std::max(max_y, static_cast<int>(c.y));
  }
  // One seat per cell is enough for the picture; the list below names every follower.
  std::map<std::pair<int, int>, int> follower_at;
  for (const castle::PublicFollower& f : state.followers) follower_at[{f.x, f.y}] = f.player;
  std::string out;
  for (int y = max_y; y >= 0; --y) {
    std::string row = (y < 10 ? " " : "") + std::to_string(y) + " ";
    for (int x = 0; x <= max_x; ++x) row += CellText(state, board, x, y, follower_at);
    while (!row.empty() && row.back() == ' ') row.pop_back();
    out += row + "\n";
  }
  std::string axis = "   ";
  for (int x = 0; x <= max_x; ++x) axis += (x < 10 ? "  " : " ") + std::to_string(x) + " ";
  out += axis + "\n";
  out +=
      "legend: ' 17 ' tile 17 on a square, 'S 3 ' a start space (tile 3) on the wall, a letter "
      "after the id a follower of seat A=0 / B=1; '  . ' an empty square, '####' wall, '[??]' a "
      "corner tower with a wall tile face down, '[  ]' one without\n";
  return out;
}

// The kind of the feature labelled `label` on `tile`, e.g. "tower"; empty when none.
std::string KindOfLabel(const core::TileSet& tiles, int tile, std::string_view label) {
  if (tile < 0 || tile >= tiles.TileCount()) return "";
  for (const core::FeatureDef& feature : tiles.TypeOf(tile).features) {
    if (std::string_view(&feature.label, 1) == label) return castle::KindName(feature.kind);
  }
  return "";
}

std::string RenderPlayers(const castle::PublicState& state, const castle_wire& board,
                          const core::TileSet& tiles) {
  const castle::Counters& c = state.counters;
  std::string out;
  int held_total = 0;
  for (int p = 0; p < c.players; ++p) {
    const castle::PlayerCounters& pc = c.player[Z(p)];
    out += "player " + std::to_string(p) + ": " + std::to_string(pc.Total()) +
           " points, track space " + std::to_string(pc.Position()) + " (";
    for (int s = 0; s < castle::kSourceCount; ++s) {
      out += std::string(s == 0 ? "" : ", ") + castle::ToString(static_cast<castle::Source>(s)) +
             " " + std::to_string(pc.score[Z(s)]);
    }
    out += "); followers in supply " + std::to_string(pc.followers) + "; keep ";
    out += pc.keep.size == 0
               ? std::string("none")
               : "on a house of " + std::to_string(pc.keep.size) + " tiles at (" +
                     std::to_string(pc.keep.x) + ", " + std::to_string(pc.keep.y) + ")";
    out += "; wall tiles held:";
    bool any = false;
    for (int k = 1; k < castle::kWallTileKinds; ++k) {
      for (int n = 0; n < pc.wall_tiles[Z(k)]; ++n) {
        out += " " + WallTileName(k) + (n < pc.fresh[Z(k)] ? " [from the next turn]" : "");
        any = true;
        ++held_total;
      }
    }
    out += any ? "" : " none";
    std::string used;
    for (int k = 1; k < castle::kWallTileKinds; ++k) {
      for (int n = 0; n < pc.used[Z(k)]; ++n) used += " " + WallTileName(k);
    }
    out += "; used:" + (used.empty() ? std::string(" none") : used) + "\n";
  }
  std::string face_down;
  int down = 0;
  for (size_t corner = 0; corner < board.corner_tracks.size(); ++corner) {
    if ((c.wall_corners >> corner) & 1u) {
      face_down += (down++ == 0 ? "" : ", ") + std::to_string(board.corner_tracks[corner]);
    }
  }
  out += "wall tiles: ";
  if (c.over) {
    out += std::to_string(held_total) + " held unused at the end\n";
  } else {
    out += std::to_string(down) + " face down on corner towers" +
           (down > 0 ? " (track " + face_down + ")" : "") + ", " + std::to_string(held_total) +
           " held\n";
  }
  for (const castle::PublicFollower& f : state.followers) {
    const castle::PublicTile* tile = TileAt(state, f.x, f.y);
    std::string kind;
    if (tile != nullptr && f.feature < tiles.TypeOf(tile->tile).features.size()) {
      const core::FeatureDef& def = tiles.TypeOf(tile->tile).features[f.feature];
      kind = std::string(castle::RoleName(def.kind)) + " on a " + castle::KindName(def.kind) +
             " (" + std::string(1, def.label) + ")";
    }
    out += "  follower of seat " + std::to_string(f.player) + " at (" + std::to_string(f.x) + ", " +
           std::to_string(f.y) + "): " + kind + "\n";
  }
  return out;
}

std::string Render(const castle::PublicState& state, const castle_wire& board,
                   const core::TileSet& tiles) {
  const castle::Counters& c = state.counters;
  const size_t placed = state.tiles.size() - std::min(state.tiles.size(), Z(board.start_spaces));
  std::string out = std::to_string(c.players) + " players; tiles drawn " +
                    std::to_string(c.tiles_drawn) + " (" + std::to_string(c.tiles_discarded) +
                    " discarded), " + std::to_string(placed) + " placed inside the wall, " +
                    std::to_string(board.start_spaces) + " start spaces\n";
  out += "decision: " + DescribeDecision(state) + "\n";
  if (c.drawn_tile >= 0 && c.drawn_tile < tiles.TileCount()) {
    out += "tile in hand: " + std::to_string(c.drawn_tile) + " (" +
           tiles.TypeOf(c.drawn_tile).name + ")\n";
  }
  return out + "\n" + RenderBoard(state, board) + RenderPlayers(state, board, tiles);
}

nlohmann::json ScoresJson(const castle::PublicState& state) {
  nlohmann::json scores = nlohmann::json::array();
  for (int p = 0; p < state.counters.players; ++p) {
    const castle::PlayerCounters& pc = state.counters.player[Z(p)];
    nlohmann::json seat = {{"seat", p}, {"total", pc.Total()}, {"track", pc.Position()}};
    for (int s = 0; s < castle::kSourceCount; ++s) {
      seat[castle::ToString(static_cast<castle::Source>(s))] = pc.score[Z(s)];
    }
    scores.push_back(seat);
  }
  return scores;
}

nlohmann::json StateJson(const castle::PublicState& state, const castle_wire& board) {
  const castle::Counters& c = state.counters;
  nlohmann::json out;
  out["players"] = c.players;
  out["decision"] = {{"actor", c.decision.actor},
                     {"kind", castle::ToString(c.decision.kind)},
                     {"wall", c.decision.wall},
                     {"turn_player", c.turn_player},
                     {"text", DescribeDecision(state)}};
  out["drawn_tile"] = c.drawn_tile;
  out["tiles_drawn"] = c.tiles_drawn;
  out["tiles_discarded"] = c.tiles_discarded;
  out["start_spaces"] = board.start_spaces;
  out["squares"] = board.squares.size();
  out["wall_corners"] = c.wall_corners;
  nlohmann::json seats = nlohmann::json::array();
  for (int p = 0; p < c.players; ++p) {
    const castle::PlayerCounters& pc = c.player[Z(p)];
    nlohmann::json held = nlohmann::json::array();
    for (int k = 1; k < castle::kWallTileKinds; ++k) {
      for (int n = 0; n < pc.wall_tiles[Z(k)]; ++n) held.push_back(k);
    }
    seats.push_back({{"seat", p},
                     {"followers", pc.followers},
                     {"keep", {{"size", pc.keep.size}, {"x", pc.keep.x}, {"y", pc.keep.y}}},
                     {"wall_tiles", held}});
  }
  out["supplies"] = seats;
  nlohmann::json tiles = nlohmann::json::array();
  for (const castle::PublicTile& t : state.tiles) {
    tiles.push_back({{"tile", t.tile}, {"x", t.x}, {"y", t.y}, {"rotation", t.rotation}});
  }
  out["tiles"] = tiles;
  nlohmann::json followers = nlohmann::json::array();
  for (const castle::PublicFollower& f : state.followers) {
    followers.push_back({{"seat", f.player}, {"x", f.x}, {"y", f.y}, {"feature", f.feature}});
  }
  out["followers"] = followers;
  return out;
}

// The words of `text`, split on spaces.
std::vector<std::string> Words(std::string_view text) {
  std::vector<std::string> words;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = std::min(text.find(' ', start), text.size());
    if (end > start) words.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return words;
}

// "the tower at (4, 11)" for a feature named by cell and label; "(4, 11) b" when unknown.
std::string FeatureAt(const castle::PublicState& state, const core::TileSet& tiles,
                      const std::string& x, const std::string& y, const std::string& label) {
  const std::string cell = "(" + x + ", " + y + ")";
  const castle::PublicTile* tile = TileAt(state, std::atoi(x.c_str()), std::atoi(y.c_str()));
  const std::string kind = tile != nullptr ? KindOfLabel(tiles, tile->tile, label) : "";
  return kind.empty() ? cell + " " + label : "the " + kind + " at " + cell;
}

// What a legal action would do, in words.
std::string Hint(const castle::PublicState& state, const core::TileSet& tiles,
                 std::string_view action) {
  const std::vector<std::string> w = Words(action);
  if (w.empty()) return "";
  if (w[0] == "follower") {
    if (w.size() != 2 || w[1] == "none" || state.tiles.empty()) return "";
    std::string kind = KindOfLabel(tiles, state.tiles.back().tile, w[1]);
    if (kind.empty()) return "";
    for (const auto k : {core::FeatureKind::kStreet, core::FeatureKind::kTower,
                         core::FeatureKind::kHouse, core::FeatureKind::kCourt}) {
      if (kind == castle::KindName(k)) return kind + ": a " + castle::RoleName(k);
    }
    return kind;
  }
  if (w[0] == "score" && w.size() >= 4) {
    const std::string what = "score " + FeatureAt(state, tiles, w[1], w[2], w[3]) + " next";
    return w.size() == 5 ? what + ", doubled with a wall tile" : what;
  }
  if (action == "extra-turn yes") return "use wall tile 1: take another turn";
  if (action == "extra-turn no") return "keep wall tile 1; the turn passes";
  if (w[0] == "walltile" && w.size() >= 3) {
    const int number = std::atoi(w[1].c_str());
    if (number < 1 || number >= castle::kWallTileKinds) return "";
    if (w[2] == "none") return "leave wall tile " + WallTileName(number) + " unused";
    if (w.size() != 5) return "";
    return std::string(castle::Describe(static_cast<castle::WallTile>(number))) + ": on " +
           FeatureAt(state, tiles, w[2], w[3], w[4]);
  }
  return "";
}

// What the eager bots prefer, as castle::EagerChoice does: a follower placed, a doubled score,
// another turn, a wall tile used.
bool Placing(std::string_view action) {
  return (action.starts_with("follower ") && action != "follower none") ||
         action.ends_with(" double") || action == "extra-turn yes" ||
         (action.starts_with("walltile ") && !action.ends_with(" none"));
}

// Scores, keeps, wall tiles and discarded tiles: the events a person following a game wants to
// see.
bool Notable(std::string_view event) {
  for (const std::string_view name : {"feature_scored", "keep_placed", "wall_tile_taken",
                                      "wall_tile_used", "keep_scored", "tile_discarded"}) {
    if (event.starts_with(name) && (event.size() == name.size() || event[name.size()] == ' ')) {
      return true;
    }
  }
  return false;
}

}  // namespace

const GameDrawing& CastleDrawing() {
  static const GameDrawing drawing{
      .rule_set = castle::kRuleSetId,
      .render = [](const protocol::PublicView& view, const core::TileSet& tiles) -> std::string {
        const castle::PublicState* state = protocol::CastleStateOf(view);
        const castle_wire* board = protocol::CastleBoardOf(view);
        return state != nullptr ? Render(*state, *board, tiles) : std::string();
      },
      .state_json = [](const protocol::PublicView& view) -> nlohmann::json {
        const castle::PublicState* state = protocol::CastleStateOf(view);
        const castle_wire* board = protocol::CastleBoardOf(view);
        return state != nullptr ? StateJson(*state, *board) : nlohmann::json();
      },
      .scores_json = [](const protocol::PublicView& view) -> nlohmann::json {
        const castle::PublicState* state = protocol::CastleStateOf(view);
        return state != nullptr ? ScoresJson(*state) : nlohmann::json();
      },
      .decision = [](const protocol::PublicView& view) -> std::string {
        const castle::PublicState* state = protocol::CastleStateOf(view);
        return state != nullptr ? DescribeDecision(*state) : std::string();
      },
      // The game ends one way only: the castle is full or the tiles run out; the generic "over"
      // says it.
      .ended_by = nullptr,
      .hint = [](const protocol::PublicView& view, const core::TileSet& tiles,
                 std::string_view action) -> std::string {
        const castle::PublicState* state = protocol::CastleStateOf(view);
        return state != nullptr ? Hint(*state, tiles, action) : std::string();
      },
      .placing = Placing,
      .notable = Notable,
  };
  return drawing;
}

}  // namespace carc::client
