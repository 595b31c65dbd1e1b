// Restoring a backup in the place of a game log (docs/operations.md, "Backups and restoring one").
//
// The backup is copied beside the log (a temporary file in the same folder), upgraded to this
// build's schema, checked, given the game numbers of the file it replaces, written to disk, and
// only then renamed over the log, in one step: a crash leaves the old file or the new one, never
// a mixture. The log's `-wal` and `-shm` files are removed before the rename, since SQLite would
// read a stale write-ahead log as part of the new file. All of it under the log's lock
// (log_lock.h): refused while a server has the file open.
//
// Game numbers are never issued twice: the restored file's `next_game_number` setting is raised
// to the next number of the file it replaces, or to `next_game` when that file is lost.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "sqlite.h"

namespace carc::persistence {

struct RestoreRequest {
  std::string backup;  // a game log, as `carc-db backup` makes it; never changed
  std::string db;      // the game log it replaces (it may be missing)
  // The lowest number a new game may take. Needed when `db` is missing or cannot be read; with a
  // readable `db`, the larger of the two counts.
  std::optional<int64_t> next_game;
};

struct RestoreReport {
  int64_t next_game_number = 0;  // the number the restored file's next game gets
  int64_t games = 0;             // games in the restored file
  bool replaced_read = false;    // whether the replaced file's game numbers were carried over
};

// On an error nothing has changed, but when the message says the backup is in place (the
// folder could not be synced after the rename).
Result<RestoreReport> RestoreBackup(const RestoreRequest& request);

// The number the next game of the file at `path` would get, read without changing the file (of
// any schema version that has games): what a restore carries over from the file it replaces.
Result<int64_t> ReadNextGameNumber(const std::string& path);

}  // namespace carc::persistence
