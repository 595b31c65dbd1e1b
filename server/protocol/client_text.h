// The rule for every string a client sends: at most a given number of bytes, valid UTF-8, no
// control characters.
//
// The session checks each ClientMessage once, as it is decoded, before the lobby or a room sees
// it; a message that breaks the rule is refused with ERROR_CODE_BAD_TEXT, naming the field and the
// limit, and nothing changes. So no handler needs its own length check, and no client's text
// reaches a log line, a reply or the game log unbounded. The check walks the message with
// protobuf reflection: a string or bytes field added to the protocol is covered the day it is
// added (with kDefaultTextBytes until it gets its own limit; a test insists that it gets one).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "carcassonne/server/v2/server.pb.h"

namespace carc::protocol {

namespace wire = ::carcassonne::server::v2;

// The limit of a string or bytes field that the table below does not name.
inline constexpr size_t kDefaultTextBytes = 64;
// A chat line (SendChat.text): about two lines of a chat panel.
inline constexpr size_t kChatTextBytes = 200;

// The most bytes each string and bytes field of the ClientMessage tree may hold, by the field's
// full name ("carcassonne.server.v2.JoinSeat.player_name").
const std::map<std::string, size_t, std::less<>>& ClientTextLimits();

// The limit of one field: its entry in ClientTextLimits, or kDefaultTextBytes.
size_t TextLimitOf(std::string_view full_name);

struct BadText {
  std::string field;    // the path from ClientMessage, e.g. "join_seat.player_name"
  std::string reason;   // a sentence for the Error: the field and the rule it breaks
  size_t offset = 0;    // where in the field's value the problem is (0 for a length)
  std::string excerpt;  // the start of the value, escaped for a log line (LogSafe)
};

// The first field of `message` (a ClientMessage, or anything below one) that breaks the rule;
// nullopt when every field keeps it. Strings must be valid UTF-8 without control characters
// (C0, DEL, C1, U+2028, U+2029); bytes fields are only bounded.
std::optional<BadText> CheckClientText(const google::protobuf::Message& message);

// A frame that does not parse as a ClientMessage because a string in it is not valid UTF-8 (the
// protobuf library refuses those): the bad field, and the request id the frame carries. nullopt
// when the frame is broken in some other way.
struct BadFrameText {
  uint64_t request_id = 0;
  BadText bad;
};
std::optional<BadFrameText> FindBadTextInFrame(std::string_view frame);

}  // namespace carc::protocol
