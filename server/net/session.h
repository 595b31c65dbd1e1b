// One client connection: an HTTP request that is either the health check, a file of the web
// client, or the upgrade to a WebSocket; then binary protobuf messages both ways.
//
// Each session runs on its own strand. Handlers hold shared_from_this(), so a session lives as
// long as an operation is outstanding. Writes go through a queue with one async_write in flight;
// a queue that grows past its bounds (messages or bytes) means a consumer too slow to keep up,
// and it is disconnected rather than buffered without bound. Broadcast messages arrive as shared
// immutable bytes, encoded once for every recipient.
//
// The session is a template over the stream under the WebSocket: the server runs it over TCP
// (`Session`), the session tests and the fuzzer over Boost.Beast's test stream, which can fail
// its Nth operation. The definitions are in session_impl.h.
#pragma once

#include <atomic>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <cassert>
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "net/config.h"
#include "net/rate_limit.h"
#include "protocol/client_text.h"
#include "room/room.h"

namespace carc::server {

// Where a session's messages go: the Lobby in the server, a recorder in tests.
class MessageSink {
 public:
  virtual ~MessageSink() = default;
  // One message of a connection that has said Hello. Replies reach `peer`.
  virtual void Handle(const std::shared_ptr<Peer>& peer, const wire::ClientMessage& message) = 0;
  // The connection is closing: its seats go offline, it stops spectating.
  virtual void Disconnected(const std::shared_ptr<Peer>& peer) = 0;
  // What the Welcome says besides the protocol version and the server's name: the games hosted.
  virtual wire::Welcome Welcome() const { return {}; }
};

// What the registry may ask of any session, whatever its stream. Both may be called from any
// thread; the work is done on the session's strand.
class ManagedSession {
 public:
  virtual ~ManagedSession() = default;
  // An open WebSocket is sent ServerClosing, then a close frame after what is queued; a
  // connection still reading its HTTP request is closed.
  virtual void Shutdown(const std::string& reason) = 0;
  // Closes the socket at once, whatever is in flight.
  virtual void ForceClose() = 0;
};

// Every live connection: for the health check, the connection limit and shutdown.
class SessionRegistry {
 public:
  void Add(const std::shared_ptr<ManagedSession>& session);
  // Counts the session as an open WebSocket, unless `limit` of them are open already.
  bool Upgrade(const ManagedSession* session, size_t limit);
  void Remove(const ManagedSession* session);
  size_t Count() const;  // open WebSockets
  size_t Total() const;  // every connection, HTTP requests included
  // From now on every message is answered ERROR_CODE_SHUTTING_DOWN.
  void BeginStopping() { stopping_ = true; }
  bool stopping() const { return stopping_; }
  void ShutdownAll(const std::string& reason);
  void ForceCloseAll();
  // The body of GET /healthz: status, games, open WebSockets and the game log's figures.
  std::string HealthJson() const;
  std::function<size_t()> game_count;
  std::function<std::string()> log_stats;     // a JSON object
  std::function<std::string()> metrics_text;  // Prometheus' text format (room/metrics.h)

 private:
  std::vector<std::shared_ptr<ManagedSession>> Live() const;

  struct Entry {
    std::weak_ptr<ManagedSession> session;
    bool upgraded = false;
  };
  mutable std::mutex mutex_;
  std::map<const ManagedSession*, Entry> sessions_;
  size_t upgraded_ = 0;
  std::atomic<bool> stopping_ = false;
};

// An HTTP answer of `body` that closes the connection (the server's answers are one per
// connection: no keep-alive).
std::shared_ptr<boost::beast::http::response<boost::beast::http::string_body>> ClosingResponse(
    boost::beast::http::status status, unsigned version, std::string body,
    const char* content_type);

// What every session of a server shares.
struct SessionContext {
  const ServerConfig& config;
  MessageSink& sink;
  SessionRegistry& registry;
  Clock clock = SteadyNow;
};

// The few things a session does to the stream under the WebSocket, which Beast's streams do not
// share: timeouts on the HTTP exchange, closing, naming the remote end. Specialised for
// beast::tcp_stream below, and for the test stream in tests/server/test_stream.h.
template <typename NextLayer>
struct StreamTraits;

template <>
struct StreamTraits<boost::beast::tcp_stream> {
  static void ExpiresAfter(boost::beast::tcp_stream& s, std::chrono::milliseconds d) {
    s.expires_after(d);
  }
  static void ExpiresNever(boost::beast::tcp_stream& s) { s.expires_never(); }
  // After an HTTP response: the client sees the end of the stream once it has read it.
  static void ShutdownSend(boost::beast::tcp_stream& s) {
    boost::system::error_code ignored;
    s.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_send, ignored);
  }
  static void Close(boost::beast::tcp_stream& s) { s.close(); }
  // The remote address without the port (per-address limits), and with it (logs).
  static std::string RemoteAddress(boost::beast::tcp_stream& s, bool with_port) {
    boost::system::error_code ec;
    const auto endpoint = s.socket().remote_endpoint(ec);
    if (ec) return with_port ? "?" : "";
    std::string text = endpoint.address().to_string();
    if (with_port) text += ":" + std::to_string(endpoint.port());
    return text;
  }
};

template <typename NextLayer>
class BasicSession : public Peer,
                     public ManagedSession,
                     public std::enable_shared_from_this<BasicSession<NextLayer>> {
 public:
  // `reserve` is held for as long as the session lives: the server's spare descriptor, given to
  // a connection accepted while descriptors ran out (it may check health, not play).
  BasicSession(NextLayer stream, const SessionContext& context, uint64_t id,
               std::shared_ptr<void> reserve = nullptr);
  ~BasicSession() override;

  void Run();
  void Send(Bytes message) override;  // any thread
  std::string Address() const override { return address_; }
  void Shutdown(const std::string& reason) override;
  void ForceClose() override;

 private:
  using Traits = StreamTraits<NextLayer>;
  using Stream = boost::beast::websocket::stream<NextLayer>;
  using Self = BasicSession<NextLayer>;

  NextLayer& Lowest() { return boost::beast::get_lowest_layer(*ws_); }
  void DoReadRequest();
  void OnReadRequest(boost::beast::error_code ec, size_t bytes);
  void AnswerHttp();
  void RespondHttp(boost::beast::http::status status, std::string body,
                   const char* content_type = "application/json");
  void ServeStatic();
  // Writes one HTTP response, then ends the connection (no keep-alive).
  template <typename Response>
  void WriteAndShutdown(std::shared_ptr<Response> response);
  bool OriginAllowed() const;
  void Upgrade();
  void OnAccept(boost::beast::error_code ec);
  void OnHelloDeadline(boost::beast::error_code ec);
  void DoRead();
  void OnRead(boost::beast::error_code ec, size_t bytes);
  void HandleMessage();
  void HandleHello(const wire::ClientMessage& message);
  // Answers a message whose text breaks the rule (protocol/client_text.h) with
  // ERROR_CODE_BAD_TEXT; nothing else of it is handled.
  void RefuseText(uint64_t request_id, const protocol::BadText& bad);
  void Reply(const wire::ServerMessage& message);
  void ReplyError(uint64_t request_id, wire::ErrorCode code, const std::string& reason);
  void Queue(Bytes message);
  bool Overflows(const std::string& message) const;
  void DoWrite();
  void OnWrite(boost::beast::error_code ec, size_t bytes);
  void Close(boost::beast::websocket::close_code code, const std::string& reason);
  void DoClose();
  void CloseNow();
  void Fail(boost::beast::error_code ec, const char* what);

  std::unique_ptr<Stream> ws_;
  boost::beast::flat_buffer buffer_;
  boost::beast::http::request<boost::beast::http::string_body> request_;
  const ServerConfig& config_;
  MessageSink& sink_;
  SessionRegistry& registry_;
  Clock clock_;
  const uint64_t id_;
  std::shared_ptr<void> reserve_;
  std::string remote_;   // address:port, for the logs
  std::string address_;  // address only
  boost::asio::steady_timer hello_deadline_;
  bool reading_request_ = false;
  bool open_ = false;  // the WebSocket handshake is done
  bool hello_ = false;
  bool closing_ = false;
  std::deque<Bytes> queue_;
  size_t queued_bytes_ = 0;
  std::optional<boost::beast::websocket::close_reason> pending_close_;
  TokenBucket bucket_;
};

extern template class BasicSession<boost::beast::tcp_stream>;
using Session = BasicSession<boost::beast::tcp_stream>;

}  // namespace carc::server
