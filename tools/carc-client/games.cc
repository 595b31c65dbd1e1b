// The games carc-client can draw: one line per game.
#include "games.h"

#include <array>

namespace carc::client {

const GameDrawing* FindGameDrawing(std::string_view rule_set) {
  static const std::array<const GameDrawing*, 3> drawings{&CityDrawing(), &RiverDrawing(),
                                                          &CastleDrawing()};
  for (const GameDrawing* drawing : drawings) {
    if (drawing->rule_set == rule_set) return drawing;
  }
  return nullptr;
}

}  // namespace carc::client
