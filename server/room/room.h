// A game hosted by the server: its seats and their tokens, its spectators, the engine's Game,
// and the messages that keep every connection in step.
//
// The room is where moves are judged: a Move is checked, in this order, for the token's seat,
// that it is that seat's decision, that its sequence number is the current one (a stale or
// repeated move is never applied twice), and then by the engine. Accepted actions, and the tile
// draws the room makes itself as the chance actor, become Deltas: encoded once and shared by
// every recipient, with a personal copy only for the seat that must decide next (it carries
// the legal actions) and for the mover (it carries the request id).
//
// A Room knows nothing of sockets or threads: it is called by one thread at a time (the server
// runs each room on its own strand) and talks to connections through the Peer interface.
// Lifetime: peers are held weakly; a peer that is gone is simply skipped.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "city/game.h"
#include "protocol/codec.h"

namespace carc::server {

namespace v1 = ::carcassonne::city::v1;

using Bytes = std::shared_ptr<const std::string>;  // one encoded ServerMessage
using SeatToken = std::array<uint8_t, 16>;         // 128 bits

// One connection, as the room sees it.
class Peer {
 public:
  virtual ~Peer() = default;
  virtual void Send(Bytes message) = 0;
};

// Where seat tokens come from: the OS's random source in the server, a fixed sequence in tests.
using TokenSource = std::function<SeatToken()>;
// 128 bits from getrandom(2).
SeatToken OsRandomToken();

struct RoomOptions {
  std::string id;
  std::string name;
  int seats = 4;  // 2 to 4
  uint64_t seed = 0;
  size_t replay_limit = 512;  // a resuming client further behind gets a snapshot
};

class Room {
 public:
  Room(RoomOptions options, std::shared_ptr<const core::TileSet> tiles, TokenSource tokens);

  void Join(const std::shared_ptr<Peer>& peer, uint64_t request_id, const v1::JoinSeat& join);
  void Leave(const std::shared_ptr<Peer>& peer, uint64_t request_id, const v1::LeaveSeat& leave);
  void Start(const std::shared_ptr<Peer>& peer, uint64_t request_id, const v1::StartGame& start);
  void Spectate(const std::shared_ptr<Peer>& peer, uint64_t request_id);
  void Resume(const std::shared_ptr<Peer>& peer, uint64_t request_id, const v1::Resume& resume);
  void Move(const std::shared_ptr<Peer>& peer, uint64_t request_id, const v1::Move& move);
  // The connection is gone: its seat shows offline (the seat stays the player's).
  void Disconnected(const Peer* peer);

  v1::GameInfo Info() const;
  v1::GameStatus Status() const;
  const city::Game* game() const { return game_ ? &*game_ : nullptr; }
  uint64_t Sequence() const { return deltas_.size(); }

 private:
  struct Seat {
    bool taken = false;
    std::string player_name;
    SeatToken token{};
    std::weak_ptr<Peer> peer;
    bool online = false;
  };

  std::optional<int> SeatOf(const std::string& token) const;
  void AttachSeat(int seat, const std::shared_ptr<Peer>& peer);
  void StartGame(const std::shared_ptr<Peer>& starter, uint64_t request_id);
  void ApplyAndBroadcast(int seat, const city::Action& action, const std::shared_ptr<Peer>& mover,
                         uint64_t request_id);
  void DrawForChance();
  v1::Snapshot SnapshotFor(std::optional<int> seat) const;
  void AddLegalActions(int seat, google::protobuf::RepeatedPtrField<v1::Action>* out) const;
  std::optional<int> DecidingSeat() const;
  void Broadcast(const v1::ServerMessage& message, const Peer* except = nullptr);
  void SendLobbyUpdate();
  void SendSeatStatus(int seat);
  static void Reply(Peer& peer, uint64_t request_id, v1::ServerMessage message);
  static void Error(Peer& peer, uint64_t request_id, v1::ErrorCode code, const std::string& reason);
  // A refused move: logged with its code (never with the token), then answered.
  void Reject(Peer& peer, uint64_t request_id, v1::ErrorCode code, const std::string& reason);

  RoomOptions options_;
  std::shared_ptr<const core::TileSet> tiles_;
  TokenSource tokens_;
  std::vector<Seat> seats_;
  std::vector<std::weak_ptr<Peer>> spectators_;
  std::optional<city::Game> game_;
  std::vector<int> seat_of_player_;  // engine player -> seat (seats are compacted at the start)
  std::vector<v1::Delta> deltas_;    // every delta so far, without legal actions
  std::vector<Bytes> delta_bytes_;   // the shared encoding of each
  std::vector<city::Event> events_;
  std::vector<city::Action> legal_;
};

}  // namespace carc::server
