// The game log (persistence/) on real files: what a Store keeps and gives back, what ApplyBatch
// commits when some writes are refused, busy locks and failing disks (through FaultVfs), schema
// migration from files of older versions, files it must refuse untouched, the group-committing
// Journal, backups taken while writing, housekeeping, the replay of stored games through the
// engine, chat and fair draws, and clocks and stand-ins.
//
// Every test works in a directory of its own under the system's temporary directory, removed
// afterwards. Randomness is seeded; nothing depends on timing.
#include "persistence/store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "city/default_tiles.h"
#include "city/game.h"
#include "city/notation.h"
#include "city/rule_set.h"
#include "core/hash.h"
#include "persistence/journal.h"
#include "persistence/log_lock.h"
#include "persistence/replay.h"
#include "persistence/restore.h"
#include "persistence/schema.h"
#include "persistence/token.h"
#include "registry.h"
#include "tests/persistence/fault_vfs.h"

namespace carc::persistence {
namespace {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------------------------
// Helpers

// A directory of the running test's own, removed with everything in it afterwards.
class TempDir {
 public:
  TempDir() {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = "carc-persistence-" + std::to_string(::getpid()) + "-" +
                       test->test_suite_name() + "-" + test->name();
    std::replace(name.begin(), name.end(), '/', '_');  // parameterized tests are "Suite/Name/0"
    path_ = fs::temp_directory_path() / name;
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::string File(const std::string& name) const { return (path_ / name).string(); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

StoreOptions Options(const std::string& path, const std::string& synchronous = "full",
                     const std::string& vfs = "") {
  StoreOptions options;
  options.path = path;
  options.synchronous = synchronous;
  options.vfs = vfs;
  return options;
}

// The opened store, or nothing after reporting why not.
std::optional<Store> OpenStore(const StoreOptions& options) {
  auto store = Store::Open(options);
  if (!store) {
    ADD_FAILURE() << "opening " << options.path << ": " << store.error().message;
    return std::nullopt;
  }
  return std::move(*store);
}
std::optional<Store> OpenStore(const std::string& path) { return OpenStore(Options(path)); }

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string ErrorText(const Status& status) { return status ? status->message : "committed"; }

GameRecord NewGameRecord(int64_t number) {
  GameRecord game;
  game.number = number;
  game.name = "game " + std::to_string(number);
  game.rule_set = "the-city";
  game.tileset_id = "the-city";
  game.tileset_version = 1;
  game.seats = 2;
  game.seed = 0x8000'0000'0000'0000ULL + static_cast<uint64_t>(number);  // the top bit survives
  game.created_ms = 1'700'000'000'000 + number;
  return game;
}

SeatRecord Seat(int seat, const std::string& name) { return {seat, name, HashToken(name + "-t")}; }

const std::vector<int> kOrder = {4, 2, 0, 3, 1};

// A made-up action of `game` at `sequence`; every field differs from game to game.
ActionRecord Act(int64_t game, uint64_t sequence) {
  ActionRecord action;
  action.sequence = sequence;
  action.seat = sequence % 3 == 1 ? -1 : static_cast<int>(sequence % 2);
  action.action = "draw " + std::to_string(sequence);
  action.state_hash = (static_cast<uint64_t>(game) << 40) ^ sequence ^ 0xF000'0000'0000'0000ULL;
  action.time_ms = 1'700'000'000'000 + static_cast<int64_t>(sequence);
  return action;
}

Write Create(int64_t number) { return {number, {CreateGameOp{NewGameRecord(number)}}}; }

Write Append(int64_t game, uint64_t first, int count) {
  AppendActionsOp op{game, {}};
  for (int i = 0; i < count; ++i) op.actions.push_back(Act(game, first + static_cast<uint64_t>(i)));
  return {game, {op}};
}

// One write that creates game `number`, seats two players, starts it and appends `actions`.
Write NewRunningGame(int64_t number, int actions) {
  Write write = Create(number);
  write.ops.emplace_back(StartGameOp{number, {Seat(0, "ann"), Seat(1, "bob")}, kOrder});
  if (actions > 0) write.ops.push_back(Append(number, 1, actions).ops.front());
  return write;
}

std::vector<uint64_t> Range(uint64_t first, uint64_t last) {
  std::vector<uint64_t> out;
  for (uint64_t s = first; s <= last; ++s) out.push_back(s);
  return out;
}

// The stored sequence numbers of a game, checking each stored action is the one Act made.
std::vector<uint64_t> Sequences(Store& store, int64_t game) {
  auto loaded = store.LoadGame(game);
  if (!loaded || !*loaded) {
    ADD_FAILURE() << "loading " << GameId(game) << ": "
                  << (loaded ? "not found" : loaded.error().message);
    return {};
  }
  std::vector<uint64_t> out;
  for (const ActionRecord& a : (*loaded)->actions) {
    EXPECT_EQ(a, Act(game, a.sequence)) << GameId(game) << " action " << a.sequence;
    out.push_back(a.sequence);
  }
  return out;
}

void ExpectAllCommitted(const std::vector<Status>& results) {
  for (size_t i = 0; i < results.size(); ++i) {
    EXPECT_FALSE(results[i]) << "write " << i << ": " << ErrorText(results[i]);
  }
}

void ExpectSameGame(const StoredGame& a, const StoredGame& b) {
  EXPECT_EQ(a.game.number, b.game.number);
  EXPECT_EQ(a.game.name, b.game.name);
  EXPECT_EQ(a.game.rule_set, b.game.rule_set);
  EXPECT_EQ(a.game.tileset_id, b.game.tileset_id);
  EXPECT_EQ(a.game.tileset_version, b.game.tileset_version);
  EXPECT_EQ(a.game.seats, b.game.seats);
  EXPECT_EQ(a.game.seed, b.game.seed);
  EXPECT_EQ(a.game.order, b.game.order);
  EXPECT_EQ(a.game.status, b.game.status);
  EXPECT_EQ(a.game.created_ms, b.game.created_ms);
  EXPECT_EQ(a.game.updated_ms, b.game.updated_ms);
  EXPECT_EQ(a.game.finished_ms, b.game.finished_ms);
  EXPECT_EQ(a.game.result, b.game.result);
  EXPECT_EQ(a.game.damage, b.game.damage);
  EXPECT_EQ(a.game.seat_records, b.game.seat_records);
  EXPECT_TRUE(a.game.time_control == b.game.time_control);
  EXPECT_EQ(a.actions, b.actions);
}

StoredGame MustLoad(Store& store, int64_t number) {
  auto loaded = store.LoadGame(number);
  EXPECT_TRUE(loaded.ok() && loaded->has_value()) << GameId(number);
  return loaded.ok() && loaded->has_value() ? **loaded : StoredGame{};
}

std::vector<int64_t> Numbers(const std::vector<GameRecord>& games) {
  std::vector<int64_t> out;
  out.reserve(games.size());
  for (const GameRecord& g : games) out.push_back(g.number);
  return out;
}

std::vector<int64_t> ListNumbers(Store& store, GameStatus status) {
  auto listed = store.ListGames(ListFilter{status, std::nullopt});
  EXPECT_TRUE(listed.ok());
  return listed.ok() ? Numbers(*listed) : std::vector<int64_t>{};
}

int64_t CountRows(Connection& db, const std::string& sql) {
  auto q = db.Prepare(sql);
  EXPECT_TRUE(q.ok()) << sql;
  if (!q || !q->Step()) return -1;
  return q->Int(0);
}

// ---------------------------------------------------------------------------------------------
// What a Store keeps

TEST(StoreTest, KeepsAGameFromCreationToItsResult) {
  TempDir dir;
  auto store = OpenStore(dir.File("log.db"));
  ASSERT_TRUE(store);
  EXPECT_EQ(store->schema_version(), kSchemaVersion);
  ASSERT_FALSE(store->Apply(Create(1)));
  ASSERT_FALSE(store->Apply({1, {TakeSeatOp{1, Seat(0, "ann")}, TakeSeatOp{1, Seat(2, "cid")}}}));
  ASSERT_FALSE(store->Apply({1, {TakeSeatOp{1, Seat(1, "bob")}, FreeSeatOp{1, 2}}}));
  StoredGame open = MustLoad(*store, 1);
  EXPECT_EQ(open.game.status, GameStatus::kOpen);
  EXPECT_EQ(open.game.seat_records, (std::vector<SeatRecord>{Seat(0, "ann"), Seat(1, "bob")}));

  ASSERT_FALSE(store->Apply({1, {StartGameOp{1, {Seat(0, "bob"), Seat(1, "ann")}, kOrder}}}));
  ASSERT_FALSE(store->Apply(Append(1, 1, 3)));
  ASSERT_FALSE(store->Apply(Append(1, 4, 2)));
  EXPECT_EQ(*store->LastSequence(1), 5u);
  ASSERT_FALSE(store->Apply({1, {FinishGameOp{1, R"({"scores":[3,1]})"}}}));

  const StoredGame done = MustLoad(*store, 1);
  const GameRecord expected = NewGameRecord(1);
  EXPECT_EQ(done.game.name, expected.name);
  EXPECT_EQ(done.game.seed, expected.seed);
  EXPECT_EQ(done.game.created_ms, expected.created_ms);
  EXPECT_EQ(done.game.seats, 2);
  EXPECT_EQ(done.game.order, kOrder);
  EXPECT_EQ(done.game.status, GameStatus::kFinished);
  EXPECT_EQ(done.game.result, R"({"scores":[3,1]})");
  EXPECT_GT(done.game.finished_ms, 0);
  EXPECT_EQ(done.game.seat_records, (std::vector<SeatRecord>{Seat(0, "bob"), Seat(1, "ann")}));
  EXPECT_EQ(Sequences(*store, 1), Range(1, 5));
  EXPECT_FALSE(store->LoadGame(2)->has_value());
  EXPECT_EQ(*store->LastSequence(2), 0u);

  // The same after reopening the file.
  store.reset();
  auto reopened = OpenStore(dir.File("log.db"));
  ASSERT_TRUE(reopened);
  ExpectSameGame(MustLoad(*reopened, 1), done);
}

TEST(StoreTest, ListsGamesByStatusAndLoadsTheUnfinishedOnes) {
  TempDir dir;
  auto store = OpenStore(dir.File("log.db"));
  ASSERT_TRUE(store);
  ExpectAllCommitted(store->ApplyBatch(
      {Create(1), NewRunningGame(2, 3), NewRunningGame(3, 2), NewRunningGame(4, 4), Create(5)}));
  ExpectAllCommitted(store->ApplyBatch(
      {{3, {FinishGameOp{3, "{}"}}}, {4, {MarkDamagedOp{4, "hash differs at 2"}}}}));

  EXPECT_EQ(ListNumbers(*store, GameStatus::kOpen), (std::vector<int64_t>{1, 5}));
  EXPECT_EQ(ListNumbers(*store, GameStatus::kRunning), (std::vector<int64_t>{2}));
  EXPECT_EQ(ListNumbers(*store, GameStatus::kFinished), (std::vector<int64_t>{3}));
  EXPECT_EQ(ListNumbers(*store, GameStatus::kDamaged), (std::vector<int64_t>{4}));
  EXPECT_EQ(Numbers(*store->ListGames({})), (std::vector<int64_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(MustLoad(*store, 4).game.damage, "hash differs at 2");

  auto unfinished = store->LoadUnfinished();
  ASSERT_TRUE(unfinished.ok()) << unfinished.error().message;
  std::vector<int64_t> numbers;
  for (const StoredGame& g : *unfinished) {
    numbers.push_back(g.game.number);
    ExpectSameGame(g, MustLoad(*store, g.game.number));  // seats and actions included
  }
  std::sort(numbers.begin(), numbers.end());
  EXPECT_EQ(numbers, (std::vector<int64_t>{1, 2, 5}));
}

// The unfinished games' actions come back in sequence order whichever way they are read: by a
// scan of the table while the unfinished games are a quarter of the log's or more (here all of
// them), through the index once the ended games outnumber them (12 of 14). The two games'
// appends interleave in the file.
TEST(StoreTest, LoadsTheUnfinishedGamesActionsInOrderByScanOrByIndex) {
  for (const int ended : {0, 12}) {
    TempDir dir;
    auto store = OpenStore(dir.File("log.db"));
    ASSERT_TRUE(store);
    ExpectAllCommitted(store->ApplyBatch({NewRunningGame(1, 0), NewRunningGame(2, 0)}));
    for (uint64_t s = 1; s <= 6; ++s) {
      ExpectAllCommitted(store->ApplyBatch({Append(1, s, 1), Append(2, s, 1)}));
    }
    for (int64_t number = 3; number < 3 + ended; ++number) {
      ExpectAllCommitted(store->ApplyBatch({NewRunningGame(number, 2)}));
      ExpectAllCommitted(store->ApplyBatch({{number, {FinishGameOp{number, "{}"}}}}));
    }
    auto unfinished = store->LoadUnfinished();
    ASSERT_TRUE(unfinished.ok()) << unfinished.error().message;
    ASSERT_EQ(unfinished->size(), 2u);
    for (const StoredGame& g : *unfinished) {
      std::vector<uint64_t> sequences;
      for (const ActionRecord& a : g.actions) sequences.push_back(a.sequence);
      EXPECT_EQ(sequences, Range(1, 6)) << "ended games: " << ended;
      ExpectSameGame(g, MustLoad(*store, g.game.number));
    }
  }
}

// Bots, resigning and rematches: what each op records, and what a resigned seat refuses.
TEST(StoreTest, KeepsBotSeatsResignationsAndRematchLinks) {
  TempDir dir;
  auto store = OpenStore(dir.File("log.db"));
  ASSERT_TRUE(store);
  GameRecord game = NewGameRecord(1);
  game.on_resign = ResignPolicy::kEndGame;
  const SeatRecord bot{1, "Strong bot", HashToken("b"), "strong", false};
  Write create{1, {CreateGameOp{game}, TakeSeatOp{1, bot}}};
  ExpectAllCommitted(store->ApplyBatch({create, NewRunningGame(2, 2), NewRunningGame(3, 2)}));
  const StoredGame created = MustLoad(*store, 1);
  EXPECT_EQ(created.game.on_resign, ResignPolicy::kEndGame);
  EXPECT_EQ(created.game.seat_records, (std::vector<SeatRecord>{bot}));

  // Game 2: ann resigns and a greedy bot plays on; she cannot resign twice.
  ASSERT_FALSE(store->Apply({2, {ResignSeatOp{2, 0, "greedy"}}}));
  EXPECT_TRUE(store->Apply({2, {ResignSeatOp{2, 0, "greedy"}}}));
  const SeatRecord ann = MustLoad(*store, 2).game.seat_records[0];
  EXPECT_TRUE(ann.resigned);
  EXPECT_EQ(ann.bot, "greedy");
  EXPECT_EQ(ann.player_name, "ann");

  // Game 3: bob resigns and the game ends; a game not running cannot end so again.
  ASSERT_FALSE(store->Apply({3, {ResignGameOp{3, 1, R"({"resigned_seat":1})"}}}));
  EXPECT_TRUE(store->Apply({3, {ResignGameOp{3, 1, "{}"}}}));
  const StoredGame resigned = MustLoad(*store, 3);
  EXPECT_EQ(resigned.game.status, GameStatus::kResigned);
  EXPECT_EQ(resigned.game.result, R"({"resigned_seat":1})");
  EXPECT_GT(resigned.game.finished_ms, 0);
  EXPECT_TRUE(resigned.game.seat_records[1].resigned);
  EXPECT_EQ(resigned.game.seat_records[1].bot, "");

  // The rematch of game 3 names it, and game 3 names its rematch.
  GameRecord rematch = NewGameRecord(4);
  rematch.rematch_of = 3;
  ASSERT_FALSE(store->Apply({4, {CreateGameOp{rematch}, LinkRematchOp{3, 4}}}));
  EXPECT_EQ(MustLoad(*store, 4).game.rematch_of, 3);
  EXPECT_EQ(MustLoad(*store, 3).game.rematch, 4);

  // Finished and resigned games are listed apart, or together; resigned ones expire.
  ASSERT_FALSE(store->Apply({2, {FinishGameOp{2, "{}"}}}));
  EXPECT_EQ(ListNumbers(*store, GameStatus::kResigned), (std::vector<int64_t>{3}));
  EXPECT_EQ(ListNumbers(*store, GameStatus::kFinished), (std::vector<int64_t>{2}));
  ListFilter over{GameStatus::kFinished, std::nullopt};
  over.or_status = GameStatus::kResigned;
  EXPECT_EQ(Numbers(*store->ListGames(over)), (std::vector<int64_t>{2, 3}));
  auto expired = store->Expire(NowMs() + 1000, "");
  ASSERT_TRUE(expired.ok());
  EXPECT_EQ(expired->games, 2);
}

// Finished games as the server lists them: the most recently finished first, a limited number,
// or one game by its number; each with its own seats.
TEST(StoreTest, ListsTheNewestFinishedGamesFirstAndOneGameByNumber) {
  TempDir dir;
  auto store = OpenStore(dir.File("log.db"));
  ASSERT_TRUE(store);
  Write with_other_players = Create(5);
  with_other_players.ops.emplace_back(StartGameOp{5, {Seat(0, "cid"), Seat(1, "dee")}, kOrder});
  ExpectAllCommitted(
      store->ApplyBatch({NewRunningGame(1, 1), NewRunningGame(2, 1), NewRunningGame(3, 1),
                         NewRunningGame(4, 1), with_other_players, NewRunningGame(6, 1)}));
  std::vector<Write> finish;
  for (int64_t g = 1; g <= 5; ++g) finish.push_back({g, {FinishGameOp{g, "{}"}}});
  ExpectAllCommitted(store->ApplyBatch(finish));
  // Finishing times of its own for each game (a tie between g1 and g3): g6 keeps running.
  ASSERT_FALSE(store->connection().Exec(
      "UPDATE games SET finished_ms = CASE number WHEN 1 THEN 3000 WHEN 2 THEN 1000 "
      "WHEN 3 THEN 3000 WHEN 4 THEN 2000 ELSE 4000 END WHERE number <= 5"));

  ListFilter newest;
  newest.status = GameStatus::kFinished;
  newest.order = ListOrder::kNewestFinishedFirst;
  EXPECT_EQ(Numbers(*store->ListGames(newest)), (std::vector<int64_t>{5, 3, 1, 4, 2}));
  newest.limit = 2;
  const auto first_two = store->ListGames(newest);
  ASSERT_TRUE(first_two.ok()) << first_two.error().message;
  EXPECT_EQ(Numbers(*first_two), (std::vector<int64_t>{5, 3}));
  EXPECT_EQ((*first_two)[0].seat_records,
            (std::vector<SeatRecord>{Seat(0, "cid"), Seat(1, "dee")}));
  EXPECT_EQ((*first_two)[1].seat_records,
            (std::vector<SeatRecord>{Seat(0, "ann"), Seat(1, "bob")}));
  newest.limit = 0;
  EXPECT_TRUE(store->ListGames(newest)->empty());

  ListFilter one;
  one.number = 5;
  const auto five = store->ListGames(one);
  ASSERT_TRUE(five.ok()) << five.error().message;
  ASSERT_EQ(five->size(), 1u);
  EXPECT_EQ(five->front().status, GameStatus::kFinished);
  EXPECT_EQ(five->front().seat_records, MustLoad(*store, 5).game.seat_records);
  one.number = 6;
  EXPECT_EQ(Numbers(*store->ListGames(one)), (std::vector<int64_t>{6}));
  one.number = 99;
  EXPECT_TRUE(store->ListGames(one)->empty());
}

// Pages: `after` gives the games that follow one game in the list's order, ties included.
TEST(StoreTest, ListsThePageAfterAGameInEitherOrder) {
  TempDir dir;
  auto store = OpenStore(dir.File("log.db"));
  ASSERT_TRUE(store);
  std::vector<Write> games;
  for (int64_t g = 1; g <= 5; ++g) games.push_back(NewRunningGame(g, 1));
  ExpectAllCommitted(store->ApplyBatch(games));
  std::vector<Write> finish;
  for (int64_t g = 1; g <= 4; ++g) finish.push_back({g, {FinishGameOp{g, "{}"}}});
  ExpectAllCommitted(store->ApplyBatch(finish));
  // Newest first: g4 (4000), then g1 and g3 (a tie at 3000: the higher number first), g2.
  ASSERT_FALSE(store->connection().Exec(
      "UPDATE games SET finished_ms = CASE number WHEN 1 THEN 3000 WHEN 2 THEN 1000 "
      "WHEN 3 THEN 3000 ELSE 4000 END WHERE number <= 4"));

  ListFilter newest;
  newest.status = GameStatus::kFinished;
  newest.order = ListOrder::kNewestFinishedFirst;
  newest.limit = 2;
  newest.after = 4;
  EXPECT_EQ(Numbers(*store->ListGames(newest)), (std::vector<int64_t>{3, 1}));
  newest.after = 3;
  EXPECT_EQ(Numbers(*store->ListGames(newest)), (std::vector<int64_t>{1, 2})) << "past the tie";
  newest.after = 2;
  EXPECT_TRUE(store->ListGames(newest)->empty()) << "after the last";
  newest.after = 99;
  EXPECT_TRUE(store->ListGames(newest)->empty()) << "after a game not in the log";

  ListFilter by_number;
  by_number.after = 3;
  EXPECT_EQ(Numbers(*store->ListGames(by_number)), (std::vector<int64_t>{4, 5}));
  by_number.after = 99;
  EXPECT_TRUE(store->ListGames(by_number)->empty());
}

TEST(StoreTest, NeverGivesAGameNumberTwiceEvenAfterDeletion) {
  TempDir dir;
  auto store = OpenStore(dir.File("log.db"));
  ASSERT_TRUE(store);
  EXPECT_EQ(*store->NextGameNumber(), 1);
  ExpectAllCommitted(store->ApplyBatch({NewRunningGame(1, 2), NewRunningGame(2, 3), Create(3)}));
  EXPECT_EQ(*store->NextGameNumber(), 4);

  const auto deleted = store->DeleteGame(2);
  ASSERT_TRUE(deleted.ok());
  EXPECT_EQ(deleted->games, 1);
  EXPECT_EQ(deleted->actions, 3);
  // Its seats and actions went with it.
  EXPECT_EQ(CountRows(store->connection(), "SELECT count(*) FROM actions WHERE game = 2"), 0);
  EXPECT_EQ(CountRows(store->connection(), "SELECT count(*) FROM seats WHERE game = 2"), 0);
  EXPECT_EQ(store->DeleteGame(2)->games, 0);
  ASSERT_TRUE(store->DeleteGame(3).ok());
  ASSERT_TRUE(store->DeleteGame(1).ok());
  EXPECT_TRUE(store->ListGames({})->empty());
  EXPECT_EQ(*store->NextGameNumber(), 4);

  store.reset();
  auto reopened = OpenStore(dir.File("log.db"));
  ASSERT_TRUE(reopened);
  EXPECT_EQ(*reopened->NextGameNumber(), 4);
  ASSERT_FALSE(reopened->Apply(Create(4)));
  EXPECT_EQ(*reopened->NextGameNumber(), 5);
}

// A restore raises the file's next game number to the one of the file it replaced: the games
// that file numbered are never numbered again, even when their numbers are not in this file.
TEST(StoreTest, TheNextGameNumberSettingOnlyGrowsAndGamesStillCountAboveIt) {
  TempDir dir;
  auto store = OpenStore(dir.File("log.db"));
  ASSERT_TRUE(store);
  ExpectAllCommitted(store->ApplyBatch({Create(1), Create(2)}));
  ASSERT_FALSE(store->RaiseNextGameNumber(10));
  EXPECT_EQ(*store->NextGameNumber(), 10);
  ASSERT_FALSE(store->RaiseNextGameNumber(5));
  EXPECT_EQ(*store->NextGameNumber(), 10) << "it never goes down";
  ASSERT_FALSE(store->Apply(Create(12)));
  EXPECT_EQ(*store->NextGameNumber(), 13);
  store.reset();
  auto reopened = OpenStore(dir.File("log.db"));
  ASSERT_TRUE(reopened);
  EXPECT_EQ(*reopened->NextGameNumber(), 13);
  EXPECT_EQ(*ReadNextGameNumber(dir.File("log.db")), 13);
}

// The shard's name is kept in the file: the first name claimed stays.
TEST(StoreTest, AFileKeepsTheFirstShardNameClaimed) {
  TempDir dir;
  auto store = OpenStore(dir.File("log.db"));
  ASSERT_TRUE(store);
  EXPECT_EQ(*store->ClaimShard("a"), "a");
  EXPECT_EQ(*store->ClaimShard("b"), "a");
  store.reset();
  auto reopened = OpenStore(dir.File("log.db"));
  ASSERT_TRUE(reopened);
  EXPECT_EQ(*reopened->ClaimShard(""), "a");

  auto alone = OpenStore(dir.File("alone.db"));
  ASSERT_TRUE(alone);
  EXPECT_EQ(*alone->ClaimShard(""), "") << "a server alone is a name too";
  EXPECT_EQ(*alone->ClaimShard("a"), "");
}

// One holder of a game log's lock at a time; it is free again once its holder lets go.
TEST(LogLockTest, ASecondHolderIsRefusedAtOnceUntilTheFirstLetsGo) {
  TempDir dir;
  const std::string db = dir.File("log.db");
  {
    auto first = LogLock::Acquire(db);
    ASSERT_TRUE(first.ok()) << first.error().message;
    auto second = LogLock::Acquire(db);
    ASSERT_FALSE(second.ok());
    EXPECT_TRUE(second.error().IsBusy());
    EXPECT_NE(second.error().message.find(db + ".lock is held"), std::string::npos)
        << second.error().message;
    EXPECT_TRUE(LogLock::Acquire(dir.File("other.db")).ok()) << "another log has its own lock";
  }
  EXPECT_TRUE(LogLock::Acquire(db).ok());
  EXPECT_TRUE(fs::exists(db + ".lock")) << "the lock file stays";
  EXPECT_FALSE(fs::exists(db)) << "the lock creates no game log";
}

// ---------------------------------------------------------------------------------------------
// ApplyBatch: one refused write leaves the others committed

TEST(StoreTest, ABatchRefusesOnlyItsBadWrites) {
  TempDir dir;
  auto store = OpenStore(dir.File("log.db"));
  ASSERT_TRUE(store);
  constexpr int kGames = 20;
  std::vector<Write> setup;
  for (int g = 1; g <= kGames; ++g) setup.push_back(NewRunningGame(g, 3));
  ExpectAllCommitted(store->ApplyBatch(setup));

  std::vector<Write> batch;
  for (int g = 1; g <= kGames; ++g) batch.push_back(Append(g, 4, 2));
  batch[4] = Append(5, 6, 1);                               // a gap after 3
  batch[8] = Append(9, 4, 1);                               // then 4 again: a duplicate
  batch[8].ops.push_back(Append(9, 4, 1).ops.front());      //   (the first one is undone)
  batch[11] = Append(12, 3, 2);                             // 3 is stored already
  batch.push_back(Append(999, 1, 1));                       // no such game
  batch.push_back({13, {TakeSeatOp{13, Seat(0, "eve")}}});  // seat 0 is taken
  const std::vector<Status> results = store->ApplyBatch(batch);
  ASSERT_EQ(results.size(), batch.size());

  const std::vector<size_t> bad = {4, 8, 11, kGames, kGames + 1};
  for (size_t i = 0; i < results.size(); ++i) {
    const bool refused = std::find(bad.begin(), bad.end(), i) != bad.end();
    ASSERT_EQ(results[i].has_value(), refused) << "write " << i << ": " << ErrorText(results[i]);
    if (refused) {
      EXPECT_TRUE(results[i]->IsConstraint()) << results[i]->message;
      EXPECT_NE(results[i]->message.find(GameId(batch[i].game)), std::string::npos)
          << results[i]->message;
    }
  }
  store.reset();
  auto reopened = OpenStore(dir.File("log.db"));
  ASSERT_TRUE(reopened);
  for (int g = 1; g <= kGames; ++g) {
    const bool refused = g == 5 || g == 9 || g == 12;
    EXPECT_EQ(Sequences(*reopened, g), Range(1, refused ? 3 : 5)) << GameId(g);
  }
  EXPECT_EQ(MustLoad(*reopened, 13).game.seat_records[0], Seat(0, "ann"));
  EXPECT_FALSE(reopened->LoadGame(999)->has_value());
}

// ---------------------------------------------------------------------------------------------
// Migration from schema version 1

std::string Version1Dump() {
  return ReadBytes(std::string(CARC_SOURCE_DIR) + "/tests/persistence/data/schema-v1.sql");
}

// A database file built from SQL text with plain SQLite (no Store).
void BuildFile(const std::string& path, const std::string& sql) {
  auto db = Connection::Open(path, true);
  ASSERT_TRUE(db.ok()) << db.error().message;
  const Status error = db->Exec(sql);
  ASSERT_FALSE(error) << error->message;
}

std::vector<std::string> SchemaRows(const std::string& path) {
  auto db = Connection::Open(path, false);
  EXPECT_TRUE(db.ok());
  if (!db) return {};
  auto q = db->Prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name");
  EXPECT_TRUE(q.ok());
  std::vector<std::string> rows;
  while (q && q->Step()) {
    rows.push_back(q->Text(0) + "|" + q->Text(1) + "|" + q->Text(2) + "|" + q->Text(3));
  }
  return rows;
}

TEST(MigrationTest, TheVersion1DumpHoldsTheVersion1Schema) {
  TempDir dir;
  BuildFile(dir.File("dump.db"), Version1Dump());
  BuildFile(dir.File("fresh.db"), SchemaVersion1());
  EXPECT_EQ(SchemaRows(dir.File("dump.db")), SchemaRows(dir.File("fresh.db")));
  auto db = Connection::Open(dir.File("dump.db"), false);
  ASSERT_TRUE(db.ok());
  EXPECT_EQ(*ReadSchemaVersion(*db), 1);
  // Migrate reports the version the file had, and then has nothing to do.
  EXPECT_EQ(*Migrate(*db, dir.File("dump.db")), 1);
  EXPECT_EQ(*ReadSchemaVersion(*db), kSchemaVersion);
  EXPECT_EQ(*Migrate(*db, dir.File("dump.db")), kSchemaVersion);
}

void ExpectMigratedFinishedGame(Store& store) {
  const StoredGame g1 = MustLoad(store, 1);
  EXPECT_EQ(g1.game.name, "Friday game");
  EXPECT_EQ(g1.game.status, GameStatus::kFinished);
  EXPECT_EQ(g1.game.updated_ms, 1700000360000);
  EXPECT_EQ(g1.game.finished_ms, 1700000360000);  // filled in from updated_ms
  EXPECT_EQ(g1.game.result, R"({"scores":[31,24],"winners":[0],"end":"walls"})");
  EXPECT_EQ(g1.game.order, (std::vector<int>{3, 1, 2, 0}));
  EXPECT_EQ(g1.game.damage, "");
  ASSERT_EQ(g1.game.seat_records.size(), 2u);
  EXPECT_EQ(g1.game.seat_records[0].player_name, "ann");
  EXPECT_TRUE(SameHash(g1.game.seat_records[0].token_hash, HashToken("ann-token")));
  EXPECT_TRUE(SameHash(g1.game.seat_records[1].token_hash, HashToken("bob-token")));
  ASSERT_EQ(g1.actions.size(), 4u);
  EXPECT_EQ(g1.actions[1], (ActionRecord{2, 0, "place 0 1 2", 2222, 1700000020000}));
  EXPECT_EQ(g1.actions[3], (ActionRecord{4, -1, "draw 1", 5555, 1700000040000}));
}

void ExpectMigratedRunningGame(Store& store) {
  const StoredGame g2 = MustLoad(store, 2);
  EXPECT_EQ(g2.game.status, GameStatus::kRunning);
  EXPECT_EQ(g2.game.seed, 0xA000'0000'0000'0000ULL);  // stored as a negative integer
  EXPECT_EQ(g2.game.finished_ms, 0);
  ASSERT_EQ(g2.actions.size(), 3u);
  EXPECT_EQ(g2.actions[0],
            (ActionRecord{1, -1, "draw 2", 0x9000'0000'0000'0000ULL, 1700000410000}));
  EXPECT_EQ(g2.actions[2].action, "follower none");

  auto unfinished = store.LoadUnfinished();
  ASSERT_TRUE(unfinished.ok());
  std::vector<int64_t> numbers;
  for (const StoredGame& g : *unfinished) {
    numbers.push_back(g.game.number);
    if (g.game.number == 2) {
      EXPECT_EQ(g.actions, g2.actions);
    }
  }
  std::sort(numbers.begin(), numbers.end());
  EXPECT_EQ(numbers, (std::vector<int64_t>{2, 3}));
}

TEST(MigrationTest, UpgradesAVersion1FileKeepingItsGames) {
  TempDir dir;
  const std::string path = dir.File("v1.db");
  BuildFile(path, Version1Dump());
  auto store = OpenStore(path);
  ASSERT_TRUE(store);
  EXPECT_EQ(store->schema_version(), kSchemaVersion);
  EXPECT_EQ(*ReadSchemaVersion(store->connection()), kSchemaVersion);
  EXPECT_EQ(CountRows(store->connection(),
                      "SELECT count(*) FROM sqlite_schema WHERE name = 'games_by_status'"),
            1);
  ExpectMigratedFinishedGame(*store);
  ExpectMigratedRunningGame(*store);
  EXPECT_EQ(ListNumbers(*store, GameStatus::kFinished), (std::vector<int64_t>{1}));
  EXPECT_EQ(*store->NextGameNumber(), 5);  // g4 was deleted before the upgrade

  // The upgraded file takes new writes, and opens again as it is.
  ASSERT_FALSE(store->Apply({2, {AppendActionsOp{2, {ActionRecord{4, 1, "draw 0", 7, 8}}}}}));
  store.reset();
  auto reopened = OpenStore(path);
  ASSERT_TRUE(reopened);
  EXPECT_EQ(*reopened->LastSequence(2), 4u);
  ExpectMigratedFinishedGame(*reopened);
}

// A real game stored by a server of schema version 2, before games named their rule set's version.
StoredGame Version2CityGame(const TempDir& dir) {
  const std::string path = dir.File("v2.db");
  BuildFile(path, ReadBytes(std::string(CARC_SOURCE_DIR) +
                            "/tests/persistence/data/schema-v2-city-game.sql"));
  auto store = OpenStore(path);
  EXPECT_TRUE(store);
  return store ? MustLoad(*store, 1) : StoredGame{};
}

TEST(MigrationTest, ACityGameStoredByVersion2StillReplays) {
  TempDir dir;
  const StoredGame stored = Version2CityGame(dir);
  EXPECT_EQ(stored.game.rule_set, "the-city");
  EXPECT_EQ(stored.game.rule_set_version, 1);  // every game stored before was version 1
  EXPECT_EQ(stored.game.options, "");
  EXPECT_EQ(stored.game.status, GameStatus::kFinished);
  ASSERT_EQ(stored.actions.size(), 259u);

  const ReplayedGame replayed = ReplayStored(stored, DefaultRuleSets());
  ASSERT_FALSE(replayed.damage) << *replayed.damage;
  ASSERT_TRUE(replayed.state);
  EXPECT_EQ(replayed.applied, 259u);
  EXPECT_TRUE(replayed.state->IsOver());
  EXPECT_EQ(replayed.state->Hash(), stored.actions.back().state_hash);
}

// A file of schema version 3, before seats had bots and games a resign policy and rematch links.
TEST(MigrationTest, UpgradesAVersion3FileWithNoBotsAndTheDefaultResignPolicy) {
  TempDir dir;
  const std::string path = dir.File("v3.db");
  BuildFile(path,
            ReadBytes(std::string(CARC_SOURCE_DIR) + "/tests/persistence/data/schema-v3.sql"));
  {
    auto db = Connection::Open(path, false);
    ASSERT_TRUE(db.ok());
    EXPECT_EQ(*ReadSchemaVersion(*db), 3);
  }
  auto store = OpenStore(path);
  ASSERT_TRUE(store);
  EXPECT_EQ(*ReadSchemaVersion(store->connection()), kSchemaVersion);

  const StoredGame finished = MustLoad(*store, 1);
  EXPECT_EQ(finished.game.status, GameStatus::kFinished);
  EXPECT_EQ(finished.game.on_resign, ResignPolicy::kBotTakesSeat);
  EXPECT_EQ(finished.game.rematch_of, 0);
  EXPECT_EQ(finished.game.rematch, 0);
  ASSERT_EQ(finished.game.seat_records.size(), 2u);
  for (const SeatRecord& seat : finished.game.seat_records) {
    EXPECT_EQ(seat.bot, "");
    EXPECT_FALSE(seat.resigned);
  }
  const ReplayedGame replayed = ReplayStored(finished, DefaultRuleSets());
  ASSERT_FALSE(replayed.damage) << *replayed.damage;
  EXPECT_EQ(replayed.state->Hash(), finished.actions.back().state_hash);

  // The open game takes a bot seat and links a rematch, as any game of the new schema.
  const StoredGame open = MustLoad(*store, 2);
  EXPECT_EQ(open.game.options, "river=1");
  SeatRecord bot{1, "Greedy bot", HashToken("bot"), "greedy", false};
  ASSERT_FALSE(store->Apply({2, {TakeSeatOp{2, bot}, LinkRematchOp{1, 2}}}));
  store.reset();
  auto reopened = OpenStore(path);
  ASSERT_TRUE(reopened);
  const StoredGame again = MustLoad(*reopened, 2);
  ASSERT_EQ(again.game.seat_records.size(), 2u);
  EXPECT_EQ(again.game.seat_records[1], bot);
  EXPECT_EQ(MustLoad(*reopened, 1).game.rematch, 2);
}

TEST(MigrationTest, AGameWhoseRulesThisBuildLacksIsRefusedByName) {
  TempDir dir;
  StoredGame stored = Version2CityGame(dir);
  stored.game.rule_set_version = 7;
  ReplayedGame replayed = ReplayStored(stored, DefaultRuleSets());
  ASSERT_TRUE(replayed.damage);
  EXPECT_EQ(*replayed.damage,
            "rule set 'the-city' version 7 is not in this build (it has version 1): run the "
            "build that played it to export the game");
  EXPECT_FALSE(replayed.state);

  stored.game.rule_set = "chess";
  stored.game.rule_set_version = 1;
  replayed = ReplayStored(stored, DefaultRuleSets());
  ASSERT_TRUE(replayed.damage);
  EXPECT_EQ(*replayed.damage, "rule set 'chess' version 1 is not in this build");

  stored.game.rule_set = "the-city";
  stored.game.options = "river=1";
  replayed = ReplayStored(stored, DefaultRuleSets());
  ASSERT_TRUE(replayed.damage);
  EXPECT_EQ(*replayed.damage,
            "the stored set-up does not make a game: Carcassonne: The City has no option 'river'");
}

// ---------------------------------------------------------------------------------------------
// Files a Store must refuse, untouched

void ExpectRefusedUntouched(const std::string& path, const std::string& expected_in_message) {
  const std::string before = ReadBytes(path);
  ASSERT_FALSE(before.empty());
  auto store = Store::Open(Options(path));
  ASSERT_FALSE(store.ok()) << path << " was opened";
  EXPECT_NE(store.error().message.find(expected_in_message), std::string::npos)
      << store.error().message;
  EXPECT_NE(store.error().message.find(path), std::string::npos) << store.error().message;
  EXPECT_TRUE(ReadBytes(path) == before) << path << " was changed";
  EXPECT_FALSE(fs::exists(path + "-wal"));
}

TEST(RefusedFileTest, ANewerSchemaIsRefusedAndLeftAlone) {
  TempDir dir;
  // Written by a newer store (WAL mode) ...
  const std::string wal = dir.File("newer-wal.db");
  {
    auto store = OpenStore(wal);
    ASSERT_TRUE(store);
    ASSERT_FALSE(store->Apply(NewRunningGame(1, 2)));
    ASSERT_FALSE(store->connection().Exec("UPDATE schema_version SET version = 99"));
  }
  ExpectRefusedUntouched(wal, "schema version 99");
  // ... or by any other program (rollback journal).
  const std::string plain = dir.File("newer-plain.db");
  BuildFile(plain, SchemaVersion1() + "UPDATE schema_version SET version = 99;");
  ExpectRefusedUntouched(plain, "schema version 99");
}

TEST(RefusedFileTest, AFileThatIsNotAGameLogIsRefusedAndLeftAlone) {
  TempDir dir;
  const std::string random = dir.File("random.db");
  {
    std::mt19937_64 bytes(42);
    std::ofstream out(random, std::ios::binary);
    for (int i = 0; i < 3 * 4096; ++i) out.put(static_cast<char>(bytes() & 0xff));
  }
  ExpectRefusedUntouched(random, "not a database");
  EXPECT_EQ(Store::Open(Options(random)).error().code, SQLITE_NOTADB);

  const std::string other = dir.File("other.db");
  BuildFile(other, "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('hello');");
  ExpectRefusedUntouched(other, "not a game log");
}

TEST(RefusedFileTest, AnUnopenablePathGivesAClearError) {
  TempDir dir;
  fs::create_directories(dir.path() / "a-directory");
  const std::string directory = dir.File("a-directory");
  auto store = Store::Open(Options(directory));
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.error().code & 0xff, SQLITE_CANTOPEN) << store.error().message;
  EXPECT_NE(store.error().message.find(directory), std::string::npos) << store.error().message;

  StoreOptions missing = Options(dir.File("missing.db"));
  missing.create = false;
  auto absent = Store::Open(missing);
  ASSERT_FALSE(absent.ok());
  EXPECT_NE(absent.error().message.find("missing.db"), std::string::npos);
  EXPECT_FALSE(fs::exists(missing.path));

  StoreOptions bad_mode = Options(dir.File("log.db"), "sometimes");
  EXPECT_FALSE(Store::Open(bad_mode).ok());
}

// ---------------------------------------------------------------------------------------------
// Another process holds the write lock

TEST(StoreTest, ABusyFileRefusesTheWholeBatchUntilTheLockIsFreed) {
  TempDir dir;
  const std::string path = dir.File("log.db");
  StoreOptions options = Options(path);
  options.busy_timeout_ms = 20;
  auto store = OpenStore(options);
  ASSERT_TRUE(store);
  ExpectAllCommitted(
      store->ApplyBatch({NewRunningGame(1, 2), NewRunningGame(2, 2), NewRunningGame(3, 2)}));

  auto other = Connection::Open(path, false);
  ASSERT_TRUE(other.ok());
  ASSERT_FALSE(other->Exec(
      "BEGIN IMMEDIATE; INSERT INTO actions (game, sequence, seat, action, state_hash, time_ms) "
      "VALUES (3, 3, 0, 'draw 3', 3, 3)"));

  const std::vector<Write> batch = {Append(1, 3, 2), Append(2, 3, 1)};
  for (const Status& result : store->ApplyBatch(batch)) {
    ASSERT_TRUE(result);
    EXPECT_TRUE(result->IsBusy()) << result->message;
  }
  EXPECT_EQ(Sequences(*store, 1), Range(1, 2));  // nothing partial
  EXPECT_EQ(Sequences(*store, 2), Range(1, 2));

  ASSERT_FALSE(other->Exec("COMMIT"));
  ExpectAllCommitted(store->ApplyBatch(batch));
  EXPECT_EQ(Sequences(*store, 1), Range(1, 4));
  EXPECT_EQ(Sequences(*store, 2), Range(1, 3));
  EXPECT_EQ(*store->LastSequence(3), 3u);
}

// ---------------------------------------------------------------------------------------------
// A disk that fails at any step of a commit

struct FaultCase {
  int code;
  const char* synchronous;
  bool persistent;
};

std::string FaultName(const ::testing::TestParamInfo<FaultCase>& info) {
  const FaultCase& c = info.param;
  const std::string code = c.code == SQLITE_FULL          ? "Full"
                           : c.code == SQLITE_IOERR_FSYNC ? "Fsync"
                                                          : "Write";
  return code + "_" + c.synchronous + (c.persistent ? "_Persistent" : "_Once");
}

void PrintTo(const FaultCase& c, std::ostream* out) {
  *out << sqlite3_errstr(c.code) << " (" << c.code << "), synchronous " << c.synchronous
       << (c.persistent ? ", persistent" : ", once");
}

class FaultTest : public ::testing::TestWithParam<FaultCase> {};

constexpr int kFaultGames = 5;   // games 1..5 append two actions each in the faulted batch
constexpr int kRefusedGame = 6;  // game 6's write is refused by the store itself
constexpr uint64_t kBefore = 3;  // actions each game has before the batch

void MakeFaultTemplate(const std::string& path) {
  auto store = OpenStore(path);
  ASSERT_TRUE(store);
  std::vector<Write> setup;
  for (int g = 1; g <= kRefusedGame; ++g) setup.push_back(NewRunningGame(g, kBefore));
  ExpectAllCommitted(store->ApplyBatch(setup));
}

std::vector<Write> FaultBatch() {
  std::vector<Write> batch;
  for (int g = 1; g <= kFaultGames; ++g) batch.push_back(Append(g, kBefore + 1, 2));
  batch.push_back(Append(kRefusedGame, kBefore + 5, 1));  // a gap
  return batch;
}

// Each game's last sequence number after the faulted batch, as its results report it.
std::vector<uint64_t> ReportedLast(const std::vector<Status>& results, int error_code) {
  std::vector<uint64_t> last(kRefusedGame + 1, kBefore);
  for (int g = 1; g <= kFaultGames; ++g) {
    const Status& r = results[static_cast<size_t>(g - 1)];
    if (!r) last[static_cast<size_t>(g)] = kBefore + 2;
    if (r) {
      EXPECT_EQ(r->code & 0xff, error_code & 0xff) << r->message;
    }
  }
  EXPECT_TRUE(results.back()) << "the gap in game 6 was stored";
  return last;
}

// Each game's last sequence number as `store` holds it (checking that its actions are 1..last).
std::vector<uint64_t> StoredLast(Store& store) {
  std::vector<uint64_t> last(kRefusedGame + 1, kBefore);
  for (int g = 1; g <= kRefusedGame; ++g) {
    const std::vector<uint64_t> stored = Sequences(store, g);
    EXPECT_EQ(stored, Range(1, stored.size())) << GameId(g);
    last[static_cast<size_t>(g)] = stored.size();
  }
  return last;
}

// What a crash now would leave: the file and its WAL copied and opened afresh, so that SQLite
// recovers the WAL as it does after a restart.
std::vector<uint64_t> CrashImageLast(const std::string& path) {
  const std::string image = path + ".crash";
  fs::copy_file(path, image);
  if (fs::exists(path + "-wal")) fs::copy_file(path + "-wal", image + "-wal");
  auto store = OpenStore(image);
  return store ? StoredLast(*store) : std::vector<uint64_t>{};
}

// Every write of the faulted batch committed (but the refused one).
std::vector<uint64_t> AllCommitted() {
  std::vector<uint64_t> last(kRefusedGame + 1, kBefore + 2);
  last[0] = kBefore;
  last[kRefusedGame] = kBefore;
  return last;
}

// The batch after the fault: one more action for every game.
void ExpectNextBatchCommits(Store& store, std::vector<uint64_t>& last) {
  std::vector<Write> next;
  for (int g = 1; g <= kRefusedGame; ++g) {
    next.push_back(Append(g, ++last[static_cast<size_t>(g)], 1));
  }
  ExpectAllCommitted(store.ApplyBatch(next));
}

// After a crash the file holds what the writes reported. When the sync of the commit fails,
// every frame of the batch may already be in the WAL; the store then seals the WAL with a small
// commit so that recovery cannot bring the batch back. Only if the disk keeps failing (so the
// seal fails too) does the outcome stay unknown until the next commit: still all or nothing.
void ExpectCrashImage(const std::string& path, const std::vector<uint64_t>& reported,
                      FaultVfs::Op fault, bool persistent) {
  const std::vector<uint64_t> crashed = CrashImageLast(path);
  if (fault == FaultVfs::Op::kSync && persistent && crashed == AllCommitted()) return;
  EXPECT_EQ(crashed, reported) << "after a crash";
}

// Write operation `n` of the batch fails; the outcome each write reports must be what the file
// holds: through the same store, after a crash, and after reopening. Returns whether op n was
// reached.
bool RunFaultStep(const std::string& path, int n, const FaultCase& c) {
  std::vector<uint64_t> last;
  bool fired = false;
  {
    auto store = OpenStore(Options(path, c.synchronous, FaultVfs::kName));
    if (!store) return false;
    FaultVfs::Arm(n, c.code, c.persistent);
    const std::vector<Status> results = store->ApplyBatch(FaultBatch());
    fired = FaultVfs::Faults() > 0;
    const FaultVfs::Op fault = FaultVfs::FirstFault();
    FaultVfs::Disarm();
    last = ReportedLast(results, c.code);
    if (!fired) {
      EXPECT_EQ(last, AllCommitted());
    }
    EXPECT_EQ(StoredLast(*store), last) << "in the same store";
    ExpectCrashImage(path, last, fault, c.persistent);
    ExpectNextBatchCommits(*store, last);  // the store carries on once the disk does
  }
  auto reopened = OpenStore(Options(path, c.synchronous));
  if (!reopened) return false;
  EXPECT_EQ(StoredLast(*reopened), last) << "after reopening";
  EXPECT_FALSE(reopened->CheckIntegrity());
  return fired;
}

TEST_P(FaultTest, AWriteFailingAtAnyStepIsAllOrNothing) {
  FaultVfs::Register();
  TempDir dir;
  const std::string original = dir.File("template.db");
  MakeFaultTemplate(original);
  int faulted_steps = 0;
  for (int n = 0;; ++n) {
    ASSERT_LT(n, 500) << "the batch never completes";
    SCOPED_TRACE("write operation " + std::to_string(n) + " fails");
    const std::string path = dir.File("step" + std::to_string(n) + ".db");
    fs::copy_file(original, path);
    const bool fired = RunFaultStep(path, n, GetParam());
    if (HasFailure()) break;
    if (!fired) break;
    ++faulted_steps;
  }
  EXPECT_GT(faulted_steps, 3);
}

INSTANTIATE_TEST_SUITE_P(Disks, FaultTest,
                         ::testing::Values(FaultCase{SQLITE_IOERR_WRITE, "full", false},
                                           FaultCase{SQLITE_IOERR_WRITE, "normal", true},
                                           FaultCase{SQLITE_FULL, "full", true},
                                           FaultCase{SQLITE_FULL, "normal", false},
                                           FaultCase{SQLITE_IOERR_FSYNC, "full", false},
                                           FaultCase{SQLITE_IOERR_FSYNC, "full", true}),
                         FaultName);

// ---------------------------------------------------------------------------------------------
// The Journal

std::optional<Store> StoreWithGames(const std::string& path, int games) {
  auto store = OpenStore(path);
  if (!store) return std::nullopt;
  std::vector<Write> setup;
  for (int g = 1; g <= games; ++g) setup.push_back(NewRunningGame(g, 0));
  ExpectAllCommitted(store->ApplyBatch(setup));
  return store;
}

constexpr int kThreads = 4;
constexpr int kWritesPerThread = 60;  // thread t appends to games 2t + 1 and 2t + 2, in turn
constexpr int kThreadWrites = kThreads * kWritesPerThread;

// Every thread submits its writes; each Done records its outcome and counts its calls.
void SubmitFromThreads(Journal& journal, std::vector<std::atomic<int>>& calls,
                       std::vector<Status>& outcome) {
  std::vector<std::thread> threads;
  threads.reserve(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kWritesPerThread; ++i) {
        const size_t id = static_cast<size_t>(t) * kWritesPerThread + static_cast<size_t>(i);
        const int64_t game = 2 * t + 1 + i % 2;
        journal.Submit(Append(game, static_cast<uint64_t>(i / 2) + 1, 1), [&, id](Status s) {
          outcome[id] = std::move(s);
          ++calls[id];
        });
      }
    });
  }
  for (std::thread& t : threads) t.join();
}

TEST(JournalTest, EveryWriteGetsExactlyOneDone) {
  TempDir dir;
  auto store = StoreWithGames(dir.File("log.db"), 2 * kThreads);
  ASSERT_TRUE(store);
  std::vector<std::atomic<int>> calls(kThreadWrites);
  std::vector<Status> outcome(kThreadWrites);
  JournalStats stats;
  {
    Journal journal(std::move(*store), /*max_batch=*/16);
    SubmitFromThreads(journal, calls, outcome);
    journal.Stop();  // every Done has been called when it returns
    stats = journal.Stats();
  }
  for (size_t id = 0; id < calls.size(); ++id) {
    EXPECT_EQ(calls[id].load(), 1) << id;
    EXPECT_FALSE(outcome[id]) << id << ": " << ErrorText(outcome[id]);
  }
  EXPECT_EQ(stats.writes, static_cast<uint64_t>(kThreadWrites));
  EXPECT_EQ(stats.failed_writes, 0u);
  EXPECT_EQ(stats.actions, static_cast<uint64_t>(kThreadWrites));
  EXPECT_GE(stats.batches, static_cast<uint64_t>(kThreadWrites / 16));
  EXPECT_LE(stats.largest_batch, 16u);
  EXPECT_EQ(stats.commit_us.count(), stats.batches);

  auto reopened = OpenStore(dir.File("log.db"));
  ASSERT_TRUE(reopened);
  for (int g = 1; g <= 2 * kThreads; ++g) {
    EXPECT_EQ(Sequences(*reopened, g), Range(1, kWritesPerThread / 2)) << GameId(g);
  }
}

// Holds the Journal's writer thread inside a Done until released, so that the writes
// submitted meanwhile are all queued, and then committed together, in one batch.
class WriterGate {
 public:
  GameLog::Done Hold() {
    return [this](const Status&) {
      std::unique_lock lock(mutex_);
      held_ = true;
      changed_.notify_all();
      changed_.wait(lock, [&] { return released_; });
    };
  }
  void WaitUntilHeld() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return held_; });
  }
  void Release() {
    std::lock_guard lock(mutex_);
    released_ = true;
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool held_ = false;
  bool released_ = false;
};

TEST(JournalTest, ARefusedWriteGetsItsErrorAndTheRestOfItsBatchCommits) {
  TempDir dir;
  auto store = StoreWithGames(dir.File("log.db"), 10);
  ASSERT_TRUE(store);
  Journal journal(std::move(*store));
  WriterGate gate;
  journal.Submit(Append(10, 1, 1), gate.Hold());
  gate.WaitUntilHeld();
  std::vector<Status> outcome(9);
  for (int g = 1; g <= 9; ++g) {
    const Write write = g == 4 ? Append(g, 7, 1) : Append(g, 1, 2);  // game 4: a gap
    journal.Submit(write, [&, g](Status s) { outcome[static_cast<size_t>(g - 1)] = std::move(s); });
  }
  gate.Release();
  journal.Stop();

  for (int g = 1; g <= 9; ++g) {
    EXPECT_EQ(outcome[static_cast<size_t>(g - 1)].has_value(), g == 4) << GameId(g);
  }
  ASSERT_TRUE(outcome[3]);
  EXPECT_TRUE(outcome[3]->IsConstraint());
  EXPECT_EQ(outcome[3]->message, "g4: action 7 does not follow 0");
  const JournalStats stats = journal.Stats();
  EXPECT_EQ(stats.batches, 2u);
  EXPECT_EQ(stats.largest_batch, 9u);
  EXPECT_EQ(stats.writes, 9u);
  EXPECT_EQ(stats.failed_writes, 1u);
  EXPECT_EQ(stats.actions, 1u + 8 * 2);
}

TEST(JournalTest, StopCommitsWhatIsQueuedAndRefusesLaterWrites) {
  TempDir dir;
  constexpr int kGames = 10;
  constexpr int kWrites = 300;
  auto store = StoreWithGames(dir.File("log.db"), kGames);
  ASSERT_TRUE(store);
  std::atomic<int> committed = 0;
  Journal journal(std::move(*store));
  for (int i = 0; i < kWrites; ++i) {
    journal.Submit(Append(i % kGames + 1, static_cast<uint64_t>(i / kGames + 1), 1),
                   [&](const Status& s) { committed += s ? 0 : 1; });
  }
  journal.Stop();
  EXPECT_EQ(committed.load(), kWrites);

  bool called = false;
  Status late;
  journal.Submit(Append(1, kWrites / kGames + 1, 1), [&](Status s) {
    called = true;
    late = std::move(s);
  });
  EXPECT_TRUE(called);  // at once, on the caller's thread
  ASSERT_TRUE(late);
  EXPECT_EQ(journal.Stats().writes, static_cast<uint64_t>(kWrites));

  auto reopened = OpenStore(dir.File("log.db"));
  ASSERT_TRUE(reopened);
  for (int g = 1; g <= kGames; ++g) EXPECT_EQ(Sequences(*reopened, g), Range(1, kWrites / kGames));
}

TEST(JournalTest, AFailingDiskReachesEveryWriteOfTheBatch) {
  FaultVfs::Register();
  TempDir dir;
  const std::string path = dir.File("log.db");
  ASSERT_TRUE(StoreWithGames(path, 2));
  auto store = OpenStore(Options(path, "full", FaultVfs::kName));
  ASSERT_TRUE(store);
  Journal journal(std::move(*store));
  std::vector<Status> outcome(2);
  FaultVfs::Arm(0, SQLITE_FULL, /*persistent=*/true);
  journal.Submit(Append(1, 1, 1), [&](Status s) { outcome[0] = std::move(s); });
  journal.Stop();  // the done calls have happened when Stop returns
  FaultVfs::Disarm();
  ASSERT_TRUE(outcome[0]);
  EXPECT_EQ(outcome[0]->code, SQLITE_FULL) << outcome[0]->message;
  EXPECT_EQ(journal.Stats().failed_writes, 1u);
  EXPECT_EQ(journal.Stats().actions, 0u);
  auto reopened = OpenStore(path);
  ASSERT_TRUE(reopened);
  EXPECT_TRUE(Sequences(*reopened, 1).empty());
}

// ---------------------------------------------------------------------------------------------
// Backup while the Journal writes

// Waits until `done` holds, at most 30 s (a safety limit: the journal answers in milliseconds);
// false, with a failure naming `what`, if it never does.
bool WaitFor(const std::function<bool()>& done, const char* what) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) {
      ADD_FAILURE() << "waited 30 s for " << what;
      return false;
    }
    std::this_thread::yield();
  }
  return true;
}

// Submits writes of two actions each, round robin over `games`, until `stop`, keeping at most
// 64 in flight. `committed` counts the writes done.
void KeepWriting(Journal& journal, int games, const std::atomic<bool>& stop,
                 std::atomic<int>& committed) {
  // Shared with the answers, which may outlive this function if the journal hangs.
  auto in_flight = std::make_shared<std::atomic<int>>(0);
  std::vector<uint64_t> next(static_cast<size_t>(games) + 1, 1);
  for (int i = 0; !stop; ++i) {
    if (!WaitFor([&] { return *in_flight < 64; }, "a place among 64 writes in flight")) return;
    const int64_t game = i % games + 1;
    uint64_t& first = next[static_cast<size_t>(game)];
    ++*in_flight;
    journal.Submit(Append(game, first, 2), [&committed, in_flight](const Status& s) {
      EXPECT_FALSE(s) << ErrorText(s);
      ++committed;
      --*in_flight;
    });
    first += 2;
  }
  WaitFor([&] { return *in_flight == 0; }, "the last writes to be answered");
}

TEST(BackupTest, ABackupTakenWhileWritingHoldsAConsistentPrefix) {
  TempDir dir;
  constexpr int kGames = 8;
  const std::string path = dir.File("log.db");
  auto writer = StoreWithGames(path, kGames);
  ASSERT_TRUE(writer);
  auto reader = OpenStore(path);
  ASSERT_TRUE(reader);
  Journal journal(std::move(*writer), /*max_batch=*/8);
  std::atomic<bool> stop = false;
  std::atomic<int> committed = 0;
  std::thread producer([&] { KeepWriting(journal, kGames, stop, committed); });
  WaitFor([&] { return committed >= 200; }, "200 committed writes");
  const Status backed_up = reader->Backup(dir.File("backup.db"));
  stop = true;
  producer.join();
  journal.Stop();
  ASSERT_FALSE(backed_up) << backed_up->message;

  auto backup = OpenStore(dir.File("backup.db"));
  ASSERT_TRUE(backup);
  EXPECT_FALSE(backup->CheckIntegrity());
  uint64_t total = 0;
  for (int g = 1; g <= kGames; ++g) {
    const std::vector<uint64_t> in_backup = Sequences(*backup, g);
    const std::vector<uint64_t> in_main = Sequences(*reader, g);
    EXPECT_EQ(in_backup, Range(1, in_backup.size())) << GameId(g);  // no gaps
    EXPECT_EQ(in_backup.size() % 2, 0u) << GameId(g) << ": half of a write";
    EXPECT_LE(in_backup.size(), in_main.size()) << GameId(g);
    total += in_backup.size();
  }
  EXPECT_GE(total, 2u * 200);  // it holds at least what was committed before it began
}

// ---------------------------------------------------------------------------------------------
// Housekeeping

constexpr int64_t kLongAgo = 1'000'000;

// g1 finished long ago, g2 finished now, g3 running, g4 damaged long ago, g5 open.
void MakeHousekeepingGames(Store& store) {
  ExpectAllCommitted(store.ApplyBatch({NewRunningGame(1, 4), NewRunningGame(2, 3),
                                       NewRunningGame(3, 2), NewRunningGame(4, 1), Create(5)}));
  ExpectAllCommitted(store.ApplyBatch({{1, {FinishGameOp{1, R"({"winners":[1]})"}}},
                                       {2, {FinishGameOp{2, "{}"}}},
                                       {4, {MarkDamagedOp{4, "replay failed"}}}}));
  ASSERT_FALSE(store.connection().Exec(
      "UPDATE games SET finished_ms = 1000, updated_ms = 1000 WHERE number IN (1, 4)"));
}

TEST(HousekeepingTest, ExpireMovesOldFinishedGamesToTheArchive) {
  TempDir dir;
  auto store = OpenStore(dir.File("log.db"));
  ASSERT_TRUE(store);
  MakeHousekeepingGames(*store);
  std::vector<StoredGame> before;
  for (int g = 1; g <= 5; ++g) before.push_back(MustLoad(*store, g));

  const auto report = store->Expire(kLongAgo, dir.File("archive.db"));
  ASSERT_TRUE(report.ok()) << report.error().message;
  EXPECT_EQ(report->games, 2);
  EXPECT_EQ(report->actions, 5);
  EXPECT_EQ(Numbers(*store->ListGames({})), (std::vector<int64_t>{2, 3, 5}));
  for (int g : {2, 3, 5}) ExpectSameGame(MustLoad(*store, g), before[static_cast<size_t>(g - 1)]);
  EXPECT_EQ(CountRows(store->connection(), "SELECT count(*) FROM actions WHERE game IN (1, 4)"), 0);
  EXPECT_EQ(store->Expire(kLongAgo, dir.File("archive.db"))->games, 0);

  // The archive is a game log of its own, holding exactly the expired games.
  auto archive = OpenStore(dir.File("archive.db"));
  ASSERT_TRUE(archive);
  EXPECT_EQ(Numbers(*archive->ListGames({})), (std::vector<int64_t>{1, 4}));
  ExpectSameGame(MustLoad(*archive, 1), before[0]);
  ExpectSameGame(MustLoad(*archive, 4), before[3]);
  EXPECT_FALSE(archive->CheckIntegrity());
}

// An idle game ends as abandoned: out of the unfinished games, kept with its seats and actions,
// and expired like a finished one. Only open and running games can be abandoned.
TEST(HousekeepingTest, AbandonedGamesLeaveTheUnfinishedAndExpireLikeFinishedOnes) {
  TempDir dir;
  auto store = OpenStore(dir.File("log.db"));
  ASSERT_TRUE(store);
  ExpectAllCommitted(store->ApplyBatch({Create(1), NewRunningGame(2, 3), NewRunningGame(3, 1)}));
  ExpectAllCommitted(store->ApplyBatch({{3, {FinishGameOp{3, "{}"}}}}));
  const StoredGame running = MustLoad(*store, 2);
  ExpectAllCommitted(store->ApplyBatch({{1, {AbandonGameOp{1}}}, {2, {AbandonGameOp{2}}}}));
  const auto refused = store->ApplyBatch({{3, {AbandonGameOp{3}}}, {9, {AbandonGameOp{9}}}});
  EXPECT_TRUE(refused[0].has_value()) << "a finished game is not abandoned";
  EXPECT_TRUE(refused[1].has_value()) << "no such game";

  const StoredGame abandoned = MustLoad(*store, 2);
  EXPECT_EQ(abandoned.game.status, GameStatus::kAbandoned);
  EXPECT_GT(abandoned.game.finished_ms, 0);
  EXPECT_EQ(abandoned.actions, running.actions);
  EXPECT_EQ(abandoned.game.seat_records, running.game.seat_records);
  EXPECT_EQ(MustLoad(*store, 1).game.status, GameStatus::kAbandoned);
  EXPECT_EQ(MustLoad(*store, 3).game.status, GameStatus::kFinished);
  EXPECT_EQ(ParseGameStatus("abandoned"), GameStatus::kAbandoned);
  EXPECT_TRUE(store->LoadUnfinished()->empty());
  EXPECT_EQ(Numbers(*store->ListGames({GameStatus::kAbandoned, std::nullopt})),
            (std::vector<int64_t>{1, 2}));

  ASSERT_FALSE(store->connection().Exec(
      "UPDATE games SET finished_ms = 1000, updated_ms = 1000 WHERE number IN (1, 2)"));
  const auto report = store->Expire(kLongAgo, "");
  ASSERT_TRUE(report.ok()) << report.error().message;
  EXPECT_EQ(report->games, 2);
  EXPECT_EQ(Numbers(*store->ListGames({})), (std::vector<int64_t>{3}));
}

TEST(HousekeepingTest, ExpireWithoutAnArchiveDeletes) {
  TempDir dir;
  auto store = OpenStore(dir.File("log.db"));
  ASSERT_TRUE(store);
  MakeHousekeepingGames(*store);
  const StoredGame running = MustLoad(*store, 3);
  const auto report = store->Expire(kLongAgo, "");
  ASSERT_TRUE(report.ok()) << report.error().message;
  EXPECT_EQ(report->games, 2);
  EXPECT_EQ(Numbers(*store->ListGames({})), (std::vector<int64_t>{2, 3, 5}));
  ExpectSameGame(MustLoad(*store, 3), running);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 3)
      << "log.db, its -wal and -shm, and no archive";
  // A cutoff after now takes the game finished just now too.
  EXPECT_EQ(store->Expire(NowMs() + 60'000, "")->games, 1);
  EXPECT_EQ(Numbers(*store->ListGames({})), (std::vector<int64_t>{3, 5}));
}

// A game expired while the server still held it (by `carc-db expire`, or by the server's own
// housekeeping after the game was hosted again): its rematch is created all the same, naming the
// game it follows, which has no row left to name the rematch.
TEST(HousekeepingTest, ARematchOfAGameThatLeftTheLogIsCreated) {
  TempDir dir;
  auto store = OpenStore(dir.File("log.db"));
  ASSERT_TRUE(store);
  ASSERT_FALSE(store->Apply(NewRunningGame(1, 3)));
  ASSERT_FALSE(store->Apply({1, {FinishGameOp{1, "{}"}}}));
  ASSERT_EQ(store->Expire(NowMs() + 60'000, "")->games, 1);
  GameRecord rematch = NewGameRecord(2);
  rematch.rematch_of = 1;
  const Status created = store->Apply({2, {CreateGameOp{rematch}, LinkRematchOp{1, 2}}});
  ASSERT_FALSE(created) << created->message;
  EXPECT_EQ(MustLoad(*store, 2).game.rematch_of, 1);
  EXPECT_FALSE(store->LoadGame(1)->has_value());
}

// ---------------------------------------------------------------------------------------------
// Replaying stored games through the engine

struct RecordedGame {
  std::vector<Write> writes;  // as a server would store it
  uint64_t final_hash = 0;
  size_t actions = 0;
};

// A real game of `players`, `steps` random legal actions (all of it if negative), recorded as
// the server records it: the notation as the game before the action sees it, the stored seat,
// and the hash after it.
RecordedGame PlayAndRecord(int64_t number, uint64_t seed, int players, int steps) {
  auto tiles = city::DefaultTileSet();
  city::Config config;
  config.players = players;
  city::Game game = std::get<city::Game>(city::Game::Create(tiles, config, seed));
  GameRecord record = NewGameRecord(number);
  record.tileset_id = tiles->id();
  record.tileset_version = tiles->version();
  record.seats = players;
  record.seed = seed;
  RecordedGame out;
  out.writes.push_back({number, {CreateGameOp{record}}});
  std::vector<SeatRecord> seats;
  seats.reserve(static_cast<size_t>(players));
  for (int p = 0; p < players; ++p) seats.push_back(Seat(p, "player" + std::to_string(p)));
  out.writes.push_back(
      {number, {StartGameOp{number, seats, city::Game::ShuffledOrder(tiles->TileCount(), seed)}}});
  core::Random random(seed * 31 + 7);
  std::vector<city::Action> legal;
  AppendActionsOp append{number, {}};
  for (int i = 0; (steps < 0 || i < steps) && !game.IsOver(); ++i) {
    game.LegalActions(&legal);
    const city::Action action = legal[static_cast<size_t>(random.Below(legal.size()))];
    const city::Actor actor = game.CurrentDecision().actor;
    ActionRecord r{static_cast<uint64_t>(i + 1), StoredSeat(actor),
                   city::FormatAction(game, action), 0, 1'700'000'000'000 + i};
    EXPECT_FALSE(game.Apply(actor, action, nullptr).has_value());
    r.state_hash = game.Hash();
    append.actions.push_back(std::move(r));
  }
  out.final_hash = game.Hash();
  out.actions = append.actions.size();
  out.writes.push_back({number, {append}});
  if (game.IsOver()) out.writes.push_back({number, {FinishGameOp{number, "{}"}}});
  return out;
}

const core::RuleSet& CityRules() {
  static const auto rules = city::MakeRuleSet(city::DefaultTileSet());
  return *rules;
}

// Replays stored game `number`; the replay's damage, after checking a clean one.
std::optional<std::string> Replayed(Store& store, int64_t number, size_t* applied = nullptr) {
  const ReplayedGame replayed = ReplayStored(MustLoad(store, number), CityRules());
  if (applied) *applied = replayed.applied;
  return replayed.damage;
}

TEST(ReplayTest, AStoredGameReplaysToTheSameState) {
  TempDir dir;
  auto store = OpenStore(dir.File("log.db"));
  ASSERT_TRUE(store);
  const RecordedGame whole = PlayAndRecord(1, 2024, 3, -1);
  const RecordedGame part = PlayAndRecord(2, 77, 2, 60);
  for (const RecordedGame* g : {&whole, &part}) ExpectAllCommitted(store->ApplyBatch(g->writes));
  EXPECT_EQ(MustLoad(*store, 1).game.status, GameStatus::kFinished);

  const ReplayedGame replayed = ReplayStored(MustLoad(*store, 1), CityRules());
  EXPECT_FALSE(replayed.damage) << *replayed.damage;
  EXPECT_EQ(replayed.applied, whole.actions);
  ASSERT_TRUE(replayed.state);
  EXPECT_EQ(replayed.state->Hash(), whole.final_hash);
  EXPECT_TRUE(replayed.state->IsOver());

  auto unfinished = store->LoadUnfinished();
  ASSERT_TRUE(unfinished.ok());
  ASSERT_EQ(unfinished->size(), 1u);
  size_t steps = 0;
  const ReplayedGame resumed =
      ReplayStored(unfinished->front(), CityRules(),
                   [&](const ActionRecord& r, std::span<const std::string>, const core::State& g) {
                     EXPECT_EQ(g.Hash(), r.state_hash) << ++steps;
                   });
  EXPECT_FALSE(resumed.damage);
  EXPECT_EQ(resumed.applied, 60u);
  ASSERT_TRUE(resumed.state);
  EXPECT_EQ(resumed.state->Hash(), part.final_hash);
}

TEST(ReplayTest, ATamperedLogIsReportedAtTheActionThatDiffers) {
  TempDir dir;
  auto store = OpenStore(dir.File("log.db"));
  ASSERT_TRUE(store);
  ExpectAllCommitted(store->ApplyBatch(PlayAndRecord(1, 5, 2, 80).writes));
  ASSERT_FALSE(Replayed(*store, 1));
  Connection& db = store->connection();
  size_t applied = 0;

  ASSERT_FALSE(db.Exec("UPDATE actions SET state_hash = state_hash + 1 WHERE sequence = 40"));
  auto damage = Replayed(*store, 1, &applied);
  ASSERT_TRUE(damage);
  EXPECT_EQ(damage->rfind("action 40 ", 0), 0u) << *damage;
  EXPECT_NE(damage->find("hash"), std::string::npos) << *damage;
  EXPECT_EQ(applied, 39u);
  ASSERT_FALSE(db.Exec("UPDATE actions SET state_hash = state_hash - 1 WHERE sequence = 40"));
  ASSERT_FALSE(Replayed(*store, 1));

  ASSERT_FALSE(db.Exec("UPDATE actions SET action = 'follower zz' WHERE sequence = 25"));
  damage = Replayed(*store, 1, &applied);
  ASSERT_TRUE(damage);
  EXPECT_EQ(damage->rfind("action 25 ('follower zz')", 0), 0u) << *damage;
  EXPECT_EQ(applied, 24u);

  ASSERT_FALSE(db.Exec("UPDATE actions SET seat = 1 WHERE sequence = 1"));  // a draw is chance's
  damage = Replayed(*store, 1, &applied);
  ASSERT_TRUE(damage);
  EXPECT_EQ(damage->rfind("action 1 ", 0), 0u) << *damage;
  EXPECT_EQ(applied, 0u);
}

}  // namespace
}  // namespace carc::persistence

// ---------------------------------------------------------------------------------------------
// Chat and fair draws (schema version 4)

namespace carc::persistence {
namespace {

ChatRecord Line(uint64_t number, int seat, const std::string& text, uint64_t after) {
  return ChatRecord{number, seat, seat < 0 ? "spectator" : "ann", text, 1'700'000'000'000, after};
}

TEST(ChatStoreTest, KeepsAGamesCommitmentAndChatInOrder) {
  TempDir dir;
  auto store = OpenStore(dir.File("log.db"));
  ASSERT_TRUE(store);
  Write create = Create(1);
  std::get<CreateGameOp>(create.ops.front()).game.spectators_chat = true;
  ASSERT_FALSE(store->Apply(create));
  ASSERT_FALSE(store->Apply({1, {AppendChatOp{1, Line(1, 0, "hello", 0)}}}));
  Write start = NewRunningGame(1, 3);
  start.ops.erase(start.ops.begin());  // created already
  start.ops.emplace_back(CommitDrawsOp{1, "c0ffee", "the proof"});
  ASSERT_FALSE(store->Apply(start));
  ASSERT_FALSE(store->Apply({1, {AppendChatOp{1, Line(2, -1, "hi all", 3)}}}));
  // A number stored twice is refused, and nothing of that write lands.
  EXPECT_TRUE(
      store->Apply({1, {Append(1, 4, 1).ops.front(), AppendChatOp{1, Line(2, 1, "x", 4)}}}));
  EXPECT_EQ(*store->LastSequence(1), 3u);
  // A commitment for a game that is not there is refused.
  EXPECT_TRUE(store->Apply({9, {CommitDrawsOp{9, "c", "p"}}}));

  const StoredGame loaded = MustLoad(*store, 1);
  EXPECT_TRUE(loaded.game.spectators_chat);
  EXPECT_EQ(loaded.game.draw_commitment, "c0ffee");
  EXPECT_EQ(loaded.game.draw_proof, "the proof");
  EXPECT_EQ(loaded.chat,
            (std::vector<ChatRecord>{Line(1, 0, "hello", 0), Line(2, -1, "hi all", 3)}));
  auto unfinished = store->LoadUnfinished();
  ASSERT_TRUE(unfinished);
  ASSERT_EQ(unfinished->size(), 1u);
  EXPECT_EQ(unfinished->front().chat, loaded.chat);
  EXPECT_EQ(unfinished->front().game.draw_proof, "the proof");

  // Deleting the game deletes its chat.
  ASSERT_TRUE(store->DeleteGame(1));
  EXPECT_EQ(CountRows(store->connection(), "SELECT count(*) FROM chat"), 0);
}

TEST(ChatStoreTest, ExpiringAGameArchivesItsChat) {
  TempDir dir;
  auto store = OpenStore(dir.File("log.db"));
  ASSERT_TRUE(store);
  Write game = NewRunningGame(1, 2);
  game.ops.emplace_back(AppendChatOp{1, Line(1, 0, "gg", 2)});
  game.ops.emplace_back(FinishGameOp{1, "{}"});
  ASSERT_FALSE(store->Apply(game));
  const auto report = store->Expire(NowMs() + 1000, dir.File("archive.db"));
  ASSERT_TRUE(report);
  EXPECT_EQ(report->games, 1);
  auto archive = OpenStore(dir.File("archive.db"));
  ASSERT_TRUE(archive);
  EXPECT_EQ(MustLoad(*archive, 1).chat, (std::vector<ChatRecord>{Line(1, 0, "gg", 2)}));
}

TEST(MigrationTest, UpgradesAVersion3FileWithoutChatOrDrawCommitments) {
  TempDir dir;
  const std::string path = dir.File("v3.db");
  BuildFile(path,
            ReadBytes(std::string(CARC_SOURCE_DIR) + "/tests/persistence/data/schema-v3.sql"));
  auto store = OpenStore(path);
  ASSERT_TRUE(store);
  EXPECT_EQ(*ReadSchemaVersion(store->connection()), kSchemaVersion);
  StoredGame stored = MustLoad(*store, 1);
  // A game stored before fair draws: no commitment, no chat, spectators silent.
  EXPECT_EQ(stored.game.status, GameStatus::kFinished);
  EXPECT_EQ(stored.game.draw_commitment, "");
  EXPECT_EQ(stored.game.draw_proof, "");
  EXPECT_FALSE(stored.game.spectators_chat);
  EXPECT_TRUE(stored.chat.empty());
  EXPECT_EQ(stored.actions.size(), 259u);
  EXPECT_FALSE(ReplayStored(stored, DefaultRuleSets()).damage);
  // The upgraded file takes chat and opens again as it is.
  ASSERT_FALSE(store->Apply({1, {AppendChatOp{1, Line(1, 0, "late", 259)}}}));
  store.reset();
  auto reopened = OpenStore(path);
  ASSERT_TRUE(reopened);
  EXPECT_EQ(MustLoad(*reopened, 1).chat.size(), 1u);
}

}  // namespace
}  // namespace carc::persistence

// ---------------------------------------------------------------------------------------------
// Clocks and absent players (schema version 5)

namespace carc::persistence {
namespace {

TimeControl LiveClock() {
  TimeControl clock;
  clock.kind = ClockKind::kLive;
  clock.bank_ms = 300'000;
  clock.increment_ms = 5'000;
  clock.grace_ms = 60'000;
  clock.on_absent = AbsentPolicy::kForfeit;
  return clock;
}

TimeControl CorrespondenceClock() {
  TimeControl clock;
  clock.kind = ClockKind::kCorrespondence;
  clock.decision_ms = 3 * 86'400'000LL;
  clock.grace_ms = 3'600'000;
  return clock;
}

// A running game (NewRunningGame) whose game has `clock`.
Write RunningGameWithClock(int64_t number, const TimeControl& clock, int actions) {
  Write write = NewRunningGame(number, actions);
  std::get<CreateGameOp>(write.ops.front()).game.time_control = clock;
  return write;
}

TEST(ClockStoreTest, TheNamesOfKindsAndPoliciesReadBack) {
  for (ClockKind kind : {ClockKind::kNone, ClockKind::kLive, ClockKind::kCorrespondence}) {
    EXPECT_EQ(ParseClockKind(ToString(kind)), kind);
  }
  for (AbsentPolicy policy : {AbsentPolicy::kStandIn, AbsentPolicy::kForfeit}) {
    EXPECT_EQ(ParseAbsentPolicy(ToString(policy)), policy);
  }
  EXPECT_EQ(ToString(ClockKind::kCorrespondence), "correspondence");
  EXPECT_EQ(ToString(AbsentPolicy::kStandIn), "stand_in");
  EXPECT_FALSE(ParseClockKind("blitz"));
  EXPECT_FALSE(ParseAbsentPolicy("wait"));
}

TEST(ClockStoreTest, KeepsTheTimeControlOfEachKind) {
  TempDir dir;
  const std::string path = dir.File("log.db");
  auto store = OpenStore(path);
  ASSERT_TRUE(store);
  TimeControl waits_for_nobody;  // no clock, but a grace period
  waits_for_nobody.grace_ms = 120'000;
  const std::vector<TimeControl> clocks = {TimeControl{}, LiveClock(), CorrespondenceClock(),
                                           waits_for_nobody};
  std::vector<Write> writes;
  for (size_t i = 0; i < clocks.size(); ++i) {
    writes.push_back(RunningGameWithClock(static_cast<int64_t>(i + 1), clocks[i], 0));
  }
  ExpectAllCommitted(store->ApplyBatch(writes));

  const auto expect_clocks = [&](Store& s) {
    for (size_t i = 0; i < clocks.size(); ++i) {
      EXPECT_TRUE(MustLoad(s, static_cast<int64_t>(i + 1)).game.time_control == clocks[i])
          << "game " << i + 1;
    }
    auto listed = s.ListGames({});
    ASSERT_TRUE(listed);
    ASSERT_EQ(listed->size(), clocks.size());
    auto unfinished = s.LoadUnfinished();
    ASSERT_TRUE(unfinished);
    ASSERT_EQ(unfinished->size(), clocks.size());
    for (size_t i = 0; i < clocks.size(); ++i) {
      EXPECT_TRUE((*listed)[i].time_control == clocks[i]) << "listed game " << i + 1;
      EXPECT_TRUE((*unfinished)[i].game.time_control == clocks[i]) << "unfinished " << i + 1;
    }
  };
  expect_clocks(*store);
  EXPECT_EQ(CountRows(store->connection(),
                      "SELECT count(*) FROM games WHERE number = 2 AND clock_kind = 'live' AND "
                      "on_absent = 'forfeit'"),
            1);

  // A time below zero is refused, and the game is not created.
  TimeControl negative = LiveClock();
  negative.increment_ms = -1;
  EXPECT_TRUE(store->Apply(RunningGameWithClock(5, negative, 0)));
  EXPECT_FALSE(store->LoadGame(5)->has_value());

  store.reset();
  auto reopened = OpenStore(path);
  ASSERT_TRUE(reopened);
  expect_clocks(*reopened);
}

TEST(ClockStoreTest, KeepsEachActionsClockAndNoClockAsNull) {
  TempDir dir;
  auto store = OpenStore(dir.File("log.db"));
  ASSERT_TRUE(store);
  ASSERT_FALSE(store->Apply(RunningGameWithClock(1, LiveClock(), 0)));
  std::vector<ActionRecord> actions;
  for (uint64_t sequence = 1; sequence <= 4; ++sequence) actions.push_back(Act(1, sequence));
  actions[1].clock_ms = 295'000;  // a player's move
  actions[2].clock_ms = 0;        // a bank that ran out exactly
  ASSERT_FALSE(store->Apply({1, {AppendActionsOp{1, actions}}}));
  EXPECT_EQ(CountRows(store->connection(), "SELECT count(*) FROM actions WHERE clock_ms IS NULL"),
            2);
  EXPECT_EQ(MustLoad(*store, 1).actions, actions);
  auto unfinished = store->LoadUnfinished();
  ASSERT_TRUE(unfinished);
  ASSERT_EQ(unfinished->size(), 1u);
  EXPECT_EQ(unfinished->front().actions, actions);

  // A clock below zero other than -1 (no clock) is refused with its write.
  ActionRecord overdrawn = Act(1, 5);
  overdrawn.clock_ms = -20;
  EXPECT_TRUE(store->Apply({1, {AppendActionsOp{1, {overdrawn}}}}));
  EXPECT_EQ(*store->LastSequence(1), 4u);

  // The clocks go to the archive with the game.
  ASSERT_FALSE(store->Apply({1, {FinishGameOp{1, "{}"}}}));
  ASSERT_TRUE(store->Expire(NowMs() + 1000, dir.File("archive.db")));
  auto archive = OpenStore(dir.File("archive.db"));
  ASSERT_TRUE(archive);
  const StoredGame archived = MustLoad(*archive, 1);
  EXPECT_EQ(archived.actions, actions);
  EXPECT_TRUE(archived.game.time_control == LiveClock());
}

// The seats of game `number`, for comparing before and after a refused write.
std::vector<SeatRecord> SeatsOf(Store& store, int64_t number) {
  return MustLoad(store, number).game.seat_records;
}

TEST(ClockStoreTest, AStandInPlaysASeatUntilItsPlayerTakesItBack) {
  TempDir dir;
  const std::string path = dir.File("log.db");
  auto store = OpenStore(path);
  ASSERT_TRUE(store);
  ASSERT_FALSE(store->Apply(RunningGameWithClock(1, CorrespondenceClock(), 2)));
  const std::vector<SeatRecord> people = SeatsOf(*store, 1);

  ASSERT_FALSE(store->Apply({1, {StandInSeatOp{1, 0, "greedy"}}}));
  SeatRecord stood_in = people[0];
  stood_in.bot = "greedy";
  stood_in.stand_in = true;
  EXPECT_EQ(SeatsOf(*store, 1), (std::vector<SeatRecord>{stood_in, people[1]}));
  store.reset();  // a stand-in outlives a restart
  store = OpenStore(path);
  ASSERT_TRUE(store);
  EXPECT_EQ(store->LoadUnfinished()->front().game.seat_records,
            (std::vector<SeatRecord>{stood_in, people[1]}));

  // A second stand-in for the same seat is refused, with the rest of its write.
  const Status twice =
      store->Apply({1, {Append(1, 3, 1).ops.front(), StandInSeatOp{1, 0, "strong"}}});
  ASSERT_TRUE(twice);
  EXPECT_NE(twice->message.find("g1: seat 0 cannot get a stand-in"), std::string::npos)
      << twice->message;
  EXPECT_EQ(SeatsOf(*store, 1), (std::vector<SeatRecord>{stood_in, people[1]}));
  EXPECT_EQ(*store->LastSequence(1), 2u);

  ASSERT_FALSE(store->Apply({1, {TakeBackSeatOp{1, 0, 1'500, 2}}}));
  SeatRecord taken_back = people[0];  // a person's again, with the bank the take-back left
  taken_back.taken_back_clock_ms = 1'500;
  taken_back.taken_back_after = 2;
  EXPECT_EQ(SeatsOf(*store, 1), (std::vector<SeatRecord>{taken_back, people[1]}));
  // Taking back a seat without a stand-in is refused: this one again, one that never had one,
  // one that does not exist.
  for (int seat : {0, 1, 7}) {
    const Status refused = store->Apply({1, {TakeBackSeatOp{1, seat}}});
    ASSERT_TRUE(refused) << "seat " << seat;
    EXPECT_NE(refused->message.find("cannot be taken back"), std::string::npos) << refused->message;
  }
  EXPECT_EQ(SeatsOf(*store, 1), (std::vector<SeatRecord>{taken_back, people[1]}));

  // The seat can get a stand-in again; a stand-in without a bot, or for no seat, is refused.
  ASSERT_FALSE(store->Apply({1, {StandInSeatOp{1, 0, "random"}}}));
  EXPECT_EQ(SeatsOf(*store, 1)[0].bot, "random");
  EXPECT_TRUE(store->Apply({1, {StandInSeatOp{1, 1, ""}}}));
  EXPECT_TRUE(store->Apply({1, {StandInSeatOp{1, 2, "greedy"}}}));
  EXPECT_TRUE(store->Apply({9, {StandInSeatOp{9, 0, "greedy"}}}));
  EXPECT_FALSE(SeatsOf(*store, 1)[1].stand_in);
}

TEST(ClockStoreTest, StandInsComeOnlyToPeoplesSeatsOfRunningGames) {
  TempDir dir;
  auto store = OpenStore(dir.File("log.db"));
  ASSERT_TRUE(store);
  // Game 1 is open; game 2 runs with a bot in seat 1; game 3 runs and ann resigned; game 4 is
  // finished with a stand-in still in seat 1.
  Write with_bot = NewRunningGame(2, 1);
  std::get<StartGameOp>(with_bot.ops[1]).seats[1] = {1, "bot", HashToken("b"), "strong"};
  ExpectAllCommitted(
      store->ApplyBatch({{1, {CreateGameOp{NewGameRecord(1)}, TakeSeatOp{1, Seat(0, "ann")}}},
                         with_bot,
                         NewRunningGame(3, 1),
                         NewRunningGame(4, 1)}));
  ExpectAllCommitted(
      store->ApplyBatch({{3, {ResignSeatOp{3, 0, "greedy"}}},
                         {4, {StandInSeatOp{4, 1, "greedy"}, FinishGameOp{4, "{}"}}}}));
  std::vector<std::vector<SeatRecord>> before;
  for (int64_t game = 1; game <= 4; ++game) before.push_back(SeatsOf(*store, game));

  const auto results = store->ApplyBatch({{1, {StandInSeatOp{1, 0, "greedy"}}},
                                          {2, {StandInSeatOp{2, 1, "greedy"}}},
                                          {3, {StandInSeatOp{3, 0, "greedy"}}},
                                          {4, {TakeBackSeatOp{4, 1}}}});
  for (size_t i = 0; i < results.size(); ++i) EXPECT_TRUE(results[i]) << "write " << i;
  for (int64_t game = 1; game <= 4; ++game) {
    EXPECT_EQ(SeatsOf(*store, game), before[static_cast<size_t>(game - 1)]) << GameId(game);
  }
  EXPECT_TRUE(before[3][1].stand_in);  // a finished game shows who stood in at its end

  // A seat written with a stand-in (a start, a seat taken) needs a bot, and not a resigned seat.
  SeatRecord no_bot = Seat(1, "bob");
  no_bot.stand_in = true;
  EXPECT_TRUE(store->Apply({1, {TakeSeatOp{1, no_bot}}}));
  SeatRecord stood_in = no_bot;
  stood_in.bot = "greedy";
  ASSERT_FALSE(store->Apply({1, {TakeSeatOp{1, stood_in}}}));
  EXPECT_EQ(SeatsOf(*store, 1)[1], stood_in);
}

// A player whose seat has a stand-in may forfeit: the seat resigns, and is no stand-in any more.
TEST(ClockStoreTest, AStandInSeatMayForfeit) {
  TempDir dir;
  auto store = OpenStore(dir.File("log.db"));
  ASSERT_TRUE(store);
  ExpectAllCommitted(store->ApplyBatch({NewRunningGame(1, 1), NewRunningGame(2, 1)}));
  ExpectAllCommitted(store->ApplyBatch(
      {{1, {StandInSeatOp{1, 0, "random"}}}, {2, {StandInSeatOp{2, 1, "random"}}}}));

  // Game 1 (policy bot_takes_seat): the resign bot plays the seat to the end.
  ASSERT_FALSE(store->Apply({1, {ResignSeatOp{1, 0, "greedy"}}}));
  const SeatRecord forfeited = SeatsOf(*store, 1)[0];
  EXPECT_TRUE(forfeited.resigned);
  EXPECT_FALSE(forfeited.stand_in);
  EXPECT_EQ(forfeited.bot, "greedy");
  EXPECT_TRUE(store->Apply({1, {TakeBackSeatOp{1, 0}}}));
  EXPECT_TRUE(store->Apply({1, {StandInSeatOp{1, 0, "greedy"}}}));

  // Game 2 (policy end_game): the game ends; the seat is its player's, resigned.
  ASSERT_FALSE(store->Apply({2, {ResignGameOp{2, 1, R"({"ended_by":"forfeited"})"}}}));
  const StoredGame ended = MustLoad(*store, 2);
  EXPECT_EQ(ended.game.status, GameStatus::kResigned);
  EXPECT_TRUE(ended.game.seat_records[1].resigned);
  EXPECT_FALSE(ended.game.seat_records[1].stand_in);
  EXPECT_EQ(ended.game.seat_records[1].bot, "");
}

// The file of schema version `version` (tests/persistence/data/schema-vN.sql), built with plain
// SQLite.
std::string BuildVersionFile(const TempDir& dir, int version) {
  const std::string name = "v" + std::to_string(version);
  std::string path = dir.File(name + ".db");
  BuildFile(path, ReadBytes(std::string(CARC_SOURCE_DIR) + "/tests/persistence/data/schema-" +
                            name + ".sql"));
  return path;
}

TEST(MigrationTest, AnUpgradedVersion4FileHasTheSchemaOfANewFile) {
  TempDir dir;
  const std::string path = BuildVersionFile(dir, 4);
  {
    auto db = Connection::Open(path, false);
    ASSERT_TRUE(db.ok());
    EXPECT_EQ(*ReadSchemaVersion(*db), 4);
  }
  ASSERT_TRUE(OpenStore(path));
  ASSERT_TRUE(OpenStore(dir.File("new.db")));
  EXPECT_EQ(SchemaRows(path), SchemaRows(dir.File("new.db")));
}

TEST(MigrationTest, UpgradesAVersion4FileWithNoClocksAndNoStandIns) {
  TempDir dir;
  const std::string path = BuildVersionFile(dir, 4);
  auto store = OpenStore(path);
  ASSERT_TRUE(store);
  EXPECT_EQ(*ReadSchemaVersion(store->connection()), kSchemaVersion);

  // Every game keeps what it had, and has no clock; no seat has a stand-in, no action a clock.
  auto games = store->ListGames({});
  ASSERT_TRUE(games);
  EXPECT_EQ(Numbers(*games), (std::vector<int64_t>{1, 2, 3, 4}));
  for (const GameRecord& listed : *games) {
    const StoredGame g = MustLoad(*store, listed.number);
    EXPECT_TRUE(g.game.time_control == TimeControl{}) << GameId(listed.number);
    for (const SeatRecord& seat : g.game.seat_records) EXPECT_FALSE(seat.stand_in);
    for (const ActionRecord& action : g.actions) EXPECT_EQ(action.clock_ms, -1);
  }
  const StoredGame finished = MustLoad(*store, 1);
  EXPECT_EQ(finished.game.status, GameStatus::kFinished);
  EXPECT_EQ(finished.game.rematch, 3);
  ASSERT_EQ(finished.actions.size(), 259u);
  const ReplayedGame replayed = ReplayStored(finished, DefaultRuleSets());
  ASSERT_FALSE(replayed.damage) << *replayed.damage;
  EXPECT_EQ(replayed.state->Hash(), finished.actions.back().state_hash);
  const StoredGame open = MustLoad(*store, 2);
  EXPECT_EQ(open.game.options, "river=1");
  ASSERT_EQ(open.game.seat_records.size(), 2u);
  EXPECT_EQ(open.game.seat_records[1].bot, "greedy");
  ASSERT_EQ(open.chat.size(), 1u);
  EXPECT_EQ(open.chat[0].text, "waiting for one more");
  const StoredGame rematch = MustLoad(*store, 3);
  EXPECT_EQ(rematch.game.on_resign, ResignPolicy::kEndGame);
  EXPECT_EQ(rematch.game.rematch_of, 1);
  EXPECT_TRUE(rematch.game.spectators_chat);
  const StoredGame running = MustLoad(*store, 4);
  EXPECT_EQ(running.game.status, GameStatus::kRunning);
  EXPECT_EQ(running.game.draw_commitment, std::string(64, 'c'));
  ASSERT_EQ(running.game.seat_records.size(), 2u);
  EXPECT_TRUE(running.game.seat_records[0].resigned);
  EXPECT_EQ(running.game.seat_records[0].bot, "greedy");

  // The upgraded file takes stand-ins and clocks, and opens again as it is. Ann resigned, so
  // only bob's seat takes a stand-in.
  EXPECT_TRUE(store->Apply({4, {StandInSeatOp{4, 0, "greedy"}}}));
  ActionRecord draw = Act(4, 1);
  draw.seat = 1;
  draw.clock_ms = 1234;
  ASSERT_FALSE(store->Apply({4, {AppendActionsOp{4, {draw}}, StandInSeatOp{4, 1, "greedy"}}}));
  store.reset();
  auto reopened = OpenStore(path);
  ASSERT_TRUE(reopened);
  const StoredGame again = MustLoad(*reopened, 4);
  EXPECT_EQ(again.actions, (std::vector<ActionRecord>{draw}));
  EXPECT_TRUE(again.game.seat_records[1].stand_in);
  EXPECT_EQ(again.game.seat_records[1].bot, "greedy");
}

// ---------------------------------------------------------------------------------------------
// Mutes (schema version 6)

TEST(MuteStoreTest, ASeatsMutesAreStoredWholeAndOutliveARestart) {
  TempDir dir;
  const std::string path = dir.File("log.db");
  auto store = OpenStore(path);
  ASSERT_TRUE(store);
  ASSERT_FALSE(store->Apply(NewRunningGame(1, 0)));
  ASSERT_FALSE(store->Apply({1, {MuteSeatsOp{1, 0, 0b10}}}));
  ASSERT_FALSE(store->Apply({1, {MuteSeatsOp{1, 1, 0b01}, MuteSeatsOp{1, 0, 0b11}}}));
  store.reset();
  store = OpenStore(path);
  ASSERT_TRUE(store);
  const std::vector<SeatRecord> seats = SeatsOf(*store, 1);
  ASSERT_EQ(seats.size(), 2u);
  EXPECT_EQ(seats[0].muted, 0b11u);  // the last mask replaced the first
  EXPECT_EQ(seats[1].muted, 0b01u);

  // A seat that is not taken mutes nobody: refused, with the rest of its write.
  const Status refused = store->Apply({1, {MuteSeatsOp{1, 0, 0}, MuteSeatsOp{1, 7, 0b1}}});
  ASSERT_TRUE(refused);
  EXPECT_NE(refused->message.find("g1: seat 7 cannot mute"), std::string::npos) << refused->message;
  EXPECT_EQ(SeatsOf(*store, 1), seats);
}

TEST(MigrationTest, AnUpgradedVersion5FileHasTheSchemaOfANewFile) {
  TempDir dir;
  const std::string path = BuildVersionFile(dir, 5);
  {
    auto db = Connection::Open(path, false);
    ASSERT_TRUE(db.ok());
    EXPECT_EQ(*ReadSchemaVersion(*db), 5);
  }
  ASSERT_TRUE(OpenStore(path));
  ASSERT_TRUE(OpenStore(dir.File("new.db")));
  EXPECT_EQ(SchemaRows(path), SchemaRows(dir.File("new.db")));
}

TEST(MigrationTest, UpgradesAVersion5FileWithNoMutesNoTakeBacksAndItsClocksKept) {
  TempDir dir;
  const std::string path = BuildVersionFile(dir, 5);
  auto store = OpenStore(path);
  ASSERT_TRUE(store);
  EXPECT_EQ(*ReadSchemaVersion(store->connection()), kSchemaVersion);
  auto games = store->ListGames({});
  ASSERT_TRUE(games);
  EXPECT_EQ(Numbers(*games), (std::vector<int64_t>{1, 2, 3, 4, 5}));
  for (const GameRecord& listed : *games) {
    for (const SeatRecord& seat : MustLoad(*store, listed.number).game.seat_records) {
      EXPECT_EQ(seat.muted, 0u) << GameId(listed.number);
      EXPECT_EQ(seat.taken_back_clock_ms, -1) << GameId(listed.number);
    }
  }
  const StoredGame clocked = MustLoad(*store, 5);
  EXPECT_EQ(clocked.game.status, GameStatus::kRunning);
  EXPECT_EQ(clocked.game.time_control.kind, ClockKind::kLive);
  EXPECT_EQ(clocked.game.time_control.bank_ms, 300000);
  EXPECT_EQ(clocked.game.time_control.increment_ms, 5000);
  EXPECT_EQ(clocked.game.time_control.grace_ms, 60000);
  EXPECT_EQ(clocked.game.time_control.on_absent, AbsentPolicy::kForfeit);
  ASSERT_EQ(clocked.game.seat_records.size(), 2u);
  EXPECT_TRUE(clocked.game.seat_records[1].stand_in);
  EXPECT_EQ(clocked.game.seat_records[1].bot, "greedy");
  EXPECT_EQ(MustLoad(*store, 1).actions.size(), 259u);

  // The upgraded file takes mutes, and opens again as it is.
  ASSERT_FALSE(store->Apply({5, {MuteSeatsOp{5, 0, 0b10}}}));
  store.reset();
  auto reopened = OpenStore(path);
  ASSERT_TRUE(reopened);
  EXPECT_EQ(MustLoad(*reopened, 5).game.seat_records[0].muted, 0b10u);
}

// ---------------------------------------------------------------------------------------------
// Settings (schema version 7)

TEST(MigrationTest, AnUpgradedVersion6FileHasTheSchemaOfANewFile) {
  TempDir dir;
  const std::string path = BuildVersionFile(dir, 6);
  {
    auto db = Connection::Open(path, false);
    ASSERT_TRUE(db.ok());
    EXPECT_EQ(*ReadSchemaVersion(*db), 6);
  }
  ASSERT_TRUE(OpenStore(path));
  ASSERT_TRUE(OpenStore(dir.File("new.db")));
  EXPECT_EQ(SchemaRows(path), SchemaRows(dir.File("new.db")));
}

// A file from before the settings has no shard's name, and its next game number comes from the
// numbers it issued (g5 was deleted); it keeps its games and mutes, and takes a name.
TEST(MigrationTest, UpgradesAVersion6FileWithNoShardAndItsGameNumbersKept) {
  TempDir dir;
  const std::string path = BuildVersionFile(dir, 6);
  EXPECT_EQ(*ReadNextGameNumber(path), 6) << "read from a version-6 file as it is";
  auto store = OpenStore(path);
  ASSERT_TRUE(store);
  EXPECT_EQ(*ReadSchemaVersion(store->connection()), kSchemaVersion);
  EXPECT_EQ(CountRows(store->connection(), "SELECT count(*) FROM settings"), 0);
  EXPECT_EQ(*store->NextGameNumber(), 6);
  EXPECT_EQ(Numbers(*store->ListGames({})), (std::vector<int64_t>{1, 2, 3, 4}));
  EXPECT_EQ(MustLoad(*store, 4).game.seat_records[1].muted, 0b01u);
  EXPECT_EQ(MustLoad(*store, 1).actions.size(), 259u);
  EXPECT_EQ(*store->ClaimShard("s0"), "s0");
  store.reset();
  auto reopened = OpenStore(path);
  ASSERT_TRUE(reopened);
  EXPECT_EQ(*reopened->ClaimShard("s1"), "s0");
}

}  // namespace
}  // namespace carc::persistence
