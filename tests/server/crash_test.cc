// The kill -9 test: a real carc-server process, killed with SIGKILL at random moments while bots
// play over real sockets and restarted on the same game log, never loses a move it acknowledged.
//
// The server runs as a child process (fork/exec of the built binary) on one loopback port for
// every start. A driver, one synchronous WebSocket connection holding both seats of every game,
// pipelines moves across the games (one in flight per game), follows each game's public state
// from the deltas with the hash checked at every step, and notes every acknowledgement (the
// Delta that carries the Move's request id). At seeded random points, with moves in flight, the
// server is killed and restarted, and every seat resumes: each game must come back at or past
// everything the driver saw, with the same hashes. At the end the log is read with the
// persistence library: every game finished, replays through the engine without damage, holds
// every acknowledged action at its sequence, and ends with the scores the players were told.
//
// The seed (printed; CARC_CRASH_SEED overrides it) fixes the games, the moves chosen and the kill
// points counted in acknowledgements; which in-flight moves a kill catches depends on timing, so
// the checks hold for any interleaving. Receive timeouts are safety limits only.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "city/default_tiles.h"
#include "city/public_state.h"
#include "city/rule_set.h"
#include "persistence/replay.h"
#include "persistence/store.h"
#include "protocol/city/codec.h"
#include "protocol/city/game_codec.h"
#include "protocol/follower.h"
#include "registry.h"
#include "server_process.h"
#include "wire_messages.h"

namespace carc {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace fs = std::filesystem;
namespace wire = protocol::wire;
namespace citypb = protocol::citypb;
using msg::Show;
using Clock = std::chrono::steady_clock;
using test_server::FreeLoopbackPort;
using test_server::ServerProcess;
using test_server::TempDir;

// One connection creates a batch of games before it joins them.
const std::vector<std::string> kUnlimitedOpenGames = {"--max-open-games-per-connection", "0",
                                                      "--max-open-games-per-address", "0"};

// 100 kills take about 6 s on 2 cores and run through four batches of games, so that some
// games end while a kill catches their last move. Killing stops after kKillPhase whatever the
// count; fewer than kMinKills by then fails the test.
constexpr int kGamesPerBatch = 12;
constexpr int kTargetKills = 100;
constexpr int kMinKills = 20;
constexpr std::chrono::seconds kKillPhase{90};
constexpr std::chrono::milliseconds kReceiveTimeout{10000};  // a safety limit
constexpr uint64_t kDefaultSeed = 20240917;

uint64_t TestSeed() {
  const char* text = std::getenv("CARC_CRASH_SEED");
  return text ? std::strtoull(text, nullptr, 10) : kDefaultSeed;
}

// Actions are The City's, encoded, as the server sends them and takes them back.
bool SameAction(const std::string& a, const std::string& b) { return a == b; }

// One WebSocket connection, synchronous, with its own io_context (reads run on it with a
// timeout, which is a safety limit).
class Connection {
 public:
  Connection() : ws_(io_) {}

  bool Connect(uint16_t port) {
    beast::error_code ec;
    auto& socket = beast::get_lowest_layer(ws_).socket();
    socket.connect({asio::ip::make_address("127.0.0.1"), port}, ec);
    if (!ec) socket.set_option(asio::ip::tcp::no_delay(true), ec);
    if (!ec) {
      beast::get_lowest_layer(ws_).expires_after(kReceiveTimeout);
      ws_.async_handshake("127.0.0.1:" + std::to_string(port), "/",
                          [&ec](beast::error_code result) { ec = result; });
      io_.restart();
      io_.run();
      beast::get_lowest_layer(ws_).expires_never();
    }
    if (ec) {
      error_ = ec.message();
      return false;
    }
    ws_.binary(true);
    open_ = true;
    return true;
  }

  // Sends one message under a new request id; returns the id (0 if the write failed).
  uint64_t Send(wire::ClientMessage message) {
    message.set_request_id(next_id_++);
    beast::error_code ec;
    ws_.write(asio::buffer(message.SerializeAsString()), ec);
    if (ec) {
      error_ = ec.message();
      return 0;
    }
    return message.request_id();
  }

  // The next message; nullopt when the connection ends or the safety timeout passes.
  std::optional<wire::ServerMessage> Receive() {
    if (!open_) return std::nullopt;
    beast::flat_buffer buffer;
    beast::error_code result;
    QuickAck();
    beast::get_lowest_layer(ws_).expires_after(kReceiveTimeout);
    ws_.async_read(buffer, [&result](beast::error_code ec, size_t) { result = ec; });
    io_.restart();
    io_.run();
    beast::get_lowest_layer(ws_).expires_never();
    if (result) {
      open_ = false;
      error_ = result.message();
      return std::nullopt;
    }
    wire::ServerMessage message;
    if (!message.ParseFromString(beast::buffers_to_string(buffer.data()))) {
      open_ = false;
      error_ = "a frame that is not a ServerMessage";
      return std::nullopt;
    }
    return message;
  }

  // Closes the TCP connection at once (the server at the other end is gone).
  void Drop() {
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().close(ignored);
    open_ = false;
  }

  const std::string& error() const { return error_; }

 private:
  // The server does not set TCP_NODELAY, so its second small write in a row waits for the ACK
  // of the first: acknowledging at once (Linux resets the flag, so before every read) keeps
  // turns from stalling on the delayed-ACK timer.
  void QuickAck() {
    const int one = 1;
    setsockopt(beast::get_lowest_layer(ws_).socket().native_handle(), IPPROTO_TCP, TCP_QUICKACK,
               &one, sizeof one);
  }

  asio::io_context io_;
  websocket::stream<beast::tcp_stream> ws_;
  bool open_ = false;
  uint64_t next_id_ = 1;
  std::string error_;
};

wire::ClientMessage HelloMessage() {
  return msg::Hello(0, protocol::kProtocolVersion, "crash_test");
}

wire::ClientMessage ResumeMessage(const std::string& game, const std::string& token,
                                  uint64_t last_seen) {
  return msg::Resume(game, token, last_seen);
}

wire::ClientMessage MoveMessage(const std::string& game, const std::string& token,
                                uint64_t sequence, const std::string& action) {
  return msg::Move(game, token, sequence, action);
}

int TotalOf(const citypb::Scores& s) {
  return s.streets() + s.markets() + s.towers() + s.stewards() + s.guards();
}

// One game as the driver sees it: both seats are its own.
struct GameView {
  std::string id;
  std::array<std::string, 2> tokens;
  protocol::Follower follower;            // the public state, every step and hash checked
  std::vector<std::string> legal;         // for the seat that decides at follower.sequence()
  uint64_t in_flight = 0;                 // the request id of the Move sent and not answered, or 0
  std::map<uint64_t, uint64_t> hashes;    // every state hash seen, by sequence
  std::map<uint64_t, std::string> acked;  // every acknowledged action, by sequence
  uint64_t last_acked = 0;
  uint64_t resumed_at = 0;  // the server's sequence when the game came back after a restart
  std::optional<citypb::GameOver> game_over;
  bool replay_asked = false;

  bool Over() const { return follower.started() && follower.over(); }
  uint64_t sequence() const { return follower.sequence(); }
};

struct DriverStats {
  int acks = 0;
  int refusals = 0;             // stale or out-of-turn moves after a restart (allowed)
  int resumed_by_snapshot = 0;  // Resume answered with a Snapshot
  int resumed_by_deltas = 0;    // ... with the missed Deltas
  int committed_unseen = 0;     // games that came back past what the driver saw (moves in flight)
  int replayed = 0;             // games finished before a kill, read back with GetReplay
};

// Plays every game it holds with seeded random moves over one connection.
class Driver {
 public:
  explicit Driver(uint64_t seed) : rng_(seed) {}

  bool Connect(uint16_t port) {
    connection_ = std::make_unique<Connection>();
    if (!connection_->Connect(port)) return Fail("cannot connect: " + connection_->error());
    const auto reply = Request(HelloMessage());
    return reply && reply->has_welcome() ? true : Fail("no Welcome");
  }

  // The server is gone: so are the connection and every request in flight.
  void Drop() {
    connection_->Drop();
    pending_.clear();
    for (auto& [id, view] : games_) view.in_flight = 0;
  }

  // Creates `count` games of 2 seats, takes both seats of each, and waits until each has started
  // and its first player has its legal actions.
  bool CreateBatch(int count, uint64_t first_seed) {
    std::vector<std::string> batch;
    for (int i = 0; i < count; ++i) {
      const auto id = CreateGame(first_seed + static_cast<uint64_t>(i));
      if (!id) return false;
      batch.push_back(*id);
    }
    return PlayUntil([&] {
      return std::all_of(batch.begin(), batch.end(), [&](const std::string& id) {
        const GameView& v = games_.at(id);
        return v.follower.started() && v.sequence() > 0 && !v.legal.empty();
      });
    });
  }

  // Keeps a move in flight for every game that has one to make, until `done` holds.
  bool PlayUntil(const std::function<bool()>& done) {
    while (!done()) {
      SendMoves();
      if (!Pump()) return false;
    }
    return !broken_;
  }

  void SendMoves() {
    for (auto& [id, view] : games_) {
      if (!view.follower.started() || view.Over() || view.in_flight != 0 || view.legal.empty())
        continue;
      const int actor = view.follower.actor();
      if (actor < 0 || actor > 1) {
        Fail(id + ": legal actions for actor " + std::to_string(actor));
        return;
      }
      const std::string action = view.legal[rng_() % view.legal.size()];
      const uint64_t request = connection_->Send(
          MoveMessage(id, view.tokens[static_cast<size_t>(actor)], view.sequence(), action));
      if (request == 0) return;  // the server is gone; the next receive says so
      view.in_flight = request;
      pending_[request] = Pending{Pending::Kind::kMove, id, view.sequence(), action};
    }
  }

  // After a restart: connects, says Hello, and resumes both seats of every unfinished game, one
  // from nothing (a snapshot) and one from the last sequence seen (the missed deltas), which
  // seat gets which alternating with `round`. Waits for every answer.
  bool Reconnect(uint16_t port, int round) {
    if (!Connect(port)) return false;
    int index = 0;
    for (auto& [id, view] : games_) {
      ++index;
      if (view.Over()) continue;
      view.resumed_at = 0;
      for (size_t seat = 0; seat < 2; ++seat) {
        const bool from_nothing = (static_cast<size_t>(round + index) + seat) % 2 == 0;
        const uint64_t request = connection_->Send(
            ResumeMessage(id, view.tokens[seat], from_nothing ? 0 : view.sequence()));
        if (request == 0) return Fail("cannot send Resume: " + connection_->error());
        pending_[request] = Pending{Pending::Kind::kResume, id, view.sequence(), {}};
      }
    }
    return PumpWhile([this] { return !pending_.empty(); });
  }

  // After Reconnect: every game is back at or past what the driver saw before the kill, and
  // the seat that decides has its legal actions again.
  bool CheckNothingLost(const std::map<std::string, uint64_t>& seen) {
    for (const auto& [id, before] : seen) {
      GameView& v = games_.at(id);
      if (v.resumed_at < v.last_acked) {
        return Fail(id + ": came back at " + std::to_string(v.resumed_at) + ", but move " +
                    std::to_string(v.last_acked) + " was acknowledged");
      }
      if (v.resumed_at < before) {
        return Fail(id + ": came back at " + std::to_string(v.resumed_at) + ", but delta " +
                    std::to_string(before) + " had been sent");
      }
      if (v.resumed_at > before) ++stats_.committed_unseen;
      if (!v.Over() && v.legal.empty()) return Fail(id + ": resumed without legal actions");
    }
    return true;
  }

  // What the driver has seen of each unfinished game.
  std::map<std::string, uint64_t> Seen() const {
    std::map<std::string, uint64_t> seen;
    for (const auto& [id, view] : games_) {
      if (!view.Over()) seen[id] = view.sequence();
    }
    return seen;
  }

  bool AllOver() const {
    return std::all_of(games_.begin(), games_.end(),
                       [](const auto& entry) { return entry.second.Over(); });
  }

  // After SIGTERM: reads until the server closes the connection, which it announces.
  bool DrainUntilClosed() {
    bool told = false;
    while (auto m = connection_->Receive()) {
      told = told || m->has_server_closing();
      Dispatch(*m);
    }
    return told ? !broken_ : Fail("closed without ServerClosing: " + connection_->error());
  }

  const std::map<std::string, GameView>& games() const { return games_; }
  const DriverStats& stats() const { return stats_; }
  void set_kills(int kills) { kills_ = kills; }

 private:
  struct Pending {
    enum class Kind { kRequest, kMove, kResume, kReplay } kind = Kind::kRequest;
    std::string game;
    uint64_t sequence = 0;  // a Move's: the state it answers
    std::string action;     // a Move's (The City's Action, encoded)
  };

  bool Fail(const std::string& what) {
    ADD_FAILURE() << what;
    broken_ = true;
    return false;
  }

  std::optional<std::string> CreateGame(uint64_t seed) {
    const wire::ClientMessage create =
        msg::CreateGame(msg::kCity, 2, seed, "crash " + std::to_string(seed));
    const auto created = Request(create);
    if (!created || !created->has_game_created()) {
      Fail("CreateGame: " + (created ? Show(*created) : connection_->error()));
      return std::nullopt;
    }
    const std::string id = created->game_created().game().game_id();
    games_[id].id = id;
    for (uint32_t seat = 0; seat < 2; ++seat) {
      const auto joined = Request(msg::JoinSeat(id, seat, "bot " + std::to_string(seat)));
      if (!joined || !joined->has_seat_joined()) {
        Fail("JoinSeat: " + (joined ? Show(*joined) : connection_->error()));
        return std::nullopt;
      }
      games_[id].tokens[seat] = joined->seat_joined().seat_token();
    }
    return id;
  }

  // Sends a request and follows everything until its reply.
  std::optional<wire::ServerMessage> Request(const wire::ClientMessage& message) {
    const uint64_t request = connection_->Send(message);
    if (request == 0) {
      Fail("cannot send: " + connection_->error());
      return std::nullopt;
    }
    pending_[request] = Pending{};
    if (!PumpWhile([&] { return !replies_.contains(request); })) return std::nullopt;
    wire::ServerMessage reply = std::move(replies_.at(request));
    replies_.erase(request);
    return reply;
  }

  bool PumpWhile(const std::function<bool()>& waiting) {
    while (waiting()) {
      if (!Pump()) return false;
    }
    return !broken_;
  }

  bool Pump() {
    if (broken_) return false;
    const auto m = connection_->Receive();
    if (!m) return Fail("the connection ended: " + connection_->error());
    Dispatch(*m);
    return !broken_;
  }

  void Dispatch(const wire::ServerMessage& m) {
    if (m.has_delta()) OnDelta(m.delta());
    if (m.has_snapshot()) OnSnapshot(m.snapshot());
    if (m.request_id() != 0) OnReply(m);
  }

  GameView* Find(const std::string& id) {
    const auto it = games_.find(id);
    if (it == games_.end()) Fail("a message about a game not played here: " + id);
    return it == games_.end() ? nullptr : &it->second;
  }

  // Each delta comes once per seat on this connection, and again on a resume: the next one is
  // applied, one already applied must have the hash it had.
  void OnDelta(const wire::Delta& d) {
    GameView* v = Find(d.game_id());
    if (!v) return;
    if (v->follower.started() && d.sequence() <= v->sequence()) {
      CheckHash(*v, d.sequence(), d.state_hash());
      // The copy for the seat that decides carries the legal actions.
      if (d.sequence() == v->sequence() && d.legal_actions_size() > 0) {
        v->legal.assign(d.legal_actions().begin(), d.legal_actions().end());
      }
      return;
    }
    if (auto error = v->follower.Apply(d)) return (void)Fail(v->id + ": " + *error);
    if (auto over = msg::CityGameOver(d.events())) v->game_over = *over;
    v->hashes[d.sequence()] = d.state_hash();
    v->legal = v->follower.legal_actions();
  }

  void OnSnapshot(const wire::Snapshot& s) {
    GameView* v = Find(s.game_id());
    if (!v) return;
    if (v->follower.started() && s.sequence() < v->sequence()) {
      return (void)Fail(s.game_id() + ": a snapshot at " + std::to_string(s.sequence()) +
                        " after delta " + std::to_string(v->sequence()) + " was sent");
    }
    if (v->follower.started() && s.sequence() == v->sequence()) {
      CheckHash(*v, s.sequence(), s.state_hash());
      if (s.legal_actions_size() > 0)
        v->legal.assign(s.legal_actions().begin(), s.legal_actions().end());
      return;
    }
    if (auto error = v->follower.Start(s, msg::DefaultTiles(s.rule_set())))
      return (void)Fail(s.game_id() + ": " + *error);
    v->hashes[s.sequence()] = s.state_hash();
    v->legal = v->follower.legal_actions();
  }

  void CheckHash(GameView& v, uint64_t sequence, uint64_t hash) {
    const auto [it, inserted] = v.hashes.emplace(sequence, hash);
    if (!inserted && it->second != hash) {
      Fail(v.id + ": two state hashes for sequence " + std::to_string(sequence));
    }
  }

  void OnReply(const wire::ServerMessage& m) {
    const auto it = pending_.find(m.request_id());
    if (it == pending_.end()) return;  // the second seat's copy of a move's delta
    const Pending p = std::move(it->second);
    pending_.erase(it);
    switch (p.kind) {
      case Pending::Kind::kRequest:
        replies_[m.request_id()] = m;
        return;
      case Pending::Kind::kMove:
        return OnMoveReply(p, m);
      case Pending::Kind::kResume:
        return OnResumeReply(p, m);
      case Pending::Kind::kReplay:
        return OnReplayReply(p, m);
    }
  }

  void OnMoveReply(const Pending& p, const wire::ServerMessage& m) {
    GameView& v = games_.at(p.game);
    v.in_flight = 0;
    if (m.has_delta()) {
      if (m.delta().sequence() != p.sequence + 1 || !SameAction(m.delta().action(), p.action)) {
        return (void)Fail(p.game + ": the ack does not match the move: " + Show(m));
      }
      v.acked[m.delta().sequence()] = p.action;
      v.last_acked = m.delta().sequence();
      ++stats_.acks;
      return;
    }
    const wire::ErrorCode code = m.has_error() ? m.error().code() : wire::ERROR_CODE_UNSPECIFIED;
    if (kills_ > 0 &&
        (code == wire::ERROR_CODE_STALE_SEQUENCE || code == wire::ERROR_CODE_NOT_YOUR_DECISION)) {
      ++stats_.refusals;
      return;
    }
    Fail(p.game + ": move at " + std::to_string(p.sequence) + " refused: " + Show(m));
  }

  void OnResumeReply(const Pending& p, const wire::ServerMessage& m) {
    GameView& v = games_.at(p.game);
    if (m.has_snapshot() || m.has_delta()) {
      v.resumed_at = m.has_snapshot() ? m.snapshot().sequence() : m.delta().sequence();
      ++(m.has_snapshot() ? stats_.resumed_by_snapshot : stats_.resumed_by_deltas);
      // A finished game answers from the log after a restart; a snapshot of its end carries no
      // events, so the GameOver the driver missed is read from the replay.
      if (m.has_snapshot() && v.Over() && !v.game_over) AskReplay(v);
      return;
    }
    // A game that finished before the kill is not hosted after the restart: its log says how
    // it ended.
    if (m.has_error() && m.error().code() == wire::ERROR_CODE_NO_SUCH_GAME) return AskReplay(v);
    Fail(p.game + ": Resume refused: " + Show(m));
  }

  void AskReplay(GameView& v) {
    if (v.replay_asked) return;
    v.replay_asked = true;
    const uint64_t request = connection_->Send(msg::GetReplay(v.id));
    if (request == 0) return (void)Fail("cannot send GetReplay: " + connection_->error());
    pending_[request] = Pending{Pending::Kind::kReplay, v.id, 0, {}};
  }

  void OnReplayReply(const Pending& p, const wire::ServerMessage& m) {
    GameView& v = games_.at(p.game);
    if (!m.has_replay()) return (void)Fail(p.game + ": GetReplay refused: " + Show(m));
    for (const wire::Delta& step : m.replay().steps()) {
      OnDelta(step);
      if (auto over = msg::CityGameOver(step.events()); over && !v.game_over) v.game_over = *over;
    }
    if (!v.Over()) return (void)Fail(p.game + ": no longer hosted, but its log is not finished");
    v.resumed_at = v.sequence();
    ++stats_.replayed;
  }

  std::unique_ptr<Connection> connection_;
  std::mt19937_64 rng_;
  std::map<std::string, GameView> games_;
  std::map<uint64_t, Pending> pending_;
  std::map<uint64_t, wire::ServerMessage> replies_;
  DriverStats stats_;
  int kills_ = 0;
  bool broken_ = false;
};

// SIGTERM with the driver connected: the server tells it, closes, and exits with status 0.
void StopGracefully(ServerProcess& server, Driver& driver) {
  server.Signal(SIGTERM);
  EXPECT_TRUE(driver.DrainUntilClosed());
  const auto status = server.WaitExit();
  ASSERT_TRUE(status.has_value()) << "the server did not exit after SIGTERM";
  EXPECT_EQ(*status, 0) << server.Tail(30);
}

persistence::Result<persistence::Store> OpenLog(const std::string& path) {
  persistence::StoreOptions options;
  options.path = path;
  options.create = false;
  return persistence::Store::Open(options);
}

// The engine's replay of a game's log: every action applied, by sequence.
struct LoggedGame {
  persistence::StoredGame stored;
  persistence::ReplayedGame replayed;
  std::map<uint64_t, city::Action> actions;
};

std::optional<LoggedGame> ReadLog(persistence::Store& store, const std::string& id) {
  const auto number = persistence::ParseGameId(id);
  if (!number) return std::nullopt;
  auto loaded = store.LoadGame(*number);
  if (!loaded || !loaded->has_value()) return std::nullopt;
  LoggedGame log{std::move(**loaded), {}, {}};
  log.replayed = persistence::ReplayStored(
      log.stored, DefaultRuleSets(),
      [&log](const persistence::ActionRecord& record, std::span<const std::string>,
             const core::State& state) {
        log.actions[record.sequence] = city::GameOf(state)->History().back().action;
      });
  return log;
}

// One game of the driver against the log: finished, replays clean, every hash the driver saw,
// every acknowledged action, and the scores of the GameOver event.
void ExpectLogged(persistence::Store& store, const GameView& view) {
  SCOPED_TRACE(view.id);
  const auto log = ReadLog(store, view.id);
  ASSERT_TRUE(log.has_value()) << "the game is in the log";
  EXPECT_EQ(log->stored.game.status, persistence::GameStatus::kFinished);
  ASSERT_FALSE(log->replayed.damage.has_value()) << *log->replayed.damage;
  ASSERT_TRUE(log->replayed.state != nullptr);
  const city::Game& game = *city::GameOf(*log->replayed.state);
  EXPECT_TRUE(game.IsOver());
  ASSERT_EQ(log->stored.actions.size(), view.sequence()) << "the driver saw the whole log";
  for (const auto& [sequence, hash] : view.hashes) {
    if (sequence == 0) continue;
    EXPECT_EQ(log->stored.actions[sequence - 1].state_hash, hash) << "sequence " << sequence;
  }
  for (const auto& [sequence, bytes] : view.acked) {
    const auto action = protocol::FromProto(msg::DecodeCityAction(bytes));
    ASSERT_TRUE(action.has_value());
    const auto it = log->actions.find(sequence);
    ASSERT_NE(it, log->actions.end()) << "acknowledged move " << sequence << " is in the log";
    EXPECT_TRUE(it->second == *action) << "acknowledged move " << sequence << " is the one logged";
  }
  ASSERT_TRUE(view.game_over.has_value()) << "the driver saw the GameOver event";
  ASSERT_EQ(view.game_over->scores_size(), game.players());
  for (int p = 0; p < game.players(); ++p) {
    EXPECT_EQ(TotalOf(view.game_over->scores(p)), game.TotalScore(p)) << "seat " << p;
  }
}

void ExpectEverythingLogged(const std::string& db, const Driver& driver) {
  auto store = OpenLog(db);
  ASSERT_TRUE(store) << store.error().message;
  EXPECT_FALSE(store->CheckIntegrity().has_value());
  for (const auto& [id, view] : driver.games()) ExpectLogged(*store, view);
}

// One kill: play on until `acks` more moves are acknowledged (or every game is over), put moves
// in flight, wait a moment, kill, restart, resume, and check that nothing acknowledged was lost.
// Returns false if there was nothing left to kill during.
bool KillOnce(ServerProcess& server, Driver& driver, std::mt19937_64& rng, int kill) {
  const int goal = driver.stats().acks + 10 + static_cast<int>(rng() % 111);
  EXPECT_TRUE(driver.PlayUntil([&] { return driver.stats().acks >= goal || driver.AllOver(); }));
  if (driver.AllOver()) return false;
  driver.SendMoves();
  std::this_thread::sleep_for(std::chrono::microseconds(rng() % 3001));
  const auto seen = driver.Seen();
  server.Kill();
  driver.Drop();
  driver.set_kills(kill);
  EXPECT_TRUE(server.Start());
  EXPECT_TRUE(driver.Reconnect(server.port(), kill));
  EXPECT_TRUE(driver.CheckNothingLost(seen));
  return true;
}

TEST(CrashTest, KilledServerLosesNoAcknowledgedMove) {
  const uint64_t seed = TestSeed();
  std::cout << "seed " << seed << " (CARC_CRASH_SEED to repeat)\n";
  TempDir dir;
  ServerProcess server(dir.path(), FreeLoopbackPort(), kUnlimitedOpenGames);
  ASSERT_TRUE(server.Start());
  Driver driver(seed);
  std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ULL);
  ASSERT_TRUE(driver.Connect(server.port()));
  const auto start = Clock::now();
  int kills = 0;
  int batches = 0;
  while (kills < kTargetKills && Clock::now() - start < kKillPhase && !HasFailure()) {
    if (driver.AllOver()) {
      ASSERT_TRUE(driver.CreateBatch(kGamesPerBatch, 1 + uint64_t{kGamesPerBatch} * batches++));
    }
    if (KillOnce(server, driver, rng, kills + 1)) ++kills;
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  const DriverStats& s = driver.stats();
  std::cout << kills << " kills in " << seconds << " s; " << batches << " batches of "
            << kGamesPerBatch << " games; " << s.acks << " acknowledged moves; resumed "
            << s.resumed_by_snapshot << " seats by snapshot and " << s.resumed_by_deltas
            << " by deltas; " << s.committed_unseen << " games came back past what was seen; "
            << s.replayed << " finished unseen; " << s.refusals << " stale moves refused\n";
  ASSERT_FALSE(HasFailure()) << server.Tail(30);
  ASSERT_GE(kills, kMinKills) << "too few kills in " << kKillPhase.count() << " s";

  ASSERT_TRUE(driver.PlayUntil([&] { return driver.AllOver(); })) << server.Tail(30);
  ASSERT_NO_FATAL_FAILURE(StopGracefully(server, driver));
  ASSERT_NO_FATAL_FAILURE(ExpectEverythingLogged(server.db(), driver));
}

// ---------------------------------------------------------------------------------------------
// A clean restart: a seat resumes from an earlier sequence with exactly the deltas it missed,
// and plays on.

// Receives on `connection` until the reply to `request`; the messages before it go to `before`.
std::optional<wire::ServerMessage> AwaitReply(Connection& connection, uint64_t request,
                                              std::vector<wire::ServerMessage>* before) {
  for (int i = 0; i < 100000; ++i) {
    auto m = connection.Receive();
    if (!m || m->request_id() == request) return m;
    if (before) before->push_back(*m);
  }
  return std::nullopt;
}

std::optional<wire::ServerMessage> Ask(Connection& connection, const wire::ClientMessage& message,
                                       std::vector<wire::ServerMessage>* before = nullptr) {
  const uint64_t request = connection.Send(message);
  if (request == 0) return std::nullopt;
  return AwaitReply(connection, request, before);
}

// A follower of the game from its state at `sequence`, read back from the server's log with Seek.
std::optional<protocol::Follower> SeekState(Connection& connection, const GameView& view,
                                            uint64_t sequence) {
  const auto reply = Ask(connection, msg::Seek(view.id, sequence));
  if (!reply || !reply->has_snapshot()) {
    ADD_FAILURE() << "Seek: " << (reply ? Show(*reply) : connection.error());
    return std::nullopt;
  }
  EXPECT_EQ(reply->snapshot().sequence(), sequence);
  EXPECT_EQ(reply->snapshot().state_hash(), view.hashes.at(sequence));
  protocol::Follower follower;
  if (auto error =
          follower.Start(reply->snapshot(), msg::DefaultTiles(reply->snapshot().rule_set()))) {
    ADD_FAILURE() << "Seek: " << *error;
    return std::nullopt;
  }
  return follower;
}

TEST(CrashTest, ARestartedServerResumesASeatWithExactlyTheMissedDeltas) {
  TempDir dir;
  ServerProcess server(dir.path(), FreeLoopbackPort(), kUnlimitedOpenGames);
  ASSERT_TRUE(server.Start());
  Driver driver(TestSeed() + 1);
  ASSERT_TRUE(driver.Connect(server.port()));
  ASSERT_TRUE(driver.CreateBatch(1, 7));
  // 30 moves in, at a player's decision (the draws after the last move have arrived).
  const GameView& view = driver.games().begin()->second;
  ASSERT_TRUE(driver.PlayUntil(
      [&] { return (driver.stats().acks >= 30 && !view.legal.empty()) || view.Over(); }));
  ASSERT_NO_FATAL_FAILURE(StopGracefully(server, driver));
  const GameView before = view;
  ASSERT_FALSE(before.Over());
  ASSERT_FALSE(before.legal.empty());
  const uint64_t seen = before.sequence() / 2;  // the seat last saw this one
  ASSERT_GT(seen, 0u);
  ASSERT_TRUE(server.Start());

  Connection back;
  ASSERT_TRUE(back.Connect(server.port())) << back.error();
  ASSERT_TRUE(Ask(back, HelloMessage()).value_or(wire::ServerMessage{}).has_welcome());
  auto state = SeekState(back, before, seen);
  ASSERT_TRUE(state.has_value());
  const int decider = before.follower.actor();
  ASSERT_TRUE(decider == 0 || decider == 1);
  const std::string& token = before.tokens[static_cast<size_t>(decider)];
  std::vector<wire::ServerMessage> earlier;
  const auto reply = Ask(back, ResumeMessage(before.id, token, seen), &earlier);
  ASSERT_TRUE(reply.has_value() && reply->has_delta()) << (reply ? Show(*reply) : back.error());

  // Exactly the missed deltas, in order, the last one answering the Resume; they take the state
  // the seat saw to the one the game was at when the server stopped.
  std::vector<wire::Delta> deltas;
  for (const wire::ServerMessage& m : earlier) {
    if (m.has_delta()) deltas.push_back(m.delta());
  }
  deltas.push_back(reply->delta());
  ASSERT_EQ(deltas.size(), before.sequence() - seen);
  for (size_t i = 0; i < deltas.size(); ++i) {
    const wire::Delta& d = deltas[i];
    ASSERT_EQ(state->Apply(d), std::nullopt);  // the next one, with its hash
    EXPECT_EQ(d.state_hash(), before.hashes.at(d.sequence()));
  }
  EXPECT_TRUE(*protocol::CityStateOf(state->view()) ==
              *protocol::CityStateOf(before.follower.view()));
  const wire::Delta& last = reply->delta();
  ASSERT_EQ(static_cast<size_t>(last.legal_actions_size()), before.legal.size());
  for (size_t i = 0; i < before.legal.size(); ++i) {
    EXPECT_TRUE(SameAction(last.legal_actions(static_cast<int>(i)), before.legal[i]));
  }

  // The seat moves, and its move is acknowledged and logged.
  std::mt19937_64 rng(TestSeed());
  const std::string action = before.legal[rng() % before.legal.size()];
  const auto moved = Ask(back, MoveMessage(before.id, token, before.sequence(), action));
  ASSERT_TRUE(moved.has_value() && moved->has_delta()) << (moved ? Show(*moved) : back.error());
  EXPECT_EQ(moved->delta().sequence(), before.sequence() + 1);
  EXPECT_TRUE(SameAction(moved->delta().action(), action));
  back.Drop();
  server.Signal(SIGTERM);
  EXPECT_EQ(server.WaitExit(), std::optional<int>(0)) << server.Tail(30);

  auto store = OpenLog(server.db());
  ASSERT_TRUE(store) << store.error().message;
  const auto log = ReadLog(*store, before.id);
  ASSERT_TRUE(log.has_value());
  ASSERT_FALSE(log->replayed.damage.has_value()) << *log->replayed.damage;
  ASSERT_GE(log->stored.actions.size(), before.sequence() + 1);
  EXPECT_TRUE(log->actions.at(before.sequence() + 1) ==
              *protocol::FromProto(msg::DecodeCityAction(action)));
}

}  // namespace
}  // namespace carc
