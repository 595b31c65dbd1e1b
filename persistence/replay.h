// Rebuilding a stored game with the engine: the one place that turns the log back into a Game.
//
// The game is created from its stored set-up (tile set, players, seed, drawing order), then each
// stored action is parsed in the game's context, applied by the engine for the stored seat, and
// the engine's hash after it is compared with the stored one. The first disagreement stops the
// replay and says where: the server then marks the game damaged instead of playing on; the tools
// report it.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "city/game.h"
#include "persistence/store.h"

namespace carc::persistence {

struct ReplayedGame {
  std::optional<city::Game> game;     // absent for a game never started, or a set-up that fails
  size_t applied = 0;                 // actions applied and checked
  std::optional<std::string> damage;  // the first problem, if any
};

// Called after each action is applied: the stored record, the action, its events.
using ReplayStep = std::function<void(const ActionRecord&, const city::Action&,
                                      std::span<const city::Event>, const city::Game&)>;

// The seat of an actor as stored: the player, or -1 for the server's tile draw.
int StoredSeat(city::Actor actor);

ReplayedGame ReplayStored(const StoredGame& stored,
                          const std::shared_ptr<const core::TileSet>& tiles,
                          const ReplayStep& on_step = {});

}  // namespace carc::persistence
