#include "net/session.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>

#include "protocol/client_text.h"
#include "text/log_safe.h"

namespace carc::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace asio = boost::asio;

// ---------------------------------------------------------------------------------------------
// Registry

bool SessionRegistry::Add(const std::shared_ptr<Session>& session, size_t limit) {
  std::lock_guard lock(mutex_);
  if (sessions_.size() >= limit) return false;
  sessions_.emplace(session.get(), session);
  return true;
}

void SessionRegistry::Remove(const Session* session) {
  std::lock_guard lock(mutex_);
  sessions_.erase(session);
}

size_t SessionRegistry::Count() const {
  std::lock_guard lock(mutex_);
  return sessions_.size();
}

void SessionRegistry::ShutdownAll(const std::string& reason) {
  std::vector<std::shared_ptr<Session>> live;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [key, weak] : sessions_) {
      if (auto s = weak.lock()) live.push_back(std::move(s));
    }
  }
  for (const auto& s : live) s->Shutdown(reason);
}

// ---------------------------------------------------------------------------------------------
// Session

Session::Session(asio::ip::tcp::socket socket, const ServerConfig& config, Lobby& lobby,
                 SessionRegistry& registry, uint64_t id)
    : ws_(std::make_unique<Stream>(std::move(socket))),
      config_(config),
      lobby_(lobby),
      registry_(registry),
      id_(id),
      tokens_(config.message_burst),
      refilled_(std::chrono::steady_clock::now()) {
  beast::error_code ec;
  const auto endpoint = beast::get_lowest_layer(*ws_).socket().remote_endpoint(ec);
  remote_ = ec ? "?" : endpoint.address().to_string() + ":" + std::to_string(endpoint.port());
}

Session::~Session() { registry_.Remove(this); }

void Session::Run() {
  // Start on the session's strand: every handler of this session runs there.
  asio::dispatch(ws_->get_executor(), [self = shared_from_this()] { self->DoReadRequest(); });
}

void Session::Fail(beast::error_code ec, const char* what) {
  const bool normal = ec == asio::error::operation_aborted || ec == websocket::error::closed ||
                      ec == asio::error::eof || ec == http::error::end_of_stream;
  if (normal) {
    spdlog::info("connection {} closed", id_);
  } else {
    spdlog::info("connection {} closed: {}: {}", id_, what, ec.message());
  }
}

void Session::DoReadRequest() {
  beast::get_lowest_layer(*ws_).expires_after(config_.handshake_timeout);
  http::async_read(beast::get_lowest_layer(*ws_), buffer_, request_,
                   beast::bind_front_handler(&Session::OnReadRequest, shared_from_this()));
}

void Session::RespondHttp(http::status status, std::string body) {
  auto response = std::make_shared<http::response<http::string_body>>(status, request_.version());
  response->set(http::field::server, "carc-server");
  response->set(http::field::content_type, "application/json");
  response->keep_alive(false);
  response->body() = std::move(body);
  response->prepare_payload();
  WriteAndShutdown(response);
}

// The web client's files (--web-root): GET and HEAD only, resolved by ResolveStatic.
void Session::ServeStatic() {
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
  beast::error_code ec;
  body.open(file.path.c_str(), beast::file_mode::scan, ec);
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

template <typename Response>
void Session::WriteAndShutdown(std::shared_ptr<Response> response) {
  http::async_write(beast::get_lowest_layer(*ws_), *response,
                    [self = shared_from_this(), response](beast::error_code, size_t) {
                      beast::error_code ignored;
                      beast::get_lowest_layer(*self->ws_)
                          .socket()
                          .shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
                    });
}

bool Session::OriginAllowed() const {
  if (config_.allowed_origins.empty()) return true;
  const auto origin = request_.find(http::field::origin);
  if (origin == request_.end()) return false;
  const std::string value(origin->value());
  return std::find(config_.allowed_origins.begin(), config_.allowed_origins.end(), value) !=
         config_.allowed_origins.end();
}

void Session::OnReadRequest(beast::error_code ec, size_t) {
  if (ec) return Fail(ec, "http read");
  if (!websocket::is_upgrade(request_)) {
    if (request_.method() == http::verb::get && request_.target() == "/healthz") {
      const size_t games = registry_.game_count ? registry_.game_count() : 0;
      const std::string log = registry_.log_stats ? registry_.log_stats() : "null";
      return RespondHttp(http::status::ok, R"({"status":"ok","games":)" + std::to_string(games) +
                                               R"(,"connections":)" +
                                               std::to_string(registry_.Count()) + R"(,"log":)" +
                                               log + "}");
    }
    return ServeStatic();
  }
  if (!OriginAllowed()) {
    const auto origin = request_.find(http::field::origin);
    const std::string_view sent =
        origin == request_.end() ? std::string_view("(none)")
                                 : std::string_view(origin->value().data(), origin->value().size());
    spdlog::info("connection {} from {}: origin '{}' refused", id_, remote_, LogSafe(sent));
    return RespondHttp(http::status::forbidden, R"({"error":"origin not allowed"})");
  }
  if (!registry_.Add(shared_from_this(), config_.max_connections)) {
    spdlog::warn("connection {} from {}: refused, {} connections open", id_, remote_,
                 config_.max_connections);
    return RespondHttp(http::status::service_unavailable, R"({"error":"server full"})");
  }
  beast::get_lowest_layer(*ws_).expires_never();
  ws_->set_option(websocket::stream_base::timeout{config_.handshake_timeout, config_.idle_timeout,
                                                  /*keep_alive_pings=*/true});
  ws_->read_message_max(config_.max_message_bytes);
  ws_->binary(true);
  ws_->async_accept(request_, beast::bind_front_handler(&Session::OnAccept, shared_from_this()));
}

void Session::OnAccept(beast::error_code ec) {
  if (ec) return Fail(ec, "accept");
  spdlog::info("connection {} from {} opened", id_, remote_);
  DoRead();
}

void Session::DoRead() {
  ws_->async_read(buffer_, beast::bind_front_handler(&Session::OnRead, shared_from_this()));
}

void Session::OnRead(beast::error_code ec, size_t) {
  if (ec) {
    lobby_.Disconnected(shared_from_this());
    if (ec == websocket::error::message_too_big) {
      spdlog::info("connection {}: message over {} bytes", id_, config_.max_message_bytes);
    }
    return Fail(ec, "read");
  }
  HandleMessage();
  buffer_.consume(buffer_.size());
  if (!closing_) DoRead();
}

bool Session::TakeToken() {
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - refilled_).count();
  refilled_ = now;
  tokens_ = std::min(config_.message_burst, tokens_ + elapsed * config_.messages_per_second);
  if (tokens_ < 1) return false;
  tokens_ -= 1;
  return true;
}

void Session::HandleMessage() {
  if (!ws_->got_binary()) {
    return ReplyError(0, v1::ERROR_CODE_MALFORMED_MESSAGE,
                      "messages are binary protobuf frames, not text");
  }
  v1::ClientMessage message;
  if (!message.ParseFromArray(buffer_.data().data(), static_cast<int>(buffer_.size()))) {
    const std::string_view frame(static_cast<const char*>(buffer_.data().data()), buffer_.size());
    if (auto bad = protocol::FindBadTextInFrame(frame)) {
      return RefuseText(bad->request_id, bad->bad);
    }
    return ReplyError(0, v1::ERROR_CODE_MALFORMED_MESSAGE, "not a ClientMessage");
  }
  if (!TakeToken()) {
    return ReplyError(message.request_id(), v1::ERROR_CODE_RATE_LIMITED,
                      "too many messages; slow down");
  }
  // One check of every string the client sent, before anything else reads one.
  if (auto bad = protocol::CheckClientText(message)) {
    return RefuseText(message.request_id(), *bad);
  }
  if (message.has_hello()) return HandleHello(message);
  if (!hello_) {
    return ReplyError(message.request_id(), v1::ERROR_CODE_HELLO_FIRST,
                      "the first message must be Hello");
  }
  if (message.has_ping()) {
    v1::ServerMessage pong;
    pong.set_request_id(message.request_id());
    pong.mutable_pong()->set_nonce(message.ping().nonce());
    return Reply(pong);
  }
  if (message.body_case() == v1::ClientMessage::BODY_NOT_SET) {
    return ReplyError(message.request_id(), v1::ERROR_CODE_UNKNOWN_MESSAGE,
                      "an empty or unknown message");
  }
  lobby_.Handle(shared_from_this(), message);
}

void Session::RefuseText(uint64_t request_id, const protocol::BadText& bad) {
  spdlog::info("connection {}: refused {} '{}': {}", id_, bad.field, bad.excerpt, bad.reason);
  ReplyError(request_id, v1::ERROR_CODE_BAD_TEXT, bad.reason);
}

void Session::HandleHello(const v1::ClientMessage& message) {
  if (message.hello().protocol_version() != protocol::kProtocolVersion) {
    ReplyError(message.request_id(), v1::ERROR_CODE_UNSUPPORTED_VERSION,
               "this server speaks protocol version " + std::to_string(protocol::kProtocolVersion));
    return Close(websocket::close_code::protocol_error, "unsupported protocol version");
  }
  hello_ = true;
  spdlog::info("connection {}: client '{}'", id_, LogSafe(message.hello().client()));
  v1::ServerMessage welcome;
  welcome.set_request_id(message.request_id());
  welcome.mutable_welcome()->set_protocol_version(protocol::kProtocolVersion);
  welcome.mutable_welcome()->set_server("carc-server");
  Reply(welcome);
}

// Replies the session makes itself go straight into the queue (we are on the strand), so that
// they keep their place before a close that follows them.
void Session::Reply(const v1::ServerMessage& message) {
  auto bytes = std::make_shared<std::string>();
  message.SerializeToString(bytes.get());
  Queue(std::move(bytes));
}

void Session::ReplyError(uint64_t request_id, v1::ErrorCode code, const std::string& reason) {
  v1::ServerMessage message;
  message.set_request_id(request_id);
  message.mutable_error()->set_code(code);
  message.mutable_error()->set_reason(reason);
  Reply(message);
}

void Session::Send(Bytes message) {
  asio::post(ws_->get_executor(),
             [self = shared_from_this(), message = std::move(message)]() mutable {
               self->Queue(std::move(message));
             });
}

void Session::Queue(Bytes message) {
  if (closing_) return;
  if (queue_.size() >= config_.max_outbound_queue) {
    // Never buffer without bound: a client this far behind is dropped (it may Resume).
    spdlog::warn("connection {}: {} messages unsent, disconnecting a slow consumer", id_,
                 queue_.size());
    closing_ = true;
    // The front message may be in an async_write right now: it must outlive that write.
    queue_.erase(queue_.begin() + 1, queue_.end());
    beast::error_code ignored;
    beast::get_lowest_layer(*ws_).socket().close(ignored);
    return;
  }
  queue_.push_back(std::move(message));
  if (queue_.size() == 1) DoWrite();
}

void Session::DoWrite() {
  ws_->async_write(asio::buffer(*queue_.front()),
                   beast::bind_front_handler(&Session::OnWrite, shared_from_this()));
}

void Session::OnWrite(beast::error_code ec, size_t) {
  if (ec) return Fail(ec, "write");
  if (queue_.empty()) return;
  queue_.pop_front();
  if (!queue_.empty()) return DoWrite();
  if (pending_close_) DoClose();
}

void Session::Shutdown(const std::string& reason) {
  asio::post(ws_->get_executor(), [self = shared_from_this(), reason] {
    v1::ServerMessage closing;
    closing.mutable_server_closing()->set_reason(reason);
    auto bytes = std::make_shared<std::string>();
    closing.SerializeToString(bytes.get());
    self->Queue(std::move(bytes));
    self->Close(websocket::close_code::going_away, reason);
  });
}

void Session::Close(websocket::close_code code, const std::string& reason) {
  if (closing_) return;
  closing_ = true;
  // The close frame goes after what is queued: OnWrite sends it once the queue is empty.
  pending_close_ = websocket::close_reason(code, reason);
  if (queue_.empty()) DoClose();
}

void Session::DoClose() {
  const websocket::close_reason reason = *pending_close_;
  pending_close_.reset();
  ws_->async_close(reason, [self = shared_from_this()](beast::error_code) {});
}

}  // namespace carc::server
