// Actions and decisions of The City.
//
// An Action is a small value: what the actor chooses at the current decision. Actions compare
// and sort lexicographically by their fields, which gives the deterministic order of legal-action
// lists. Tile draws are actions too, taken by the chance actor, so a game is rebuilt from its
// list of actions alone.
#pragma once

#include <compare>
#include <cstdint>

namespace carc::city {

// Who acts: a player 0..players-1, or chance (the draw of a tile).
using Actor = int;
inline constexpr Actor kChance = -1;
inline constexpr Actor kNobody = -2;  // the game is over

enum class ActionKind : uint8_t {
  kDraw,           // chance: the next tile of the stacks
  kPlaceTile,      // x, y, rotation
  kPlaceFollower,  // feature: index of a feature of the tile just placed
  kSkipFollower,
  kPlaceGate,   // x, y, side: the gate on that side of a placed tile
  kBuildWall,   // end: continue the wall chain at its front (0) or back (1) end
  kPlaceGuard,  // a guard on the wall piece just built
  kSkipGuard,
  kPlaceTower,  // end: a tower on the front (0) or back (1) end of the chain
  kSkipTower,
};

// The ends of the wall chain. Pieces are directed edges walked clockwise around the city (the
// city on the right); the front end grows clockwise, the back end counter-clockwise.
inline constexpr uint8_t kFrontEnd = 0;
inline constexpr uint8_t kBackEnd = 1;

struct Action {
  ActionKind kind = ActionKind::kDraw;
  int8_t x = 0;
  int8_t y = 0;
  uint8_t rotation = 0;
  uint8_t side = 0;
  uint8_t feature = 0;
  uint8_t end = 0;
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
  static constexpr Action PlaceGate(int x, int y, int side) {
    return {.kind = ActionKind::kPlaceGate,
            .x = static_cast<int8_t>(x),
            .y = static_cast<int8_t>(y),
            .side = static_cast<uint8_t>(side)};
  }
  static constexpr Action BuildWall(int end) {
    return {.kind = ActionKind::kBuildWall, .end = static_cast<uint8_t>(end)};
  }
  static constexpr Action PlaceGuard() { return {.kind = ActionKind::kPlaceGuard}; }
  static constexpr Action SkipGuard() { return {.kind = ActionKind::kSkipGuard}; }
  static constexpr Action PlaceTower(int end) {
    return {.kind = ActionKind::kPlaceTower, .end = static_cast<uint8_t>(end)};
  }
  static constexpr Action SkipTower() { return {.kind = ActionKind::kSkipTower}; }

  friend constexpr bool operator==(const Action&, const Action&) = default;
  friend constexpr auto operator<=>(const Action&, const Action&) = default;
};

// What the game waits for.
enum class DecisionKind : uint8_t {
  kDrawTile,       // chance
  kPlaceTile,      // kPlaceTile
  kPlaceFollower,  // kPlaceFollower or kSkipFollower
  kPlaceGate,      // kPlaceGate
  kBuildWall,      // kBuildWall
  kPlaceGuard,     // kPlaceGuard or kSkipGuard
  kPlaceTower,     // kPlaceTower or kSkipTower
  kNone,           // the game is over
};

struct Decision {
  Actor actor = kChance;
  DecisionKind kind = DecisionKind::kDrawTile;
  friend constexpr bool operator==(const Decision&, const Decision&) = default;
};

const char* ToString(ActionKind kind);
const char* ToString(DecisionKind kind);

}  // namespace carc::city
