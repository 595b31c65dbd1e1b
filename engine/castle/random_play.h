// Random players for The Castle (core/random_play.h), for self-play, tests, benchmarks and bots.
#pragma once

#include <cstdint>
#include <vector>

#include "castle/game.h"
#include "core/hash.h"
#include "core/random_play.h"

namespace carc::castle {

using PlayBuffers = core::PlayBuffers<Action, Event, 64>;
using core::Policy;
using core::RandomStep;

// A player who places a follower and uses a wall tile whenever the rules allow (nine times in
// ten), and otherwise chooses uniformly: games then score more features and use more wall tiles.
inline Action EagerChoice(const std::vector<Action>& legal, core::Random& random) {
  return core::EagerPick(legal, random, [](const Action& a) {
    return a.kind == ActionKind::kPlaceFollower || a.kind == ActionKind::kScoreDoubled ||
           a.kind == ActionKind::kExtraTurn || a.kind == ActionKind::kUseWallTile;
  });
}

// The generator a self-played game with this seed uses for its choices.
inline core::Random ChoiceRandom(uint64_t seed) {
  return core::Random(core::Mix64(seed ^ 0xCA57'1EULL));
}

}  // namespace carc::castle
