// Replays for clients, built from the game log: GetReplay gets a game's whole log as deltas,
// Seek the public state at one step. Both rebuild the game with the rule set (id and version)
// it was stored with (persistence::ReplayStored), so what a client sees is what the engine says
// the log means; a log that does not replay is answered with ERROR_CODE_GAME_DAMAGED, a game
// whose rule set this server no longer has with ERROR_CODE_NO_SUCH_RULE_SET.
#pragma once

#include <memory>
#include <string_view>

#include "persistence/store.h"
#include "protocol/envelope.h"
#include "registry.h"

namespace carc::server {

namespace wire = protocol::wire;

// Game ids name `shard`, the server's shard ("" alone; room/game_ids.h).
// The answer to GetReplay (a Replay, or an Error) for a stored game.
wire::ServerMessage ReplayMessage(const persistence::StoredGame& stored,
                                  const RuleSetRegistry& rule_sets, std::string_view shard = "");
// The answer to Seek: the public state after `sequence` actions (a Snapshot, or an Error).
wire::ServerMessage SeekMessage(const persistence::StoredGame& stored,
                                const RuleSetRegistry& rule_sets, uint64_t sequence,
                                std::string_view shard = "");
// A stored game's summary, as in game lists (no seat is online: this is the log's view).
wire::GameInfo InfoFromRecord(const persistence::GameRecord& game, std::string_view shard = "");

}  // namespace carc::server
