// Random players for Carcassonne (core/random_play.h), for self-play, tests, benchmarks and bots.
#pragma once

#include <cstdint>
#include <vector>

#include "core/hash.h"
#include "core/random_play.h"
#include "river/game.h"

namespace carc::river {

using PlayBuffers = core::PlayBuffers<Action, Event, 64>;
using core::Policy;
using core::RandomStep;

// A player who places a follower whenever the rules allow (nine times in ten), and otherwise
// chooses uniformly: games then score more features, and more farmers reach the end.
inline Action EagerChoice(const std::vector<Action>& legal, core::Random& random) {
  return core::EagerPick(legal, random,
                         [](const Action& a) { return a.kind == ActionKind::kPlaceFollower; });
}

// The generator a self-played game with this seed uses for its choices.
inline core::Random ChoiceRandom(uint64_t seed) {
  return core::Random(core::Mix64(seed ^ 0xCA2CA550ULL));
}

}  // namespace carc::river
