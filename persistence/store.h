// The game log: every game the server hosts, its seats, and the append-only list of the actions
// applied to it, in one SQLite file (docs/persistence.md describes the schema and what a commit
// promises).
//
// A Store is one connection to that file. It opens the file (creating it when asked), refuses a
// file it cannot read or a schema newer than it knows, upgrades an older schema, and sets WAL
// mode. Writes come as Writes: the steps of one game that must land together (a move and the
// tile draws it caused, a seat taken, a game started). ApplyBatch commits many Writes, from many
// games, in one transaction, each in its own savepoint, so that one refused Write does not undo
// the others. Reads load games for resuming, replaying and housekeeping.
//
// Lifetime and threads: a Store is used by one thread at a time. The server keeps one for its
// writer (journal.h) and another for reads; tools open their own.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "sqlite.h"

namespace carc::persistence {

// The schema version this build writes; it upgrades files of versions 1 .. kSchemaVersion - 1.
inline constexpr int kSchemaVersion = 7;

enum class GameStatus : uint8_t {
  kOpen,       // waiting for players
  kRunning,    // started, not over
  kFinished,   // over; its result is stored
  kDamaged,    // its log does not replay to the stored state: kept for people to look at
  kAbandoned,  // ended without a result: nothing happened in it for the server's time limit
  kResigned,   // ended when a player resigned; its result is stored
};
std::string_view ToString(GameStatus status);
std::optional<GameStatus> ParseGameStatus(std::string_view text);

// What a player's resignation does to a game (docs/protocol.md, section 12).
enum class ResignPolicy : uint8_t {
  kEndGame,       // the game ends at once (kResigned)
  kBotTakesSeat,  // a bot plays the seat to the end
};
std::string_view ToString(ResignPolicy policy);  // "end_game", "bot_takes_seat"
std::optional<ResignPolicy> ParseResignPolicy(std::string_view text);

// A game's clock and what happens to an absent player (docs/protocol.md, section 15).
enum class ClockKind : uint8_t {
  kNone,
  kLive,            // a time bank per player, plus an increment per turn
  kCorrespondence,  // a deadline per decision
};
std::string_view ToString(ClockKind kind);  // "none", "live", "correspondence"
std::optional<ClockKind> ParseClockKind(std::string_view text);

enum class AbsentPolicy : uint8_t {
  kStandIn,  // a stand-in bot plays the seat until its player takes it back
  kForfeit,  // the player forfeits: the game's resign policy applies
};
std::string_view ToString(AbsentPolicy policy);  // "stand_in", "forfeit"
std::optional<AbsentPolicy> ParseAbsentPolicy(std::string_view text);

// Chosen at the creation. Times in milliseconds; those its kind does not use are 0.
struct TimeControl {
  ClockKind kind = ClockKind::kNone;
  int64_t bank_ms = 0;       // live: each player's bank at the start
  int64_t increment_ms = 0;  // live: added to a player's bank when their turn ends
  int64_t decision_ms = 0;   // correspondence: the time for each decision
  int64_t grace_ms = 0;      // how long a player may be disconnected; 0: waited for
  AbsentPolicy on_absent = AbsentPolicy::kStandIn;
  friend bool operator==(const TimeControl&, const TimeControl&) = default;
};

using TokenHash = std::array<uint8_t, 32>;  // SHA-256 of a seat token (token.h)

struct SeatRecord {
  int seat = 0;
  std::string player_name;
  TokenHash token_hash{};
  std::string bot{};      // the level of the bot that plays it (bots::ToString); empty: a person
  bool resigned = false;  // its player resigned
  bool stand_in = false;  // `bot` stands in for its player, who may take the seat back
  uint32_t muted = 0;     // the seats whose chat lines its player muted: bit i for seat i
  // The live bank its player's last take-back left (-1: none), and the game's sequence then.
  int64_t taken_back_clock_ms = -1;
  uint64_t taken_back_after = 0;
  friend bool operator==(const SeatRecord&, const SeatRecord&) = default;
};

// One row of `games`. `number` is the integer key; the public game id is "g" + number.
struct GameRecord {
  int64_t number = 0;
  std::string name;
  std::string rule_set;  // the rule set's id and version (engine/registry.h)
  int rule_set_version = 1;
  std::string options;  // the rule set's options, as core::FormatOptions writes them
  std::string tileset_id;
  int tileset_version = 0;
  int seats = 0;  // seats of the lobby; once started, the players
  uint64_t seed = 0;
  std::vector<int> order;  // the tiles in drawing order; set when the game starts
  GameStatus status = GameStatus::kOpen;
  int64_t created_ms = 0;  // Unix time, milliseconds
  int64_t updated_ms = 0;
  int64_t finished_ms = 0;               // 0 until finished
  std::string result;                    // finished: a JSON object (scores, winners, how it ended)
  std::string damage;                    // damaged: why
  std::vector<SeatRecord> seat_records;  // taken seats, by seat number
  ResignPolicy on_resign = ResignPolicy::kBotTakesSeat;
  int64_t rematch_of = 0;  // the game this one is a rematch of; 0: none
  int64_t rematch = 0;     // this game's rematch; 0: none
  // Fair draws (docs/fairness.md): the hex SHA-256 of draw_proof, public from the start; the
  // proof itself (the drawing order, seed and salt as text) is secret until the game ends. Both
  // empty for a game that has not started, or was stored before schema version 4.
  std::string draw_commitment;
  std::string draw_proof;
  bool spectators_chat = false;  // whether spectators may write in the game's chat
  TimeControl time_control{};    // schema version 5; older games: none
};

// Whether the game never started: it is open, or was abandoned before its start (it has no
// drawing order). Such a game has no actions and nothing to replay.
bool NeverStarted(const GameRecord& game);

std::string GameId(int64_t number);                       // "g12"
std::optional<int64_t> ParseGameId(std::string_view id);  // "g12" -> 12

// One row of `actions`: the action applied at `sequence` (1-based, no gaps).
struct ActionRecord {
  uint64_t sequence = 0;
  int seat = -1;            // the player who acted; -1 for the server's tile draw
  std::string action;       // the engine's notation, without the actor (docs/formats.md)
  uint64_t state_hash = 0;  // the engine's public-state hash after the action
  int64_t time_ms = 0;
  // The acting player's clock just after the action (live: what is left of the bank, the
  // increment added); -1: no clock (the server's draws, a game without a clock, older logs).
  int64_t clock_ms = -1;
  friend bool operator==(const ActionRecord&, const ActionRecord&) = default;
};

// One row of `chat`: a line said in a game, `number` 1-based per game, no gaps.
struct ChatRecord {
  uint64_t number = 0;
  int seat = -1;  // the speaker's seat; -1 for a spectator
  std::string name;
  std::string text;
  int64_t time_ms = 0;
  uint64_t after_sequence = 0;  // the game's sequence number when it was said
  friend bool operator==(const ChatRecord&, const ChatRecord&) = default;
};

struct StoredGame {
  GameRecord game;
  std::vector<ActionRecord> actions;
  std::vector<ChatRecord> chat;  // by number
};

// The steps a Write may hold.
struct CreateGameOp {
  GameRecord game;  // status open, no seats
};
struct TakeSeatOp {
  int64_t game = 0;
  SeatRecord seat;
};
struct FreeSeatOp {
  int64_t game = 0;
  int seat = 0;
};
struct StartGameOp {
  int64_t game = 0;
  std::vector<SeatRecord> seats;  // renumbered 0 .. players - 1 (empty seats dropped)
  std::vector<int> order;
};
struct AppendActionsOp {
  int64_t game = 0;
  std::vector<ActionRecord> actions;  // consecutive, following the last stored one
};
struct FinishGameOp {
  int64_t game = 0;
  std::string result;  // JSON
};
struct MarkDamagedOp {
  int64_t game = 0;
  std::string reason;
};
// Ends an open or running game without a result (refused for a game in any other state).
struct AbandonGameOp {
  int64_t game = 0;
};
// Bots, resigning and rematches.
// Ends a running game when a player resigns: status resigned, the result, the seat marked.
struct ResignGameOp {
  int64_t game = 0;
  int seat = 0;
  std::string result;  // JSON
};
// A player of a running game resigns and a bot of level `bot` plays the seat from now on.
struct ResignSeatOp {
  int64_t game = 0;
  int seat = 0;
  std::string bot;
};
// Records `rematch` as the rematch of `game` (written with the rematch's CreateGameOp). A `game`
// that has left the log meanwhile (expired or deleted while the server still held it) has no row
// to carry the link: nothing is written for it, and the rematch's own `rematch_of` names it.
struct LinkRematchOp {
  int64_t game = 0;
  int64_t rematch = 0;
};
// Chat and fair draws (schema version 4).
// The commitment to a game's draws and its proof (written with the start).
struct CommitDrawsOp {
  int64_t game = 0;
  std::string commitment;
  std::string proof;
};
// A chat line; its number follows the game's last one (a number stored twice is refused).
struct AppendChatOp {
  int64_t game = 0;
  ChatRecord line;
};
// Clocks and absent players (schema version 5).
// A stand-in bot of level `bot` plays the seat of a running game until its player takes it back
// (refused for a seat that resigned or already has a stand-in).
struct StandInSeatOp {
  int64_t game = 0;
  int seat = 0;
  std::string bot;
};
// The player of a seat with a stand-in takes it back (refused for a seat without one). With a
// live clock, `clock_ms` is the seat's bank then (-1: no clock; schema version 6), and
// `after_sequence` the game's sequence: the bank holds until the player's next action.
struct TakeBackSeatOp {
  int64_t game = 0;
  int seat = 0;
  int64_t clock_ms = -1;
  uint64_t after_sequence = 0;
};
// Mutes (schema version 6).
// The seats whose chat lines the player of `seat` muted, bit i for seat i; it replaces the seat's
// last mask (refused for a seat that is not taken).
struct MuteSeatsOp {
  int64_t game = 0;
  int seat = 0;
  uint32_t muted = 0;
};
using WriteOp = std::variant<CreateGameOp, TakeSeatOp, FreeSeatOp, StartGameOp, AppendActionsOp,
                             FinishGameOp, MarkDamagedOp, AbandonGameOp,
                             // bots, resigning and rematches
                             ResignGameOp, ResignSeatOp, LinkRematchOp,
                             // chat and fair draws
                             CommitDrawsOp, AppendChatOp,
                             // clocks and absent players
                             StandInSeatOp, TakeBackSeatOp,
                             // mutes
                             MuteSeatsOp>;

// The steps of one game that land together or not at all.
struct Write {
  int64_t game = 0;
  std::vector<WriteOp> ops;
};

struct StoreOptions {
  std::string path;
  bool create = true;  // create the file if it does not exist
  // PRAGMA synchronous: "full" (a commit survives a power loss) or "normal" (it survives a crash
  // of the process; the last commits may be lost on a power loss). docs/persistence.md.
  std::string synchronous = "full";
  int busy_timeout_ms = 2000;  // how long a write waits for another process's lock
  std::string vfs;             // a registered SQLite VFS (tests inject faults through one)
};

// The order of a list of games.
enum class ListOrder : uint8_t {
  kByNumber,             // the oldest game first
  kNewestFinishedFirst,  // by finished_ms, the latest first (on a tie, the higher number first)
};

// Which games ListGames gives. The fields after the first two have default initializers, so that
// `ListFilter{status, std::nullopt}` still names every field.
struct ListFilter {
  std::optional<GameStatus> status;
  std::optional<int64_t> finished_before_ms;
  std::optional<int64_t> number = std::nullopt;  // only this game
  ListOrder order = ListOrder::kByNumber;
  std::optional<int64_t> limit = std::nullopt;  // at most this many (not negative)
  // Only the games after this game in `order` (a page after the one that ended with it); none
  // when it is not in the log.
  std::optional<int64_t> after = std::nullopt;
  // A second status the games may have (with `status`): finished or resigned games, say.
  std::optional<GameStatus> or_status = std::nullopt;
};

struct HousekeepingReport {
  int games = 0;
  int actions = 0;
};

class Store {
 public:
  static Result<Store> Open(const StoreOptions& options);

  Store(Store&&) noexcept;
  Store& operator=(Store&&) noexcept;
  ~Store();

  int schema_version() const { return schema_version_; }
  const std::string& path() const { return path_; }

  // Commits the writes in one transaction. The result has one entry per write: nullopt when it
  // is committed, or why not. If the transaction itself fails (I/O error, full disk, busy), no
  // write is committed and every entry says why.
  std::vector<Status> ApplyBatch(const std::vector<Write>& writes);
  Status Apply(const Write& write) { return ApplyBatch({write}).front(); }

  // The number the next game gets: one more than any game ever stored (deleted ones included),
  // and at least the file's `next_game_number` setting (carried over by a restore).
  Result<int64_t> NextGameNumber();
  // Raises the `next_game_number` setting to `next`; it never goes down.
  Status RaiseNextGameNumber(int64_t next);
  // The shard whose games the file holds ("" for a server alone): the one stored, or `shard` when
  // the file has none yet, which is then stored. The caller compares it with `shard`.
  Result<std::string> ClaimShard(std::string_view shard);
  Result<std::vector<GameRecord>> ListGames(const ListFilter& filter);
  Result<std::optional<StoredGame>> LoadGame(int64_t number);
  // Every game open or running, with its seats and actions (for resuming after a restart).
  Result<std::vector<StoredGame>> LoadUnfinished();
  // The last stored sequence number of a game (0 when it has no actions).
  Result<uint64_t> LastSequence(int64_t game);

  // Removes finished (and damaged, abandoned and resigned) games finished before `before_ms`; with
  // an archive path, copies them there first (a database file of the same schema, created if
  // needed), in the same transaction.
  Result<HousekeepingReport> Expire(int64_t before_ms, const std::string& archive_path);
  Result<HousekeepingReport> DeleteGame(int64_t number);
  // Copies the whole database to `destination` with SQLite's online backup, from one read
  // snapshot: writers carry on meanwhile (WAL).
  Status Backup(const std::string& destination);
  // PRAGMA integrity_check: nullopt when the file is sound.
  Status CheckIntegrity();

  Connection& connection() { return *db_; }

 private:
  Result<bool> RunningActionsAreMostOfTheLog();
  struct Statements;
  Store(Connection db, std::string path, int version);
  Status ApplyOp(const WriteOp& op, int64_t now_ms);
  Status ApplyWrite(const Write& write, int64_t now_ms);
  // Commits a write of no consequence over the tail of the WAL (after a failed commit).
  void Seal();

  std::unique_ptr<Connection> db_;
  std::string path_;
  int schema_version_ = 0;
  std::unique_ptr<Statements> statements_;  // prepared once, on first use
};

// Milliseconds since the Unix epoch.
int64_t NowMs();

}  // namespace carc::persistence
