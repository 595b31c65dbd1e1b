#include "store.h"

#include <cassert>
#include <charconv>
#include <chrono>
#include <map>
#include <sstream>
#include <unordered_map>

#include "schema.h"

namespace carc::persistence {
namespace {

// SQLite integers are signed; hashes and seeds are stored as their bit patterns.
int64_t AsStored(uint64_t value) { return static_cast<int64_t>(value); }
uint64_t FromStored(int64_t value) { return static_cast<uint64_t>(value); }

// A clock in milliseconds; -1 (no clock) is stored as NULL, and any other negative clock is
// refused by the schema.
Statement& BindClock(Statement& statement, int index, int64_t clock_ms) {
  return clock_ms == -1 ? statement.BindNull(index) : statement.Bind(index, clock_ms);
}

std::string JoinOrder(const std::vector<int>& order) {
  std::string text;
  for (size_t i = 0; i < order.size(); ++i) {
    if (i) text += ' ';
    text += std::to_string(order[i]);
  }
  return text;
}

std::vector<int> SplitOrder(const std::string& text) {
  std::vector<int> order;
  std::istringstream in(text);
  int tile = 0;
  while (in >> tile) order.push_back(tile);
  return order;
}

StoreError Prefixed(StoreError error, std::string_view what) {
  error.message = std::string(what) + ": " + error.message;
  return error;
}

constexpr const char* kGameColumns =
    "number, name, rule_set, tileset_id, tileset_version, seats, seed, draw_order, status, "
    "created_ms, updated_ms, finished_ms, result, damage, rule_set_version, options, on_resign, "
    "rematch_of, rematch, draw_commitment, draw_proof, spectators_chat, clock_kind, "
    "clock_bank_ms, clock_increment_ms, clock_decision_ms, grace_ms, on_absent";

// The time control from its columns in a row (kGameColumns from `first_column` on). Unknown text
// would be a file written by another program: read as no clock, and the default policy.
TimeControl ReadTimeControl(const Statement& row, int first_column) {
  TimeControl clock;
  clock.kind = ParseClockKind(row.Text(first_column)).value_or(ClockKind::kNone);
  clock.bank_ms = row.Int(first_column + 1);
  clock.increment_ms = row.Int(first_column + 2);
  clock.decision_ms = row.Int(first_column + 3);
  clock.grace_ms = row.Int(first_column + 4);
  clock.on_absent = ParseAbsentPolicy(row.Text(first_column + 5)).value_or(AbsentPolicy::kStandIn);
  return clock;
}

GameRecord ReadGame(const Statement& row) {
  GameRecord game;
  game.number = row.Int(0);
  game.name = row.Text(1);
  game.rule_set = row.Text(2);
  game.tileset_id = row.Text(3);
  game.tileset_version = static_cast<int>(row.Int(4));
  game.seats = static_cast<int>(row.Int(5));
  game.seed = FromStored(row.Int(6));
  game.order = SplitOrder(row.Text(7));
  // An unknown status would be a file written by another program: treat it as damaged.
  game.status = ParseGameStatus(row.Text(8)).value_or(GameStatus::kDamaged);
  game.created_ms = row.Int(9);
  game.updated_ms = row.Int(10);
  game.finished_ms = row.Int(11);
  game.result = row.Text(12);
  game.damage = row.Text(13);
  game.rule_set_version = static_cast<int>(row.Int(14));
  game.options = row.Text(15);
  game.on_resign = ParseResignPolicy(row.Text(16)).value_or(ResignPolicy::kBotTakesSeat);
  game.rematch_of = row.Int(17);
  game.rematch = row.Int(18);
  game.draw_commitment = row.Text(19);
  game.draw_proof = row.Text(20);
  game.spectators_chat = row.Int(21) != 0;
  game.time_control = ReadTimeControl(row, 22);
  return game;
}

ActionRecord ReadAction(const Statement& row, int first_column) {
  ActionRecord action;
  action.sequence = FromStored(row.Int(first_column));
  action.seat = static_cast<int>(row.Int(first_column + 1));
  action.action = row.Text(first_column + 2);
  action.state_hash = FromStored(row.Int(first_column + 3));
  action.time_ms = row.Int(first_column + 4);
  action.clock_ms = row.IsNull(first_column + 5) ? -1 : row.Int(first_column + 5);
  return action;
}

ChatRecord ReadChat(const Statement& row, int first_column) {
  ChatRecord line;
  line.number = FromStored(row.Int(first_column));
  line.seat = static_cast<int>(row.Int(first_column + 1));
  line.name = row.Text(first_column + 2);
  line.text = row.Text(first_column + 3);
  line.time_ms = row.Int(first_column + 4);
  line.after_sequence = FromStored(row.Int(first_column + 5));
  return line;
}

constexpr const char* kChatColumns = "number, seat, name, text, time_ms, after_sequence";
// The columns ReadSeat and ReadAction read, in their order.
constexpr const char* kSeatColumns =
    "seat, player_name, token_hash, bot, resigned, stand_in, muted, "
    "coalesce(taken_back_clock_ms, -1), taken_back_after";
constexpr const char* kActionColumns = "sequence, seat, action, state_hash, time_ms, clock_ms";

SeatRecord ReadSeat(const Statement& row, int first_column) {
  SeatRecord seat;
  seat.seat = static_cast<int>(row.Int(first_column));
  seat.player_name = row.Text(first_column + 1);
  const std::string hash = row.Blob(first_column + 2);
  if (hash.size() == seat.token_hash.size()) {
    for (size_t i = 0; i < hash.size(); ++i) seat.token_hash[i] = static_cast<uint8_t>(hash[i]);
  }
  seat.bot = row.Text(first_column + 3);
  seat.resigned = row.Int(first_column + 4) != 0;
  seat.stand_in = row.Int(first_column + 5) != 0;
  seat.muted = static_cast<uint32_t>(row.Int(first_column + 6));
  seat.taken_back_clock_ms = row.Int(first_column + 7);
  seat.taken_back_after = FromStored(row.Int(first_column + 8));
  return seat;
}

// The FROM, WHERE, ORDER BY and LIMIT clauses of a ListGames query; its parameters are numbered
// so that one binding works for the games and for their seats.
std::string GameSelection(const ListFilter& filter) {
  std::string sql = " FROM games WHERE 1";
  if (filter.status) sql += filter.or_status ? " AND status IN (?1, ?6)" : " AND status = ?1";
  if (filter.finished_before_ms) sql += " AND finished_ms > 0 AND finished_ms < ?2";
  if (filter.number) sql += " AND number = ?3";
  if (filter.after) {
    switch (filter.order) {
      case ListOrder::kByNumber:
        sql += " AND number > ?5";
        break;
      case ListOrder::kNewestFinishedFirst:
        sql +=
            " AND (finished_ms, number) < (SELECT finished_ms, number FROM games WHERE number = "
            "?5)";
        break;
    }
  }
  switch (filter.order) {
    case ListOrder::kByNumber:
      sql += " ORDER BY number";
      break;
    case ListOrder::kNewestFinishedFirst:
      sql += " ORDER BY finished_ms DESC, number DESC";
      break;
  }
  if (filter.limit) sql += " LIMIT ?4";
  return sql;
}

void BindGameSelection(Statement& q, const ListFilter& filter) {
  if (filter.status) q.Bind(1, ToString(*filter.status));
  if (filter.finished_before_ms) q.Bind(2, *filter.finished_before_ms);
  if (filter.number) q.Bind(3, *filter.number);
  if (filter.limit) q.Bind(4, *filter.limit);
  if (filter.after) q.Bind(5, *filter.after);
  if (filter.status && filter.or_status) q.Bind(6, ToString(*filter.or_status));
}

// Which failures end the whole transaction, and which only refuse the one write that caused them.
bool EndsTransaction(const StoreError& error) { return !error.IsConstraint(); }

}  // namespace

std::string_view ToString(GameStatus status) {
  switch (status) {
    case GameStatus::kOpen:
      return "open";
    case GameStatus::kRunning:
      return "running";
    case GameStatus::kFinished:
      return "finished";
    case GameStatus::kDamaged:
      return "damaged";
    case GameStatus::kAbandoned:
      return "abandoned";
    case GameStatus::kResigned:
      return "resigned";
  }
  return "damaged";
}

std::optional<GameStatus> ParseGameStatus(std::string_view text) {
  for (GameStatus s : {GameStatus::kOpen, GameStatus::kRunning, GameStatus::kFinished,
                       GameStatus::kDamaged, GameStatus::kAbandoned, GameStatus::kResigned}) {
    if (ToString(s) == text) return s;
  }
  return std::nullopt;
}

std::string_view ToString(ResignPolicy policy) {
  switch (policy) {
    case ResignPolicy::kEndGame:
      return "end_game";
    case ResignPolicy::kBotTakesSeat:
      return "bot_takes_seat";
  }
  return "bot_takes_seat";
}

std::optional<ResignPolicy> ParseResignPolicy(std::string_view text) {
  for (ResignPolicy p : {ResignPolicy::kEndGame, ResignPolicy::kBotTakesSeat}) {
    if (ToString(p) == text) return p;
  }
  return std::nullopt;
}

std::string_view ToString(ClockKind kind) {
  switch (kind) {
    case ClockKind::kNone:
      return "none";
    case ClockKind::kLive:
      return "live";
    case ClockKind::kCorrespondence:
      return "correspondence";
  }
  return "none";
}

std::optional<ClockKind> ParseClockKind(std::string_view text) {
  for (ClockKind k : {ClockKind::kNone, ClockKind::kLive, ClockKind::kCorrespondence}) {
    if (ToString(k) == text) return k;
  }
  return std::nullopt;
}

std::string_view ToString(AbsentPolicy policy) {
  switch (policy) {
    case AbsentPolicy::kStandIn:
      return "stand_in";
    case AbsentPolicy::kForfeit:
      return "forfeit";
  }
  return "stand_in";
}

std::optional<AbsentPolicy> ParseAbsentPolicy(std::string_view text) {
  for (AbsentPolicy p : {AbsentPolicy::kStandIn, AbsentPolicy::kForfeit}) {
    if (ToString(p) == text) return p;
  }
  return std::nullopt;
}

bool NeverStarted(const GameRecord& game) {
  return game.status == GameStatus::kOpen ||
         (game.status == GameStatus::kAbandoned && game.order.empty());
}

std::string GameId(int64_t number) { return "g" + std::to_string(number); }

std::optional<int64_t> ParseGameId(std::string_view id) {
  if (id.size() < 2 || id.front() != 'g') return std::nullopt;
  int64_t number = 0;
  const auto [end, ec] = std::from_chars(id.data() + 1, id.data() + id.size(), number);
  if (ec != std::errc() || end != id.data() + id.size() || number <= 0) return std::nullopt;
  // One id per game: "g012" is not another name for "g12".
  if (id[1] == '0') return std::nullopt;
  return number;
}

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The statements of the write path, prepared once.
struct Store::Statements {
  Statement insert_game, insert_seat, delete_seat, delete_seats, start_game, last_sequence,
      insert_action, finish_game, mark_damaged, abandon_game, touch_game, resign_game, resign_seat,
      link_rematch, commit_draws, insert_chat, stand_in_seat, take_back_seat, mute_seats;
};

Store::Store(Connection db, std::string path, int version)
    : db_(std::make_unique<Connection>(std::move(db))),
      path_(std::move(path)),
      schema_version_(version) {}

Store::Store(Store&&) noexcept = default;
Store& Store::operator=(Store&&) noexcept = default;

Store::~Store() {
  statements_.reset();  // before the connection closes
}

Result<Store> Store::Open(const StoreOptions& options) {
  auto db = Connection::Open(options.path, options.create, options.vfs);
  if (!db) return Prefixed(db.error(), options.path);
  sqlite3_busy_timeout(db->raw(), options.busy_timeout_ms);
  if (options.synchronous != "full" && options.synchronous != "normal") {
    return StoreError{SQLITE_MISUSE, "synchronous must be full or normal"};
  }
  // A file that is not a game log, or is newer than this build, is refused before anything is
  // written to it: setting WAL mode below rewrites the header of a rollback-journal file.
  const auto found = ReadSchemaVersion(*db);
  if (!found) return Prefixed(found.error(), options.path);
  if (*found > kSchemaVersion) {
    auto refused = Migrate(*db, options.path);  // refuses it, without writing, with the message
    if (!refused) return refused.error();
  }
  if (options.path != ":memory:") {
    if (auto error = db->Exec("PRAGMA journal_mode = WAL")) return Prefixed(*error, options.path);
  }
  const std::string pragmas =
      "PRAGMA synchronous = " + options.synchronous + "; PRAGMA foreign_keys = ON;";
  if (auto error = db->Exec(pragmas)) return Prefixed(*error, options.path);
  auto migrated = Migrate(*db, options.path);
  if (!migrated) return migrated.error();
  (void)*migrated;
  return Store(std::move(*db), options.path, kSchemaVersion);
}

// ---------------------------------------------------------------------------------------------
// Writes

Status Store::ApplyOp(const WriteOp& op, int64_t now_ms) {
  Statements& s = *statements_;
  if (const auto* create = std::get_if<CreateGameOp>(&op)) {
    const GameRecord& g = create->game;
    if (g.number <= 0) return StoreError{SQLITE_CONSTRAINT, "game numbers start at 1"};
    return s.insert_game.Bind(1, g.number)
        .Bind(2, g.name)
        .Bind(3, g.rule_set)
        .Bind(4, g.tileset_id)
        .Bind(5, g.tileset_version)
        .Bind(6, g.seats)
        .Bind(7, AsStored(g.seed))
        .Bind(8, JoinOrder(g.order))
        .Bind(9, ToString(g.status))
        .Bind(10, g.created_ms ? g.created_ms : now_ms)
        .Bind(11, g.rule_set_version)
        .Bind(12, g.options)
        .Bind(13, ToString(g.on_resign))
        .Bind(14, g.rematch_of)
        .Bind(15, g.spectators_chat ? 1 : 0)
        .Bind(16, ToString(g.time_control.kind))
        .Bind(17, g.time_control.bank_ms)
        .Bind(18, g.time_control.increment_ms)
        .Bind(19, g.time_control.decision_ms)
        .Bind(20, g.time_control.grace_ms)
        .Bind(21, ToString(g.time_control.on_absent))
        .Run();
  }
  if (const auto* take = std::get_if<TakeSeatOp>(&op)) {
    s.insert_seat.Bind(1, take->game)
        .Bind(2, take->seat.seat)
        .Bind(3, take->seat.player_name)
        .BindBlob(4, take->seat.token_hash)
        .Bind(5, take->seat.bot)
        .Bind(6, take->seat.resigned ? 1 : 0)
        .Bind(7, take->seat.stand_in ? 1 : 0)
        .Bind(8, int64_t{take->seat.muted})
        .Bind(9, AsStored(take->seat.taken_back_after));
    return BindClock(s.insert_seat, 10, take->seat.taken_back_clock_ms).Run();
  }
  if (const auto* free = std::get_if<FreeSeatOp>(&op)) {
    return s.delete_seat.Bind(1, free->game).Bind(2, free->seat).Run();
  }
  if (const auto* start = std::get_if<StartGameOp>(&op)) {
    if (auto error = s.delete_seats.Bind(1, start->game).Run()) return error;
    for (const SeatRecord& seat : start->seats) {
      if (auto error = ApplyOp(TakeSeatOp{start->game, seat}, now_ms)) return error;
    }
    return s.start_game.Bind(1, static_cast<int64_t>(start->seats.size()))
        .Bind(2, JoinOrder(start->order))
        .Bind(3, now_ms)
        .Bind(4, start->game)
        .Run();
  }
  if (const auto* append = std::get_if<AppendActionsOp>(&op)) {
    // The log has no gaps: the first new action follows the last stored one.
    s.last_sequence.Bind(1, append->game);
    s.last_sequence.Step();
    const uint64_t last = FromStored(s.last_sequence.Int(0));
    auto error = s.last_sequence.error();
    s.last_sequence.Reset();
    if (error) return error;
    if (!append->actions.empty() && append->actions.front().sequence != last + 1) {
      return StoreError{SQLITE_CONSTRAINT, "action " +
                                               std::to_string(append->actions.front().sequence) +
                                               " does not follow " + std::to_string(last)};
    }
    for (const ActionRecord& a : append->actions) {
      s.insert_action.Bind(1, append->game)
          .Bind(2, AsStored(a.sequence))
          .Bind(3, a.seat)
          .Bind(4, a.action)
          .Bind(5, AsStored(a.state_hash))
          .Bind(6, a.time_ms ? a.time_ms : now_ms);
      if (auto e = BindClock(s.insert_action, 7, a.clock_ms).Run()) return e;
    }
    return std::nullopt;
  }
  // An update of a game that is not there is refused, not silently ignored.
  const auto one_game_changed = [this](Status status) -> Status {
    if (status) return status;
    if (sqlite3_changes(db_->raw()) != 1) return StoreError{SQLITE_CONSTRAINT, "no such game"};
    return std::nullopt;
  };
  // An update of a seat that does not apply (`refusal` says why) is refused.
  const auto changed_one_seat = [this](Status status, const std::string& refusal) -> Status {
    if (status) return status;
    if (sqlite3_changes(db_->raw()) != 1) return StoreError{SQLITE_CONSTRAINT, refusal};
    return std::nullopt;
  };
  const auto one_seat_changed = [&](Status status) -> Status {
    return changed_one_seat(std::move(status), "no such seat, or it resigned already");
  };
  if (const auto* finish = std::get_if<FinishGameOp>(&op)) {
    return one_game_changed(
        s.finish_game.Bind(1, finish->result).Bind(2, now_ms).Bind(3, finish->game).Run());
  }
  if (const auto* abandon = std::get_if<AbandonGameOp>(&op)) {
    return one_game_changed(s.abandon_game.Bind(1, now_ms).Bind(2, abandon->game).Run());
  }
  if (const auto* resign = std::get_if<ResignGameOp>(&op)) {
    if (auto error = one_game_changed(
            s.resign_game.Bind(1, resign->result).Bind(2, now_ms).Bind(3, resign->game).Run())) {
      return error;
    }
    return one_seat_changed(
        s.resign_seat.Bind(1, "").Bind(2, resign->game).Bind(3, resign->seat).Run());
  }
  if (const auto* resign = std::get_if<ResignSeatOp>(&op)) {
    return one_seat_changed(
        s.resign_seat.Bind(1, resign->bot).Bind(2, resign->game).Bind(3, resign->seat).Run());
  }
  if (const auto* stand_in = std::get_if<StandInSeatOp>(&op)) {
    if (stand_in->bot.empty()) return StoreError{SQLITE_CONSTRAINT, "a stand-in needs a bot"};
    return changed_one_seat(s.stand_in_seat.Bind(1, stand_in->bot)
                                .Bind(2, stand_in->game)
                                .Bind(3, stand_in->seat)
                                .Run(),
                            "seat " + std::to_string(stand_in->seat) +
                                " cannot get a stand-in: no such seat of a running game, or "
                                "a bot plays it, its player resigned, or it has a stand-in "
                                "already");
  }
  if (const auto* take_back = std::get_if<TakeBackSeatOp>(&op)) {
    s.take_back_seat.Bind(1, take_back->game)
        .Bind(2, take_back->seat)
        .Bind(3, AsStored(take_back->after_sequence));
    return changed_one_seat(
        BindClock(s.take_back_seat, 4, take_back->clock_ms).Run(),
        "seat " + std::to_string(take_back->seat) +
            " cannot be taken back: no such seat of a running game, or it has no stand-in");
  }
  if (const auto* mute = std::get_if<MuteSeatsOp>(&op)) {
    return changed_one_seat(
        s.mute_seats.Bind(1, int64_t{mute->muted}).Bind(2, mute->game).Bind(3, mute->seat).Run(),
        "seat " + std::to_string(mute->seat) + " cannot mute: no such seat is taken");
  }
  if (const auto* link = std::get_if<LinkRematchOp>(&op)) {
    // No row changed: the game left the log while the server held it (LinkRematchOp).
    return s.link_rematch.Bind(1, link->rematch).Bind(2, link->game).Run();
  }
  if (const auto* commit = std::get_if<CommitDrawsOp>(&op)) {
    return one_game_changed(s.commit_draws.Bind(1, commit->commitment)
                                .Bind(2, commit->proof)
                                .Bind(3, commit->game)
                                .Run());
  }
  if (const auto* chat = std::get_if<AppendChatOp>(&op)) {
    const ChatRecord& line = chat->line;
    return s.insert_chat.Bind(1, chat->game)
        .Bind(2, AsStored(line.number))
        .Bind(3, line.seat)
        .Bind(4, line.name)
        .Bind(5, line.text)
        .Bind(6, line.time_ms ? line.time_ms : now_ms)
        .Bind(7, AsStored(line.after_sequence))
        .Run();
  }
  const auto& damaged = std::get<MarkDamagedOp>(op);
  return one_game_changed(
      s.mark_damaged.Bind(1, damaged.reason).Bind(2, now_ms).Bind(3, damaged.game).Run());
}

Status Store::ApplyWrite(const Write& write, int64_t now_ms) {
  for (const WriteOp& op : write.ops) {
    if (auto error = ApplyOp(op, now_ms)) return Prefixed(*error, GameId(write.game));
  }
  return std::nullopt;
}

std::vector<Status> Store::ApplyBatch(const std::vector<Write>& writes) {
  std::vector<Status> results(writes.size());
  const auto fail_all = [&](const StoreError& error) {
    for (auto& r : results) r = error;
    return results;
  };
  if (!statements_) {
    auto statements = std::make_unique<Statements>();
    const std::pair<Statement*, const char*> sql[] = {
        {&statements->insert_game,
         "INSERT INTO games (number, name, rule_set, tileset_id, tileset_version, seats, seed, "
         "draw_order, status, created_ms, updated_ms, rule_set_version, options, on_resign, "
         "rematch_of, spectators_chat, clock_kind, clock_bank_ms, clock_increment_ms, "
         "clock_decision_ms, grace_ms, on_absent) "
         "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10, ?11, ?12, ?13, ?14, ?15, ?16, "
         "?17, ?18, ?19, ?20, ?21)"},
        {&statements->insert_seat,
         "INSERT INTO seats (game, seat, player_name, token_hash, bot, resigned, stand_in, muted, "
         "taken_back_after, taken_back_clock_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"},
        {&statements->delete_seat, "DELETE FROM seats WHERE game = ? AND seat = ?"},
        {&statements->delete_seats, "DELETE FROM seats WHERE game = ?"},
        {&statements->start_game,
         "UPDATE games SET status = 'running', seats = ?1, draw_order = ?2, updated_ms = ?3 "
         "WHERE number = ?4"},
        {&statements->last_sequence,
         "SELECT coalesce(max(sequence), 0) FROM actions WHERE game = ?"},
        {&statements->insert_action,
         "INSERT INTO actions (game, sequence, seat, action, state_hash, time_ms, clock_ms) "
         "VALUES (?, ?, ?, ?, ?, ?, ?)"},
        {&statements->finish_game,
         "UPDATE games SET status = 'finished', result = ?1, finished_ms = ?2, updated_ms = ?2 "
         "WHERE number = ?3"},
        {&statements->mark_damaged,
         "UPDATE games SET status = 'damaged', damage = ?1, finished_ms = ?2, updated_ms = ?2 "
         "WHERE number = ?3"},
        {&statements->abandon_game,
         "UPDATE games SET status = 'abandoned', finished_ms = ?1, updated_ms = ?1 "
         "WHERE number = ?2 AND status IN ('open', 'running')"},
        {&statements->touch_game, "UPDATE games SET updated_ms = ? WHERE number = ?"},
        {&statements->resign_game,
         "UPDATE games SET status = 'resigned', result = ?1, finished_ms = ?2, updated_ms = ?2 "
         "WHERE number = ?3 AND status = 'running'"},
        // A seat resigns once; `bot` is the level that plays it on (empty: the game ended). A
        // seat with a stand-in may resign too (its player forfeits): it has no stand-in any
        // more, and when the game ends the stand-in's bot leaves it.
        {&statements->resign_seat,
         "UPDATE seats SET resigned = 1, stand_in = 0, "
         "bot = CASE WHEN ?1 <> '' THEN ?1 WHEN stand_in = 1 THEN '' ELSE bot END "
         "WHERE game = ?2 AND seat = ?3 AND resigned = 0"},
        {&statements->link_rematch, "UPDATE games SET rematch = ?1 WHERE number = ?2"},
        {&statements->commit_draws,
         "UPDATE games SET draw_commitment = ?1, draw_proof = ?2 WHERE number = ?3"},
        {&statements->insert_chat,
         "INSERT INTO chat (game, number, seat, name, text, time_ms, after_sequence) "
         "VALUES (?, ?, ?, ?, ?, ?, ?)"},
        // Stand-ins come and go only in a running game: one comes to a seat a person still
        // holds (not a bot's, not resigned), and leaves when the player takes the seat back.
        {&statements->stand_in_seat,
         "UPDATE seats SET bot = ?1, stand_in = 1 WHERE game = ?2 AND seat = ?3 AND bot = '' "
         "AND resigned = 0 AND stand_in = 0 "
         "AND ?2 IN (SELECT number FROM games WHERE status = 'running')"},
        {&statements->take_back_seat,
         "UPDATE seats SET bot = '', stand_in = 0, taken_back_after = ?3, taken_back_clock_ms = ?4 "
         "WHERE game = ?1 AND seat = ?2 AND stand_in = 1 "
         "AND ?1 IN (SELECT number FROM games WHERE status = 'running')"},
        {&statements->mute_seats, "UPDATE seats SET muted = ?1 WHERE game = ?2 AND seat = ?3"},
    };
    for (const auto& [statement, text] : sql) {
      auto prepared = db_->Prepare(text);
      if (!prepared) return fail_all(prepared.error());
      *statement = std::move(*prepared);
    }
    statements_ = std::move(statements);
  }
  const int64_t now = NowMs();
  if (auto error = db_->Exec("BEGIN IMMEDIATE")) return fail_all(Prefixed(*error, "begin"));
  const auto abort_all = [&](const StoreError& error) {
    if (db_->InTransaction()) db_->Exec("ROLLBACK");
    return fail_all(error);
  };
  for (size_t i = 0; i < writes.size(); ++i) {
    if (auto error = db_->Exec("SAVEPOINT write")) return abort_all(*error);
    if (auto error = ApplyWrite(writes[i], now)) {
      if (EndsTransaction(*error) || !db_->InTransaction()) return abort_all(*error);
      if (auto e = db_->Exec("ROLLBACK TO write; RELEASE write")) return abort_all(*e);
      results[i] = error;
      continue;
    }
    if (auto error = db_->Exec("RELEASE write")) return abort_all(*error);
  }
  if (auto error = db_->Exec("COMMIT")) {
    abort_all(Prefixed(*error, "commit"));
    // When the sync of a commit fails, the batch's frames may be complete in the WAL though
    // this connection no longer sees them, and a restart would recover them. A small commit
    // written over them breaks the WAL's checksum chain after it, so they can never come back.
    // If that fails too (the disk is still failing), the next commit that succeeds does it.
    Seal();
    // A commit that reports an error may still have reached the disk (an fsync that failed
    // after the frames were written). What the file now holds is the truth: a write whose
    // actions are all there is reported committed.
    for (size_t i = 0; i < writes.size(); ++i) {
      if (writes[i].ops.empty()) continue;
      const auto* append = std::get_if<AppendActionsOp>(&writes[i].ops.back());
      if (!append || append->actions.empty()) continue;
      const auto last = LastSequence(append->game);
      if (last && *last == append->actions.back().sequence) results[i].reset();
    }
  }
  return results;
}

void Store::Seal() {
  // The version goes up and back down: SQLite writes no page for an update that changes nothing.
  const char* seal =
      "BEGIN IMMEDIATE; UPDATE schema_version SET version = version + 1; "
      "UPDATE schema_version SET version = version - 1; COMMIT";
  if (db_->Exec(seal) && db_->InTransaction()) db_->Exec("ROLLBACK");
}

// ---------------------------------------------------------------------------------------------
// Reads

Result<int64_t> Store::NextGameNumber() {
  // AUTOINCREMENT's record of the highest number ever stored outlives the game's deletion; the
  // setting holds what a restore carried over from the file it replaced.
  auto q = db_->Prepare(
      "SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'games'), 0) + 1, "
      "coalesce((SELECT max(number) FROM games), 0) + 1, "
      "coalesce((SELECT value FROM settings WHERE name = 'next_game_number'), 1))");
  if (!q) return q.error();
  q->Step();
  if (auto error = q->error()) return *error;
  return q->Int(0);
}

Status Store::RaiseNextGameNumber(int64_t next) {
  auto q = db_->Prepare(
      "INSERT INTO settings (name, value) VALUES ('next_game_number', ?1) "
      "ON CONFLICT (name) DO UPDATE SET value = max(value, excluded.value)");
  if (!q) return q.error();
  return q->Bind(1, next).Run();
}

Result<std::string> Store::ClaimShard(std::string_view shard) {
  auto claim = db_->Prepare("INSERT OR IGNORE INTO settings (name, value) VALUES ('shard', ?1)");
  if (!claim) return claim.error();
  if (auto error = claim->Bind(1, shard).Run()) return *error;
  auto stored = db_->Prepare("SELECT value FROM settings WHERE name = 'shard'");
  if (!stored) return stored.error();
  if (!stored->Step()) {
    if (auto error = stored->error()) return *error;
    return StoreError{SQLITE_CORRUPT, "the shard's name was stored but cannot be read back"};
  }
  return stored->Text(0);
}

Result<uint64_t> Store::LastSequence(int64_t game) {
  auto q = db_->Prepare("SELECT coalesce(max(sequence), 0) FROM actions WHERE game = ?");
  if (!q) return q.error();
  q->Bind(1, game).Step();
  if (auto error = q->error()) return *error;
  return FromStored(q->Int(0));
}

Result<std::vector<GameRecord>> Store::ListGames(const ListFilter& filter) {
  assert(!filter.limit || *filter.limit >= 0);
  const std::string selection = GameSelection(filter);
  auto q = db_->Prepare(std::string("SELECT ") + kGameColumns + selection);
  if (!q) return q.error();
  BindGameSelection(*q, filter);
  std::vector<GameRecord> games;
  std::map<int64_t, size_t> index;
  while (q->Step()) {
    index[q->Int(0)] = games.size();
    games.push_back(ReadGame(*q));
  }
  if (auto error = q->error()) return *error;
  // The seats of the listed games only: a short list of a long log reads few rows.
  auto seats = db_->Prepare(std::string("SELECT game, ") + kSeatColumns +
                            " FROM seats WHERE game IN (SELECT number" + selection +
                            ") ORDER BY game, seat");
  if (!seats) return seats.error();
  BindGameSelection(*seats, filter);
  while (seats->Step()) {
    const auto it = index.find(seats->Int(0));
    if (it != index.end()) games[it->second].seat_records.push_back(ReadSeat(*seats, 1));
  }
  if (auto error = seats->error()) return *error;
  return games;
}

Result<std::optional<StoredGame>> Store::LoadGame(int64_t number) {
  auto q = db_->Prepare(std::string("SELECT ") + kGameColumns + " FROM games WHERE number = ?");
  if (!q) return q.error();
  q->Bind(1, number);
  if (!q->Step()) {
    if (auto error = q->error()) return *error;
    return std::optional<StoredGame>();
  }
  StoredGame stored{ReadGame(*q), {}, {}};
  auto seats = db_->Prepare(std::string("SELECT ") + kSeatColumns +
                            " FROM seats WHERE game = ? ORDER BY seat");
  if (!seats) return seats.error();
  seats->Bind(1, number);
  while (seats->Step()) stored.game.seat_records.push_back(ReadSeat(*seats, 0));
  if (auto error = seats->error()) return *error;
  auto actions = db_->Prepare(std::string("SELECT ") + kActionColumns +
                              " FROM actions WHERE game = ? ORDER BY sequence");
  if (!actions) return actions.error();
  actions->Bind(1, number);
  while (actions->Step()) stored.actions.push_back(ReadAction(*actions, 0));
  if (auto error = actions->error()) return *error;
  auto chat = db_->Prepare(std::string("SELECT ") + kChatColumns +
                           " FROM chat WHERE game = ? ORDER BY number");
  if (!chat) return chat.error();
  chat->Bind(1, number);
  while (chat->Step()) stored.chat.push_back(ReadChat(*chat, 0));
  if (auto error = chat->error()) return *error;
  return std::optional<StoredGame>(std::move(stored));
}

// Two ways to read the running games' actions. Through the (game, sequence) index, each row is
// a lookup in the table, whose pages the games that were played at the same time share: about
// 2 µs a row. A scan of the whole table reads each page once, about four times faster a row, but
// reads the ended games' rows too.
constexpr const char* kRunningActionsByIndex =
    "SELECT a.game, a.sequence, a.seat, a.action, a.state_hash, a.time_ms, a.clock_ms FROM "
    "games g CROSS JOIN actions a ON a.game = g.number WHERE g.status = 'running' "
    "ORDER BY g.status, g.finished_ms, g.number, a.sequence";  // the indexes' order: no sort
// (Every row: the rows of games that are not running are skipped as they are read.)
constexpr const char* kRunningActionsByScan =
    "SELECT game, sequence, seat, action, state_hash, time_ms, clock_ms FROM actions NOT INDEXED";

// Whether the unfinished games are a quarter of the log's games or more: then their actions are
// likely enough of the table's rows that a scan reads them faster than the index.
Result<bool> Store::RunningActionsAreMostOfTheLog() {
  auto q = db_->Prepare(
      "SELECT (SELECT count(*) FROM games WHERE status = 'running'), (SELECT count(*) FROM games)");
  if (!q) return q.error();
  q->Step();
  if (auto error = q->error()) return *error;
  return q->Int(0) * 4 >= q->Int(1) && q->Int(0) > 0;
}

Result<std::vector<StoredGame>> Store::LoadUnfinished() {
  std::vector<StoredGame> games;
  std::unordered_map<int64_t, size_t> index;  // a game's number -> its place in `games`
  for (GameStatus status : {GameStatus::kOpen, GameStatus::kRunning}) {
    auto listed = ListGames(ListFilter{status, std::nullopt});
    if (!listed) return listed.error();
    for (GameRecord& g : *listed) {
      index[g.number] = games.size();
      games.push_back(StoredGame{std::move(g), {}, {}});
    }
  }
  auto scan = RunningActionsAreMostOfTheLog();
  if (!scan) return scan.error();
  auto actions = db_->Prepare(*scan ? kRunningActionsByScan : kRunningActionsByIndex);
  if (!actions) return actions.error();
  while (actions->Step()) {
    const auto it = index.find(actions->Int(0));
    if (it != index.end()) games[it->second].actions.push_back(ReadAction(*actions, 1));
  }
  if (auto error = actions->error()) return *error;
  // The scan reads in storage order, which is each game's order of appending, so its sequence
  // order; sorted all the same, should a file from elsewhere not keep it.
  for (StoredGame& g : games) {
    const auto by_sequence = [](const ActionRecord& a, const ActionRecord& b) {
      return a.sequence < b.sequence;
    };
    if (!std::is_sorted(g.actions.begin(), g.actions.end(), by_sequence)) {
      std::sort(g.actions.begin(), g.actions.end(), by_sequence);
    }
  }
  auto chat = db_->Prepare(
      "SELECT c.game, c.number, c.seat, c.name, c.text, c.time_ms, c.after_sequence FROM chat c "
      "JOIN games g ON g.number = c.game WHERE g.status IN ('open', 'running') "
      "ORDER BY c.game, c.number");
  if (!chat) return chat.error();
  while (chat->Step()) {
    const auto it = index.find(chat->Int(0));
    if (it != index.end()) games[it->second].chat.push_back(ReadChat(*chat, 1));
  }
  if (auto error = chat->error()) return *error;
  return games;
}

// ---------------------------------------------------------------------------------------------
// Housekeeping

Result<HousekeepingReport> Store::Expire(int64_t before_ms, const std::string& archive_path) {
  if (!archive_path.empty()) {
    // Creates the archive (or upgrades it) with the same schema, through its own connection.
    StoreOptions options;
    options.path = archive_path;
    auto archive = Store::Open(options);
    if (!archive) return archive.error();
    auto q = db_->Prepare("ATTACH DATABASE ? AS archive");
    if (!q) return q.error();
    if (auto error = q->Bind(1, archive_path).Run()) return Prefixed(*error, archive_path);
  }
  const auto detach = [&] {
    if (!archive_path.empty()) db_->Exec("DETACH DATABASE archive");
  };
  const std::string expired =
      "(SELECT number FROM main.games WHERE status IN ('finished', 'damaged', 'abandoned', "
      "'resigned') "
      "AND finished_ms > 0 "
      "AND finished_ms < " +
      std::to_string(before_ms) + ")";
  std::string sql = "BEGIN IMMEDIATE;";
  if (!archive_path.empty()) {
    sql += "DELETE FROM archive.actions WHERE game IN " + expired + ";";
    sql += "DELETE FROM archive.seats WHERE game IN " + expired + ";";
    sql += "DELETE FROM archive.chat WHERE game IN " + expired + ";";
    sql += "INSERT OR REPLACE INTO archive.games (" + std::string(kGameColumns) + ") SELECT " +
           kGameColumns + " FROM main.games WHERE number IN " + expired + ";";
    sql += "INSERT INTO archive.seats SELECT * FROM main.seats WHERE game IN " + expired + ";";
    sql += std::string("INSERT INTO archive.actions (game, ") + kActionColumns + ") SELECT game, " +
           kActionColumns + " FROM main.actions WHERE game IN " + expired +
           " ORDER BY game, sequence;";
    sql += "INSERT INTO archive.chat SELECT * FROM main.chat WHERE game IN " + expired + ";";
  }
  auto count = db_->Prepare("SELECT (SELECT count(*) FROM " + expired +
                            "), (SELECT count(*) FROM main.actions WHERE game IN " + expired + ")");
  if (!count) {
    detach();
    return count.error();
  }
  count->Step();
  if (auto error = count->error()) {
    detach();
    return *error;
  }
  HousekeepingReport report{static_cast<int>(count->Int(0)), static_cast<int>(count->Int(1))};
  count = Statement();
  // In WAL mode a commit that spans attached files is atomic per file only: a crash in it could
  // leave the games deleted here and missing from the archive. So the copy commits before the
  // delete; after a crash between them the games are in both files, and expiring again copies
  // them over themselves.
  if (!archive_path.empty()) sql += "COMMIT; BEGIN IMMEDIATE;";
  sql += "DELETE FROM main.games WHERE number IN " + expired + "; COMMIT;";
  if (auto error = db_->Exec(sql)) {
    if (db_->InTransaction()) db_->Exec("ROLLBACK");
    detach();
    return Prefixed(*error, "expire");
  }
  detach();
  return report;
}

Result<HousekeepingReport> Store::DeleteGame(int64_t number) {
  auto q = db_->Prepare("SELECT count(*) FROM actions WHERE game = ?");
  if (!q) return q.error();
  q->Bind(1, number).Step();
  const int actions = static_cast<int>(q->Int(0));
  auto d = db_->Prepare("DELETE FROM games WHERE number = ?");
  if (!d) return d.error();
  if (auto error = d->Bind(1, number).Run()) return *error;
  const int games = sqlite3_changes(db_->raw());
  return HousekeepingReport{games, games ? actions : 0};
}

Status Store::Backup(const std::string& destination) {
  auto target = Connection::Open(destination, true);
  if (!target) return Prefixed(target.error(), destination);
  sqlite3_backup* backup = sqlite3_backup_init(target->raw(), "main", db_->raw(), "main");
  if (!backup) return target->LastError("backup to " + destination);
  // All pages in one step: one read snapshot of the source; in WAL mode writers are not held up.
  const int rc = sqlite3_backup_step(backup, -1);
  sqlite3_backup_finish(backup);
  if (rc != SQLITE_DONE) {
    return StoreError{rc, "backup to " + destination + ": " + std::string(sqlite3_errstr(rc))};
  }
  return std::nullopt;
}

Status Store::CheckIntegrity() {
  auto q = db_->Prepare("PRAGMA integrity_check");
  if (!q) return q.error();
  std::string problems;
  while (q->Step()) {
    const std::string line = q->Text(0);
    if (line != "ok") problems += (problems.empty() ? "" : "; ") + line;
  }
  if (auto error = q->error()) return *error;
  if (!problems.empty()) return StoreError{SQLITE_CORRUPT, problems};
  return std::nullopt;
}

}  // namespace carc::persistence
