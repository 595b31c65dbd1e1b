// Random players for The City (core/random_play.h), for self-play, tests, benchmarks and bots.
#pragma once

#include <cstdint>
#include <vector>

#include "city/game.h"
#include "core/hash.h"
#include "core/random_play.h"

namespace carc::city {

using PlayBuffers = core::PlayBuffers<Action, Event, 256>;
using core::Policy;
using core::RandomStep;

// A player who places a follower, guard or tower whenever the rules allow (nine times in ten),
// and otherwise chooses uniformly: games then score more and build more wall than uniformly
// random ones, which reach the wall's end conditions far more often.
inline Action EagerChoice(const std::vector<Action>& legal, core::Random& random) {
  return core::EagerPick(legal, random, [](const Action& a) {
    return a.kind == ActionKind::kPlaceFollower || a.kind == ActionKind::kPlaceGuard ||
           a.kind == ActionKind::kPlaceTower;
  });
}

// The generator a self-played game with this seed uses for its choices.
inline core::Random ChoiceRandom(uint64_t seed) {
  return core::Random(core::Mix64(seed ^ 0x5EEDC17EULL));
}

}  // namespace carc::city
