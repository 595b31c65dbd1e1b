// Random players, for self-play, tests, benchmarks and bots, written once for every game.
//
// They pick among the legal actions with a seeded portable generator, so the same seed plays the
// same game everywhere. Buffers are the caller's, so a loop of games allocates nothing.
//
// A game supplies its Game (IsOver, LegalActions, CurrentDecision, Apply) and, in its own
// namespace (found by argument-dependent lookup), EagerChoice(legal, random) for Policy::kEager,
// usually EagerPick with the game's own idea of a placing action.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/hash.h"

namespace carc::core {

template <typename Action, typename Event, size_t kEventsReserved>
struct PlayBuffers {
  std::vector<Action> legal;
  std::vector<Event> events;
  PlayBuffers() {
    legal.reserve(1024);
    events.reserve(kEventsReserved);
  }
};

// How a self-playing seat chooses among the legal actions.
enum class Policy : uint8_t {
  kUniform,  // every legal action equally likely
  kEager,    // the game's EagerChoice: places its pieces whenever it can
};

// A player who takes a placing action (one that `is_placing`) whenever there is one (nine times
// in ten), and otherwise chooses uniformly.
template <typename Action, typename IsPlacing>
Action EagerPick(const std::vector<Action>& legal, Random& random, IsPlacing is_placing) {
  size_t placing = 0;
  for (const Action& a : legal) placing += is_placing(a) ? 1 : 0;
  if (placing == 0 || random.Below(10) == 0) {
    return legal[static_cast<size_t>(random.Below(legal.size()))];
  }
  size_t pick = static_cast<size_t>(random.Below(placing));
  for (const Action& a : legal) {
    if (is_placing(a) && pick-- == 0) return a;
  }
  assert(false);
  return legal.front();
}

// Takes one random legal step (the chance draw included). Returns false if the game is over.
template <typename Game, typename Buffers>
bool RandomStep(Game& game, Random& random, Buffers& buffers, Policy policy = Policy::kUniform) {
  if (game.IsOver()) return false;
  game.LegalActions(&buffers.legal);
  const auto action = policy == Policy::kEager
                          ? EagerChoice(buffers.legal, random)
                          : buffers.legal[static_cast<size_t>(random.Below(buffers.legal.size()))];
  buffers.events.clear();
  [[maybe_unused]] const auto error =
      game.Apply(game.CurrentDecision().actor, action, &buffers.events);
  assert(!error && "a legal action must apply");
  return true;
}

}  // namespace carc::core
