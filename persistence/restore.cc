#include "restore.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "log_lock.h"
#include "schema.h"
#include "store.h"

namespace carc::persistence {
namespace {

namespace fs = std::filesystem;

// The files SQLite keeps beside a database while it is in use.
constexpr const char* kCompanions[] = {"-wal", "-shm", "-journal"};

StoreError FileError(const std::string& what, const std::string& path) {
  return StoreError{SQLITE_IOERR, what + " " + path + ": " + std::strerror(errno)};
}

Status RemoveCompanions(const std::string& path) {
  for (const char* suffix : kCompanions) {
    std::error_code error;
    fs::remove(path + suffix, error);
    if (error) {
      return StoreError{SQLITE_IOERR, "cannot remove " + path + suffix + ": " + error.message()};
    }
  }
  return std::nullopt;
}

// The copy being made; removed with its companions unless it took the log's place.
class TemporaryCopy {
 public:
  explicit TemporaryCopy(std::string path) : path_(std::move(path)) { Remove(); }
  TemporaryCopy(const TemporaryCopy&) = delete;
  TemporaryCopy& operator=(const TemporaryCopy&) = delete;
  ~TemporaryCopy() {
    if (!renamed_) Remove();
  }
  const std::string& path() const { return path_; }
  void Renamed() { renamed_ = true; }

 private:
  void Remove() {
    std::error_code ignored;
    fs::remove(path_, ignored);
    RemoveCompanions(path_);
  }
  std::string path_;
  bool renamed_ = false;
};

bool SameFile(const std::string& a, const std::string& b) {
  std::error_code error;
  return fs::equivalent(a, b, error) && !error;
}

// A game log of any schema version this build can upgrade (the upgrade refuses newer ones).
Status CheckIsAGameLog(const std::string& backup) {
  std::error_code error;
  if (!fs::is_regular_file(backup, error)) {
    return StoreError{SQLITE_CANTOPEN, backup + ": no such backup file"};
  }
  if (fs::file_size(backup, error) == 0 || error) {
    return StoreError{SQLITE_NOTADB, backup + ": an empty file, not a game log"};
  }
  auto db = Connection::Open(backup, false);
  if (!db) return StoreError{db.error().code, backup + ": " + db.error().message};
  const auto version = ReadSchemaVersion(*db);
  if (!version) return StoreError{version.error().code, backup + ": " + version.error().message};
  if (*version == 0) return StoreError{SQLITE_NOTADB, backup + ": holds no game log"};
  return std::nullopt;
}

// Copies the database at `from` into the new file `to` with SQLite's backup, which reads `from`
// as one consistent snapshot, its write-ahead log included.
Status CopyDatabase(const std::string& from, const std::string& to) {
  auto source = Connection::Open(from, false);
  if (!source) return StoreError{source.error().code, from + ": " + source.error().message};
  auto target = Connection::Open(to, true);
  if (!target) return StoreError{target.error().code, to + ": " + target.error().message};
  sqlite3_backup* backup = sqlite3_backup_init(target->raw(), "main", source->raw(), "main");
  if (!backup) return target->LastError("copying " + from + " to " + to);
  const int rc = sqlite3_backup_step(backup, -1);
  sqlite3_backup_finish(backup);
  if (rc != SQLITE_DONE) {
    return StoreError{rc, "copying " + from + " to " + to + ": " + sqlite3_errstr(rc)};
  }
  return std::nullopt;
}

// Brings the copy to this build's schema, checks it, and raises its next game number to at
// least `next_game`. The copy is left out of WAL mode, so that it holds everything in itself when
// it is renamed (its write-ahead log is named after it); the server sets WAL mode again.
Result<RestoreReport> PrepareCopy(const std::string& path, int64_t next_game) {
  StoreOptions options;
  options.path = path;
  options.create = false;
  auto store = Store::Open(options);
  if (!store) return store.error();
  if (auto error = store->CheckIntegrity()) {
    return StoreError{error->code, "the backup fails SQLite's integrity check: " + error->message};
  }
  if (auto error = store->RaiseNextGameNumber(next_game)) return *error;
  RestoreReport report;
  auto next = store->NextGameNumber();
  if (!next) return next.error();
  report.next_game_number = *next;
  auto games = store->ListGames({});
  if (!games) return games.error();
  report.games = static_cast<int64_t>(games->size());
  if (auto error = store->connection().Exec("PRAGMA journal_mode = DELETE")) return *error;
  return report;
}

Status SyncPath(const std::string& path, int flags) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) return FileError("cannot open", path);
  const int synced = ::fsync(fd);
  ::close(fd);
  if (synced != 0) return FileError("cannot fsync", path);
  return std::nullopt;
}

// Folds the replaced log's write-ahead log into it before that log is removed: should the
// restore stop after the removal and be run again, it reads the same next game number.
Status CheckpointReplaced(const std::string& db) {
  auto connection = Connection::Open(db, false);
  if (!connection)
    return StoreError{connection.error().code, db + ": " + connection.error().message};
  if (auto error = connection->Exec("PRAGMA wal_checkpoint(TRUNCATE)")) {
    return StoreError{error->code, db + ": " + error->message};
  }
  return std::nullopt;
}

std::string FolderOf(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}

// The replaced file's next game number, or why it cannot be read.
Result<int64_t> ReplacedNextGameNumber(const std::string& db) {
  std::error_code error;
  if (!fs::exists(db, error)) return StoreError{SQLITE_CANTOPEN, db + " does not exist"};
  return ReadNextGameNumber(db);
}

}  // namespace

Result<int64_t> ReadNextGameNumber(const std::string& path) {
  auto db = Connection::Open(path, false);
  if (!db) return StoreError{db.error().code, path + ": " + db.error().message};
  auto has_settings =
      db->Prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'settings'");
  if (!has_settings)
    return StoreError{has_settings.error().code, path + ": " + has_settings.error().message};
  has_settings->Step();
  if (auto error = has_settings->error())
    return StoreError{error->code, path + ": " + error->message};
  // As Store::NextGameNumber, for a file of any version: the settings came with version 7.
  std::string sql =
      "SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'games'), 0) + 1, "
      "coalesce((SELECT max(number) FROM games), 0) + 1";
  if (has_settings->Int(0) > 0) {
    sql += ", coalesce((SELECT value FROM settings WHERE name = 'next_game_number'), 1)";
  }
  auto next = db->Prepare(sql + ")");
  if (!next) return StoreError{next.error().code, path + ": " + next.error().message};
  next->Step();
  if (auto error = next->error()) return StoreError{error->code, path + ": " + error->message};
  return next->Int(0);
}

Result<RestoreReport> RestoreBackup(const RestoreRequest& request) {
  auto lock = LogLock::Acquire(request.db);
  if (!lock) return StoreError{lock.error().code, request.db + ": " + lock.error().message};
  if (SameFile(request.backup, request.db)) {
    return StoreError{SQLITE_MISUSE, "the backup must be another file than the game log"};
  }
  if (auto error = CheckIsAGameLog(request.backup)) return *error;
  const auto replaced = ReplacedNextGameNumber(request.db);
  if (!replaced && !request.next_game) {
    return StoreError{replaced.error().code,
                      "cannot carry over the game numbers of the file being replaced (" +
                          replaced.error().message +
                          "); give the next game number with --next-game N, above every game "
                          "number that file issued, so that no game id is issued twice"};
  }
  const int64_t next_game = std::max(replaced ? *replaced : 1, request.next_game.value_or(1));

  TemporaryCopy copy(request.db + ".restoring");
  if (auto error = CopyDatabase(request.backup, copy.path())) return *error;
  auto report = PrepareCopy(copy.path(), next_game);
  if (!report) return report.error();
  report->replaced_read = replaced.ok();
  if (auto error = SyncPath(copy.path(), O_RDONLY)) return *error;

  if (replaced) {
    if (auto error = CheckpointReplaced(request.db)) return *error;
  }
  if (auto error = RemoveCompanions(request.db)) return *error;
  if (::rename(copy.path().c_str(), request.db.c_str()) != 0) {
    return FileError("cannot rename " + copy.path() + " to", request.db);
  }
  copy.Renamed();
  // The rename is on disk once its folder is.
  if (auto error = SyncPath(FolderOf(request.db), O_RDONLY | O_DIRECTORY)) {
    return StoreError{error->code, "the backup is in place, but " + error->message};
  }
  return report;
}

}  // namespace carc::persistence
