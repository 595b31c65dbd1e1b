#include "city/notation.h"

#include <vector>

#include "city/event_fields.h"
#include "core/text.h"

namespace carc::city {
namespace {

constexpr std::string_view kSideLetters = "NESW";

// Features of the tile the follower decision is about: the last one placed.
const core::TileType* LastPlacedType(const Game& game) {
  return core::LastPlacedType(game.board(), game.tiles());
}

// The verbs of The City's own actions (the tile actions are core's).
std::variant<Action, std::string> ParseOwn(const std::vector<std::string_view>& w) {
  const std::string_view verb = w[0];
  const size_t args = w.size() - 1;
  int x = 0, y = 0;
  if (verb == "gate") {
    if (args != 3 || !core::ParseNumber(w[1], &x) || !core::ParseNumber(w[2], &y) ||
        w[3].size() != 1 || kSideLetters.find(w[3][0]) == std::string_view::npos || x < -128 ||
        x > 127 || y < -128 || y > 127) {
      return std::string("expected 'gate <x> <y> <N|E|S|W>'");
    }
    return Action::PlaceGate(x, y, static_cast<int>(kSideLetters.find(w[3][0])));
  }
  if (verb == "wall" || verb == "tower") {
    if (args != 1) {
      return "expected '" + std::string(verb) + " front|back" + (verb == "tower" ? "|none'" : "'");
    }
    if (verb == "tower" && w[1] == "none") return Action::SkipTower();
    if (w[1] == "front" || w[1] == "back") {
      const int end = w[1] == "front" ? kFrontEnd : kBackEnd;
      return verb == "wall" ? Action::BuildWall(end) : Action::PlaceTower(end);
    }
    return "expected '" + std::string(verb) + " front|back" + (verb == "tower" ? "|none'" : "'");
  }
  if (verb == "guard") {
    if (args != 1 || (w[1] != "yes" && w[1] != "no")) return std::string("expected 'guard yes|no'");
    return w[1] == "yes" ? Action::PlaceGuard() : Action::SkipGuard();
  }
  return core::UnknownAction(verb);
}

}  // namespace

std::string FormatEvent(const Event& event) { return core::FormatEventLine(event); }

std::string FormatAction(const Game& game, const Action& a) {
  return FormatAction(LastPlacedType(game), a);
}

std::string FormatAction(const core::TileType* type, const Action& a) {
  const auto xy = [&] { return std::to_string(a.x) + " " + std::to_string(a.y); };
  switch (a.kind) {
    case ActionKind::kDraw:
    case ActionKind::kPlaceTile:
    case ActionKind::kPlaceFollower:
    case ActionKind::kSkipFollower:
      return core::FormatTileAction(type, a);
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
  return core::ParseActionLine<Action>(line, game.players(), LastPlacedType(game), ParseOwn);
}

}  // namespace carc::city
