#include "room/room.h"

#include <spdlog/spdlog.h>
#include <sys/random.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "city/notation.h"
#include "city/rule_set.h"
#include "persistence/replay.h"
#include "persistence/token.h"

namespace carc::server {
namespace {

Bytes Encode(const v1::ServerMessage& message) {
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

v1::Delta MakeDelta(const std::string& game_id, uint64_t sequence, int seat,
                    const city::Action& action, std::span<const city::Event> events,
                    uint64_t state_hash, int players) {
  v1::Delta delta;
  delta.set_game_id(game_id);
  delta.set_sequence(sequence);
  delta.set_seat(static_cast<uint32_t>(seat));
  *delta.mutable_action() = protocol::ToProto(action);
  for (const city::Event& e : events) *delta.add_events() = protocol::ToProto(e, players);
  delta.set_state_hash(state_hash);
  return delta;
}

std::string ResultJson(const city::Game& game) {
  nlohmann::json result;
  result["ended_by"] = city::ToString(game.EndedBy());
  nlohmann::json scores = nlohmann::json::array();
  int best = 0;
  for (int p = 0; p < game.players(); ++p) {
    nlohmann::json s;
    s["seat"] = p;
    for (int src = 0; src < city::kSourceCount; ++src) {
      const auto source = static_cast<city::Source>(src);
      s[city::ToString(source)] = game.Score(p, source);
    }
    s["total"] = game.TotalScore(p);
    best = std::max(best, game.TotalScore(p));
    scores.push_back(s);
  }
  result["scores"] = scores;
  nlohmann::json winners = nlohmann::json::array();
  for (int p = 0; p < game.players(); ++p) {
    if (game.TotalScore(p) == best) winners.push_back(p);
  }
  result["winners"] = winners;
  result["state_hash"] = game.Hash();
  return result.dump();
}

Room::Room(RoomOptions options, std::shared_ptr<const core::TileSet> tiles, TokenSource tokens,
           persistence::GameLog& log)
    : options_(std::move(options)),
      id_(persistence::GameId(options_.number)),
      tiles_(std::move(tiles)),
      tokens_(std::move(tokens)),
      log_(log),
      seats_(static_cast<size_t>(options_.seats)) {
  assert(options_.seats >= 2 && options_.seats <= 4);
}

void Room::Handle(const std::shared_ptr<Peer>& peer, const v1::ClientMessage& message) {
  const std::optional<RoomRequest> request = RoomRequestOf(message);
  if (!request) return;
  const uint64_t id = message.request_id();
  std::visit(Overloaded{
                 [&](const v1::JoinSeat* join) { Join(peer, id, *join); },
                 [&](const v1::LeaveSeat* leave) { Leave(peer, id, *leave); },
                 [&](const v1::StartGame* start) { Start(peer, id, *start); },
                 [&](const v1::Spectate* /*spectate*/) { Spectate(peer, id); },
                 [&](const v1::Resume* resume) { Resume(peer, id, *resume); },
                 [&](const v1::Move* move) { Move(peer, id, *move); },
             },
             *request);
}

// ---------------------------------------------------------------------------------------------
// The log: one write at a time; requests wait while it is in flight.

bool Room::Deferred(const std::shared_ptr<Peer>& peer, uint64_t request_id,
                    std::function<void()> retry) {
  if (!writing_) return false;
  if (peer && waiting_.size() >= options_.max_waiting) {
    Error(*peer, request_id, v1::ERROR_CODE_BUSY, "too many requests wait for this game");
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
                if (!status) last_activity_ms_ = persistence::NowMs();
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
  if (status_ == v1::GAME_STATUS_OPEN) return false;
  if (status_ == v1::GAME_STATUS_ABANDONED) {
    Error(peer, request_id, v1::ERROR_CODE_GAME_NOT_RUNNING, "the game was abandoned");
  } else {
    Error(peer, request_id, v1::ERROR_CODE_GAME_STARTED, "the game has started");
  }
  return true;
}

void Room::StorageFailed(Peer& peer, uint64_t request_id, const persistence::StoreError& error) {
  spdlog::error("game {}: the log could not be written: {}", id_, error.message);
  Error(peer, request_id, v1::ERROR_CODE_STORAGE_FAILED,
        "the server could not save this, so nothing changed; try again");
}

// ---------------------------------------------------------------------------------------------
// Messages

void Room::Reply(Peer& peer, uint64_t request_id, v1::ServerMessage message) {
  message.set_request_id(request_id);
  peer.Send(Encode(message));
}

void Room::Error(Peer& peer, uint64_t request_id, v1::ErrorCode code, const std::string& reason) {
  v1::ServerMessage message;
  message.mutable_error()->set_code(code);
  message.mutable_error()->set_reason(reason);
  Reply(peer, request_id, std::move(message));
}

// A token proves its seat: the connection that sends it is that seat's from now on (it gets the
// seat's replies and deltas), and the others see the seat online.
void Room::AttachSeat(int seat, const std::shared_ptr<Peer>& peer) {
  Seat& s = seats_[static_cast<size_t>(seat)];
  if (s.peer.lock() == peer && s.online) return;
  s.peer = peer;
  if (!s.online) {
    s.online = true;
    SendSeatStatus(seat);
  }
}

void Room::Reject(Peer& peer, uint64_t request_id, v1::ErrorCode code, const std::string& reason) {
  spdlog::info("game {}: move rejected: {} ({})", id_, v1::ErrorCode_Name(code), reason);
  Error(peer, request_id, code, reason);
}

void Room::Broadcast(const v1::ServerMessage& message, const Peer* except) {
  const Bytes bytes = Encode(message);
  for (const Seat& seat : seats_) {
    if (auto peer = seat.peer.lock(); peer && peer.get() != except) peer->Send(bytes);
  }
  for (const auto& weak : spectators_) {
    if (auto peer = weak.lock(); peer && peer.get() != except) peer->Send(bytes);
  }
}

v1::GameInfo Room::Info() const {
  v1::GameInfo info;
  info.set_game_id(id_);
  info.set_name(options_.name);
  info.set_rule_set(city::kRuleSetId);
  info.set_seats(static_cast<uint32_t>(options_.seats));
  for (size_t i = 0; i < seats_.size(); ++i) {
    v1::SeatInfo* s = info.add_seat();
    s->set_seat(static_cast<uint32_t>(i));
    s->set_taken(seats_[i].taken);
    s->set_player_name(seats_[i].player_name);
    s->set_online(seats_[i].online);
  }
  info.set_status(status_);
  uint32_t spectators = 0;
  for (const auto& weak : spectators_) spectators += weak.expired() ? 0 : 1;
  info.set_spectators(spectators);
  return info;
}

void Room::SendLobbyUpdate() {
  v1::ServerMessage message;
  *message.mutable_lobby_update()->mutable_game() = Info();
  Broadcast(message);
}

void Room::SendSeatStatus(int seat) {
  v1::ServerMessage message;
  v1::SeatStatus* status = message.mutable_seat_status();
  status->set_game_id(id_);
  status->set_seat(static_cast<uint32_t>(seat));
  status->set_online(seats_[static_cast<size_t>(seat)].online);
  Broadcast(message);
}

std::optional<int> Room::SeatOf(const std::string& token) const {
  const persistence::TokenHash hash = persistence::HashToken(token);
  for (size_t i = 0; i < seats_.size(); ++i) {
    if (seats_[i].taken && persistence::SameHash(seats_[i].token_hash, hash)) {
      return static_cast<int>(i);
    }
  }
  return std::nullopt;
}

std::optional<int> Room::DecidingSeat() const {
  if (!game_ || game_->IsOver() || status_ != v1::GAME_STATUS_RUNNING) return std::nullopt;
  const city::Actor actor = game_->CurrentDecision().actor;
  if (actor < 0) return std::nullopt;
  return actor;  // seats are compacted at the start: seat i is engine player i
}

void Room::AddLegalActions(int seat, google::protobuf::RepeatedPtrField<v1::Action>* out) const {
  if (DecidingSeat() != seat) return;
  std::vector<city::Action> legal;
  game_->LegalActions(&legal);
  for (const city::Action& a : legal) *out->Add() = protocol::ToProto(a);
}

v1::Snapshot Room::SnapshotFor(std::optional<int> seat) const {
  v1::Snapshot snapshot;
  snapshot.set_game_id(id_);
  snapshot.set_sequence(Sequence());
  *snapshot.mutable_state() = protocol::ToProto(game_->Public());
  snapshot.set_state_hash(game_->Hash());
  if (seat) {
    snapshot.set_your_seat(static_cast<uint32_t>(*seat));
    AddLegalActions(*seat, snapshot.mutable_legal_actions());
  }
  return snapshot;
}

// ---------------------------------------------------------------------------------------------
// Lobby

void Room::Create(const std::shared_ptr<Peer>& peer, uint64_t request_id) {
  persistence::GameRecord record;
  record.number = options_.number;
  record.name = options_.name;
  record.rule_set = city::kRuleSetId;
  record.rule_set_version = city::kRuleSetVersion;
  record.tileset_id = tiles_->id();
  record.tileset_version = tiles_->version();
  record.seats = options_.seats;
  record.seed = options_.seed;
  Write({persistence::CreateGameOp{record}}, [this, peer, request_id](persistence::Status status) {
    if (status) {
      StorageFailed(*peer, request_id, *status);
      return Emit(RoomEvent::kCreateFailed);
    }
    v1::ServerMessage reply;
    *reply.mutable_game_created()->mutable_game() = Info();
    Reply(*peer, request_id, std::move(reply));
    Emit(RoomEvent::kCreated);
  });
}

void Room::Join(const std::shared_ptr<Peer>& peer, uint64_t request_id, const v1::JoinSeat& join) {
  if (Deferred(peer, request_id, [=, this] { Join(peer, request_id, join); })) return;
  if (RefusedUnlessOpen(*peer, request_id)) return;
  int chosen = -1;
  if (join.has_seat()) {
    if (join.seat() >= seats_.size()) {
      return Error(*peer, request_id, v1::ERROR_CODE_BAD_SEAT_COUNT, "the game has no such seat");
    }
    chosen = static_cast<int>(join.seat());
    if (seats_[join.seat()].taken) {
      return Error(*peer, request_id, v1::ERROR_CODE_SEAT_TAKEN, "that seat is taken");
    }
  } else {
    for (size_t i = 0; i < seats_.size() && chosen < 0; ++i) {
      if (!seats_[i].taken) chosen = static_cast<int>(i);
    }
    if (chosen < 0)
      return Error(*peer, request_id, v1::ERROR_CODE_GAME_FULL, "every seat is taken");
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
  std::optional<StartPlan> start;
  if (FullWith(seat)) {
    std::vector<Seat> seats = seats_;
    seats[static_cast<size_t>(seat)] = Seat{true, player_name, record.token_hash, {}, false};
    start = BuildStart(seats, &ops);
  }
  Write(std::move(ops), [this, peer, request_id, record, token_bytes,
                         start = std::move(start)](persistence::Status status) mutable {
    if (status) return StorageFailed(*peer, request_id, *status);
    seats_[static_cast<size_t>(record.seat)] =
        Seat{true, record.player_name, record.token_hash, peer, true};
    v1::ServerMessage reply;
    v1::SeatJoined* joined = reply.mutable_seat_joined();
    *joined->mutable_game() = Info();
    joined->set_seat(static_cast<uint32_t>(record.seat));
    joined->set_seat_token(token_bytes);
    Reply(*peer, request_id, std::move(reply));
    v1::ServerMessage update;
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
                 const v1::LeaveSeat& leave) {
  if (Deferred(peer, request_id, [=, this] { Leave(peer, request_id, leave); })) return;
  if (RefusedUnlessOpen(*peer, request_id)) return;
  const auto seat = SeatOf(leave.seat_token());
  if (!seat) return Error(*peer, request_id, v1::ERROR_CODE_BAD_TOKEN, "no seat has that token");
  Write({persistence::FreeSeatOp{options_.number, *seat}},
        [this, peer, request_id, seat = *seat](persistence::Status status) {
          if (status) return StorageFailed(*peer, request_id, *status);
          seats_[static_cast<size_t>(seat)] = Seat{};
          v1::ServerMessage reply;
          *reply.mutable_lobby_update()->mutable_game() = Info();
          Reply(*peer, request_id, reply);
          Broadcast(reply, peer.get());
        });
}

void Room::Start(const std::shared_ptr<Peer>& peer, uint64_t request_id,
                 const v1::StartGame& start) {
  if (Deferred(peer, request_id, [=, this] { Start(peer, request_id, start); })) return;
  if (RefusedUnlessOpen(*peer, request_id)) return;
  const auto seat = SeatOf(start.seat_token());
  if (!seat) return Error(*peer, request_id, v1::ERROR_CODE_BAD_TOKEN, "no seat has that token");
  if (*seat != 0) {
    return Error(*peer, request_id, v1::ERROR_CODE_NOT_CREATOR, "only seat 0 may start the game");
  }
  const auto taken =
      std::count_if(seats_.begin(), seats_.end(), [](const Seat& s) { return s.taken; });
  if (taken < 2) {
    return Error(*peer, request_id, v1::ERROR_CODE_BAD_SEAT_COUNT, "two players at least");
  }
  AttachSeat(0, peer);
  StartGame(peer, request_id);
}

// Seats left empty by an early start are dropped: the engine's players are the taken seats, in
// seat order. The start and the first tile draws are written together.
Room::StartPlan Room::BuildStart(const std::vector<Seat>& seats,
                                 std::vector<persistence::WriteOp>* ops) const {
  std::vector<persistence::SeatRecord> records;
  for (const Seat& s : seats) {
    if (s.taken) {
      records.push_back({static_cast<int>(records.size()), s.player_name, s.token_hash});
    }
  }
  city::Config config;
  config.players = static_cast<int>(records.size());
  std::vector<int> order = city::Game::ShuffledOrder(tiles_->TileCount(), options_.seed);
  auto created = city::Game::CreateWithOrder(tiles_, config, options_.seed, order);
  assert(std::holds_alternative<city::Game>(created) && "2-4 players and the shipped tile set");
  StartPlan plan{order, std::get<city::Game>(std::move(created)), {}};
  StageChanceDraws(plan.game, &plan.staged);
  ops->emplace_back(
      persistence::StartGameOp{options_.number, std::move(records), std::move(order)});
  for (auto& op : LogOps(plan.game, plan.staged)) ops->push_back(std::move(op));
  return plan;
}

// Called once the start is committed, with seats_ holding exactly the seats it was built from.
void Room::ApplyStart(StartPlan plan, const std::shared_ptr<Peer>& starter, uint64_t request_id) {
  std::vector<Seat> taken;
  for (Seat& s : seats_) {
    if (s.taken) taken.push_back(std::move(s));
  }
  assert(static_cast<int>(taken.size()) == plan.game.players() &&
         "the seats the start was built from");
  seats_ = std::move(taken);
  options_.seats = static_cast<int>(seats_.size());
  order_ = std::move(plan.order);
  game_ = std::move(plan.game);
  status_ = v1::GAME_STATUS_RUNNING;
  PublishStart(starter, request_id);
  Publish(std::move(plan.staged), nullptr, 0);
  Emit(RoomEvent::kStarted);
}

void Room::StartGame(const std::shared_ptr<Peer>& starter, uint64_t request_id) {
  std::vector<persistence::WriteOp> ops;
  StartPlan plan = BuildStart(seats_, &ops);
  Write(std::move(ops),
        [this, starter, request_id, plan = std::move(plan)](persistence::Status status) mutable {
          if (status) {
            if (starter) StorageFailed(*starter, request_id, *status);
            return;
          }
          ApplyStart(std::move(plan), starter, request_id);
        });
}

// Everybody gets the state before the first draw as a snapshot (the starter's is its reply);
// the draws follow as deltas, like every later action.
void Room::PublishStart(const std::shared_ptr<Peer>& starter, uint64_t request_id) {
  auto created = city::Game::CreateWithOrder(tiles_, game_->config(), options_.seed, order_);
  const city::Game& initial = std::get<city::Game>(created);
  v1::ServerMessage message;
  v1::Snapshot* snapshot = message.mutable_snapshot();
  snapshot->set_game_id(id_);
  snapshot->set_sequence(0);
  *snapshot->mutable_state() = protocol::ToProto(initial.Public());
  snapshot->set_state_hash(initial.Hash());
  for (const auto& weak : spectators_) {
    if (auto peer = weak.lock()) peer->Send(Encode(message));
  }
  for (size_t i = 0; i < seats_.size(); ++i) {
    if (auto peer = seats_[i].peer.lock()) {
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
  v1::ServerMessage reply;
  if (game_) {
    *reply.mutable_snapshot() = SnapshotFor(std::nullopt);
  } else {
    *reply.mutable_lobby_update()->mutable_game() = Info();
  }
  Reply(*peer, request_id, std::move(reply));
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
  std::erase_if(spectators_, [peer](const std::weak_ptr<Peer>& w) {
    const auto p = w.lock();
    return !p || p.get() == peer;
  });
}

// ---------------------------------------------------------------------------------------------
// Play

void Room::Resume(const std::shared_ptr<Peer>& peer, uint64_t request_id,
                  const v1::Resume& resume) {
  if (Deferred(peer, request_id, [=, this] { Resume(peer, request_id, resume); })) return;
  const auto seat = SeatOf(resume.seat_token());
  if (!seat) return Error(*peer, request_id, v1::ERROR_CODE_BAD_TOKEN, "no seat has that token");
  if (status_ == v1::GAME_STATUS_DAMAGED) {
    return Error(*peer, request_id, v1::ERROR_CODE_GAME_DAMAGED, "the game's log is damaged");
  }
  Seat& s = seats_[static_cast<size_t>(*seat)];
  s.peer = peer;
  s.online = true;
  SendSeatStatus(*seat);
  v1::ServerMessage reply;
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
  // The missed deltas as everybody got them, the last one with this seat's legal actions and
  // the request id (it answers the Resume).
  for (uint64_t i = seen; i + 1 < now; ++i) peer->Send(delta_bytes_[i]);
  [[maybe_unused]] const bool parsed = reply.ParseFromString(*delta_bytes_[now - 1]);
  assert(parsed && "the room's own encoding");
  AddLegalActions(*seat, reply.mutable_delta()->mutable_legal_actions());
  Reply(*peer, request_id, std::move(reply));
}

void Room::Move(const std::shared_ptr<Peer>& peer, uint64_t request_id, const v1::Move& move) {
  if (Deferred(peer, request_id, [=, this] { Move(peer, request_id, move); })) return;
  // The checks, in order: the token's seat, a running game, that seat's decision, the sequence
  // number, and last the engine.
  const auto seat = SeatOf(move.seat_token());
  if (!seat) {
    if (move.seat_token().empty()) {
      return Reject(*peer, request_id, v1::ERROR_CODE_SPECTATOR, "spectators do not move");
    }
    return Reject(*peer, request_id, v1::ERROR_CODE_BAD_TOKEN, "no seat has that token");
  }
  if (status_ == v1::GAME_STATUS_DAMAGED) {
    return Reject(*peer, request_id, v1::ERROR_CODE_GAME_DAMAGED, "the game's log is damaged");
  }
  if (status_ != v1::GAME_STATUS_RUNNING) {
    return Reject(*peer, request_id, v1::ERROR_CODE_GAME_NOT_RUNNING, "the game is not running");
  }
  AttachSeat(*seat, peer);
  if (DecidingSeat() != seat) {
    return Reject(*peer, request_id, v1::ERROR_CODE_NOT_YOUR_DECISION, "it is not your decision");
  }
  if (move.sequence() != Sequence()) {
    return Reject(*peer, request_id, v1::ERROR_CODE_STALE_SEQUENCE,
                  "the move answers state " + std::to_string(move.sequence()) +
                      "; the game is at " + std::to_string(Sequence()));
  }
  const auto action = protocol::FromProto(move.action());
  if (!action) {
    return Reject(*peer, request_id, protocol::ToErrorCode(city::Error::kMalformed),
                  city::Describe(city::Error::kMalformed));
  }
  const size_t committed = game_->History().size();
  std::vector<Staged> staged;
  if (auto error = Stage(*game_, game_->CurrentDecision().actor, *action, &staged)) {
    return Reject(*peer, request_id, protocol::ToErrorCode(*error), city::Describe(*error));
  }
  StageChanceDraws(*game_, &staged);
  CommitMove(std::move(staged), peer, request_id, committed);
}

// game_ already holds the staged actions; nobody sees them before the write returns (requests
// wait meanwhile). Committed, they are published; refused, game_ goes back.
void Room::CommitMove(std::vector<Staged> staged, const std::shared_ptr<Peer>& mover,
                      uint64_t request_id, size_t committed_actions) {
  // The ops first: the lambda below takes `staged` away.
  std::vector<persistence::WriteOp> ops = LogOps(*game_, staged);
  Write(std::move(ops), [this, staged = std::move(staged), mover, request_id,
                         committed_actions](persistence::Status status) mutable {
    if (status) {
      Rollback(committed_actions);
      if (mover) StorageFailed(*mover, request_id, *status);
      return;
    }
    Publish(std::move(staged), mover, request_id);
  });
}

std::optional<city::Error> Room::Stage(city::Game& game, city::Actor actor,
                                       const city::Action& action, std::vector<Staged>* out) const {
  Staged staged;
  staged.action = action;
  std::string text = city::FormatAction(game, action);
  if (auto error = game.Apply(actor, action, &staged.events)) return error;
  // The server's draw is shown as the turn player's (docs/protocol.md).
  staged.seat = actor == city::kChance ? game.counters().turn_player : actor;
  staged.state_hash = game.Hash();
  staged.record =
      persistence::ActionRecord{Sequence() + out->size() + 1, persistence::StoredSeat(actor),
                                std::move(text), staged.state_hash, persistence::NowMs()};
  out->push_back(std::move(staged));
  return std::nullopt;
}

void Room::StageChanceDraws(city::Game& game, std::vector<Staged>* out) const {
  std::vector<city::Action> legal;
  while (!game.IsOver() && game.CurrentDecision().actor == city::kChance) {
    game.LegalActions(&legal);
    assert(legal.size() == 1);
    [[maybe_unused]] const auto error = Stage(game, city::kChance, legal.front(), out);
    assert(!error);
  }
}

std::vector<persistence::WriteOp> Room::LogOps(const city::Game& game,
                                               const std::vector<Staged>& staged) const {
  std::vector<persistence::WriteOp> ops;
  persistence::AppendActionsOp append{options_.number, {}};
  for (const Staged& s : staged) append.actions.push_back(s.record);
  if (!append.actions.empty()) ops.emplace_back(std::move(append));
  if (game.IsOver()) ops.emplace_back(persistence::FinishGameOp{options_.number, ResultJson(game)});
  return ops;
}

v1::ServerMessage Room::Record(const Staged& staged) {
  v1::ServerMessage shared;
  *shared.mutable_delta() = MakeDelta(id_, Sequence() + 1, staged.seat, staged.action,
                                      staged.events, staged.state_hash, game_->players());
  delta_bytes_.push_back(Encode(shared));
  return shared;
}

// Sends the committed deltas: to everybody the shared bytes, except the mover's reply (the first
// delta, with its request id) and the last delta to the seat that decides next (with its legal
// actions).
void Room::Publish(std::vector<Staged> staged, const std::shared_ptr<Peer>& mover,
                   uint64_t request_id) {
  const std::optional<int> decider = DecidingSeat();
  for (size_t k = 0; k < staged.size(); ++k) {
    const v1::ServerMessage shared = Record(staged[k]);
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
      v1::ServerMessage message = shared;
      message.set_request_id(is_mover ? request_id : 0);
      if (decides)
        AddLegalActions(static_cast<int>(i), message.mutable_delta()->mutable_legal_actions());
      peer->Send(Encode(message));
    }
    for (const auto& weak : spectators_) {
      if (auto peer = weak.lock()) peer->Send(delta_bytes_.back());
    }
  }
  if (game_->IsOver() && status_ == v1::GAME_STATUS_RUNNING) {
    status_ = v1::GAME_STATUS_FINISHED;
    Emit(RoomEvent::kFinished);
  }
}

void Room::Rollback(size_t committed_actions) {
  std::vector<city::HistoryEntry> history = game_->History();
  history.resize(committed_actions);
  auto created = city::Game::CreateWithOrder(tiles_, game_->config(), options_.seed, order_);
  assert(std::holds_alternative<city::Game>(created));
  city::Game game = std::get<city::Game>(std::move(created));
  for (const city::HistoryEntry& entry : history) {
    [[maybe_unused]] const auto error = game.Apply(entry.actor, entry.action, nullptr);
    assert(!error && "the committed actions replay");
  }
  game_ = std::move(game);
}

// ---------------------------------------------------------------------------------------------
// Abandon

void Room::Abandon() {
  assert(!writing_ && "the lobby abandons a room between writes");
  if (status_ != v1::GAME_STATUS_OPEN && status_ != v1::GAME_STATUS_RUNNING) return;
  Write({persistence::AbandonGameOp{options_.number}}, [this](persistence::Status status) {
    if (status) {
      spdlog::error("game {}: could not be abandoned: {}", id_, status->message);
      return;
    }
    status_ = v1::GAME_STATUS_ABANDONED;
    SendLobbyUpdate();
    Emit(RoomEvent::kAbandoned);
  });
}

// ---------------------------------------------------------------------------------------------
// Restore

std::optional<std::string> Room::Restore(const persistence::StoredGame& stored) {
  const persistence::GameRecord& record = stored.game;
  options_.name = record.name;
  options_.seats = record.seats;
  options_.seed = record.seed;
  seats_.assign(static_cast<size_t>(record.seats), Seat{});
  for (const persistence::SeatRecord& s : record.seat_records) {
    if (s.seat < 0 || s.seat >= record.seats) continue;
    seats_[static_cast<size_t>(s.seat)] = Seat{true, s.player_name, s.token_hash, {}, false};
  }
  last_activity_ms_ = record.updated_ms;
  if (!stored.actions.empty()) {
    last_activity_ms_ = std::max(last_activity_ms_, stored.actions.back().time_ms);
  }
  if (record.status == persistence::GameStatus::kAbandoned && record.order.empty()) {
    status_ = v1::GAME_STATUS_ABANDONED;  // it never started
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
  auto replayed = persistence::ReplayStored(
      stored, *city::MakeRuleSet(tiles_),
      [this](const persistence::ActionRecord& r, std::span<const std::string>,
             const core::State& state) {
        const city::Game& game = *city::GameOf(state);
        const city::Action& action = game.History().back().action;
        const std::span<const city::Event> events = city::LastEvents(state);
        const int seat = r.seat >= 0 ? r.seat : game.counters().turn_player;
        v1::ServerMessage shared;
        *shared.mutable_delta() =
            MakeDelta(id_, r.sequence, seat, action, events, r.state_hash, game.players());
        delta_bytes_.push_back(Encode(shared));
      });
  if (replayed.state) game_ = *city::GameOf(*replayed.state);
  if (replayed.damage || !game_) {
    status_ = v1::GAME_STATUS_DAMAGED;
    const std::string reason = replayed.damage.value_or("the game cannot be rebuilt");
    Write({persistence::MarkDamagedOp{options_.number, reason}}, [this](persistence::Status s) {
      if (s) spdlog::error("game {}: could not mark it damaged: {}", id_, s->message);
    });
    return reason;
  }
  if (record.status == persistence::GameStatus::kFinished) {
    status_ = v1::GAME_STATUS_FINISHED;
    return std::nullopt;
  }
  if (record.status == persistence::GameStatus::kAbandoned) {
    status_ = v1::GAME_STATUS_ABANDONED;
    return std::nullopt;
  }
  status_ = v1::GAME_STATUS_RUNNING;
  // A log always ends on a player's decision, or with the game's end, written with it; should
  // one not (a file from elsewhere), the draws and the end are written now.
  if (game_->IsOver() || game_->CurrentDecision().actor == city::kChance) {
    const size_t committed = game_->History().size();
    std::vector<Staged> staged;
    StageChanceDraws(*game_, &staged);
    CommitMove(std::move(staged), nullptr, 0, committed);
  }
  return std::nullopt;
}

}  // namespace carc::server
