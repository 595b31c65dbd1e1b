#include "room/room.h"

#include <spdlog/spdlog.h>
#include <sys/random.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "persistence/replay.h"
#include "persistence/token.h"
#include "room/draw_commitment.h"

namespace carc::server {
namespace {

Bytes Encode(const wire::ServerMessage& message) {
  auto bytes = std::make_shared<std::string>();
  const bool ok = message.SerializeToString(bytes.get());
  assert(ok && "a message the server builds always encodes");
  (void)ok;
  return bytes;
}

// A visitor made of one lambda per alternative.
template <typename... Handlers>
struct Overloaded : Handlers... {
  using Handlers::operator()...;
};
template <typename... Handlers>
Overloaded(Handlers...) -> Overloaded<Handlers...>;

}  // namespace

SeatToken OsRandomToken() {
  SeatToken token{};
  size_t filled = 0;
  while (filled < token.size()) {
    const ssize_t n = getrandom(token.data() + filled, token.size() - filled, 0);
    if (n > 0) {
      filled += static_cast<size_t>(n);
    } else if (errno != EINTR) {
      // Without the OS's randomness no seat can be protected: stopping is the only safe answer.
      std::fputs("carc: getrandom failed; cannot make seat tokens\n", stderr);
      std::abort();
    }
  }
  return token;
}

wire::Delta MakeDelta(const std::string& game_id, uint64_t sequence, int seat,
                      protocol::EncodedStep step, uint64_t state_hash) {
  wire::Delta delta;
  delta.set_game_id(game_id);
  delta.set_sequence(sequence);
  delta.set_seat(static_cast<uint32_t>(seat));
  delta.set_action(std::move(step.action));
  for (std::string& e : step.events) delta.add_events(std::move(e));
  delta.set_state_hash(state_hash);
  return delta;
}

RoomGame DefaultRoomGame(std::shared_ptr<const core::RuleSet> rules) {
  const protocol::GameCodec* codec = protocol::FindGameCodec(rules->Type().id);
  assert(codec != nullptr && "every rule set the server hosts has a codec");
  auto options = rules->CompleteOptions({});
  assert(std::holds_alternative<core::Options>(options));
  return RoomGame{std::move(rules), codec, std::get<core::Options>(std::move(options))};
}

Room::Room(RoomOptions options, RoomGame game, TokenSource tokens, persistence::GameLog& log)
    : options_(std::move(options)),
      id_(PublicGameId(options_.shard, options_.number)),
      game_type_(std::move(game)),
      codec_(*game_type_.codec),
      tokens_(std::move(tokens)),
      log_(log),
      seats_(static_cast<size_t>(options_.seats)),
      clock_(options_.clock ? options_.clock : SteadyClockMs()),
      chat_(clock_) {
  assert(game_type_.codec->RuleSetId() == game_type_.rules->Type().id);
  assert(options_.seats >= game_type_.rules->Type().min_players &&
         options_.seats <= game_type_.rules->Type().max_players);
  for (const BotSeatOption& bot : options_.bots) {
    Seat& seat = seats_.at(static_cast<size_t>(bot.seat));
    seat.taken = true;
    seat.player_name = BotPlayerName(bot.level);
    seat.bot = NewSeatBot(bot.level);
    seat.token_hash = seat.bot->token_hash;
  }
}

void Room::Handle(const std::shared_ptr<Peer>& peer, const wire::ClientMessage& message) {
  const std::optional<RoomRequest> request = RoomRequestOf(message);
  if (!request) return;
  const uint64_t id = message.request_id();
  std::visit(Overloaded{
                 [&](const wire::JoinSeat* join) { Join(peer, id, *join); },
                 [&](const wire::LeaveSeat* leave) { Leave(peer, id, *leave); },
                 [&](const wire::StartGame* start) { Start(peer, id, *start); },
                 [&](const wire::Spectate* /*spectate*/) { Spectate(peer, id); },
                 [&](const wire::Resume* resume) { Resume(peer, id, *resume); },
                 [&](const wire::Move* move) { Move(peer, id, *move); },
                 [&](const wire::Resign* resign) { Resign(peer, id, *resign); },
                 [&](const wire::Rematch* rematch) { Rematch(peer, id, *rematch); },
                 [&](const wire::SendChat* send) { SendChat(peer, id, *send); },
                 [&](const wire::MuteSeat* mute) { MuteSeat(peer, id, *mute); },
             },
             *request);
}

// ---------------------------------------------------------------------------------------------
// The log: one write at a time; requests wait while it is in flight.

bool Room::Deferred(const std::shared_ptr<Peer>& peer, uint64_t request_id,
                    std::function<void()> retry) {
  if (!writing_) return false;
  if (peer && waiting_.size() >= options_.max_waiting) {
    Error(*peer, request_id, wire::ERROR_CODE_BUSY, "too many requests wait for this game");
    return true;
  }
  waiting_.push_back(std::move(retry));
  return true;
}

void Room::Write(std::vector<persistence::WriteOp> ops,
                 std::function<void(persistence::Status)> then) {
  assert(!writing_ && "one write at a time");
  writing_ = true;
  // The log may answer at once (tests) or later on this room's strand (the server).
  log_.Submit(persistence::Write{options_.number, std::move(ops)},
              [this, then = std::move(then)](persistence::Status status) {
                writing_ = false;
                // Every failure is logged here, with its cause, whether or not a client hears
                // of it: many writes (a bot's move, a rematch, an abandon) have nobody to tell.
                if (status) {
                  spdlog::error("game {}: the log could not be written: {}", id_, status->message);
                } else {
                  last_activity_ms_ = persistence::NowMs();
                }
                then(std::move(status));
                RunWaiting();
              });
}

void Room::RunWaiting() {
  while (!writing_ && !waiting_.empty()) {
    auto next = std::move(waiting_.front());
    waiting_.pop_front();
    next();
  }
}

void Room::Emit(RoomEvent event) {
  if (on_event) on_event(event);
}

bool Room::RefusedUnlessOpen(Peer& peer, uint64_t request_id) {
  if (status_ == wire::GAME_STATUS_OPEN) return false;
  if (status_ == wire::GAME_STATUS_ABANDONED) {
    Error(peer, request_id, wire::ERROR_CODE_GAME_NOT_RUNNING, "the game was abandoned");
  } else {
    Error(peer, request_id, wire::ERROR_CODE_GAME_STARTED, "the game has started");
  }
  return true;
}

void Room::StorageFailed(Peer& peer, uint64_t request_id) {
  Error(peer, request_id, wire::ERROR_CODE_STORAGE_FAILED,
        "the server could not save this, so nothing changed; try again");
}

// ---------------------------------------------------------------------------------------------
// Messages

void Room::Reply(Peer& peer, uint64_t request_id, wire::ServerMessage message) {
  message.set_request_id(request_id);
  peer.Send(Encode(message));
}

void Room::Error(Peer& peer, uint64_t request_id, wire::ErrorCode code, const std::string& reason) {
  wire::ServerMessage message;
  message.mutable_error()->set_code(code);
  message.mutable_error()->set_reason(reason);
  Reply(peer, request_id, std::move(message));
}

void Room::MoveSeatTo(int seat, const std::shared_ptr<Peer>& peer) {
  StopSpectating(*peer);
  Seat& s = seats_[static_cast<size_t>(seat)];
  if (const auto previous = s.peer.lock(); previous && previous != peer) {
    wire::ServerMessage moved;
    moved.mutable_seat_moved()->set_game_id(id_);
    moved.mutable_seat_moved()->set_seat(static_cast<uint32_t>(seat));
    previous->Send(Encode(moved));
  }
  s.peer = peer;
}

// A token proves its seat: the connection that sends it is that seat's from now on (it gets the
// seat's replies and deltas), and the others see the seat online.
void Room::AttachSeat(int seat, const std::shared_ptr<Peer>& peer) {
  Seat& s = seats_[static_cast<size_t>(seat)];
  if (s.peer.lock() == peer && s.online) return;
  MoveSeatTo(seat, peer);
  if (!s.online) {
    s.online = true;
    SendSeatStatus(seat);
    Returned(seat);
  }
}

void Room::Reject(Peer& peer, uint64_t request_id, wire::ErrorCode code,
                  const std::string& reason) {
  spdlog::info("game {}: move rejected: {} ({})", id_, wire::ErrorCode_Name(code), reason);
  if (metrics != nullptr) metrics->MoveRefused(code);
  Error(peer, request_id, code, reason);
}

void Room::RejectRule(Peer& peer, uint64_t request_id, const core::RuleError& error) {
  spdlog::info("game {}: move refused by the rules: {} ({})", id_, error.code, error.message);
  if (metrics != nullptr) metrics->MoveRefused(wire::ERROR_CODE_RULE_REFUSED);
  wire::ServerMessage message;
  message.mutable_error()->set_code(wire::ERROR_CODE_RULE_REFUSED);
  message.mutable_error()->set_reason(error.message);
  message.mutable_error()->set_rule_error(error.code);
  Reply(peer, request_id, std::move(message));
}

void Room::Broadcast(const wire::ServerMessage& message, const Peer* except) {
  const Bytes bytes = Encode(message);
  for (const Seat& seat : seats_) {
    if (auto peer = seat.peer.lock(); peer && peer.get() != except) peer->Send(bytes);
  }
  for (const auto& weak : spectators_) {
    if (auto peer = weak.lock(); peer && peer.get() != except) peer->Send(bytes);
  }
}

wire::GameInfo Room::Info() const {
  wire::GameInfo info;
  info.set_game_id(id_);
  info.set_name(options_.name);
  const core::GameType& type = game_type_.rules->Type();
  info.set_rule_set(type.id);
  info.set_rule_set_version(static_cast<uint32_t>(type.version));
  for (const auto& [name, value] : game_type_.options) (*info.mutable_options())[name] = value;
  info.set_seats(static_cast<uint32_t>(options_.seats));
  for (size_t i = 0; i < seats_.size(); ++i) {
    wire::SeatInfo* s = info.add_seat();
    s->set_seat(static_cast<uint32_t>(i));
    s->set_taken(seats_[i].taken);
    s->set_player_name(seats_[i].player_name);
    s->set_online(seats_[i].online);
    if (seats_[i].bot) s->set_bot(std::string(bots::ToString(seats_[i].bot->level)));
    s->set_resigned(seats_[i].resigned);
    s->set_stand_in(seats_[i].stand_in);
  }
  info.set_status(status_);
  if (options_.rematch_of > 0)
    info.set_rematch_of(PublicGameId(options_.shard, options_.rematch_of));
  info.set_rematch(rematch_);
  info.set_on_resign(ToProto(options_.on_resign));
  uint32_t spectators = 0;
  for (const auto& weak : spectators_) spectators += weak.expired() ? 0 : 1;
  info.set_spectators(spectators);
  AddDrawFields(draws_.commitment, draws_.proof, status_, &info);
  info.set_spectators_chat(options_.spectators_chat);
  *info.mutable_time_control() = ToProto(options_.time_control);
  return info;
}

void Room::SendLobbyUpdate() {
  wire::ServerMessage message;
  *message.mutable_lobby_update()->mutable_game() = Info();
  Broadcast(message);
}

void Room::SendSeatStatus(int seat) {
  wire::ServerMessage message;
  wire::SeatStatus* status = message.mutable_seat_status();
  status->set_game_id(id_);
  status->set_seat(static_cast<uint32_t>(seat));
  status->set_online(seats_[static_cast<size_t>(seat)].online);
  Broadcast(message);
}

std::optional<int> Room::SeatOf(const std::string& token) const {
  const persistence::TokenHash hash = persistence::HashToken(token);
  for (size_t i = 0; i < seats_.size(); ++i) {
    const Seat& seat = seats_[i];
    if (!seat.taken) continue;
    if (persistence::SameHash(seat.token_hash, hash) ||
        (seat.bot && persistence::SameHash(seat.bot->token_hash, hash))) {
      return static_cast<int>(i);
    }
  }
  return std::nullopt;
}

std::optional<int> Room::DecidingSeat() const {
  if (!game_ || status_ != wire::GAME_STATUS_RUNNING) return std::nullopt;
  const core::Actor actor = game_->CurrentActor();
  if (actor < 0) return std::nullopt;
  return actor;  // seats are compacted at the start: seat i is engine player i
}

void Room::AddLegalActions(int seat, google::protobuf::RepeatedPtrField<std::string>* out) const {
  if (DecidingSeat() != seat || seats_[static_cast<size_t>(seat)].bot) return;
  for (std::string& a : codec_.EncodeLegalActions(*game_)) out->Add(std::move(a));
}

wire::Snapshot Room::SnapshotFor(std::optional<int> seat) const {
  wire::Snapshot snapshot;
  snapshot.set_game_id(id_);
  snapshot.set_sequence(Sequence());
  snapshot.set_state(codec_.EncodeState(*game_));
  snapshot.set_state_hash(game_->Hash());
  snapshot.set_rule_set(game_type_.rules->Type().id);
  if (seat) {
    snapshot.set_your_seat(static_cast<uint32_t>(*seat));
    AddLegalActions(*seat, snapshot.mutable_legal_actions());
  }
  chat_.AddRecent(seat, snapshot.mutable_recent_chat());
  if (clocks_.enabled()) *snapshot.mutable_clocks() = clocks_.Message(id_, Sequence(), clock_());
  return snapshot;
}

// ---------------------------------------------------------------------------------------------
// Lobby

void Room::Create(const std::shared_ptr<Peer>& peer, uint64_t request_id) {
  persistence::GameRecord record;
  record.number = options_.number;
  record.name = options_.name;
  const core::GameType& type = game_type_.rules->Type();
  record.rule_set = type.id;
  record.rule_set_version = type.version;
  record.options = core::FormatOptions(game_type_.options);
  record.tileset_id = game_type_.rules->Tiles().id();
  record.tileset_version = game_type_.rules->Tiles().version();
  record.seats = options_.seats;
  record.seed = options_.seed;
  record.on_resign = options_.on_resign;
  record.rematch_of = options_.rematch_of;
  record.spectators_chat = options_.spectators_chat;
  record.time_control = options_.time_control;
  std::vector<persistence::WriteOp> ops = {persistence::CreateGameOp{record}};
  for (const BotSeatOption& bot : options_.bots) {
    ops.emplace_back(persistence::TakeSeatOp{
        options_.number, RecordOf(bot.seat, seats_[static_cast<size_t>(bot.seat)])});
  }
  if (options_.rematch_of > 0) {
    ops.emplace_back(persistence::LinkRematchOp{options_.rematch_of, options_.number});
  }
  // A rematch is created for no connection: its players are seated once it exists.
  Write(std::move(ops), [this, peer, request_id](const persistence::Status& status) {
    if (status) {
      if (peer) StorageFailed(*peer, request_id);
      return Emit(RoomEvent::kCreateFailed);
    }
    if (!peer) return Emit(RoomEvent::kCreated);
    wire::ServerMessage reply;
    *reply.mutable_game_created()->mutable_game() = Info();
    Reply(*peer, request_id, std::move(reply));
    Emit(RoomEvent::kCreated);
  });
}

void Room::Join(const std::shared_ptr<Peer>& peer, uint64_t request_id,
                const wire::JoinSeat& join) {
  if (Deferred(peer, request_id, [=, this] { Join(peer, request_id, join); })) return;
  if (RefusedUnlessOpen(*peer, request_id)) return;
  int chosen = -1;
  if (join.has_seat()) {
    if (join.seat() >= seats_.size()) {
      return Error(*peer, request_id, wire::ERROR_CODE_BAD_SEAT_COUNT, "the game has no such seat");
    }
    chosen = static_cast<int>(join.seat());
    if (seats_[join.seat()].taken) {
      return Error(*peer, request_id, wire::ERROR_CODE_SEAT_TAKEN, "that seat is taken");
    }
  } else {
    for (size_t i = 0; i < seats_.size() && chosen < 0; ++i) {
      if (!seats_[i].taken) chosen = static_cast<int>(i);
    }
    if (chosen < 0)
      return Error(*peer, request_id, wire::ERROR_CODE_GAME_FULL, "every seat is taken");
  }
  TakeSeat(peer, request_id, chosen, join.player_name());
}

// The token exists only in this function and in the reply: the room and the log keep its hash.
// The join that takes the last seat starts the game in the same write, so the log never holds a
// full game that has not started; if that write fails, the seat stays free and the game open.
void Room::TakeSeat(const std::shared_ptr<Peer>& peer, uint64_t request_id, int seat,
                    const std::string& player_name) {
  const SeatToken token = tokens_();
  std::string token_bytes(token.begin(), token.end());
  const persistence::SeatRecord record{seat, player_name, persistence::HashToken(token_bytes)};
  std::vector<persistence::WriteOp> ops = {persistence::TakeSeatOp{options_.number, record}};
  // Shared, not owned: a write's callback is copyable.
  std::shared_ptr<StartPlan> start;
  if (FullWith(seat)) {
    std::vector<Seat> seats = seats_;
    seats[static_cast<size_t>(seat)] = Seat{true, player_name, record.token_hash, {}, false};
    start = std::make_shared<StartPlan>(BuildStart(seats, &ops));
  }
  Write(std::move(ops), [this, peer, request_id, record, token_bytes,
                         start = std::move(start)](const persistence::Status& status) {
    if (status) return StorageFailed(*peer, request_id);
    StopSpectating(*peer);
    seats_[static_cast<size_t>(record.seat)] =
        Seat{true, record.player_name, record.token_hash, peer, true};
    wire::ServerMessage reply;
    wire::SeatJoined* joined = reply.mutable_seat_joined();
    *joined->mutable_game() = Info();
    joined->set_seat(static_cast<uint32_t>(record.seat));
    joined->set_seat_token(token_bytes);
    Reply(*peer, request_id, std::move(reply));
    wire::ServerMessage update;
    *update.mutable_lobby_update()->mutable_game() = Info();
    Broadcast(update, peer.get());
    if (start) ApplyStart(std::move(*start), nullptr, 0);
  });
}

bool Room::FullWith(int seat) const {
  for (size_t i = 0; i < seats_.size(); ++i) {
    if (!seats_[i].taken && static_cast<int>(i) != seat) return false;
  }
  return true;
}

void Room::Leave(const std::shared_ptr<Peer>& peer, uint64_t request_id,
                 const wire::LeaveSeat& leave) {
  if (Deferred(peer, request_id, [=, this] { Leave(peer, request_id, leave); })) return;
  if (RefusedUnlessOpen(*peer, request_id)) return;
  const auto seat = SeatOf(leave.seat_token());
  if (!seat) return Error(*peer, request_id, wire::ERROR_CODE_BAD_TOKEN, "no seat has that token");
  Write({persistence::FreeSeatOp{options_.number, *seat}},
        [this, peer, request_id, seat = *seat](const persistence::Status& status) {
          if (status) return StorageFailed(*peer, request_id);
          seats_[static_cast<size_t>(seat)] = Seat{};
          chat_.SetMutes(seat, 0);  // the seat's row, and its mutes, left the log with it
          wire::ServerMessage reply;
          *reply.mutable_lobby_update()->mutable_game() = Info();
          Reply(*peer, request_id, reply);
          Broadcast(reply, peer.get());
        });
}

void Room::Start(const std::shared_ptr<Peer>& peer, uint64_t request_id,
                 const wire::StartGame& start) {
  if (Deferred(peer, request_id, [=, this] { Start(peer, request_id, start); })) return;
  if (RefusedUnlessOpen(*peer, request_id)) return;
  const auto seat = SeatOf(start.seat_token());
  if (!seat) return Error(*peer, request_id, wire::ERROR_CODE_BAD_TOKEN, "no seat has that token");
  if (*seat != 0) {
    return Error(*peer, request_id, wire::ERROR_CODE_NOT_CREATOR, "only seat 0 may start the game");
  }
  const auto taken =
      std::count_if(seats_.begin(), seats_.end(), [](const Seat& s) { return s.taken; });
  if (taken < 2) {
    return Error(*peer, request_id, wire::ERROR_CODE_BAD_SEAT_COUNT, "two players at least");
  }
  AttachSeat(0, peer);
  StartGame(peer, request_id);
}

// Seats left empty by an early start are dropped: the engine's players are the taken seats, in
// seat order, and the mutes set before are cleared (ApplyStart). The start and the first tile
// draws are written together.
Room::StartPlan Room::BuildStart(const std::vector<Seat>& seats,
                                 std::vector<persistence::WriteOp>* ops) const {
  const bool renumbered =
      !std::all_of(seats.begin(), seats.end(), [](const Seat& s) { return s.taken; });
  std::vector<persistence::SeatRecord> records;
  for (size_t i = 0; i < seats.size(); ++i) {
    if (!seats[i].taken) continue;
    persistence::SeatRecord record = RecordOf(static_cast<int>(records.size()), seats[i]);
    if (!renumbered) record.muted = chat_.MutesOf(static_cast<int>(i));
    records.push_back(std::move(record));
  }
  auto created = game_type_.rules->NewGame(static_cast<int>(records.size()), game_type_.options,
                                           options_.seed);
  assert(std::holds_alternative<std::unique_ptr<core::State>>(created) &&
         "the room's player counts and options are its rule set's");
  auto game = std::get<std::unique_ptr<core::State>>(std::move(created));
  std::vector<int> order = game->Order();
  StartPlan plan{
      order, std::move(game), {}, CommitToStart(game_type_.rules->Type(), options_.seed, order)};
  StageChanceDraws(*plan.game, &plan.staged);
  ops->emplace_back(
      persistence::StartGameOp{options_.number, std::move(records), std::move(order)});
  ops->emplace_back(
      persistence::CommitDrawsOp{options_.number, plan.draws.commitment, plan.draws.proof});
  for (auto& op : LogOps(*plan.game, plan.staged)) ops->push_back(std::move(op));
  return plan;
}

// Called once the start is committed, with seats_ holding exactly the seats it was built from.
void Room::ApplyStart(StartPlan plan, const std::shared_ptr<Peer>& starter, uint64_t request_id) {
  std::vector<Seat> taken;
  for (Seat& s : seats_) {
    if (s.taken) taken.push_back(std::move(s));
  }
  assert(static_cast<int>(taken.size()) == plan.game->Players() &&
         "the seats the start was built from");
  if (taken.size() != seats_.size()) chat_.ClearMutes();  // the seats are numbered again
  seats_ = std::move(taken);
  options_.seats = static_cast<int>(seats_.size());
  draws_ = std::move(plan.draws);
  order_ = std::move(plan.order);
  game_ = std::move(plan.game);
  status_ = wire::GAME_STATUS_RUNNING;
  clocks_ = SeatClocks(options_.time_control, options_.seats);
  StartGraceForAbsent();
  PublishStart(starter, request_id);
  Publish(std::move(plan.staged), nullptr, 0);
  Emit(RoomEvent::kStarted);
}

void Room::StartGame(const std::shared_ptr<Peer>& starter, uint64_t request_id) {
  std::vector<persistence::WriteOp> ops;
  auto plan = std::make_shared<StartPlan>(BuildStart(seats_, &ops));
  Write(std::move(ops), [this, starter, request_id, plan](const persistence::Status& status) {
    if (status) {
      if (starter) StorageFailed(*starter, request_id);
      return;
    }
    ApplyStart(std::move(*plan), starter, request_id);
  });
}

// Everybody gets the state before the first draw as a snapshot (the starter's is its reply);
// the draws follow as deltas, like every later action.
void Room::PublishStart(const std::shared_ptr<Peer>& starter, uint64_t request_id) {
  auto created = game_type_.rules->NewGameWithOrder(game_->Players(), game_type_.options,
                                                    options_.seed, order_);
  const core::State& initial = *std::get<std::unique_ptr<core::State>>(created);
  wire::ServerMessage message;
  wire::Snapshot* snapshot = message.mutable_snapshot();
  snapshot->set_game_id(id_);
  snapshot->set_sequence(0);
  snapshot->set_state(codec_.EncodeState(initial));
  snapshot->set_state_hash(initial.Hash());
  snapshot->set_rule_set(game_type_.rules->Type().id);
  chat_.AddRecent(std::nullopt, snapshot->mutable_recent_chat());
  for (const auto& weak : spectators_) {
    if (auto peer = weak.lock()) peer->Send(Encode(message));
  }
  for (size_t i = 0; i < seats_.size(); ++i) {
    if (auto peer = seats_[i].peer.lock()) {
      snapshot->clear_recent_chat();
      chat_.AddRecent(static_cast<int>(i), snapshot->mutable_recent_chat());
      snapshot->set_your_seat(static_cast<uint32_t>(i));
      message.set_request_id(peer == starter ? request_id : 0);
      peer->Send(Encode(message));
    }
  }
}

void Room::Spectate(const std::shared_ptr<Peer>& peer, uint64_t request_id) {
  if (Deferred(peer, request_id, [=, this] { Spectate(peer, request_id); })) return;
  // Asking again (to recover a lost state) must not double what this connection receives.
  const bool watching = std::any_of(spectators_.begin(), spectators_.end(),
                                    [&](const std::weak_ptr<Peer>& w) { return w.lock() == peer; });
  if (!watching) spectators_.push_back(peer);
  wire::ServerMessage reply;
  if (game_) {
    *reply.mutable_snapshot() = SnapshotFor(std::nullopt);
  } else {
    *reply.mutable_lobby_update()->mutable_game() = Info();
  }
  Reply(*peer, request_id, std::move(reply));
  // Before the start, the game's page shows how many watch: the others hear of a new watcher.
  if (!game_ && !watching && status_ == wire::GAME_STATUS_OPEN) {
    wire::ServerMessage update;
    *update.mutable_lobby_update()->mutable_game() = Info();
    Broadcast(update, peer.get());
  }
}

void Room::StopSpectating(const Peer& peer) {
  std::erase_if(spectators_, [&peer](const std::weak_ptr<Peer>& w) {
    const auto p = w.lock();
    return !p || p.get() == &peer;
  });
}

void Room::Disconnected(const Peer* peer) {
  if (Deferred(nullptr, 0, [this, peer] { Disconnected(peer); })) return;
  for (size_t i = 0; i < seats_.size(); ++i) {
    const auto current = seats_[i].peer.lock();
    if (current.get() != peer && !(seats_[i].online && !current)) continue;
    seats_[i].peer.reset();
    if (seats_[i].online) {
      seats_[i].online = false;
      SendSeatStatus(static_cast<int>(i));
    }
  }
  StopSpectating(*peer);
  chat_.Forget(peer);
  StartGraceForAbsent();
  ArmAlarm();
}

// ---------------------------------------------------------------------------------------------
// Play

void Room::Resume(const std::shared_ptr<Peer>& peer, uint64_t request_id,
                  const wire::Resume& resume) {
  if (Deferred(peer, request_id, [=, this] { Resume(peer, request_id, resume); })) return;
  const auto seat = SeatOf(resume.seat_token());
  if (!seat) return Error(*peer, request_id, wire::ERROR_CODE_BAD_TOKEN, "no seat has that token");
  if (status_ == wire::GAME_STATUS_DAMAGED) {
    return Error(*peer, request_id, wire::ERROR_CODE_GAME_DAMAGED, "the game's log is damaged");
  }
  if (seats_[static_cast<size_t>(*seat)].stand_in && status_ == wire::GAME_STATUS_RUNNING &&
      !IsBotToken(*seat, resume.seat_token())) {
    return TakeBack(peer, request_id, resume, *seat);
  }
  MoveSeatTo(*seat, peer);
  seats_[static_cast<size_t>(*seat)].online = true;
  SendSeatStatus(*seat);
  Returned(*seat);
  wire::ServerMessage reply;
  if (!game_) {
    *reply.mutable_lobby_update()->mutable_game() = Info();
    return Reply(*peer, request_id, std::move(reply));
  }
  const uint64_t seen = resume.last_seen_sequence();
  const uint64_t now = Sequence();
  if (seen == 0 || seen >= now || now - seen > options_.replay_limit) {
    *reply.mutable_snapshot() = SnapshotFor(*seat);
    return Reply(*peer, request_id, std::move(reply));
  }
  // The chat lines said since the last delta seen (a line said just after it may have been
  // missed too; the client keeps each number once), then the missed deltas as everybody got
  // them, the last one with this seat's legal actions and the request id (it answers the Resume).
  for (wire::ChatMessage& line : chat_.SaidSince(seen, *seat)) {
    wire::ServerMessage message;
    *message.mutable_chat_message() = std::move(line);
    peer->Send(std::make_shared<const std::string>(message.SerializeAsString()));
  }
  for (uint64_t i = seen; i + 1 < now; ++i) peer->Send(delta_bytes_[i]);
  [[maybe_unused]] const bool parsed = reply.ParseFromString(*delta_bytes_[now - 1]);
  assert(parsed && "the room's own encoding");
  AddLegalActions(*seat, reply.mutable_delta()->mutable_legal_actions());
  Reply(*peer, request_id, std::move(reply));
}

void Room::Move(const std::shared_ptr<Peer>& peer, uint64_t request_id, const wire::Move& move) {
  MoveArrived(peer, request_id, move, std::chrono::steady_clock::now());
}

void Room::MoveArrived(const std::shared_ptr<Peer>& peer, uint64_t request_id,
                       const wire::Move& move, SteadyTime arrived) {
  if (Deferred(peer, request_id, [=, this] { MoveArrived(peer, request_id, move, arrived); })) {
    return;
  }
  // The checks, in order: the token's seat, a running game, that seat's decision, the sequence
  // number, and last the engine.
  const auto seat = SeatOf(move.seat_token());
  if (!seat) {
    if (move.seat_token().empty()) {
      return Reject(*peer, request_id, wire::ERROR_CODE_SPECTATOR, "spectators do not move");
    }
    return Reject(*peer, request_id, wire::ERROR_CODE_BAD_TOKEN, "no seat has that token");
  }
  if (status_ == wire::GAME_STATUS_DAMAGED) {
    return Reject(*peer, request_id, wire::ERROR_CODE_GAME_DAMAGED, "the game's log is damaged");
  }
  if (status_ != wire::GAME_STATUS_RUNNING) {
    return Reject(*peer, request_id, wire::ERROR_CODE_GAME_NOT_RUNNING, "the game is not running");
  }
  if (RefusedAsResigned(*peer, request_id, *seat, move.seat_token())) return;
  // A bot's move comes from the room itself: the seat's connection stays its person's.
  if (!IsBotToken(*seat, move.seat_token())) {
    AttachSeat(*seat, peer);
    if (seats_[static_cast<size_t>(*seat)].stand_in) {
      return Reject(*peer, request_id, wire::ERROR_CODE_STAND_IN_PLAYS,
                    "a stand-in plays your seat: Resume takes it back");
    }
  }
  if (DecidingSeat() != seat) {
    return Reject(*peer, request_id, wire::ERROR_CODE_NOT_YOUR_DECISION, "it is not your decision");
  }
  if (move.sequence() != Sequence()) {
    return Reject(*peer, request_id, wire::ERROR_CODE_STALE_SEQUENCE,
                  "the move answers state " + std::to_string(move.sequence()) +
                      "; the game is at " + std::to_string(Sequence()));
  }
  std::unique_ptr<core::State> committed = game_->Clone();
  const core::Actor actor = game_->CurrentActor();
  auto applied = codec_.ApplyEncoded(*game_, actor, move.action());
  if (const auto* error = std::get_if<core::RuleError>(&applied)) {
    return RejectRule(*peer, request_id, *error);
  }
  std::vector<Staged> staged;
  Stage(*game_, actor, std::get<std::string>(std::move(applied)), &staged);
  StageChanceDraws(*game_, &staged);
  StampClock(*seat, &staged.front().record);
  CommitMove(std::move(staged), peer, request_id, std::move(committed), arrived);
}

// game_ already holds the staged actions; nobody sees them before the write returns (requests
// wait meanwhile). Committed, they are published; refused, game_ goes back.
void Room::CommitMove(std::vector<Staged> staged, const std::shared_ptr<Peer>& mover,
                      uint64_t request_id, std::unique_ptr<core::State> committed,
                      std::optional<SteadyTime> arrived) {
  // The ops first: the lambda below takes `staged` away.
  std::vector<persistence::WriteOp> ops = LogOps(*game_, staged);
  // Shared, not owned: a write's callback is copyable.
  Write(std::move(ops), [this, staged = std::move(staged), mover, request_id, arrived,
                         committed = std::shared_ptr<core::State>(std::move(committed))](
                            const persistence::Status& status) mutable {
    if (status) {
      game_ = committed->Clone();
      if (mover) StorageFailed(*mover, request_id);
      return;
    }
    Publish(std::move(staged), mover, request_id, arrived);
  });
}

void Room::Stage(const core::State& game, core::Actor actor, std::string action,
                 std::vector<Staged>* out) const {
  Staged staged;
  staged.step = codec_.EncodeLastStep(game);
  // The server's draw is shown as the turn player's (docs/protocol.md).
  staged.seat = actor == core::kChanceActor ? game.TurnPlayer() : actor;
  staged.state_hash = game.Hash();
  staged.record =
      persistence::ActionRecord{Sequence() + out->size() + 1, persistence::StoredSeat(actor),
                                std::move(action), staged.state_hash, persistence::NowMs()};
  out->push_back(std::move(staged));
}

void Room::StageChanceDraws(core::State& game, std::vector<Staged>* out) const {
  while (game.CurrentActor() == core::kChanceActor) {
    std::vector<std::string> legal = game.LegalActions();
    assert(legal.size() == 1);
    [[maybe_unused]] const auto error = game.Apply(core::kChanceActor, legal.front(), nullptr);
    assert(!error);
    Stage(game, core::kChanceActor, std::move(legal.front()), out);
  }
}

std::vector<persistence::WriteOp> Room::LogOps(const core::State& game,
                                               const std::vector<Staged>& staged) const {
  std::vector<persistence::WriteOp> ops;
  persistence::AppendActionsOp append{options_.number, {}};
  for (const Staged& s : staged) append.actions.push_back(s.record);
  if (!append.actions.empty()) ops.emplace_back(std::move(append));
  if (game.IsOver()) {
    ops.emplace_back(persistence::FinishGameOp{options_.number, codec_.ResultJson(game)});
  }
  return ops;
}

wire::ServerMessage Room::Record(const Staged& staged) {
  wire::ServerMessage shared;
  *shared.mutable_delta() =
      MakeDelta(id_, Sequence() + 1, staged.seat, staged.step, staged.state_hash);
  delta_bytes_.push_back(Encode(shared));
  return shared;
}

// Sends the committed deltas: to everybody the shared bytes, except the mover's reply (the first
// delta, with its request id) and the last delta to the seat that decides next (with its legal
// actions).
void Room::Publish(std::vector<Staged> staged, const std::shared_ptr<Peer>& mover,
                   uint64_t request_id, std::optional<SteadyTime> arrived) {
  const std::optional<int> decider = DecidingSeat();
  for (size_t k = 0; k < staged.size(); ++k) {
    const wire::ServerMessage shared = Record(staged[k]);
    const bool last = k + 1 == staged.size();
    for (size_t i = 0; i < seats_.size(); ++i) {
      const auto peer = seats_[i].peer.lock();
      if (!peer) continue;
      const bool is_mover = k == 0 && mover && peer == mover;
      const bool decides = last && decider == static_cast<int>(i);
      if (!is_mover && !decides) {
        peer->Send(delta_bytes_.back());
        continue;
      }
      wire::ServerMessage message = shared;
      message.set_request_id(is_mover ? request_id : 0);
      if (decides)
        AddLegalActions(static_cast<int>(i), message.mutable_delta()->mutable_legal_actions());
      peer->Send(Encode(message));
    }
    for (const auto& weak : spectators_) {
      if (auto peer = weak.lock()) peer->Send(delta_bytes_.back());
    }
  }
  if (arrived && metrics != nullptr) {
    metrics->MoveAccepted(std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::steady_clock::now() - *arrived));
  }
  if (game_->IsOver() && status_ == wire::GAME_STATUS_RUNNING) {
    status_ = wire::GAME_STATUS_FINISHED;
    Emit(RoomEvent::kFinished);
  }
  for (const Staged& s : staged) {
    if (s.record.seat >= 0 && s.record.clock_ms >= 0) clocks_.Set(s.record.seat, s.record.clock_ms);
  }
  RestartClocks();
  ThinkIfBotDecides();
}

// ---------------------------------------------------------------------------------------------
// Abandon

void Room::Abandon() {
  assert(!writing_ && "the lobby abandons a room between writes");
  if (status_ != wire::GAME_STATUS_OPEN && status_ != wire::GAME_STATUS_RUNNING) return;
  Write({persistence::AbandonGameOp{options_.number}}, [this](const persistence::Status& status) {
    if (status) return;  // logged by Write; the lobby tries again
    status_ = wire::GAME_STATUS_ABANDONED;
    SendLobbyUpdate();
    RestartClocks();
    Emit(RoomEvent::kAbandoned);
  });
}

// ---------------------------------------------------------------------------------------------
// Restore

Room::ReplayedLog Room::ReplayLog(const persistence::StoredGame& stored) const {
  const persistence::GameStatus status = stored.game.status;
  if (status == persistence::GameStatus::kOpen ||
      (status == persistence::GameStatus::kAbandoned && stored.game.order.empty())) {
    return {};  // never started: nothing to replay
  }
  ReplayedLog log;
  log.delta_bytes.reserve(stored.actions.size());
  log.replayed = persistence::ReplayStored(
      stored, *game_type_.rules,
      [this, &log](const persistence::ActionRecord& r, std::span<const std::string>,
                   const core::State& state) {
        const int seat = r.seat >= 0 ? r.seat : state.TurnPlayer();
        wire::ServerMessage shared;
        *shared.mutable_delta() =
            MakeDelta(id_, r.sequence, seat, codec_.EncodeLastStep(state), r.state_hash);
        log.delta_bytes.push_back(Encode(shared));
      });
  return log;
}

std::optional<std::string> Room::Restore(const persistence::StoredGame& stored) {
  return Restore(stored, ReplayLog(stored));
}

std::optional<std::string> Room::Restore(const persistence::StoredGame& stored, ReplayedLog log) {
  const persistence::GameRecord& record = stored.game;
  options_.name = record.name;
  options_.seats = record.seats;
  options_.seed = record.seed;
  options_.on_resign = record.on_resign;
  options_.rematch_of = record.rematch_of;
  if (record.rematch > 0) rematch_ = PublicGameId(options_.shard, record.rematch);
  options_.spectators_chat = record.spectators_chat;
  options_.time_control = record.time_control;
  draws_ = {record.draw_commitment, record.draw_proof};
  chat_.Restore(stored.chat, id_);
  seats_.assign(static_cast<size_t>(record.seats), Seat{});
  for (const persistence::SeatRecord& s : record.seat_records) {
    if (s.seat < 0 || s.seat >= record.seats) continue;
    Seat& seat = seats_[static_cast<size_t>(s.seat)];
    seat = Seat{true, s.player_name, s.token_hash, {}, false, s.resigned, std::nullopt, s.stand_in};
    chat_.SetMutes(s.seat, s.muted);
    // A bot's token is the room's alone and was never stored: it gets a new one.
    if (const auto level = bots::ParseLevel(s.bot)) seat.bot = NewSeatBot(*level);
  }
  last_activity_ms_ = record.updated_ms;
  if (!stored.actions.empty()) {
    last_activity_ms_ = std::max(last_activity_ms_, stored.actions.back().time_ms);
  }
  if (record.status == persistence::GameStatus::kAbandoned && record.order.empty()) {
    status_ = wire::GAME_STATUS_ABANDONED;  // it never started
    return std::nullopt;
  }
  if (record.status == persistence::GameStatus::kOpen) {
    // Every seat taken but not started. New logs never hold such a game (the join that fills a
    // game writes its start too), but files written by older servers, which committed the last
    // join and the start separately, may: the start the last join would have made is made now.
    const bool full =
        std::all_of(seats_.begin(), seats_.end(), [](const Seat& s) { return s.taken; });
    if (full) StartGame(nullptr, 0);
    return std::nullopt;
  }
  order_ = record.order;
  persistence::ReplayedGame& replayed = log.replayed;
  delta_bytes_ = std::move(log.delta_bytes);
  game_ = std::move(replayed.state);
  if (replayed.damage || !game_) {
    status_ = wire::GAME_STATUS_DAMAGED;
    const std::string reason = replayed.damage.value_or("the game cannot be rebuilt");
    // A failure is logged by Write; the game is damaged in memory all the same.
    Write({persistence::MarkDamagedOp{options_.number, reason}}, [](const persistence::Status&) {});
    return reason;
  }
  if (record.status == persistence::GameStatus::kFinished) {
    status_ = wire::GAME_STATUS_FINISHED;
    return std::nullopt;
  }
  if (record.status == persistence::GameStatus::kAbandoned) {
    status_ = wire::GAME_STATUS_ABANDONED;
    return std::nullopt;
  }
  if (record.status == persistence::GameStatus::kResigned) {
    status_ = wire::GAME_STATUS_RESIGNED;
    return std::nullopt;
  }
  status_ = wire::GAME_STATUS_RUNNING;
  // The clocks as the last actions left them; the decision under way starts again now.
  clocks_ = SeatClocks(options_.time_control, options_.seats);
  std::vector<uint64_t> last_clocked(seats_.size(), 0);  // each seat's last action with a clock
  for (const persistence::ActionRecord& action : stored.actions) {
    if (action.seat < 0 || action.seat >= options_.seats || action.clock_ms < 0) continue;
    clocks_.Set(action.seat, action.clock_ms);
    last_clocked[static_cast<size_t>(action.seat)] = action.sequence;
  }
  // A take-back's refill holds until the player's next action.
  for (const persistence::SeatRecord& s : record.seat_records) {
    if (s.taken_back_clock_ms >= 0 && s.seat >= 0 && s.seat < options_.seats &&
        s.taken_back_after >= last_clocked[static_cast<size_t>(s.seat)]) {
      clocks_.Set(s.seat, s.taken_back_clock_ms);
    }
  }
  StartGraceForAbsent();
  // A log always ends on a player's decision, or with the game's end, written with it; should
  // one not (a file from elsewhere), the draws and the end are written now.
  if (game_->IsOver() || game_->CurrentActor() == core::kChanceActor) {
    std::unique_ptr<core::State> committed = game_->Clone();
    std::vector<Staged> staged;
    StageChanceDraws(*game_, &staged);
    CommitMove(std::move(staged), nullptr, 0, std::move(committed), std::nullopt);
    return std::nullopt;
  }
  RestartClocks();
  ThinkIfBotDecides();  // a bot that had to decide when the server stopped thinks again
  return std::nullopt;
}

}  // namespace carc::server
