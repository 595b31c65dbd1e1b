#include "room/chat.h"

#include <algorithm>
#include <cassert>
#include <chrono>

#include "protocol/client_text.h"
#include "room/room.h"

namespace carc::server {

MonotonicClock SteadyClockMs() {
  return [] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  };
}

wire::ChatMessage ChatLineMessage(const std::string& game_id, const persistence::ChatRecord& line) {
  wire::ChatMessage message;
  message.set_game_id(game_id);
  if (line.seat >= 0) message.set_seat(static_cast<uint32_t>(line.seat));
  message.set_name(line.name);
  message.set_text(line.text);
  message.set_time_ms(line.time_ms);
  message.set_after_sequence(line.after_sequence);
  message.set_number(line.number);
  return message;
}

bool HasChatText(const std::string& text) {
  return text.find_first_not_of(' ') != std::string::npos;
}

ChatLog::ChatLog(MonotonicClock clock) : clock_(clock ? std::move(clock) : SteadyClockMs()) {}

void ChatLog::Restore(const std::vector<persistence::ChatRecord>& lines,
                      const std::string& game_id) {
  recent_.clear();
  last_number_ = 0;
  for (const persistence::ChatRecord& line : lines) Add(ChatLineMessage(game_id, line));
}

bool ChatLog::Allow(const Peer* connection) {
  const int64_t now = clock_();
  std::deque<int64_t>& said = said_[connection];
  while (!said.empty() && now - said.front() >= kChatWindowMs) said.pop_front();
  if (said.size() >= kChatBurst) return false;
  said.push_back(now);
  return true;
}

void ChatLog::Add(wire::ChatMessage line) {
  last_number_ = std::max(last_number_, line.number());
  recent_.push_back(std::move(line));
  if (recent_.size() > kRecentChatLines) recent_.pop_front();
}

uint32_t WithSeatMuted(uint32_t seats, int seat, bool muted) {
  assert(seat >= 0 && seat < 32 && "a seat's bit in a mask of 32");
  const uint32_t bit = uint32_t{1} << seat;
  return muted ? seats | bit : seats & ~bit;
}

uint32_t ChatLog::MutesOf(int muter) const {
  const auto found = mutes_.find(muter);
  return found == mutes_.end() ? 0 : found->second;
}

void ChatLog::SetMutes(int muter, uint32_t seats) {
  if (seats == 0) {
    mutes_.erase(muter);
  } else {
    mutes_[muter] = seats;
  }
}

bool ChatLog::Muted(int muter, std::optional<int> speaker) const {
  return speaker && *speaker >= 0 && *speaker < 32 &&
         (MutesOf(muter) & (uint32_t{1} << *speaker)) != 0;
}

std::vector<wire::ChatMessage> ChatLog::SaidSince(uint64_t sequence, int reader) const {
  std::vector<wire::ChatMessage> lines;
  for (const wire::ChatMessage& line : recent_) {
    if (line.after_sequence() >= sequence && Hears(reader, line)) lines.push_back(line);
  }
  return lines;
}

void ChatLog::AddRecent(std::optional<int> reader,
                        google::protobuf::RepeatedPtrField<wire::ChatMessage>* out) const {
  for (const wire::ChatMessage& line : recent_) {
    if (Hears(reader, line)) *out->Add() = line;
  }
}

bool ChatLog::Hears(std::optional<int> reader, const wire::ChatMessage& line) const {
  const std::optional<int> speaker =
      line.has_seat() ? std::optional<int>(static_cast<int>(line.seat())) : std::nullopt;
  return !reader || !Muted(*reader, speaker);
}

// ---------------------------------------------------------------------------------------------
// The room's chat requests

void Room::SendChat(const std::shared_ptr<Peer>& peer, uint64_t request_id,
                    const wire::SendChat& send) {
  if (Deferred(peer, request_id, [=, this] { SendChat(peer, request_id, send); })) return;
  std::optional<int> seat;
  if (!send.seat_token().empty()) {
    seat = SeatOf(send.seat_token());
    if (!seat)
      return Error(*peer, request_id, wire::ERROR_CODE_BAD_TOKEN, "no seat has that token");
  } else {
    const bool watching =
        std::any_of(spectators_.begin(), spectators_.end(),
                    [&](const std::weak_ptr<Peer>& w) { return w.lock() == peer; });
    if (!watching) {
      return Error(*peer, request_id, wire::ERROR_CODE_CHAT_NOT_ALLOWED,
                   "spectate the game to chat in it, or send your seat's token");
    }
    if (!options_.spectators_chat) {
      return Error(*peer, request_id, wire::ERROR_CODE_CHAT_NOT_ALLOWED,
                   "this game's spectators read its chat but do not write in it");
    }
  }
  if (status_ == wire::GAME_STATUS_DAMAGED) {
    return Error(*peer, request_id, wire::ERROR_CODE_GAME_DAMAGED, "the game's log is damaged");
  }
  // The session checks every client text; a room reached otherwise (the fuzzer) checks again.
  if (const auto bad = protocol::CheckClientText(send)) {
    return Error(*peer, request_id, wire::ERROR_CODE_BAD_TEXT, bad->reason);
  }
  if (!HasChatText(send.text())) {
    return Error(*peer, request_id, wire::ERROR_CODE_CHAT_EMPTY, "the line says nothing");
  }
  if (!chat_.Allow(peer.get())) {
    return Error(*peer, request_id, wire::ERROR_CODE_CHAT_RATE_LIMITED,
                 "at most " + std::to_string(kChatBurst) + " lines in " +
                     std::to_string(kChatWindowMs / 1000) + " seconds; wait a moment");
  }
  const persistence::ChatRecord line{
      chat_.NextNumber(),
      seat.value_or(-1),
      seat ? seats_[static_cast<size_t>(*seat)].player_name : kSpectatorName,
      send.text(),
      persistence::NowMs(),
      Sequence()};
  Write({persistence::AppendChatOp{options_.number, line}},
        [this, peer, request_id, line](const persistence::Status& status) {
          if (status) return StorageFailed(*peer, request_id);
          PublishChat(ChatLineMessage(id_, line), peer, request_id);
        });
}

// Everybody gets the line, but the seats that muted its speaker; the sender gets it as its reply.
void Room::PublishChat(wire::ChatMessage line, const std::shared_ptr<Peer>& sender,
                       uint64_t request_id) {
  chat_.Add(line);
  const std::optional<int> speaker =
      line.has_seat() ? std::optional<int>(static_cast<int>(line.seat())) : std::nullopt;
  wire::ServerMessage message;
  *message.mutable_chat_message() = std::move(line);
  const Bytes bytes = std::make_shared<const std::string>(message.SerializeAsString());
  for (size_t i = 0; i < seats_.size(); ++i) {
    const auto peer = seats_[i].peer.lock();
    if (peer && peer != sender && !chat_.Muted(static_cast<int>(i), speaker)) peer->Send(bytes);
  }
  for (const auto& weak : spectators_) {
    if (auto peer = weak.lock(); peer && peer != sender) peer->Send(bytes);
  }
  Reply(*sender, request_id, std::move(message));
}

void Room::MuteSeat(const std::shared_ptr<Peer>& peer, uint64_t request_id,
                    const wire::MuteSeat& mute) {
  if (Deferred(peer, request_id, [=, this] { MuteSeat(peer, request_id, mute); })) return;
  const auto seat = SeatOf(mute.seat_token());
  if (!seat) {
    if (mute.seat_token().empty()) {
      return Error(*peer, request_id, wire::ERROR_CODE_SPECTATOR, "only players mute seats");
    }
    return Error(*peer, request_id, wire::ERROR_CODE_BAD_TOKEN, "no seat has that token");
  }
  if (mute.seat() >= seats_.size()) {
    return Error(*peer, request_id, wire::ERROR_CODE_BAD_SEAT_COUNT, "the game has no such seat");
  }
  if (status_ == wire::GAME_STATUS_DAMAGED) {
    return Error(*peer, request_id, wire::ERROR_CODE_GAME_DAMAGED, "the game's log is damaged");
  }
  // Requests wait while a write is in flight (Deferred), so the mask read here is the last one.
  const uint32_t seats =
      WithSeatMuted(chat_.MutesOf(*seat), static_cast<int>(mute.seat()), mute.muted());
  Write({persistence::MuteSeatsOp{options_.number, *seat, seats}},
        [this, peer, request_id, muter = *seat, seats, mute](const persistence::Status& status) {
          if (status) return StorageFailed(*peer, request_id);
          chat_.SetMutes(muter, seats);
          wire::ServerMessage reply;
          wire::SeatMuted* muted = reply.mutable_seat_muted();
          muted->set_game_id(id_);
          muted->set_seat(mute.seat());
          muted->set_muted(mute.muted());
          Reply(*peer, request_id, std::move(reply));
        });
}

}  // namespace carc::server
