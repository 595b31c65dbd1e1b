#include "net/server.h"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <chrono>

namespace carc::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
using std::chrono::milliseconds;

namespace {

// The pause after running out of descriptors grows from the first to the last.
constexpr milliseconds kFirstAcceptBackoff{10};
constexpr milliseconds kLastAcceptBackoff{1000};
// Running out of descriptors is reported once, then at most this often.
constexpr std::chrono::seconds kExhaustionReportInterval{10};
// How often a stopping server looks whether its commits are done and its clients gone.
constexpr milliseconds kStopPoll{10};

bool IsDescriptorExhaustion(const boost::system::error_code& ec) {
  return ec == asio::error::no_descriptors ||                         // EMFILE
         ec == boost::system::errc::too_many_files_open_in_system ||  // ENFILE
         ec == asio::error::no_buffer_space || ec == asio::error::no_memory;
}

int OpenReserve() { return ::open("/dev/null", O_RDONLY | O_CLOEXEC); }

}  // namespace

Server::Server(asio::io_context& io, ServerConfig config, RuleSetRegistry rule_sets,
               TokenSource tokens, Clock clock)
    : io_(io),
      config_(std::move(config)),
      rule_sets_(std::move(rule_sets)),
      tokens_(std::move(tokens)),
      clock_(std::move(clock)),
      housekeeping_(io),
      acceptor_(asio::make_strand(io)),
      accept_retry_(acceptor_.get_executor()),
      stop_timer_(asio::make_strand(io)) {}

Server::~Server() {
  if (reserve_fd_ >= 0) ::close(reserve_fd_);
}

std::optional<std::string> Server::OpenLog() {
  const auto started = std::chrono::steady_clock::now();
  auto opened = Storage::Open(config_);
  if (auto* error = std::get_if<std::string>(&opened)) return *error;
  storage_ = std::move(std::get<std::unique_ptr<Storage>>(opened));
  bot_pool_ = std::make_unique<BotPool>(config_.bot_threads, config_.bot_queue);
  lobby_ =
      std::make_unique<Lobby>(io_, config_, rule_sets_, tokens_, *storage_, *bot_pool_, &metrics_);
  auto games = storage_->TakeUnfinished();
  const auto loaded = std::chrono::steady_clock::now();
  size_t actions = 0;
  for (const auto& g : games) actions += g.actions.size();
  const size_t count = games.size();
  const size_t damaged = lobby_->Restore(games);
  const auto ms = [](auto from, auto to) {
    return std::chrono::duration<double, std::milli>(to - from).count();
  };
  const auto now = std::chrono::steady_clock::now();
  spdlog::info(
      "game log {}: resumed {} unfinished games ({} actions, {} damaged) in {:.0f} ms ({:.0f} ms "
      "reading the log, {:.0f} ms replaying)",
      storage_->path(), count, actions, damaged, ms(started, now), ms(started, loaded),
      ms(loaded, now));
  registry_.game_count = [this] { return lobby_->GameCount(); };
  registry_.log_stats = [this] { return storage_->StatsJson(); };
  registry_.metrics_text = [this] {
    return metrics_.Render({.connections = registry_.Count(),
                            .games = lobby_->GamesByStatus(),
                            .log = storage_->journal().Stats()});
  };
  context_ = std::make_unique<SessionContext>(SessionContext{config_, *lobby_, registry_, clock_});
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
  reserve_fd_ = OpenReserve();
  ScheduleHousekeeping();
  asio::post(acceptor_.get_executor(), [this] { DoAccept(); });
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// Accepting

void Server::DoAccept() {
  if (stopped_) return;
  acceptor_.async_accept(asio::make_strand(io_),
                         [this](boost::system::error_code ec, asio::ip::tcp::socket socket) {
                           OnAccept(ec, std::move(socket));
                         });
}

void Server::OnAccept(boost::system::error_code ec, asio::ip::tcp::socket socket) {
  if (stopped_ || ec == asio::error::operation_aborted) return;
  if (IsDescriptorExhaustion(ec)) return OnDescriptorsExhausted(ec);
  if (ec) {
    spdlog::warn("accept: {}", ec.message());
    return DoAccept();
  }
  accept_backoff_ = milliseconds{0};
  // Deltas are small and often two in a row (a move, then the server's draw): without this the
  // second waits for the client's delayed acknowledgement.
  boost::system::error_code ignored;
  socket.set_option(asio::ip::tcp::no_delay(true), ignored);
  std::shared_ptr<void> reserve;
  if (lease_next_) {
    lease_next_ = false;
    reserve = LeaseReserve();
  }
  std::make_shared<Session>(beast::tcp_stream(std::move(socket)), *context_, next_session_++,
                            std::move(reserve))
      ->Run();
  DoAccept();
}

// With every descriptor in use, a waiting connection cannot be accepted, and trying again at
// once would spin. The server keeps one descriptor spare: it lets go of it to accept one
// connection (which may ask /healthz; an upgrade on it is refused), and gets it back when that
// connection ends. Otherwise it waits a little longer each time, and serves the connections it
// has meanwhile.
void Server::OnDescriptorsExhausted(const boost::system::error_code& ec) {
  ++exhausted_refusals_;
  const auto now = std::chrono::steady_clock::now();
  if (last_exhaustion_report_ == std::chrono::steady_clock::time_point{} ||
      now - last_exhaustion_report_ >= kExhaustionReportInterval) {
    spdlog::warn("accept: {} ({} times since the last report); {} connections open, retrying",
                 ec.message(), exhausted_refusals_, registry_.Total());
    exhausted_refusals_ = 0;
    last_exhaustion_report_ = now;
  }
  if (reserve_fd_ >= 0 && !lease_next_) {
    ::close(reserve_fd_);
    reserve_fd_ = -1;
    lease_next_ = true;
    return DoAccept();
  }
  accept_backoff_ = std::clamp(accept_backoff_ * 2, kFirstAcceptBackoff, kLastAcceptBackoff);
  accept_retry_.expires_after(accept_backoff_);
  accept_retry_.async_wait([this](const boost::system::error_code& wait) {
    if (!wait) DoAccept();
  });
}

// The spare descriptor is opened again when the connection that had it ends.
std::shared_ptr<void> Server::LeaseReserve() {
  return std::shared_ptr<void>(static_cast<void*>(this), [this](void*) {
    asio::post(acceptor_.get_executor(), [this] {
      if (reserve_fd_ < 0 && !stopped_) reserve_fd_ = OpenReserve();
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Stopping

void Server::Stop(const std::string& reason) {
  asio::post(acceptor_.get_executor(), [this] {
    stopped_ = true;
    boost::system::error_code ignored;
    acceptor_.close(ignored);
    accept_retry_.cancel();
  });
  registry_.BeginStopping();
  asio::post(stop_timer_.get_executor(), [this, reason] {
    spdlog::info("shutting down: {} connections, {} games", registry_.Total(),
                 lobby_ ? lobby_->GameCount() : 0);
    housekeeping_.cancel();
    if (lobby_) lobby_->Stop();
    stop_reason_ = reason;
    stop_began_ = std::chrono::steady_clock::now();
    stop_deadline_ = stop_began_ + config_.shutdown_grace;
    StopStep();
  });
}

// Runs on the stop timer's strand until every client is gone or the grace time is over. The
// commits in flight come first, so that their deltas go out before ServerClosing.
void Server::StopStep() {
  const auto now = std::chrono::steady_clock::now();
  const bool late = now >= stop_deadline_;
  if (!told_clients_ && (!lobby_ || lobby_->WorkInFlight() == 0 || late)) {
    told_clients_ = true;
    registry_.ShutdownAll(stop_reason_);
  }
  const size_t left = registry_.Total();
  if (told_clients_ && left == 0) {
    spdlog::info("every connection closed after {} ms",
                 std::chrono::duration_cast<milliseconds>(now - stop_began_).count());
    return;
  }
  if (late) {
    spdlog::info("{} connections still open after {} ms: closing them", left,
                 config_.shutdown_grace.count());
    registry_.ForceCloseAll();
    return;  // their last handlers run, and the io_context runs out of work
  }
  stop_timer_.expires_after(kStopPoll);
  stop_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (!ec) StopStep();
  });
}

}  // namespace carc::server
