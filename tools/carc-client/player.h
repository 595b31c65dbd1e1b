// One seat played over one connection: by a bot (uniform or eager choices among the legal
// actions the server sends) or by a person at the terminal (numbered legal actions), in any game
// the protocol carries: the legal actions come with the follower in the game's notation and as
// sent, and a Move sends the chosen one back as it came.
//
// A Player gets its seat by creating a game and joining seat 0, by joining a given game, or by
// resuming a seat with its token. It follows the public state (protocol::Follower) and checks every
// hash; when it loses its way it asks for a snapshot (Resume from 0). When the connection drops,
// or the server says ServerClosing (a restart or an upgrade: it comes back on the same game log),
// it reconnects with a growing wait and resumes from the last sequence it saw, so only the missed
// deltas come back.
// Once it knows its game, it connects where the game is played (GameUrl: behind a proxy, the
// game's shard); only CreateAndJoin's first connection goes to the base URL, and when the shard
// the proxy chose is full (ERROR_CODE_SERVER_FULL), the next ones to the other shards in turn.
// In a game with a clock it keeps the last Clocks and shows them with each of a person's
// decisions; it says when a stand-in comes or goes, and a person whose seat a stand-in plays takes
// it back with 'back' (Resume with the token).
// Everything a Player does runs on its strand; its connections share that strand.
#pragma once

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "connection.h"
#include "core/hash.h"
#include "core/tileset.h"
#include "protocol/follower.h"
#include "url.h"
#include "view.h"

namespace carc::client {

enum class Policy : uint8_t {
  kRandom,  // uniform among the legal actions
  kEager,   // a piece (follower, guard, tower...) whenever it can, as the engine's EagerChoice
  kHuman,   // asks on the terminal
};

// Shared by the seats of one game (bots, load): the last move a seat sent, so that the seat that
// decides next can time the turn hand-over, and every seat can time the move's broadcast.
class MoveClock {
 public:
  using Clock = std::chrono::steady_clock;
  // A Move answering state `sequence` went out at `at` (its Delta will have sequence + 1).
  void Sent(uint64_t sequence, Clock::time_point at);
  // When the move whose Delta has `delta_sequence` was sent, if that is the last move sent.
  std::optional<Clock::time_point> SentBefore(uint64_t delta_sequence) const;
  // When the last move was sent, once: the seat that decides next times its turn from it.
  std::optional<Clock::time_point> TakeForTurn();

 private:
  mutable std::mutex mutex_;
  uint64_t delta_sequence_ = 0;  // 0: no move sent yet
  Clock::time_point sent_{};
  bool turn_open_ = false;
};

struct PlayerConfig {
  ServerUrl url;  // the base URL (--server); a game's own is GameUrl(url, its id)
  Endpoints endpoints;
  Policy policy = Policy::kRandom;
  uint64_t seed = 1;         // the bot's choices
  std::string name = "bot";  // the player name sent with JoinSeat
  bool print_moves = false;  // one line per own accepted move on stdout
  bool print_all = false;    // every delta, the state at each own decision (interactive)
  // A lost connection is opened again after 0.5 s, then after twice as long each time up to 8 s
  // (the web client's waits), until `reconnect_for` has passed since it was lost; once the server
  // welcomes a connection again, a later loss starts afresh.
  std::chrono::seconds reconnect_for{120};
  // Whether a connection lost without a word from the server is reconnected. One the server
  // closed after ServerClosing always is: the server is being restarted or upgraded.
  bool reconnect_unannounced = true;
  // The shards behind the proxy at `url` (its GET /shards); empty for a server alone. A
  // CreateGame refused with ERROR_CODE_SERVER_FULL by the shard the proxy chose is sent to each
  // other shard in turn (ShardsToTryAfter), until one creates the game.
  std::vector<std::string> shards;
  // The game's rule set and its tile set (the server's GetTileSet), which the follower decodes
  // and the drawing names tiles with: a snapshot of another rule set is refused.
  std::string rule_set;
  std::shared_ptr<const core::TileSet> tiles;
  // Shared by the seats of one game (bots, load); none for a person's seat.
  std::shared_ptr<MoveClock> moves;
  // A bot waits about this long before each of its moves (the load test's pace): a seeded
  // random time from half to one and a half times it, so that games do not move in step; 0: at
  // once.
  std::chrono::milliseconds think{0};
  // The seat leaves the game (closes its connection, the game unfinished) once the game's
  // sequence reaches this; 0: it plays to the end. The load test leaves games for a restart.
  uint64_t leave_at_sequence = 0;
};

struct PlayerStats {
  uint64_t moves_sent = 0;      // Move messages sent (retries after RATE_LIMITED included)
  uint64_t moves_accepted = 0;  // answered by a Delta carrying their request id
  uint64_t deltas = 0;          // deltas applied to the follower
  uint64_t rate_limited = 0;    // moves refused with ERROR_CODE_RATE_LIMITED, then retried
  uint64_t lost_way = 0;        // gaps, undecodable events or different hashes
  uint64_t resyncs = 0;         // Resume from 0 to get a snapshot
  uint64_t reconnects = 0;
  std::map<std::string, uint64_t> errors;  // every Error received, by code name
  std::vector<int64_t> latency_ns;         // Move sent -> its Delta received
  std::vector<int64_t> broadcast_ns;  // a seat's Move sent -> its Delta received, at every seat
  uint64_t bytes_received = 0;        // the ServerMessages' encoded sizes (WebSocket payloads)
  std::vector<int64_t> turn_ns;       // a seat's Move sent -> the next decision reached its seat
  std::optional<std::chrono::steady_clock::time_point> first_move, last_delta;
};

class Player : public std::enable_shared_from_this<Player> {
 public:
  struct Callbacks {
    std::function<void(const std::string& game_id)> created;  // the game this player created
    std::function<void()> done;  // the game ended, or the player failed or was stopped
  };

  static std::shared_ptr<Player> Create(boost::asio::io_context& io, PlayerConfig config);

  // How the seat is taken; call one of these before Start.
  void CreateAndJoin(wire::CreateGame create);  // then joins seat 0
  // Joins `game_id` (or the game given later by SetGame, and connects only then), at `seat` or
  // the lowest free one.
  void Join(std::string game_id, std::optional<uint32_t> seat);
  void Resume(std::string game_id, std::string token);

  void Start(Callbacks callbacks);
  void SetGame(const std::string& game_id);  // any thread
  void Input(const std::string& line);       // any thread: a person's answer
  void Stop();                               // any thread: closes; the seat stays the player's

  // On the strand, or once done.
  const PlayerStats& stats() const { return stats_; }
  const protocol::Follower& follower() const { return follower_; }
  const std::string& error() const { return error_; }  // empty unless it failed
  bool finished() const { return finished_; }          // it saw the game end
  bool stopped() const { return stopped_; }            // Stop was called (a person quit)
  int seat() const { return seat_; }
  const std::string& game_id() const { return game_id_; }

 private:
  enum class Mode : uint8_t { kCreate, kJoin, kResume };
  struct Pending {
    uint64_t sequence = 0;
    std::vector<std::string> legal;     // as sent: what Move carries back
    std::vector<std::string> notation;  // the same in the game's notation
    size_t chosen = 0;
  };

  Player(boost::asio::io_context& io, PlayerConfig config);
  void Connect();
  ServerUrl Where() const;
  void OnMessage(const wire::ServerMessage& message);
  void OnClosed(const std::string& error);
  void ConnectAgainLater(const std::string& why);
  // After a refusal of CreateGame for want of room (or a shard that did not answer while the
  // game was being created): on to the next shard to try, if there is one.
  bool CreateOnAnotherShard();
  void AfterWelcome();
  void SendJoin();
  void SendResume(uint64_t last_seen);
  void OnSnapshot(const wire::Snapshot& snapshot);
  void OnDelta(const wire::ServerMessage& message);
  void OnError(const wire::ServerMessage& message);
  void Decide();  // the follower's legal actions are this seat's
  void Ask();
  // A chat command typed at the terminal (say, mute, unmute): sent, and true; false otherwise.
  bool ChatCommand(const std::string& text);
  void SendMove();
  void Resync(const std::string& why);
  void GameEnded();
  void OnGameChanged(const wire::GameInfo& game);
  void TellStandIns(const wire::GameInfo& game);
  void TakeSeatBack();
  void Fail(const std::string& error);
  void Done();

  Connection::Strand strand_;
  boost::asio::steady_timer timer_;
  PlayerConfig config_;
  Callbacks callbacks_;
  core::Random random_;
  core::Random pace_;  // the think times, apart from the choices: a pace changes no game
  Mode mode_ = Mode::kJoin;
  wire::CreateGame create_;
  std::optional<uint32_t> wanted_seat_;
  std::shared_ptr<Connection> connection_;
  protocol::Follower follower_;
  PlayerStats stats_;
  std::string game_id_;
  std::string token_;  // bytes; empty until joined
  int seat_ = -1;
  bool started_ = false;  // Start was called
  bool welcomed_ = false;
  uint64_t setup_id_ = 0;    // the request id of CreateGame, JoinSeat or Resume
  uint64_t pending_id_ = 0;  // the request id of the Move awaiting its Delta
  std::chrono::steady_clock::time_point pending_sent_;
  std::optional<Pending> pending_;  // our decision, while not yet answered
  // Reconnection: when the connection was lost (none while connected), the next wait, what the
  // server said before it closed the connection (ServerClosing), and whether it said so before
  // the last loss and has not welcomed a connection since (its restart is waited for).
  std::optional<std::chrono::steady_clock::time_point> lost_since_;
  std::chrono::milliseconds reconnect_wait_;
  std::string server_closing_;
  bool server_restarting_ = false;
  // Creating on another shard: those still to try, and the one the current connection goes to
  // (empty: the base URL, where the proxy chooses).
  std::optional<std::vector<std::string>> create_shards_;
  std::string create_shard_;
  std::string welcome_shard_;    // the shard the current connection reached (Welcome.shard)
  bool changing_shard_ = false;  // the connection closes to go to create_shard_
  bool report_resume_ = false;   // after a reconnection: say how the Resume was answered
  bool finished_ = false;
  std::set<int> resigned_seats_;        // the resignations already told
  std::set<int> stand_in_seats_;        // the seats a stand-in plays, as last told
  std::optional<wire::Clocks> clocks_;  // the last Clocks (or Snapshot.clocks) of the game
  uint64_t last_chat_number_ = 0;       // the last chat line of the game that came
  bool stopped_ = false;
  bool failed_ = false;
  bool done_ = false;
  std::string error_;
};

// Writes one line to stdout (or stderr) under a lock, so lines from threads do not mix.
void PrintLine(const std::string& line, bool to_stderr = false);
std::string Hex(const std::string& bytes);
// Parses 32 hex digits (any case) into 16 bytes; nullopt if that is not what `hex` is.
std::optional<std::string> FromHex(const std::string& hex);

}  // namespace carc::client
