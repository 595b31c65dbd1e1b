// The commands that change files: expire, delete, backup, restore; and the helpers every command
// uses.
#include <filesystem>
#include <iostream>
#include <system_error>

#include "commands.h"
#include "persistence/restore.h"

namespace carc::db {

using persistence::GameStatus;

int Fail(int status, const std::string& message) {
  std::cerr << "carc-db: " << message << "\n";
  return status;
}

std::optional<int64_t> ParseGameArgument(std::string_view text) {
  if (!text.empty() && text.front() == 'g') return persistence::ParseGameId(text);
  return persistence::ParseGameId("g" + std::string(text));
}

int LoadOne(persistence::Store& store, const std::string& argument,
            std::optional<persistence::StoredGame>* out) {
  const auto number = ParseGameArgument(argument);
  if (!number) return Fail(kUsage, "'" + argument + "' is not a game id (g12, or 12)");
  auto loaded = store.LoadGame(*number);
  if (!loaded) return Fail(kUsage, loaded.error().message);
  if (!*loaded) return Fail(kFailed, "no such game " + persistence::GameId(*number));
  *out = std::move(*loaded);
  return kOk;
}

namespace {

std::string Counted(int n, const char* what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

bool SameFile(const std::string& a, const std::string& b) {
  std::error_code error;
  return std::filesystem::equivalent(a, b, error) && !error;
}

}  // namespace

int RunExpire(persistence::Store& store, int64_t days, const std::string& archive) {
  if (!archive.empty() && SameFile(archive, store.path())) {
    return Fail(kUsage, "the archive must be another file than the database");
  }
  constexpr int64_t kDayMs = int64_t{24} * 60 * 60 * 1000;
  const int64_t before = persistence::NowMs() - days * kDayMs;
  auto report = store.Expire(before, archive);
  if (!report) return Fail(kUsage, report.error().message);
  std::cout << (archive.empty() ? "deleted " : "archived ") << Counted(report->games, "game")
            << " (" << Counted(report->actions, "action") << ") finished more than "
            << Counted(static_cast<int>(days), "day") << " ago"
            << (archive.empty() ? "" : " to " + archive) << "\n";
  return kOk;
}

int RunDelete(persistence::Store& store, const std::string& game, bool force) {
  std::optional<persistence::StoredGame> stored;
  if (const int status = LoadOne(store, game, &stored)) return status;
  const persistence::GameRecord& g = stored->game;
  const std::string id = persistence::GameId(g.number);
  // carc-server holds open and running games in memory and writes to them: deleting one under it
  // makes its next write fail.
  if (!force && (g.status == GameStatus::kOpen || g.status == GameStatus::kRunning)) {
    return Fail(kUsage, id + " is " + std::string(persistence::ToString(g.status)) +
                            " (carc-server may be hosting it); use --force to delete it anyway");
  }
  auto report = store.DeleteGame(g.number);
  if (!report) return Fail(kUsage, report.error().message);
  std::cout << "deleted " << id << " (" << Counted(report->actions, "action") << ")\n";
  return kOk;
}

int RunBackup(persistence::Store& store, const std::string& destination, bool force) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (SameFile(destination, store.path())) {
    return Fail(kUsage, "the backup must be another file than the database");
  }
  if (fs::exists(destination, error) && !force) {
    return Fail(kUsage, destination + " exists; use --force to replace it");
  }
  // A stale write-ahead log next to the destination would be read as part of the new copy.
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
    fs::remove(destination + suffix, error);
    if (error)
      return Fail(kUsage, "cannot replace " + destination + suffix + ": " + error.message());
  }
  if (auto failed = store.Backup(destination)) return Fail(kUsage, failed->message);
  std::cout << "backed up " << store.path() << " to " << destination << "\n";
  return kOk;
}

int RunRestore(const std::string& db, const std::string& backup, std::optional<int64_t> next_game) {
  auto report = persistence::RestoreBackup({backup, db, next_game});
  if (!report) return Fail(kUsage, "cannot restore: " + report.error().message);
  std::cout << "restored " << backup << " to " << db << ": "
            << Counted(static_cast<int>(report->games), "game") << "; the next game is "
            << persistence::GameId(report->next_game_number)
            << (report->replaced_read ? " (game numbers carried over from the file it replaced)"
                                      : " (from --next-game)")
            << "\n";
  return kOk;
}

}  // namespace carc::db
