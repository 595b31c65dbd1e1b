// The server's game log on disk: one SQLite file (persistence/), written by a Journal (the group
// committer) and read on a reader thread of its own (replays and seeks), so that neither kind of
// work ever runs on the threads that serve connections.
//
// Opening it takes the log's lock for the storage's whole life (persistence/log_lock.h: no other
// server, and no restore, while it runs), opens (or creates) the file, refuses one that is
// unreadable, corrupt or of a newer schema, upgrades an older one, refuses one that holds another
// shard's games, and loads every unfinished game for the lobby to resume.
#pragma once

#include <boost/asio/thread_pool.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "net/config.h"
#include "persistence/journal.h"
#include "persistence/log_lock.h"
#include "persistence/store.h"

namespace carc::server {

// $XDG_STATE_HOME/carc/games.db, or ~/.local/state/carc/games.db (docs/persistence.md).
std::string DefaultDatabasePath();

class Storage {
 public:
  // Opens the file named by the config (creating its folder when needed).
  static std::variant<std::unique_ptr<Storage>, std::string> Open(const ServerConfig& config);
  ~Storage();  // stops reading, then commits what is queued

  persistence::Journal& journal() { return *journal_; }
  const std::string& path() const { return path_; }
  int64_t next_game_number() const { return next_game_number_; }
  // The games open or running when the file was opened (handed over once).
  std::vector<persistence::StoredGame> TakeUnfinished() { return std::move(unfinished_); }
  // Runs `job` on the reader thread with the reader's Store.
  void Read(std::function<void(persistence::Store&)> job);
  // Archives or deletes finished games older than the configured days (on the writer's thread).
  void Expire();
  // The journal's figures as a JSON object (for /healthz).
  std::string StatsJson() const;

 private:
  Storage() = default;

  std::optional<persistence::LogLock> lock_;  // first in, last out: held until the log is closed
  std::string path_;
  int expire_after_days_ = 0;
  std::string archive_path_;
  int64_t next_game_number_ = 1;
  std::vector<persistence::StoredGame> unfinished_;
  std::unique_ptr<persistence::Journal> journal_;
  std::unique_ptr<persistence::Store> reader_;
  boost::asio::thread_pool read_pool_{1};
};

}  // namespace carc::server
