// Replays for clients, built from the game log: GetReplay gets a game's whole log as deltas,
// Seek the public state at one step. Both rebuild the game with the engine
// (persistence::ReplayStored), so what a client sees is what the engine says the log means;
// a log that does not replay is answered with ERROR_CODE_GAME_DAMAGED.
#pragma once

#include <memory>

#include "persistence/store.h"
#include "protocol/codec.h"

namespace carc::server {

namespace v1 = ::carcassonne::city::v1;

// The answer to GetReplay (a Replay, or an Error) for a stored game.
v1::ServerMessage ReplayMessage(const persistence::StoredGame& stored,
                                const std::shared_ptr<const core::TileSet>& tiles);
// The answer to Seek: the public state after `sequence` actions (a Snapshot, or an Error).
v1::ServerMessage SeekMessage(persistence::StoredGame stored,
                              const std::shared_ptr<const core::TileSet>& tiles, uint64_t sequence);
// A stored game's summary, as in game lists (no seat is online: this is the log's view).
v1::GameInfo InfoFromRecord(const persistence::GameRecord& game);

}  // namespace carc::server
