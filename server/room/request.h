// The requests a room handles, and the game each one names.
//
// Eight ClientMessage bodies are addressed to one game and answered by its Room: JoinSeat,
// LeaveSeat, StartGame, Spectate, Resume, Move, Resign, Rematch, SendChat and MuteSeat.
// RoomRequestOf is the one place that says which: its switch names every body case, so a body
// added to the protocol does not build
// (-Werror=switch) until it is placed here, on the room's side or not. A RoomRequest is visited
// with std::visit, so a room, or any other visitor, that misses one of them does not build
// either. The lobby routes with these to hosted rooms and to rooms restored from the log, and
// the dispatch fuzzer goes the same way.
#pragma once

#include <optional>
#include <string>
#include <variant>

#include "protocol/envelope.h"

namespace carc::server {

namespace wire = protocol::wire;

// The body of a room request; it points into the ClientMessage it came from.
using RoomRequest = std::variant<const wire::JoinSeat*, const wire::LeaveSeat*,
                                 const wire::StartGame*, const wire::Spectate*, const wire::Resume*,
                                 const wire::Move*, const wire::Resign*, const wire::Rematch*,
                                 // chat
                                 const wire::SendChat*, const wire::MuteSeat*>;

// The body of `message` when a room handles it; nullopt for the session's messages (Hello,
// Ping), the lobby's (CreateGame, ListGames, GetReplay, Seek, GetTileSet) and an empty body.
std::optional<RoomRequest> RoomRequestOf(const wire::ClientMessage& message);

// The id of the game the request is addressed to.
const std::string& GameIdOf(const RoomRequest& request);

// Resume and Spectate of an ended game are answered even once it is no longer hosted.
bool CatchesUp(const RoomRequest& request);

}  // namespace carc::server
