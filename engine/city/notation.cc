#include "city/notation.h"

#include <type_traits>
#include <vector>

#include "city/event_fields.h"
#include "core/text.h"

namespace carc::city {
namespace {

constexpr std::string_view kSideLetters = "NESW";

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
    if (args != 1 || !core::ParseNumber(w[1], &n) || n < 0 || n > 255)
      return std::string("expected 'draw <tile id>'");
    a = Action::Draw(n);
  } else if (verb == "place") {
    if (args != 3 || !core::ParseNumber(w[1], &x) || !core::ParseNumber(w[2], &y) ||
        !core::ParseNumber(w[3], &n) || x < -128 || x > 127 || y < -128 || y > 127 || n < 0 ||
        n > 255) {
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
    if (args != 3 || !core::ParseNumber(w[1], &x) || !core::ParseNumber(w[2], &y) ||
        w[3].size() != 1 || kSideLetters.find(w[3][0]) == std::string_view::npos || x < -128 ||
        x > 127 || y < -128 || y > 127) {
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

// Writes fields as " key=value"; points as a comma-separated list, one value per seat.
class TextSink {
 public:
  void Number(const char* key, int value) { Text(key, std::to_string(value).c_str()); }
  void Text(const char* key, const char* value) { text += std::string(" ") + key + "=" + value; }
  void Points(const char* key, const Points& points) {
    std::string list;
    for (size_t p = 0; p < points.size(); ++p) list += (p ? "," : "") + std::to_string(points[p]);
    Text(key, list.c_str());
  }
  std::string text;
};

}  // namespace

std::string FormatEvent(const Event& event) {
  TextSink sink;
  sink.text = EventName(event);
  ForEachField(event, sink);
  return sink.text;
}

std::string FormatActor(Actor actor) {
  if (actor == kChance) return "chance";
  return "p" + std::to_string(actor);
}

std::string FormatAction(const Game& game, const Action& a) {
  return FormatAction(LastPlacedType(game), a);
}

std::string FormatAction(const core::TileType* type, const Action& a) {
  const auto xy = [&] { return std::to_string(a.x) + " " + std::to_string(a.y); };
  switch (a.kind) {
    case ActionKind::kDraw:
      return "draw " + std::to_string(a.tile);
    case ActionKind::kPlaceTile:
      return "place " + xy() + " " + std::to_string(a.rotation);
    case ActionKind::kPlaceFollower: {
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
  std::vector<std::string_view> w = core::SplitWords(line);
  if (w.empty()) return std::string("empty action");
  ParsedAction parsed;
  if (w[0] == "chance") {
    parsed.has_actor = true;
    parsed.actor = kChance;
    w.erase(w.begin());
  } else if (w[0].size() >= 2 && w[0][0] == 'p' && w[0][1] >= '0' && w[0][1] <= '9') {
    int player = 0;
    if (!core::ParseNumber(w[0].substr(1), &player) || player >= game.players()) {
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
