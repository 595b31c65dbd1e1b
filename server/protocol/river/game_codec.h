// Carcassonne's (with or without the River) side of the wire protocol: the GameCodec of the rule
// set "carcassonne" (engine/river/rule_set.h), with its messages in
// proto/carcassonne/river/v1/river.proto and the value mapping in protocol/river/codec.h.
#pragma once

#include "protocol/game_codec.h"
#include "river/public_state.h"

namespace carc::protocol {

// The one codec of the rule set "carcassonne"; it holds nothing and lives for the program.
const GameCodec& RiverCodec();

// The River's public state behind a view that RiverCodec().DecodeState made, for client code
// that draws the board; null for a view of another game.
const river::PublicState* RiverStateOf(const PublicView& view);

}  // namespace carc::protocol
