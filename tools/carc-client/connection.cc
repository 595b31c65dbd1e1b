#include "connection.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/beast/http.hpp>

namespace carc::client {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;

std::variant<Endpoints, std::string> Resolve(const ServerUrl& url) {
  asio::io_context io;
  asio::ip::tcp::resolver resolver(io);
  beast::error_code ec;
  Endpoints endpoints = resolver.resolve(url.host, url.port, ec);
  if (ec) return "cannot resolve '" + url.host + "': " + ec.message();
  return endpoints;
}

wire::ClientMessage HelloMessage() {
  wire::ClientMessage message;
  message.mutable_hello()->set_protocol_version(protocol::kProtocolVersion);
  message.mutable_hello()->set_client("carc-client 0.2");
  return message;
}

std::string Describe(const wire::Error& error) {
  std::string text = wire::ErrorCode_Name(error.code()) + ": " + error.reason();
  if (!error.rule_error().empty()) text += " (" + error.rule_error() + ")";
  return text;
}

// ---------------------------------------------------------------------------------------------
// Connection

std::shared_ptr<Connection> Connection::Create(Strand strand, ServerUrl url, Endpoints endpoints) {
  return std::shared_ptr<Connection>(
      new Connection(std::move(strand), std::move(url), std::move(endpoints)));
}

Connection::Connection(Strand strand, ServerUrl url, Endpoints endpoints)
    : strand_(std::move(strand)),
      ws_(strand_),
      url_(std::move(url)),
      endpoints_(std::move(endpoints)) {}

void Connection::Start(Handlers handlers) {
  asio::dispatch(strand_, [self = shared_from_this(), handlers = std::move(handlers)]() mutable {
    self->handlers_ = std::move(handlers);
    if (self->close_requested_) return self->Finish("");
    auto& tcp = beast::get_lowest_layer(self->ws_);
    tcp.expires_after(std::chrono::seconds(10));
    tcp.async_connect(self->endpoints_, beast::bind_front_handler(&Connection::OnConnect, self));
  });
}

void Connection::OnConnect(beast::error_code ec, const asio::ip::tcp::endpoint&) {
  if (ec) {
    if (close_requested_) return Finish("");
    return Finish("cannot connect to " + url_.ToString() + ": " + ec.message());
  }
  beast::get_lowest_layer(ws_).expires_never();
  beast::get_lowest_layer(ws_).socket().set_option(asio::ip::tcp::no_delay(true), ec);
  // Client defaults: a handshake (and close) timeout, no idle timeout; the server's pings are
  // answered while a read is pending, and one always is.
  ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
  ws_.set_option(websocket::stream_base::decorator([](websocket::request_type& request) {
    request.set(http::field::user_agent, "carc-client");
  }));
  ws_.binary(true);
  ws_.read_message_max(16 << 20);
  ws_.async_handshake(upgrade_response_, url_.HostHeader(), url_.path,
                      beast::bind_front_handler(&Connection::OnHandshake, shared_from_this()));
}

void Connection::OnHandshake(beast::error_code ec) {
  if (ec) {
    if (close_requested_) return Finish("");
    // An HTTP answer instead of the upgrade says why (a proxy's 502: the instance behind it is
    // down).
    const unsigned status = upgrade_response_.result_int();
    const std::string answer = status == 0 ? ""
                                           : " (HTTP " + std::to_string(status) + " " +
                                                 std::string(upgrade_response_.reason()) + ")";
    return Finish("WebSocket upgrade at " + url_.ToString() + " failed: " + ec.message() + answer);
  }
  open_ = true;
  if (handlers_.opened) handlers_.opened();
  if (finished_) return;
  DoRead();
  if (!writing_ && !queue_.empty()) {
    DoWrite();
  } else if (close_requested_ && !writing_) {
    DoClose();
  }
}

void Connection::DoRead() {
  ws_.async_read(buffer_, beast::bind_front_handler(&Connection::OnRead, shared_from_this()));
}

void Connection::OnRead(beast::error_code ec, size_t) {
  if (ec) {
    if (close_requested_) return Finish("");
    if (ec == websocket::error::closed) {
      const websocket::close_reason& reason = ws_.reason();
      return Finish(
          "the server closed the connection (code " + std::to_string(reason.code) +
          (reason.reason.empty()
               ? ""
               : ", \"" + std::string(reason.reason.data(), reason.reason.size()) + "\"") +
          ")");
    }
    return Finish("connection lost: " + ec.message());
  }
  wire::ServerMessage message;
  const bool parsed =
      message.ParseFromArray(buffer_.data().data(), static_cast<int>(buffer_.size()));
  buffer_.consume(buffer_.size());
  if (!parsed) {
    Abort();
    return Finish("the server sent a frame that is not a ServerMessage");
  }
  if (handlers_.message) handlers_.message(message);
  if (!finished_) DoRead();
}

uint64_t Connection::Send(wire::ClientMessage message) {
  const uint64_t id = next_request_id_.fetch_add(1);
  message.set_request_id(id);
  auto bytes = std::make_shared<std::string>();
  message.SerializeToString(bytes.get());
  asio::dispatch(strand_, [self = shared_from_this(), bytes = std::move(bytes)]() mutable {
    self->Queue(std::move(bytes));
  });
  return id;
}

void Connection::Queue(std::shared_ptr<const std::string> bytes) {
  if (finished_ || close_requested_) return;
  queue_.push_back(std::move(bytes));
  if (open_ && !writing_) DoWrite();
}

void Connection::DoWrite() {
  writing_ = true;
  ws_.async_write(asio::buffer(*queue_.front()),
                  beast::bind_front_handler(&Connection::OnWrite, shared_from_this()));
}

void Connection::OnWrite(beast::error_code ec, size_t) {
  writing_ = false;
  if (ec) {
    if (!finished_) Abort();
    return;  // the pending read reports the failure
  }
  queue_.pop_front();
  if (!queue_.empty()) return DoWrite();
  if (close_requested_) DoClose();
}

void Connection::Close() {
  asio::dispatch(strand_, [self = shared_from_this()] {
    if (self->close_requested_ || self->finished_) return;
    self->close_requested_ = true;
    if (!self->open_) {
      // Still connecting: stop that; its handler finishes.
      beast::error_code ignored;
      beast::get_lowest_layer(self->ws_).socket().close(ignored);
      return;
    }
    if (!self->writing_) self->DoClose();
  });
}

void Connection::DoClose() {
  if (close_sent_ || finished_) return;
  close_sent_ = true;
  ws_.async_close(websocket::close_code::normal, [self = shared_from_this()](beast::error_code ec) {
    if (ec) self->Abort();
  });
}

void Connection::Abort() {
  asio::dispatch(strand_, [self = shared_from_this()] {
    beast::error_code ignored;
    beast::get_lowest_layer(self->ws_).socket().close(ignored);
  });
}

void Connection::Finish(const std::string& error) {
  if (finished_) return;
  finished_ = true;
  queue_.clear();
  Handlers handlers = std::move(handlers_);
  handlers_ = {};
  if (handlers.closed) handlers.closed(error);
}

// ---------------------------------------------------------------------------------------------
// BlockingClient

BlockingClient::~BlockingClient() {
  try {
    Close();
  } catch (...) {
    // Closing is a courtesy to the server; the process goes on without it.
  }
}

bool BlockingClient::RunUntil(const std::function<bool()>& done) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    if (io_.stopped()) io_.restart();
    if (io_.run_one_until(deadline) == 0 && io_.stopped() && !done()) {
      // No work left at all: nothing more will arrive.
      return done();
    }
  }
  return true;
}

std::optional<std::string> BlockingClient::Open(const ServerUrl& url) {
  auto endpoints = Resolve(url);
  if (auto* error = std::get_if<std::string>(&endpoints)) return *error;
  connection_ =
      Connection::Create(asio::make_strand(io_), url, std::get<Endpoints>(std::move(endpoints)));
  connection_->Start({
      .opened = [this] { opened_ = true; },
      .message = [this](const wire::ServerMessage& m) { inbox_.push_back(m); },
      .closed = [this](const std::string& error) { closed_ = error; },
  });
  if (!RunUntil([this] { return opened_ || closed_; })) {
    return "no answer from " + url.ToString() + " within " + std::to_string(timeout.count()) + " s";
  }
  if (closed_) return closed_->empty() ? std::string("connection closed") : *closed_;
  auto welcome = Call(HelloMessage());
  if (auto* error = std::get_if<std::string>(&welcome)) return *error;
  const auto& reply = std::get<wire::ServerMessage>(welcome);
  if (reply.has_error()) return "the server refused Hello: " + Describe(reply.error());
  if (!reply.has_welcome()) return std::string("the server did not answer Hello with Welcome");
  welcome_ = reply.welcome();
  return std::nullopt;
}

std::variant<wire::ServerMessage, std::string> BlockingClient::Call(wire::ClientMessage message) {
  if (!connection_) return std::string("not connected");
  const uint64_t id = connection_->Send(std::move(message));
  std::optional<wire::ServerMessage> reply;
  const auto take = [&] {
    while (!reply && !inbox_.empty()) {
      if (inbox_.front().request_id() == id) reply = std::move(inbox_.front());
      inbox_.pop_front();
    }
    return reply.has_value() || closed_.has_value();
  };
  if (!RunUntil(take)) return "no reply within " + std::to_string(timeout.count()) + " s";
  if (reply) return *std::move(reply);
  return closed_->empty() ? std::string("connection closed") : *closed_;
}

void BlockingClient::Close() {
  if (!connection_) return;
  connection_->Close();
  const auto saved = timeout;
  timeout = std::chrono::seconds(2);
  RunUntil([this] { return closed_.has_value(); });
  timeout = saved;
  connection_.reset();
}

}  // namespace carc::client
