// Action-list files: a game's set-up and the actions applied to it, as text (docs/formats.md).
//
//   # any comment
//   game the-city
//   players 4
//   seed 42
//   tileset the-city-reconstruction 1     (optional: checked against the tile set in use)
//   order 12 5 33 ...                     (optional: the stacks; without it, shuffled from seed)
//   chance draw 12
//   p0 place 0 0 1
//   ...
//
// Header lines come first; every other line is one action (city/notation.h).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "city/game.h"
#include "core/tileset.h"

namespace carc::city {

struct ActionLine {
  int line = 0;  // 1-based line number in the file
  std::string text;
};

struct Transcript {
  int players = 4;
  uint64_t seed = 0;
  std::string tileset_id;  // empty: not given
  int tileset_version = -1;
  std::optional<std::vector<int>> order;
  std::vector<ActionLine> actions;
};

struct TranscriptError {
  int line = 0;
  std::string message;
  std::string ToString() const;
};

std::variant<Transcript, TranscriptError> ParseTranscript(std::string_view text);

// The action list of a game so far, with its header (the order is written when `with_order`).
std::string FormatTranscript(const Game& game, bool with_order);

// The outcome of replaying a transcript: the game as far as it got, and the first failure.
struct ReplayResult {
  std::optional<Game> game;  // empty if the game could not even be created
  std::optional<TranscriptError> failure;
  std::optional<Error> error;  // the engine's reason, when an action was refused
  int applied = 0;
};
ReplayResult Replay(const std::shared_ptr<const core::TileSet>& tiles, const Config& base,
                    const Transcript& transcript);

}  // namespace carc::city
