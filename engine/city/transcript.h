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
#include "core/transcript.h"

namespace carc::city {

using core::ActionLine;
using core::TranscriptError;

struct Transcript : core::TranscriptFields {
  Transcript() : TranscriptFields(4) {}
};

std::variant<Transcript, TranscriptError> ParseTranscript(std::string_view text);

// The action list of a game so far, with its header (the order is written when `with_order`).
std::string FormatTranscript(const Game& game, bool with_order);

// The outcome of replaying a transcript: the game as far as it got, and the first failure.
using ReplayResult = core::ReplayResult<Game, Error>;
ReplayResult Replay(const std::shared_ptr<const core::TileSet>& tiles, const Config& base,
                    const Transcript& transcript);

}  // namespace carc::city
