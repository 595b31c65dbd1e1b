// A listening TCP socket that hands every connection it accepts to its owner, and copes with
// running out of file descriptors. The server has two: the players' port (WebSocket, the web
// client's files) and the operator's port (/healthz, /metrics), each with a spare descriptor
// of its own. The players' port leaves the last descriptors of the process to the operator's
// port and the game log (`has_room`), so that a flood of connections on the players' side never
// keeps the operator's health check waiting (docs/server.md, "The life of a connection").
//
// Threading: the acceptor runs on its own strand; `on_connection` is called there, with the
// connection on a new strand of its own.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace carc::server {

class Listener {
 public:
  // `reserve`, when set, is the listener's spare descriptor lent to this connection: it is
  // opened again once the last copy is dropped. A connection that holds it may answer, not stay.
  using OnConnection =
      std::function<void(boost::asio::ip::tcp::socket socket, std::shared_ptr<void> reserve)>;

  // `name` names the listener in the log; `open_connections` is reported when descriptors run
  // out. `has_room`, when given, says whether a connection may take a descriptor now: without
  // room the listener behaves as when descriptors ran out (the spare answers one connection at a
  // time), so that what it leaves stays free for others (the operator's port, the game log).
  Listener(boost::asio::io_context& io, std::string name, OnConnection on_connection,
           std::function<size_t()> open_connections, std::function<bool()> has_room = {});
  ~Listener();
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;

  // Binds and listens (0 picks a free port); an error message when it cannot.
  std::optional<std::string> Listen(const std::string& address, uint16_t port);
  // Starts accepting (after Listen).
  void Start();
  // Stops accepting and closes the socket (any thread, once).
  void Stop();
  uint16_t port() const { return port_; }

 private:
  void DoAccept();
  void OnAccept(boost::system::error_code ec, boost::asio::ip::tcp::socket socket);
  // Out of descriptors (`why`): answers one connection on the spare one, or waits and tries
  // again.
  void OnDescriptorsExhausted(const std::string& why);
  std::shared_ptr<void> LeaseReserve();

  boost::asio::io_context& io_;
  const std::string name_;
  OnConnection on_connection_;
  std::function<size_t()> open_connections_;
  std::function<bool()> has_room_;
  boost::asio::ip::tcp::acceptor acceptor_;
  uint16_t port_ = 0;
  bool stopped_ = false;  // on the acceptor's strand

  // Out of descriptors (on the acceptor's strand): a spare descriptor, released to accept one
  // connection that can check health; the pause before trying again; reports once a while.
  int reserve_fd_ = -1;
  bool lease_next_ = false;
  boost::asio::steady_timer accept_retry_;
  std::chrono::milliseconds accept_backoff_{0};
  uint64_t exhausted_refusals_ = 0;  // since the last report
  std::chrono::steady_clock::time_point last_exhaustion_report_{};
};

}  // namespace carc::server
