// The games hosted by one server, each with its own strand.
//
// The lobby maps game ids to rooms. The map is the only shared structure and is guarded by a
// mutex; a room's state is touched only on that room's strand, so no lock is ever held around a
// game. Sessions call the lobby with decoded messages; the lobby posts each game message to its
// room's strand, where the Room (server/room/) judges it and sends the replies.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "net/config.h"
#include "room/room.h"

namespace carc::server {

struct HostedRoom {
  HostedRoom(boost::asio::io_context& io, RoomOptions options,
             std::shared_ptr<const core::TileSet> tiles, TokenSource tokens)
      : strand(boost::asio::make_strand(io)),
        room(std::move(options), std::move(tiles), std::move(tokens)) {}
  boost::asio::strand<boost::asio::io_context::executor_type> strand;
  Room room;                                                // only on `strand`
  std::shared_ptr<boost::asio::steady_timer> retire_timer;  // only on `strand`, once finished
};

class Lobby {
 public:
  Lobby(boost::asio::io_context& io, const ServerConfig& config,
        std::shared_ptr<const core::TileSet> tiles, TokenSource tokens);

  // Handles one message of a session that has said Hello. Replies reach `peer`.
  void Handle(const std::shared_ptr<Peer>& peer, const v1::ClientMessage& message);
  // The session is closing: its seats go offline, it stops spectating.
  void Disconnected(const std::shared_ptr<Peer>& peer);

  size_t GameCount() const;
  // The server stops: pending timers are cancelled so that no work is left.
  void Stop();

 private:
  void Create(const std::shared_ptr<Peer>& peer, uint64_t request_id, const v1::CreateGame& create);
  void List(const std::shared_ptr<Peer>& peer, uint64_t request_id);
  std::shared_ptr<HostedRoom> Find(const std::string& game_id) const;
  // A finished game leaves the lobby after the retention time (its players saw the end).
  void Retire(const std::shared_ptr<HostedRoom>& hosted);
  std::string NewGameId();

  boost::asio::io_context& io_;
  const ServerConfig& config_;
  std::shared_ptr<const core::TileSet> tiles_;
  TokenSource tokens_;
  mutable std::mutex mutex_;  // guards rooms_, next_id_ and joined_
  std::map<std::string, std::shared_ptr<HostedRoom>> rooms_;
  size_t finished_ = 0;  // finished games still in rooms_ (not counted against max_games)
  uint64_t next_id_ = 1;
  // Rooms each connection has joined or watched, so its departure reaches them.
  std::map<const Peer*, std::map<const HostedRoom*, std::weak_ptr<HostedRoom>>> joined_;
};

// Encodes and sends one message (replies made outside a room).
void SendMessage(Peer& peer, const v1::ServerMessage& message);
void SendError(Peer& peer, uint64_t request_id, v1::ErrorCode code, const std::string& reason);

}  // namespace carc::server
