// The mapping between the engine's values and the wire protocol's messages (proto/).
//
// The server encodes actions, events, the public state and refusals with ToProto; a C++ client
// (the command-line client, the tests) decodes them with FromProto. Decoding never trusts the
// input: a value that does not fit the engine's types comes back as nullopt, and the server
// answers ERROR_CODE_MALFORMED_MESSAGE or ERROR_CODE_RULE_MALFORMED. Depends on the engine and
// the generated messages only.
#pragma once

#include <optional>

#include "carcassonne/city/v1/city.pb.h"
#include "city/action.h"
#include "city/event.h"
#include "city/public_state.h"
#include "city/rules.h"

namespace carc::protocol {

namespace v1 = ::carcassonne::city::v1;

inline constexpr uint32_t kProtocolVersion = 1;

v1::Action ToProto(const city::Action& action);
std::optional<city::Action> FromProto(const v1::Action& action);

v1::Decision ToProto(const city::Decision& decision, int turn_player);

// `players`: how many seats the points lists carry.
v1::Event ToProto(const city::Event& event, int players);
std::optional<city::Event> FromProto(const v1::Event& event);

v1::PublicState ToProto(const city::PublicState& state);
std::optional<city::PublicState> FromProto(const v1::PublicState& state);

v1::ErrorCode ToErrorCode(city::Error error);

}  // namespace carc::protocol
