#include "core/notation.h"

namespace carc::core {

std::string FormatActor(Actor actor) {
  if (actor == kChanceActor) return "chance";
  return "p" + std::to_string(actor);
}

const TileType* LastPlacedType(const Board& board, const TileSet& tiles) {
  if (board.TileCount() == 0) return nullptr;
  return &tiles.TypeOf(board.Placed(board.TileCount() - 1).tile);
}

int FeatureByLabel(const TileType* type, std::string_view label) {
  if (type == nullptr || label.size() != 1) return -1;
  for (int f = 0; f < type->FeatureCount(); ++f) {
    if (type->features[static_cast<size_t>(f)].label == label[0]) return f;
  }
  return -1;
}

std::string TakeActor(std::vector<std::string_view>* words, int players, bool* has_actor,
                      Actor* actor) {
  const std::string_view first = words->front();
  if (first == "chance") {
    *has_actor = true;
    *actor = kChanceActor;
  } else if (first.size() >= 2 && first[0] == 'p' && first[1] >= '0' && first[1] <= '9') {
    int player = 0;
    if (!ParseNumber(first.substr(1), &player) || player >= players) {
      return "unknown actor '" + std::string(first) + "'";
    }
    *has_actor = true;
    *actor = player;
  } else {
    return "";
  }
  words->erase(words->begin());
  return "";
}

}  // namespace carc::core
