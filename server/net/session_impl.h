// The definitions of BasicSession (session.h), included where a stream type is instantiated:
// session.cc for TCP, the session tests and the fuzzer for Beast's test stream.
#pragma once

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>

#include "net/session.h"
#include "net/static_files.h"
#include "protocol/client_text.h"
#include "text/log_safe.h"

namespace carc::server {

namespace session_detail {
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;

inline bool IsNormalEnd(beast::error_code ec) {
  return ec == boost::asio::error::operation_aborted || ec == websocket::error::closed ||
         ec == boost::asio::error::eof || ec == http::error::end_of_stream;
}

inline Bytes Encode(const wire::ServerMessage& message) {
  auto bytes = std::make_shared<std::string>();
  message.SerializeToString(bytes.get());
  return bytes;
}
}  // namespace session_detail

template <typename NextLayer>
BasicSession<NextLayer>::BasicSession(NextLayer stream, const SessionContext& context, uint64_t id,
                                      std::shared_ptr<void> reserve)
    : ws_(std::make_unique<Stream>(std::move(stream))),
      config_(context.config),
      sink_(context.sink),
      registry_(context.registry),
      clock_(context.clock),
      id_(id),
      reserve_(std::move(reserve)),
      remote_(Traits::RemoteAddress(Lowest(), true)),
      address_(Traits::RemoteAddress(Lowest(), false)),
      hello_deadline_(ws_->get_executor()),
      bucket_(config_.messages_per_second, config_.message_burst, clock_()) {}

template <typename NextLayer>
BasicSession<NextLayer>::~BasicSession() {
  registry_.Remove(this);
}

template <typename NextLayer>
void BasicSession<NextLayer>::Run() {
  registry_.Add(this->shared_from_this());
  // Start on the session's strand: every handler of this session runs there.
  boost::asio::dispatch(ws_->get_executor(),
                        [self = this->shared_from_this()] { self->DoReadRequest(); });
}

template <typename NextLayer>
void BasicSession<NextLayer>::Fail(boost::beast::error_code ec, const char* what) {
  if (session_detail::IsNormalEnd(ec)) {
    spdlog::info("connection {} closed", id_);
  } else {
    spdlog::info("connection {} closed: {}: {}", id_, what, ec.message());
  }
}

// ---------------------------------------------------------------------------------------------
// HTTP

template <typename NextLayer>
void BasicSession<NextLayer>::DoReadRequest() {
  if (registry_.stopping()) return CloseNow();
  reading_request_ = true;
  Traits::ExpiresAfter(Lowest(), config_.handshake_timeout);
  boost::beast::http::async_read(
      Lowest(), buffer_, request_,
      boost::beast::bind_front_handler(&Self::OnReadRequest, this->shared_from_this()));
}

template <typename NextLayer>
void BasicSession<NextLayer>::OnReadRequest(boost::beast::error_code ec, size_t) {
  namespace websocket = boost::beast::websocket;
  reading_request_ = false;
  if (ec) return Fail(ec, "http read");
  if (!websocket::is_upgrade(request_)) return AnswerHttp();
  Upgrade();
}

template <typename NextLayer>
void BasicSession<NextLayer>::AnswerHttp() {
  namespace http = boost::beast::http;
  // With an operator's port, the server's figures are served there only (net/operator_session.h):
  // the players' port then says no more than that the server is up.
  const bool operator_port = config_.operator_port.has_value();
  if (request_.method() == http::verb::get && request_.target() == "/healthz") {
    return RespondHttp(http::status::ok,
                       operator_port ? R"({"status":"ok"})" : registry_.HealthJson());
  }
  if (!operator_port && request_.method() == http::verb::get && request_.target() == "/metrics") {
    return RespondHttp(http::status::ok, registry_.metrics_text ? registry_.metrics_text() : "",
                       kMetricsContentType);
  }
  ServeStatic();
}

template <typename NextLayer>
void BasicSession<NextLayer>::RespondHttp(boost::beast::http::status status, std::string body,
                                          const char* content_type) {
  WriteAndShutdown(ClosingResponse(status, request_.version(), std::move(body), content_type));
}

// The web client's files (--web-root): GET and HEAD only, resolved by ResolveStatic.
template <typename NextLayer>
void BasicSession<NextLayer>::ServeStatic() {
  namespace http = boost::beast::http;
  const bool head = request_.method() == http::verb::head;
  if (config_.web_root.empty()) {
    return RespondHttp(http::status::not_found, R"({"error":"not found"})");
  }
  if (!head && request_.method() != http::verb::get) {
    return RespondHttp(http::status::method_not_allowed, R"({"error":"method not allowed"})");
  }
  const auto target = request_.target();
  const auto resolved =
      ResolveStatic(config_.web_root, std::string_view(target.data(), target.size()));
  if (const auto* refusal = std::get_if<StaticRefusal>(&resolved)) {
    return RespondHttp(static_cast<http::status>(refusal->status),
                       R"({"error":")" + refusal->reason + R"("})");
  }
  const StaticFile& file = std::get<StaticFile>(resolved);
  http::file_body::value_type body;
  boost::beast::error_code ec;
  body.open(file.path.c_str(), boost::beast::file_mode::scan, ec);
  if (ec) return RespondHttp(http::status::not_found, R"({"error":"not found"})");
  auto response =
      std::make_shared<http::response<http::file_body>>(http::status::ok, request_.version());
  response->set(http::field::server, "carc-server");
  response->set(http::field::content_type, file.content_type);
  response->set(http::field::cache_control, file.cache_control);
  response->set("X-Content-Type-Options", "nosniff");
  response->keep_alive(false);
  const uint64_t size = body.size();
  response->body() = std::move(body);
  response->prepare_payload();
  if (head) {
    // The headers of the GET, without the body.
    auto headers =
        std::make_shared<http::response<http::empty_body>>(http::status::ok, request_.version());
    headers->base() = response->base();
    headers->content_length(size);
    headers->keep_alive(false);
    return WriteAndShutdown(headers);
  }
  WriteAndShutdown(response);
}

template <typename NextLayer>
template <typename Response>
void BasicSession<NextLayer>::WriteAndShutdown(std::shared_ptr<Response> response) {
  boost::beast::http::async_write(
      Lowest(), *response,
      [self = this->shared_from_this(), response](boost::beast::error_code, size_t) {
        Traits::ShutdownSend(self->Lowest());
      });
}

// Origin is a browser's protection: a browser always sends it on an upgrade from a page, so a
// page of another site is refused here. An upgrade without it comes from a program that is no
// browser (carc-client, a bot); nothing stops such a program from sending any Origin it likes, so
// refusing it would protect nothing, and it is admitted.
template <typename NextLayer>
bool BasicSession<NextLayer>::OriginAllowed() const {
  if (config_.allowed_origins.empty()) return true;
  const auto origin = request_.find(boost::beast::http::field::origin);
  if (origin == request_.end()) return true;
  const std::string value(origin->value());
  return std::find(config_.allowed_origins.begin(), config_.allowed_origins.end(), value) !=
         config_.allowed_origins.end();
}

// ---------------------------------------------------------------------------------------------
// The WebSocket

template <typename NextLayer>
void BasicSession<NextLayer>::Upgrade() {
  namespace http = boost::beast::http;
  namespace websocket = boost::beast::websocket;
  if (!OriginAllowed()) {
    // Refused only with an Origin header (OriginAllowed admits a request without one).
    const auto sent = request_[http::field::origin];
    spdlog::info("connection {} from {}: origin '{}' refused", id_, remote_,
                 LogSafe(std::string_view(sent.data(), sent.size())));
    return RespondHttp(http::status::forbidden, R"({"error":"origin not allowed"})");
  }
  if (reserve_) {
    // Accepted on the spare descriptor: enough to answer, not to stay.
    return RespondHttp(http::status::service_unavailable,
                       R"({"error":"server out of file descriptors"})");
  }
  if (registry_.stopping()) {
    return RespondHttp(http::status::service_unavailable, R"({"error":"shutting down"})");
  }
  if (!registry_.Upgrade(this, config_.max_connections)) {
    spdlog::warn("connection {} from {}: refused, {} connections open", id_, remote_,
                 config_.max_connections);
    return RespondHttp(http::status::service_unavailable, R"({"error":"server full"})");
  }
  Traits::ExpiresNever(Lowest());
  ws_->set_option(websocket::stream_base::timeout{config_.handshake_timeout, config_.idle_timeout,
                                                  /*keep_alive_pings=*/true});
  ws_->read_message_max(config_.max_message_bytes);
  ws_->binary(true);
  ws_->async_accept(request_,
                    boost::beast::bind_front_handler(&Self::OnAccept, this->shared_from_this()));
}

template <typename NextLayer>
void BasicSession<NextLayer>::OnAccept(boost::beast::error_code ec) {
  if (ec) return Fail(ec, "accept");
  open_ = true;
  spdlog::info("connection {} from {} opened", id_, remote_);
  if (registry_.stopping()) {
    Shutdown("the server is shutting down");
  } else {
    // Hello is part of the handshake: a connection that never says it is dropped.
    hello_deadline_.expires_after(config_.handshake_timeout);
    hello_deadline_.async_wait(
        boost::beast::bind_front_handler(&Self::OnHelloDeadline, this->shared_from_this()));
  }
  DoRead();
}

template <typename NextLayer>
void BasicSession<NextLayer>::OnHelloDeadline(boost::beast::error_code ec) {
  if (ec || hello_ || closing_) return;
  spdlog::info("connection {}: no Hello within {} ms", id_, config_.handshake_timeout.count());
  ReplyError(0, wire::ERROR_CODE_HELLO_FIRST,
             "no Hello within " + std::to_string(config_.handshake_timeout.count()) + " ms");
  Close(boost::beast::websocket::close_code::policy_error, "no Hello in time");
}

template <typename NextLayer>
void BasicSession<NextLayer>::DoRead() {
  ws_->async_read(buffer_,
                  boost::beast::bind_front_handler(&Self::OnRead, this->shared_from_this()));
}

template <typename NextLayer>
void BasicSession<NextLayer>::OnRead(boost::beast::error_code ec, size_t) {
  if (ec) {
    hello_deadline_.cancel();
    // The connection is over, even while replies still being prepared for it keep this object.
    registry_.Remove(this);
    sink_.Disconnected(this->shared_from_this());
    if (ec == boost::beast::websocket::error::message_too_big) {
      spdlog::info("connection {}: message over {} bytes", id_, config_.max_message_bytes);
    }
    return Fail(ec, "read");
  }
  HandleMessage();
  buffer_.consume(buffer_.size());
  // After a close of ours, the close itself reads on until the client's close frame.
  if (!closing_) DoRead();
}

template <typename NextLayer>
void BasicSession<NextLayer>::HandleMessage() {
  if (closing_) return;  // the server has said goodbye; what the client still sends is dropped
  if (!ws_->got_binary()) {
    return ReplyError(0, wire::ERROR_CODE_MALFORMED_MESSAGE,
                      "messages are binary protobuf frames, not text");
  }
  wire::ClientMessage message;
  if (!message.ParseFromArray(buffer_.data().data(), static_cast<int>(buffer_.size()))) {
    const std::string_view frame(static_cast<const char*>(buffer_.data().data()), buffer_.size());
    if (auto bad = protocol::FindBadTextInFrame(frame)) {
      return RefuseText(bad->request_id, bad->bad);
    }
    return ReplyError(0, wire::ERROR_CODE_MALFORMED_MESSAGE, "not a ClientMessage");
  }
  if (!bucket_.Take(clock_())) {
    return ReplyError(message.request_id(), wire::ERROR_CODE_RATE_LIMITED,
                      "too many messages; slow down");
  }
  // One check of every string the client sent, before anything else reads one.
  if (auto bad = protocol::CheckClientText(message)) {
    return RefuseText(message.request_id(), *bad);
  }
  if (registry_.stopping()) {
    return ReplyError(message.request_id(), wire::ERROR_CODE_SHUTTING_DOWN,
                      "the server is shutting down");
  }
  if (message.has_hello()) return HandleHello(message);
  if (!hello_) {
    return ReplyError(message.request_id(), wire::ERROR_CODE_HELLO_FIRST,
                      "the first message must be Hello");
  }
  if (message.has_ping()) {
    wire::ServerMessage pong;
    pong.set_request_id(message.request_id());
    pong.mutable_pong()->set_nonce(message.ping().nonce());
    return Reply(pong);
  }
  if (message.body_case() == wire::ClientMessage::BODY_NOT_SET) {
    return ReplyError(message.request_id(), wire::ERROR_CODE_UNKNOWN_MESSAGE,
                      "an empty or unknown message");
  }
  sink_.Handle(this->shared_from_this(), message);
}

template <typename NextLayer>
void BasicSession<NextLayer>::HandleHello(const wire::ClientMessage& message) {
  if (message.hello().protocol_version() != protocol::kProtocolVersion) {
    ReplyError(message.request_id(), wire::ERROR_CODE_UNSUPPORTED_VERSION,
               "this server speaks protocol version " + std::to_string(protocol::kProtocolVersion));
    return Close(boost::beast::websocket::close_code::protocol_error,
                 "unsupported protocol version");
  }
  hello_ = true;
  hello_deadline_.cancel();
  spdlog::info("connection {}: client '{}'", id_, LogSafe(message.hello().client()));
  wire::ServerMessage welcome;
  welcome.set_request_id(message.request_id());
  *welcome.mutable_welcome() = sink_.Welcome();
  welcome.mutable_welcome()->set_protocol_version(protocol::kProtocolVersion);
  welcome.mutable_welcome()->set_server("carc-server");
  Reply(welcome);
}

template <typename NextLayer>
void BasicSession<NextLayer>::RefuseText(uint64_t request_id, const protocol::BadText& bad) {
  spdlog::info("connection {}: refused {} '{}': {}", id_, bad.field, bad.excerpt, bad.reason);
  ReplyError(request_id, wire::ERROR_CODE_BAD_TEXT, bad.reason);
}

// Replies the session makes itself go straight into the queue (we are on the strand), so that
// they keep their place before a close that follows them.
template <typename NextLayer>
void BasicSession<NextLayer>::Reply(const wire::ServerMessage& message) {
  Queue(session_detail::Encode(message));
}

template <typename NextLayer>
void BasicSession<NextLayer>::ReplyError(uint64_t request_id, wire::ErrorCode code,
                                         const std::string& reason) {
  wire::ServerMessage message;
  message.set_request_id(request_id);
  message.mutable_error()->set_code(code);
  message.mutable_error()->set_reason(reason);
  Reply(message);
}

// ---------------------------------------------------------------------------------------------
// Writing

template <typename NextLayer>
void BasicSession<NextLayer>::Send(Bytes message) {
  boost::asio::post(ws_->get_executor(),
                    [self = this->shared_from_this(), message = std::move(message)]() mutable {
                      self->Queue(std::move(message));
                    });
}

// A message that does not fit: the queue is at its count, or the bytes would pass their bound.
// Alone in the queue, a message always fits, however large (a replay of a long game).
template <typename NextLayer>
bool BasicSession<NextLayer>::Overflows(const std::string& message) const {
  if (queue_.empty()) return false;
  return queue_.size() >= config_.max_outbound_queue ||
         queued_bytes_ + message.size() > config_.max_outbound_bytes;
}

template <typename NextLayer>
void BasicSession<NextLayer>::Queue(Bytes message) {
  // Nothing follows ServerClosing or an error that ends the connection: the close comes next.
  if (closing_ || !open_) return;
  if (Overflows(*message)) {
    // Never buffer without bound: a client this far behind is dropped (it may Resume).
    spdlog::warn("connection {}: {} messages ({} bytes) unsent, disconnecting a slow consumer", id_,
                 queue_.size(), queued_bytes_);
    return CloseNow();
  }
  queued_bytes_ += message->size();
  queue_.push_back(std::move(message));
  if (queue_.size() == 1) DoWrite();
}

template <typename NextLayer>
void BasicSession<NextLayer>::DoWrite() {
  ws_->async_write(boost::asio::buffer(*queue_.front()),
                   boost::beast::bind_front_handler(&Self::OnWrite, this->shared_from_this()));
}

template <typename NextLayer>
void BasicSession<NextLayer>::OnWrite(boost::beast::error_code ec, size_t) {
  if (ec) return Fail(ec, "write");
  if (queue_.empty()) return;  // cut off by CloseNow: the written message was kept for us
  queued_bytes_ -= queue_.front()->size();
  queue_.pop_front();
  if (!queue_.empty()) return DoWrite();
  if (pending_close_) DoClose();
}

// ---------------------------------------------------------------------------------------------
// Closing

template <typename NextLayer>
void BasicSession<NextLayer>::Shutdown(const std::string& reason) {
  boost::asio::post(ws_->get_executor(), [self = this->shared_from_this(), reason] {
    if (self->reading_request_) return self->CloseNow();
    if (!self->open_ || self->closing_) return;  // an HTTP answer or an upgrade finishes alone
    wire::ServerMessage closing;
    closing.mutable_server_closing()->set_reason(reason);
    self->Queue(session_detail::Encode(closing));
    self->Close(boost::beast::websocket::close_code::going_away, reason);
  });
}

template <typename NextLayer>
void BasicSession<NextLayer>::ForceClose() {
  boost::asio::post(ws_->get_executor(), [self = this->shared_from_this()] { self->CloseNow(); });
}

template <typename NextLayer>
void BasicSession<NextLayer>::Close(boost::beast::websocket::close_code code,
                                    const std::string& reason) {
  if (closing_) return;
  closing_ = true;
  hello_deadline_.cancel();
  // The close frame goes after what is queued: OnWrite sends it once the queue is empty.
  pending_close_ = boost::beast::websocket::close_reason(code, reason);
  if (queue_.empty()) DoClose();
}

template <typename NextLayer>
void BasicSession<NextLayer>::DoClose() {
  const boost::beast::websocket::close_reason reason = *pending_close_;
  pending_close_.reset();
  ws_->async_close(reason, [self = this->shared_from_this()](boost::beast::error_code) {});
}

// Closes the socket now: every pending operation ends with an error, and the session goes once
// the last has run. A message being written stays in the queue until its write has ended.
template <typename NextLayer>
void BasicSession<NextLayer>::CloseNow() {
  closing_ = true;
  pending_close_.reset();
  hello_deadline_.cancel();
  registry_.Remove(this);  // gone for the counts at once, whatever still holds this object
  if (queue_.size() > 1) {
    for (auto it = queue_.begin() + 1; it != queue_.end(); ++it) queued_bytes_ -= (*it)->size();
    queue_.erase(queue_.begin() + 1, queue_.end());
  }
  Traits::Close(Lowest());
}

}  // namespace carc::server
