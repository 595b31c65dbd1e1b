// Game-log benchmarks: appends as a busy server makes them. Each batch (one transaction) holds
// one action for each of G games that already have kHistory actions, the way the Journal commits
// a move from every active room at once. Reported: actions per second (items) and the bytes
// each batch appends to the WAL (wal_bytes_per_batch, from SQLite's WAL hook), with
// PRAGMA synchronous normal and full, on a temporary file.
//
//   BM_StoreAppend   the real path: Store::ApplyBatch (a savepoint and a sequence check per write)
//   BM_LayoutAppend  plain INSERTs into the real `actions` table (rowid log position + index)
//                    against a table clustered by game: does a batch of many games append, or
//                    scatter over one page per game?
// Run: ./build/release/bench/store_bench  (docs/persistence.md discusses the figures)
#include <benchmark/benchmark.h>
#include <sqlite3.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/hash.h"
#include "persistence/sqlite.h"
#include "persistence/store.h"

namespace carc::persistence {
namespace {

namespace fs = std::filesystem;

constexpr int kHistory = 100;  // actions each game holds before the measured batches

// A database path of its own in the temporary directory; the file and its WAL are removed
// with it (declare it before the connection, so that it outlives it).
class TempFile {
 public:
  TempFile() {
    static std::atomic<int> counter = 0;
    path_ = (fs::temp_directory_path() / ("carc-store-bench-" + std::to_string(::getpid()) + "-" +
                                          std::to_string(counter++) + ".db"))
                .string();
    Remove();
  }
  ~TempFile() { Remove(); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  void Remove() {
    std::error_code ignored;
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(path_ + suffix, ignored);
  }
  std::string path_;
};

// Counts the bytes the commits of one connection append to the WAL. Installing a WAL hook
// replaces SQLite's automatic checkpoint, so the meter checkpoints at the same threshold.
class WalMeter {
 public:
  explicit WalMeter(sqlite3* db) {
    sqlite3_stmt* stmt = nullptr;
    sqlite3_prepare_v2(db, "PRAGMA page_size", -1, &stmt, nullptr);
    if (sqlite3_step(stmt) == SQLITE_ROW) frame_bytes_ = 24 + sqlite3_column_int64(stmt, 0);
    sqlite3_finalize(stmt);
    sqlite3_wal_hook(db, &WalMeter::Hook, this);
  }
  int64_t bytes() const { return frames_ * frame_bytes_; }

 private:
  static int Hook(void* self, sqlite3* db, const char* name, int frames) {
    auto* meter = static_cast<WalMeter*>(self);
    // Fewer frames than last time: the WAL was started over after a checkpoint.
    meter->frames_ += frames >= meter->frames_in_wal_ ? frames - meter->frames_in_wal_ : frames;
    meter->frames_in_wal_ = frames;
    if (frames >= 1000) {
      int log = 0;
      int done = 0;
      sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, &log, &done);
      if (log == done) meter->frames_in_wal_ = 0;  // the next commit starts the WAL over
    }
    return SQLITE_OK;
  }
  int64_t frame_bytes_ = 0;
  int64_t frames_ = 0;
  int frames_in_wal_ = 0;
};

// An action as a server stores it: short notation text, a 64-bit hash, a time.
ActionRecord MakeAction(uint64_t sequence, core::Random& random) {
  const auto x = static_cast<int>(random.Below(21)) - 10;
  const auto y = static_cast<int>(random.Below(21)) - 10;
  return ActionRecord{sequence, static_cast<int>(sequence % 4),
                      "place " + std::to_string(x) + " " + std::to_string(y) + " 1", random.Next(),
                      1'700'000'000'000 + static_cast<int64_t>(sequence)};
}

void Fail(benchmark::State& state, const StoreError& error) {
  state.SkipWithError(error.message.c_str());
}

// G running games with kHistory actions each, appended round robin as they would arrive.
Status FillStore(Store& store, int games, core::Random& random) {
  std::vector<Write> batch;
  for (int g = 1; g <= games; ++g) {
    GameRecord record;
    record.number = g;
    record.name = "game " + std::to_string(g);
    record.tileset_id = "the-city";
    record.tileset_version = 1;
    record.seats = 4;
    batch.push_back({g, {CreateGameOp{record}, StartGameOp{g, {}, {0, 1, 2}}}});
  }
  for (uint64_t s = 0; s <= kHistory; ++s) {
    for (const Status& result : store.ApplyBatch(batch)) {
      if (result) return result;
    }
    batch.clear();
    for (int g = 1; g <= games; ++g) {
      batch.push_back({g, {AppendActionsOp{g, {MakeAction(s + 1, random)}}}});
    }
  }
  return store.connection().Exec("PRAGMA wal_checkpoint(TRUNCATE)");
}

void SetCounters(benchmark::State& state, int games, const WalMeter& meter) {
  const auto batches = static_cast<double>(state.iterations());
  state.SetItemsProcessed(state.iterations() * games);
  state.counters["wal_bytes_per_batch"] = static_cast<double>(meter.bytes()) / batches;
  state.counters["wal_bytes_per_action"] = static_cast<double>(meter.bytes()) / batches / games;
}

// Args: games per batch, synchronous full (1) or normal (0).
void BM_StoreAppend(benchmark::State& state) {
  const int games = static_cast<int>(state.range(0));
  TempFile file;
  StoreOptions options;
  options.path = file.path();
  options.synchronous = state.range(1) ? "full" : "normal";
  auto store = Store::Open(options);
  if (!store) return Fail(state, store.error());
  core::Random random(7);
  if (auto error = FillStore(*store, games, random)) return Fail(state, *error);
  std::vector<Write> batch;
  for (int g = 1; g <= games; ++g) {
    batch.push_back({g, {AppendActionsOp{g, std::vector<ActionRecord>(1)}}});
  }
  WalMeter meter(store->connection().raw());
  uint64_t sequence = kHistory;
  for (auto _ : state) {
    ++sequence;
    for (Write& w : batch)
      std::get<AppendActionsOp>(w.ops[0]).actions[0] = MakeAction(sequence, random);
    for (const Status& result : store->ApplyBatch(batch)) {
      if (result) return Fail(state, *result);
    }
  }
  SetCounters(state, games, meter);
}

// ---------------------------------------------------------------------------------------------
// Layouts

// The real schema (rowid `position` log + unique index on (game, sequence)), or a table
// clustered by (game, sequence).
constexpr const char* kScatteredTable = R"sql(
CREATE TABLE actions_by_game (
  game       INTEGER NOT NULL,
  sequence   INTEGER NOT NULL,
  seat       INTEGER NOT NULL,
  action     TEXT    NOT NULL,
  state_hash INTEGER NOT NULL,
  time_ms    INTEGER NOT NULL,
  PRIMARY KEY (game, sequence)
) WITHOUT ROWID;
)sql";

// Inserts one action for each game at `sequence`, in one transaction.
Status InsertRound(Connection& db, Statement& insert, int games, uint64_t sequence,
                   core::Random& random) {
  if (auto error = db.Exec("BEGIN IMMEDIATE")) return error;
  for (int g = 1; g <= games; ++g) {
    const ActionRecord a = MakeAction(sequence, random);
    if (auto error = insert.Bind(1, g)
                         .Bind(2, static_cast<int64_t>(a.sequence))
                         .Bind(3, a.seat)
                         .Bind(4, a.action)
                         .Bind(5, static_cast<int64_t>(a.state_hash))
                         .Bind(6, a.time_ms)
                         .Run()) {
      db.Exec("ROLLBACK");
      return error;
    }
  }
  return db.Exec("COMMIT");
}

// A file with the real schema (made by a Store) or the clustered table alone, in WAL mode,
// opened as a plain connection without foreign keys (the layouts hold actions only).
Result<Connection> OpenLayout(const std::string& path, bool scattered, bool full) {
  std::string sql = "PRAGMA journal_mode = WAL; PRAGMA synchronous = ";
  sql += full ? "full;" : "normal;";
  if (scattered) {
    sql += kScatteredTable;
  } else {
    StoreOptions options;
    options.path = path;
    auto store = Store::Open(options);
    if (!store) return store.error();
  }
  auto db = Connection::Open(path, true);
  if (!db) return db.error();
  if (auto error = db->Exec(sql)) return *error;
  return db;
}

// Args: games per batch, scattered layout (1) or the real one (0), synchronous full (1) or not,
// actions each game holds before the measured batches.
void BM_LayoutAppend(benchmark::State& state) {
  const int games = static_cast<int>(state.range(0));
  const auto history = static_cast<uint64_t>(state.range(3));
  const bool scattered = state.range(1) != 0;
  TempFile file;
  auto opened = OpenLayout(file.path(), scattered, state.range(2) != 0);
  if (!opened) return Fail(state, opened.error());
  Connection& db = *opened;
  const std::string table = scattered ? "actions_by_game" : "actions";
  auto insert = db.Prepare("INSERT INTO " + table +
                           " (game, sequence, seat, action, state_hash, time_ms) "
                           "VALUES (?, ?, ?, ?, ?, ?)");
  if (!insert) return Fail(state, insert.error());
  core::Random random(11);
  for (uint64_t s = 1; s <= history; ++s) {
    if (auto error = InsertRound(db, *insert, games, s, random)) return Fail(state, *error);
  }
  if (auto error = db.Exec("PRAGMA wal_checkpoint(TRUNCATE)")) return Fail(state, *error);
  WalMeter meter(db.raw());
  uint64_t sequence = history;
  for (auto _ : state) {
    if (auto error = InsertRound(db, *insert, games, ++sequence, random)) {
      return Fail(state, *error);
    }
  }
  SetCounters(state, games, meter);
}

// Fixed iteration counts keep the whole run short: fewer batches when they are larger. They do
// not depend on synchronous, because every batch makes the history longer and the bytes per
// batch grow with it: full and normal compare only over the same batches.
int64_t Iterations(int games) { return games == 1 ? 500 : games == 100 ? 100 : 30; }

void Register() {
  for (const int full : {0, 1}) {
    for (const int games : {1, 100, 1000}) {
      benchmark::RegisterBenchmark("BM_StoreAppend", BM_StoreAppend)
          ->ArgNames({"games", "full"})
          ->Args({games, full})
          ->Iterations(Iterations(games))
          ->UseRealTime()  // the disk's time counts: items/s are per second of wall time
          ->Unit(benchmark::kMicrosecond);
    }
  }
  const auto layout = [](int games, int scattered, int full, int history) {
    benchmark::RegisterBenchmark("BM_LayoutAppend", BM_LayoutAppend)
        ->ArgNames({"games", "scattered", "full", "history"})
        ->Args({games, scattered, full, history})
        ->Iterations(Iterations(games))
        ->UseRealTime()
        ->Unit(benchmark::kMicrosecond);
  };
  for (const int full : {0, 1}) {
    for (const int scattered : {0, 1}) {
      for (const int games : {1, 100, 1000}) layout(games, scattered, full, kHistory);
    }
  }
  // Near the end of a game (a random game of The City has about 250 actions).
  for (const int scattered : {0, 1}) {
    for (const int games : {100, 1000}) layout(games, scattered, 0, 250);
  }
}

}  // namespace
}  // namespace carc::persistence

int main(int argc, char** argv) {
  carc::persistence::Register();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
