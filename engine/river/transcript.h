// Action-list files of Carcassonne: a game's set-up and the actions applied to it, as text
// (docs/formats.md).
//
//   # any comment
//   game carcassonne
//   players 3
//   options river=1                        (optional: without it, the River is played)
//   seed 42
//   tileset base-and-river 1               (optional: checked against the tile set in use)
//   order 72 80 75 ...                     (optional: every tile; without it, shuffled from seed)
//   chance draw 80
//   p0 place 1 0 0
//   ...
//
// Header lines come first; every other line is one action (river/notation.h).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/tileset.h"
#include "core/transcript.h"
#include "river/game.h"

namespace carc::river {

using core::ActionLine;
using core::TranscriptError;

struct Transcript : core::TranscriptFields {
  Transcript() : TranscriptFields(2) {}
  bool river = true;
};

std::variant<Transcript, TranscriptError> ParseTranscript(std::string_view text);

// The action list of a game so far, with its header (the order is written when `with_order`).
std::string FormatTranscript(const Game& game, bool with_order);

// The outcome of replaying a transcript: the game as far as it got, and the first failure.
using ReplayResult = core::ReplayResult<Game, Error>;
ReplayResult Replay(const std::shared_ptr<const core::TileSet>& tiles,
                    const Transcript& transcript);

}  // namespace carc::river
