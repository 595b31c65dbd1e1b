// Exported games ("carc-game" JSON, docs/formats.md) read back as action lists, so that
// `carc replay` replays a game exported by `carc-db export` exactly as it replays a text file.
//
// ParseGameJson accepts only a well-formed export: every field it needs present and of the
// documented type, sequences 1, 2, 3 ... without gaps, each state hash 16 hex digits. Anything
// else is an error message naming the field; it never half-reads a file. Whether the actions are
// legal, and whether each stored hash is the engine's, is for the replay to find out
// (FindHashMismatch).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "city/game.h"
#include "city/transcript.h"

namespace carc::tool {

struct GameJson {
  // Set-up and actions; action i has line number i + 1 and text "<actor> <action>".
  city::Transcript transcript;
  std::vector<uint64_t> sequences;     // per action, as exported (i + 1)
  std::vector<uint64_t> state_hashes;  // per action: the state hash after it
  std::optional<uint64_t> final_state_hash;
};

// Whether `text` looks like JSON rather than an action list: its first non-blank character is '{'.
bool LooksLikeJson(std::string_view text);

// A carc-game export, or what is wrong with it ("actions[3].state_hash: expected ...").
std::variant<GameJson, std::string> ParseGameJson(std::string_view text);

// The first exported action whose state hash the engine does not reach.
struct HashMismatch {
  size_t index = 0;   // into the actions
  city::Game before;  // the game before that action
  uint64_t engine_hash = 0;
};

// Replays the history of `replayed` (a game rebuilt from `exported.transcript`) from its start
// and compares the hash after each action with the exported one.
std::optional<HashMismatch> FindHashMismatch(const city::Game& replayed, const GameJson& exported);

}  // namespace carc::tool
