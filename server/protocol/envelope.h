// The envelope of the wire protocol (proto/carcassonne/server/v2/server.proto), which every game
// shares, and the protocol version this build speaks.
#pragma once

#include <cstdint>

#include "carcassonne/server/v2/server.pb.h"

namespace carc::protocol {

namespace wire = ::carcassonne::server::v2;

// What Hello and Welcome carry; a client of another version is answered
// ERROR_CODE_UNSUPPORTED_VERSION.
inline constexpr uint32_t kProtocolVersion = 2;

}  // namespace carc::protocol
