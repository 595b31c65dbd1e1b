// WebSocket connections to carc-server (Boost.Beast), one protobuf message per binary frame.
//
// Connection is asynchronous: every handler of one connection runs on its own strand, so a
// client may run many connections on one io_context with several threads (the load test) and
// still keep each connection's state free of locks. BlockingClient drives one Connection from
// the calling thread, for the one-shot commands (create, list, join, show).
#pragma once

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "protocol/envelope.h"
#include "url.h"

namespace carc::client {

namespace wire = protocol::wire;
using Endpoints = boost::asio::ip::tcp::resolver::results_type;

// Resolves the URL's host and port; the error says what failed.
std::variant<Endpoints, std::string> Resolve(const ServerUrl& url);

// A ClientMessage that says Hello with the protocol version of this build
// (protocol::kProtocolVersion).
wire::ClientMessage HelloMessage();
// "ERROR_CODE_GAME_FULL: every seat is taken" for an Error; a refusal of the rules ends with the
// engine's name for it: "ERROR_CODE_RULE_REFUSED: A tile lies there already. (cell_occupied)".
std::string Describe(const wire::Error& error);

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  struct Handlers {
    std::function<void()> opened;  // the upgrade succeeded; nothing has been said yet
    std::function<void(const wire::ServerMessage&)> message;
    // Once, at the end: `error` is empty when the client closed the connection itself.
    std::function<void(const std::string& error)> closed;
  };

  using Strand = boost::asio::strand<boost::asio::io_context::executor_type>;

  // Every handler runs on `strand`; its owner may share it to keep its own state there too.
  static std::shared_ptr<Connection> Create(Strand strand, ServerUrl url, Endpoints endpoints);

  // Connects, upgrades and starts reading; the handlers run on the connection's strand.
  void Start(Handlers handlers);
  // Queues a message (sent once the connection is open) and returns the request id it was
  // given: 1, 2, ... per connection. Any thread.
  uint64_t Send(wire::ClientMessage message);
  // Sends what is queued, then closes with code 1000. Any thread.
  void Close();
  // Drops the TCP connection at once, without a close frame. Any thread.
  void Abort();

  Strand strand() const { return strand_; }

 private:
  using Stream = boost::beast::websocket::stream<boost::beast::tcp_stream>;
  Connection(Strand strand, ServerUrl url, Endpoints endpoints);

  void OnConnect(boost::beast::error_code ec, const boost::asio::ip::tcp::endpoint& endpoint);
  void OnHandshake(boost::beast::error_code ec);
  void DoRead();
  void OnRead(boost::beast::error_code ec, size_t bytes);
  void Queue(std::shared_ptr<const std::string> bytes);
  void DoWrite();
  void OnWrite(boost::beast::error_code ec, size_t bytes);
  void DoClose();
  void Finish(const std::string& error);

  Strand strand_;
  Stream ws_;
  ServerUrl url_;
  Endpoints endpoints_;
  Handlers handlers_;
  boost::beast::flat_buffer buffer_;
  boost::beast::websocket::response_type upgrade_response_;  // what answered the upgrade
  std::deque<std::shared_ptr<const std::string>> queue_;
  std::atomic<uint64_t> next_request_id_{1};
  bool open_ = false;
  bool writing_ = false;
  bool close_requested_ = false;
  bool close_sent_ = false;
  bool finished_ = false;
};

// One connection used from one thread, request after request.
class BlockingClient {
 public:
  BlockingClient() = default;
  BlockingClient(const BlockingClient&) = delete;
  BlockingClient& operator=(const BlockingClient&) = delete;
  ~BlockingClient();

  // Connects, upgrades and says Hello; returns what went wrong, if anything.
  std::optional<std::string> Open(const ServerUrl& url);
  // The server's answer to Hello (the rule sets it hosts); empty before Open succeeded.
  const wire::Welcome& welcome() const { return welcome_; }
  // Sends `message` and waits for the reply carrying its request id (an Error is a reply too);
  // messages without that id are dropped. Returns what went wrong if no reply came.
  std::variant<wire::ServerMessage, std::string> Call(wire::ClientMessage message);
  void Close();

  // How long Open and Call wait at most.
  std::chrono::seconds timeout{10};

 private:
  bool RunUntil(const std::function<bool()>& done);

  boost::asio::io_context io_;
  std::shared_ptr<Connection> connection_;
  std::deque<wire::ServerMessage> inbox_;
  wire::Welcome welcome_;
  std::optional<std::string> closed_;
  bool opened_ = false;
};

}  // namespace carc::client
