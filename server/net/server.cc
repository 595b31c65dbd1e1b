#include "net/server.h"

#include <spdlog/spdlog.h>

#include <boost/asio/strand.hpp>
#include <chrono>

namespace carc::server {

namespace asio = boost::asio;

Server::Server(asio::io_context& io, ServerConfig config,
               std::shared_ptr<const core::TileSet> tiles, TokenSource tokens)
    : io_(io),
      config_(std::move(config)),
      tiles_(std::move(tiles)),
      tokens_(std::move(tokens)),
      housekeeping_(io),
      acceptor_(asio::make_strand(io)) {}

std::optional<std::string> Server::OpenLog() {
  const auto started = std::chrono::steady_clock::now();
  auto opened = Storage::Open(config_);
  if (auto* error = std::get_if<std::string>(&opened)) return *error;
  storage_ = std::move(std::get<std::unique_ptr<Storage>>(opened));
  lobby_ = std::make_unique<Lobby>(io_, config_, tiles_, tokens_, *storage_);
  auto games = storage_->TakeUnfinished();
  size_t actions = 0;
  for (const auto& g : games) actions += g.actions.size();
  const size_t count = games.size();
  const size_t damaged = lobby_->Restore(games);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  spdlog::info("game log {}: resumed {} unfinished games ({} actions, {} damaged) in {:.0f} ms",
               storage_->path(), count, actions, damaged, ms);
  registry_.game_count = [this] { return lobby_->GameCount(); };
  registry_.log_stats = [this] { return storage_->StatsJson(); };
  return std::nullopt;
}

// Expires old finished games now and then every hour (when configured).
void Server::ScheduleHousekeeping() {
  if (config_.expire_after_days <= 0) return;
  storage_->Expire();
  housekeeping_.expires_after(std::chrono::hours(1));
  housekeeping_.async_wait([this](const boost::system::error_code& ec) {
    if (!ec) ScheduleHousekeeping();
  });
}

std::optional<std::string> Server::Start() {
  if (auto error = OpenLog()) return error;
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
  ScheduleHousekeeping();
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
          std::make_shared<Session>(std::move(socket), config_, *lobby_, registry_, next_session_++)
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
  housekeeping_.cancel();
  if (lobby_) lobby_->Stop();
  registry_.ShutdownAll(reason);
}

}  // namespace carc::server
