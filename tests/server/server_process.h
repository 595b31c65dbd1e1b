// A real carc-server process for tests (fork/exec of the built binary, CARC_SERVER_BINARY), on
// a loopback port, with its game log and standard error in a folder of the test's own. Used by
// the kill -9 test and by the tests of signals and exhausted descriptors.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <chrono>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace carc::test_server {

namespace fs = std::filesystem;

inline constexpr std::chrono::seconds kStartTimeout{10};
inline constexpr std::chrono::seconds kExitTimeout{15};

// A fresh folder for the game log and the server's standard error, removed at the end unless
// the test failed (it is then kept to be looked at).
class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    path_ = fs::temp_directory_path() /
            ("carc-server-test-" + std::to_string(getpid()) + "-" + std::to_string(++counter));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    if (::testing::Test::HasFailure()) {
      std::cout << "kept " << path_ << " for inspection\n";
      return;
    }
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// A port free now on loopback; every start of the server uses it (it sets SO_REUSEADDR).
inline uint16_t FreeLoopbackPort() {
  boost::asio::io_context io;
  boost::asio::ip::tcp::acceptor acceptor(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
  return acceptor.local_endpoint().port();
}

// Whether something listens on the port (and the connection is not one to itself: with nobody
// listening, an outgoing connection could be given the port as its own and meet itself).
inline bool Accepts(uint16_t port) {
  boost::asio::io_context io;
  boost::asio::ip::tcp::socket socket(io);
  boost::beast::error_code ec;
  socket.connect({boost::asio::ip::make_address("127.0.0.1"), port}, ec);
  if (ec) return false;
  const bool itself = socket.local_endpoint(ec).port() == port;
  socket.close(ec);
  return !itself;
}

// The carc-server binary as a child process. The destructor kills one still running.
class ServerProcess {
 public:
  // `extra` flags follow the test's defaults (a later flag wins); `max_descriptors` > 0 lowers
  // the child's RLIMIT_NOFILE.
  ServerProcess(const fs::path& dir, uint16_t port, std::vector<std::string> extra = {},
                int max_descriptors = 0)
      : db_((dir / "games.db").string()),
        log_((dir / "server.log").string()),
        port_(port),
        extra_(std::move(extra)),
        max_descriptors_(max_descriptors) {}
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;
  ~ServerProcess() {
    if (pid_ > 0) Kill();
  }

  const std::string& db() const { return db_; }
  pid_t pid() const { return pid_; }
  uint16_t port() const { return port_; }

  // Starts it and waits until it accepts connections (it listens once the log is open and its
  // games are restored). While it was down, some other socket on the machine may have been
  // given its port: then it is started again a little later, a few times.
  bool Start() {
    for (int attempt = 0; attempt < 5; ++attempt) {
      if (attempt > 0) std::this_thread::sleep_for(std::chrono::milliseconds(200));
      const Launch launch = LaunchOnce();
      if (launch == Launch::kAccepting) return true;
      if (launch == Launch::kPortTaken) continue;
      ADD_FAILURE() << (launch == Launch::kExited ? "the server exited at start "
                                                  : "the server did not accept at start ")
                    << starts_ << ":\n"
                    << Tail(30);
      return false;
    }
    ADD_FAILURE() << "port " << port_ << " stayed taken:\n" << Tail(30);
    return false;
  }

  // Starts it when it is expected to refuse to start: its exit code once it has ended (bounded),
  // or nullopt if it runs on (it is then killed).
  std::optional<int> StartRefused() {
    ++starts_;
    if (!Spawn()) return std::nullopt;
    return WaitExit();
  }

  void Kill() {
    if (pid_ <= 0) return;
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

  void Signal(int signal) const { kill(pid_, signal); }

  // Waits (at most `timeout`) for the process to end: its exit code, or 128 + the signal that ended
  // it, or nullopt if it is still running (it is then killed).
  std::optional<int> WaitExit(std::chrono::milliseconds timeout = kExitTimeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    int status = 0;
    while (waitpid(pid_, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        Kill();
        return std::nullopt;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

  // How many lines the server wrote to standard error that contain `text`.
  size_t CountLines(const std::string& text) const {
    std::ifstream in(log_);
    size_t count = 0;
    for (std::string line; std::getline(in, line);) count += line.find(text) != std::string::npos;
    return count;
  }

  // The last lines the server wrote to standard error, over all its starts.
  std::string Tail(size_t lines) const {
    std::ifstream in(log_);
    std::deque<std::string> last;
    for (std::string line; std::getline(in, line);) {
      last.push_back(line);
      if (last.size() > lines) last.pop_front();
    }
    std::string text;
    for (const std::string& line : last) text += line + "\n";
    return text;
  }

 private:
  enum class Launch { kAccepting, kExited, kPortTaken, kTimeout };

  Launch LaunchOnce() {
    ++starts_;
    if (!Spawn()) return Launch::kExited;
    const auto deadline = std::chrono::steady_clock::now() + kStartTimeout;
    while (std::chrono::steady_clock::now() < deadline) {
      if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
        pid_ = -1;
        const bool taken = Tail(3).find("cannot listen") != std::string::npos;
        return taken ? Launch::kPortTaken : Launch::kExited;
      }
      if (Accepts(port_)) return Launch::kAccepting;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return Launch::kTimeout;
  }

  // fork/exec with standard output and error appended to the log file. Between fork and exec
  // the child only calls async-signal-safe functions.
  bool Spawn() {
    std::ofstream(log_, std::ios::app) << "--- start " << starts_ << "\n";
    std::vector<std::string> args = {CARC_SERVER_BINARY, "--db", db_, "--threads", "2"};
    args.insert(args.end(), {"--address", "127.0.0.1", "--port", std::to_string(port_)});
    args.insert(args.end(), {"--messages-per-second", "1000000", "--message-burst", "1000000"});
    // The games' seeds are the test's own, so that a failure can be repeated.
    args.insert(args.end(), {"--log-level", "warn", "--allow-chosen-seeds"});
    args.insert(args.end(), extra_.begin(), extra_.end());
    std::vector<char*> argv;
    argv.reserve(args.size() + 1);
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    const int log = open(log_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (log < 0) return false;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(log, STDOUT_FILENO);
      dup2(log, STDERR_FILENO);
      for (int fd = 3; fd < 1024; ++fd) close(fd);  // no socket of the test leaks into it
      if (max_descriptors_ > 0) {
        const rlimit limit{static_cast<rlim_t>(max_descriptors_),
                           static_cast<rlim_t>(max_descriptors_)};
        setrlimit(RLIMIT_NOFILE, &limit);
      }
      execv(argv[0], argv.data());
      _exit(127);
    }
    close(log);
    return pid_ > 0;
  }

  std::string db_;
  std::string log_;
  uint16_t port_;
  std::vector<std::string> extra_;
  int max_descriptors_ = 0;
  pid_t pid_ = -1;
  int starts_ = 0;
};

}  // namespace carc::test_server
