// One client connection: an HTTP request that is either the health check or the upgrade to a
// WebSocket, then binary protobuf messages both ways.
//
// Each session runs on its own strand. Handlers hold shared_from_this(), so a session lives as
// long as an operation is outstanding. Writes go through a queue with one async_write in flight;
// a queue that grows past its limit means a consumer too slow to keep up, and it is
// disconnected rather than buffered without bound. Broadcast messages arrive as shared immutable
// bytes, encoded once for every recipient.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <optional>

#include "net/config.h"
#include "net/lobby.h"
#include "net/static_files.h"
#include "protocol/client_text.h"

namespace carc::server {

class SessionRegistry;

class Session : public Peer, public std::enable_shared_from_this<Session> {
 public:
  Session(boost::asio::ip::tcp::socket socket, const ServerConfig& config, Lobby& lobby,
          SessionRegistry& registry, uint64_t id);
  ~Session() override;

  void Run();
  void Send(Bytes message) override;         // any thread
  void Shutdown(const std::string& reason);  // any thread: tell the client, then close

 private:
  using Stream = boost::beast::websocket::stream<boost::beast::tcp_stream>;

  void DoReadRequest();
  void OnReadRequest(boost::beast::error_code ec, size_t bytes);
  void RespondHttp(boost::beast::http::status status, std::string body);
  void ServeStatic();
  // Writes one HTTP response, then ends the connection (no keep-alive).
  template <typename Response>
  void WriteAndShutdown(std::shared_ptr<Response> response);
  bool OriginAllowed() const;
  void OnAccept(boost::beast::error_code ec);
  void DoRead();
  void OnRead(boost::beast::error_code ec, size_t bytes);
  void HandleMessage();
  void HandleHello(const v1::ClientMessage& message);
  // Answers a message whose text breaks the rule (protocol/client_text.h) with
  // ERROR_CODE_BAD_TEXT; nothing else of it is handled.
  void RefuseText(uint64_t request_id, const protocol::BadText& bad);
  void Reply(const v1::ServerMessage& message);
  void ReplyError(uint64_t request_id, v1::ErrorCode code, const std::string& reason);
  bool TakeToken();  // rate limit
  void Queue(Bytes message);
  void DoWrite();
  void OnWrite(boost::beast::error_code ec, size_t bytes);
  void Close(boost::beast::websocket::close_code code, const std::string& reason);
  void DoClose();
  void Fail(boost::beast::error_code ec, const char* what);

  std::unique_ptr<Stream> ws_;
  boost::beast::flat_buffer buffer_;
  boost::beast::http::request<boost::beast::http::string_body> request_;
  const ServerConfig& config_;
  Lobby& lobby_;
  SessionRegistry& registry_;
  const uint64_t id_;
  std::string remote_;
  bool hello_ = false;
  bool closing_ = false;
  std::deque<Bytes> queue_;
  std::optional<boost::beast::websocket::close_reason> pending_close_;
  double tokens_;
  std::chrono::steady_clock::time_point refilled_;
};

// Every live session, for the health check, the connection limit and shutdown.
class SessionRegistry {
 public:
  bool Add(const std::shared_ptr<Session>& session, size_t limit);
  void Remove(const Session* session);
  size_t Count() const;
  void ShutdownAll(const std::string& reason);
  std::function<size_t()> game_count;
  std::function<std::string()> log_stats;  // a JSON object

 private:
  mutable std::mutex mutex_;
  std::map<const Session*, std::weak_ptr<Session>> sessions_;
};

}  // namespace carc::server
