// Action-list files of The Castle: a game's set-up and the actions applied to it, as text
// (docs/formats.md).
//
//   # any comment
//   game the-castle
//   players 2
//   seed 42
//   tileset castle 1                       (optional: checked against the tile set in use)
//   order 12 5 33 ...                      (optional: every castle tile; else shuffled from seed)
//   chance draw 12
//   p0 place 4 12 0
//   ...
//
// Header lines come first; every other line is one action (castle/notation.h). The wall tiles
// follow from the seed.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <variant>

#include "castle/game.h"
#include "core/tileset.h"
#include "core/transcript.h"

namespace carc::castle {

using core::ActionLine;
using core::TranscriptError;

struct Transcript : core::TranscriptFields {
  Transcript() : TranscriptFields(2) {}
};

std::variant<Transcript, TranscriptError> ParseTranscript(std::string_view text);

// The action list of a game so far, with its header (the order is written when `with_order`).
std::string FormatTranscript(const Game& game, bool with_order);

// The outcome of replaying a transcript on the board compiled in: the game as far as it got,
// and the first failure.
using ReplayResult = core::ReplayResult<Game, Error>;
ReplayResult Replay(const std::shared_ptr<const core::TileSet>& tiles,
                    const Transcript& transcript);

}  // namespace carc::castle
