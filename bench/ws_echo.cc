// ws_echo: a plain Boost.Beast WebSocket echo server and a closed-loop load for it.
//
// A measuring tool, not part of the game server: it gives the ceiling of the stack the server
// is built on (Boost.Beast WebSockets over loopback on this machine), against which the
// server's durably logged moves per second are compared (docs/performance.md, "What one machine
// holds").
//
//   ws_echo serve --port P [--threads N]
//       echoes every message back as it came (binary stays binary), on 127.0.0.1 only; an
//       io_context run on N threads (default: the hardware's), each connection on its strand.
//   ws_echo load --port P --connections C --seconds S --bytes B [--threads N]
//       opens C connections, then each sends a binary message of B bytes and waits for its
//       echo before the next, for S seconds; prints one JSON line.
#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;
using WebSocket = websocket::stream<beast::tcp_stream>;

constexpr int kMaxConnections = 10'000;
constexpr int kMaxSeconds = 600;
constexpr int kMaxBytes = 1 << 20;
constexpr int kMaxThreads = 256;

int default_threads() {
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

// Each connection is a descriptor on each side: raise the soft limit as far as the hard one
// allows, so that thousands of connections do not fail on the default of 1,024.
void raise_descriptor_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
  limit.rlim_cur = limit.rlim_max;
  setrlimit(RLIMIT_NOFILE, &limit);
}

// Runs the io_context on `threads` threads until it runs out of work or is stopped. An error
// escaping a handler is reported and stops every thread, so that none is left unjoined.
void run_on_threads(asio::io_context& io, int threads) {
  const auto run = [&io] {
    try {
      io.run();
    } catch (const std::exception& error) {
      std::fprintf(stderr, "ws_echo: %s\n", error.what());
      io.stop();
    }
  };
  std::vector<std::thread> pool;
  for (int i = 1; i < threads; ++i) pool.emplace_back(run);
  run();
  for (auto& thread : pool) thread.join();
}

// --- serve ---------------------------------------------------------------------------------

// One accepted connection: reads a message, writes it back, reads the next.
class EchoSession : public std::enable_shared_from_this<EchoSession> {
 public:
  explicit EchoSession(tcp::socket socket) : ws_(std::move(socket)) {}

  void start() {
    ws_.async_accept([self = shared_from_this()](beast::error_code error) {
      if (!error) self->read();
    });
  }

 private:
  void read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code error, std::size_t) {
      if (!error) self->echo();
    });
  }

  void echo() {
    ws_.binary(ws_.got_binary());
    ws_.async_write(buffer_.data(),
                    [self = shared_from_this()](beast::error_code error, std::size_t) {
                      if (error) return;
                      self->buffer_.consume(self->buffer_.size());
                      self->read();
                    });
  }

  WebSocket ws_;
  beast::flat_buffer buffer_;
};

class EchoServer {
 public:
  EchoServer(asio::io_context& io, unsigned short port)
      : io_(io), acceptor_(io, tcp::endpoint(asio::ip::address_v4::loopback(), port)) {}

  void accept() {
    acceptor_.async_accept(asio::make_strand(io_),
                           [this](beast::error_code error, tcp::socket socket) {
                             if (!acceptor_.is_open()) return;
                             if (!error) {
                               socket.set_option(tcp::no_delay(true));
                               std::make_shared<EchoSession>(std::move(socket))->start();
                             }
                             accept();
                           });
  }

 private:
  asio::io_context& io_;
  tcp::acceptor acceptor_;
};

int serve(unsigned short port, int threads) {
  raise_descriptor_limit();
  asio::io_context io(threads);
  EchoServer server(io, port);
  server.accept();
  // Stops on SIGINT or SIGTERM: every thread leaves the io_context; open connections are
  // dropped with it.
  asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&io](beast::error_code, int) { io.stop(); });
  std::fprintf(stderr, "ws_echo: echoing on 127.0.0.1:%u with %d threads\n", port, threads);
  run_on_threads(io, threads);
  return 0;
}

// --- load ----------------------------------------------------------------------------------

struct LoadOptions {
  std::string host = "127.0.0.1";
  unsigned short port = 0;
  int connections = 1000;
  int seconds = 20;
  int bytes = 60;
  int threads = default_threads();
};

// One client connection in a closed loop: send, wait for the echo, record the round trip,
// send again, until the deadline.
class EchoClient : public std::enable_shared_from_this<EchoClient> {
 public:
  EchoClient(asio::io_context& io, const std::string& payload)
      : ws_(asio::make_strand(io)), payload_(payload) {}

  // Connects and upgrades synchronously: the clock starts only once every connection is open.
  void open(const tcp::endpoint& endpoint) {
    beast::get_lowest_layer(ws_).connect(endpoint);
    beast::get_lowest_layer(ws_).socket().set_option(tcp::no_delay(true));
    ws_.handshake(endpoint.address().to_string() + ":" + std::to_string(endpoint.port()), "/");
    ws_.binary(true);
  }

  void start(Clock::time_point deadline) {
    deadline_ = deadline;
    asio::dispatch(ws_.get_executor(), [self = shared_from_this()] { self->send(); });
  }

  [[nodiscard]] const std::vector<float>& round_trips_ms() const { return round_trips_ms_; }
  [[nodiscard]] bool failed() const { return failed_; }

 private:
  void send() {
    if (Clock::now() >= deadline_) return close();
    sent_at_ = Clock::now();
    ws_.async_write(asio::buffer(payload_),
                    [self = shared_from_this()](beast::error_code error, std::size_t) {
                      if (error) return self->fail();
                      self->receive();
                    });
  }

  void receive() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code error, std::size_t) {
      if (error) return self->fail();
      self->record();
      self->send();
    });
  }

  void record() {
    const std::chrono::duration<float, std::milli> elapsed = Clock::now() - sent_at_;
    round_trips_ms_.push_back(elapsed.count());
    buffer_.consume(buffer_.size());
  }

  void close() {
    ws_.async_close(websocket::close_code::normal,
                    [self = shared_from_this()](beast::error_code) {});
  }

  void fail() { failed_ = true; }

  WebSocket ws_;
  const std::string& payload_;
  beast::flat_buffer buffer_;
  Clock::time_point deadline_;
  Clock::time_point sent_at_;
  std::vector<float> round_trips_ms_;
  bool failed_ = false;
};

float percentile(const std::vector<float>& sorted, double fraction) {
  if (sorted.empty()) return 0;
  const auto index = static_cast<std::size_t>(fraction * static_cast<double>(sorted.size() - 1));
  return sorted[index];
}

void print_report(const LoadOptions& options, std::vector<std::shared_ptr<EchoClient>>& clients,
                  double wall_seconds) {
  std::vector<float> all;
  int failed = 0;
  for (const auto& client : clients) {
    all.insert(all.end(), client->round_trips_ms().begin(), client->round_trips_ms().end());
    if (client->failed()) ++failed;
  }
  std::sort(all.begin(), all.end());
  std::printf(
      "{\"connections\":%d,\"seconds\":%.3f,\"bytes\":%d,\"client_threads\":%d,\"failed_"
      "connections\":%d,"
      "\"messages_echoed\":%zu,\"messages_per_second\":%.1f,\"round_trip_ms\":{\"p50\":%.3f,"
      "\"p99\":%.3f,"
      "\"max\":%.3f}}\n",
      options.connections, wall_seconds, options.bytes, options.threads, failed, all.size(),
      static_cast<double>(all.size()) / wall_seconds, static_cast<double>(percentile(all, 0.50)),
      static_cast<double>(percentile(all, 0.99)),
      static_cast<double>(all.empty() ? 0.0F : all.back()));
}

int load(const LoadOptions& options) {
  const auto address = asio::ip::make_address(options.host);
  if (!address.is_loopback()) {
    std::fprintf(stderr, "ws_echo load: %s is not a loopback address\n", options.host.c_str());
    return 2;
  }
  raise_descriptor_limit();
  const tcp::endpoint endpoint(address, options.port);
  const std::string payload(static_cast<std::size_t>(options.bytes), '\x5a');
  asio::io_context io(options.threads);
  std::vector<std::shared_ptr<EchoClient>> clients;
  for (int i = 0; i < options.connections; ++i) {
    clients.push_back(std::make_shared<EchoClient>(io, payload));
    clients.back()->open(endpoint);
  }
  const auto started = Clock::now();
  const auto deadline = started + std::chrono::seconds(options.seconds);
  for (const auto& client : clients) client->start(deadline);
  run_on_threads(io, options.threads);
  // The last round trips end a little after the deadline: the rate is over the whole run.
  const std::chrono::duration<double> wall = Clock::now() - started;
  print_report(options, clients, wall.count());
  return 0;
}

int run(int argc, char** argv) {
  CLI::App app{
      "ws_echo: a plain WebSocket echo server and its closed-loop load (a measuring tool)"};
  app.require_subcommand(1);

  unsigned short serve_port = 0;
  int serve_threads = default_threads();
  auto* serve_command = app.add_subcommand("serve", "echo every message back, on 127.0.0.1");
  serve_command->add_option("--port", serve_port, "port to listen on")->required();
  serve_command->add_option("--threads", serve_threads, "io_context threads")
      ->check(CLI::Range(1, kMaxThreads));

  LoadOptions options;
  auto* load_command = app.add_subcommand("load", "closed-loop echoes over many connections");
  load_command->add_option("--host", options.host, "a loopback address");
  load_command->add_option("--port", options.port, "the echo server's port")->required();
  load_command->add_option("--connections", options.connections)
      ->check(CLI::Range(1, kMaxConnections));
  load_command->add_option("--seconds", options.seconds)->check(CLI::Range(1, kMaxSeconds));
  load_command->add_option("--bytes", options.bytes, "size of each message")
      ->check(CLI::Range(1, kMaxBytes));
  load_command->add_option("--threads", options.threads, "io_context threads")
      ->check(CLI::Range(1, kMaxThreads));

  CLI11_PARSE(app, argc, argv);
  if (serve_command->parsed()) return serve(serve_port, serve_threads);
  return load(options);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "ws_echo: %s\n", error.what());
    return 1;
  }
}
