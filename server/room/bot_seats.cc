// The room's bots, resignations and rematches (room/bot_seats.h; the rest of Room is in room.cc).
#include "room/bot_seats.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cassert>
#include <cstring>
#include <nlohmann/json.hpp>

#include "persistence/token.h"
#include "room/room.h"

namespace carc::server {
namespace {

// Where the room's own replies to a bot's moves go: nobody reads them, so a refusal, which
// would be the server's own fault, is logged.
class BotPeer : public Peer {
 public:
  explicit BotPeer(std::string game_id) : game_id_(std::move(game_id)) {}
  void Send(Bytes message) override {
    wire::ServerMessage decoded;
    if (decoded.ParseFromString(*message) && decoded.has_error()) {
      spdlog::error("game {}: a bot's move was refused: {} ({})", game_id_,
                    wire::ErrorCode_Name(decoded.error().code()), decoded.error().reason());
    }
  }

 private:
  std::string game_id_;
};

wire::ServerMessage LobbyUpdateOf(const wire::GameInfo& info) {
  wire::ServerMessage message;
  *message.mutable_lobby_update()->mutable_game() = info;
  return message;
}

}  // namespace

std::variant<std::vector<BotSeatOption>, std::string> ParseBotSeats(const wire::CreateGame& create,
                                                                    int seats) {
  std::vector<BotSeatOption> out;
  std::vector<bool> named(static_cast<size_t>(seats), false);
  for (const wire::BotSeat& bot : create.bots()) {
    if (std::cmp_greater_equal(bot.seat(), seats)) {
      return "bots: the game has no seat " + std::to_string(bot.seat()) + " (its seats are 0 to " +
             std::to_string(seats - 1) + ")";
    }
    if (named[bot.seat()]) return "bots: seat " + std::to_string(bot.seat()) + " is named twice";
    const std::optional<bots::Level> level = bots::ParseLevel(bot.level());
    if (!level) return "bots: a bot's level is random, greedy or strong";
    named[bot.seat()] = true;
    out.push_back({static_cast<int>(bot.seat()), *level});
  }
  if (std::cmp_greater_equal(out.size(), seats)) {
    return "bots: at least one seat must be left for a person";
  }
  return out;
}

wire::ResignPolicy ToProto(persistence::ResignPolicy policy) {
  switch (policy) {
    case persistence::ResignPolicy::kEndGame:
      return wire::RESIGN_POLICY_END_GAME;
    case persistence::ResignPolicy::kBotTakesSeat:
      return wire::RESIGN_POLICY_BOT_TAKES_SEAT;
  }
  assert(false && "a resign policy this build does not know");
  return wire::RESIGN_POLICY_BOT_TAKES_SEAT;
}

std::string BotPlayerName(bots::Level level) {
  std::string name(bots::ToString(level));
  name.front() = static_cast<char>(name.front() - 'a' + 'A');
  return name + " bot";
}

std::string ChooseEncoded(const BotRequest& request, const bots::Budget& budget) {
  const std::string chosen =
      bots::MakeBot(request.level, budget)->Choose(*request.state, request.seed);
  // The engine and the codec list the legal actions in the same order.
  const std::vector<std::string> legal = request.state->LegalActions();
  const auto found = std::find(legal.begin(), legal.end(), chosen);
  if (found == legal.end()) return {};  // not legal: the room refuses it like any other
  return request.codec->EncodeLegalActions(
      *request.state)[static_cast<size_t>(found - legal.begin())];
}

// ---------------------------------------------------------------------------------------------
// Bots in seats

Room::SeatBot Room::NewSeatBot(bots::Level level) {
  const SeatToken token = tokens_();
  std::string bytes(token.begin(), token.end());
  const persistence::TokenHash hash = persistence::HashToken(bytes);
  return SeatBot{level, std::move(bytes), hash};
}

bool Room::IsBotToken(int seat, const std::string& token) const {
  const Seat& s = seats_[static_cast<size_t>(seat)];
  return s.bot && persistence::SameHash(s.bot->token_hash, persistence::HashToken(token));
}

bool Room::RefusedAsResigned(Peer& peer, uint64_t request_id, int seat, const std::string& token) {
  if (!seats_[static_cast<size_t>(seat)].resigned || IsBotToken(seat, token)) return false;
  Reject(peer, request_id, wire::ERROR_CODE_SEAT_RESIGNED, "you resigned: the seat is not yours");
  return true;
}

persistence::SeatRecord Room::RecordOf(int seat, const Seat& s) const {
  return persistence::SeatRecord{seat, s.player_name, s.token_hash,
                                 s.bot ? std::string(bots::ToString(s.bot->level)) : "",
                                 s.resigned};
}

void Room::ThinkIfBotDecides() {
  if (bot_runner_ == nullptr || frozen_) return;
  const std::optional<int> seat = DecidingSeat();
  if (!seat || !seats_[static_cast<size_t>(*seat)].bot) return;
  // The seed comes from the server's randomness, as tokens do: nobody can predict the choice.
  const SeatToken random = tokens_();
  uint64_t seed = 0;
  std::memcpy(&seed, random.data(), sizeof seed);
  BotRequest request{game_->Clone(), seats_[static_cast<size_t>(*seat)].bot->level, seed, &codec_};
  bot_runner_->Think(std::move(request),
                     [this, seat = *seat, sequence = Sequence()](std::string action) {
                       BotAnswered(seat, sequence, std::move(action));
                     });
}

// The answer enters as a Move with the bot's token; one to a state the game has left is dropped.
void Room::BotAnswered(int seat, uint64_t sequence, std::string action) {
  if (Deferred(nullptr, 0, [=, this] { BotAnswered(seat, sequence, action); })) return;
  if (frozen_) return;  // the bot thinks again after the restart
  if (sequence != Sequence() || DecidingSeat() != seat || !seats_[static_cast<size_t>(seat)].bot) {
    spdlog::debug("game {}: a bot's answer to state {} came after the game moved on", id_,
                  sequence);
    return;
  }
  if (!bot_peer_) bot_peer_ = std::make_shared<BotPeer>(id_);
  wire::Move move;
  move.set_game_id(id_);
  move.set_seat_token(seats_[static_cast<size_t>(seat)].bot->token);
  move.set_sequence(sequence);
  move.set_action(std::move(action));
  Move(bot_peer_, 0, move);
}

// ---------------------------------------------------------------------------------------------
// Resigning

void Room::Resign(const std::shared_ptr<Peer>& peer, uint64_t request_id,
                  const wire::Resign& resign) {
  if (Deferred(peer, request_id, [=, this] { Resign(peer, request_id, resign); })) return;
  const auto seat = SeatOf(resign.seat_token());
  if (!seat || IsBotToken(*seat, resign.seat_token())) {
    return Error(*peer, request_id, wire::ERROR_CODE_BAD_TOKEN, "no seat has that token");
  }
  if (seats_[static_cast<size_t>(*seat)].resigned) {
    return Error(*peer, request_id, wire::ERROR_CODE_SEAT_RESIGNED, "you have resigned already");
  }
  if (status_ == wire::GAME_STATUS_DAMAGED) {
    return Error(*peer, request_id, wire::ERROR_CODE_GAME_DAMAGED, "the game's log is damaged");
  }
  if (status_ != wire::GAME_STATUS_RUNNING) {
    return Error(*peer, request_id, wire::ERROR_CODE_GAME_NOT_RUNNING, "the game is not running");
  }
  AttachSeat(*seat, peer);
  // Bots playing on for nobody would only burn the server's time.
  if (options_.on_resign == persistence::ResignPolicy::kEndGame || !PersonPlaysBesides(*seat)) {
    return ResignAndEnd(peer, request_id, *seat, "resigned");
  }
  ResignToBot(peer, request_id, *seat);
}

bool Room::PersonPlaysBesides(int seat) const {
  for (size_t i = 0; i < seats_.size(); ++i) {
    if (static_cast<int>(i) != seat && seats_[i].taken && !seats_[i].bot) return true;
  }
  return false;
}

// The result says who resigned, and the scores when they did; the winners are the best of the
// others.
void Room::ResignAndEnd(const std::shared_ptr<Peer>& peer, uint64_t request_id, int seat,
                        const std::string& ended_by) {
  const std::vector<int> scores = game_->Scores();
  int best = -1;
  for (size_t i = 0; i < scores.size(); ++i) {
    if (static_cast<int>(i) != seat) best = std::max(best, scores[i]);
  }
  nlohmann::json winners = nlohmann::json::array();
  for (size_t i = 0; i < scores.size(); ++i) {
    if (static_cast<int>(i) != seat && scores[i] == best) winners.push_back(i);
  }
  const nlohmann::json result = {{"ended_by", ended_by},
                                 {"resigned_seat", seat},
                                 {"scores", scores},
                                 {"winners", winners},
                                 {"state_hash", game_->Hash()}};
  Write({persistence::ResignGameOp{options_.number, seat, result.dump()}},
        [this, peer, request_id, seat](const persistence::Status& status) {
          if (status) return ResignFailed(peer, request_id);
          seats_[static_cast<size_t>(seat)].resigned = true;
          status_ = wire::GAME_STATUS_RESIGNED;
          const wire::ServerMessage update = LobbyUpdateOf(Info());
          if (peer) Reply(*peer, request_id, update);
          Broadcast(update, peer.get());
          RestartClocks();
          Emit(RoomEvent::kResigned);
        });
}

// A resignation, or a forfeit (no peer), that could not be written.
void Room::ResignFailed(const std::shared_ptr<Peer>& peer, uint64_t request_id) {
  if (peer) return StorageFailed(*peer, request_id);
  RetryAlarmLater();
}

void Room::ResignToBot(const std::shared_ptr<Peer>& peer, uint64_t request_id, int seat) {
  constexpr bots::Level kLevel = bots::Level::kGreedy;
  Write({persistence::ResignSeatOp{options_.number, seat, std::string(bots::ToString(kLevel))}},
        [this, peer, request_id, seat](const persistence::Status& status) {
          if (status) return ResignFailed(peer, request_id);
          Seat& s = seats_[static_cast<size_t>(seat)];
          s.resigned = true;
          s.stand_in = false;
          s.bot = NewSeatBot(kLevel);
          const wire::ServerMessage update = LobbyUpdateOf(Info());
          if (peer) Reply(*peer, request_id, update);
          Broadcast(update, peer.get());
          RestartClocks();
          ThinkIfBotDecides();
        });
}

// ---------------------------------------------------------------------------------------------
// Rematches

void Room::Rematch(const std::shared_ptr<Peer>& peer, uint64_t request_id,
                   const wire::Rematch& rematch) {
  if (Deferred(peer, request_id, [=, this] { Rematch(peer, request_id, rematch); })) return;
  const auto seat = SeatOf(rematch.seat_token());
  if (!seat || IsBotToken(*seat, rematch.seat_token())) {
    return Error(*peer, request_id, wire::ERROR_CODE_BAD_TOKEN, "no seat has that token");
  }
  if (status_ != wire::GAME_STATUS_FINISHED && status_ != wire::GAME_STATUS_RESIGNED) {
    return Error(*peer, request_id, wire::ERROR_CODE_GAME_NOT_OVER, "the game is not over");
  }
  const RematchSeat entry{peer, request_id, *seat, seats_[static_cast<size_t>(*seat)].player_name};
  if (!rematch_.empty()) {
    if (on_rematch_join) on_rematch_join(rematch_, entry);
    return;
  }
  if (!on_rematch_create) {
    return Error(*peer, request_id, wire::ERROR_CODE_GAME_NOT_OVER,
                 "this game can no longer be rematched");
  }
  rematch_waiting_.push_back(entry);
  if (rematch_pending_) return;
  rematch_pending_ = true;
  on_rematch_create(RematchOptions(), game_type_);
}

// The same seats (as played: empty ones were dropped at the start), the same bots where bots sat
// from the creation, the same policy; a new seed.
RoomOptions Room::RematchOptions() const {
  RoomOptions rematch;
  rematch.shard = options_.shard;
  rematch.name = options_.name;
  rematch.seats = options_.seats;
  rematch.replay_limit = options_.replay_limit;
  rematch.max_waiting = options_.max_waiting;
  rematch.on_resign = options_.on_resign;
  rematch.time_control = options_.time_control;
  rematch.rematch_of = options_.number;
  for (size_t i = 0; i < seats_.size(); ++i) {
    if (seats_[i].bot && !seats_[i].resigned) {
      rematch.bots.push_back({static_cast<int>(i), seats_[i].bot->level});
    }
  }
  return rematch;
}

void Room::RematchReady(const wire::GameInfo& rematch) {
  rematch_ = rematch.game_id();
  rematch_pending_ = false;
  std::vector<RematchSeat> waiting = std::move(rematch_waiting_);
  rematch_waiting_.clear();
  for (size_t i = 0; i < seats_.size(); ++i) {
    const bool asked = std::any_of(waiting.begin(), waiting.end(), [i](const RematchSeat& w) {
      return w.seat == static_cast<int>(i);
    });
    const bool person = !seats_[i].bot || seats_[i].resigned;
    const auto peer = seats_[i].peer.lock();
    if (asked || !person || !peer) continue;
    wire::ServerMessage offer;
    offer.mutable_rematch_offered()->set_game_id(id_);
    *offer.mutable_rematch_offered()->mutable_game() = rematch;
    offer.mutable_rematch_offered()->set_seat(static_cast<uint32_t>(i));
    Reply(*peer, 0, std::move(offer));
  }
  for (const RematchSeat& w : waiting) {
    if (on_rematch_join) on_rematch_join(rematch_, w);
  }
}

void Room::RematchFailed(wire::ErrorCode code, const std::string& reason) {
  rematch_pending_ = false;
  std::vector<RematchSeat> waiting = std::move(rematch_waiting_);
  rematch_waiting_.clear();
  for (const RematchSeat& w : waiting) Error(*w.peer, w.request_id, code, reason);
}

void Room::WhenIdle(const std::function<void()>& job) {
  if (Deferred(nullptr, 0, [this, job] { WhenIdle(job); })) return;
  job();
}

}  // namespace carc::server
