// The part of the action notation (docs/formats.md) that every game shares: the actor that may
// start a line (`chance`, `p0`, `p1`, ...) and the tile actions every game has:
//
//   draw 17            place 0 -1 3        follower b       follower none
//
// A game supplies its Action type (with ActionKind enumerators kDraw, kPlaceTile,
// kPlaceFollower and kSkipFollower, the fields tile, x, y, rotation and feature, and the
// factories Draw, PlaceTile, PlaceFollower and SkipFollower), and parses and formats the verbs
// of its own actions itself. Follower features are named by their letter or digit in the tile
// file, on the tile placed last.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/board.h"
#include "core/rule_set.h"
#include "core/text.h"
#include "core/tileset.h"

namespace carc::core {

// One line of the notation, parsed: the action, and its actor when the line names one (without
// one, the action is taken by whoever must decide).
template <typename Action>
struct ParsedAction {
  bool has_actor = false;
  Actor actor = kChanceActor;
  Action action;
};

// "chance" or "p<player>".
std::string FormatActor(Actor actor);

// The type of the tile placed last on `board`, whose features a follower action names; null
// before any tile is placed.
const TileType* LastPlacedType(const Board& board, const TileSet& tiles);

// The index of the feature of `type` named by `label`, or -1 (also for a null type).
int FeatureByLabel(const TileType* type, std::string_view label);

// If `words` starts with an actor, takes it off into `has_actor` and `actor`. Returns what is
// wrong ("" if nothing): an actor that is not one of `players`.
std::string TakeActor(std::vector<std::string_view>* words, int players, bool* has_actor,
                      Actor* actor);

// The tile actions every game has, as text; "?" for an action of another kind. `last_placed`
// is the type of the tile placed last (null before any).
template <typename Action>
std::string FormatTileAction(const TileType* last_placed, const Action& a) {
  using Kind = decltype(a.kind);
  if (a.kind == Kind::kDraw) return "draw " + std::to_string(a.tile);
  if (a.kind == Kind::kPlaceTile) {
    return "place " + std::to_string(a.x) + " " + std::to_string(a.y) + " " +
           std::to_string(a.rotation);
  }
  if (a.kind == Kind::kPlaceFollower) {
    if (last_placed == nullptr || a.feature >= last_placed->FeatureCount()) return "follower ?";
    return std::string("follower ") + last_placed->features[a.feature].label;
  }
  if (a.kind == Kind::kSkipFollower) return "follower none";
  return "?";
}

// Parses one line (no comment, not blank): its actor if any, then `draw`, `place` and `follower`
// here, and any other verb by the game's `parse_own(words)`, which returns the Action or what is
// wrong (e.g. "unknown action 'x'").
template <typename Action, typename ParseOwn>
std::variant<ParsedAction<Action>, std::string> ParseActionLine(std::string_view line, int players,
                                                                const TileType* last_placed,
                                                                ParseOwn parse_own) {
  std::vector<std::string_view> w = SplitWords(line);
  if (w.empty()) return std::string("empty action");
  ParsedAction<Action> parsed;
  if (std::string error = TakeActor(&w, players, &parsed.has_actor, &parsed.actor);
      !error.empty()) {
    return error;
  }
  if (w.empty()) return std::string("an actor without an action");
  int x = 0, y = 0, n = 0;
  if (w[0] == "draw") {
    if (w.size() != 2 || !ParseNumber(w[1], &n) || n < 0 || n > 255) {
      return std::string("expected 'draw <tile id>'");
    }
    parsed.action = Action::Draw(n);
  } else if (w[0] == "place") {
    if (w.size() != 4 || !ParseNumber(w[1], &x) || !ParseNumber(w[2], &y) ||
        !ParseNumber(w[3], &n) || x < -128 || x > 127 || y < -128 || y > 127 || n < 0 || n > 255) {
      return std::string("expected 'place <x> <y> <rotation 0-3>'");
    }
    parsed.action = Action::PlaceTile(x, y, n);
  } else if (w[0] == "follower") {
    if (w.size() != 2) {
      return std::string("expected 'follower <feature letter or digit>' or 'follower none'");
    }
    if (w[1] == "none") {
      parsed.action = Action::SkipFollower();
    } else {
      const int feature = FeatureByLabel(last_placed, w[1]);
      if (feature < 0) return "the tile just placed has no feature '" + std::string(w[1]) + "'";
      parsed.action = Action::PlaceFollower(feature);
    }
  } else {
    std::variant<Action, std::string> own = parse_own(w);
    if (auto* error = std::get_if<std::string>(&own)) return std::move(*error);
    parsed.action = std::get<Action>(own);
  }
  return parsed;
}

// What parse_own says of a verb it does not know.
inline std::string UnknownAction(std::string_view verb) {
  return "unknown action '" + std::string(verb) + "'";
}

// Writes the fields of an event (a game's ForEachField walks them) as " key=value"; points as a
// comma-separated list, one value per seat.
class EventTextSink {
 public:
  void Number(const char* key, int value) { Text(key, std::to_string(value).c_str()); }
  void Text(const char* key, const char* value) { text += std::string(" ") + key + "=" + value; }
  template <typename PerSeat>
  void Points(const char* key, const PerSeat& points) {
    std::string list;
    for (size_t p = 0; p < points.size(); ++p) list += (p ? "," : "") + std::to_string(points[p]);
    Text(key, list.c_str());
  }
  std::string text;
};

// One event as a line of `name key=value ...`: the game supplies EventName(event) and
// ForEachField(event, sink), found by argument-dependent lookup.
template <typename Event>
std::string FormatEventLine(const Event& event) {
  EventTextSink sink;
  sink.text = EventName(event);
  ForEachField(event, sink);
  return sink.text;
}

}  // namespace carc::core
