#include "net/operator_session.h"

#include <boost/asio/dispatch.hpp>
#include <chrono>

#include "room/metrics.h"

namespace carc::server {

namespace beast = boost::beast;
namespace http = beast::http;

namespace {

// The whole request must arrive within this: a health check or a scrape is one short request.
constexpr std::chrono::seconds kRequestTimeout{5};
// An operator's request is small; anything larger is refused by the parser.
constexpr uint32_t kMaxRequestBytes = 8192;

}  // namespace

OperatorSession::OperatorSession(beast::tcp_stream stream, SessionRegistry& registry,
                                 const SessionRegistry& health, std::shared_ptr<void> reserve)
    : stream_(std::move(stream)),
      registry_(registry),
      health_(health),
      reserve_(std::move(reserve)) {}

OperatorSession::~OperatorSession() { registry_.Remove(this); }

void OperatorSession::Run() {
  registry_.Add(shared_from_this());
  boost::asio::dispatch(stream_.get_executor(), [self = shared_from_this()] {
    self->stream_.expires_after(kRequestTimeout);
    auto parser = std::make_shared<http::request_parser<http::string_body>>();
    parser->body_limit(kMaxRequestBytes);
    parser->header_limit(kMaxRequestBytes);
    http::async_read(self->stream_, self->buffer_, *parser,
                     [self, parser](beast::error_code ec, size_t bytes) {
                       if (!ec) self->request_ = parser->release();
                       self->OnRead(ec, bytes);
                     });
  });
}

void OperatorSession::OnRead(beast::error_code ec, size_t) {
  if (ec) return;  // gone, too slow or malformed: nothing to answer
  const bool get = request_.method() == http::verb::get;
  if (get && request_.target() == "/healthz") {
    return Respond(http::status::ok, health_.HealthJson(), "application/json");
  }
  if (get && request_.target() == "/metrics") {
    return Respond(http::status::ok, health_.metrics_text ? health_.metrics_text() : "",
                   kMetricsContentType);
  }
  Respond(http::status::not_found, R"({"error":"not found"})", "application/json");
}

void OperatorSession::Respond(http::status status, std::string body, const char* content_type) {
  auto response = ClosingResponse(status, request_.version(), std::move(body), content_type);
  http::async_write(
      stream_, *response, [self = shared_from_this(), response](beast::error_code, size_t) {
        beast::error_code ignored;
        self->stream_.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_send, ignored);
      });
}

void OperatorSession::Shutdown(const std::string&) { ForceClose(); }

void OperatorSession::ForceClose() {
  boost::asio::dispatch(stream_.get_executor(),
                        [self = shared_from_this()] { self->stream_.close(); });
}

}  // namespace carc::server
