// Carcassonne: The Castle's side of the wire protocol: the GameCodec of the rule set "the-castle"
// (engine/castle/rule_set.h), with its messages in proto/carcassonne/castle/v1/castle.proto and
// the value mapping in protocol/castle/codec.h.
#pragma once

#include "castle/public_state.h"
#include "protocol/castle/codec.h"
#include "protocol/game_codec.h"

namespace carc::protocol {

// The one codec of the rule set "the-castle"; it holds nothing and lives for the program.
const GameCodec& CastleCodec();

// The Castle's public state behind a view that CastleCodec().DecodeState made, for client code
// that draws the board; null for a view of another game. Its config carries no layout: the
// board is CastleBoardOf's.
const castle::PublicState* CastleStateOf(const PublicView& view);
// The castle's board behind such a view; null for a view of another game.
const castle_wire::Board* CastleBoardOf(const PublicView& view);

}  // namespace carc::protocol
