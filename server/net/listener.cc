#include "net/listener.h"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>

namespace carc::server {

namespace asio = boost::asio;
using std::chrono::milliseconds;

namespace {

// The pause after running out of descriptors grows from the first to the last.
constexpr milliseconds kFirstAcceptBackoff{10};
constexpr milliseconds kLastAcceptBackoff{1000};
// Running out of descriptors is reported once, then at most this often.
constexpr std::chrono::seconds kExhaustionReportInterval{10};

bool IsDescriptorExhaustion(const boost::system::error_code& ec) {
  return ec == asio::error::no_descriptors ||                         // EMFILE
         ec == boost::system::errc::too_many_files_open_in_system ||  // ENFILE
         ec == asio::error::no_buffer_space || ec == asio::error::no_memory;
}

int OpenReserve() { return ::open("/dev/null", O_RDONLY | O_CLOEXEC); }

}  // namespace

Listener::Listener(asio::io_context& io, std::string name, OnConnection on_connection,
                   std::function<size_t()> open_connections, std::function<bool()> has_room)
    : io_(io),
      name_(std::move(name)),
      on_connection_(std::move(on_connection)),
      open_connections_(std::move(open_connections)),
      has_room_(std::move(has_room)),
      acceptor_(asio::make_strand(io)),
      accept_retry_(acceptor_.get_executor()) {}

Listener::~Listener() {
  if (reserve_fd_ >= 0) ::close(reserve_fd_);
}

std::optional<std::string> Listener::Listen(const std::string& address, uint16_t port) {
  boost::system::error_code ec;
  const auto ip = asio::ip::make_address(address, ec);
  if (ec) return "bad address '" + address + "': " + ec.message();
  const asio::ip::tcp::endpoint endpoint(ip, port);
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor_.bind(endpoint, ec);
  if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    return "cannot listen on " + address + ":" + std::to_string(port) + " (" + name_ +
           "): " + ec.message();
  }
  port_ = acceptor_.local_endpoint().port();
  reserve_fd_ = OpenReserve();
  return std::nullopt;
}

void Listener::Start() {
  asio::post(acceptor_.get_executor(), [this] { DoAccept(); });
}

void Listener::Stop() {
  asio::post(acceptor_.get_executor(), [this] {
    stopped_ = true;
    boost::system::error_code ignored;
    acceptor_.close(ignored);
    accept_retry_.cancel();
  });
}

void Listener::DoAccept() {
  if (stopped_) return;
  // Without room, only the connection the spare descriptor is lent to is accepted.
  if (has_room_ && !lease_next_ && !has_room_()) {
    return OnDescriptorsExhausted("the descriptors left are kept for the operator and the log");
  }
  acceptor_.async_accept(asio::make_strand(io_),
                         [this](boost::system::error_code ec, asio::ip::tcp::socket socket) {
                           OnAccept(ec, std::move(socket));
                         });
}

void Listener::OnAccept(boost::system::error_code ec, asio::ip::tcp::socket socket) {
  if (stopped_ || ec == asio::error::operation_aborted) return;
  if (IsDescriptorExhaustion(ec)) return OnDescriptorsExhausted(ec.message());
  if (ec) {
    spdlog::warn("accept ({}): {}", name_, ec.message());
    return DoAccept();
  }
  accept_backoff_ = milliseconds{0};
  std::shared_ptr<void> reserve;
  if (lease_next_) {
    lease_next_ = false;
    reserve = LeaseReserve();
  }
  on_connection_(std::move(socket), std::move(reserve));
  DoAccept();
}

// With every descriptor in use, a waiting connection cannot be accepted, and trying again at
// once would spin. The listener keeps one descriptor spare: it lets go of it to accept one
// connection (which may be answered; the owner refuses to keep it), and gets it back when that
// connection ends. Otherwise it waits a little longer each time, and the connections the server
// has are served meanwhile.
void Listener::OnDescriptorsExhausted(const std::string& why) {
  ++exhausted_refusals_;
  const auto now = std::chrono::steady_clock::now();
  if (last_exhaustion_report_ == std::chrono::steady_clock::time_point{} ||
      now - last_exhaustion_report_ >= kExhaustionReportInterval) {
    spdlog::warn("accept ({}): {} ({} times since the last report); {} connections open, retrying",
                 name_, why, exhausted_refusals_, open_connections_());
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
std::shared_ptr<void> Listener::LeaseReserve() {
  return std::shared_ptr<void>(static_cast<void*>(this), [this](void*) {
    asio::post(acceptor_.get_executor(), [this] {
      if (reserve_fd_ < 0 && !stopped_) reserve_fd_ = OpenReserve();
    });
  });
}

}  // namespace carc::server
