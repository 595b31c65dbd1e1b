// The commands of carc-db, each run against an open Store (tools/carc-db/README.md).
//
// Every command prints its results on standard output and its problems as one line
// "carc-db: ..." on standard error, and returns the process's exit status: 0 done, 1 a game is
// damaged or does not exist, 2 a usage or file problem. A command that fails changes nothing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "persistence/store.h"

namespace carc::db {

inline constexpr int kOk = 0;
inline constexpr int kFailed = 1;  // damaged, or no such game
inline constexpr int kUsage = 2;   // bad arguments, unreadable or unwritable files

// Prints "carc-db: <message>" to standard error and returns `status`.
int Fail(int status, const std::string& message);
// "g12" or "12" -> 12.
std::optional<int64_t> ParseGameArgument(std::string_view text);
// Loads the game named by `argument` into `out`. On failure prints why and returns kFailed (no
// such game) or kUsage (not a game id, or the file cannot be read); kOk otherwise.
int LoadOne(persistence::Store& store, const std::string& argument,
            std::optional<persistence::StoredGame>* out);

struct ListOptions {
  std::optional<persistence::GameStatus> status;
  bool json = false;
};

int RunList(persistence::Store& store, const ListOptions& options);
int RunShow(persistence::Store& store, const std::string& game);
int RunVerify(persistence::Store& store, const std::vector<std::string>& games);
int RunExport(persistence::Store& store, const std::string& game, const std::string& output);
// Checks a finished game's draws against its commitment (docs/fairness.md): 0 fair, 1 not.
int RunVerifyDraws(persistence::Store& store, const std::string& game);

int RunExpire(persistence::Store& store, int64_t days, const std::string& archive);
int RunDelete(persistence::Store& store, const std::string& game, bool force);
int RunBackup(persistence::Store& store, const std::string& destination, bool force);
// Puts `backup` in the place of the database `db` (persistence/restore.h); `next_game` is the
// lowest number a new game may take, needed when `db` is lost.
int RunRestore(const std::string& db, const std::string& backup, std::optional<int64_t> next_game);

}  // namespace carc::db
