// The server: opens the game log and resumes its unfinished games, accepts the players'
// connections on one port (WebSocket, the HTTP health check and the web client's files) and,
// with --operator-port, the operator's on another (/healthz, /metrics), hosts the lobby, runs
// the log's housekeeping, and stops gracefully.
//
// Threading: one io_context run by `threads` threads; the acceptor, each session and each room
// have their own strand (docs/server.md). The io_context runs out of work once the server has
// stopped: its threads return from run() and the Server may be destroyed.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <memory>

#include "net/config.h"
#include "net/listener.h"
#include "net/lobby.h"
#include "net/session.h"

namespace carc::server {

class Server {
 public:
  Server(boost::asio::io_context& io, ServerConfig config, RuleSetRegistry rule_sets,
         TokenSource tokens = OsRandomToken, Clock clock = SteadyNow);
  ~Server();

  // Opens the game log, resumes its games, binds and starts accepting; returns an error message
  // if the log or the address cannot be used.
  std::optional<std::string> Start();
  // Stops gracefully (any thread, once): no new connection or request is taken (requests get
  // ERROR_CODE_SHUTTING_DOWN); the commits in flight finish and their deltas are sent; then
  // every client is sent ServerClosing and a close frame. Clients that have not gone after
  // `shutdown_grace` are cut off. The io_context then runs out of work.
  void Stop(const std::string& reason);
  uint16_t port() const { return players_.port(); }
  // The operator's port (--operator-port), once started; 0 when there is none.
  uint16_t operator_port() const { return operator_ ? operator_->port() : 0; }
  size_t Connections() const { return registry_.Count(); }
  Lobby& lobby() { return *lobby_; }
  Storage& storage() { return *storage_; }

 private:
  std::optional<std::string> OpenLog();
  void OnPlayerConnection(boost::asio::ip::tcp::socket socket, std::shared_ptr<void> reserve);
  void OnOperatorConnection(boost::asio::ip::tcp::socket socket, std::shared_ptr<void> reserve);
  void ScheduleHousekeeping();
  void StopStep();
  void CountDescriptors();
  bool PlayersHaveRoom() const;  // on the players' listener's strand

  boost::asio::io_context& io_;
  ServerConfig config_;
  RuleSetRegistry rule_sets_;  // handed to the lobby when the log is open
  TokenSource tokens_;
  Clock clock_;
  Metrics metrics_;                    // outlives the lobby, whose rooms and bots report to it
  std::unique_ptr<Storage> storage_;   // outlives the lobby: rooms write through its journal
  std::unique_ptr<BotPool> bot_pool_;  // outlives the lobby: rooms' bots think on it
  std::unique_ptr<Lobby> lobby_;
  SessionRegistry registry_;           // the players' connections
  SessionRegistry operator_registry_;  // the operator's connections
  std::unique_ptr<SessionContext> context_;
  boost::asio::steady_timer housekeeping_;
  Listener players_;
  std::unique_ptr<Listener> operator_;  // with --operator-port
  uint64_t next_session_ = 1;
  // The process's descriptor limit (0: none), and the descriptors it held at start, before any
  // connection: the players' port leaves the last ones to the operator's and the log.
  size_t descriptor_limit_ = 0;
  size_t descriptors_at_start_ = 0;

  // Stopping (on the stop strand).
  boost::asio::steady_timer stop_timer_;
  std::string stop_reason_;
  std::chrono::steady_clock::time_point stop_deadline_{};
  std::chrono::steady_clock::time_point stop_began_{};
  bool told_clients_ = false;
};

}  // namespace carc::server
