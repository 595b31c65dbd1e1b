// Random players for Carcassonne, for self-play, tests, benchmarks and bots.
//
// They pick among the legal actions with a seeded portable generator, so the same seed plays the
// same game everywhere. Buffers are the caller's, so a loop of games allocates nothing.
#pragma once

#include <cassert>
#include <cstdint>
#include <vector>

#include "core/hash.h"
#include "river/game.h"

namespace carc::river {

struct PlayBuffers {
  std::vector<Action> legal;
  std::vector<Event> events;
  PlayBuffers() {
    legal.reserve(1024);
    events.reserve(64);
  }
};

// How a self-playing seat chooses among the legal actions.
enum class Policy : uint8_t {
  kUniform,  // every legal action equally likely
  kEager,    // EagerChoice: places followers whenever it can
};

// A player who places a follower whenever the rules allow (nine times in ten), and otherwise
// chooses uniformly: games then score more features, and more farmers reach the end.
inline Action EagerChoice(const std::vector<Action>& legal, core::Random& random) {
  size_t placing = 0;
  for (const Action& a : legal) placing += a.kind == ActionKind::kPlaceFollower;
  if (placing == 0 || random.Below(10) == 0) {
    return legal[static_cast<size_t>(random.Below(legal.size()))];
  }
  size_t pick = static_cast<size_t>(random.Below(placing));
  for (const Action& a : legal) {
    if (a.kind == ActionKind::kPlaceFollower && pick-- == 0) return a;
  }
  assert(false);
  return legal.front();
}

// Takes one random legal step (the chance draw included). Returns false if the game is over.
inline bool RandomStep(Game& game, core::Random& random, PlayBuffers& buffers,
                       Policy policy = Policy::kUniform) {
  if (game.IsOver()) return false;
  game.LegalActions(&buffers.legal);
  const Action action =
      policy == Policy::kEager
          ? EagerChoice(buffers.legal, random)
          : buffers.legal[static_cast<size_t>(random.Below(buffers.legal.size()))];
  buffers.events.clear();
  [[maybe_unused]] const auto error =
      game.Apply(game.CurrentDecision().actor, action, &buffers.events);
  assert(!error && "a legal action must apply");
  return true;
}

// The generator a self-played game with this seed uses for its choices.
inline core::Random ChoiceRandom(uint64_t seed) {
  return core::Random(core::Mix64(seed ^ 0xCA2CA550ULL));
}

}  // namespace carc::river
