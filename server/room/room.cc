#include "room/room.h"

#include <spdlog/spdlog.h>
#include <sys/random.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>

namespace carc::server {
namespace {

Bytes Encode(const v1::ServerMessage& message) {
  auto bytes = std::make_shared<std::string>();
  const bool ok = message.SerializeToString(bytes.get());
  assert(ok && "a message the server builds always encodes");
  (void)ok;
  return bytes;
}

// Compares all 16 bytes whatever they hold, so the time taken says nothing about the token.
bool SameToken(const SeatToken& a, const std::string& b) {
  if (b.size() != a.size()) return false;
  uint8_t diff = 0;
  for (size_t i = 0; i < a.size(); ++i)
    diff |= static_cast<uint8_t>(a[i] ^ static_cast<uint8_t>(b[i]));
  return diff == 0;
}

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

Room::Room(RoomOptions options, std::shared_ptr<const core::TileSet> tiles, TokenSource tokens)
    : options_(std::move(options)),
      tiles_(std::move(tiles)),
      tokens_(std::move(tokens)),
      seats_(static_cast<size_t>(options_.seats)) {
  assert(options_.seats >= 2 && options_.seats <= 4);
  legal_.reserve(1024);
  events_.reserve(256);
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
  spdlog::info("game {}: move rejected: {} ({})", options_.id, v1::ErrorCode_Name(code), reason);
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

v1::GameStatus Room::Status() const {
  if (!game_) return v1::GAME_STATUS_OPEN;
  return game_->IsOver() ? v1::GAME_STATUS_FINISHED : v1::GAME_STATUS_RUNNING;
}

v1::GameInfo Room::Info() const {
  v1::GameInfo info;
  info.set_game_id(options_.id);
  info.set_name(options_.name);
  info.set_rule_set("the-city");
  info.set_seats(static_cast<uint32_t>(options_.seats));
  for (size_t i = 0; i < seats_.size(); ++i) {
    v1::SeatInfo* s = info.add_seat();
    s->set_seat(static_cast<uint32_t>(i));
    s->set_taken(seats_[i].taken);
    s->set_player_name(seats_[i].player_name);
    s->set_online(seats_[i].online);
  }
  info.set_status(Status());
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
  status->set_game_id(options_.id);
  status->set_seat(static_cast<uint32_t>(seat));
  status->set_online(seats_[static_cast<size_t>(seat)].online);
  Broadcast(message);
}

std::optional<int> Room::SeatOf(const std::string& token) const {
  for (size_t i = 0; i < seats_.size(); ++i) {
    if (seats_[i].taken && SameToken(seats_[i].token, token)) return static_cast<int>(i);
  }
  return std::nullopt;
}

std::optional<int> Room::DecidingSeat() const {
  if (!game_ || game_->IsOver()) return std::nullopt;
  const city::Actor actor = game_->CurrentDecision().actor;
  if (actor < 0) return std::nullopt;
  return seat_of_player_[static_cast<size_t>(actor)];
}

void Room::AddLegalActions(int seat, google::protobuf::RepeatedPtrField<v1::Action>* out) const {
  if (DecidingSeat() != seat) return;
  std::vector<city::Action> legal;
  game_->LegalActions(&legal);
  for (const city::Action& a : legal) *out->Add() = protocol::ToProto(a);
}

v1::Snapshot Room::SnapshotFor(std::optional<int> seat) const {
  v1::Snapshot snapshot;
  snapshot.set_game_id(options_.id);
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

void Room::Join(const std::shared_ptr<Peer>& peer, uint64_t request_id, const v1::JoinSeat& join) {
  if (game_) return Error(*peer, request_id, v1::ERROR_CODE_GAME_STARTED, "the game has started");
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
  Seat& seat = seats_[static_cast<size_t>(chosen)];
  seat = Seat{true, join.player_name(), tokens_(), peer, true};
  v1::ServerMessage reply;
  v1::SeatJoined* joined = reply.mutable_seat_joined();
  *joined->mutable_game() = Info();
  joined->set_seat(static_cast<uint32_t>(chosen));
  joined->set_seat_token(std::string(seat.token.begin(), seat.token.end()));
  Reply(*peer, request_id, std::move(reply));
  v1::ServerMessage update;
  *update.mutable_lobby_update()->mutable_game() = Info();
  Broadcast(update, peer.get());
  bool full = true;
  for (const Seat& s : seats_) full = full && s.taken;
  if (full) StartGame(nullptr, 0);
}

void Room::Leave(const std::shared_ptr<Peer>& peer, uint64_t request_id,
                 const v1::LeaveSeat& leave) {
  if (game_) return Error(*peer, request_id, v1::ERROR_CODE_GAME_STARTED, "the game has started");
  const auto seat = SeatOf(leave.seat_token());
  if (!seat) return Error(*peer, request_id, v1::ERROR_CODE_BAD_TOKEN, "no seat has that token");
  seats_[static_cast<size_t>(*seat)] = Seat{};
  v1::ServerMessage reply;
  *reply.mutable_lobby_update()->mutable_game() = Info();
  Reply(*peer, request_id, reply);
  Broadcast(reply, peer.get());
}

void Room::Start(const std::shared_ptr<Peer>& peer, uint64_t request_id,
                 const v1::StartGame& start) {
  if (game_) return Error(*peer, request_id, v1::ERROR_CODE_GAME_STARTED, "the game has started");
  const auto seat = SeatOf(start.seat_token());
  if (!seat) return Error(*peer, request_id, v1::ERROR_CODE_BAD_TOKEN, "no seat has that token");
  if (*seat != 0) {
    return Error(*peer, request_id, v1::ERROR_CODE_NOT_CREATOR, "only seat 0 may start the game");
  }
  int taken = 0;
  for (const Seat& s : seats_) taken += s.taken ? 1 : 0;
  if (taken < 2) {
    return Error(*peer, request_id, v1::ERROR_CODE_BAD_SEAT_COUNT, "two players at least");
  }
  AttachSeat(0, peer);
  StartGame(peer, request_id);
}

void Room::StartGame(const std::shared_ptr<Peer>& starter, uint64_t request_id) {
  // Seats left empty by an early start are dropped: the engine's players are the taken seats.
  std::vector<Seat> taken;
  for (Seat& s : seats_) {
    if (s.taken) taken.push_back(std::move(s));
  }
  seats_ = std::move(taken);
  options_.seats = static_cast<int>(seats_.size());
  seat_of_player_.clear();
  for (size_t i = 0; i < seats_.size(); ++i) seat_of_player_.push_back(static_cast<int>(i));
  city::Config config;
  config.players = options_.seats;
  auto created = city::Game::Create(tiles_, config, options_.seed);
  assert(std::holds_alternative<city::Game>(created) && "2-4 players and the shipped tile set");
  game_ = std::get<city::Game>(std::move(created));
  for (size_t i = 0; i < seats_.size(); ++i) {
    if (auto peer = seats_[i].peer.lock()) {
      v1::ServerMessage message;
      *message.mutable_snapshot() = SnapshotFor(static_cast<int>(i));
      message.set_request_id(peer == starter ? request_id : 0);  // the starter's reply
      peer->Send(Encode(message));
    }
  }
  for (const auto& weak : spectators_) {
    if (auto peer = weak.lock()) {
      v1::ServerMessage message;
      *message.mutable_snapshot() = SnapshotFor(std::nullopt);
      peer->Send(Encode(message));
    }
  }
  DrawForChance();
}

void Room::Spectate(const std::shared_ptr<Peer>& peer, uint64_t request_id) {
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
  const auto seat = SeatOf(resume.seat_token());
  if (!seat) return Error(*peer, request_id, v1::ERROR_CODE_BAD_TOKEN, "no seat has that token");
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
  *reply.mutable_delta() = deltas_[now - 1];
  AddLegalActions(*seat, reply.mutable_delta()->mutable_legal_actions());
  Reply(*peer, request_id, std::move(reply));
}

void Room::Move(const std::shared_ptr<Peer>& peer, uint64_t request_id, const v1::Move& move) {
  // The checks, in order: the token's seat, a running game, that seat's decision, the sequence
  // number, and last the engine.
  const auto seat = SeatOf(move.seat_token());
  if (!seat) {
    if (move.seat_token().empty()) {
      return Reject(*peer, request_id, v1::ERROR_CODE_SPECTATOR, "spectators do not move");
    }
    return Reject(*peer, request_id, v1::ERROR_CODE_BAD_TOKEN, "no seat has that token");
  }
  if (Status() != v1::GAME_STATUS_RUNNING) {
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
  const city::Actor player = game_->CurrentDecision().actor;
  events_.clear();
  if (auto error = game_->Apply(player, *action, &events_)) {
    return Reject(*peer, request_id, protocol::ToErrorCode(*error), city::Describe(*error));
  }
  ApplyAndBroadcast(*seat, *action, peer, request_id);
  DrawForChance();
}

void Room::DrawForChance() {
  while (game_ && !game_->IsOver() && game_->CurrentDecision().actor == city::kChance) {
    game_->LegalActions(&legal_);
    assert(legal_.size() == 1);
    events_.clear();
    [[maybe_unused]] const auto error = game_->Apply(city::kChance, legal_.front(), &events_);
    assert(!error);
    ApplyAndBroadcast(seat_of_player_[static_cast<size_t>(game_->counters().turn_player)],
                      legal_.front(), nullptr, 0);
  }
}

// Records the delta of the action just applied (its events are in events_) and sends it.
void Room::ApplyAndBroadcast(int seat, const city::Action& action,
                             const std::shared_ptr<Peer>& mover, uint64_t request_id) {
  v1::Delta delta;
  delta.set_game_id(options_.id);
  delta.set_sequence(Sequence() + 1);
  delta.set_seat(static_cast<uint32_t>(seat));
  *delta.mutable_action() = protocol::ToProto(action);
  for (const city::Event& e : events_) *delta.add_events() = protocol::ToProto(e, game_->players());
  delta.set_state_hash(game_->Hash());
  v1::ServerMessage shared;
  *shared.mutable_delta() = delta;
  const Bytes shared_bytes = Encode(shared);
  deltas_.push_back(std::move(delta));
  delta_bytes_.push_back(shared_bytes);

  const std::optional<int> decider = DecidingSeat();
  const auto personal = [&](int for_seat, uint64_t id) {
    v1::ServerMessage message = shared;
    message.set_request_id(id);
    AddLegalActions(for_seat, message.mutable_delta()->mutable_legal_actions());
    return Encode(message);
  };
  for (size_t i = 0; i < seats_.size(); ++i) {
    const auto peer = seats_[i].peer.lock();
    if (!peer) continue;
    const bool is_mover = mover && peer == mover;
    const bool decides = decider == static_cast<int>(i);
    peer->Send(is_mover || decides ? personal(static_cast<int>(i), is_mover ? request_id : 0)
                                   : shared_bytes);
  }
  for (const auto& weak : spectators_) {
    if (auto peer = weak.lock()) peer->Send(shared_bytes);
  }
}

}  // namespace carc::server
