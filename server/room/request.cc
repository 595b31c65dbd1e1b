#include "room/request.h"

namespace carc::server {

std::optional<RoomRequest> RoomRequestOf(const v1::ClientMessage& message) {
  // No default: every body case is named, so a new one is placed here before it builds.
  switch (message.body_case()) {
    case v1::ClientMessage::kJoinSeat:
      return &message.join_seat();
    case v1::ClientMessage::kLeaveSeat:
      return &message.leave_seat();
    case v1::ClientMessage::kStartGame:
      return &message.start_game();
    case v1::ClientMessage::kSpectate:
      return &message.spectate();
    case v1::ClientMessage::kResume:
      return &message.resume();
    case v1::ClientMessage::kMove:
      return &message.move();
    case v1::ClientMessage::kHello:
    case v1::ClientMessage::kPing:
    case v1::ClientMessage::kCreateGame:
    case v1::ClientMessage::kListGames:
    case v1::ClientMessage::kGetReplay:
    case v1::ClientMessage::kSeek:
    case v1::ClientMessage::kGetTileSet:
    case v1::ClientMessage::BODY_NOT_SET:
      return std::nullopt;
  }
  return std::nullopt;  // a value outside the enumeration: not a request this server knows
}

const std::string& GameIdOf(const RoomRequest& request) {
  return std::visit([](const auto* body) -> const std::string& { return body->game_id(); },
                    request);
}

bool CatchesUp(const RoomRequest& request) {
  return std::holds_alternative<const v1::Spectate*>(request) ||
         std::holds_alternative<const v1::Resume*>(request);
}

}  // namespace carc::server
