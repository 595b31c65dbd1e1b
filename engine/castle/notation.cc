#include "castle/notation.h"

#include <vector>

#include "castle/event_fields.h"
#include "core/text.h"

namespace carc::castle {
namespace {

const core::TileType* LastPlacedType(const Game& game) {
  return core::LastPlacedType(game.board(), game.tiles());
}

const core::TileType* TypeAt(const Game& game, int x, int y) {
  const int index = game.board().IndexAt({x, y});
  return index < 0 ? nullptr : &game.tiles().TypeOf(game.board().Placed(index).tile);
}

bool ParseCell(std::string_view wx, std::string_view wy, int* x, int* y) {
  return core::ParseNumber(wx, x) && core::ParseNumber(wy, y) && *x >= -128 && *x <= 127 &&
         *y >= -128 && *y <= 127;
}

// "<x> <y> <feature label>" of a feature on the tile at that cell.
std::variant<std::array<int, 3>, std::string> ParseFeatureAt(const Game& game, std::string_view wx,
                                                             std::string_view wy,
                                                             std::string_view label) {
  int x = 0, y = 0;
  if (!ParseCell(wx, wy, &x, &y)) return std::string("expected a cell '<x> <y>'");
  const int feature = core::FeatureByLabel(TypeAt(game, x, y), label);
  if (feature < 0) {
    return "no tile at " + std::to_string(x) + " " + std::to_string(y) + " has a feature '" +
           std::string(label) + "'";
  }
  return std::array<int, 3>{x, y, feature};
}

// The verbs of The Castle's own actions (the tile actions are core's).
std::variant<Action, std::string> ParseOwn(const Game& game,
                                           const std::vector<std::string_view>& w) {
  const std::string_view verb = w[0];
  const size_t args = w.size() - 1;
  if (verb == "score") {
    constexpr auto kUsage = "expected 'score <x> <y> <feature> [double]'";
    if ((args != 3 && args != 4) || (args == 4 && w[4] != "double")) return std::string(kUsage);
    auto at = ParseFeatureAt(game, w[1], w[2], w[3]);
    if (auto* error = std::get_if<std::string>(&at)) return *error;
    const auto [x, y, f] = std::get<std::array<int, 3>>(at);
    return Action::Score(x, y, f, args == 4);
  }
  if (verb == "extra-turn") {
    if (args != 1 || (w[1] != "yes" && w[1] != "no")) {
      return std::string("expected 'extra-turn yes|no'");
    }
    return w[1] == "yes" ? Action::ExtraTurn() : Action::EndTurn();
  }
  if (verb == "walltile") {
    constexpr auto kUsage = "expected 'walltile <4-7> <x> <y> <feature>' or 'walltile <4-7> none'";
    int wall = 0;
    if (args < 2 || !core::ParseNumber(w[1], &wall) || wall < 1 || wall >= kWallTileKinds) {
      return std::string(kUsage);
    }
    if (args == 2 && w[2] == "none") return Action::SkipWallTile(wall);
    if (args != 4) return std::string(kUsage);
    auto at = ParseFeatureAt(game, w[2], w[3], w[4]);
    if (auto* error = std::get_if<std::string>(&at)) return *error;
    const auto [x, y, f] = std::get<std::array<int, 3>>(at);
    return Action::UseWallTile(wall, x, y, f);
  }
  return core::UnknownAction(verb);
}

std::string FeatureLabel(const core::TileType* type, int feature) {
  if (type == nullptr || feature >= type->FeatureCount()) return "?";
  return std::string(1, type->features[static_cast<size_t>(feature)].label);
}

}  // namespace

std::string FormatEvent(const Event& event) { return core::FormatEventLine(event); }

std::string FormatAction(const Game& game, const Action& a) {
  return FormatAction(LastPlacedType(game), TypeAt(game, a.x, a.y), a);
}

std::string FormatAction(const core::TileType* last_placed, const core::TileType* at_cell,
                         const Action& a) {
  const auto at = [&] {
    return std::to_string(a.x) + " " + std::to_string(a.y) + " " + FeatureLabel(at_cell, a.feature);
  };
  switch (a.kind) {
    case ActionKind::kDraw:
    case ActionKind::kPlaceTile:
    case ActionKind::kPlaceFollower:
    case ActionKind::kSkipFollower:
      return core::FormatTileAction(last_placed, a);
    case ActionKind::kScore:
      return "score " + at();
    case ActionKind::kScoreDoubled:
      return "score " + at() + " double";
    case ActionKind::kExtraTurn:
      return "extra-turn yes";
    case ActionKind::kEndTurn:
      return "extra-turn no";
    case ActionKind::kUseWallTile:
      return "walltile " + std::to_string(a.wall) + " " + at();
    case ActionKind::kSkipWallTile:
      return "walltile " + std::to_string(a.wall) + " none";
  }
  return "?";
}

std::variant<ParsedAction, std::string> ParseAction(const Game& game, std::string_view line) {
  return core::ParseActionLine<Action>(
      line, game.players(), LastPlacedType(game),
      [&game](const std::vector<std::string_view>& w) { return ParseOwn(game, w); });
}

}  // namespace carc::castle
