#include "net/server.h"

#include <spdlog/spdlog.h>
#include <sys/resource.h>

#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <chrono>
#include <filesystem>

#include "net/operator_session.h"

namespace carc::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
using std::chrono::milliseconds;

namespace {

// How often a stopping server looks whether its commits are done and its clients gone.
constexpr milliseconds kStopPoll{10};
// Descriptors the players' connections leave free (Server::PlayersHaveRoom).
constexpr size_t kDescriptorHeadroom = 16;

}  // namespace

Server::Server(asio::io_context& io, ServerConfig config, RuleSetRegistry rule_sets,
               TokenSource tokens, Clock clock)
    : io_(io),
      config_(std::move(config)),
      rule_sets_(std::move(rule_sets)),
      tokens_(std::move(tokens)),
      clock_(std::move(clock)),
      housekeeping_(io),
      players_(
          io, "players",
          [this](asio::ip::tcp::socket socket, std::shared_ptr<void> reserve) {
            OnPlayerConnection(std::move(socket), std::move(reserve));
          },
          [this] { return registry_.Total(); }, [this] { return PlayersHaveRoom(); }),
      stop_timer_(asio::make_strand(io)) {}

Server::~Server() = default;

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
  if (auto error = players_.Listen(config_.address, config_.port)) return error;
  if (config_.operator_port) {
    operator_ = std::make_unique<Listener>(
        io_, "operator",
        [this](asio::ip::tcp::socket socket, std::shared_ptr<void> reserve) {
          OnOperatorConnection(std::move(socket), std::move(reserve));
        },
        [this] { return operator_registry_.Total(); });
    if (auto error = operator_->Listen(config_.operator_address, *config_.operator_port)) {
      return error;
    }
    operator_->Start();
  }
  CountDescriptors();
  ScheduleHousekeeping();
  players_.Start();
  return std::nullopt;
}

// Counted once, when everything but the connections is open: the game log's files, the
// listeners and their spares, the io machinery.
void Server::CountDescriptors() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return;
  descriptor_limit_ = static_cast<size_t>(limit.rlim_cur);
  std::error_code ec;
  size_t open = 0;
  for (auto it = std::filesystem::directory_iterator("/proc/self/fd", ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    ++open;
  }
  descriptors_at_start_ = open > 0 ? open - 1 : 0;  // less the directory's own
}

// A players' connection may take a descriptor while kDescriptorHeadroom stay free besides: for
// the operator's connections and the game log's passing needs (SQLite's temporary files, an
// archive being written), and a file of the web client being sent.
bool Server::PlayersHaveRoom() const {
  if (descriptor_limit_ == 0) return true;
  const size_t held =
      descriptors_at_start_ + registry_.Total() + operator_registry_.Total() + kDescriptorHeadroom;
  return held < descriptor_limit_;
}

// ---------------------------------------------------------------------------------------------
// Accepting

// Runs on the players' listener's strand.
void Server::OnPlayerConnection(asio::ip::tcp::socket socket, std::shared_ptr<void> reserve) {
  // Deltas are small and often two in a row (a move, then the server's draw): without this the
  // second waits for the client's delayed acknowledgement.
  boost::system::error_code ignored;
  socket.set_option(asio::ip::tcp::no_delay(true), ignored);
  std::make_shared<Session>(beast::tcp_stream(std::move(socket)), *context_, next_session_++,
                            std::move(reserve))
      ->Run();
}

void Server::OnOperatorConnection(asio::ip::tcp::socket socket, std::shared_ptr<void> reserve) {
  std::make_shared<OperatorSession>(beast::tcp_stream(std::move(socket)), operator_registry_,
                                    registry_, std::move(reserve))
      ->Run();
}

// ---------------------------------------------------------------------------------------------
// Stopping

void Server::Stop(const std::string& reason) {
  players_.Stop();
  if (operator_) operator_->Stop();
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
    operator_registry_.ForceCloseAll();  // one request each, nothing to finish
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
