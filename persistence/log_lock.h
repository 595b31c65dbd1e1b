// The lock that says a process owns a game log: carc-server holds it for its whole life, and
// `carc-db restore` while it replaces the file (docs/operations.md, "Backups and restoring one").
//
// It is an advisory lock (flock, exclusive, not waiting) on a file beside the game log, named as
// the log with ".lock" after it. The lock file is never deleted: a process that deleted it could
// free a lock another has just taken. It is not the database file itself: a restore replaces that
// file, and a lock on the old one would not cover the new one. SQLite's own locks (fcntl) on the
// database are another kind and do not meet it. The kernel drops the lock when its process ends,
// however it ends, so a killed server leaves nothing to clean up.
#pragma once

#include <string>

#include "sqlite.h"

namespace carc::persistence {

class LogLock {
 public:
  // Takes the lock of the game log at `db_path`, creating the lock file if needed. Refused at
  // once, never waited for, when another holder has it (error code SQLITE_BUSY).
  static Result<LogLock> Acquire(const std::string& db_path);
  static std::string PathFor(const std::string& db_path);  // db_path + ".lock"

  LogLock(LogLock&& other) noexcept;
  LogLock& operator=(LogLock&& other) noexcept;
  LogLock(const LogLock&) = delete;
  LogLock& operator=(const LogLock&) = delete;
  ~LogLock();  // releases the lock

 private:
  explicit LogLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace carc::persistence
