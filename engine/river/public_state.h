// The public state of a game of Carcassonne: what every player and spectator may know.
//
// A client keeps one of these: it starts from Initial and reduces the engine's events with Apply.
// Game::Public builds the same value from a game, so a test (or a server) can check that a client
// following the events is in step: equal states, equal hashes. The order of the tiles still to
// be drawn is not part of it.
#pragma once

#include <compare>
#include <cstdint>
#include <vector>

#include "core/public_board.h"
#include "river/event.h"
#include "river/rules.h"
#include "river/state_hash.h"

namespace carc::river {

using core::PublicFollower;
using core::PublicTile;

class PublicState {
 public:
  // Before the first action: the set-up tile (the start tile or the spring) lies at (0, 0).
  static PublicState Initial(const Config& config, int setup_tile);

  // Reduces one event. Events must come in the engine's order.
  void Apply(const Event& event);
  uint64_t Hash() const;

  Config config;
  std::vector<PublicTile> tiles;          // in the order they were placed
  std::vector<PublicFollower> followers;  // sorted
  Counters counters;

  friend bool operator==(const PublicState&, const PublicState&) = default;

 private:
  void AddPoints(const Points& points, Source source);
};

}  // namespace carc::river
