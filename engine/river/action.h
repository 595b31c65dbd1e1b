// Actions and decisions of Carcassonne (with or without the River).
//
// An Action is a small value: what the actor chooses at the current decision. Actions compare and
// sort lexicographically by their fields, which gives the deterministic order of legal-action
// lists. Tile draws are actions of the chance actor, so a game is rebuilt from its actions alone.
#pragma once

#include <compare>
#include <cstdint>

namespace carc::river {

// Who acts: a player 0..players-1, or chance (the draw of a tile).
using Actor = int;
inline constexpr Actor kChance = -1;
inline constexpr Actor kNobody = -2;  // the game is over

enum class ActionKind : uint8_t {
  kDraw,           // chance: the next tile
  kPlaceTile,      // x, y, rotation
  kPlaceFollower,  // feature: index of a feature of the tile just placed
  kSkipFollower,
};

struct Action {
  ActionKind kind = ActionKind::kDraw;
  int8_t x = 0;
  int8_t y = 0;
  uint8_t rotation = 0;
  uint8_t feature = 0;
  uint8_t tile = 0;

  static constexpr Action Draw(int tile) {
    return {.kind = ActionKind::kDraw, .tile = static_cast<uint8_t>(tile)};
  }
  static constexpr Action PlaceTile(int x, int y, int rotation) {
    return {.kind = ActionKind::kPlaceTile,
            .x = static_cast<int8_t>(x),
            .y = static_cast<int8_t>(y),
            .rotation = static_cast<uint8_t>(rotation)};
  }
  static constexpr Action PlaceFollower(int feature) {
    return {.kind = ActionKind::kPlaceFollower, .feature = static_cast<uint8_t>(feature)};
  }
  static constexpr Action SkipFollower() { return {.kind = ActionKind::kSkipFollower}; }

  friend constexpr bool operator==(const Action&, const Action&) = default;
  friend constexpr auto operator<=>(const Action&, const Action&) = default;
};

// What the game waits for.
enum class DecisionKind : uint8_t {
  kDrawTile,       // chance
  kPlaceTile,      // kPlaceTile
  kPlaceFollower,  // kPlaceFollower or kSkipFollower
  kNone,           // the game is over
};

struct Decision {
  Actor actor = kChance;
  DecisionKind kind = DecisionKind::kDrawTile;
  friend constexpr bool operator==(const Decision&, const Decision&) = default;
};

const char* ToString(ActionKind kind);
const char* ToString(DecisionKind kind);

}  // namespace carc::river
