#include "player.h"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <charconv>
#include <cstdio>
#include <iostream>
#include <mutex>

#include "clock_options.h"
#include "shards.h"

namespace carc::client {

namespace asio = boost::asio;
using Clock = std::chrono::steady_clock;

namespace {

// The waits before connecting again, as the web client's: 0.5 s, doubling up to 8 s.
constexpr std::chrono::milliseconds kFirstReconnectWait{500};
constexpr std::chrono::milliseconds kLongestReconnectWait{8000};

std::string SecondsText(std::chrono::milliseconds wait) {
  const auto tenths = wait.count() / 100;
  return std::to_string(tenths / 10) + (tenths % 10 == 0 ? "" : "." + std::to_string(tenths % 10)) +
         " s";
}

}  // namespace

void PrintLine(const std::string& line, bool to_stderr) {
  static std::mutex mutex;
  std::lock_guard lock(mutex);
  std::FILE* out = to_stderr ? stderr : stdout;
  std::fputs(line.c_str(), out);
  std::fputc('\n', out);
  std::fflush(out);
}

std::string Hex(const std::string& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  for (const char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    hex += kDigits[b >> 4];
    hex += kDigits[b & 15];
  }
  return hex;
}

std::optional<std::string> FromHex(const std::string& hex) {
  if (hex.empty() || hex.size() % 2 != 0 || hex.size() > 128) return std::nullopt;
  const auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string bytes;
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int hi = digit(hex[i]);
    const int lo = digit(hex[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    bytes += static_cast<char>(hi << 4 | lo);
  }
  return bytes;
}

std::shared_ptr<Player> Player::Create(asio::io_context& io, PlayerConfig config) {
  return std::shared_ptr<Player>(new Player(io, std::move(config)));
}

Player::Player(asio::io_context& io, PlayerConfig config)
    : strand_(asio::make_strand(io)),
      timer_(strand_),
      config_(std::move(config)),
      random_(config_.seed),
      pace_(core::Mix64(config_.seed ^ 0x7ACEULL)),
      reconnect_wait_(kFirstReconnectWait) {}

void Player::CreateAndJoin(wire::CreateGame create) {
  mode_ = Mode::kCreate;
  create_ = std::move(create);
  wanted_seat_ = 0;
}

void Player::Join(std::string game_id, std::optional<uint32_t> seat) {
  mode_ = Mode::kJoin;
  game_id_ = std::move(game_id);
  wanted_seat_ = seat;
}

void Player::Resume(std::string game_id, std::string token) {
  mode_ = Mode::kResume;
  game_id_ = std::move(game_id);
  token_ = std::move(token);
}

void Player::Start(Callbacks callbacks) {
  asio::dispatch(strand_, [self = shared_from_this(), callbacks = std::move(callbacks)]() mutable {
    self->callbacks_ = std::move(callbacks);
    self->started_ = true;
    // A seat of a game still to be created connects once its id is known (SetGame): behind a
    // proxy, the id says which shard to connect to.
    if (self->mode_ == Mode::kJoin && self->game_id_.empty()) return;
    self->Connect();
  });
}

void Player::Connect() {
  welcomed_ = false;
  welcome_shard_.clear();
  pending_id_ = 0;
  pending_.reset();
  connection_ = Connection::Create(strand_, Where(), config_.endpoints);
  auto self = shared_from_this();
  connection_->Start({
      .opened = nullptr,
      .message = [self](const wire::ServerMessage& m) { self->OnMessage(m); },
      .closed = [self](const std::string& error) { self->OnClosed(error); },
  });
  connection_->Send(HelloMessage());
}

// Before the game exists (CreateAndJoin), the base URL: the proxy picks the shard that creates it;
// or the shard tried after the one it picked was full. From then on, and on every reconnection,
// where the game is played.
ServerUrl Player::Where() const {
  if (!game_id_.empty()) return GameUrl(config_.url, game_id_);
  return create_shard_.empty() ? config_.url : ShardUrl(config_.url, create_shard_);
}

void Player::SetGame(const std::string& game_id) {
  asio::dispatch(strand_, [self = shared_from_this(), game_id] {
    if (!self->game_id_.empty() || self->mode_ != Mode::kJoin) return;
    self->game_id_ = game_id;
    if (self->started_ && !self->connection_ && !self->stopped_ && !self->done_) self->Connect();
  });
}

void Player::Stop() {
  asio::dispatch(strand_, [self = shared_from_this()] {
    if (self->stopped_ || self->done_) return;
    self->stopped_ = true;
    self->timer_.cancel();
    if (self->connection_) {
      self->connection_->Close();
    } else {
      self->Done();
    }
  });
}

void Player::Fail(const std::string& error) {
  if (failed_ || done_) return;
  failed_ = true;
  error_ = error;
  timer_.cancel();
  if (connection_) {
    connection_->Close();
  } else {
    Done();
  }
}

void Player::Done() {
  if (done_) return;
  done_ = true;
  if (callbacks_.done) callbacks_.done();
  callbacks_ = {};
}

void Player::OnClosed(const std::string& error) {
  connection_.reset();
  welcomed_ = false;
  if (finished_ || stopped_ || failed_) return Done();
  if (changing_shard_) {
    changing_shard_ = false;
    return Connect();
  }
  const std::string why = !server_closing_.empty() ? server_closing_
                          : error.empty()          ? std::string("connection closed")
                                                   : error;
  server_closing_.clear();
  if (game_id_.empty() && create_shards_) {
    // A shard tried for creating the game that went away before it did: the next one, if any.
    if (CreateOnAnotherShard()) return Connect();
    return Fail(why + " (the last shard tried for creating the game)");
  }
  if (!server_restarting_ && !config_.reconnect_unannounced) return Fail(why);
  ConnectAgainLater(why);
}

void Player::ConnectAgainLater(const std::string& why) {
  const Clock::time_point now = Clock::now();
  if (!lost_since_) lost_since_ = now;
  if (now - *lost_since_ >= config_.reconnect_for) {
    return Fail(why + "; no connection again within " +
                std::to_string(config_.reconnect_for.count()) + " s");
  }
  ++stats_.reconnects;
  const std::chrono::milliseconds wait = reconnect_wait_;
  reconnect_wait_ = std::min(reconnect_wait_ * 2, kLongestReconnectWait);
  PrintLine("carc-client: " + why + "; reconnecting in " + SecondsText(wait), true);
  timer_.expires_after(wait);
  timer_.async_wait([self = shared_from_this()](const boost::system::error_code&) {
    if (self->stopped_ || self->failed_) return self->Done();
    self->report_resume_ = true;
    self->Connect();
  });
}

bool Player::CreateOnAnotherShard() {
  if (mode_ != Mode::kCreate || config_.shards.empty()) return false;
  if (!create_shards_) create_shards_ = ShardsToTryAfter(config_.shards, welcome_shard_);
  if (create_shards_->empty()) return false;
  create_shard_ = create_shards_->front();
  create_shards_->erase(create_shards_->begin());
  return true;
}

// ---------------------------------------------------------------------------------------------
// Messages

void Player::OnMessage(const wire::ServerMessage& message) {
  stats_.bytes_received += message.ByteSizeLong();
  switch (message.body_case()) {
    case wire::ServerMessage::kWelcome:
      welcomed_ = true;
      welcome_shard_ = message.welcome().shard();
      server_restarting_ = false;
      lost_since_.reset();
      reconnect_wait_ = kFirstReconnectWait;
      return AfterWelcome();
    case wire::ServerMessage::kGameCreated:
      if (message.request_id() != setup_id_) return;
      game_id_ = message.game_created().game().game_id();
      if (callbacks_.created) callbacks_.created(game_id_);
      return SendJoin();
    case wire::ServerMessage::kSeatJoined:
      if (message.request_id() != setup_id_) return;
      seat_ = static_cast<int>(message.seat_joined().seat());
      token_ = message.seat_joined().seat_token();
      if (config_.print_all) {
        PrintLine("joined game " + game_id_ + " as seat " + std::to_string(seat_) + "; token " +
                  Hex(token_) + " (keep it secret: it is the seat)");
      }
      return;
    case wire::ServerMessage::kLobbyUpdate: {
      const wire::GameInfo& game = message.lobby_update().game();
      if (game.game_id() == game_id_ && follower_.started()) return OnGameChanged(game);
      if (!config_.print_all) return;
      int taken = 0;
      for (const wire::SeatInfo& s : game.seat()) taken += s.taken() ? 1 : 0;
      return PrintLine("game " + game.game_id() + " waits for players: " + std::to_string(taken) +
                       " of " + std::to_string(game.seats()) + " seats taken");
    }
    case wire::ServerMessage::kSnapshot:
      return OnSnapshot(message.snapshot());
    case wire::ServerMessage::kDelta:
      return OnDelta(message);
    case wire::ServerMessage::kError:
      return OnError(message);
    case wire::ServerMessage::kSeatStatus:
      if (config_.print_all && message.seat_status().game_id() == game_id_ &&
          static_cast<int>(message.seat_status().seat()) != seat_) {
        PrintLine("seat " + std::to_string(message.seat_status().seat()) + " is " +
                  (message.seat_status().online() ? "back online" : "offline"));
      }
      return;
    case wire::ServerMessage::kRematchOffered: {
      const wire::RematchOffered& offer = message.rematch_offered();
      const std::string seat = std::to_string(offer.seat());
      return PrintLine("a rematch of " + offer.game_id() + " is offered: game " +
                       offer.game().game_id() + ", your seat " + seat + " (carc-client join " +
                       offer.game().game_id() + " --seat " + seat + ")");
    }
    case wire::ServerMessage::kClocks:
      if (message.clocks().game_id() == game_id_) clocks_ = message.clocks();
      return;
    case wire::ServerMessage::kChatMessage: {
      // A line comes again after a Resume by deltas when it was said just after the last delta
      // seen: each number is printed once.
      const wire::ChatMessage& line = message.chat_message();
      if (line.game_id() != game_id_ || line.number() <= last_chat_number_) return;
      last_chat_number_ = line.number();
      if (config_.print_all) PrintLine(ChatLineText(line));
      return;
    }
    case wire::ServerMessage::kSeatMuted:
      if (config_.print_all) {
        PrintLine("seat " + std::to_string(message.seat_muted().seat()) +
                  (message.seat_muted().muted() ? " is muted" : " is heard again"));
      }
      return;
    case wire::ServerMessage::kSeatMoved:
      if (message.seat_moved().game_id() != game_id_) return;
      return Fail("the seat was taken by another connection with its token");
    case wire::ServerMessage::kServerClosing:
      // A restart or an upgrade: the close follows, and the server comes back on the same game
      // log, so the seat is resumed as after a lost connection (OnClosed).
      server_closing_ = "the server closed the connection with ServerClosing (\"" +
                        message.server_closing().reason() + "\")";
      server_restarting_ = true;
      return;
    default:
      return;
  }
}

void Player::AfterWelcome() {
  if (!token_.empty()) return SendResume(follower_.started() ? follower_.sequence() : 0);
  if (mode_ == Mode::kCreate && game_id_.empty()) {
    wire::ClientMessage message;
    *message.mutable_create_game() = create_;
    setup_id_ = connection_->Send(std::move(message));
    return;
  }
  if (!game_id_.empty()) SendJoin();
  // Otherwise the game id comes later (SetGame).
}

void Player::SendJoin() {
  wire::ClientMessage message;
  wire::JoinSeat* join = message.mutable_join_seat();
  join->set_game_id(game_id_);
  if (wanted_seat_) join->set_seat(*wanted_seat_);
  join->set_player_name(config_.name);
  setup_id_ = connection_->Send(std::move(message));
}

void Player::SendResume(uint64_t last_seen) {
  wire::ClientMessage message;
  wire::Resume* resume = message.mutable_resume();
  resume->set_game_id(game_id_);
  resume->set_seat_token(token_);
  resume->set_last_seen_sequence(last_seen);
  setup_id_ = connection_->Send(std::move(message));
}

void Player::Resync(const std::string& why) {
  ++stats_.lost_way;
  ++stats_.resyncs;
  PrintLine("carc-client: game " + game_id_ + " seat " + std::to_string(seat_) + ": " + why +
                "; asking for a snapshot",
            true);
  if (stats_.resyncs > 20) return Fail("lost the game's state too often: " + why);
  pending_id_ = 0;
  pending_.reset();
  if (connection_) SendResume(0);
}

void Player::OnSnapshot(const wire::Snapshot& snapshot) {
  if (snapshot.game_id() != game_id_) return;
  if (snapshot.rule_set() != config_.rule_set) {
    return Fail("game " + game_id_ + " is a game of rule set '" + snapshot.rule_set() + "', not '" +
                config_.rule_set + "'");
  }
  if (snapshot.has_your_seat()) seat_ = static_cast<int>(snapshot.your_seat());
  if (report_resume_) {
    report_resume_ = false;
    PrintLine(
        "carc-client: resumed with a snapshot at sequence " + std::to_string(snapshot.sequence()),
        true);
  }
  if (auto error = follower_.Start(snapshot, config_.tiles)) {
    ++stats_.lost_way;
    return Fail(*error);
  }
  pending_.reset();
  pending_id_ = 0;
  if (snapshot.has_clocks()) clocks_ = snapshot.clocks();
  if (config_.print_all) {
    PrintLine("game " + game_id_ + ", you are seat " + std::to_string(seat_) + "\n" +
              RenderState(follower_, *config_.tiles) + (clocks_ ? ClocksText(*clocks_) : ""));
  }
  if (follower_.over()) return GameEnded();
  if (!follower_.legal_actions().empty()) Decide();
}

void Player::OnDelta(const wire::ServerMessage& message) {
  const wire::Delta& delta = message.delta();
  if (delta.game_id() != game_id_) return;
  const Clock::time_point now = Clock::now();
  if (report_resume_ && message.request_id() == setup_id_) {
    report_resume_ = false;
    PrintLine("carc-client: resumed after sequence " + std::to_string(follower_.sequence()) +
                  " with the missed deltas",
              true);
  }
  // A delta seen already (a resume may send it again) is skipped; any other that does not
  // follow means the state is lost.
  if (follower_.started() && delta.sequence() <= follower_.sequence()) return;
  if (auto error = follower_.Apply(delta)) return Resync(*error);
  ++stats_.deltas;
  stats_.last_delta = now;
  if (config_.moves) {
    if (const auto sent = config_.moves->SentBefore(delta.sequence())) {
      stats_.broadcast_ns.push_back(
          std::chrono::duration_cast<std::chrono::nanoseconds>(now - *sent).count());
    }
  }
  const bool mine = pending_id_ != 0 && message.request_id() == pending_id_;
  if (mine) {
    ++stats_.moves_accepted;
    stats_.latency_ns.push_back(
        std::chrono::duration_cast<std::chrono::nanoseconds>(now - pending_sent_).count());
    pending_id_ = 0;
    pending_.reset();
  }
  if (pending_ && pending_->sequence < delta.sequence()) pending_.reset();  // answered elsewhere
  const std::string action = ActionText(follower_.last_action().value_or("?"), *config_.tiles);
  if (config_.print_all) {
    std::string line = "seq " + std::to_string(delta.sequence()) + ": seat " +
                       std::to_string(delta.seat()) + (mine ? " (you): " : ": ") + action;
    for (const std::string& event : NotableEvents(follower_)) line += "\n    " + event;
    PrintLine(line);
  } else if (config_.print_moves && mine) {
    PrintLine("seq " + std::to_string(delta.sequence()) + " seat " + std::to_string(seat_) + ": " +
              action);
  }
  if (follower_.over()) return GameEnded();
  if (config_.leave_at_sequence > 0 && follower_.sequence() >= config_.leave_at_sequence) {
    return Stop();
  }
  if (!follower_.legal_actions().empty()) Decide();
}

void Player::OnError(const wire::ServerMessage& message) {
  const wire::Error& error = message.error();
  ++stats_.errors[wire::ErrorCode_Name(error.code())];
  const uint64_t id = message.request_id();
  if (id != 0 && id == setup_id_) {
    const bool full = error.code() == wire::ERROR_CODE_SERVER_FULL && game_id_.empty();
    if (full && CreateOnAnotherShard()) {
      // This shard is full; another behind the proxy may have room.
      changing_shard_ = true;
      connection_->Close();
      return;
    }
    return Fail("the server refused: " + Describe(error) +
                (full && create_shards_ ? " (every shard that answered is full)" : ""));
  }
  if (id == 0 || id != pending_id_) {
    PrintLine("carc-client: the server says " + Describe(error), true);
    return;
  }
  pending_id_ = 0;
  if (error.code() == wire::ERROR_CODE_RATE_LIMITED && pending_) {
    // Sent too fast for the server's limit: wait a little and send the same move again.
    ++stats_.rate_limited;
    const uint64_t sequence = pending_->sequence;
    timer_.expires_after(std::chrono::milliseconds(100));
    timer_.async_wait([self = shared_from_this(), sequence](const boost::system::error_code& ec) {
      if (ec || self->done_ || self->stopped_ || self->failed_) return;
      if (self->pending_ && self->pending_->sequence == sequence &&
          self->follower_.sequence() == sequence && self->connection_) {
        self->SendMove();
      }
    });
    return;
  }
  PrintLine("carc-client: move refused: " + Describe(error), true);
  if (error.code() == wire::ERROR_CODE_STAND_IN_PLAYS) {
    // Asking for a snapshot would send Resume, which takes the seat back: that is the player's
    // choice ('back'), not the client's.
    pending_.reset();
    return PrintLine("a stand-in plays your seat; enter 'back' to take it back");
  }
  if (config_.policy == Policy::kHuman && pending_ &&
      error.code() != wire::ERROR_CODE_STALE_SEQUENCE &&
      error.code() != wire::ERROR_CODE_NOT_YOUR_DECISION) {
    return Ask();
  }
  Resync("a move was refused (" + wire::ErrorCode_Name(error.code()) + ")");
}

// ---------------------------------------------------------------------------------------------
// The moves of a game's seats, timed

void MoveClock::Sent(uint64_t sequence, Clock::time_point at) {
  std::lock_guard lock(mutex_);
  delta_sequence_ = sequence + 1;
  sent_ = at;
  turn_open_ = true;
}

std::optional<MoveClock::Clock::time_point> MoveClock::SentBefore(uint64_t delta_sequence) const {
  std::lock_guard lock(mutex_);
  if (delta_sequence_ == 0 || delta_sequence != delta_sequence_) return std::nullopt;
  return sent_;
}

std::optional<MoveClock::Clock::time_point> MoveClock::TakeForTurn() {
  std::lock_guard lock(mutex_);
  if (!turn_open_) return std::nullopt;
  turn_open_ = false;
  return sent_;
}

// ---------------------------------------------------------------------------------------------
// Decisions

void Player::Decide() {
  if (finished_ || stopped_ || failed_) return;
  if (pending_id_ != 0) return;  // a move of ours is still on its way
  if (config_.moves) {
    if (const auto sent = config_.moves->TakeForTurn()) {
      stats_.turn_ns.push_back(
          std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - *sent).count());
    }
  }
  pending_ = Pending{follower_.sequence(), follower_.legal_actions(), follower_.legal(), 0};
  if (config_.policy == Policy::kHuman) return Ask();
  pending_->chosen = ChooseAction(follower_, config_.policy == Policy::kEager, random_);
  if (config_.think.count() <= 0) return SendMove();
  // The pace of a person: the move goes after the think time, if the decision is still ours.
  const uint64_t sequence = pending_->sequence;
  const auto think = config_.think.count();
  timer_.expires_after(std::chrono::milliseconds(
      think / 2 + static_cast<int64_t>(pace_.Below(static_cast<uint64_t>(think) + 1))));
  timer_.async_wait([self = shared_from_this(), sequence](const boost::system::error_code& ec) {
    if (ec || self->done_ || self->stopped_ || self->failed_) return;
    if (self->pending_ && self->pending_->sequence == sequence && self->pending_id_ == 0) {
      self->SendMove();
    }
  });
}

void Player::Ask() {
  std::string text = "\nyour decision (seat " + std::to_string(seat_) + ", " +
                     DescribeDecision(follower_) + "):\n";
  const bool current = follower_.sequence() == pending_->sequence;
  for (size_t i = 0; i < pending_->notation.size(); ++i) {
    text += "  " + std::to_string(i + 1) + ") " + pending_->notation[i];
    const std::string hint = current ? ActionHint(follower_, *config_.tiles, i) : std::string();
    if (!hint.empty()) text += "  (" + hint + ")";
    text += "\n";
  }
  if (clocks_) text += ClocksText(*clocks_) + "\n";
  text += "enter a number (or the action as shown, 's' to show the state, 'q' to quit):";
  PrintLine(text);
}

// "say TEXT", "mute N" and "unmute N" at the terminal: sent with the seat's token, answered by
// the server (the line comes back as a ChatMessage, a refusal as an Error).
bool Player::ChatCommand(const std::string& text) {
  if (text.starts_with("say ")) {
    wire::ClientMessage message;
    wire::SendChat* send = message.mutable_send_chat();
    send->set_game_id(game_id_);
    send->set_seat_token(token_);
    send->set_text(text.substr(4));
    if (connection_) connection_->Send(std::move(message));
    return true;
  }
  for (const bool muted : {true, false}) {
    const std::string command = muted ? "mute " : "unmute ";
    if (!text.starts_with(command)) continue;
    uint32_t seat = 0;
    const std::string number = text.substr(command.size());
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), seat);
    if (ec != std::errc() || end != number.data() + number.size()) {
      PrintLine("usage: " + command + "SEAT (a seat number)");
      return true;
    }
    wire::ClientMessage message;
    wire::MuteSeat* mute = message.mutable_mute_seat();
    mute->set_game_id(game_id_);
    mute->set_seat_token(token_);
    mute->set_seat(seat);
    mute->set_muted(muted);
    if (connection_) connection_->Send(std::move(message));
    return true;
  }
  return false;
}

void Player::Input(const std::string& line) {
  asio::dispatch(strand_, [self = shared_from_this(), line] {
    std::string text = line;
    while (!text.empty() && (text.back() == '\r' || text.back() == ' ')) text.pop_back();
    while (!text.empty() && text.front() == ' ') text.erase(0, 1);
    if (text.empty()) return;
    if (text == "q" || text == "quit") {
      PrintLine("leaving; the seat stays yours: play again with the same token to resume");
      return self->Stop();
    }
    if (self->ChatCommand(text)) return;
    if (text == "back") return self->TakeSeatBack();
    if (text == "s" || text == "show") {
      if (self->follower_.started()) {
        PrintLine(RenderState(self->follower_, *self->config_.tiles) +
                  (self->clocks_ ? ClocksText(*self->clocks_) : ""));
      }
      if (self->pending_ && self->pending_id_ == 0) self->Ask();
      return;
    }
    if (!self->pending_ || self->pending_id_ != 0) {
      return PrintLine("it is not your decision now; wait (or 'q' to quit)");
    }
    const size_t n = self->pending_->legal.size();
    std::optional<size_t> choice;
    size_t number = 0;
    bool digits = true;
    for (const char c : text) {
      if (c < '0' || c > '9' || number > 100000) {
        digits = false;
        break;
      }
      number = number * 10 + static_cast<size_t>(c - '0');
    }
    if (digits && number >= 1 && number <= n) choice = number - 1;
    for (size_t i = 0; !choice && !digits && i < n; ++i) {
      if (self->pending_->notation[i] == text) choice = i;
    }
    if (!choice) {
      return PrintLine("not one of the choices: enter 1 to " + std::to_string(n));
    }
    self->pending_->chosen = *choice;
    self->SendMove();
  });
}

void Player::SendMove() {
  if (!connection_ || !pending_) return;
  wire::ClientMessage message;
  wire::Move* move = message.mutable_move();
  move->set_game_id(game_id_);
  move->set_seat_token(token_);
  move->set_sequence(pending_->sequence);
  move->set_action(pending_->legal[pending_->chosen]);
  pending_sent_ = Clock::now();
  if (config_.moves) config_.moves->Sent(pending_->sequence, pending_sent_);
  if (!stats_.first_move) stats_.first_move = pending_sent_;
  ++stats_.moves_sent;
  pending_id_ = connection_->Send(std::move(message));
}

// A running game's seats or status changed: a player resigned, a stand-in came or went.
void Player::OnGameChanged(const wire::GameInfo& game) {
  TellStandIns(game);
  if (config_.print_moves || config_.print_all) {
    for (const wire::SeatInfo& s : game.seat()) {
      if (!s.resigned() || !resigned_seats_.insert(static_cast<int>(s.seat())).second) continue;
      PrintLine("seat " + std::to_string(s.seat()) + " ('" + s.player_name() + "') resigned" +
                (s.bot().empty() ? "" : "; a " + s.bot() + " bot plays it on"));
    }
  }
  if (game.status() == wire::GAME_STATUS_RESIGNED) GameEnded();
}

// Each stand-in that came or went since the last LobbyUpdate, once; for this player's own seat
// with the way back.
void Player::TellStandIns(const wire::GameInfo& game) {
  for (const wire::SeatInfo& s : game.seat()) {
    const int seat = static_cast<int>(s.seat());
    const bool was = stand_in_seats_.contains(seat);
    if (s.stand_in() == was) continue;
    if (s.stand_in()) {
      stand_in_seats_.insert(seat);
    } else {
      stand_in_seats_.erase(seat);
    }
    if (!config_.print_moves && !config_.print_all) continue;
    const std::string who = "seat " + std::to_string(seat) + " ('" + s.player_name() + "')";
    if (seat == seat_ && s.stand_in()) {
      PrintLine("a stand-in (" + s.bot() + " bot) plays your seat: you were away too long or out " +
                "of time; enter 'back' to take it back");
    } else if (s.stand_in()) {
      PrintLine(who + " is away: a stand-in (" + s.bot() + " bot) plays it");
    } else {
      PrintLine(who + (seat == seat_ ? " is yours again" : " is played by its player again"));
    }
  }
}

// Resume with the seat's token sends the stand-in away; the snapshot that answers it carries the
// seat's decision, if it has one.
void Player::TakeSeatBack() {
  if (!connection_ || token_.empty()) return;
  pending_.reset();
  pending_id_ = 0;
  SendResume(0);
}

void Player::GameEnded() {
  finished_ = true;
  pending_.reset();
  pending_id_ = 0;
  if (config_.print_moves || config_.print_all) {
    PrintLine(GameOverText(game_id_, follower_, seat_));
  }
  if (connection_) {
    connection_->Close();
  } else {
    Done();
  }
}

}  // namespace carc::client
