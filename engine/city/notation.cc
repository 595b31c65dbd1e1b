#include "city/notation.h"

#include <charconv>
#include <type_traits>
#include <vector>

namespace carc::city {
namespace {

constexpr std::string_view kSideLetters = "NESW";

std::vector<std::string_view> Words(std::string_view line) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    const size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) words.push_back(line.substr(start, i - start));
  }
  return words;
}

bool Int(std::string_view word, int* out) {
  const char* end = word.data() + word.size();
  const auto r = std::from_chars(word.data(), end, *out);
  return r.ec == std::errc() && r.ptr == end;
}

// Features of the tile the follower decision is about: the last one placed.
const core::TileType* LastPlacedType(const Game& game) {
  if (game.board().TileCount() == 0) return nullptr;
  return &game.tiles().TypeOf(game.board().Placed(game.board().TileCount() - 1).tile);
}

std::variant<ParsedAction, std::string> ParseBody(const Game& game,
                                                  const std::vector<std::string_view>& w,
                                                  ParsedAction parsed) {
  const std::string_view verb = w[0];
  const size_t args = w.size() - 1;
  Action& a = parsed.action;
  int x = 0, y = 0, n = 0;
  if (verb == "draw") {
    if (args != 1 || !Int(w[1], &n) || n < 0 || n > 255)
      return std::string("expected 'draw <tile id>'");
    a = Action::Draw(n);
  } else if (verb == "place") {
    if (args != 3 || !Int(w[1], &x) || !Int(w[2], &y) || !Int(w[3], &n) || x < -128 || x > 127 ||
        y < -128 || y > 127 || n < 0 || n > 255) {
      return std::string("expected 'place <x> <y> <rotation 0-3>'");
    }
    a = Action::PlaceTile(x, y, n);
  } else if (verb == "follower") {
    if (args != 1)
      return std::string("expected 'follower <feature letter or digit>' or 'follower none'");
    if (w[1] == "none") {
      a = Action::SkipFollower();
    } else {
      const core::TileType* type = LastPlacedType(game);
      int found = -1;
      for (int f = 0; type != nullptr && f < type->FeatureCount(); ++f) {
        if (w[1].size() == 1 && type->features[static_cast<size_t>(f)].label == w[1][0]) found = f;
      }
      if (found < 0) return "the tile just placed has no feature '" + std::string(w[1]) + "'";
      a = Action::PlaceFollower(found);
    }
  } else if (verb == "gate") {
    if (args != 3 || !Int(w[1], &x) || !Int(w[2], &y) || w[3].size() != 1 ||
        kSideLetters.find(w[3][0]) == std::string_view::npos || x < -128 || x > 127 || y < -128 ||
        y > 127) {
      return std::string("expected 'gate <x> <y> <N|E|S|W>'");
    }
    a = Action::PlaceGate(x, y, static_cast<int>(kSideLetters.find(w[3][0])));
  } else if (verb == "wall" || verb == "tower") {
    if (args != 1) {
      return "expected '" + std::string(verb) + " front|back" + (verb == "tower" ? "|none'" : "'");
    }
    if (verb == "tower" && w[1] == "none") {
      a = Action::SkipTower();
    } else if (w[1] == "front" || w[1] == "back") {
      const int end = w[1] == "front" ? kFrontEnd : kBackEnd;
      a = verb == "wall" ? Action::BuildWall(end) : Action::PlaceTower(end);
    } else {
      return "expected '" + std::string(verb) + " front|back" + (verb == "tower" ? "|none'" : "'");
    }
  } else if (verb == "guard") {
    if (args != 1 || (w[1] != "yes" && w[1] != "no")) return std::string("expected 'guard yes|no'");
    a = w[1] == "yes" ? Action::PlaceGuard() : Action::SkipGuard();
  } else {
    return "unknown action '" + std::string(verb) + "'";
  }
  return parsed;
}

}  // namespace

namespace {

class Line {
 public:
  explicit Line(const char* name) : text_(name) {}
  Line& Add(const char* key, int value) {
    text_ += std::string(" ") + key + "=" + std::to_string(value);
    return *this;
  }
  Line& Add(const char* key, const std::string& value) {
    text_ += std::string(" ") + key + "=" + value;
    return *this;
  }
  Line& Side(int side) { return Add("side", std::string(1, side < 4 ? kSideLetters[side] : '?')); }
  Line& End(int end) { return Add("end", end == kFrontEnd ? "front" : "back"); }
  Line& Points(const Points& points) {
    std::string list;
    for (size_t p = 0; p < points.size(); ++p) list += (p ? "," : "") + std::to_string(points[p]);
    return Add("points", list);
  }
  std::string text() const { return text_; }

 private:
  std::string text_;
};

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

std::string FormatEvent(const Event& event) {
  Line line(EventName(event));
  std::visit(
      [&line](const auto& e) {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, TileDrawn>) {
          line.Add("tile", e.tile).Add("stack", e.stack);
        } else if constexpr (std::is_same_v<T, StackStarted>) {
          line.Add("stack", e.stack);
        } else if constexpr (std::is_same_v<T, TileDiscarded>) {
          line.Add("tile", e.tile);
        } else if constexpr (std::is_same_v<T, TilePlaced>) {
          line.Add("player", e.player)
              .Add("tile", e.tile)
              .Add("x", e.x)
              .Add("y", e.y)
              .Add("rotation", e.rotation);
        } else if constexpr (std::is_same_v<T, FollowerPlaced>) {
          line.Add("player", e.player)
              .Add("x", e.x)
              .Add("y", e.y)
              .Add("feature", e.feature)
              .Add("role", ToString(e.role));
        } else if constexpr (std::is_same_v<T, FeatureScored>) {
          line.Add("kind", ToString(e.kind))
              .Add("x", e.x)
              .Add("y", e.y)
              .Add("feature", e.feature)
              .Add("tiles", e.tiles)
              .Add("market_kinds", e.market_kinds)
              .Add("cause", CauseName(e.cause))
              .Points(e.points);
        } else if constexpr (std::is_same_v<T, FollowerReturned>) {
          line.Add("player", e.player)
              .Add("x", e.x)
              .Add("y", e.y)
              .Add("feature", e.feature)
              .Add("scored", e.scored ? "yes" : "no");
        } else if constexpr (std::is_same_v<T, WallRoundBegun>) {
          line.Add("scorer", e.scorer).Add("pieces", e.pieces);
        } else if constexpr (std::is_same_v<T, GatePlaced> || std::is_same_v<T, GuardPlaced>) {
          line.Add("player", e.player).Add("x", e.x).Add("y", e.y).Side(e.side);
        } else if constexpr (std::is_same_v<T, WallBuilt>) {
          line.Add("player", e.player).Add("x", e.x).Add("y", e.y).Side(e.side).End(e.end);
        } else if constexpr (std::is_same_v<T, TowerPlaced>) {
          line.Add("player", e.player)
              .End(e.end)
              .Add("position", e.position)
              .Add("points", e.points);
        } else if constexpr (std::is_same_v<T, WallCompleted>) {
          line.Add("sides", e.sides);
        } else if constexpr (std::is_same_v<T, StewardsScored>) {
          line.Add("x", e.x)
              .Add("y", e.y)
              .Add("feature", e.feature)
              .Add("markets", e.markets)
              .Points(e.points);
        } else if constexpr (std::is_same_v<T, GuardScored>) {
          line.Add("player", e.player)
              .Add("x", e.x)
              .Add("y", e.y)
              .Side(e.side)
              .Add("public", e.public_buildings)
              .Add("historic", e.historic_buildings)
              .Add("points", e.points);
        } else if constexpr (std::is_same_v<T, GameOver>) {
          line.Add("ended_by", ToString(e.condition))
              .Add("conditions", e.conditions)
              .Add("winners", e.winners);
        } else if constexpr (std::is_same_v<T, DecisionRequested>) {
          line.Add("actor", e.decision.actor)
              .Add("decision", ToString(e.decision.kind))
              .Add("turn", e.turn_player);
        }
      },
      event);
  return line.text();
}

std::string FormatActor(Actor actor) {
  if (actor == kChance) return "chance";
  return "p" + std::to_string(actor);
}

std::string FormatAction(const Game& game, const Action& a) {
  const auto xy = [&] { return std::to_string(a.x) + " " + std::to_string(a.y); };
  switch (a.kind) {
    case ActionKind::kDraw:
      return "draw " + std::to_string(a.tile);
    case ActionKind::kPlaceTile:
      return "place " + xy() + " " + std::to_string(a.rotation);
    case ActionKind::kPlaceFollower: {
      const core::TileType* type = LastPlacedType(game);
      if (type == nullptr || a.feature >= type->FeatureCount()) return "follower ?";
      return std::string("follower ") + type->features[a.feature].label;
    }
    case ActionKind::kSkipFollower:
      return "follower none";
    case ActionKind::kPlaceGate:
      return "gate " + xy() + " " + (a.side < 4 ? std::string(1, kSideLetters[a.side]) : "?");
    case ActionKind::kBuildWall:
      return a.end == kFrontEnd ? "wall front" : "wall back";
    case ActionKind::kPlaceGuard:
      return "guard yes";
    case ActionKind::kSkipGuard:
      return "guard no";
    case ActionKind::kPlaceTower:
      return a.end == kFrontEnd ? "tower front" : "tower back";
    case ActionKind::kSkipTower:
      return "tower none";
  }
  return "?";
}

std::variant<ParsedAction, std::string> ParseAction(const Game& game, std::string_view line) {
  std::vector<std::string_view> w = Words(line);
  if (w.empty()) return std::string("empty action");
  ParsedAction parsed;
  if (w[0] == "chance") {
    parsed.has_actor = true;
    parsed.actor = kChance;
    w.erase(w.begin());
  } else if (w[0].size() >= 2 && w[0][0] == 'p' && w[0][1] >= '0' && w[0][1] <= '9') {
    int player = 0;
    if (!Int(w[0].substr(1), &player) || player >= game.players()) {
      return "unknown actor '" + std::string(w[0]) + "'";
    }
    parsed.has_actor = true;
    parsed.actor = player;
    w.erase(w.begin());
  }
  if (w.empty()) return std::string("an actor without an action");
  return ParseBody(game, w, parsed);
}

}  // namespace carc::city
