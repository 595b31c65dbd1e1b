#include "net/server.h"

#include <spdlog/spdlog.h>

#include <boost/asio/strand.hpp>

namespace carc::server {

namespace asio = boost::asio;

Server::Server(asio::io_context& io, ServerConfig config,
               std::shared_ptr<const core::TileSet> tiles, TokenSource tokens)
    : io_(io),
      config_(std::move(config)),
      lobby_(io, config_, std::move(tiles), std::move(tokens)),
      acceptor_(asio::make_strand(io)) {
  registry_.game_count = [this] { return lobby_.GameCount(); };
}

std::optional<std::string> Server::Start() {
  boost::system::error_code ec;
  const auto address = asio::ip::make_address(config_.address, ec);
  if (ec) return "bad address '" + config_.address + "': " + ec.message();
  const asio::ip::tcp::endpoint endpoint(address, config_.port);
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor_.bind(endpoint, ec);
  if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  if (ec)
    return "cannot listen on " + config_.address + ":" + std::to_string(config_.port) + ": " +
           ec.message();
  port_ = acceptor_.local_endpoint().port();
  DoAccept();
  return std::nullopt;
}

void Server::DoAccept() {
  acceptor_.async_accept(
      asio::make_strand(io_), [this](boost::system::error_code ec, asio::ip::tcp::socket socket) {
        if (ec == asio::error::operation_aborted) return;  // stopped
        if (!ec) {
          // Deltas are small and often two in a row (a move, then the server's draw): without
          // this the second waits for the client's delayed acknowledgement.
          boost::system::error_code ignored;
          socket.set_option(asio::ip::tcp::no_delay(true), ignored);
          std::make_shared<Session>(std::move(socket), config_, lobby_, registry_, next_session_++)
              ->Run();
        } else {
          spdlog::warn("accept: {}", ec.message());
        }
        DoAccept();
      });
}

void Server::Stop(const std::string& reason) {
  asio::post(acceptor_.get_executor(), [this] {
    boost::system::error_code ignored;
    acceptor_.close(ignored);
  });
  spdlog::info("shutting down: {} connections", registry_.Count());
  lobby_.Stop();
  registry_.ShutdownAll(reason);
}

}  // namespace carc::server
