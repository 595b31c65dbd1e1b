// The server: opens the game log and resumes its unfinished games, accepts connections on one
// port (WebSocket and the HTTP health check), hosts the lobby, runs the log's housekeeping, and
// shuts down gracefully.
//
// Threading: one io_context run by `threads` threads; the acceptor, each session and each room
// have their own strand (docs/server.md).
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <memory>

#include "net/config.h"
#include "net/lobby.h"
#include "net/session.h"

namespace carc::server {

class Server {
 public:
  Server(boost::asio::io_context& io, ServerConfig config,
         std::shared_ptr<const core::TileSet> tiles, TokenSource tokens = OsRandomToken);

  // Opens the game log, resumes its games, binds and starts accepting; returns an error message
  // if the log or the address cannot be used.
  std::optional<std::string> Start();
  // Stops accepting, tells every client, and closes; games in progress keep their state.
  void Stop(const std::string& reason);
  uint16_t port() const { return port_; }
  size_t Connections() const { return registry_.Count(); }
  Lobby& lobby() { return *lobby_; }
  Storage& storage() { return *storage_; }

 private:
  std::optional<std::string> OpenLog();
  void DoAccept();
  void ScheduleHousekeeping();

  boost::asio::io_context& io_;
  ServerConfig config_;
  std::shared_ptr<const core::TileSet> tiles_;
  TokenSource tokens_;
  std::unique_ptr<Storage> storage_;  // outlives the lobby: rooms write through its journal
  std::unique_ptr<Lobby> lobby_;
  SessionRegistry registry_;
  boost::asio::steady_timer housekeeping_;
  boost::asio::ip::tcp::acceptor acceptor_;
  uint16_t port_ = 0;
  uint64_t next_session_ = 1;
};

}  // namespace carc::server
