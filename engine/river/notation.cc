#include "river/notation.h"

#include <vector>

#include "core/text.h"
#include "river/event_fields.h"

namespace carc::river {
namespace {

// Features of the tile the follower decision is about: the last one placed.
const core::TileType* LastPlacedType(const Game& game) {
  if (game.board().TileCount() == 0) return nullptr;
  return &game.tiles().TypeOf(game.board().Placed(game.board().TileCount() - 1).tile);
}

std::variant<Action, std::string> ParsePlace(const std::vector<std::string_view>& w) {
  int x = 0, y = 0, rotation = 0;
  if (w.size() != 4 || !core::ParseNumber(w[1], &x) || !core::ParseNumber(w[2], &y) ||
      !core::ParseNumber(w[3], &rotation) || x < -128 || x > 127 || y < -128 || y > 127 ||
      rotation < 0 || rotation > 255) {
    return std::string("expected 'place <x> <y> <rotation 0-3>'");
  }
  return Action::PlaceTile(x, y, rotation);
}

std::variant<Action, std::string> ParseFollower(const Game& game,
                                                const std::vector<std::string_view>& w) {
  if (w.size() != 2) {
    return std::string("expected 'follower <feature letter or digit>' or 'follower none'");
  }
  if (w[1] == "none") return Action::SkipFollower();
  const core::TileType* type = LastPlacedType(game);
  for (int f = 0; type != nullptr && f < type->FeatureCount(); ++f) {
    if (w[1].size() == 1 && type->features[static_cast<size_t>(f)].label == w[1][0]) {
      return Action::PlaceFollower(f);
    }
  }
  return "the tile just placed has no feature '" + std::string(w[1]) + "'";
}

std::variant<Action, std::string> ParseBody(const Game& game,
                                            const std::vector<std::string_view>& w) {
  if (w[0] == "draw") {
    int tile = 0;
    if (w.size() != 2 || !core::ParseNumber(w[1], &tile) || tile < 0 || tile > 255) {
      return std::string("expected 'draw <tile id>'");
    }
    return Action::Draw(tile);
  }
  if (w[0] == "place") return ParsePlace(w);
  if (w[0] == "follower") return ParseFollower(game, w);
  return "unknown action '" + std::string(w[0]) + "'";
}

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
  switch (a.kind) {
    case ActionKind::kDraw:
      return "draw " + std::to_string(a.tile);
    case ActionKind::kPlaceTile:
      return "place " + std::to_string(a.x) + " " + std::to_string(a.y) + " " +
             std::to_string(a.rotation);
    case ActionKind::kPlaceFollower: {
      if (type == nullptr || a.feature >= type->FeatureCount()) return "follower ?";
      return std::string("follower ") + type->features[a.feature].label;
    }
    case ActionKind::kSkipFollower:
      return "follower none";
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
  auto body = ParseBody(game, w);
  if (auto* error = std::get_if<std::string>(&body)) return *error;
  parsed.action = std::get<Action>(body);
  return parsed;
}

}  // namespace carc::river
