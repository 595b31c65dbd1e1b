#include "log_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace carc::persistence {

std::string LogLock::PathFor(const std::string& db_path) { return db_path + ".lock"; }

Result<LogLock> LogLock::Acquire(const std::string& db_path) {
  const std::string path = PathFor(db_path);
  // Close-on-exec: a child process must not keep the lock after the server has gone.
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    return StoreError{SQLITE_CANTOPEN,
                      "cannot open its lock file " + path + ": " + std::strerror(errno)};
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    ::close(fd);
    if (error == EWOULDBLOCK) {
      return StoreError{
          SQLITE_BUSY,
          "its lock " + path + " is held: a carc-server runs on it, or a carc-db restore"};
    }
    return StoreError{SQLITE_IOERR, "cannot lock " + path + ": " + std::strerror(error)};
  }
  return LogLock(fd);
}

LogLock::LogLock(LogLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

LogLock& LogLock::operator=(LogLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

LogLock::~LogLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the last descriptor of the open file drops the lock
}

}  // namespace carc::persistence
