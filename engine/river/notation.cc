#include "river/notation.h"

#include <vector>

#include "river/event_fields.h"

namespace carc::river {
namespace {

// Features of the tile the follower decision is about: the last one placed.
const core::TileType* LastPlacedType(const Game& game) {
  return core::LastPlacedType(game.board(), game.tiles());
}

// Carcassonne has only the tile actions (core's).
std::variant<Action, std::string> ParseOwn(const std::vector<std::string_view>& w) {
  return core::UnknownAction(w[0]);
}

}  // namespace

std::string FormatEvent(const Event& event) { return core::FormatEventLine(event); }

std::string FormatAction(const Game& game, const Action& a) {
  return FormatAction(LastPlacedType(game), a);
}

std::string FormatAction(const core::TileType* type, const Action& a) {
  return core::FormatTileAction(type, a);
}

std::variant<ParsedAction, std::string> ParseAction(const Game& game, std::string_view line) {
  return core::ParseActionLine<Action>(line, game.players(), LastPlacedType(game), ParseOwn);
}

}  // namespace carc::river
