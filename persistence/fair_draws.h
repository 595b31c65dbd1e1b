// Provably fair draws (docs/fairness.md). When a game starts, the server writes down what decides
// its draws as a short text, the proof: the rule set, the seed, the tiles in drawing order and a
// fresh 128-bit secret salt. It publishes the SHA-256 of that text, the commitment, at once, and
// reveals the proof only when the game is over. The salt keeps the commitment from being searched
// (nobody can try seeds until one hashes to it); the hash keeps the server from changing the
// order afterwards.
//
// Anyone can then check a finished game: the proof hashes to the commitment published at the
// start, the order in it is the one the rule set deals from its seed, every tile draw in the
// game's log was that order's next tile, and every state the log records is the engine's on that
// seed and order (which covers what the seed lays besides the order: The Castle's wall tiles).
// VerifyDraws is that check, for carc-db (from the database) and carc-client (from a Replay over
// the protocol).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/rule_set.h"

namespace carc::persistence {

// What the proof text says.
struct DrawProof {
  std::string rule_set;
  int rule_set_version = 0;
  uint64_t seed = 0;
  std::vector<int> order;  // tile ids in drawing order
  std::string salt;        // 32 lowercase hex digits
  friend bool operator==(const DrawProof&, const DrawProof&) = default;
};

using DrawSalt = std::array<uint8_t, 16>;

// Lowercase hex of the SHA-256 of `text`.
std::string Sha256Hex(std::string_view text);

// The proof's canonical text:
//   carc-draws 1\nrule-set <id> <version>\nseed <seed>\norder <ids>\nsalt <hex>\n
std::string FormatDrawProof(const DrawProof& proof);
// A proof text back, or why it is not one (only the canonical text is accepted).
std::variant<DrawProof, std::string> ParseDrawProof(std::string_view text);

struct DrawCommitment {
  std::string commitment;  // Sha256Hex(proof)
  std::string proof;
};
DrawCommitment CommitToDraws(const core::GameType& type, uint64_t seed, std::vector<int> order,
                             const DrawSalt& salt);

// Applies the log's action number `index` (0-based) to `game`, as the caller's log holds it;
// returns why it could not be applied (the engine's refusal), nullopt when it was.
using ApplyLogged = std::function<std::optional<std::string>(core::State& game, size_t index)>;

// The public-state hash that the caller's log (or replay) holds after its action number `index`.
using LoggedHash = std::function<uint64_t(size_t index)>;

struct FairDraws {
  size_t draws = 0;  // the tile draws checked against the order
};

// The whole check of one game's draws: `commitment` as published, `proof` as revealed, the game's
// rule set, players and options, and its `actions` logged actions applied one by one by `apply`.
// With `logged_hash`, the engine's state hash after each action must also be the logged one: the
// game is then checked to have been played on everything the proof's seed lays, not only on its
// order (The Castle's face-down wall tiles: a wall tile taken is in the hash by its number).
// Returns the number of draws checked, or the first reason the game fails.
std::variant<FairDraws, std::string> VerifyDraws(const core::RuleSet& rules, int players,
                                                 const core::Options& options,
                                                 std::string_view commitment,
                                                 std::string_view proof, size_t actions,
                                                 const ApplyLogged& apply,
                                                 const LoggedHash& logged_hash = {});

}  // namespace carc::persistence
