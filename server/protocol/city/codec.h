// The mapping between The City's values (engine/city/) and its package of the wire protocol
// (proto/carcassonne/city/v1/city.proto).
//
// The server encodes actions, events and the public state with ToProto; a C++ client decodes them
// with FromProto. Decoding never trusts the input: a value that does not fit the engine's types
// comes back as nullopt. Depends on the engine and the generated messages only; the rest of the
// server reaches it through the City's GameCodec (city/game_codec.h).
#pragma once

#include <optional>

#include "carcassonne/city/v1/city.pb.h"
#include "city/action.h"
#include "city/event.h"
#include "city/public_state.h"
#include "city/rules.h"

namespace carc::protocol {

namespace citypb = ::carcassonne::city::v1;

citypb::Action ToProto(const city::Action& action);
std::optional<city::Action> FromProto(const citypb::Action& action);

citypb::Decision ToProto(const city::Decision& decision, int turn_player);

// `players`: how many seats the points lists carry.
citypb::Event ToProto(const city::Event& event, int players);
std::optional<city::Event> FromProto(const citypb::Event& event);

citypb::PublicState ToProto(const city::PublicState& state);
std::optional<city::PublicState> FromProto(const citypb::PublicState& state);

}  // namespace carc::protocol
