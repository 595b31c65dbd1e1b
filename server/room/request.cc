#include "room/request.h"

namespace carc::server {

std::optional<RoomRequest> RoomRequestOf(const wire::ClientMessage& message) {
  // No default: every body case is named, so a new one is placed here before it builds.
  switch (message.body_case()) {
    case wire::ClientMessage::kJoinSeat:
      return &message.join_seat();
    case wire::ClientMessage::kLeaveSeat:
      return &message.leave_seat();
    case wire::ClientMessage::kStartGame:
      return &message.start_game();
    case wire::ClientMessage::kSpectate:
      return &message.spectate();
    case wire::ClientMessage::kResume:
      return &message.resume();
    case wire::ClientMessage::kMove:
      return &message.move();
    case wire::ClientMessage::kResign:
      return &message.resign();
    case wire::ClientMessage::kRematch:
      return &message.rematch();
    case wire::ClientMessage::kSendChat:
      return &message.send_chat();
    case wire::ClientMessage::kMuteSeat:
      return &message.mute_seat();
    case wire::ClientMessage::kHello:
    case wire::ClientMessage::kPing:
    case wire::ClientMessage::kCreateGame:
    case wire::ClientMessage::kListGames:
    case wire::ClientMessage::kGetReplay:
    case wire::ClientMessage::kSeek:
    case wire::ClientMessage::kGetTileSet:
    case wire::ClientMessage::BODY_NOT_SET:
      return std::nullopt;
  }
  return std::nullopt;  // a value outside the enumeration: not a request this server knows
}

const std::string& GameIdOf(const RoomRequest& request) {
  return std::visit([](const auto* body) -> const std::string& { return body->game_id(); },
                    request);
}

bool CatchesUp(const RoomRequest& request) {
  return std::holds_alternative<const wire::Spectate*>(request) ||
         std::holds_alternative<const wire::Resume*>(request);
}

}  // namespace carc::server
