// Actions and decisions of The Castle.
//
// An Action is a small value: what the actor chooses at the current decision. Actions compare and
// sort lexicographically by their fields, which gives the deterministic order of legal-action
// lists. Tile draws are actions of the chance actor, so a game is rebuilt from its actions alone.
#pragma once

#include <compare>
#include <cstdint>

namespace carc::castle {

// Who acts: a player 0..players-1, or chance (the draw of a tile).
using Actor = int;
inline constexpr Actor kChance = -1;
inline constexpr Actor kNobody = -2;  // the game is over

enum class ActionKind : uint8_t {
  kDraw,           // chance: the next tile
  kPlaceTile,      // x, y, rotation
  kPlaceFollower,  // feature: index of a feature of the tile just placed
  kSkipFollower,
  kScore,         // x, y, feature: the completed feature (its first tile) that scores next
  kScoreDoubled,  // the same, doubled by a wall tile 2 (tower) or 3 (house)
  kExtraTurn,     // use a wall tile 1: the same player takes another turn
  kEndTurn,       // keep it: the turn passes
  kUseWallTile,   // wall, x, y, feature: a wall tile 4-7 on that feature at the game's end
  kSkipWallTile,  // wall: leave that wall tile unused
};

struct Action {
  ActionKind kind = ActionKind::kDraw;
  int8_t x = 0;
  int8_t y = 0;
  uint8_t rotation = 0;
  uint8_t feature = 0;
  uint8_t tile = 0;
  uint8_t wall = 0;  // a wall tile's number (rules.h, WallTile)

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
  static constexpr Action Score(int x, int y, int feature, bool doubled) {
    return {.kind = doubled ? ActionKind::kScoreDoubled : ActionKind::kScore,
            .x = static_cast<int8_t>(x),
            .y = static_cast<int8_t>(y),
            .feature = static_cast<uint8_t>(feature)};
  }
  static constexpr Action ExtraTurn() { return {.kind = ActionKind::kExtraTurn}; }
  static constexpr Action EndTurn() { return {.kind = ActionKind::kEndTurn}; }
  static constexpr Action UseWallTile(int wall, int x, int y, int feature) {
    return {.kind = ActionKind::kUseWallTile,
            .x = static_cast<int8_t>(x),
            .y = static_cast<int8_t>(y),
            .feature = static_cast<uint8_t>(feature),
            .wall = static_cast<uint8_t>(wall)};
  }
  static constexpr Action SkipWallTile(int wall) {
    return {.kind = ActionKind::kSkipWallTile, .wall = static_cast<uint8_t>(wall)};
  }

  friend constexpr bool operator==(const Action&, const Action&) = default;
  friend constexpr auto operator<=>(const Action&, const Action&) = default;
};

// What the game waits for.
enum class DecisionKind : uint8_t {
  kDrawTile,       // chance
  kPlaceTile,      // kPlaceTile
  kPlaceFollower,  // kPlaceFollower or kSkipFollower
  kScoreNext,      // kScore or kScoreDoubled: which completed feature scores next, doubled or not
  kExtraTurn,      // kExtraTurn or kEndTurn
  kWallTile,       // kUseWallTile or kSkipWallTile, for the wall tile `wall` (the game's end)
  kNone,           // the game is over
};

struct Decision {
  Actor actor = kChance;
  DecisionKind kind = DecisionKind::kDrawTile;
  uint8_t wall = 0;  // kWallTile: the wall tile's number
  friend constexpr bool operator==(const Decision&, const Decision&) = default;
};

const char* ToString(ActionKind kind);
const char* ToString(DecisionKind kind);

}  // namespace carc::castle
