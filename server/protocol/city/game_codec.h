// The City's GameCodec (protocol/game_codec.h): its games on the wire, in the package
// carcassonne.city.v1.
#pragma once

#include "city/public_state.h"
#include "protocol/game_codec.h"

namespace carc::protocol {

const GameCodec& CityCodec();

// The typed public state behind a view of a City game, for code that draws The City (the
// command-line client); null for a view of another game.
const city::PublicState* CityStateOf(const PublicView& view);

}  // namespace carc::protocol
