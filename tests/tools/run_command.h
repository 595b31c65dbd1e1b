// Runs a command line through the shell as a user would, for the tool tests: its exit status and
// everything it printed (standard error folded into standard output, in order).
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace carc::testing {

struct CommandResult {
  int status = -1;  // the exit status; -1 if the command could not run or was killed
  std::string out;
};

inline CommandResult RunCommand(const std::string& command_line) {
  CommandResult run;
  FILE* pipe = popen((command_line + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return run;
  std::array<char, 4096> buffer{};
  size_t n = 0;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) run.out.append(buffer.data(), n);
  const int status = pclose(pipe);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

}  // namespace carc::testing
