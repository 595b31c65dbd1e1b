// The games hosted by one server, each with its own strand.
//
// The lobby maps game ids to rooms. The map is the only shared structure and is guarded by a
// mutex; a room's state is touched only on that room's strand, so no lock is ever held around a
// game. Sessions call the lobby with decoded messages; the lobby posts each game message to its
// room's strand, where the Room (server/room/) judges it and sends the replies. Every room
// writes through the server's Journal; the journal's answers come back on the room's strand.
// Replays, seeks and lists of finished games are read from the log on the storage's reader
// thread, and so are Resume and Spectate of an ended game that is no longer hosted (a room
// restored from the log answers them). The lobby knows no game: it hosts the rule sets of a
// registry (engine/registry.h), each with the protocol's codec for it; their TileSet messages
// never change, so they are built once.
//
// Housekeeping: a finished or abandoned game leaves after --finished-game-retention (or earlier,
// oldest first, while more than --max-finished-games are held); an open or
// running game in which nothing is committed for its timeout is abandoned (a timer on the room's
// strand); a connection, and an address, may hold only so many games waiting for players.
#pragma once

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <variant>

#include "net/bot_pool.h"
#include "net/config.h"
#include "net/session.h"
#include "net/storage.h"
#include "registry.h"
#include "room/request.h"
#include "room/room.h"

namespace carc::server {

using RoomStrand = boost::asio::strand<boost::asio::io_context::executor_type>;

// The room's view of the journal: writes go to the journal, answers come back on the strand,
// and keep the room alive until they have run.
// A write in flight keeps the io_context running, so that a stopping server finishes its commits
// and delivers their answers.
class StrandLog : public persistence::GameLog {
 public:
  StrandLog(persistence::GameLog& journal, RoomStrand strand, std::atomic<size_t>& in_flight)
      : journal_(journal), strand_(std::move(strand)), in_flight_(in_flight) {}
  void Submit(persistence::Write write, Done done) override;
  std::weak_ptr<void> owner;  // the HostedRoom

 private:
  persistence::GameLog& journal_;
  RoomStrand strand_;
  std::atomic<size_t>& in_flight_;  // the lobby's count of writes not yet answered
};

// The room's view of the bot pool: a decision is thought on the pool, with the server's budget,
// and its answer comes back on the room's strand, if the room is still there. When the pool's
// queue is full the decision is handed over again a little later.
class StrandBots : public BotRunner {
 public:
  StrandBots(BotPool& pool, bots::Budget budget, RoomStrand strand)
      : pool_(pool), budget_(budget), strand_(std::move(strand)) {}
  void Think(BotRequest request, Answer answer) override;
  std::weak_ptr<void> owner;   // the HostedRoom
  Metrics* metrics = nullptr;  // told each decision's think time, when set

 private:
  BotPool& pool_;
  const bots::Budget budget_;
  RoomStrand strand_;
};

// The room's alarm: a timer on the room's strand, whose ring runs only if the room is still there.
class StrandAlarm : public Alarm {
 public:
  explicit StrandAlarm(const RoomStrand& strand) : timer_(strand) {}
  void Set(int64_t delay_ms, std::function<void()> ring) override;
  void Clear() override;
  std::weak_ptr<void> owner;  // the HostedRoom

 private:
  boost::asio::steady_timer timer_;
};

struct HostedRoom {
  HostedRoom(boost::asio::io_context& io, RoomOptions options, RoomGame game, TokenSource tokens,
             persistence::GameLog& journal, std::atomic<size_t>& writes_in_flight,
             BotPool& bot_pool, bots::Budget budget)
      : strand(boost::asio::make_strand(io)),
        log(journal, strand, writes_in_flight),
        bots(bot_pool, budget, strand),
        alarm(strand),
        room(std::move(options), std::move(game), std::move(tokens), log) {
    room.SetBotRunner(&bots);
    room.SetAlarm(&alarm);
  }
  RoomStrand strand;
  StrandLog log;
  StrandBots bots;
  StrandAlarm alarm;                                        // only on `strand`
  Room room;                                                // only on `strand`
  std::shared_ptr<boost::asio::steady_timer> retire_timer;  // only on `strand`, once finished
  std::shared_ptr<boost::asio::steady_timer> idle_timer;    // only on `strand`, while not ended
  // Who created the game, while it waits for players and counts against their limits (guarded
  // by the lobby's mutex; unset for games restored from the log).
  struct Creator {
    const Peer* connection = nullptr;  // only compared, never followed
    std::string address;
  };
  std::optional<Creator> creator;
  // Once finished (guarded by the lobby's mutex): its place in the order finished games are held
  // in, and whether it is leaving early (Lobby::OverHeldFinishedLimit).
  uint64_t held_since = 0;
  bool evicted = false;
};

class Lobby : public MessageSink {
 public:
  // Hosts the rule sets of `rule_sets` (each must have a codec: protocol::FindGameCodec).
  // Its rooms count their moves in `metrics`, when given.
  Lobby(boost::asio::io_context& io, const ServerConfig& config, RuleSetRegistry rule_sets,
        TokenSource tokens, Storage& storage, BotPool& bot_pool, Metrics* metrics = nullptr);

  // Hosts the games the log holds open or running (before the server accepts connections),
  // their replays through the engine made on every core. Returns how many were found damaged.
  size_t Restore(const std::vector<persistence::StoredGame>& games);

  // Handles one message of a session that has said Hello. Replies reach `peer`.
  void Handle(const std::shared_ptr<Peer>& peer, const wire::ClientMessage& message) override;
  // The session is closing: its seats go offline, it stops spectating.
  void Disconnected(const std::shared_ptr<Peer>& peer) override;
  // The games this server hosts, for the Welcome.
  wire::Welcome Welcome() const override { return welcome_; }

  size_t GameCount() const;
  // The hosted games by status (for /metrics).
  std::map<wire::GameStatus, size_t> GamesByStatus() const;
  // Requests posted to rooms and not yet handled, and writes submitted by rooms whose answers
  // have not yet run on their strands: a stopping server lets them finish before it says goodbye.
  size_t WorkInFlight() const { return work_in_flight_; }
  // The server stops: every room is frozen (Room::Freeze) and its timers cancelled, so that
  // nothing is decided by the stop and no work is left once the clients are gone.
  void Stop();

 private:
  std::vector<Room::ReplayedLog> ReplayInParallel(
      const std::vector<persistence::StoredGame>& games,
      const std::vector<std::shared_ptr<HostedRoom>>& hosted);
  // A request to one game: to its room, or from the log when the game has ended and left.
  void Route(const std::shared_ptr<Peer>& peer, const wire::ClientMessage& message,
             const RoomRequest& request);
  void Create(const std::shared_ptr<Peer>& peer, uint64_t request_id,
              const wire::CreateGame& create);
  // Which page of a list: at most `limit` games, those after game number `after`.
  struct ListPage {
    uint32_t limit = 0;
    std::optional<int64_t> after;
  };
  void List(const std::shared_ptr<Peer>& peer, uint64_t request_id, const wire::ListGames& list);
  // The hosted games that are not finished, by game number: the default list.
  void ListHosted(const std::shared_ptr<Peer>& peer, uint64_t request_id, const ListPage& page);
  // Finished games from the log, the most recently finished first.
  void ListFinished(const std::shared_ptr<Peer>& peer, uint64_t request_id, const ListPage& page);
  // One game, hosted (any status) or from the log; an empty list when there is none.
  void ListOne(const std::shared_ptr<Peer>& peer, uint64_t request_id, const std::string& game_id);
  void Replay(const std::shared_ptr<Peer>& peer, uint64_t request_id, const std::string& game_id,
              std::optional<uint64_t> seek);
  void SendTileSet(Peer& peer, uint64_t request_id, const std::string& rule_set) const;
  // A new game's rule set, codec and options from CreateGame; the refusal, if it is not one.
  std::variant<RoomGame, wire::ServerMessage> GameFor(const wire::CreateGame& create) const;
  std::shared_ptr<HostedRoom> Find(const std::string& game_id) const;
  // Runs `job` on the storage's reader thread; the io_context keeps running until it is done.
  // A connection may have kMaxReadsPerConnection reads waiting; more are refused with
  // ERROR_CODE_RATE_LIMITED, so that one client cannot queue the reader's work without bound.
  void ReadLog(const std::shared_ptr<Peer>& peer, uint64_t request_id,
               std::function<void(persistence::Store&)> job);
  static constexpr size_t kMaxReadsPerConnection = 8;
  std::shared_ptr<HostedRoom> Host(RoomOptions options, RoomGame game);
  // A rematch asked for in the room `old` (on its strand): a new game hosted and created, then
  // the old room told (RematchReady or RematchFailed).
  void CreateRematch(const std::weak_ptr<HostedRoom>& old, RoomOptions options, RoomGame game);
  // Seats a player in a rematch, as a JoinSeat of theirs would.
  void JoinRematch(const std::string& game_id, const RematchSeat& seat);
  void OnRoomEvent(const std::weak_ptr<HostedRoom>& weak, RoomEvent event);
  // Spectate of a game not hosted: an ended game is answered from the log.
  void ServeFromLog(const std::shared_ptr<Peer>& peer, const wire::ClientMessage& message,
                    const std::string& game_id);
  // The number of `game_id` when it is one of this server's games (room/game_ids.h).
  std::optional<int64_t> OwnGameNumber(const std::string& game_id) const;
  // Answers ERROR_CODE_WRONG_SHARD, and true, when `game_id` names another shard's game.
  bool RefusedAsOtherShards(Peer& peer, uint64_t request_id, const std::string& game_id,
                            const GameIdMeaning& meaning) const;
  // A player's Resume or Rematch of a game not hosted: an ended game is hosted again from the
  // log (for the retention time), then asked.
  void HostAgain(const std::shared_ptr<Peer>& peer, const wire::ClientMessage& message,
                 const std::string& game_id);
  // An ended game as the log holds it, ready to be restored into a room.
  struct EndedGame {
    persistence::StoredGame stored;
    RoomGame game;
    RoomOptions options;  // its number, seats and shard
  };
  // Reads the ended game `game_id` on the reader thread and hands it to `then` there; or answers
  // the request's error (no such game, one not ended, damaged, a rule set no longer played).
  void ReadEndedGame(const std::shared_ptr<Peer>& peer, uint64_t request_id,
                     const std::string& game_id, std::function<void(EndedGame)> then);
  // A finished or abandoned game leaves the lobby after the retention time (its players saw
  // the end), or earlier when more than --max-finished-games are held.
  void Retire(const std::shared_ptr<HostedRoom>& hosted);
  std::vector<std::shared_ptr<HostedRoom>> OverHeldFinishedLimit();
  // Abandons the room once nothing has happened in it for its status's timeout (on its strand).
  void WatchIdle(const std::shared_ptr<HostedRoom>& hosted);
  std::chrono::milliseconds IdleTimeout(wire::GameStatus status) const;
  // The creator's count of open games (with mutex_ held).
  bool OverOpenGameLimit(const Peer& peer) const;
  void CountOpenGame(HostedRoom& hosted, const Peer& peer);
  void ReleaseOpenGame(HostedRoom& hosted);

  boost::asio::io_context& io_;
  const ServerConfig& config_;
  const RuleSetRegistry rule_sets_;
  const wire::Welcome welcome_;  // less the protocol version and the server's name
  // The answers to GetTileSet by rule set id, less their request ids.
  const std::map<std::string, wire::ServerMessage, std::less<>> tile_set_replies_;
  TokenSource tokens_;
  Storage& storage_;
  BotPool& bot_pool_;
  Metrics* const metrics_;
  std::atomic<size_t> work_in_flight_ = 0;
  // Guards rooms_, finished_, held_finished_, next_held_, evicting_, next_number_ and joined_.
  mutable std::mutex mutex_;
  // Game ids are "g" and a number without leading zeros: ordered by length, then as text, they
  // are in the order of their numbers, the order in which ListGames pages through them.
  struct ByGameNumber {
    using is_transparent = void;
    bool operator()(std::string_view a, std::string_view b) const {
      return a.size() != b.size() ? a.size() < b.size() : a < b;
    }
  };
  std::map<std::string, std::shared_ptr<HostedRoom>, ByGameNumber> rooms_;
  size_t finished_ = 0;  // finished games still in rooms_ (not counted against max_games)
  // The finished games held, oldest first (by HostedRoom::held_since), and how many of them are
  // leaving early: at most --max-finished-games stay.
  std::map<uint64_t, std::weak_ptr<HostedRoom>> held_finished_;
  uint64_t next_held_ = 1;
  size_t evicting_ = 0;
  int64_t next_number_ = 1;
  // Rooms each connection has joined or watched, so its departure reaches them.
  std::map<const Peer*, std::map<const HostedRoom*, std::weak_ptr<HostedRoom>>> joined_;
  // The games still open that each connection and each address created (by game id: ids are
  // never reused, so a connection that reuses a freed Peer's address inherits nothing).
  std::map<const Peer*, std::set<std::string>> open_by_connection_;
  std::map<std::string, std::set<std::string>> open_by_address_;
  std::map<const Peer*, size_t> reads_in_flight_;  // guarded by mutex_
  std::atomic<bool> stopping_ = false;             // no timer is armed after Stop
};

// Encodes and sends one message (replies made outside a room).
void SendMessage(Peer& peer, const wire::ServerMessage& message);
void SendError(Peer& peer, uint64_t request_id, wire::ErrorCode code, const std::string& reason);

}  // namespace carc::server
