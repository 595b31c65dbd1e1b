// A game hosted by the server: its seats and their tokens, its spectators, the engine's State,
// and the messages that keep every connection in step. A room knows no game: it holds a
// core::State of its rule set and reaches the game's wire messages through the rule set's
// GameCodec (protocol/game_codec.h).
//
// The room is where moves are judged: a Move is checked, in this order, for the token's seat,
// that it is that seat's decision, that its sequence number is the current one (a stale or
// repeated move is never applied twice), and then by the engine. Accepted actions, and the tile
// draws the room makes itself as the chance actor, become Deltas: encoded once and shared by
// every recipient, with a personal copy only for the seat that must decide next (it carries
// the legal actions) and for the mover (it carries the request id).
//
// Nothing is acknowledged before it is durable: every change (the game created, a seat taken or
// freed, the start, a move with the tile draws it causes) is written to the game log first, and
// only when the write is committed are the replies and deltas sent. While a write is in flight
// the room takes no other request: those that arrive wait, in order, and run when it completes,
// so every request sees only committed state. A write that fails changes nothing: the move is
// refused with ERROR_CODE_STORAGE_FAILED and the game stays as it was.
//
// Seat tokens are kept only as their SHA-256 hashes (persistence/token.h), in memory as in the log.
//
// A Room knows nothing of sockets or threads: it is called by one thread at a time (the server
// runs each room on its own strand, and delivers the log's answers there too) and talks to
// connections through the Peer interface.
// Lifetime: peers are held weakly; a peer that is gone is simply skipped.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/rule_set.h"
#include "persistence/fair_draws.h"
#include "persistence/journal.h"
#include "persistence/replay.h"
#include "persistence/store.h"
#include "protocol/envelope.h"
#include "protocol/game_codec.h"
#include "room/bot_seats.h"
#include "room/chat.h"
#include "room/clocks.h"
#include "room/game_ids.h"
#include "room/metrics.h"
#include "room/request.h"

namespace carc::server {

namespace wire = protocol::wire;

using Bytes = std::shared_ptr<const std::string>;  // one encoded ServerMessage
using SeatToken = std::array<uint8_t, 16>;         // 128 bits

// One connection, as the room sees it.
class Peer {
 public:
  virtual ~Peer() = default;
  virtual void Send(Bytes message) = 0;
  // The remote IP address, for per-address limits; empty when unknown.
  virtual std::string Address() const { return {}; }
};

// Where seat tokens come from: the OS's random source in the server, a fixed sequence in tests.
using TokenSource = std::function<SeatToken()>;
// 128 bits from getrandom(2).
SeatToken OsRandomToken();

// The game a room hosts: its rule set, that rule set's codec, and its options.
struct RoomGame {
  std::shared_ptr<const core::RuleSet> rules;
  const protocol::GameCodec* codec = nullptr;  // of the same rule set
  core::Options options;                       // complete: CompleteOptions' result
};
// A RoomGame of `rules` with their default options; the codec is the protocol's for its id.
RoomGame DefaultRoomGame(std::shared_ptr<const core::RuleSet> rules);

struct RoomOptions {
  int64_t number = 1;  // the game's key in the log; its public id is PublicGameId(shard, number)
  std::string name;
  int seats = 4;  // within the rule set's player counts
  uint64_t seed = 0;
  size_t replay_limit = 512;  // a resuming client further behind gets a snapshot
  size_t max_waiting = 256;   // requests held while a write is in flight; more are refused
  // The room's monotonic clock, for the chat's rate limit and the seats' clocks and grace
  // periods (the steady clock when empty).
  MonotonicClock clock = {};
  // Chat (room/chat.h): whether spectators may write.
  bool spectators_chat = false;
  // Bots, resigning and rematches (room/bot_seats.h).
  std::vector<BotSeatOption> bots{};  // seats bots take at the creation
  persistence::ResignPolicy on_resign = persistence::ResignPolicy::kBotTakesSeat;
  int64_t rematch_of = 0;  // the number of the game this one is a rematch of; 0: none
  // Clocks and absent players (room/clocks.h).
  persistence::TimeControl time_control{};
  // The server's shard name, in the game's public id (room/game_ids.h); empty: the server is alone.
  std::string shard{};
};

// A player of a game that is over who asked for a rematch, to be seated in it.
struct RematchSeat {
  std::shared_ptr<Peer> peer;
  uint64_t request_id = 0;
  int seat = 0;
  std::string player_name;
};

// What the lobby hears from a room (for its list, its logs and its housekeeping).
enum class RoomEvent : uint8_t {
  kCreated,
  kCreateFailed,
  kStarted,
  kFinished,
  kDamaged,
  kAbandoned,
  kResigned,  // ended by a resignation (RESIGN_POLICY_END_GAME)
};

// The delta of one action, as every client gets it (no legal actions, no request id).
wire::Delta MakeDelta(const std::string& game_id, uint64_t sequence, int seat,
                      protocol::EncodedStep step, uint64_t state_hash);

class Room {
 public:
  Room(RoomOptions options, RoomGame game, TokenSource tokens, persistence::GameLog& log);

  // A new game: stores it, then answers `peer` with GameCreated (or the storage error).
  void Create(const std::shared_ptr<Peer>& peer, uint64_t request_id);
  // A game from the log, after a restart: its seats (offline until their players resume) and
  // its actions replayed through the engine, each hash checked. Returns the damage found, if
  // any: the room then refuses play, and the game is marked damaged in the log. A finished or
  // abandoned game comes back as it ended (nothing is written): it answers Resume and Spectate.
  std::optional<std::string> Restore(const persistence::StoredGame& stored);
  // The same with the replay made beforehand by ReplayLog (of the same stored game).
  struct ReplayedLog {
    persistence::ReplayedGame replayed;
    std::vector<Bytes> delta_bytes;  // every action's Delta, encoded, for Resume
  };
  std::optional<std::string> Restore(const persistence::StoredGame& stored, ReplayedLog log);
  // The engine's part of Restore, the most of its time: touches nothing of the room but what
  // never changes (its rules, codec and id), so a restart replays many rooms at once, each on
  // any thread, before they run.
  ReplayedLog ReplayLog(const persistence::StoredGame& stored) const;
  // Ends an open or running game without a result (nothing happened in it for too long): the
  // log says so first, then its seats and spectators get a LobbyUpdate with the new status. A
  // write that fails changes nothing. Only for a room that is not writing.
  void Abandon();

  // A room request (room/request.h) from `peer`, passed to its handler below; any other message
  // is left alone. The lobby, and the dispatch fuzzer, reach a room's handlers through here.
  void Handle(const std::shared_ptr<Peer>& peer, const wire::ClientMessage& message);

  void Join(const std::shared_ptr<Peer>& peer, uint64_t request_id, const wire::JoinSeat& join);
  void Leave(const std::shared_ptr<Peer>& peer, uint64_t request_id, const wire::LeaveSeat& leave);
  void Start(const std::shared_ptr<Peer>& peer, uint64_t request_id, const wire::StartGame& start);
  void Spectate(const std::shared_ptr<Peer>& peer, uint64_t request_id);
  void Resume(const std::shared_ptr<Peer>& peer, uint64_t request_id, const wire::Resume& resume);
  void Move(const std::shared_ptr<Peer>& peer, uint64_t request_id, const wire::Move& move);
  // The connection is gone: its seat shows offline (the seat stays the player's).
  void Disconnected(const Peer* peer);
  // Chat (room/chat.cc).
  void SendChat(const std::shared_ptr<Peer>& peer, uint64_t request_id, const wire::SendChat& send);
  void MuteSeat(const std::shared_ptr<Peer>& peer, uint64_t request_id, const wire::MuteSeat& mute);

  // Bots, resigning and rematches (room/bot_seats.cc).
  // Where the room's bots think; without one (a room that only answers from the log) they do
  // not. Set before Create or Restore.
  void SetBotRunner(BotRunner* runner) { bot_runner_ = runner; }
  // What sets off the room's timed work (clocks that run out, grace periods that end); without
  // one, nothing runs out. Set before Create or Restore.
  void SetAlarm(Alarm* alarm) { alarm_ = alarm; }
  void Resign(const std::shared_ptr<Peer>& peer, uint64_t request_id, const wire::Resign& resign);
  void Rematch(const std::shared_ptr<Peer>& peer, uint64_t request_id,
               const wire::Rematch& rematch);
  // The lobby's answers to on_rematch_create: the rematch exists (its summary), or could not be
  // made. The players waiting for it are seated in it (on_rematch_join) or told why not, and the
  // others are offered it.
  void RematchReady(const wire::GameInfo& rematch);
  void RematchFailed(wire::ErrorCode code, const std::string& reason);
  // Runs `job` once no write is in flight (at once if none is).
  void WhenIdle(const std::function<void()>& job);
  // The server stops: from now on nothing is decided by time or by a bot. The alarm is cleared
  // and never set again (no clock runs out, no grace period ends, no stand-in is seated, no
  // forfeit is written), bots think no more and an answer already under way is dropped. The
  // game is left as a kill -9 would leave it, less the writes in flight, which finish: after a
  // restart its clocks, grace periods and bots carry on from the log (docs/server.md).
  void Freeze();
  bool frozen() const { return frozen_; }
  // Asked to make the rematch of this game with `options` (its number is the lobby's to give).
  std::function<void(RoomOptions options, RoomGame game)> on_rematch_create;
  // Asked to seat a player in the rematch `game_id` (a JoinSeat made on their behalf).
  std::function<void(const std::string& game_id, const RematchSeat& seat)> on_rematch_join;

  wire::GameInfo Info() const;
  // Whether `token` is a person's seat token in this game (not a bot's).
  bool HoldsPersonsToken(const std::string& token) const {
    const auto seat = SeatOf(token);
    return seat && !IsBotToken(*seat, token);
  }
  // Safe from any thread (the server's metrics count the hosted games by status).
  wire::GameStatus Status() const { return status_.load(std::memory_order_relaxed); }
  const std::string& id() const { return id_; }
  // The game as committed (null before the start).
  const core::State* game() const { return game_.get(); }
  const RoomGame& hosted() const { return game_type_; }
  uint64_t Sequence() const { return delta_bytes_.size(); }
  bool writing() const { return writing_; }
  // When the last change of the game was committed (Unix ms): its creation, a seat taken or
  // freed, its start, a move. After a restart, from the log.
  int64_t LastActivityMs() const { return last_activity_ms_; }
  // Told when the game is created (or could not be), starts, finishes or is found damaged.
  std::function<void(RoomEvent)> on_event;
  // Where the room counts the moves it judges (the server's /metrics); none when null.
  Metrics* metrics = nullptr;

 private:
  using SteadyTime = std::chrono::steady_clock::time_point;
  // The bot that plays a seat, with the token the room moves it with.
  struct SeatBot {
    bots::Level level = bots::Level::kRandom;
    std::string token;
    persistence::TokenHash token_hash{};
  };
  struct Seat {
    bool taken = false;
    std::string player_name;
    persistence::TokenHash token_hash{};
    std::weak_ptr<Peer> peer;
    bool online = false;
    bool resigned = false;  // the person's token no longer plays the seat
    std::optional<SeatBot> bot{};
    bool stand_in = false;  // `bot` stands in for the person, who may take the seat back
    // Since when the person has been away from the running game, while their grace period runs
    // (room/absent.cc); empty once it has been dealt with.
    std::optional<int64_t> away_since_ms{};
  };
  // An action applied but not yet committed, with what its delta needs.
  struct Staged {
    int seat = -1;
    protocol::EncodedStep step;
    uint64_t state_hash = 0;
    persistence::ActionRecord record;
  };
  // A game about to start: its drawing order, the engine's state and the first tile draws.
  struct StartPlan {
    std::vector<int> order;
    std::unique_ptr<core::State> game;
    std::vector<Staged> staged;
    persistence::DrawCommitment draws;  // fair draws (room/draw_commitment.h)
  };

  // Runs `retry` later if a write is in flight (and says so); refuses it if too many wait.
  bool Deferred(const std::shared_ptr<Peer>& peer, uint64_t request_id,
                std::function<void()> retry);
  void Write(std::vector<persistence::WriteOp> ops, std::function<void(persistence::Status)> then);
  void RunWaiting();
  void Emit(RoomEvent event);
  // Refuses (and says so) a lobby request on a game that no longer waits for players.
  bool RefusedUnlessOpen(Peer& peer, uint64_t request_id);
  // Tells the client its request's write failed (Write has logged why).
  void StorageFailed(Peer& peer, uint64_t request_id);

  // The seat of a token: a person's, or the token of the bot that plays the seat.
  std::optional<int> SeatOf(const std::string& token) const;
  bool IsBotToken(int seat, const std::string& token) const;
  // Why a Move with `token` for `seat` is refused before its game is looked at, if it is: the
  // token of a person who resigned.
  bool RefusedAsResigned(Peer& peer, uint64_t request_id, int seat, const std::string& token);
  SeatBot NewSeatBot(bots::Level level);
  // Asks the runner for the move of the bot whose seat must decide now, if one must.
  void ThinkIfBotDecides();
  void BotAnswered(int seat, uint64_t sequence, std::string action);
  persistence::SeatRecord RecordOf(int seat, const Seat& s) const;
  // `peer` is null for a forfeit (room/absent.cc), which `ended_by` names in the result.
  void ResignAndEnd(const std::shared_ptr<Peer>& peer, uint64_t request_id, int seat,
                    const std::string& ended_by);
  void ResignToBot(const std::shared_ptr<Peer>& peer, uint64_t request_id, int seat);
  void ResignFailed(const std::shared_ptr<Peer>& peer, uint64_t request_id);
  // Whether someone other than `seat` still plays a seat in person.
  bool PersonPlaysBesides(int seat) const;
  RoomOptions RematchOptions() const;

  // Clocks and absent players (room/absent.cc).
  // The seat whose clock runs now: the deciding seat, when its person plays it.
  std::optional<int> ClockSeat() const;
  // The clock of the seat that just acted, for the log record of its action.
  void StampClock(int seat, persistence::ActionRecord* record) const;
  // Starts the clock of the seat that decides now, tells everybody, and sets the alarm.
  void RestartClocks();
  void SendClocks();
  void ArmAlarm();
  void AlarmRang();
  // Starts the grace period of every person who is away and has none running.
  void StartGraceForAbsent();
  // The person of `seat` is back (Resume, or a request with the seat's token).
  void Returned(int seat);
  // Whether a person who plays their own seat is connected (`seat` included).
  bool SomeoneHere() const;
  // The seat's person is away past the grace period, or out of time.
  void ApplyAbsentPolicy(int seat);
  void StandIn(int seat);
  void Forfeit(int seat);
  // After a write the alarm asked for failed: tries again a little later.
  void RetryAlarmLater();
  void TakeBack(const std::shared_ptr<Peer>& peer, uint64_t request_id, const wire::Resume& resume,
                int seat);
  void OfferRematch(const wire::GameInfo& rematch);
  // The seat's messages go to `peer` from now on: a live connection that held it is told
  // (SeatMoved), and `peer` no longer watches as a spectator.
  void MoveSeatTo(int seat, const std::shared_ptr<Peer>& peer);
  void AttachSeat(int seat, const std::shared_ptr<Peer>& peer);
  // A connection that takes or resumes a seat is a player of the game, not one of its watchers.
  void StopSpectating(const Peer& peer);
  void TakeSeat(const std::shared_ptr<Peer>& peer, uint64_t request_id, int seat,
                const std::string& player_name);
  // Whether every seat is taken once `seat` is too.
  bool FullWith(int seat) const;
  // A start built from the taken seats of `seats` but not yet applied: the ops that make it
  // durable are appended to `ops`; ApplyStart makes it the room's once they are committed.
  StartPlan BuildStart(const std::vector<Seat>& seats,
                       std::vector<persistence::WriteOp>* ops) const;
  void ApplyStart(StartPlan plan, const std::shared_ptr<Peer>& starter, uint64_t request_id);
  // The start as a write of its own (an early start, or a full game an old log left unstarted).
  void StartGame(const std::shared_ptr<Peer>& starter, uint64_t request_id);
  void PublishStart(const std::shared_ptr<Peer>& starter, uint64_t request_id);
  // Keeps what the delta and the log record of the action just applied to `game` need.
  void Stage(const core::State& game, core::Actor actor, std::string action,
             std::vector<Staged>* out) const;
  // The server's tile draws, as long as the chance actor must decide.
  void StageChanceDraws(core::State& game, std::vector<Staged>* out) const;
  std::vector<persistence::WriteOp> LogOps(const core::State& game,
                                           const std::vector<Staged>& staged) const;
  // `arrived`: when the move that led to the staged actions reached the room (for the metrics).
  void Publish(std::vector<Staged> staged, const std::shared_ptr<Peer>& mover, uint64_t request_id,
               std::optional<SteadyTime> arrived = std::nullopt);
  // Keeps the shared encoding of the staged action's delta; returns the message it encodes.
  wire::ServerMessage Record(const Staged& staged);
  // `committed` is the game before the staged actions: game_ goes back to it if the write fails.
  void CommitMove(std::vector<Staged> staged, const std::shared_ptr<Peer>& mover,
                  uint64_t request_id, std::unique_ptr<core::State> committed,
                  std::optional<SteadyTime> arrived);
  // Move, once it has arrived: a move deferred behind a write keeps its time of arrival.
  void MoveArrived(const std::shared_ptr<Peer>& peer, uint64_t request_id, const wire::Move& move,
                   SteadyTime arrived);
  wire::Snapshot SnapshotFor(std::optional<int> seat) const;
  void AddLegalActions(int seat, google::protobuf::RepeatedPtrField<std::string>* out) const;
  std::optional<int> DecidingSeat() const;
  void Broadcast(const wire::ServerMessage& message, const Peer* except = nullptr);
  void SendLobbyUpdate();
  void SendSeatStatus(int seat);
  // A committed chat line to everybody who has not muted its speaker (room/chat.cc).
  void PublishChat(wire::ChatMessage line, const std::shared_ptr<Peer>& sender,
                   uint64_t request_id);
  static void Reply(Peer& peer, uint64_t request_id, wire::ServerMessage message);
  static void Error(Peer& peer, uint64_t request_id, wire::ErrorCode code,
                    const std::string& reason);
  // A refused move: logged with its code (never with the token), then answered.
  void Reject(Peer& peer, uint64_t request_id, wire::ErrorCode code, const std::string& reason);
  // A move the engine refused: ERROR_CODE_RULE_REFUSED with the engine's reason.
  void RejectRule(Peer& peer, uint64_t request_id, const core::RuleError& error);

  RoomOptions options_;
  std::string id_;
  RoomGame game_type_;
  const protocol::GameCodec& codec_;
  TokenSource tokens_;
  persistence::GameLog& log_;
  // Changed on the room's strand only; atomic because Status() may be read from anywhere.
  std::atomic<wire::GameStatus> status_ = wire::GAME_STATUS_OPEN;
  bool writing_ = false;
  int64_t last_activity_ms_ = 0;
  std::deque<std::function<void()>> waiting_;
  std::vector<Seat> seats_;
  std::vector<std::weak_ptr<Peer>> spectators_;
  std::unique_ptr<core::State> game_;  // committed, except inside a Move until its write returns
  std::vector<int> order_;             // the tiles in drawing order, once started
  // Every delta so far as every connection got it (no legal actions, no request id), encoded
  // once: Resume sends these very bytes again. No decoded copy is kept (for a finished 4-player
  // game it would be about 167 KiB more); the one a Resume answers with is decoded from its bytes.
  std::vector<Bytes> delta_bytes_;
  BotRunner* bot_runner_ = nullptr;
  std::shared_ptr<Peer> bot_peer_;            // where the replies to the bots' moves go (the log)
  std::string rematch_;                       // this game's rematch, once made
  bool rematch_pending_ = false;              // asked of the lobby, not yet answered
  std::vector<RematchSeat> rematch_waiting_;  // to seat in it once it exists
  // Chat and fair draws.
  MonotonicClock clock_;
  ChatLog chat_;
  persistence::DrawCommitment draws_;  // empty before the start
  SeatClocks clocks_;                  // a game's without a clock before the start
  Alarm* alarm_ = nullptr;
  bool frozen_ = false;  // Freeze: the server is stopping
};

}  // namespace carc::server
