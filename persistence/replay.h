// Rebuilding a stored game with its rule set: the one place that turns the log back into a game.
//
// The game is created by the rule set it was stored with (id and version, engine/registry.h),
// from its stored set-up (tile set, players, options, seed, drawing order); then each stored
// action is applied in the rule set's notation for the stored seat, and the state hash after it
// is compared with the stored one. The first disagreement stops the replay and says where: the
// server then marks the game damaged instead of playing on; the tools report it. A game whose
// rule set, version or tile set this build does not have is refused with a message naming it,
// never replayed by other rules.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "core/rule_set.h"
#include "persistence/store.h"
#include "registry.h"

namespace carc::persistence {

struct ReplayedGame {
  std::unique_ptr<core::State> state;  // absent for a game never started, or a set-up that fails
  size_t applied = 0;                  // actions applied and checked
  std::optional<std::string> damage;   // the first problem, if any
};

// Called after each action is applied: the stored record, the text of the events it caused (with
// EventText::kFormat; empty otherwise), the state after it.
using ReplayStep = std::function<void(const ActionRecord&, std::span<const std::string> events,
                                      const core::State&)>;

// Whether a replay formats each action's events as text: only a reader of the events needs it,
// and it is a good share of a replay's time (a restart replays every unfinished game).
enum class EventText : uint8_t { kSkip, kFormat };

// The seat of an actor as stored: the player, or -1 for the server's tile draw.
int StoredSeat(core::Actor actor);

// Replays `stored` with `rules`, which must be the rule set (id, version and tile set) it was
// stored with.
ReplayedGame ReplayStored(const StoredGame& stored, const core::RuleSet& rules,
                          const ReplayStep& on_step = {}, EventText text = EventText::kSkip);
// Replays `stored` with the rule set the registry holds for it.
ReplayedGame ReplayStored(const StoredGame& stored, const RuleSetRegistry& registry,
                          const ReplayStep& on_step = {}, EventText text = EventText::kSkip);

}  // namespace carc::persistence
