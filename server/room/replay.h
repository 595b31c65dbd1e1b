// Replays for clients, built from the game log: GetReplay gets a game's whole log as deltas,
// Seek the public state at one step. Both rebuild the game with the rule set (id and version)
// it was stored with (persistence::ReplayStored), so what a client sees is what the engine says
// the log means; a log that does not replay is answered with ERROR_CODE_GAME_DAMAGED, a game
// whose rule set this server no longer has with ERROR_CODE_NO_SUCH_RULE_SET.
#pragma once

#include <memory>

#include "persistence/store.h"
#include "protocol/envelope.h"
#include "registry.h"

namespace carc::server {

namespace wire = protocol::wire;

// The answer to GetReplay (a Replay, or an Error) for a stored game.
wire::ServerMessage ReplayMessage(const persistence::StoredGame& stored,
                                  const RuleSetRegistry& rule_sets);
// The answer to Seek: the public state after `sequence` actions (a Snapshot, or an Error).
wire::ServerMessage SeekMessage(const persistence::StoredGame& stored,
                                const RuleSetRegistry& rule_sets, uint64_t sequence);
// A stored game's summary, as in game lists (no seat is online: this is the log's view).
wire::GameInfo InfoFromRecord(const persistence::GameRecord& game);

}  // namespace carc::server
