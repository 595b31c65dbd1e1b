// carc-db: looks after carc-server's game database (tools/carc-db/README.md).
//
//   carc-db --db FILE list [--status S] [--json]    the games, one line each
//   carc-db --db FILE show GAME                     a game's set-up, seats and log with events
//   carc-db --db FILE verify [GAME ...]             replay games, checking every stored hash
//   carc-db --db FILE export GAME [-o FILE]         a game as carc-game JSON (docs/formats.md)
//   carc-db --db FILE expire --days N [--archive F] remove (or archive) old finished games
//   carc-db --db FILE delete GAME [--force]         remove one game
//   carc-db --db FILE backup DEST [--force]         an online copy of the database
//   carc-db --db FILE restore BACKUP [--next-game N] put a backup in the database's place
//
// The database is never created, but by restore: a missing file is an error. Exit status: 0
// done, 1 a game is damaged or does not exist, 2 a usage or file problem.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>

#include "commands.h"

namespace {

using namespace carc;

// Opens an existing game database; an empty file is refused too, since opening would write a
// schema into it.
persistence::Result<persistence::Store> OpenStore(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) {
    return persistence::StoreError{SQLITE_CANTOPEN, path + ": no such database file"};
  }
  if (std::filesystem::file_size(path, error) == 0 || error) {
    return persistence::StoreError{SQLITE_NOTADB, path + ": an empty file, not a game database"};
  }
  persistence::StoreOptions options;
  options.path = path;
  options.create = false;
  options.busy_timeout_ms = 10000;  // carc-server may hold the write lock for a group commit
  return persistence::Store::Open(options);
}

struct Arguments {
  std::string db;
  std::string status;
  db::ListOptions list;
  std::string game;
  std::vector<std::string> games;
  std::string output;
  int64_t days = 0;
  std::string archive;
  std::string destination;
  bool force = false;
  std::string backup;
  std::optional<int64_t> next_game;
};

int Dispatch(const CLI::App& app, persistence::Store& store, Arguments& a) {
  if (app.got_subcommand("list")) {
    if (!a.status.empty()) a.list.status = persistence::ParseGameStatus(a.status);
    return db::RunList(store, a.list);
  }
  if (app.got_subcommand("show")) return db::RunShow(store, a.game);
  if (app.got_subcommand("verify")) return db::RunVerify(store, a.games);
  if (app.got_subcommand("export")) return db::RunExport(store, a.game, a.output);
  if (app.got_subcommand("verify-draws")) return db::RunVerifyDraws(store, a.game);
  if (app.got_subcommand("expire")) return db::RunExpire(store, a.days, a.archive);
  if (app.got_subcommand("delete")) return db::RunDelete(store, a.game, a.force);
  return db::RunBackup(store, a.destination, a.force);
}

void AddCommands(CLI::App& app, Arguments& a) {
  auto* list = app.add_subcommand("list", "the games, one line each");
  list->add_option("--status", a.status, "only games with this status")
      ->check(CLI::IsMember({"open", "running", "finished", "resigned", "abandoned", "damaged"}));
  list->add_flag("--json", a.list.json, "a JSON array instead of text");
  app.add_subcommand("show", "a game's set-up, seats and log, with the engine's events")
      ->add_option("game", a.game, "the game: g12 or 12")
      ->required();
  app.add_subcommand("verify", "replay games through the engine, checking every stored hash")
      ->add_option("games", a.games, "the games (default: all)");
  app.add_subcommand("verify-draws",
                     "check a finished game's tile draws against its commitment (fairness)")
      ->add_option("game", a.game, "the game: g12 or 12")
      ->required();
  auto* exp = app.add_subcommand("export", "a game as carc-game JSON");
  exp->add_option("game", a.game, "the game: g12 or 12")->required();
  exp->add_option("-o,--output", a.output, "write to this file (default: standard output)");
  auto* expire =
      app.add_subcommand("expire", "remove finished and damaged games older than N days");
  expire->add_option("--days", a.days, "finished more than this many days ago")
      ->required()
      ->check(CLI::Range(int64_t{0}, int64_t{1000000}));
  expire->add_option("--archive", a.archive, "move them to this database file instead");
  auto* del = app.add_subcommand("delete", "remove one game");
  del->add_option("game", a.game, "the game: g12 or 12")->required();
  del->add_flag("--force", a.force, "delete an open or running game too");
  auto* backup = app.add_subcommand("backup", "copy the database, safely while the server runs");
  backup->add_option("destination", a.destination, "the new file")->required();
  backup->add_flag("--force", a.force, "replace the destination if it exists");
  auto* restore = app.add_subcommand(
      "restore", "put a backup in the database's place (the server stopped); game ids stay unique");
  restore->add_option("backup", a.backup, "the backup file (left as it is)")->required();
  restore
      ->add_option("--next-game", a.next_game,
                   "the lowest number a new game may take: needed when the database is lost")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 53));
}

int Main(int argc, char** argv) {
  CLI::App app{"carc-db: inspect and maintain a carc-server game database"};
  app.require_subcommand(1);
  app.fallthrough();  // --db may come before or after the command
  Arguments a;
  app.add_option("--db", a.db, "the database file (never created, but by restore)")->required();
  AddCommands(app, a);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);
    return db::Fail(db::kUsage, e.what());
  }
  // A restore works on the files, not through an open store: the database may be lost.
  if (app.got_subcommand("restore")) return db::RunRestore(a.db, a.backup, a.next_game);
  auto store = OpenStore(a.db);
  if (!store) return db::Fail(db::kUsage, store.error().message);
  return Dispatch(app, *store, a);
}

}  // namespace

int main(int argc, char** argv) {
  // The store and the engine report problems as values; this catches what the libraries may
  // throw (a failed allocation, CLI11) so that the tool always ends with a message.
  try {
    return Main(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "carc-db: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "carc-db: unexpected error\n";
  }
  return 3;
}
