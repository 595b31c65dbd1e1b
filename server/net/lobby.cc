#include "net/lobby.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cassert>
#include <thread>

#include "protocol/tileset_message.h"
#include "room/replay.h"
#include "text/log_safe.h"

namespace carc::server {
namespace {

// How many games one page of ListGames holds when it does not say, and at most.
constexpr uint32_t kDefaultListLimit = 50;
constexpr uint32_t kMaxListLimit = 200;

uint32_t PageLimit(uint32_t asked) {
  return asked == 0 ? kDefaultListLimit : std::min(asked, kMaxListLimit);
}

wire::ServerMessage EmptyGameList(uint64_t request_id) {
  wire::ServerMessage reply;
  reply.set_request_id(request_id);
  reply.mutable_game_list();
  return reply;
}

// Runs on the reader thread: the stored games `filter` selects, as a GameList (or an Error). With
// `page_limit`, the filter asks for one game more than a page: when it is there, the page is cut
// to the limit and says where the next one begins.
wire::ServerMessage StoredGameList(persistence::Store& store, const persistence::ListFilter& filter,
                                   uint64_t request_id, std::string_view shard,
                                   std::optional<size_t> page_limit = std::nullopt) {
  auto listed = store.ListGames(filter);
  if (!listed) {
    spdlog::error("listing games: {}", listed.error().message);
    wire::ServerMessage reply;
    reply.set_request_id(request_id);
    reply.mutable_error()->set_code(wire::ERROR_CODE_STORAGE_FAILED);
    reply.mutable_error()->set_reason("the game log could not be read");
    return reply;
  }
  wire::ServerMessage reply = EmptyGameList(request_id);
  if (page_limit && listed->size() > *page_limit) {
    listed->resize(*page_limit);
    reply.mutable_game_list()->set_next_page(PublicGameId(shard, listed->back().number));
  }
  for (const persistence::GameRecord& game : *listed) {
    *reply.mutable_game_list()->add_games() = InfoFromRecord(game, shard);
  }
  return reply;
}

// A page of the hosted games from the summaries of the rooms looked at, in game-number order:
// finished games left out, at most `limit` games. `more_rooms`: rooms after those were not looked
// at. The next page starts after the last game listed, or after the last room looked at when the
// page holds every unfinished game seen.
wire::ServerMessage HostedPage(const std::vector<wire::GameInfo>& infos, uint32_t limit,
                               bool more_rooms, uint64_t request_id) {
  wire::ServerMessage reply = EmptyGameList(request_id);
  wire::GameList& list = *reply.mutable_game_list();
  for (const wire::GameInfo& info : infos) {
    if (info.status() == wire::GAME_STATUS_FINISHED ||
        info.status() == wire::GAME_STATUS_ABANDONED ||
        info.status() == wire::GAME_STATUS_RESIGNED) {
      continue;  // ended: listed from the log
    }
    if (list.games_size() == static_cast<int>(limit)) {
      list.set_next_page(list.games(list.games_size() - 1).game_id());
      return reply;
    }
    *list.add_games() = info;
  }
  if (more_rooms && !infos.empty()) list.set_next_page(infos.back().game_id());
  return reply;
}

std::map<std::string, wire::ServerMessage, std::less<>> TileSetReplies(
    const RuleSetRegistry& rule_sets) {
  std::map<std::string, wire::ServerMessage, std::less<>> replies;
  for (const core::RuleSet* rules : rule_sets.All()) {
    *replies[rules->Type().id].mutable_tile_set() = protocol::ToProto(rules->Tiles());
  }
  return replies;
}

wire::Welcome WelcomeOf(const RuleSetRegistry& rule_sets, const std::string& shard) {
  wire::Welcome welcome;
  welcome.set_shard(shard);
  for (const core::RuleSet* rules : rule_sets.All()) {
    const core::GameType& type = rules->Type();
    if (rule_sets.Find(type.id) != rules) continue;  // new games are played by the newest only
    wire::RuleSetInfo* info = welcome.add_rule_sets();
    info->set_id(type.id);
    info->set_version(static_cast<uint32_t>(type.version));
    info->set_name(type.name);
    info->set_min_players(static_cast<uint32_t>(type.min_players));
    info->set_max_players(static_cast<uint32_t>(type.max_players));
    for (const core::OptionSpec& spec : type.options) {
      wire::OptionInfo* option = info->add_options();
      option->set_name(spec.name);
      option->set_description(spec.description);
      option->set_default_value(spec.default_value);
      option->set_min(spec.min);
      option->set_max(spec.max);
    }
  }
  return welcome;
}

wire::ServerMessage ErrorMessage(wire::ErrorCode code, const std::string& reason) {
  wire::ServerMessage message;
  message.mutable_error()->set_code(code);
  message.mutable_error()->set_reason(reason);
  return message;
}

// The game a stored record is played by: its rule set at its version, and its options; nullopt
// when this server does not have that rule set (the game cannot be hosted).
std::optional<RoomGame> StoredGameOf(const persistence::GameRecord& record,
                                     const RuleSetRegistry& rule_sets) {
  const core::RuleSet* rules = rule_sets.Find(record.rule_set, record.rule_set_version);
  const protocol::GameCodec* codec = protocol::FindGameCodec(record.rule_set);
  const auto options = core::ParseOptions(record.options);
  if (rules == nullptr || codec == nullptr || !std::holds_alternative<core::Options>(options)) {
    return std::nullopt;
  }
  auto complete = rules->CompleteOptions(std::get<core::Options>(options));
  if (!std::holds_alternative<core::Options>(complete)) return std::nullopt;
  return RoomGame{rule_sets.Shared(*rules), codec, std::get<core::Options>(std::move(complete))};
}

// A game's seed from the operating system's random source: nobody can foresee the drawing order.
uint64_t OsRandomSeed() {
  const SeatToken r = OsRandomToken();
  uint64_t seed = 0;
  for (size_t i = 0; i < 8; ++i) seed = seed << 8 | r[i];
  return seed;
}

// The log of a room restored only to answer one request about an ended game: it writes nothing.
class ReadOnlyLog : public persistence::GameLog {
 public:
  void Submit(persistence::Write /*write*/, Done done) override {
    done(persistence::StoreError{SQLITE_READONLY, "a game that has ended is not written"});
  }
};

bool Ended(persistence::GameStatus status) {
  return status == persistence::GameStatus::kFinished ||
         status == persistence::GameStatus::kAbandoned ||
         status == persistence::GameStatus::kResigned;
}

// How long a bot's decision waits before it is handed to a full pool again.
constexpr std::chrono::milliseconds kBotQueueRetry{100};

// How long an abandon that could not be written waits before it is tried again.
constexpr std::chrono::milliseconds kAbandonRetry{std::chrono::minutes(1)};

}  // namespace

void SendMessage(Peer& peer, const wire::ServerMessage& message) {
  auto bytes = std::make_shared<std::string>();
  message.SerializeToString(bytes.get());
  peer.Send(std::move(bytes));
}

void SendError(Peer& peer, uint64_t request_id, wire::ErrorCode code, const std::string& reason) {
  wire::ServerMessage message;
  message.set_request_id(request_id);
  message.mutable_error()->set_code(code);
  message.mutable_error()->set_reason(reason);
  SendMessage(peer, message);
}

void StrandLog::Submit(persistence::Write write, Done done) {
  ++in_flight_;
  journal_.Submit(std::move(write), [strand = strand_, keep = owner.lock(), &in_flight = in_flight_,
                                     work = boost::asio::make_work_guard(strand_),
                                     done = std::move(done)](const persistence::Status& status) {
    boost::asio::post(strand, [keep, done, status, &in_flight] {
      done(status);
      --in_flight;  // after the answer, which may have submitted the next write
    });
  });
}

void StrandBots::Think(BotRequest request, Answer answer) {
  auto shared = std::make_shared<BotRequest>(std::move(request));
  auto job = [shared, budget = budget_, strand = strand_, owner = owner, answer,
              metrics = metrics] {
    const auto began = std::chrono::steady_clock::now();
    std::string action = ChooseEncoded(*shared, budget);
    // Counted before the answer is posted: once the move is seen, its think time is too.
    if (metrics != nullptr) {
      metrics->BotThought(std::chrono::duration_cast<std::chrono::microseconds>(
          std::chrono::steady_clock::now() - began));
    }
    boost::asio::post(strand, [owner, answer, action = std::move(action)]() mutable {
      if (const auto keep = owner.lock()) answer(std::move(action));
    });
  };
  if (pool_.Submit(std::move(job))) return;
  auto timer = std::make_shared<boost::asio::steady_timer>(strand_, kBotQueueRetry);
  timer->async_wait(
      [this, timer, shared, answer, owner = owner](const boost::system::error_code& ec) {
        const auto keep = owner.lock();
        if (ec || !keep) return;
        Think(std::move(*shared), answer);
      });
}

void StrandAlarm::Set(int64_t delay_ms, std::function<void()> ring) {
  timer_.expires_after(std::chrono::milliseconds(std::max<int64_t>(0, delay_ms)));
  // Setting the timer again cancels the earlier wait, which then ends with an error.
  timer_.async_wait([owner = owner, ring = std::move(ring)](const boost::system::error_code& ec) {
    const auto keep = owner.lock();
    if (!ec && keep) ring();
  });
}

void StrandAlarm::Clear() { timer_.cancel(); }

void Lobby::ReadLog(const std::shared_ptr<Peer>& peer, uint64_t request_id,
                    std::function<void(persistence::Store&)> job) {
  {
    std::lock_guard lock(mutex_);
    size_t& reading = reads_in_flight_[peer.get()];
    if (reading >= kMaxReadsPerConnection) {
      return SendError(*peer, request_id, wire::ERROR_CODE_RATE_LIMITED,
                       "too many game-log reads in flight; wait for their answers");
    }
    ++reading;
  }
  storage_.Read([this, work = boost::asio::make_work_guard(io_), key = peer.get(),
                 job = std::move(job)](persistence::Store& store) {
    if (!stopping_) job(store);  // a stopping server answers no more reads
    std::lock_guard lock(mutex_);
    if (--reads_in_flight_[key] == 0) reads_in_flight_.erase(key);
  });
}

Lobby::Lobby(boost::asio::io_context& io, const ServerConfig& config, RuleSetRegistry rule_sets,
             TokenSource tokens, Storage& storage, BotPool& bot_pool, Metrics* metrics)
    : io_(io),
      config_(config),
      rule_sets_(std::move(rule_sets)),
      welcome_(WelcomeOf(rule_sets_, config.shard)),
      tile_set_replies_(TileSetReplies(rule_sets_)),
      tokens_(std::move(tokens)),
      storage_(storage),
      bot_pool_(bot_pool),
      metrics_(metrics),
      next_number_(storage.next_game_number()) {
  for ([[maybe_unused]] const core::RuleSet* rules : rule_sets_.All()) {
    assert(protocol::FindGameCodec(rules->Type().id) != nullptr &&
           "a hosted rule set has no codec");
  }
}

std::optional<int64_t> Lobby::OwnGameNumber(const std::string& game_id) const {
  const GameIdMeaning meaning = ParsePublicGameId(config_.shard, game_id);
  if (const auto* own = std::get_if<OwnGame>(&meaning)) return own->number;
  return std::nullopt;
}

bool Lobby::RefusedAsOtherShards(Peer& peer, uint64_t request_id, const std::string& game_id,
                                 const GameIdMeaning& meaning) const {
  const auto* other = std::get_if<OtherShardsGame>(&meaning);
  if (other == nullptr) return false;
  SendError(peer, request_id, wire::ERROR_CODE_WRONG_SHARD,
            "game '" + game_id + "' is on shard '" + other->shard + "', not on this one ('" +
                config_.shard + "')");
  return true;
}

// Makes the room for a game; the caller adds it to rooms_.
std::shared_ptr<HostedRoom> Lobby::Host(RoomOptions options, RoomGame game) {
  options.shard = config_.shard;
  const bots::Budget budget{
      .playouts = config_.bot_playouts,
      .max_microseconds = int64_t{config_.bot_move_ms} * 1000,
      .playout_steps = bots::PlayoutStepsFor(game.rules->Type(), config_.bot_playout_steps)};
  auto hosted =
      std::make_shared<HostedRoom>(io_, std::move(options), std::move(game), tokens_,
                                   storage_.journal(), work_in_flight_, bot_pool_, budget);
  hosted->room.metrics = metrics_;
  hosted->bots.metrics = metrics_;
  hosted->log.owner = hosted;
  hosted->bots.owner = hosted;
  hosted->alarm.owner = hosted;
  const std::weak_ptr<HostedRoom> weak = hosted;
  hosted->room.on_event = [this, weak](RoomEvent event) { OnRoomEvent(weak, event); };
  hosted->room.on_rematch_create = [this, weak](RoomOptions rematch, RoomGame rematch_game) {
    CreateRematch(weak, std::move(rematch), std::move(rematch_game));
  };
  hosted->room.on_rematch_join = [this](const std::string& game_id, const RematchSeat& seat) {
    JoinRematch(game_id, seat);
  };
  // A room made while the server stops (a rematch asked just before) is frozen from the start;
  // one made before is frozen by Stop, which reads the rooms after setting stopping_.
  if (stopping_) hosted->room.Freeze();
  return hosted;
}

void Lobby::CreateRematch(const std::weak_ptr<HostedRoom>& old, RoomOptions options,
                          RoomGame game) {
  // The old room is kept until it has heard how the rematch went, even if its retention time
  // ends meanwhile and it leaves the lobby: its players wait for that answer.
  const std::shared_ptr<HostedRoom> asker = old.lock();
  if (!asker) return;
  options.seed = OsRandomSeed();
  std::shared_ptr<HostedRoom> hosted;
  {
    std::lock_guard lock(mutex_);
    if (rooms_.size() - finished_ < config_.max_games) {
      options.number = next_number_++;
      hosted = Host(std::move(options), std::move(game));
      rooms_.emplace(hosted->room.id(), hosted);
    }
  }
  if (!hosted) {
    asker->room.RematchFailed(wire::ERROR_CODE_SERVER_FULL, "too many games");
    return;
  }
  // Created on its own strand; once its write has returned the old room hears how it went.
  boost::asio::post(hosted->strand, [this, hosted, asker] {
    hosted->room.Create(nullptr, 0);
    hosted->room.WhenIdle([this, hosted, asker] {
      const bool created = Find(hosted->room.id()) != nullptr;  // a failed one was dropped
      boost::asio::post(asker->strand, [room = asker, created, info = hosted->room.Info()] {
        if (created) return room->room.RematchReady(info);
        room->room.RematchFailed(wire::ERROR_CODE_STORAGE_FAILED,
                                 "the server could not save the rematch; try again");
      });
    });
  });
}

void Lobby::JoinRematch(const std::string& game_id, const RematchSeat& seat) {
  wire::ClientMessage join;
  join.set_request_id(seat.request_id);
  join.mutable_join_seat()->set_game_id(game_id);
  join.mutable_join_seat()->set_seat(static_cast<uint32_t>(seat.seat));
  join.mutable_join_seat()->set_player_name(seat.player_name);
  Handle(seat.peer, join);
}

size_t Lobby::Restore(const std::vector<persistence::StoredGame>& games) {
  size_t damaged = 0;
  std::vector<std::shared_ptr<HostedRoom>> hosted(games.size());
  for (size_t i = 0; i < games.size(); ++i) {
    const persistence::StoredGame& stored = games[i];
    auto game = StoredGameOf(stored.game, rule_sets_);
    if (!game) {
      // Kept in the log as it is: a server that has its rule set again will host it.
      spdlog::error("game {} is not hosted: this server does not play rule set '{}' version {}",
                    PublicGameId(config_.shard, stored.game.number), LogSafe(stored.game.rule_set),
                    stored.game.rule_set_version);
      ++damaged;
      continue;
    }
    const core::GameType& type = game->rules->Type();
    RoomOptions options;
    options.number = stored.game.number;
    options.seats = std::clamp(stored.game.seats, type.min_players, type.max_players);
    hosted[i] = Host(options, *std::move(game));
  }
  std::vector<Room::ReplayedLog> replays = ReplayInParallel(games, hosted);
  for (size_t i = 0; i < games.size(); ++i) {
    if (!hosted[i]) continue;
    {
      std::lock_guard lock(mutex_);
      rooms_.emplace(hosted[i]->room.id(), hosted[i]);
    }
    // Nothing runs on the strands yet: the server accepts connections after this.
    if (auto damage = hosted[i]->room.Restore(games[i], std::move(replays[i]))) {
      spdlog::error("game {} is damaged and will not be played: {}", hosted[i]->room.id(), *damage);
      ++damaged;
    }
    // A game idle for longer than its timeout (the server was down meanwhile) is abandoned as
    // soon as the threads run.
    boost::asio::post(hosted[i]->strand, [this, room = hosted[i]] { WatchIdle(room); });
  }
  return damaged;
}

// The engine's replays of a restart, spread over the machine's cores: each game's is its own,
// and the rooms do not run yet. (Everything else a restore does, tokens, timers, bots, stays on
// the calling thread.)
std::vector<Room::ReplayedLog> Lobby::ReplayInParallel(
    const std::vector<persistence::StoredGame>& games,
    const std::vector<std::shared_ptr<HostedRoom>>& hosted) {
  assert(games.size() == hosted.size());
  std::vector<Room::ReplayedLog> replays(games.size());
  std::atomic<size_t> next{0};
  const auto replay_some = [&] {
    for (size_t i = next++; i < games.size(); i = next++) {
      if (hosted[i]) replays[i] = hosted[i]->room.ReplayLog(games[i]);
    }
  };
  constexpr size_t kGamesPerThread = 64;  // fewer games are not worth a thread
  const size_t threads = std::clamp<size_t>(games.size() / kGamesPerThread, 1,
                                            std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::jthread> helpers;
  for (size_t t = 1; t < threads; ++t) helpers.emplace_back(replay_some);
  replay_some();
  helpers.clear();  // joins them
  return replays;
}

// Runs on the room's strand.
void Lobby::OnRoomEvent(const std::weak_ptr<HostedRoom>& weak, RoomEvent event) {
  const auto hosted = weak.lock();
  if (!hosted) return;
  const Room& room = hosted->room;
  switch (event) {
    case RoomEvent::kCreated:
      spdlog::info("game {} created: {} seats, name '{}'", room.id(), room.Info().seats(),
                   LogSafe(room.Info().name()));
      WatchIdle(hosted);
      break;
    case RoomEvent::kCreateFailed: {
      std::lock_guard lock(mutex_);
      ReleaseOpenGame(*hosted);
      rooms_.erase(room.id());
      break;
    }
    case RoomEvent::kStarted: {
      spdlog::info("game {} started: {} players of {}", room.id(), room.game()->Players(),
                   room.hosted().rules->Type().id);
      std::lock_guard lock(mutex_);
      ReleaseOpenGame(*hosted);
      break;
    }
    case RoomEvent::kAbandoned: {
      spdlog::info(
          "game {} abandoned: nothing happened in it for {} s", room.id(),
          std::chrono::duration_cast<std::chrono::seconds>(
              IdleTimeout(room.game() ? wire::GAME_STATUS_RUNNING : wire::GAME_STATUS_OPEN))
              .count());
      {
        std::lock_guard lock(mutex_);
        ReleaseOpenGame(*hosted);
      }
      Retire(hosted);
      break;
    }
    case RoomEvent::kFinished: {
      std::string scores;
      for (const int score : room.game()->Scores()) {
        scores += (scores.empty() ? "" : " ") + std::to_string(score);
      }
      spdlog::info("game {} ended after {} actions, scores {}", room.id(), room.Sequence(), scores);
      Retire(hosted);
      break;
    }
    case RoomEvent::kResigned:
      spdlog::info("game {} ended by a resignation after {} actions", room.id(), room.Sequence());
      Retire(hosted);
      break;
    case RoomEvent::kDamaged:
      break;
  }
}

size_t Lobby::GameCount() const {
  std::lock_guard lock(mutex_);
  return rooms_.size();
}

std::map<wire::GameStatus, size_t> Lobby::GamesByStatus() const {
  std::lock_guard lock(mutex_);
  std::map<wire::GameStatus, size_t> games;
  for (const auto& [id, hosted] : rooms_) ++games[hosted->room.Status()];
  return games;
}

std::shared_ptr<HostedRoom> Lobby::Find(const std::string& game_id) const {
  std::lock_guard lock(mutex_);
  const auto it = rooms_.find(game_id);
  return it == rooms_.end() ? nullptr : it->second;
}

void Lobby::Create(const std::shared_ptr<Peer>& peer, uint64_t request_id,
                   const wire::CreateGame& create) {
  auto game = GameFor(create);
  if (auto* refusal = std::get_if<wire::ServerMessage>(&game)) {
    refusal->set_request_id(request_id);
    return SendMessage(*peer, *refusal);
  }
  if (create.has_seed() && !config_.allow_chosen_seeds) {
    return SendError(*peer, request_id, wire::ERROR_CODE_SEED_NOT_ALLOWED,
                     "this server picks every game's seed (start it with --allow-chosen-seeds to "
                     "choose one)");
  }
  RoomOptions options;
  options.name = create.name();
  options.seats = static_cast<int>(create.seats());
  options.seed = create.has_seed() ? create.seed() : OsRandomSeed();
  auto bot_seats = ParseBotSeats(create, options.seats);
  if (const auto* refusal = std::get_if<std::string>(&bot_seats)) {
    return SendError(*peer, request_id, wire::ERROR_CODE_BAD_BOTS, *refusal);
  }
  options.bots = std::get<std::vector<BotSeatOption>>(std::move(bot_seats));
  switch (create.on_resign()) {
    case wire::RESIGN_POLICY_UNSPECIFIED:
    case wire::RESIGN_POLICY_BOT_TAKES_SEAT:
      options.on_resign = persistence::ResignPolicy::kBotTakesSeat;
      break;
    case wire::RESIGN_POLICY_END_GAME:
      options.on_resign = persistence::ResignPolicy::kEndGame;
      break;
    default:
      return SendError(*peer, request_id, wire::ERROR_CODE_BAD_RESIGN_POLICY,
                       "on_resign: RESIGN_POLICY_END_GAME or RESIGN_POLICY_BOT_TAKES_SEAT");
  }
  options.spectators_chat = create.spectators_chat();
  auto time_control = ParseTimeControl(create);
  if (const auto* refusal = std::get_if<std::string>(&time_control)) {
    return SendError(*peer, request_id, wire::ERROR_CODE_BAD_TIME_CONTROL, *refusal);
  }
  options.time_control = std::get<persistence::TimeControl>(time_control);
  std::shared_ptr<HostedRoom> hosted;
  {
    std::lock_guard lock(mutex_);
    if (OverOpenGameLimit(*peer)) {
      return SendError(*peer, request_id, wire::ERROR_CODE_TOO_MANY_OPEN_GAMES,
                       "you have created as many games waiting for players as this server allows; "
                       "start one or wait until one fills");
    }
    if (rooms_.size() - finished_ < config_.max_games) {
      options.number = next_number_++;
      hosted = Host(options, std::get<RoomGame>(std::move(game)));
      rooms_.emplace(hosted->room.id(), hosted);
      CountOpenGame(*hosted, *peer);
    }
  }
  if (!hosted) return SendError(*peer, request_id, wire::ERROR_CODE_SERVER_FULL, "too many games");
  // The reply goes out once the game is in the log (Room::Create).
  boost::asio::post(hosted->strand,
                    [hosted, peer, request_id] { hosted->room.Create(peer, request_id); });
}

std::variant<RoomGame, wire::ServerMessage> Lobby::GameFor(const wire::CreateGame& create) const {
  const core::RuleSet* rules = rule_sets_.Find(create.rule_set());
  if (rules == nullptr) {
    std::string ids;
    for (const core::RuleSet* r : rule_sets_.All()) ids += (ids.empty() ? "" : ", ") + r->Type().id;
    return ErrorMessage(wire::ERROR_CODE_NO_SUCH_RULE_SET, "rule sets: " + ids);
  }
  const core::GameType& type = rules->Type();
  if (std::cmp_less(create.seats(), type.min_players) ||
      std::cmp_greater(create.seats(), type.max_players)) {
    return ErrorMessage(wire::ERROR_CODE_BAD_SEAT_COUNT,
                        type.id + ": " + std::to_string(type.min_players) + " to " +
                            std::to_string(type.max_players) + " seats");
  }
  core::Options asked(create.options().begin(), create.options().end());
  auto options = rules->CompleteOptions(asked);
  if (const auto* error = std::get_if<core::RuleError>(&options)) {
    return ErrorMessage(wire::ERROR_CODE_BAD_OPTIONS, error->message);
  }
  return RoomGame{rule_sets_.Shared(*rules), protocol::FindGameCodec(type.id),
                  std::get<core::Options>(std::move(options))};
}

void Lobby::List(const std::shared_ptr<Peer>& peer, uint64_t request_id,
                 const wire::ListGames& list) {
  if (!list.game_id().empty()) return ListOne(peer, request_id, list.game_id());
  ListPage page{PageLimit(list.limit()), std::nullopt};
  if (!list.after().empty()) {
    const GameIdMeaning after = ParsePublicGameId(config_.shard, list.after());
    if (const auto* own = std::get_if<OwnGame>(&after)) page.after = own->number;
    if (!page.after) {
      return SendError(*peer, request_id, wire::ERROR_CODE_MALFORMED_MESSAGE,
                       "list_games.after: not a game id (the next_page of a GameList)");
    }
  }
  if (list.finished()) return ListFinished(peer, request_id, page);
  ListHosted(peer, request_id, page);
}

// One page, by game number. Each room's summary is read on its own strand; the reply goes out
// once all have answered.
void Lobby::ListHosted(const std::shared_ptr<Peer>& peer, uint64_t request_id,
                       const ListPage& page) {
  std::vector<std::shared_ptr<HostedRoom>> rooms;
  bool more_rooms = false;
  {
    std::lock_guard lock(mutex_);
    // Finished games are still hosted for a while but not listed: at most `finished_` of the
    // rooms looked at are left out, so this many rooms fill a page when enough games are open.
    const size_t window = page.limit + finished_;
    auto it =
        page.after ? rooms_.upper_bound(PublicGameId(config_.shard, *page.after)) : rooms_.begin();
    for (; it != rooms_.end() && rooms.size() < window; ++it) rooms.push_back(it->second);
    more_rooms = it != rooms_.end();
  }
  struct Gather {
    std::mutex mutex;
    std::vector<wire::GameInfo> infos;  // in the order of `rooms`
    size_t left = 0;
  };
  auto gather = std::make_shared<Gather>();
  gather->infos.resize(rooms.size());
  gather->left = rooms.size();
  const auto send = [peer, request_id, page, more_rooms](const std::vector<wire::GameInfo>& infos) {
    SendMessage(*peer, HostedPage(infos, page.limit, more_rooms, request_id));
  };
  if (rooms.empty()) return send({});
  for (size_t i = 0; i < rooms.size(); ++i) {
    boost::asio::post(rooms[i]->strand, [room = rooms[i], i, gather, send] {
      wire::GameInfo info = room->room.Info();
      std::lock_guard lock(gather->mutex);
      gather->infos[i] = std::move(info);
      if (--gather->left == 0) send(gather->infos);
    });
  }
}

// From the log, so finished games are listed long after they left the lobby. One game more than
// the page is read, to know whether another page follows.
void Lobby::ListFinished(const std::shared_ptr<Peer>& peer, uint64_t request_id,
                         const ListPage& page) {
  persistence::ListFilter filter;
  filter.status = persistence::GameStatus::kFinished;
  filter.or_status = persistence::GameStatus::kResigned;  // over too, with a result
  filter.order = persistence::ListOrder::kNewestFinishedFirst;
  filter.after = page.after;
  filter.limit = static_cast<int64_t>(page.limit) + 1;
  ReadLog(peer, request_id,
          [this, peer, request_id, filter, limit = page.limit](persistence::Store& store) {
            SendMessage(*peer, StoredGameList(store, filter, request_id, config_.shard, limit));
          });
}

// A hosted game's own summary knows who is online and watching; the log's is for the others.
void Lobby::ListOne(const std::shared_ptr<Peer>& peer, uint64_t request_id,
                    const std::string& game_id) {
  if (const std::shared_ptr<HostedRoom> hosted = Find(game_id)) {
    boost::asio::post(hosted->strand, [hosted, peer, request_id] {
      wire::ServerMessage reply = EmptyGameList(request_id);
      *reply.mutable_game_list()->add_games() = hosted->room.Info();
      SendMessage(*peer, reply);
    });
    return;
  }
  const GameIdMeaning meaning = ParsePublicGameId(config_.shard, game_id);
  if (RefusedAsOtherShards(*peer, request_id, game_id, meaning)) return;
  const auto* own = std::get_if<OwnGame>(&meaning);
  if (own == nullptr) return SendMessage(*peer, EmptyGameList(request_id));
  persistence::ListFilter filter;
  filter.number = own->number;
  ReadLog(peer, request_id, [this, peer, request_id, filter](persistence::Store& store) {
    SendMessage(*peer, StoredGameList(store, filter, request_id, config_.shard));
  });
}

void Lobby::SendTileSet(Peer& peer, uint64_t request_id, const std::string& rule_set) const {
  const auto found = tile_set_replies_.find(rule_set);
  if (found == tile_set_replies_.end()) {
    return SendError(peer, request_id, wire::ERROR_CODE_NO_SUCH_RULE_SET,
                     "no rule set '" + rule_set + "'");
  }
  wire::ServerMessage reply = found->second;
  reply.set_request_id(request_id);
  SendMessage(peer, reply);
}

// Game requests go to their room (room/request.h says which they are); the rest are the lobby's.
void Lobby::Handle(const std::shared_ptr<Peer>& peer, const wire::ClientMessage& message) {
  if (const std::optional<RoomRequest> request = RoomRequestOf(message)) {
    return Route(peer, message, *request);
  }
  const uint64_t id = message.request_id();
  switch (message.body_case()) {
    case wire::ClientMessage::kCreateGame:
      return Create(peer, id, message.create_game());
    case wire::ClientMessage::kListGames:
      return List(peer, id, message.list_games());
    case wire::ClientMessage::kGetTileSet:
      return SendTileSet(*peer, id, message.get_tile_set().rule_set());
    case wire::ClientMessage::kGetReplay:
      return Replay(peer, id, message.get_replay().game_id(), std::nullopt);
    case wire::ClientMessage::kSeek:
      return Replay(peer, id, message.seek().game_id(), message.seek().sequence());
    default:
      return SendError(*peer, id, wire::ERROR_CODE_UNKNOWN_MESSAGE, "unknown message");
  }
}

// A hosted room answers on its strand; an ended game no longer hosted, from the log.
void Lobby::Route(const std::shared_ptr<Peer>& peer, const wire::ClientMessage& message,
                  const RoomRequest& request) {
  const std::string& game_id = GameIdOf(request);
  if (RefusedAsOtherShards(*peer, message.request_id(), game_id,
                           ParsePublicGameId(config_.shard, game_id))) {
    return;
  }
  const std::shared_ptr<HostedRoom> hosted = Find(game_id);
  if (!hosted) {
    // A player's return to an ended game, or a rematch, hosts it again; a spectator is
    // answered from the log.
    if (std::holds_alternative<const wire::Resume*>(request) ||
        std::holds_alternative<const wire::Rematch*>(request)) {
      return HostAgain(peer, message, game_id);
    }
    if (CatchesUp(request)) return ServeFromLog(peer, message, game_id);
    return SendError(*peer, message.request_id(), wire::ERROR_CODE_NO_SUCH_GAME,
                     "no game '" + game_id + "'");
  }
  {
    std::lock_guard lock(mutex_);
    joined_[peer.get()].emplace(hosted.get(), hosted);
  }
  ++work_in_flight_;
  boost::asio::post(hosted->strand, [this, hosted, peer, message] {
    hosted->room.Handle(peer, message);
    --work_in_flight_;  // after the request, which may have submitted a write
  });
}

// A finished or abandoned game that left the lobby (its retention passed, or the server
// restarted) still gives its spectators the final state: a room is restored from the log on the
// reader thread, answers, and is dropped. Nothing is watched: a spectator is not offered the
// rematch.
void Lobby::ServeFromLog(const std::shared_ptr<Peer>& peer, const wire::ClientMessage& message,
                         const std::string& game_id) {
  ReadEndedGame(peer, message.request_id(), game_id, [peer, message](EndedGame ended) {
    ReadOnlyLog log;
    Room room(ended.options, std::move(ended.game), OsRandomToken, log);
    if (auto damage = room.Restore(ended.stored)) {
      spdlog::error("game {} does not replay: {}", room.id(), *damage);
    }
    room.Handle(peer, message);
  });
}

// A player's Resume or Rematch of an ended game that left the lobby (its players came back
// after its retention time, or after a restart): the game is hosted again as it ended, for
// another retention time, and the request goes to it as to any hosted game. A player who
// resumed it is then in the room, and is offered the rematch another player asks for
// (RematchOffered), as before the restart. Only a player of the game brings it back: the token
// is checked before the room is hosted.
void Lobby::HostAgain(const std::shared_ptr<Peer>& peer, const wire::ClientMessage& message,
                      const std::string& game_id) {
  ReadEndedGame(peer, message.request_id(), game_id, [this, peer, message](EndedGame ended) {
    std::shared_ptr<HostedRoom> hosted = Host(ended.options, std::move(ended.game));
    // Nobody else sees the room before it is in rooms_: restoring it here is safe.
    if (auto damage = hosted->room.Restore(ended.stored)) {
      spdlog::error("game {} does not replay: {}", hosted->room.id(), *damage);
    }
    const std::string& token =
        message.has_resume() ? message.resume().seat_token() : message.rematch().seat_token();
    if (!hosted->room.HoldsPersonsToken(token)) {
      return SendError(*peer, message.request_id(), wire::ERROR_CODE_BAD_TOKEN,
                       "no seat has that token");
    }
    bool hosted_here = false;
    {
      std::lock_guard lock(mutex_);
      hosted_here = rooms_.emplace(hosted->room.id(), hosted).second;
    }
    if (hosted_here) {
      spdlog::info("game {} hosted again for its players", hosted->room.id());
      boost::asio::post(hosted->strand, [this, hosted] { Retire(hosted); });
    }
    Handle(peer, message);  // to the room now hosted (by this request, or by another meanwhile)
  });
}

void Lobby::ReadEndedGame(const std::shared_ptr<Peer>& peer, uint64_t request_id,
                          const std::string& game_id, std::function<void(EndedGame)> then) {
  const auto number = OwnGameNumber(game_id);
  if (!number) {
    return SendError(*peer, request_id, wire::ERROR_CODE_NO_SUCH_GAME, "no game '" + game_id + "'");
  }
  ReadLog(peer, request_id,
          [this, peer, request_id, game_id, number = *number,
           then = std::move(then)](persistence::Store& store) {
            auto loaded = store.LoadGame(number);
            if (!loaded) {
              spdlog::error("reading {}: {}", game_id, loaded.error().message);
              return SendError(*peer, request_id, wire::ERROR_CODE_STORAGE_FAILED,
                               "the game log could not be read");
            }
            if (*loaded && (*loaded)->game.status == persistence::GameStatus::kDamaged) {
              return SendError(*peer, request_id, wire::ERROR_CODE_GAME_DAMAGED,
                               "the game's log is damaged");
            }
            // Open and running games are all hosted (restored at start); one that is not was
            // written by another program since: it is not this server's to answer for.
            if (!*loaded || !Ended((*loaded)->game.status)) {
              return SendError(*peer, request_id, wire::ERROR_CODE_NO_SUCH_GAME,
                               "no game '" + game_id + "'");
            }
            auto game = StoredGameOf((*loaded)->game, rule_sets_);
            if (!game) {
              return SendError(
                  *peer, request_id, wire::ERROR_CODE_NO_SUCH_RULE_SET,
                  "this server does not play the rule set of game '" + game_id + "' any more");
            }
            const core::GameType& type = game->rules->Type();
            EndedGame ended{std::move(**loaded), *std::move(game), {}};
            ended.options.number = number;
            ended.options.shard = config_.shard;
            ended.options.seats =
                std::clamp(ended.stored.game.seats, type.min_players, type.max_players);
            then(std::move(ended));
          });
}
// Read from the log on the reader thread, so any game that ever started can be replayed, hosted
// or not; a hosted game's log holds everything its clients have seen (nothing is sent before it
// is committed).
void Lobby::Replay(const std::shared_ptr<Peer>& peer, uint64_t request_id,
                   const std::string& game_id, std::optional<uint64_t> seek) {
  if (RefusedAsOtherShards(*peer, request_id, game_id, ParsePublicGameId(config_.shard, game_id))) {
    return;
  }
  const auto number = OwnGameNumber(game_id);
  if (!number) {
    return SendError(*peer, request_id, wire::ERROR_CODE_NO_SUCH_GAME, "no game '" + game_id + "'");
  }
  ReadLog(peer, request_id,
          [this, peer, request_id, game_id, number = *number, seek](persistence::Store& store) {
            auto loaded = store.LoadGame(number);
            if (!loaded) {
              spdlog::error("replay of {}: {}", LogSafe(game_id), loaded.error().message);
              return SendError(*peer, request_id, wire::ERROR_CODE_STORAGE_FAILED,
                               "the game log could not be read");
            }
            if (!*loaded) {
              return SendError(*peer, request_id, wire::ERROR_CODE_NO_SUCH_GAME,
                               "no game '" + game_id + "'");
            }
            wire::ServerMessage reply =
                seek ? SeekMessage(**loaded, rule_sets_, *seek, config_.shard)
                     : ReplayMessage(**loaded, rule_sets_, config_.shard);
            reply.set_request_id(request_id);
            SendMessage(*peer, reply);
          });
}

void Lobby::Retire(const std::shared_ptr<HostedRoom>& hosted) {
  // A game that ends while the server stops (a write in flight) keeps no timer: the process is
  // about to end, and its players will find it in the log.
  if (stopping_) return;
  std::vector<std::shared_ptr<HostedRoom>> evicted;
  {
    std::lock_guard lock(mutex_);
    ++finished_;
    hosted->held_since = next_held_++;
    held_finished_.emplace(hosted->held_since, hosted);
    evicted = OverHeldFinishedLimit();
  }
  // Runs on the room's strand, like every use of retire_timer and idle_timer.
  if (hosted->idle_timer) hosted->idle_timer->cancel();
  hosted->retire_timer = std::make_shared<boost::asio::steady_timer>(hosted->strand);
  hosted->retire_timer->expires_after(config_.finished_game_retention);
  // Runs when the retention ends, or at once when the timer is cancelled (an eviction, a stop).
  hosted->retire_timer->async_wait([this, hosted](const boost::system::error_code&) {
    std::lock_guard lock(mutex_);
    rooms_.erase(hosted->room.id());
    held_finished_.erase(hosted->held_since);
    --finished_;
    if (hosted->evicted) --evicting_;
  });
  for (const auto& old : evicted) {
    boost::asio::post(old->strand, [old] {
      if (old->retire_timer) old->retire_timer->cancel();
    });
  }
}

// With mutex_ held: the oldest finished games past --max-finished-games, marked as leaving. Each
// leaves when its retire timer is cancelled on its strand (so `evicting_` counts those on their
// way out). A player who comes back to one is answered as after its retention time: Resume and
// Rematch host it again from the log.
std::vector<std::shared_ptr<HostedRoom>> Lobby::OverHeldFinishedLimit() {
  std::vector<std::shared_ptr<HostedRoom>> evicted;
  auto it = held_finished_.begin();
  while (finished_ - evicting_ > config_.max_finished_games && it != held_finished_.end()) {
    std::shared_ptr<HostedRoom> old = it->second.lock();
    ++it;
    if (!old || old->evicted) continue;
    old->evicted = true;
    ++evicting_;
    evicted.push_back(std::move(old));
  }
  if (!evicted.empty()) {
    spdlog::info("{} finished games leave the memory early: more than {} are held", evicted.size(),
                 config_.max_finished_games);
  }
  return evicted;
}

// Every room is frozen (Room::Freeze): the stop decides nothing in any game, and no timer is
// left to keep the io_context running past the grace time.
void Lobby::Stop() {
  stopping_ = true;
  std::vector<std::shared_ptr<HostedRoom>> rooms;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, room] : rooms_) rooms.push_back(room);
  }
  for (const auto& hosted : rooms) {
    boost::asio::post(hosted->strand, [hosted] {
      if (hosted->retire_timer) hosted->retire_timer->cancel();
      if (hosted->idle_timer) hosted->idle_timer->cancel();
      hosted->room.Freeze();
    });
  }
}

void Lobby::Disconnected(const std::shared_ptr<Peer>& peer) {
  std::map<const HostedRoom*, std::weak_ptr<HostedRoom>> rooms;
  {
    std::lock_guard lock(mutex_);
    open_by_connection_.erase(peer.get());  // a new connection starts with none
    const auto it = joined_.find(peer.get());
    if (it == joined_.end()) return;
    rooms = std::move(it->second);
    joined_.erase(it);
  }
  for (const auto& [key, weak] : rooms) {
    if (auto hosted = weak.lock()) {
      // The pointer is only compared, never followed, once the session is gone.
      boost::asio::post(hosted->strand,
                        [hosted, raw = peer.get()] { hosted->room.Disconnected(raw); });
    }
  }
}

}  // namespace carc::server

namespace carc::server {

// ---------------------------------------------------------------------------------------------
// Housekeeping: idle games, and the open games of each connection and address

std::chrono::milliseconds Lobby::IdleTimeout(wire::GameStatus status) const {
  switch (status) {
    case wire::GAME_STATUS_OPEN:
      return config_.open_game_timeout;
    case wire::GAME_STATUS_RUNNING:
      return config_.running_game_timeout;
    default:
      return std::chrono::milliseconds(0);  // ended or damaged: never abandoned
  }
}

// Runs on the room's strand. The timer is not reset by every move: when it fires it measures
// the time since the room's last committed change, and waits again for what is left. The
// room's activity is wall-clock time (it comes from the log after a restart).
void Lobby::WatchIdle(const std::shared_ptr<HostedRoom>& hosted) {
  if (stopping_) return;
  Room& room = hosted->room;
  const std::chrono::milliseconds timeout = IdleTimeout(room.Status());
  if (timeout.count() == 0) return;
  const std::chrono::milliseconds idle(persistence::NowMs() - room.LastActivityMs());
  std::chrono::milliseconds wait = timeout - idle;
  if (room.writing()) {
    wait = timeout;  // a change is being committed: that is activity
  } else if (wait.count() <= 0) {
    room.Abandon();  // on success the room is retired, which cancels the timer
    wait = std::min(timeout, kAbandonRetry);
  }
  if (!hosted->idle_timer) {
    hosted->idle_timer = std::make_shared<boost::asio::steady_timer>(hosted->strand);
  }
  hosted->idle_timer->expires_after(wait);
  hosted->idle_timer->async_wait([this, hosted](const boost::system::error_code& ec) {
    if (!ec) WatchIdle(hosted);
  });
}

bool Lobby::OverOpenGameLimit(const Peer& peer) const {
  const auto count = [](const auto& map, const auto& key) {
    const auto it = map.find(key);
    return it == map.end() ? size_t{0} : it->second.size();
  };
  const size_t per_connection = config_.max_open_games_per_connection;
  if (per_connection > 0 && count(open_by_connection_, &peer) >= per_connection) return true;
  const size_t per_address = config_.max_open_games_per_address;
  const std::string address = peer.Address();
  return per_address > 0 && !address.empty() && count(open_by_address_, address) >= per_address;
}

void Lobby::CountOpenGame(HostedRoom& hosted, const Peer& peer) {
  hosted.creator = HostedRoom::Creator{&peer, peer.Address()};
  open_by_connection_[&peer].insert(hosted.room.id());
  if (!hosted.creator->address.empty()) {
    open_by_address_[hosted.creator->address].insert(hosted.room.id());
  }
}

void Lobby::ReleaseOpenGame(HostedRoom& hosted) {
  if (!hosted.creator) return;
  const std::string& id = hosted.room.id();
  const auto release = [&id](auto& map, const auto& key) {
    const auto it = map.find(key);
    if (it == map.end()) return;
    it->second.erase(id);
    if (it->second.empty()) map.erase(it);
  };
  release(open_by_connection_, hosted.creator->connection);
  release(open_by_address_, hosted.creator->address);
  hosted.creator.reset();
}

}  // namespace carc::server
