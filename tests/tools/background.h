// A program run in the background by the process tests, its standard output and error in a file,
// and the waits for it: its end, or a line it wrote. Every wait is a poll with a deadline.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace carc::testing {

inline std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The destructor kills one still running (its whole process group for a program started as a
// group's leader).
class Background {
 public:
  using Clock = std::chrono::steady_clock;

  Background(const std::vector<std::string>& args, std::filesystem::path log,
             bool group_leader = false)
      : log_(std::move(log)), group_leader_(group_leader) {
    std::vector<std::string> copy = args;
    std::vector<char*> argv;
    for (std::string& arg : copy) argv.push_back(arg.data());
    argv.push_back(nullptr);
    const int out = open(log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (out < 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      if (group_leader_) setpgid(0, 0);
      dup2(out, STDOUT_FILENO);
      dup2(out, STDERR_FILENO);
      const int null = open("/dev/null", O_RDONLY);
      dup2(null, STDIN_FILENO);
      for (int fd = 3; fd < 1024; ++fd) close(fd);
      execv(argv[0], argv.data());
      _exit(127);
    }
    close(out);
  }
  Background(const Background&) = delete;
  Background& operator=(const Background&) = delete;
  ~Background() {
    if (pid_ <= 0) return;
    kill(group_leader_ ? -pid_ : pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }

  bool running() const { return pid_ > 0; }

  // Its exit status once it has ended (128 + the signal that ended it), or nullopt when it is
  // still running at `timeout`.
  std::optional<int> Wait(Clock::duration timeout) {
    const auto deadline = Clock::now() + timeout;
    while (pid_ > 0) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        exit_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        break;
      }
      if (Clock::now() > deadline) return std::nullopt;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return exit_;
  }

  // Whether it wrote `text` within `timeout` (false at once once it has ended without it).
  bool WaitForOutput(const std::string& text, Clock::duration timeout) {
    const auto deadline = Clock::now() + timeout;
    while (Output().find(text) == std::string::npos) {
      if (Clock::now() > deadline || Wait(std::chrono::milliseconds(0)).has_value()) {
        return Output().find(text) != std::string::npos;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return true;
  }

  // Asks it to stop with `signal`, then kills it if it has not within `grace`.
  void Stop(int signal, Clock::duration grace) {
    if (pid_ <= 0) return;
    kill(pid_, signal);
    Wait(grace);
  }

  std::string Output() const { return ReadFile(log_); }

 private:
  std::filesystem::path log_;
  bool group_leader_;
  pid_t pid_ = -1;
  std::optional<int> exit_;
};

}  // namespace carc::testing
