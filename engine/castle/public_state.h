// The public state of a game of The Castle: what both players and spectators may know.
//
// A client keeps one of these: it starts from Initial and reduces the engine's events with Apply.
// Game::Public builds the same value from a game, so a test (or a server) can check that a client
// following the events is in step: equal states, equal hashes. Neither the order of the tiles
// still to be drawn nor the face-down wall tiles are part of it.
#pragma once

#include <cstdint>
#include <vector>

#include "castle/event.h"
#include "castle/layout.h"
#include "castle/rules.h"
#include "castle/state_hash.h"
#include "core/public_board.h"

namespace carc::castle {

using core::PublicFollower;
using core::PublicTile;

class PublicState {
 public:
  // Before the first action: the start spaces lie on the wall, a wall tile face down on every
  // corner tower but the first.
  static PublicState Initial(const Config& config, const std::vector<PublicTile>& start_tiles,
                             const Layout& layout);

  // Reduces one event. Events must come in the engine's order.
  void Apply(const Event& event);
  uint64_t Hash() const;

  Config config;
  std::vector<PublicTile> tiles;          // in the order they were placed, start spaces first
  std::vector<PublicFollower> followers;  // sorted
  Counters counters;

  friend bool operator==(const PublicState&, const PublicState&) = default;

 private:
  void AddPoints(const Points& points, Source source);
};

// Where the points of a FeatureScored go in the breakdown.
Source SourceOfScore(const FeatureScored& scored);

}  // namespace carc::castle
