// Fair draws in a room (docs/fairness.md): the commitment a game makes when it starts, and what
// GameInfo shows of it. The commitment is public from the start; the proof (seed, drawing order,
// salt) only once the game has ended, so no message before the end says what will be drawn.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/rule_set.h"
#include "persistence/fair_draws.h"
#include "protocol/envelope.h"

namespace carc::server {

namespace wire = protocol::wire;

// The commitment to the draws of a game starting with `order`, with a fresh salt from the
// operating system's random source.
persistence::DrawCommitment CommitToStart(const core::GameType& type, uint64_t seed,
                                          std::vector<int> order);

// Whether a game in `status` has ended, so that its proof may be shown.
bool RevealsDrawProof(wire::GameStatus status);

// Fills GameInfo's fair-draws fields: the commitment, and the proof once the game has ended.
void AddDrawFields(const std::string& commitment, const std::string& proof, wire::GameStatus status,
                   wire::GameInfo* info);

}  // namespace carc::server
