// The carc-db tool, run through its binary as a user would run it, on a database written here
// with the persistence library: a finished game, a running one and an open one, played with the
// engine from fixed seeds.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "city/default_tiles.h"
#include "city/notation.h"
#include "core/hash.h"
#include "persistence/fair_draws.h"
#include "persistence/log_lock.h"
#include "persistence/replay.h"
#include "persistence/restore.h"
#include "persistence/store.h"
#include "persistence/token.h"
#include "registry.h"
#include "run_command.h"

namespace {

using nlohmann::json;
namespace fs = std::filesystem;
namespace p = carc::persistence;
namespace city = carc::city;

using Result = carc::testing::CommandResult;

Result RunBinary(const std::string& binary, const std::string& args) {
  return carc::testing::RunCommand(binary + " " + args);
}

Result Carc(const std::string& args) { return RunBinary(CARC_BINARY, args); }

// carc-db on the database file `db`.
Result CarcDbOn(const std::string& db, const std::string& args) {
  return RunBinary(CARC_DB_BINARY, "--db " + db + " " + args);
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string Hex(uint64_t hash) {
  char text[19];
  std::snprintf(text, sizeof(text), "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

constexpr int64_t kCreatedMs = 1714564800000;  // 2024-05-01T12:00:00Z

p::SeatRecord Seat(int seat, const std::string& name) {
  return p::SeatRecord{seat, name, p::HashToken("token-of-" + name)};
}

constexpr p::DrawSalt kSalt = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, 2, 3, 4, 5, 6};

// Creates game `number` with its seats and starts it; returns the engine's game.
city::Game StartGame(p::Store& store, int64_t number, int players, uint64_t seed) {
  city::Config config;
  config.players = players;
  auto created = city::Game::Create(city::DefaultTileSet(), config, seed);
  city::Game game = std::get<city::Game>(std::move(created));
  p::GameRecord record;
  record.number = number;
  record.name = "game " + std::to_string(number);
  record.rule_set = "the-city";
  record.tileset_id = game.tiles().id();
  record.tileset_version = game.tiles().version();
  record.seats = players;
  record.seed = seed;
  record.created_ms = kCreatedMs;
  std::vector<p::SeatRecord> seats;
  seats.reserve(static_cast<size_t>(players));
  for (int s = 0; s < players; ++s) seats.push_back(Seat(s, "player" + std::to_string(s)));
  EXPECT_FALSE(store.Apply({number, {p::CreateGameOp{record}}}));
  // The server commits to the draws with the start (docs/fairness.md).
  const p::DrawCommitment draws =
      p::CommitToDraws(carc::DefaultRuleSets().Find("the-city")->Type(), seed, game.Order(), kSalt);
  EXPECT_FALSE(store.Apply({number,
                            {p::StartGameOp{number, seats, game.Order()},
                             p::CommitDrawsOp{number, draws.commitment, draws.proof}}}));
  return game;
}

// Plays up to `steps` seeded random legal actions and stores them as the server would.
void Play(p::Store& store, int64_t number, city::Game& game, uint64_t seed, int steps) {
  carc::core::Random random(seed);
  std::vector<city::Action> legal;
  std::vector<p::ActionRecord> records;
  for (int i = 0; i < steps && !game.IsOver(); ++i) {
    game.LegalActions(&legal);
    const city::Action action = legal[random.Below(legal.size())];
    const city::Actor actor = game.CurrentDecision().actor;
    const std::string text = city::FormatAction(game, action);
    ASSERT_FALSE(game.Apply(actor, action, nullptr));
    const uint64_t sequence = records.size() + 1;
    records.push_back({sequence, p::StoredSeat(actor), text, game.Hash(),
                       kCreatedMs + static_cast<int64_t>(sequence) * 1000});
  }
  ASSERT_FALSE(store.Apply({number, {p::AppendActionsOp{number, records}}}));
}

std::string ResultJson(const city::Game& game) {
  json scores = json::array();
  for (int s = 0; s < game.players(); ++s) scores.push_back(game.TotalScore(s));
  return json{{"scores", scores}, {"ended_by", city::ToString(game.EndedBy())}}.dump();
}

class CarcDb : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "carc_db_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name() + "/";
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    db_ = dir_ + "games.db";
    p::StoreOptions options;
    options.path = db_;
    auto store = p::Store::Open(options);
    ASSERT_TRUE(store.ok()) << store.error().message;
    // g1: a finished two-player game.
    city::Game finished = StartGame(*store, 1, 2, 7);
    Play(*store, 1, finished, 101, 100000);
    ASSERT_TRUE(finished.IsOver());
    final_hash_ = finished.Hash();
    actions_ = finished.History().size();
    ASSERT_FALSE(store->Apply({1, {p::FinishGameOp{1, ResultJson(finished)}}}));
    // g2: a running three-player game, 40 actions in.
    city::Game running = StartGame(*store, 2, 3, 8);
    Play(*store, 2, running, 102, 40);
    // g3: an open game with one seat taken.
    p::GameRecord open;
    open.number = 3;
    open.name = "waiting room";
    open.rule_set = "the-city";
    open.tileset_id = finished.tiles().id();
    open.tileset_version = finished.tiles().version();
    open.seats = 4;
    open.seed = 9;
    open.created_ms = kCreatedMs;
    ASSERT_FALSE(store->Apply({3, {p::CreateGameOp{open}, p::TakeSeatOp{3, Seat(0, "Ada")}}}));
  }

  Result Db(const std::string& args) { return CarcDbOn(db_, args); }

  // Runs SQL on the test's database, as another program might.
  void Sql(const std::string& sql) {
    auto connection = p::Connection::Open(db_, false);
    ASSERT_TRUE(connection.ok());
    ASSERT_FALSE(connection->Exec(sql));
  }

  std::string dir_, db_;
  uint64_t final_hash_ = 0;
  size_t actions_ = 0;
};

TEST_F(CarcDb, ListPrintsOneLinePerGame) {
  const Result run = Db("list");
  ASSERT_EQ(run.status, 0) << run.out;
  std::istringstream lines(run.out);
  std::string header, g1, g2, g3, extra;
  std::getline(lines, header);
  std::getline(lines, g1);
  std::getline(lines, g2);
  std::getline(lines, g3);
  EXPECT_FALSE(std::getline(lines, extra));
  EXPECT_EQ(g1.rfind("g1 ", 0), 0u) << g1;
  EXPECT_TRUE(Contains(g1, "finished")) << g1;
  EXPECT_TRUE(Contains(g1, " " + std::to_string(actions_) + " ")) << g1;
  EXPECT_TRUE(Contains(g2, "running") && Contains(g2, "3/3") && Contains(g2, " 40 ")) << g2;
  EXPECT_TRUE(Contains(g3, "open") && Contains(g3, "1/4") && Contains(g3, "waiting room")) << g3;
  EXPECT_TRUE(Contains(g3, "2024-05-01T12:00:00Z")) << g3;
}

TEST_F(CarcDb, ListAsJsonWithAStatusFilter) {
  const Result all = Db("list --json");
  ASSERT_EQ(all.status, 0) << all.out;
  const json games = json::parse(all.out);
  ASSERT_EQ(games.size(), 3u);
  EXPECT_EQ(games[0]["game_id"], "g1");
  EXPECT_EQ(games[0]["actions"], actions_);
  EXPECT_FALSE(games[0]["finished"].is_null());
  EXPECT_TRUE(games[1]["finished"].is_null());
  EXPECT_EQ(games[2]["seats"], json::parse(R"([{"seat":0,"player_name":"Ada"}])"));

  const Result running = Db("list --json --status running");
  ASSERT_EQ(running.status, 0) << running.out;
  const json only = json::parse(running.out);
  ASSERT_EQ(only.size(), 1u);
  EXPECT_EQ(only[0]["game_id"], "g2");
  EXPECT_EQ(only[0]["status"], "running");
  EXPECT_EQ(Db("list --status sleeping").status, 2);
}

TEST_F(CarcDb, ShowPrintsTheHeaderAndEveryActionWithItsEvents) {
  const Result run = Db("show g2");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_TRUE(Contains(run.out, "running")) << run.out;
  EXPECT_TRUE(Contains(run.out, "player2")) << run.out;
  EXPECT_TRUE(Contains(run.out, "actions (40):")) << run.out;
  EXPECT_TRUE(Contains(run.out, "    1  -1  2024-05-01T12:00:01.000Z  draw ")) << run.out;
  EXPECT_TRUE(Contains(run.out, "   40 ")) << run.out;
  EXPECT_TRUE(Contains(run.out, "tile_drawn ")) << run.out;
  EXPECT_TRUE(Contains(run.out, "tile_placed player=0")) << run.out;
  // Seat tokens are secrets: their hashes are never printed.
  const p::TokenHash token = p::HashToken("token-of-player0");
  char first_bytes[9];
  std::snprintf(first_bytes, sizeof(first_bytes), "%02x%02x%02x%02x", token[0], token[1], token[2],
                token[3]);
  EXPECT_FALSE(Contains(run.out, first_bytes));
  EXPECT_EQ(Db("show 2").out, run.out);
}

// Clocks and absent players: the time control in the header, a stand-in by its seat (and the
// seats it muted), and each player's clock after their actions.
TEST_F(CarcDb, ShowPrintsTheClockTheStandInsAndThePlayersClocks) {
  EXPECT_FALSE(Contains(Db("show g2").out, "clock")) << "g2 has no clock yet";
  {
    p::StoreOptions options;
    options.path = db_;
    auto store = p::Store::Open(options);
    ASSERT_TRUE(store.ok()) << store.error().message;
    ASSERT_FALSE(store->Apply({2, {p::StandInSeatOp{2, 1, "greedy"}}}));
    ASSERT_FALSE(store->Apply({2, {p::MuteSeatsOp{2, 1, 0b01}}}));
  }
  Sql("UPDATE games SET clock_kind = 'live', clock_bank_ms = 300000, clock_increment_ms = 5000, "
      "grace_ms = 60000, on_absent = 'forfeit' WHERE number = 2");
  Sql("UPDATE actions SET clock_ms = 295000 WHERE game = 2 AND sequence = 2");
  const Result live = Db("show g2");
  ASSERT_EQ(live.status, 0) << live.out;
  EXPECT_TRUE(Contains(live.out, "  clock     live, bank 300000 ms, increment 5000 ms\n"))
      << live.out;
  EXPECT_TRUE(
      Contains(live.out, "  absent    forfeit after 60000 ms away or when the clock runs out\n"))
      << live.out;
  EXPECT_TRUE(Contains(live.out, "  seat 1    player1 (stand-in: greedy) (mutes seats 0)\n"))
      << live.out;
  EXPECT_TRUE(Contains(live.out, "  seat 0    player0\n")) << live.out;
  EXPECT_TRUE(Contains(live.out, "  (clock 295000 ms)\n")) << live.out;
  EXPECT_EQ(live.out.find("(clock "), live.out.rfind("(clock ")) << "only action 2 has a clock";

  Sql("UPDATE games SET clock_kind = 'correspondence', clock_bank_ms = 0, clock_increment_ms = 0, "
      "clock_decision_ms = 86400000, grace_ms = 0, on_absent = 'stand_in' WHERE number = 2");
  const Result correspondence = Db("show g2");
  EXPECT_TRUE(
      Contains(correspondence.out, "  clock     correspondence, 86400000 ms per decision\n"))
      << correspondence.out;
  EXPECT_TRUE(Contains(correspondence.out, "  absent    stand_in when the clock runs out\n"))
      << correspondence.out;
}

TEST_F(CarcDb, ANamedGameThatDoesNotExistExitsWithOne) {
  const Result run = Db("show g99");
  EXPECT_EQ(run.status, 1);
  EXPECT_TRUE(Contains(run.out, "carc-db: no such game g99")) << run.out;
  EXPECT_EQ(Db("show x7").status, 2);
}

TEST_F(CarcDb, VerifyReplaysEveryGame) {
  const Result run = Db("verify");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_TRUE(Contains(run.out, "integrity check ok")) << run.out;
  EXPECT_TRUE(Contains(
      run.out, "g1 ok (" + std::to_string(actions_) + " actions, hash " + Hex(final_hash_) + ")"))
      << run.out;
  EXPECT_TRUE(Contains(run.out, "g2 ok (40 actions")) << run.out;
  EXPECT_TRUE(Contains(run.out, "g3 ok (open")) << run.out;
}

TEST_F(CarcDb, VerifyReportsATamperedHash) {
  Sql("UPDATE actions SET state_hash = state_hash + 1 WHERE game = 2 AND sequence = 17");
  const Result run = Db("verify");
  EXPECT_EQ(run.status, 1) << run.out;
  EXPECT_TRUE(Contains(run.out, "g2 DAMAGED: action 17 ")) << run.out;
  EXPECT_TRUE(Contains(run.out, "g1 ok")) << run.out;
  EXPECT_EQ(Db("verify g1").status, 0);
  EXPECT_EQ(Db("verify g2").status, 1);
}

TEST_F(CarcDb, VerifyCountsAGameStoredAsDamaged) {
  Sql("UPDATE games SET status = 'damaged', damage = 'lost power' WHERE number = 1");
  const Result run = Db("verify 1");
  EXPECT_EQ(run.status, 1) << run.out;
  EXPECT_TRUE(Contains(run.out, "g1 DAMAGED: lost power")) << run.out;
}

// Abandoning is how a game ended, not damage: a game nobody filled in time (g3) and one nobody
// played on (g2) verify, and one timed-out game does not fail every later verify.
TEST_F(CarcDb, VerifyPassesGamesAbandonedBeforeOrAfterTheirStart) {
  {
    p::StoreOptions options;
    options.path = db_;
    auto store = p::Store::Open(options);
    ASSERT_TRUE(store.ok()) << store.error().message;
    ASSERT_FALSE(store->Apply({3, {p::AbandonGameOp{3}}}));
    ASSERT_FALSE(store->Apply({2, {p::AbandonGameOp{2}}}));
  }
  const Result run = Db("verify");
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_TRUE(Contains(run.out, "g3 ok (abandoned before it started, no actions)\n")) << run.out;
  EXPECT_TRUE(Contains(run.out, "g2 ok (40 actions, hash ")) << run.out;
  EXPECT_FALSE(Contains(run.out, "DAMAGED")) << run.out;
  EXPECT_TRUE(Contains(Db("show g3").out, "  status    abandoned\n"));
  EXPECT_FALSE(Contains(Db("show g3").out, "the replay stopped"));

  // Such a game has nothing to replay: actions stored for it are damage.
  Sql("INSERT INTO actions (game, sequence, seat, action, state_hash, time_ms) "
      "VALUES (3, 1, -1, 'draw 5', 0, 0)");
  const Result damaged = Db("verify g3");
  EXPECT_EQ(damaged.status, 1) << damaged.out;
  EXPECT_TRUE(
      Contains(damaged.out, "g3 DAMAGED: a game abandoned before it started has 1 stored actions"))
      << damaged.out;
}

TEST_F(CarcDb, ExportReplaysWithCarcToTheStoredHashAndScores) {
  const std::string exported = dir_ + "g1.json";
  const Result run = Db("export g1 -o " + exported);
  ASSERT_EQ(run.status, 0) << run.out;
  const json doc = json::parse(Slurp(exported));
  EXPECT_EQ(doc["format"], "carc-game");
  EXPECT_EQ(doc["game_id"], "g1");
  EXPECT_EQ(doc["seed"], "7");
  EXPECT_EQ(doc["actions"].size(), actions_);
  EXPECT_EQ(doc["actions"][0]["actor"], "chance");
  EXPECT_EQ(doc["final_state_hash"], Hex(final_hash_));

  const Result replay = Carc("replay " + exported);
  ASSERT_EQ(replay.status, 0) << replay.out;
  const json state = json::parse(replay.out);
  EXPECT_EQ(state["hash"], Hex(final_hash_));
  // The scores are those of the stored game rebuilt by the persistence library.
  p::StoreOptions options;
  options.path = db_;
  options.create = false;
  auto store = p::Store::Open(options);
  ASSERT_TRUE(store.ok());
  const auto stored = store->LoadGame(1);
  ASSERT_TRUE(stored.ok() && stored->has_value());
  const p::ReplayedGame replayed = p::ReplayStored(**stored, carc::DefaultRuleSets());
  ASSERT_TRUE(replayed.state && !replayed.damage);
  for (int s = 0; s < 2; ++s) {
    EXPECT_EQ(state["scores"][s]["total"], replayed.state->Scores()[static_cast<size_t>(s)]);
    EXPECT_EQ(doc["result"]["scores"][s], replayed.state->Scores()[static_cast<size_t>(s)]);
  }
}

TEST_F(CarcDb, ATamperedExportMakesCarcReplayFail) {
  const Result run = Db("export 2");
  ASSERT_EQ(run.status, 0) << run.out;
  json doc = json::parse(run.out);
  doc["actions"][24]["state_hash"] = "0123456789abcdef";
  const std::string path = dir_ + "tampered.json";
  std::ofstream(path) << doc.dump();
  const Result replay = Carc("replay " + path);
  EXPECT_EQ(replay.status, 1) << replay.out;
  EXPECT_TRUE(Contains(replay.out, "sequence 25")) << replay.out;

  doc["actions"][24].erase("state_hash");
  std::ofstream(path, std::ios::trunc) << doc.dump();
  const Result broken = Carc("replay " + path);
  EXPECT_EQ(broken.status, 2) << broken.out;
  EXPECT_TRUE(Contains(broken.out, "actions[24].state_hash: missing")) << broken.out;
}

TEST_F(CarcDb, ExpireMovesOldFinishedGamesToTheArchive) {
  const int64_t ten_days_ago = p::NowMs() - 10LL * 24 * 60 * 60 * 1000;
  Sql("UPDATE games SET finished_ms = " + std::to_string(ten_days_ago) + " WHERE number = 1");
  const std::string archive = dir_ + "archive.db";
  EXPECT_EQ(Db("expire --days 20 --archive " + archive).out.rfind("archived 0 games", 0), 0u);
  const Result run = Db("expire --days 7 --archive " + archive);
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_TRUE(Contains(run.out, "1 game (" + std::to_string(actions_) + " actions)")) << run.out;
  const json left = json::parse(Db("list --json").out);
  ASSERT_EQ(left.size(), 2u);
  EXPECT_EQ(left[0]["game_id"], "g2");
  const Result archived = CarcDbOn(archive, "list --json");
  ASSERT_EQ(archived.status, 0) << archived.out;
  const json moved = json::parse(archived.out);
  ASSERT_EQ(moved.size(), 1u);
  EXPECT_EQ(moved[0]["game_id"], "g1");
  EXPECT_EQ(moved[0]["actions"], actions_);
  EXPECT_EQ(CarcDbOn(archive, "verify").status, 0);
}

TEST_F(CarcDb, DeleteRefusesARunningGameWithoutForce) {
  const Result refused = Db("delete g2");
  EXPECT_EQ(refused.status, 2);
  EXPECT_TRUE(Contains(refused.out, "--force")) << refused.out;
  EXPECT_EQ(json::parse(Db("list --json").out).size(), 3u);
  const Result finished = Db("delete g1");
  ASSERT_EQ(finished.status, 0) << finished.out;
  EXPECT_EQ(Db("delete g2 --force").status, 0);
  const json left = json::parse(Db("list --json").out);
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0]["game_id"], "g3");
  EXPECT_EQ(Db("delete g1").status, 1);
}

TEST_F(CarcDb, BackupMakesAFileThatVerifies) {
  const std::string copy = dir_ + "copy.db";
  const Result run = Db("backup " + copy);
  ASSERT_EQ(run.status, 0) << run.out;
  const Result verify = CarcDbOn(copy, "verify");
  EXPECT_EQ(verify.status, 0) << verify.out;
  EXPECT_TRUE(Contains(verify.out, "g1 ok")) << verify.out;
  EXPECT_EQ(Db("backup " + copy).status, 2);
  EXPECT_EQ(Db("backup --force " + copy).status, 0);
}

TEST_F(CarcDb, AMissingDatabaseIsAnErrorAndIsNotCreated) {
  const std::string missing = dir_ + "missing.db";
  const Result run = CarcDbOn(missing, "list");
  EXPECT_EQ(run.status, 2);
  EXPECT_TRUE(Contains(run.out, "carc-db: ")) << run.out;
  EXPECT_FALSE(fs::exists(missing));
  EXPECT_EQ(RunBinary(CARC_DB_BINARY, "list").status, 2);  // --db is required
}

// ---------------------------------------------------------------------------------------------
// restore (docs/operations.md, "Backups and restoring one")

// The games a game log holds, by id, read with the library.
std::vector<std::string> GameIds(const std::string& db) {
  p::StoreOptions options;
  options.path = db;
  options.create = false;
  auto store = p::Store::Open(options);
  EXPECT_TRUE(store.ok()) << db << ": " << store.error().message;
  if (!store) return {};
  const auto games = store->ListGames({});
  EXPECT_TRUE(games.ok()) << db << ": " << games.error().message;
  if (!games) return {};
  std::vector<std::string> ids;
  for (const p::GameRecord& g : *games) ids.push_back(p::GameId(g.number));
  return ids;
}

int64_t NextGameNumber(const std::string& db) {
  const auto next = p::ReadNextGameNumber(db);
  EXPECT_TRUE(next.ok()) << db << ": " << next.error().message;
  return next.ok() ? *next : -1;
}

// Game `number`, open, as the server creates one.
p::Write CreateOpenGame(int64_t number) {
  p::GameRecord game;
  game.number = number;
  game.name = "after the backup";
  game.rule_set = "the-city";
  game.tileset_id = "the-city";
  game.tileset_version = 1;
  game.seats = 2;
  return {number, {p::CreateGameOp{game}}};
}

class CarcDbRestore : public CarcDb {
 protected:
  void SetUp() override {
    CarcDb::SetUp();
    backup_ = dir_ + "backup.db";
    const Result run = Db("backup " + backup_);
    ASSERT_EQ(run.status, 0) << run.out;
  }

  // Games created after the backup: g4, g5 and g6, of which g6 is deleted again.
  void PlayOnAfterTheBackup() {
    p::StoreOptions options;
    options.path = db_;
    auto store = p::Store::Open(options);
    ASSERT_TRUE(store.ok()) << store.error().message;
    for (int64_t number : {4, 5, 6}) ASSERT_FALSE(store->Apply(CreateOpenGame(number)));
    ASSERT_TRUE(store->DeleteGame(6).ok());
  }

  std::string backup_;
};

// The server was killed after the backup: its last commits are in games.db-wal beside the file.
// Copied over the file, the backup would be read with that stale write-ahead log; restored, the
// backup is what the file holds, and the game numbers the lost file issued are not issued again.
TEST_F(CarcDbRestore, RestoreIgnoresAStaleWriteAheadLogAndKeepsTheGameNumbers) {
  const std::string crashed = dir_ + "crashed/games.db";
  fs::create_directories(dir_ + "crashed");
  {
    // The image a kill -9 leaves: the file and its write-ahead log, never checkpointed.
    p::StoreOptions options;
    options.path = db_;
    auto store = p::Store::Open(options);
    ASSERT_TRUE(store.ok()) << store.error().message;
    ASSERT_FALSE(store->connection().Exec("PRAGMA wal_autocheckpoint = 0"));
    ASSERT_FALSE(store->Apply(CreateOpenGame(4)));
    ASSERT_FALSE(store->Apply(CreateOpenGame(5)));
    fs::copy_file(db_, crashed);
    fs::copy_file(db_ + "-wal", crashed + "-wal");
  }
  ASSERT_GT(fs::file_size(crashed + "-wal"), 0u);

  const Result run = CarcDbOn(crashed, "restore " + backup_);
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_TRUE(Contains(run.out, "restored " + backup_ + " to " + crashed +
                                    ": 3 games; the next game is g6 (game numbers carried over "
                                    "from the file it replaced)\n"))
      << run.out;
  EXPECT_FALSE(fs::exists(crashed + "-wal")) << "the stale write-ahead log is gone";
  EXPECT_FALSE(fs::exists(crashed + ".restoring")) << "no temporary copy is left";
  EXPECT_EQ(GameIds(crashed), (std::vector<std::string>{"g1", "g2", "g3"}));
  EXPECT_EQ(NextGameNumber(crashed), 6) << "g4 and g5 were issued before the restore";
  EXPECT_EQ(CarcDbOn(crashed, "verify").status, 0);
  EXPECT_TRUE(fs::exists(backup_)) << "the backup is left as it was";
}

TEST_F(CarcDbRestore, RestoreCarriesOverTheNumbersOfDeletedGamesToo) {
  PlayOnAfterTheBackup();
  ASSERT_EQ(NextGameNumber(db_), 7);
  const Result run = Db("restore " + backup_);
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_TRUE(Contains(run.out, "the next game is g7")) << run.out;
  EXPECT_EQ(GameIds(db_), (std::vector<std::string>{"g1", "g2", "g3"}));
  EXPECT_EQ(NextGameNumber(db_), 7);
  // The number only grows: a second restore of the same backup keeps it.
  ASSERT_EQ(Db("restore " + backup_).status, 0);
  EXPECT_EQ(NextGameNumber(db_), 7);
}

// A server holds the log's lock while it runs: the restore refuses, changing nothing.
TEST_F(CarcDbRestore, RestoreRefusesWhileTheLogIsLocked) {
  PlayOnAfterTheBackup();
  auto lock = p::LogLock::Acquire(db_);
  ASSERT_TRUE(lock.ok()) << lock.error().message;
  const Result run = Db("restore " + backup_);
  EXPECT_EQ(run.status, 2) << run.out;
  EXPECT_TRUE(Contains(run.out, "carc-db: cannot restore: " + db_ + ": its lock " + db_ +
                                    ".lock is held: a carc-server runs on it"))
      << run.out;
  EXPECT_EQ(GameIds(db_), (std::vector<std::string>{"g1", "g2", "g3", "g4", "g5"}));
}

// With the file lost, the next game number cannot be read from it: it must be given.
TEST_F(CarcDbRestore, RestoreOfALostFileNeedsTheNextGameNumber) {
  for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(db_ + suffix);
  Result run = Db("restore " + backup_);
  EXPECT_EQ(run.status, 2) << run.out;
  EXPECT_TRUE(Contains(run.out, db_ + " does not exist); give the next game number with "
                                      "--next-game N"))
      << run.out;
  EXPECT_FALSE(fs::exists(db_)) << "nothing was created";
  EXPECT_EQ(Db("restore " + backup_ + " --next-game 0").status, 2);

  run = Db("restore " + backup_ + " --next-game 40");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_TRUE(Contains(run.out, "the next game is g40 (from --next-game)")) << run.out;
  EXPECT_EQ(GameIds(db_), (std::vector<std::string>{"g1", "g2", "g3"}));
  EXPECT_EQ(NextGameNumber(db_), 40);
}

// A backup that is no game log is refused, and the log is left as it was.
TEST_F(CarcDbRestore, RestoreRefusesABackupThatIsNoGameLog) {
  const std::string before = Slurp(db_);
  { std::ofstream(dir_ + "empty.db"); }
  { std::ofstream(dir_ + "text.db") << "not a database, but long enough to be read as one\n"; }
  const std::pair<std::string, std::string> refusals[] = {
      {dir_ + "empty.db", "an empty file, not a game log"},
      {dir_ + "text.db", "file is not a database"},
      {dir_ + "missing.db", "no such backup file"},
      {db_, "the backup must be another file than the game log"}};
  for (const auto& [backup, why] : refusals) {
    const Result run = Db("restore " + backup);
    EXPECT_EQ(run.status, 2) << run.out;
    EXPECT_TRUE(Contains(run.out, why)) << run.out;
  }
  EXPECT_EQ(Slurp(db_), before);
  EXPECT_FALSE(fs::exists(db_ + ".restoring"));
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// verify-draws (docs/fairness.md)

namespace {

// g1's stored commitment, proof and drawing order.
struct Draws {
  std::string commitment, proof;
  std::vector<int> order;
};
Draws StoredDraws(const std::string& db) {
  p::StoreOptions options;
  options.path = db;
  auto store = p::Store::Open(options);
  EXPECT_TRUE(store.ok());
  auto loaded = store->LoadGame(1);
  EXPECT_TRUE(loaded.ok() && loaded->has_value());
  const p::GameRecord& g = (*loaded)->game;
  return {g.draw_commitment, g.draw_proof, g.order};
}

TEST_F(CarcDb, VerifyDrawsPassesAnHonestGame) {
  const Draws draws = StoredDraws(db_);
  const Result run = Db("verify-draws g1");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_TRUE(Contains(run.out, "fair: "));
  EXPECT_TRUE(Contains(run.out, " draws match commitment " + draws.commitment + "\n")) << run.out;
  // The show command names the commitment.
  EXPECT_TRUE(Contains(Db("show g1").out, "commitment " + draws.commitment));
}

TEST_F(CarcDb, VerifyDrawsFailsATamperedCommitment) {
  Sql("UPDATE games SET draw_commitment = '" + std::string(64, 'a') + "' WHERE number = 1");
  const Result run = Db("verify-draws g1");
  EXPECT_EQ(run.status, 1) << run.out;
  EXPECT_TRUE(Contains(run.out, "carc-db: g1 is not fair: the proof does not match the commitment"))
      << run.out;
}

TEST_F(CarcDb, VerifyDrawsFailsATamperedOrder) {
  // A proof of an order the seed does not deal, committed to consistently.
  Draws draws = StoredDraws(db_);
  std::swap(draws.order[3], draws.order[4]);
  const p::DrawCommitment forged =
      p::CommitToDraws(carc::DefaultRuleSets().Find("the-city")->Type(), 7, draws.order, kSalt);
  Sql("UPDATE games SET draw_commitment = '" + forged.commitment + "', draw_proof = '" +
      forged.proof + "' WHERE number = 1");
  const Result run = Db("verify-draws g1");
  EXPECT_EQ(run.status, 1) << run.out;
  EXPECT_TRUE(Contains(run.out,
                       "the committed order is not the one the-city deals from seed 7 "
                       "(they differ at position 4)"))
      << run.out;
}

TEST_F(CarcDb, VerifyDrawsFailsATamperedLogOrderOrSeed) {
  const Draws draws = StoredDraws(db_);
  std::vector<int> order = draws.order;
  std::swap(order[0], order[1]);
  std::string text;
  for (int tile : order) text += (text.empty() ? "" : " ") + std::to_string(tile);
  Sql("UPDATE games SET draw_order = '" + text + "' WHERE number = 1");
  Result run = Db("verify-draws g1");
  EXPECT_EQ(run.status, 1) << run.out;
  EXPECT_TRUE(Contains(run.out, "the log's drawing order is not the committed one")) << run.out;

  Sql("UPDATE games SET seed = 70 WHERE number = 1");
  run = Db("verify-draws g1");
  EXPECT_EQ(run.status, 1) << run.out;
  EXPECT_TRUE(Contains(run.out, "the log's seed 70 is not the committed seed 7")) << run.out;
}

TEST_F(CarcDb, VerifyDrawsFailsATamperedDraw) {
  // The first action is the server's first draw: another tile than the order's first.
  const Draws draws = StoredDraws(db_);
  Sql("UPDATE actions SET action = 'draw " + std::to_string(draws.order[1]) +
      "' WHERE game = 1 AND sequence = 1");
  const Result run = Db("verify-draws g1");
  EXPECT_EQ(run.status, 1) << run.out;
  EXPECT_TRUE(Contains(run.out,
                       "g1 is not fair: step 1: the draw is not the committed order's "
                       "next tile ('draw " +
                           std::to_string(draws.order[0]) + "')"))
      << run.out;
}

TEST_F(CarcDb, VerifyDrawsFailsAStateHashNotTheEngines) {
  // The states the server recorded must be the engine's on the committed set-up (what the seed
  // lays besides the order, such as The Castle's wall tiles, is in them).
  Sql("UPDATE actions SET state_hash = state_hash + 1 WHERE game = 1 AND sequence = 9");
  const Result run = Db("verify-draws g1");
  EXPECT_EQ(run.status, 1) << run.out;
  EXPECT_TRUE(Contains(run.out, "g1 is not fair: step 9: the state hash after it is ")) << run.out;
}

TEST_F(CarcDb, VerifyDrawsOfAGameWithoutCommitmentSaysSo) {
  const Result run = Db("verify-draws g3");
  EXPECT_EQ(run.status, 1) << run.out;
  EXPECT_TRUE(Contains(run.out, "g3 is not fair: the game has no draw commitment")) << run.out;
}

}  // namespace
