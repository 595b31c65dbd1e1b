// The public state of a game of The City: what every player and spectator may know.
//
// A client keeps one of these: it starts from Initial (or a snapshot) and reduces the engine's
// events with Apply. Game::Public builds the same value from a game, so a test (or a server)
// can check that a client following the events is in step: equal states, equal hashes. The
// order of the stacks is not part of it.
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <vector>

#include "city/event.h"
#include "city/rules.h"
#include "city/state_hash.h"
#include "city/walls.h"
#include "core/public_board.h"

namespace carc::city {

using core::PublicFollower;
using core::PublicTile;

class PublicState {
 public:
  static PublicState Initial(const Config& config);

  // Reduces one event. Events must come in the engine's order.
  void Apply(const Event& event);
  uint64_t Hash() const;

  Config config;
  std::vector<PublicTile> tiles;          // in the order they were placed
  std::vector<PublicFollower> followers;  // on streets, markets, residential areas; sorted
  bool has_gate = false;
  WallPiece gate;
  std::array<std::vector<WallPiece>, 2> pieces;  // front and back of the chain, from the gate
  std::vector<Tower> towers;
  Counters counters;

  friend bool operator==(const PublicState&, const PublicState&) = default;

 private:
  WallPiece* FindPiece(int x, int y, int side);
  void AddPoints(const Points& points, Source source);
};

}  // namespace carc::city
