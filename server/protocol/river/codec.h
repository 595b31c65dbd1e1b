// The mapping between Carcassonne's engine values (engine/river/) and its wire messages
// (proto/carcassonne/river/v1/river.proto).
//
// The server encodes with ToProto; a C++ client (and the server, for a Move's action) decodes
// with FromProto. Decoding never trusts the input: an enum value the package does not define, a
// number that does not fit the engine's type or range (coordinates in int8, rotations 0-3, tile
// ids below core::kMaxTiles, feature indices below core::kMaxFeaturesPerTile), a seat beyond the
// game's players, a points list that is not one entry per seat, a field that the action's kind
// does not use: all come back as nullopt. The River's overloads live in their own namespace, so
// they never meet The City's (protocol/codec.h) in overload resolution. Depends on the engine and
// the generated messages only.
#pragma once

#include <optional>

#include "carcassonne/river/v1/river.pb.h"
#include "river/action.h"
#include "river/event.h"
#include "river/public_state.h"

namespace carc::protocol::river_wire {

namespace rv1 = ::carcassonne::river::v1;

rv1::Action ToProto(const river::Action& action);
std::optional<river::Action> FromProto(const rv1::Action& action);

rv1::Decision ToProto(const river::Decision& decision, int turn_player);
// The decision with its turn player (what a DecisionRequested event carries). `players`: the
// game's seats, which the actor and the turn player must fit.
std::optional<river::DecisionRequested> FromProto(const rv1::Decision& decision, int players);

// `players`: how many seats the game has (2-5): the points lists carry one entry per seat, and
// decoding requires exactly that many and seats below it.
rv1::Event ToProto(const river::Event& event, int players);
std::optional<river::Event> FromProto(const rv1::Event& event, int players);

rv1::PublicState ToProto(const river::PublicState& state);
std::optional<river::PublicState> FromProto(const rv1::PublicState& state);

}  // namespace carc::protocol::river_wire
