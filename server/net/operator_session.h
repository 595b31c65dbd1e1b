// One connection to the operator's port (--operator-port): a single HTTP request, answered and
// closed. GET /healthz and GET /metrics are served there; nothing else (404). The public proxy
// forwards only the players' port, so what an operator reads here is out of the players'
// reach, and a flood of players' connections does not queue ahead of it (net/listener.h).
#pragma once

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <memory>

#include "net/session.h"

namespace carc::server {

class OperatorSession : public ManagedSession,
                        public std::enable_shared_from_this<OperatorSession> {
 public:
  // `registry`: where the session is counted (the operator's own), and what /healthz and
  // /metrics report (the players' side's figures: `health`). `reserve`: the listener's spare
  // descriptor, when this connection has it.
  OperatorSession(boost::beast::tcp_stream stream, SessionRegistry& registry,
                  const SessionRegistry& health, std::shared_ptr<void> reserve);
  ~OperatorSession() override;
  void Run();
  void Shutdown(const std::string& reason) override;
  void ForceClose() override;

 private:
  void OnRead(boost::beast::error_code ec, size_t bytes);
  void Respond(boost::beast::http::status status, std::string body, const char* content_type);

  boost::beast::tcp_stream stream_;
  SessionRegistry& registry_;
  const SessionRegistry& health_;
  std::shared_ptr<void> reserve_;
  boost::beast::flat_buffer buffer_;
  boost::beast::http::request<boost::beast::http::string_body> request_;
};

}  // namespace carc::server
