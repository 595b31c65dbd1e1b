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

#include "river/event.h"
#include "river/rules.h"
#include "river/state_hash.h"

namespace carc::river {

struct PublicTile {
  uint8_t tile = 0;
  int8_t x = 0, y = 0;
  uint8_t rotation = 0;
  friend bool operator==(const PublicTile&, const PublicTile&) = default;
};

struct PublicFollower {
  uint8_t player = 0;
  int8_t x = 0, y = 0;  // the tile
  uint8_t feature = 0;  // its feature
  friend bool operator==(const PublicFollower&, const PublicFollower&) = default;
  friend auto operator<=>(const PublicFollower&, const PublicFollower&) = default;
};

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
