// The server over real sockets: WebSocket clients on loopback play whole games through it, meet
// every refusal, drop out and resume, run into the limits, see it shut down, replay and seek
// games from its game log, before and after the server restarts on the same file, list finished
// games and look games up by id, learn the rule sets it hosts and get their tile sets.
//
// Each test runs its own Server (127.0.0.1, port 0, its io_context on background threads) hosting
// the build's rule sets, and talks to it with synchronous Boost.Beast clients over protocol 2.
// A client keeps its own view of every game it is in, as a real one would: a protocol::Follower
// started from the Snapshot and advanced by each Delta's events, its hash checked against the
// server's at every step. The games played are The City's; what a test reads of their state it
// reads through The City's codec. Receive timeouts are safety limits only.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>
#include <sqlite3.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "castle/public_state.h"
#include "castle/rule_set.h"
#include "city/default_tiles.h"
#include "city/game.h"
#include "city/public_state.h"
#include "core/hash.h"
#include "net/server.h"
#include "persistence/restore.h"
#include "persistence/store.h"
#include "protocol/castle/game_codec.h"
#include "protocol/city/codec.h"
#include "protocol/city/game_codec.h"
#include "protocol/follower.h"
#include "protocol/river/game_codec.h"
#include "protocol/tileset_message.h"
#include "raw_client.h"
#include "registry.h"
#include "river/default_tiles.h"
#include "river/public_state.h"
#include "river/rule_set.h"
#include "wire_messages.h"

namespace carc::server {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using namespace std::string_literals;
using msg::CodeOf;
using msg::RuleErrorOf;
using msg::Show;
namespace citypb = protocol::citypb;

constexpr std::chrono::milliseconds kTimeout{5000};  // a safety limit: replies come in far less
constexpr size_t kMaxMessages = 100000;              // bounds every receiving loop

// Loopback, a free port, and rate limits no test reaches unless it lowers them: a whole game is
// hundreds of moves a second from each client.
// Each server gets a game log of its own, removed by ~TestServer.
std::string FreshDatabasePath() {
  static int counter = 0;
  return (std::filesystem::temp_directory_path() /
          ("carc-net-test-" + std::to_string(getpid()) + "-" + std::to_string(++counter) + ".db"))
      .string();
}

void RemoveDatabase(const std::string& path) {
  for (const char* suffix : {"", "-wal", "-shm", ".lock"}) std::filesystem::remove(path + suffix);
}

ServerConfig TestConfig() {
  ServerConfig config;
  config.db_path = FreshDatabasePath();
  config.synchronous = "normal";  // the tests do not need to survive a power loss
  config.address = "127.0.0.1";
  config.port = 0;
  config.messages_per_second = 1e6;
  config.message_burst = 1e6;
  config.allow_chosen_seeds = true;  // the tests replay each game with the engine from its seed
  // Every client is 127.0.0.1 and many tests create several games from one connection.
  config.max_open_games_per_connection = 0;
  config.max_open_games_per_address = 0;
  return config;
}

std::string ActionOf(citypb::ActionKind kind) { return msg::CityAction(kind); }

// A server on its own threads. The destructor stops it and waits until every handler has run,
// so no session outlives the server it points into.
class TestServer {
 public:
  // What becomes of the game log when the server goes: a restart keeps it for the next server.
  enum class Database : uint8_t { kRemove, kKeep };

  explicit TestServer(ServerConfig config = TestConfig(), Database database = Database::kRemove,
                      Clock clock = SteadyNow)
      : db_path_(config.db_path),
        database_(database),
        io_(std::make_unique<asio::io_context>()),
        server_(std::make_unique<Server>(*io_, std::move(config), DefaultRuleSets(), OsRandomToken,
                                         std::move(clock))) {
    spdlog::set_level(spdlog::level::warn);
    if (const auto error = server_->Start()) {
      ADD_FAILURE() << "the server did not start: " << *error;
      return;
    }
    for (int i = 0; i < 2; ++i) threads_.emplace_back([this] { io_->run(); });
  }
  TestServer(const TestServer&) = delete;
  TestServer& operator=(const TestServer&) = delete;

  ~TestServer() {
    Stop("the test is over");
    if (threads_.empty()) {
      if (database_ == Database::kRemove) RemoveDatabase(db_path_);
      return;
    }
    // With the acceptor closed and every connection gone, the io_context runs out of work.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!io_->stopped() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    const bool clean = io_->stopped();
    if (!clean) {
      ADD_FAILURE() << "the server still had work 10 s after Stop";
      io_->stop();
    }
    for (auto& t : threads_) t.join();
    if (!clean) {
      // Handlers left in the io_context hold sessions that point into the server: leak both
      // rather than destroy them in the wrong order.
      (void)server_.release();
      (void)io_.release();
      return;
    }
    server_.reset();  // closes the game log before its files go
    if (database_ == Database::kRemove) RemoveDatabase(db_path_);
  }

  uint16_t port() const { return server_->port(); }
  size_t Connections() const { return server_->Connections(); }
  // Whether the io_context ran out of work (the server has stopped) within `timeout`.
  bool WaitStopped(std::chrono::milliseconds timeout) const {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!io_->stopped() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return io_->stopped();
  }

  void Stop(const std::string& reason) {
    if (stopped_) return;
    stopped_ = true;
    server_->Stop(reason);
  }

  // Polls (bounded) until the server counts `n` connections.
  bool WaitForConnections(size_t n) const {
    const auto deadline = std::chrono::steady_clock::now() + kTimeout;
    while (server_->Connections() != n && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return server_->Connections() == n;
  }

 private:
  std::string db_path_;
  Database database_;
  std::unique_ptr<asio::io_context> io_;
  std::unique_ptr<Server> server_;
  std::vector<std::thread> threads_;
  bool stopped_ = false;
};

// One client connection, synchronous, with its own io_context (reads run on it with a timeout).
class Client {
 public:
  // One game as this client sees it.
  struct Track {
    protocol::Follower follower;      // the game's public state, every step checked
    std::vector<wire::Delta> deltas;  // as received, in order
    std::string token;
    int seat = -1;

    bool started() const { return follower.started(); }
    // The City's state behind the follower's view (every game of these tests is The City's).
    const city::PublicState& state() const { return *protocol::CityStateOf(follower.view()); }
    uint64_t sequence() const { return follower.sequence(); }
    // Who decides: a seat, core::kChanceActor (the server's draw), core::kNoActor at the end.
    core::Actor actor() const { return follower.actor(); }
    bool over() const { return follower.over(); }
    // This seat's legal actions (The City's Actions, encoded, as sent), when the last snapshot
    // or delta made it decide.
    const std::vector<std::string>& legal() const { return follower.legal_actions(); }
  };

  Client() : ws_(io_) {}

  // TCP connect (with a small receive buffer if asked) and the WebSocket upgrade. A refused
  // upgrade's HTTP answer goes to `refusal`.
  bool Connect(uint16_t port, const std::string& origin = "", int receive_buffer = 0,
               websocket::response_type* refusal = nullptr) {
    beast::error_code ec;
    auto& socket = beast::get_lowest_layer(ws_).socket();
    socket.open(asio::ip::tcp::v4(), ec);
    if (!ec && receive_buffer > 0) {
      socket.set_option(asio::socket_base::receive_buffer_size(receive_buffer), ec);
    }
    if (!ec) socket.connect({asio::ip::make_address("127.0.0.1"), port}, ec);
    if (!ec) socket.set_option(asio::ip::tcp::no_delay(true), ec);
    if (ec) {
      error_ = ec;
      return false;
    }
    if (!origin.empty()) {
      ws_.set_option(websocket::stream_base::decorator([origin](websocket::request_type& request) {
        request.set(http::field::origin, origin);
      }));
    }
    // Asynchronous, for the timeout and because only this form hands back a refused answer.
    websocket::response_type response;
    beast::get_lowest_layer(ws_).expires_after(kTimeout);
    ws_.async_handshake(response, "127.0.0.1:" + std::to_string(port), "/",
                        [&ec](beast::error_code result) { ec = result; });
    io_.restart();
    io_.run();
    beast::get_lowest_layer(ws_).expires_never();
    if (refusal) *refusal = response;
    if (ec) {
      error_ = ec;
      return false;
    }
    ws_.binary(true);
    open_ = true;
    return true;
  }

  // Closes the TCP connection at once, without a close frame: a lost connection.
  void Drop() {
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().close(ignored);
    open_ = false;
  }

  bool WriteBytes(const std::string& bytes, bool text = false) {
    beast::error_code ec;
    ws_.text(text);
    ws_.write(asio::buffer(bytes), ec);
    ws_.binary(true);
    if (ec) error_ = ec;
    return !ec;
  }

  // Sends one message, numbering it if it has no request id yet; returns the id (0 if the write
  // failed).
  uint64_t Send(wire::ClientMessage message) {
    if (message.request_id() == 0) message.set_request_id(next_id_++);
    std::string bytes;
    EXPECT_TRUE(message.SerializeToString(&bytes));
    return WriteBytes(bytes) ? message.request_id() : 0;
  }

  // The next message, followed into the game views; nullopt when the connection ends (or the
  // safety timeout passes, which also closes it).
  std::optional<wire::ServerMessage> Receive(std::chrono::milliseconds timeout = kTimeout) {
    if (!open_) return std::nullopt;
    beast::flat_buffer buffer;
    beast::error_code result;
    QuickAck();
    beast::get_lowest_layer(ws_).expires_after(timeout);
    ws_.async_read(buffer, [&result](beast::error_code ec, size_t) { result = ec; });
    io_.restart();
    io_.run();
    beast::get_lowest_layer(ws_).expires_never();
    if (result) {
      open_ = false;
      error_ = result;
      if (result == websocket::error::closed) close_code_ = ws_.reason().code;
      return std::nullopt;
    }
    EXPECT_TRUE(ws_.got_binary()) << "the server sends binary frames only";
    raw_.push_back(beast::buffers_to_string(buffer.data()));
    wire::ServerMessage message;
    EXPECT_TRUE(message.ParseFromString(raw_.back())) << "not a ServerMessage";
    received_.push_back(message);
    Follow(message);
    return message;
  }

  // Receives until a message satisfies `match` (bounded); nullopt if the connection ends first.
  std::optional<wire::ServerMessage> ReceiveUntil(
      const std::function<bool(const wire::ServerMessage&)>& match) {
    for (size_t i = 0; i < kMaxMessages; ++i) {
      auto m = Receive();
      if (!m || match(*m)) return m;
    }
    return std::nullopt;
  }

  // The reply to request `id` (the messages before it are followed as usual).
  wire::ServerMessage Await(uint64_t id) {
    const auto m =
        ReceiveUntil([id](const wire::ServerMessage& s) { return s.request_id() == id; });
    if (!m) {
      ADD_FAILURE() << "no reply to request " << id << ": " << error_.message();
      return {};
    }
    return *m;
  }

  wire::ServerMessage Request(wire::ClientMessage message) {
    const uint64_t id = Send(std::move(message));
    if (id == 0) {
      ADD_FAILURE() << "the request could not be sent: " << error_.message();
      return {};
    }
    return Await(id);
  }

  // Says Hello; returns the Welcome.
  wire::Welcome Hello() {
    const wire::ServerMessage reply =
        Request(msg::Hello(0, protocol::kProtocolVersion, "net_test"));
    EXPECT_TRUE(reply.has_welcome()) << Show(reply);
    EXPECT_EQ(reply.welcome().protocol_version(), protocol::kProtocolVersion);
    return reply.welcome();
  }

  // Creates a game of The City; returns its id ("" if refused).
  std::string Create(uint32_t seats, uint64_t seed) {
    const wire::ServerMessage reply = Request(msg::CreateGame(msg::kCity, seats, seed, "net test"));
    EXPECT_TRUE(reply.has_game_created()) << Show(reply);
    return reply.game_created().game().game_id();
  }

  wire::ServerMessage Join(const std::string& game, std::optional<uint32_t> seat = std::nullopt) {
    wire::ServerMessage reply = Request(msg::JoinSeat(game, seat));
    if (reply.has_seat_joined()) game_ = game;
    return reply;
  }

  wire::ServerMessage Spectate(const std::string& game) {
    wire::ServerMessage reply = Request(msg::Spectate(game));
    if (!reply.has_error()) game_ = game;
    return reply;
  }

  wire::ServerMessage Start(const std::string& game, const std::string& token) {
    return Request(msg::StartGame(game, token));
  }

  // A Move of the current game with this client's token and sequence unless others are given.
  wire::ClientMessage MoveMessage(const std::string& action,
                                  std::optional<uint64_t> sequence = std::nullopt,
                                  const std::optional<std::string>& token = std::nullopt) const {
    const Track& t = track();
    return msg::Move(game_, token ? *token : t.token, sequence ? *sequence : t.sequence(), action);
  }

  wire::ServerMessage Move(const std::string& action) { return Request(MoveMessage(action)); }

  // Receives until this client's view of the current game is past `sequence` and at a decision
  // that is not the server's draw (the draws follow the move that ended a turn at once).
  bool SyncPast(uint64_t sequence) {
    for (size_t i = 0; i < kMaxMessages; ++i) {
      const Track& t = track();
      if (t.started() && t.sequence() > sequence && t.actor() != core::kChanceActor) {
        return true;
      }
      if (!Receive()) return false;
    }
    return false;
  }

  // Takes over a view kept by another connection (a client that reconnects keeps its state).
  void Adopt(const std::string& game, Track track) {
    games_[game] = std::move(track);
    game_ = game;
  }

  const Track& track() const {
    static const Track kNone;
    const auto it = games_.find(game_);
    return it == games_.end() ? kNone : it->second;
  }
  const std::string& game() const { return game_; }
  size_t GameCount() const { return games_.size(); }
  const std::vector<wire::ServerMessage>& received() const { return received_; }
  const std::vector<std::string>& raw() const { return raw_; }
  beast::error_code error() const { return error_; }
  std::optional<uint16_t> close_code() const { return close_code_; }

 private:
  // Follows each game from snapshots and deltas, every step and hash checked.
  void Follow(const wire::ServerMessage& m) {
    if (m.has_seat_joined()) {
      Track& t = games_[m.seat_joined().game().game_id()];
      t.token = m.seat_joined().seat_token();
      t.seat = static_cast<int>(m.seat_joined().seat());
    } else if (m.has_snapshot()) {
      const wire::Snapshot& s = m.snapshot();
      Track& t = games_[s.game_id()];
      ASSERT_EQ(t.follower.Start(s, msg::DefaultTiles(s.rule_set())), std::nullopt);
      if (s.has_your_seat()) t.seat = static_cast<int>(s.your_seat());
    } else if (m.has_delta()) {
      const wire::Delta& d = m.delta();
      Track& t = games_[d.game_id()];
      // In order, none missing or twice.
      ASSERT_EQ(t.follower.Apply(d), std::nullopt);
      t.deltas.push_back(d);
    }
  }

  // Asks the kernel to acknowledge what arrives at once rather than after the delayed-ACK timer
  // (Linux resets the flag, so it is set before every read). The server does not set
  // TCP_NODELAY, so its second small write in a row (the draw Delta after the mover's Delta)
  // waits for the ACK of the first: without this, every turn would stall about 40 ms.
  void QuickAck() {
    const int one = 1;
    setsockopt(beast::get_lowest_layer(ws_).socket().native_handle(), IPPROTO_TCP, TCP_QUICKACK,
               &one, sizeof one);
  }

  asio::io_context io_;
  websocket::stream<beast::tcp_stream> ws_;
  bool open_ = false;
  uint64_t next_id_ = 1;
  beast::error_code error_;
  std::optional<uint16_t> close_code_;
  std::string game_;  // the game joined or watched last
  std::map<std::string, Track> games_;
  std::vector<wire::ServerMessage> received_;
  std::vector<std::string> raw_;
};

std::unique_ptr<Client> Connected(const TestServer& server) {
  auto client = std::make_unique<Client>();
  EXPECT_TRUE(client->Connect(server.port())) << client->error().message();
  client->Hello();
  return client;
}

// A game of `seats` seats filled by `clients` in order (the first creates it and takes seat 0);
// returns its id once every client is at the first decision.
std::string SeatedGame(const std::vector<Client*>& clients, uint64_t seed) {
  std::string game = clients.front()->Create(static_cast<uint32_t>(clients.size()), seed);
  EXPECT_TRUE(clients.front()->Join(game, 0).has_seat_joined());
  for (size_t i = 1; i < clients.size(); ++i) {
    const wire::ServerMessage reply = clients[i]->Join(game);
    EXPECT_TRUE(reply.has_seat_joined()) << Show(reply);
  }
  for (Client* c : clients) EXPECT_TRUE(c->SyncPast(0)) << "the game starts when it is full";
  return game;
}

// Plays up to `max_moves` decisions of the clients' common current game, or until it ends or
// `until` holds: the seat that decides picks a seeded random action among the legal actions it
// received, and every client follows to the next decision. Every seat that decides must be
// among `clients` (others, spectators, only watch).
void Play(const std::vector<Client*>& clients, core::Random& random, int max_moves,
          const std::function<bool(const Client::Track&)>& until = nullptr) {
  for (int i = 0; i < max_moves; ++i) {
    const Client::Track& view = clients.front()->track();
    ASSERT_TRUE(view.started());
    if (view.over() || (until && until(view))) return;
    const int actor = view.actor();
    const uint64_t before = view.sequence();
    Client* decider = nullptr;
    for (Client* c : clients) {
      ASSERT_EQ(c->track().sequence(), before) << "every client is in step";
      if (c->track().seat == actor) {
        decider = c;
      } else {
        ASSERT_TRUE(c->track().legal().empty()) << "legal actions go only to the seat that decides";
      }
    }
    ASSERT_NE(decider, nullptr) << "seat " << actor << " decides but does not play here";
    const std::vector<std::string>& legal = decider->track().legal();
    ASSERT_FALSE(legal.empty()) << "the deciding seat received its legal actions";
    const std::string action = legal[static_cast<size_t>(random.Below(legal.size()))];
    const wire::ServerMessage reply = decider->Move(action);
    ASSERT_TRUE(reply.has_delta()) << "a legal move is accepted: " << Show(reply);
    ASSERT_EQ(reply.delta().sequence(), before + 1);
    ASSERT_EQ(static_cast<int>(reply.delta().seat()), actor);
    ASSERT_EQ(reply.delta().action(), action);
    for (Client* c : clients) ASSERT_TRUE(c->SyncPast(before)) << c->error().message();
  }
}

// The engine alone, fed the actions of the deltas (the server's draws included), checking the
// server's hash after each.
city::Game Replay(int players, uint64_t seed, const std::vector<wire::Delta>& deltas) {
  city::Config config;
  config.players = players;
  city::Game game = std::get<city::Game>(city::Game::Create(city::DefaultTileSet(), config, seed));
  for (const wire::Delta& d : deltas) {
    const auto action = protocol::FromProto(msg::DecodeCityAction(d.action()));
    EXPECT_TRUE(action.has_value()) << "delta " << d.sequence();
    if (!action) break;
    if (const auto error = game.Apply(game.CurrentDecision().actor, *action, nullptr)) {
      ADD_FAILURE() << "delta " << d.sequence() << ": " << city::Describe(*error);
      break;
    }
    EXPECT_EQ(game.Hash(), d.state_hash()) << "delta " << d.sequence();
  }
  return game;
}

// Checks that every client followed the game to the engine's own state for its actions.
void ExpectAllAtTheEnginesState(const std::vector<Client*>& clients, int players, uint64_t seed) {
  const city::Game replay = Replay(players, seed, clients.front()->track().deltas);
  for (Client* c : clients) {
    ASSERT_TRUE(c->track().started());
    EXPECT_TRUE(c->track().state() == replay.Public()) << "seat " << c->track().seat;
    EXPECT_EQ(c->track().state().Hash(), replay.Hash());
  }
}

// ---------------------------------------------------------------------------------------------
// 1. A whole game

TEST(NetPlay, FourClientsPlayAWholeGameToTheEnginesScores) {
  TestServer server;
  std::vector<std::unique_ptr<Client>> owned;
  std::vector<Client*> seats;
  for (int i = 0; i < 4; ++i) {
    owned.push_back(Connected(server));
    seats.push_back(owned.back().get());
  }
  constexpr uint64_t kSeed = 2024;
  const std::string game = SeatedGame(seats, kSeed);
  for (int i = 0; i < 4; ++i) ASSERT_EQ(seats[static_cast<size_t>(i)]->track().seat, i);

  core::Random random(11);
  ASSERT_NO_FATAL_FAILURE(Play(seats, random, 60));
  // A spectator arrives mid-game and follows from its snapshot.
  auto watcher = Connected(server);
  const wire::ServerMessage view = watcher->Spectate(game);
  ASSERT_TRUE(view.has_snapshot()) << Show(view);
  EXPECT_FALSE(view.snapshot().has_your_seat());
  EXPECT_EQ(view.snapshot().rule_set(), msg::kCity);
  EXPECT_EQ(view.snapshot().sequence(), seats.front()->track().sequence());
  std::vector<Client*> everybody = seats;
  everybody.push_back(watcher.get());
  ASSERT_NO_FATAL_FAILURE(Play(everybody, random, 5000));
  ASSERT_TRUE(seats.front()->track().over()) << "the game ends within 5000 decisions";

  // Every seat received every delta, and the engine alone, given the same actions, agrees.
  const std::vector<wire::Delta>& deltas = seats.front()->track().deltas;
  for (Client* c : seats) EXPECT_EQ(c->track().deltas.size(), c->track().sequence());
  ASSERT_NO_FATAL_FAILURE(ExpectAllAtTheEnginesState(everybody, 4, kSeed));
  const city::Game replay = Replay(4, kSeed, deltas);
  ASSERT_TRUE(replay.IsOver());
  const wire::Delta& last = deltas.back();
  const std::optional<citypb::GameOver> over = msg::CityGameOver(last.events());
  ASSERT_TRUE(over.has_value()) << "the last delta ends the game";
  ASSERT_EQ(over->scores_size(), 4);
  for (int p = 0; p < 4; ++p) {
    const citypb::Scores& s = over->scores(p);
    EXPECT_EQ(s.streets() + s.markets() + s.towers() + s.stewards() + s.guards(),
              replay.TotalScore(p))
        << "seat " << p;
    int total = 0;
    for (int points : seats.front()->track().state().counters.player[static_cast<size_t>(p)].score)
      total += points;
    EXPECT_EQ(total, replay.TotalScore(p)) << "seat " << p;
  }

  // The game is over: moves are refused.
  const wire::ServerMessage late = seats.front()->Move(ActionOf(citypb::ACTION_KIND_SKIP_FOLLOWER));
  EXPECT_EQ(CodeOf(late), wire::ERROR_CODE_GAME_NOT_RUNNING) << Show(late);
}

// ---------------------------------------------------------------------------------------------
// 2. Every refusal, over the wire

TEST(NetRefusals, SessionRefusals) {
  TestServer server;
  Client c;
  ASSERT_TRUE(c.Connect(server.port()));
  wire::ClientMessage ping = msg::Ping(5);
  wire::ServerMessage reply = c.Request(ping);
  EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_HELLO_FIRST) << Show(reply);
  const wire::ClientMessage list = msg::ListGames();
  reply = c.Request(list);
  EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_HELLO_FIRST) << "not processed: " << Show(reply);
  c.Hello();

  // Bytes that are no protobuf (an over-long varint tag): request id 0.
  ASSERT_TRUE(c.WriteBytes(std::string(12, '\xff')));
  auto m = c.Receive();
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(CodeOf(*m), wire::ERROR_CODE_MALFORMED_MESSAGE) << Show(*m);
  EXPECT_EQ(m->request_id(), 0u);

  // A text frame.
  ASSERT_TRUE(c.WriteBytes("{\"hello\": 1}", /*text=*/true));
  m = c.Receive();
  ASSERT_TRUE(m.has_value()) << c.error().message();
  EXPECT_EQ(CodeOf(*m), wire::ERROR_CODE_MALFORMED_MESSAGE) << Show(*m);

  // A message with no body.
  wire::ClientMessage empty;
  empty.set_request_id(77);
  reply = c.Request(empty);
  EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_UNKNOWN_MESSAGE) << Show(reply);
  EXPECT_EQ(reply.request_id(), 77u);

  // Still a working connection.
  reply = c.Request(ping);
  EXPECT_TRUE(reply.has_pong()) << Show(reply);
}

// The answer a client of protocol `version` gets to its Hello: the refusal, then the close.
void ExpectVersionRefused(const TestServer& server, uint32_t version) {
  SCOPED_TRACE("protocol version " + std::to_string(version));
  Client c;
  ASSERT_TRUE(c.Connect(server.port()));
  const uint64_t id = c.Send(msg::Hello(0, version, "an old client"));
  const auto reply = c.Receive();
  // The refusal must come before the close frame, not be dropped by it.
  ASSERT_TRUE(reply.has_value()) << "the refusal arrives before the close; instead: "
                                 << c.error().message();
  EXPECT_EQ(CodeOf(*reply), wire::ERROR_CODE_UNSUPPORTED_VERSION) << Show(*reply);
  EXPECT_EQ(reply->request_id(), id);
  EXPECT_NE(reply->error().reason().find("version 2"), std::string::npos)
      << "the reason names the version the server speaks: " << Show(*reply);
  EXPECT_FALSE(c.Receive().has_value()) << "and the connection is closed";
  ASSERT_TRUE(c.close_code().has_value()) << "with a close frame: " << c.error().message();
  // docs/protocol.md section 9: an unsupported protocol version closes with 1002 (protocol error).
  EXPECT_EQ(*c.close_code(), websocket::close_code::protocol_error);
  EXPECT_FALSE(c.WriteBytes(msg::Hello(0).SerializeAsString()) && c.Receive().has_value())
      << "nothing more is read on it, not even a Hello of the right version";
}

TEST(NetRefusals, AnUnsupportedVersionIsRefusedAndTheConnectionClosed) {
  TestServer server;
  // Protocol 1 (one game, carcassonne.city.v1): its Hello has the same field numbers, so an
  // old client reads the refusal.
  ExpectVersionRefused(server, 1);
  ExpectVersionRefused(server, protocol::kProtocolVersion + 1);
  ExpectVersionRefused(server, 0);
  EXPECT_TRUE(server.WaitForConnections(0)) << "the refused connections are gone";
  Connected(server);  // the server itself goes on
}

TEST(NetRefusals, LobbyRefusals) {
  TestServer server;
  auto a = Connected(server);
  auto b = Connected(server);
  auto c = Connected(server);

  wire::ClientMessage create;
  create.mutable_create_game()->set_rule_set("chess");
  create.mutable_create_game()->set_seats(2);
  wire::ServerMessage reply = a->Request(create);
  EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_NO_SUCH_RULE_SET) << Show(reply);
  create.mutable_create_game()->set_rule_set("the-city");
  for (uint32_t seats : {0u, 1u, 5u}) {
    create.mutable_create_game()->set_seats(seats);
    reply = a->Request(create);
    EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_BAD_SEAT_COUNT) << seats << " seats: " << Show(reply);
  }
  reply = a->Join("g-none");
  EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_NO_SUCH_GAME) << Show(reply);
  reply = a->Spectate("g-none");
  EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_NO_SUCH_GAME) << Show(reply);

  // A 2-seat game with seat 0 taken.
  const std::string two = a->Create(2, 1);
  ASSERT_TRUE(a->Join(two, 0).has_seat_joined());
  const std::string a_token = a->track().token;
  reply = b->Join(two, 0);
  EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_SEAT_TAKEN) << Show(reply);
  reply = b->Join(two, 9);
  EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_BAD_SEAT_COUNT) << "no seat 9: " << Show(reply);
  reply = a->Start(two, "not a token");
  EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_BAD_TOKEN) << Show(reply);
  reply = a->Start(two, a_token);
  EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_BAD_SEAT_COUNT) << "one player: " << Show(reply);
  wire::ClientMessage leave;
  leave.mutable_leave_seat()->set_game_id(two);
  leave.mutable_leave_seat()->set_seat_token(std::string(16, '\x01'));
  reply = a->Request(leave);
  EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_BAD_TOKEN) << Show(reply);
  // A move before the start.
  reply = a->Move(ActionOf(citypb::ACTION_KIND_SKIP_FOLLOWER));
  EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_GAME_NOT_RUNNING) << Show(reply);
  // The second seat fills the game, which starts by itself; a third join finds it started.
  // (ERROR_CODE_GAME_FULL cannot be reached: a game whose seats are all taken has started.)
  ASSERT_TRUE(b->Join(two).has_seat_joined());
  reply = c->Join(two);
  EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_GAME_STARTED) << Show(reply);
  reply = a->Start(two, a_token);
  EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_GAME_STARTED) << Show(reply);
  leave.mutable_leave_seat()->set_seat_token(b->track().token);
  reply = b->Request(leave);
  EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_GAME_STARTED) << Show(reply);

  // Only the creator (seat 0) starts a game early.
  const std::string three = a->Create(3, 2);
  ASSERT_TRUE(a->Join(three, 0).has_seat_joined());
  ASSERT_TRUE(b->Join(three).has_seat_joined());
  reply = b->Start(three, b->track().token);
  EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_NOT_CREATOR) << Show(reply);
  reply = a->Start(three, a->track().token);
  ASSERT_TRUE(reply.has_snapshot()) << Show(reply);
  EXPECT_EQ(msg::CityStateOf(reply.snapshot()).players(), 2u) << "the free seat is dropped";
}

TEST(NetRefusals, MoveRefusalsChangeNothing) {
  TestServer server;
  auto a = Connected(server);
  auto b = Connected(server);
  const std::string game = SeatedGame({a.get(), b.get()}, 3);
  auto watcher = Connected(server);
  ASSERT_TRUE(watcher->Spectate(game).has_snapshot());

  const uint64_t s0 = a->track().sequence();
  ASSERT_EQ(a->track().actor(), 0);
  ASSERT_FALSE(a->track().legal().empty()) << "seat 0 places the first tile";
  const std::string place = a->track().legal().front();
  const auto refuse = [](Client& c, const wire::ClientMessage& m, wire::ErrorCode code) {
    const wire::ServerMessage reply = c.Request(m);
    EXPECT_EQ(CodeOf(reply), code) << Show(reply);
    EXPECT_EQ(reply.request_id(), m.request_id()) << "the refusal answers the request";
  };
  // The engine's refusals: one code, and the engine's name for why.
  const auto refuse_rule = [](Client& c, const wire::ClientMessage& m,
                              const std::string& rule_error) {
    const wire::ServerMessage reply = c.Request(m);
    EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_RULE_REFUSED) << Show(reply);
    EXPECT_EQ(RuleErrorOf(reply), rule_error) << Show(reply);
    EXPECT_FALSE(reply.error().reason().empty()) << Show(reply);
    EXPECT_EQ(reply.request_id(), m.request_id()) << "the refusal answers the request";
  };
  // `place` with one field changed.
  const auto changed = [&place](const std::function<void(citypb::Action&)>& change) {
    citypb::Action action = msg::DecodeCityAction(place);
    change(action);
    return action.SerializeAsString();
  };
  wire::ClientMessage m = a->MoveMessage(place);
  m.mutable_move()->set_game_id("g-none");
  m.set_request_id(500);
  refuse(*a, m, wire::ERROR_CODE_NO_SUCH_GAME);
  m = a->MoveMessage(place, std::nullopt, std::string(16, '\x42'));
  m.set_request_id(501);
  refuse(*a, m, wire::ERROR_CODE_BAD_TOKEN);
  m = watcher->MoveMessage(place, s0, "");
  m.set_request_id(502);
  refuse(*watcher, m, wire::ERROR_CODE_SPECTATOR);
  m = b->MoveMessage(place);
  m.set_request_id(503);
  refuse(*b, m, wire::ERROR_CODE_NOT_YOUR_DECISION);
  m = a->MoveMessage(place, s0 - 1);
  m.set_request_id(504);
  refuse(*a, m, wire::ERROR_CODE_STALE_SEQUENCE);
  m = a->MoveMessage(place, s0 + 7);
  m.set_request_id(505);
  refuse(*a, m, wire::ERROR_CODE_STALE_SEQUENCE);
  m = a->MoveMessage(changed([](citypb::Action& action) { action.set_x(1); }));
  m.set_request_id(506);
  refuse_rule(*a, m, "not_at_origin");
  // beyond the engine's types
  m = a->MoveMessage(changed([](citypb::Action& action) { action.set_x(500); }));
  m.set_request_id(507);
  refuse_rule(*a, m, "malformed");
  // a field PLACE_TILE does not use
  m = a->MoveMessage(changed([](citypb::Action& action) { action.set_feature(3); }));
  m.set_request_id(508);
  refuse_rule(*a, m, "malformed");
  m = a->MoveMessage(ActionOf(citypb::ACTION_KIND_DRAW));
  m.set_request_id(509);
  refuse_rule(*a, m, "wrong_phase");
  // bytes that are no Action of The City at all
  m = a->MoveMessage(std::string(12, '\xff'));
  m.set_request_id(510);
  refuse_rule(*a, m, "malformed");

  // None of it changed the game: the move with the same sequence is accepted, once.
  EXPECT_EQ(a->track().sequence(), s0);
  const wire::ClientMessage move = a->MoveMessage(place);
  wire::ServerMessage reply = a->Request(move);
  ASSERT_TRUE(reply.has_delta()) << Show(reply);
  EXPECT_EQ(reply.delta().sequence(), s0 + 1);
  reply = a->Request(move);  // the very same message again, as a retry would send it
  EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_STALE_SEQUENCE) << Show(reply);
  EXPECT_EQ(a->track().sequence(), s0 + 1);
  ASSERT_FALSE(a->track().legal().empty()) << "seat 0's follower decision";
  const std::string follower = a->track().legal().front();
  reply = a->Move(follower);
  ASSERT_TRUE(reply.has_delta()) << Show(reply);
  EXPECT_EQ(reply.delta().sequence(), s0 + 2) << "the repeated move was not applied";
  // The other seat and the watcher saw one placement and one follower decision, in order (Follow
  // refuses gaps and repeats), and reach the same state.
  for (Client* c : {b.get(), watcher.get()}) {
    ASSERT_TRUE(c->SyncPast(s0 + 1));
    ASSERT_GE(c->track().deltas.size(), 2u);
    const auto& deltas = c->track().deltas;
    const auto first = std::find_if(deltas.begin(), deltas.end(),
                                    [s0](const wire::Delta& d) { return d.sequence() == s0 + 1; });
    ASSERT_NE(first, deltas.end());
    EXPECT_EQ(first->action(), place);
    ASSERT_NE(first + 1, deltas.end());
    EXPECT_EQ((first + 1)->action(), follower);
  }
  ASSERT_TRUE(a->SyncPast(s0 + 1));
  ASSERT_NO_FATAL_FAILURE(ExpectAllAtTheEnginesState({a.get(), b.get()}, 2, 3));
}

// The steady clock, moved forward by the test instead of sleeping.
class ManualClock {
 public:
  Clock AsClock() {
    return [this] { return std::chrono::steady_clock::now() + offset(); };
  }
  void Advance(std::chrono::milliseconds by) { offset_ms_ += by.count(); }

 private:
  std::chrono::milliseconds offset() const { return std::chrono::milliseconds(offset_ms_.load()); }
  std::atomic<int64_t> offset_ms_ = 0;
};

TEST(NetRefusals, RateLimited) {
  ServerConfig config = TestConfig();
  config.messages_per_second = 1;
  config.message_burst = 2;
  ManualClock clock;
  TestServer server(config, TestServer::Database::kRemove, clock.AsClock());
  Client c;
  ASSERT_TRUE(c.Connect(server.port()));
  c.Hello();  // the first of the burst of two
  std::vector<uint64_t> ids;
  for (int i = 0; i < 4; ++i) {
    const wire::ClientMessage ping = msg::Ping(static_cast<uint64_t>(i));
    ids.push_back(c.Send(ping));
  }
  const wire::ServerMessage first = c.Await(ids[0]);
  EXPECT_TRUE(first.has_pong()) << "the second of the burst: " << Show(first);
  int limited = 0;
  for (size_t i = 1; i < ids.size(); ++i) {
    const wire::ServerMessage reply = c.Await(ids[i]);
    if (CodeOf(reply) == wire::ERROR_CODE_RATE_LIMITED) ++limited;
  }
  EXPECT_GE(limited, 2) << "four messages at once with one token left and one a second";
  // The bucket refills at one message a second.
  clock.Advance(std::chrono::milliseconds(1200));
  wire::ClientMessage ping = msg::Ping(9);
  const wire::ServerMessage later = c.Request(ping);
  EXPECT_TRUE(later.has_pong()) << Show(later);
}

TEST(NetRefusals, ServerFull) {
  ServerConfig config = TestConfig();
  config.max_games = 1;
  TestServer server(config);
  auto c = Connected(server);
  EXPECT_FALSE(c->Create(2, 1).empty());
  const wire::ServerMessage reply = c->Request(msg::CreateGame(msg::kCity, 2, std::nullopt));
  EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_SERVER_FULL) << Show(reply);
}

// A finished game no longer counts against max_games, leaves the list at once, and is gone from
// the server after the retention time.
TEST(NetRefusals, FinishedGamesFreeTheirPlace) {
  ServerConfig config = TestConfig();
  config.max_games = 1;
  config.finished_game_retention = std::chrono::seconds(0);
  TestServer server(config);
  auto a = Connected(server);
  auto b = Connected(server);
  SeatedGame({a.get(), b.get()}, 6);
  core::Random random(6);
  Play({a.get(), b.get()}, random, 5000);
  ASSERT_TRUE(a->track().over());
  const wire::ClientMessage list = msg::ListGames();
  EXPECT_EQ(a->Request(list).game_list().games_size(), 0) << "finished games are not listed";
  EXPECT_FALSE(a->Create(2, 7).empty()) << "the finished game no longer fills the server";
}

wire::ClientMessage CreateGame(std::optional<uint64_t> seed) {
  return msg::CreateGame(msg::kCity, 2, seed);
}

int HostedGames(Client& c) {
  const wire::ClientMessage list = msg::ListGames();
  const wire::ServerMessage reply = c.Request(list);
  EXPECT_TRUE(reply.has_game_list()) << Show(reply);
  return reply.game_list().games_size();
}

// Fairness: a creator who chose the seed would know the whole drawing order. Only a server
// started with --allow-chosen-seeds takes one; any other picks every seed itself.
TEST(NetRefusals, AChosenSeedIsRefusedUnlessTheServerAllowsIt) {
  EXPECT_FALSE(ServerConfig{}.allow_chosen_seeds) << "refused unless the operator allows it";
  ServerConfig config = TestConfig();
  config.allow_chosen_seeds = false;
  TestServer server(config);
  auto c = Connected(server);
  for (const uint64_t seed : {uint64_t{0}, uint64_t{7}}) {  // 0 is a seed too, when present
    const wire::ServerMessage reply = c->Request(CreateGame(seed));
    EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_SEED_NOT_ALLOWED) << Show(reply);
    EXPECT_NE(reply.error().reason().find("--allow-chosen-seeds"), std::string::npos)
        << "the reason says how to allow it: " << Show(reply);
  }
  EXPECT_EQ(HostedGames(*c), 0) << "a refused CreateGame creates nothing";
  const wire::ServerMessage created = c->Request(CreateGame(std::nullopt));
  ASSERT_TRUE(created.has_game_created())
      << "without a seed the server picks one: " << Show(created);
  EXPECT_EQ(HostedGames(*c), 1);

  TestServer allowing;  // TestConfig: chosen seeds allowed
  auto d = Connected(allowing);
  const wire::ServerMessage chosen = d->Request(CreateGame(7));
  EXPECT_TRUE(chosen.has_game_created()) << Show(chosen);
  EXPECT_EQ(HostedGames(*d), 1);
}

// The Welcome names every rule set the server hosts, as CreateGame may ask for it: the newest
// version of each, its player counts and its options with their ranges.
TEST(NetLobby, WelcomeListsTheHostedRuleSetsWithTheirOptionsAndSeats) {
  TestServer server;
  Client c;
  ASSERT_TRUE(c.Connect(server.port()));
  const wire::Welcome welcome = c.Hello();
  EXPECT_EQ(welcome.server(), "carc-server");
  std::map<std::string, const wire::RuleSetInfo*> listed;
  for (const wire::RuleSetInfo& info : welcome.rule_sets()) {
    EXPECT_TRUE(listed.emplace(info.id(), &info).second) << "listed once: " << info.id();
  }
  size_t hosted = 0;
  for (const core::RuleSet* rules : msg::DefaultRegistry().All()) {
    const core::GameType& type = rules->Type();
    if (msg::DefaultRegistry().Find(type.id) != rules) continue;  // an older version
    ++hosted;
    SCOPED_TRACE(type.id);
    ASSERT_TRUE(listed.contains(type.id));
    const wire::RuleSetInfo& info = *listed.at(type.id);
    EXPECT_EQ(info.version(), static_cast<uint32_t>(type.version));
    EXPECT_EQ(info.name(), type.name);
    EXPECT_EQ(info.min_players(), static_cast<uint32_t>(type.min_players));
    EXPECT_EQ(info.max_players(), static_cast<uint32_t>(type.max_players));
    ASSERT_EQ(info.options_size(), static_cast<int>(type.options.size()));
    for (size_t i = 0; i < type.options.size(); ++i) {
      const wire::OptionInfo& option = info.options(static_cast<int>(i));
      const core::OptionSpec& spec = type.options[i];
      EXPECT_EQ(option.name(), spec.name);
      EXPECT_EQ(option.description(), spec.description);
      EXPECT_EQ(option.default_value(), spec.default_value);
      EXPECT_EQ(option.min(), spec.min);
      EXPECT_EQ(option.max(), spec.max);
    }
  }
  EXPECT_EQ(listed.size(), hosted) << "nothing the server does not host";

  // The two games of this build, as docs/rules.md has them.
  ASSERT_TRUE(listed.contains("the-city"));
  const wire::RuleSetInfo& city = *listed.at("the-city");
  EXPECT_EQ(city.name(), "Carcassonne: The City");
  EXPECT_EQ(city.min_players(), 2u);
  EXPECT_EQ(city.max_players(), 4u);
  EXPECT_EQ(city.options_size(), 0) << "The City has no options";
  ASSERT_TRUE(listed.contains("carcassonne"));
  const wire::RuleSetInfo& river = *listed.at("carcassonne");
  EXPECT_EQ(river.min_players(), 2u);
  EXPECT_EQ(river.max_players(), 5u);
  ASSERT_EQ(river.options_size(), 1);
  EXPECT_EQ(river.options(0).name(), "river");
  EXPECT_FALSE(river.options(0).description().empty());
  EXPECT_EQ(river.options(0).min(), 0);
  EXPECT_EQ(river.options(0).max(), 1);
}

// CreateGame names a rule set the server hosts, a seat count within its player counts, and only
// options it has, each within its range; anything else is refused with a code of its own and a
// reason, and nothing is created.
TEST(NetLobby, CreateGameRefusesAnUnknownRuleSetOrOptionAndAnOptionOutOfRange) {
  TestServer server;
  auto c = Connected(server);
  struct Case {
    wire::ClientMessage create;
    wire::ErrorCode code;
    std::string in_reason;  // a word the reason must contain
  };
  const std::vector<Case> cases = {
      {msg::CreateGame("chess", 2, 1), wire::ERROR_CODE_NO_SUCH_RULE_SET, "the-city"},
      {msg::CreateGame("", 2, 1), wire::ERROR_CODE_NO_SUCH_RULE_SET, "carcassonne"},
      {msg::CreateGame("The City", 2, 1), wire::ERROR_CODE_NO_SUCH_RULE_SET, "the-city"},
      {msg::CreateGame(msg::kCity, 2, 1, "", {{"river", 1}}), wire::ERROR_CODE_BAD_OPTIONS,
       "river"},
      {msg::CreateGame("carcassonne", 2, 1, "", {{"rivers", 1}}), wire::ERROR_CODE_BAD_OPTIONS,
       "rivers"},
      {msg::CreateGame("carcassonne", 2, 1, "", {{"river", 2}}), wire::ERROR_CODE_BAD_OPTIONS,
       "0 to 1"},
      {msg::CreateGame("carcassonne", 2, 1, "", {{"river", -1}}), wire::ERROR_CODE_BAD_OPTIONS,
       "0 to 1"},
      {msg::CreateGame("carcassonne", 2, 1, "", {{"river", 1}, {"dragon", 0}}),
       wire::ERROR_CODE_BAD_OPTIONS, "dragon"},
      {msg::CreateGame("carcassonne", 6, 1), wire::ERROR_CODE_BAD_SEAT_COUNT, "2 to 5"},
      {msg::CreateGame("carcassonne", 1, 1), wire::ERROR_CODE_BAD_SEAT_COUNT, "2 to 5"},
  };
  for (const Case& test : cases) {
    SCOPED_TRACE(test.create.ShortDebugString());
    const wire::ServerMessage reply = c->Request(test.create);
    EXPECT_EQ(CodeOf(reply), test.code) << Show(reply);
    EXPECT_NE(reply.error().reason().find(test.in_reason), std::string::npos) << Show(reply);
    EXPECT_TRUE(reply.error().rule_error().empty()) << "a lobby refusal, not the engine's";
  }
  EXPECT_EQ(HostedGames(*c), 0) << "a refused CreateGame creates nothing";

  // The same connection then creates a game; its summary names its rule set and version.
  const wire::ServerMessage created = c->Request(msg::CreateGame(msg::kCity, 2, 1, "ok"));
  ASSERT_TRUE(created.has_game_created()) << Show(created);
  const wire::GameInfo& info = created.game_created().game();
  EXPECT_EQ(info.rule_set(), msg::kCity);
  EXPECT_EQ(info.rule_set_version(), 1u);
  EXPECT_TRUE(info.options().empty()) << "The City has no options to fill in";
  EXPECT_EQ(HostedGames(*c), 1);
}

// ---------------------------------------------------------------------------------------------
// 3. Tokens

TEST(NetTokens, ATokenActsForItsOwnSeatOnly) {
  TestServer server;
  auto a = Connected(server);
  auto b = Connected(server);
  SeatedGame({a.get(), b.get()}, 4);
  const std::string a_token = a->track().token;
  const std::string b_token = b->track().token;
  EXPECT_EQ(a_token.size(), 16u);
  EXPECT_EQ(b_token.size(), 16u);
  EXPECT_NE(a_token, b_token);
  ASSERT_EQ(a->track().actor(), 0);
  const std::string place = a->track().legal().front();
  // Seat 0's decision: seat 1's token does not make the move seat 0's, whoever sends it.
  wire::ServerMessage reply = a->Request(a->MoveMessage(place, std::nullopt, b_token));
  EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_NOT_YOUR_DECISION) << Show(reply);
  reply = b->Request(b->MoveMessage(place, a->track().sequence()));
  EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_NOT_YOUR_DECISION) << Show(reply);
  // Seat 0 plays its turn; then it is seat 1's, and seat 0's token is refused in turn.
  core::Random random(4);
  ASSERT_NO_FATAL_FAILURE(Play({a.get(), b.get()}, random, 50, [](const Client::Track& t) {
    const city::PublicState& s = t.state();
    return s.counters.decision.actor == 1;
  }));
  ASSERT_EQ(b->track().state().counters.decision.actor, 1);
  ASSERT_FALSE(b->track().legal().empty());
  const std::string answer = b->track().legal().front();
  reply = b->Request(b->MoveMessage(answer, std::nullopt, a_token));
  EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_NOT_YOUR_DECISION) << Show(reply);
  reply = b->Move(answer);
  EXPECT_TRUE(reply.has_delta()) << Show(reply);
  // No token ever reached the other seat.
  for (const std::string& bytes : a->raw()) EXPECT_EQ(bytes.find(b_token), std::string::npos);
  for (const std::string& bytes : b->raw()) EXPECT_EQ(bytes.find(a_token), std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// 4. Reconnection

TEST(NetReconnect, ADroppedSeatResumesWithExactlyTheDeltasItMissed) {
  TestServer server;
  auto a = Connected(server);
  auto b = Connected(server);
  auto c = Connected(server);
  constexpr uint64_t kSeed = 5;
  const std::string game = SeatedGame({a.get(), b.get(), c.get()}, kSeed);
  core::Random random(21);
  // Seats 0 and 1 play their turns; at seat 2's first decision, seat 1 loses its connection.
  ASSERT_NO_FATAL_FAILURE(
      Play({a.get(), b.get(), c.get()}, random, 500, [](const Client::Track& t) {
        const city::PublicState& s = t.state();
        return s.counters.turn_player == 2 && s.counters.decision.actor == 2;
      }));
  const uint64_t seen = b->track().sequence();
  const Client::Track kept = b->track();
  b->Drop();
  for (Client* other : {a.get(), c.get()}) {
    const auto status =
        other->ReceiveUntil([](const wire::ServerMessage& m) { return m.has_seat_status(); });
    ASSERT_TRUE(status.has_value()) << other->error().message();
    EXPECT_EQ(status->seat_status().game_id(), game);
    EXPECT_EQ(status->seat_status().seat(), 1u);
    EXPECT_FALSE(status->seat_status().online());
  }
  // The game goes on without seat 1 until seat 1 must decide.
  ASSERT_NO_FATAL_FAILURE(Play({a.get(), c.get()}, random, 500, [](const Client::Track& t) {
    const city::PublicState& s = t.state();
    return s.counters.decision.actor == 1;
  }));
  ASSERT_FALSE(a->track().over());
  const uint64_t now = a->track().sequence();
  ASSERT_GT(now, seen + 1);

  // Seat 1 comes back on a new connection with its token and the last sequence it saw.
  Client back;
  ASSERT_TRUE(back.Connect(server.port()));
  back.Hello();
  back.Adopt(game, kept);
  const wire::ClientMessage resume = msg::Resume(game, kept.token, seen);
  const size_t mark = back.received().size();
  const wire::ServerMessage reply = back.Request(resume);
  ASSERT_TRUE(reply.has_delta()) << "the last missed delta answers the Resume: " << Show(reply);
  std::vector<uint64_t> sequences;
  for (size_t i = mark; i < back.received().size(); ++i) {
    if (back.received()[i].has_delta()) sequences.push_back(back.received()[i].delta().sequence());
  }
  ASSERT_EQ(sequences.size(), now - seen) << "exactly the missed deltas";
  for (size_t i = 0; i < sequences.size(); ++i) EXPECT_EQ(sequences[i], seen + 1 + i);
  EXPECT_EQ(back.track().sequence(), now);
  EXPECT_FALSE(back.track().legal().empty()) << "seat 1 decides: its legal actions came along";
  EXPECT_TRUE(back.track().state() == a->track().state());
  for (Client* other : {a.get(), c.get()}) {
    const auto status =
        other->ReceiveUntil([](const wire::ServerMessage& m) { return m.has_seat_status(); });
    ASSERT_TRUE(status.has_value()) << other->error().message();
    EXPECT_EQ(status->seat_status().seat(), 1u);
    EXPECT_TRUE(status->seat_status().online());
  }
  // And everybody plays on to the end.
  ASSERT_NO_FATAL_FAILURE(Play({a.get(), &back, c.get()}, random, 5000));
  ASSERT_TRUE(a->track().over());
  ASSERT_NO_FATAL_FAILURE(ExpectAllAtTheEnginesState({a.get(), &back, c.get()}, 3, kSeed));
}

// ---------------------------------------------------------------------------------------------
// 5, 6. Limits on a connection do not reach the others

TEST(NetLimits, AnOversizedFrameClosesOnlyThatConnection) {
  ServerConfig config = TestConfig();
  config.max_message_bytes = 1024;
  TestServer server(config);
  auto a = Connected(server);
  auto b = Connected(server);
  constexpr uint64_t kSeed = 6;
  SeatedGame({a.get(), b.get()}, kSeed);
  core::Random random(6);
  ASSERT_NO_FATAL_FAILURE(Play({a.get(), b.get()}, random, 20));
  auto big = Connected(server);
  ASSERT_TRUE(server.WaitForConnections(3));
  // A well-formed Hello of 4096 bytes: too large, whatever it says.
  wire::ClientMessage hello;
  hello.mutable_hello()->set_protocol_version(protocol::kProtocolVersion);
  hello.mutable_hello()->set_client(std::string(4090, 'x'));
  ASSERT_GT(hello.ByteSizeLong(), 4096u);
  big->Send(hello);  // may fail already: the server gives up as soon as it reads the header
  auto m = big->Receive();
  if (m.has_value()) {  // docs/protocol.md section 9 announces an error before the close
    EXPECT_EQ(CodeOf(*m), wire::ERROR_CODE_MESSAGE_TOO_LARGE) << Show(*m);
    m = big->Receive();
  }
  EXPECT_FALSE(m.has_value()) << "the connection is closed";
  EXPECT_NE(big->error(), beast::error::timeout) << "closed, not left hanging";
  // The close frame (1009) may be lost to the reset that follows it, as the server closes with
  // the rest of the frame unread; if it arrives it says why.
  if (big->close_code()) {
    EXPECT_EQ(*big->close_code(), websocket::close_code::too_big);
  }
  EXPECT_TRUE(server.WaitForConnections(2));
  // The game next door plays on to its end.
  ASSERT_NO_FATAL_FAILURE(Play({a.get(), b.get()}, random, 5000));
  ASSERT_TRUE(a->track().over());
  ASSERT_NO_FATAL_FAILURE(ExpectAllAtTheEnginesState({a.get(), b.get()}, 2, kSeed));
}

TEST(NetLimits, AConsumerThatDoesNotReadIsDisconnectedAndTheOthersPlayOn) {
  ServerConfig config = TestConfig();
  config.max_outbound_queue = 8;
  TestServer server(config);
  auto a = Connected(server);
  auto b = Connected(server);
  constexpr uint64_t kSeed = 9;
  const std::string game = SeatedGame({a.get(), b.get()}, kSeed);
  // The slow one watches the game with a tiny receive buffer, then stops reading while it asks
  // for more (Pings) and the game goes on.
  Client slow;
  ASSERT_TRUE(slow.Connect(server.port(), "", /*receive_buffer=*/4096));
  slow.Hello();
  ASSERT_TRUE(slow.Spectate(game).has_snapshot());
  ASSERT_TRUE(server.WaitForConnections(3));
  core::Random random(9);
  // Dropping a slow consumer must keep the message whose write is in flight alive until that
  // write completes (run under AddressSanitizer in CI: a use-after-free here shows).
  bool dropped = false;
  for (int i = 0; i < 50000 && !dropped; ++i) {
    const wire::ClientMessage ping = msg::Ping(static_cast<uint64_t>(i));
    dropped = slow.Send(ping) == 0;  // the write fails once the server has closed it
    if (i % 100 == 0) {
      if (!a->track().over()) {
        ASSERT_NO_FATAL_FAILURE(Play({a.get(), b.get()}, random, 1));
      }
      dropped = dropped || server.Connections() == 2;
    }
  }
  EXPECT_TRUE(dropped) << "a client that never reads is disconnected";
  EXPECT_TRUE(server.WaitForConnections(2));
  // What it had received ends in a broken connection, not in silence.
  for (size_t i = 0; i < kMaxMessages && slow.Receive(); ++i) {
  }
  EXPECT_NE(slow.error(), beast::error::timeout) << "the connection was closed";
  // The players were not held up.
  ASSERT_NO_FATAL_FAILURE(Play({a.get(), b.get()}, random, 5000));
  ASSERT_TRUE(a->track().over());
  ASSERT_NO_FATAL_FAILURE(ExpectAllAtTheEnginesState({a.get(), b.get()}, 2, kSeed));
}

// ---------------------------------------------------------------------------------------------
// 7. Games side by side

TEST(NetPlay, TwoGamesAtOnceDoNotInterfere) {
  TestServer server;
  auto a1 = Connected(server);
  auto b1 = Connected(server);
  auto a2 = Connected(server);
  auto b2 = Connected(server);
  const std::string one = SeatedGame({a1.get(), b1.get()}, 31);
  const std::string two = SeatedGame({a2.get(), b2.get()}, 32);
  ASSERT_NE(one, two);
  core::Random r1(1);
  core::Random r2(2);
  for (int i = 0; i < 5000; ++i) {
    const bool over1 = a1->track().over();
    const bool over2 = a2->track().over();
    if (over1 && over2) break;
    if (!over1) {
      ASSERT_NO_FATAL_FAILURE(Play({a1.get(), b1.get()}, r1, 1));
    }
    if (!over2) {
      ASSERT_NO_FATAL_FAILURE(Play({a2.get(), b2.get()}, r2, 1));
    }
  }
  ASSERT_TRUE(a1->track().over());
  ASSERT_TRUE(a2->track().over());
  for (Client* c : {a1.get(), b1.get(), a2.get(), b2.get()}) {
    EXPECT_EQ(c->GameCount(), 1u) << "no message of the other game";
  }
  EXPECT_EQ(a1->game(), one);
  EXPECT_EQ(a2->game(), two);
  ASSERT_NO_FATAL_FAILURE(ExpectAllAtTheEnginesState({a1.get(), b1.get()}, 2, 31));
  ASSERT_NO_FATAL_FAILURE(ExpectAllAtTheEnginesState({a2.get(), b2.get()}, 2, 32));
  EXPECT_NE(a1->track().state().Hash(), a2->track().state().Hash());
}

// ---------------------------------------------------------------------------------------------
// 8. Shutdown

TEST(NetShutdown, EveryClientIsToldAndClosed) {
  TestServer server;
  auto a = Connected(server);
  auto b = Connected(server);
  const std::string game = SeatedGame({a.get(), b.get()}, 8);
  core::Random random(8);
  ASSERT_NO_FATAL_FAILURE(Play({a.get(), b.get()}, random, 10));
  auto watcher = Connected(server);
  ASSERT_TRUE(watcher->Spectate(game).has_snapshot());
  auto idle = Connected(server);
  ASSERT_TRUE(server.WaitForConnections(4));

  server.Stop("maintenance");
  for (Client* c : {a.get(), b.get(), watcher.get(), idle.get()}) {
    const auto closing =
        c->ReceiveUntil([](const wire::ServerMessage& m) { return m.has_server_closing(); });
    ASSERT_TRUE(closing.has_value()) << c->error().message();
    EXPECT_EQ(closing->server_closing().reason(), "maintenance");
    EXPECT_FALSE(c->Receive().has_value()) << "nothing after ServerClosing but the close";
    EXPECT_EQ(c->close_code(), std::optional<uint16_t>(websocket::close_code::going_away))
        << c->error().message();
  }
  EXPECT_TRUE(server.WaitForConnections(0));
  // No new connections are accepted (the acceptor closes on the server's strand; bounded).
  bool refused = false;
  for (int i = 0; i < 100 && !refused; ++i) {
    Client late;
    refused = !late.Connect(server.port());
    if (!refused) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_TRUE(refused);
}

// ---------------------------------------------------------------------------------------------
// 9. Plain HTTP and origins

http::response<http::string_body> HttpGet(uint16_t port, const std::string& target) {
  asio::io_context io;
  asio::ip::tcp::socket socket(io);
  beast::error_code ec;
  socket.connect({asio::ip::make_address("127.0.0.1"), port}, ec);
  EXPECT_FALSE(ec) << ec.message();
  http::request<http::empty_body> request(http::verb::get, target, 11);
  request.set(http::field::host, "127.0.0.1");
  http::write(socket, request, ec);
  EXPECT_FALSE(ec) << ec.message();
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  http::read(socket, buffer, response, ec);
  EXPECT_FALSE(ec) << ec.message();
  return response;
}

TEST(NetHttp, HealthCheckAndUnknownPaths) {
  TestServer server;
  auto c = Connected(server);
  const auto health = HttpGet(server.port(), "/healthz");
  EXPECT_EQ(health.result(), http::status::ok);
  EXPECT_NE(health.body().find(R"("status":"ok")"), std::string::npos) << health.body();
  EXPECT_NE(health.body().find(R"("connections":1)"), std::string::npos) << health.body();
  EXPECT_EQ(health[http::field::content_type], "application/json");
  const auto missing = HttpGet(server.port(), "/nothing-here");
  EXPECT_EQ(missing.result(), http::status::not_found);
}

// The web client's files on the game's port, next to the WebSocket and /healthz; the resolver's
// rules are tested in static_files_test.cc.
TEST(NetHttp, TheWebClientIsServedFromItsRootAndNothingElse) {
  const std::filesystem::path root =
      std::filesystem::temp_directory_path() / ("carc-net-web-" + std::to_string(getpid()));
  std::filesystem::create_directories(root / "assets");
  std::ofstream(root / "index.html") << "<!doctype html><title>carc</title>";
  std::ofstream(root / "assets" / "app-1a2b.js") << "export {}";
  ServerConfig config = TestConfig();
  config.web_root = root.string();
  {
    TestServer server(config);
    const auto index = HttpGet(server.port(), "/");
    EXPECT_EQ(index.result(), http::status::ok);
    EXPECT_EQ(index.body(), "<!doctype html><title>carc</title>");
    EXPECT_EQ(index[http::field::content_type], "text/html; charset=utf-8");
    EXPECT_EQ(index[http::field::cache_control], "no-cache");
    const auto page = HttpGet(server.port(), "/game/g7");
    EXPECT_EQ(page.body(), index.body()) << "the client's own pages are its index";
    const auto script = HttpGet(server.port(), "/assets/app-1a2b.js");
    EXPECT_EQ(script.body(), "export {}");
    EXPECT_EQ(script[http::field::content_type], "text/javascript; charset=utf-8");
    EXPECT_EQ(script[http::field::cache_control], "public, max-age=31536000, immutable");
    EXPECT_EQ(HttpGet(server.port(), "/../../etc/passwd").result(), http::status::bad_request);
    EXPECT_EQ(HttpGet(server.port(), "/%2e%2e/%2e%2e/etc/passwd").result(),
              http::status::bad_request);
    EXPECT_EQ(HttpGet(server.port(), "/assets/none.js").result(), http::status::not_found);
    Client c;  // the WebSocket still answers on the same port
    ASSERT_TRUE(c.Connect(server.port())) << c.error().message();
    c.Hello();
  }
  std::filesystem::remove_all(root);
}

TEST(NetHttp, OnlyAllowedOriginsMayUpgrade) {
  ServerConfig config = TestConfig();
  config.allowed_origins = {"https://carc.example"};
  TestServer server(config);
  // "null": what a browser sends from a sandboxed page or a file.
  for (const char* origin : {"https://evil.example", "null", "https://carc.example.evil"}) {
    Client c;
    websocket::response_type refusal;
    EXPECT_FALSE(c.Connect(server.port(), origin, 0, &refusal)) << "origin '" << origin << "'";
    EXPECT_EQ(refusal.result(), http::status::forbidden) << "origin '" << origin << "'";
  }
  Client good;
  ASSERT_TRUE(good.Connect(server.port(), "https://carc.example")) << good.error().message();
  good.Hello();
}

// A browser always sends Origin on an upgrade from a page; an upgrade without it comes from a
// program (carc-client, a bot), which could send any Origin it liked: it is admitted.
TEST(NetHttp, AnUpgradeWithoutOriginIsAdmittedWhenOriginsAreListed) {
  ServerConfig config = TestConfig();
  config.allowed_origins = {"https://carc.example"};
  TestServer server(config);
  Client program;
  ASSERT_TRUE(program.Connect(server.port(), /*origin=*/"")) << program.error().message();
  program.Hello();
}

// ---------------------------------------------------------------------------------------------
// 10. Ping

TEST(NetPing, PongCarriesTheNonceAndRequestId) {
  TestServer server;
  auto c = Connected(server);
  wire::ClientMessage ping;
  ping.set_request_id(4242);
  ping.mutable_ping()->set_nonce(0xFEEDFACECAFEBEEFULL);
  const wire::ServerMessage reply = c->Request(ping);
  ASSERT_TRUE(reply.has_pong()) << Show(reply);
  EXPECT_EQ(reply.pong().nonce(), 0xFEEDFACECAFEBEEFULL);
  EXPECT_EQ(reply.request_id(), 4242u);
}

// ---------------------------------------------------------------------------------------------
// Spectating again (docs/protocol.md section 5: a spectator that lost its way sends Spectate
// again) gives a fresh snapshot and then each delta once.

TEST(NetSpectate, SpectatingAgainDeliversEachDeltaOnce) {
  TestServer server;
  auto a = Connected(server);
  auto b = Connected(server);
  const std::string game = SeatedGame({a.get(), b.get()}, 12);
  auto watcher = Connected(server);
  ASSERT_TRUE(watcher->Spectate(game).has_snapshot());
  ASSERT_TRUE(watcher->Spectate(game).has_snapshot());
  const uint64_t start = watcher->track().sequence();
  core::Random random(12);
  ASSERT_NO_FATAL_FAILURE(Play({a.get(), b.get()}, random, 6));
  const uint64_t target = a->track().sequence();
  ASSERT_GT(target, start + 2);
  // The room sends every copy of a delta before the next delta, so once the first copy of the
  // last one has arrived, every earlier one has arrived as often as it was sent.
  std::map<uint64_t, int> copies;
  for (size_t i = 0; i < kMaxMessages; ++i) {
    const auto m = watcher->Receive();
    ASSERT_TRUE(m.has_value()) << watcher->error().message();
    if (!m->has_delta()) continue;
    ++copies[m->delta().sequence()];
    if (m->delta().sequence() == target) break;
  }
  // Spectating again (to recover a lost state) must not deliver every later delta twice, nor
  // count the watcher twice.
  for (uint64_t s = start + 1; s < target; ++s) EXPECT_EQ(copies[s], 1) << "delta " << s;
  const wire::ClientMessage list = msg::ListGames();
  const wire::ServerMessage games = watcher->Request(list);
  ASSERT_EQ(games.game_list().games_size(), 1) << Show(games);
  EXPECT_EQ(games.game_list().games(0).spectators(), 1u);
}

// ---------------------------------------------------------------------------------------------
// 11. The game log: replays, seeks, restarts (docs/protocol.md, docs/persistence.md)

constexpr int64_t kYear2020Ms = 1'577'836'800'000;  // a commit time is Unix time in milliseconds

wire::ClientMessage ReplayRequest(const std::string& game) { return msg::GetReplay(game); }

wire::ClientMessage SeekRequest(const std::string& game, uint64_t sequence) {
  return msg::Seek(game, sequence);
}

wire::ServerMessage ListGames(Client& c) {
  const wire::ClientMessage list = msg::ListGames();
  return c.Request(list);
}

const wire::GameInfo* FindGame(const wire::ServerMessage& list, const std::string& game) {
  for (const wire::GameInfo& info : list.game_list().games()) {
    if (info.game_id() == game) return &info;
  }
  return nullptr;
}

// A 2-seat game played by `a` and `b` from their first decision to the end.
void PlayToTheEnd(Client* a, Client* b, uint64_t seed, std::string* game) {
  *game = SeatedGame({a, b}, seed);
  core::Random random(seed);
  ASSERT_NO_FATAL_FAILURE(Play({a, b}, random, 5000));
  ASSERT_TRUE(a->track().over()) << "the game ends within 5000 decisions";
}

// A Replay followed as a client would follow it: the start state, then each step's events,
// every step's sequence and hash checked. `hashes` gets the hash at each step (0: the start).
void FollowReplay(const wire::Replay& replay, std::optional<city::PublicState>* state,
                  std::vector<uint64_t>* hashes) {
  const wire::Snapshot& start = replay.start();
  EXPECT_EQ(start.game_id(), replay.game().game_id());
  ASSERT_EQ(start.sequence(), 0u) << "the state before the first action";
  EXPECT_FALSE(start.has_your_seat()) << "a replay is nobody's seat";
  EXPECT_EQ(start.rule_set(), replay.game().rule_set()) << "the game's rule set decodes it";
  EXPECT_EQ(start.legal_actions_size(), 0);
  protocol::Follower follower;
  ASSERT_EQ(follower.Start(start, msg::DefaultTiles(start.rule_set())), std::nullopt);
  hashes->assign(1, follower.hash());
  ASSERT_EQ(replay.time_ms_size(), replay.steps_size()) << "a commit time for every step";
  for (int i = 0; i < replay.steps_size(); ++i) {
    const wire::Delta& step = replay.steps(i);
    EXPECT_EQ(step.legal_actions_size(), 0) << "nobody decides in a replay";
    EXPECT_GE(replay.time_ms(i), kYear2020Ms) << "step " << step.sequence();
    // Of this game, in order, none missing, each with its hash.
    ASSERT_EQ(follower.Apply(step), std::nullopt);
    hashes->push_back(follower.hash());
  }
  *state = *protocol::CityStateOf(follower.view());
}

// Each step of a replay is the delta the players got, less the legal actions.
void ExpectTheDeltasPlayed(const std::vector<wire::Delta>& played, const wire::Replay& replay) {
  ASSERT_EQ(static_cast<size_t>(replay.steps_size()), played.size());
  for (size_t i = 0; i < played.size(); ++i) {
    wire::Delta seen = played[i];
    seen.clear_legal_actions();
    const wire::Delta& step = replay.steps(static_cast<int>(i));
    EXPECT_EQ(seen.SerializeAsString(), step.SerializeAsString())
        << "step " << i + 1 << "\n played: " << seen.ShortDebugString().substr(0, 300)
        << "\n stored: " << step.ShortDebugString().substr(0, 300);
  }
}

TEST(NetLog, AFinishedGamesReplayIsEveryDeltaThePlayersSaw) {
  TestServer server;
  auto a = Connected(server);
  auto b = Connected(server);
  constexpr uint64_t kSeed = 41;
  std::string game;
  ASSERT_NO_FATAL_FAILURE(PlayToTheEnd(a.get(), b.get(), kSeed, &game));
  const wire::ServerMessage reply = b->Request(ReplayRequest(game));
  ASSERT_TRUE(reply.has_replay()) << Show(reply);
  const wire::Replay& replay = reply.replay();

  const wire::GameInfo& info = replay.game();
  EXPECT_EQ(info.game_id(), game);
  EXPECT_EQ(info.name(), "net test");
  EXPECT_EQ(info.rule_set(), "the-city");
  EXPECT_EQ(info.status(), wire::GAME_STATUS_FINISHED);
  EXPECT_EQ(info.seats(), 2u);
  ASSERT_EQ(info.seat_size(), 2);
  for (const wire::SeatInfo& seat : info.seat()) EXPECT_TRUE(seat.taken()) << seat.seat();

  // The start is the engine's own set-up for the seed.
  city::Config config;
  config.players = 2;
  const auto initial = city::Game::Create(city::DefaultTileSet(), config, kSeed);
  EXPECT_EQ(replay.start().state_hash(), std::get<city::Game>(initial).Hash());
  std::optional<city::PublicState> state;
  std::vector<uint64_t> hashes;
  ASSERT_NO_FATAL_FAILURE(FollowReplay(replay, &state, &hashes));
  ASSERT_NO_FATAL_FAILURE(ExpectTheDeltasPlayed(a->track().deltas, replay));
  EXPECT_EQ(hashes.back(), a->track().state().Hash()) << "the end the players saw";
  EXPECT_TRUE(*state == a->track().state());
}

TEST(NetLog, ARunningGameIsReplayedToAConnectionThatNeverJoinedIt) {
  TestServer server;
  auto a = Connected(server);
  auto b = Connected(server);
  const std::string game = SeatedGame({a.get(), b.get()}, 42);
  core::Random random(42);
  ASSERT_NO_FATAL_FAILURE(Play({a.get(), b.get()}, random, 30));
  ASSERT_FALSE(a->track().over());
  auto outsider = Connected(server);
  const wire::ServerMessage reply = outsider->Request(ReplayRequest(game));
  ASSERT_TRUE(reply.has_replay()) << Show(reply);
  EXPECT_EQ(reply.replay().game().status(), wire::GAME_STATUS_RUNNING);
  // Everything acknowledged so far, and the state the players are at.
  std::optional<city::PublicState> state;
  std::vector<uint64_t> hashes;
  ASSERT_NO_FATAL_FAILURE(FollowReplay(reply.replay(), &state, &hashes));
  ASSERT_NO_FATAL_FAILURE(ExpectTheDeltasPlayed(a->track().deltas, reply.replay()));
  EXPECT_TRUE(*state == a->track().state());

  // A replay does not make its reader a spectator: the moves that follow are not sent to it.
  // (They were queued to every recipient before the movers heard back, so before this Ping.)
  ASSERT_NO_FATAL_FAILURE(Play({a.get(), b.get()}, random, 10));
  wire::ClientMessage ping = msg::Ping(1);
  EXPECT_TRUE(outsider->Request(ping).has_pong());
  for (const wire::ServerMessage& m : outsider->received()) EXPECT_FALSE(m.has_delta()) << Show(m);
  EXPECT_EQ(outsider->GameCount(), 0u);
}

TEST(NetLog, SeekGivesTheStateAtAnyStepAndRefusesWhatIsNotThere) {
  TestServer server;
  auto a = Connected(server);
  auto b = Connected(server);
  std::string game;
  ASSERT_NO_FATAL_FAILURE(PlayToTheEnd(a.get(), b.get(), 43, &game));
  auto seeker = Connected(server);
  const wire::ServerMessage replay = seeker->Request(ReplayRequest(game));
  ASSERT_TRUE(replay.has_replay()) << Show(replay);
  std::optional<city::PublicState> state;
  std::vector<uint64_t> hashes;
  ASSERT_NO_FATAL_FAILURE(FollowReplay(replay.replay(), &state, &hashes));
  const uint64_t steps = hashes.size() - 1;
  ASSERT_GT(steps, 2u);

  for (const uint64_t sequence : {uint64_t{0}, steps / 2, steps}) {
    const wire::ServerMessage reply = seeker->Request(SeekRequest(game, sequence));
    ASSERT_TRUE(reply.has_snapshot()) << "seek " << sequence << ": " << Show(reply);
    const wire::Snapshot& s = reply.snapshot();
    EXPECT_EQ(s.game_id(), game);
    EXPECT_EQ(s.sequence(), sequence);
    EXPECT_EQ(s.state_hash(), hashes[sequence]) << "the replay's state at step " << sequence;
    EXPECT_FALSE(s.has_your_seat());
    EXPECT_EQ(s.legal_actions_size(), 0);
    // (The client checked the state against its hash as it arrived.)
    if (sequence == steps) {
      EXPECT_TRUE(protocol::FromProto(msg::CityStateOf(s)) == a->track().state())
          << "the last step is the end";
    }
  }

  const auto refused = [&seeker](const wire::ClientMessage& m, wire::ErrorCode code) {
    const wire::ServerMessage reply = seeker->Request(m);
    EXPECT_EQ(CodeOf(reply), code) << Show(reply);
  };
  refused(SeekRequest(game, steps + 1), wire::ERROR_CODE_MALFORMED_MESSAGE);
  refused(SeekRequest(game, std::numeric_limits<uint64_t>::max()),
          wire::ERROR_CODE_MALFORMED_MESSAGE);
  for (const char* unknown : {"g999999", "x", "", "g", "g-1"}) {
    refused(SeekRequest(unknown, 0), wire::ERROR_CODE_NO_SUCH_GAME);
    refused(ReplayRequest(unknown), wire::ERROR_CODE_NO_SUCH_GAME);
  }
  // An open game has no log to replay yet.
  const std::string open = seeker->Create(3, 44);
  ASSERT_TRUE(seeker->Join(open, 0).has_seat_joined());
  refused(SeekRequest(open, 0), wire::ERROR_CODE_GAME_NOT_RUNNING);
  refused(ReplayRequest(open), wire::ERROR_CODE_GAME_NOT_RUNNING);
}

wire::ServerMessage ListOne(Client& c, const std::string& game);

// Waits (bounded) until the server no longer hosts an ended game. Spectate answers either way,
// so `watcher` watches it first: the hosted game's summary counts it among its spectators, the
// log's summary counts none.
bool WaitUntilNotHosted(Client& watcher, const std::string& game) {
  if (!watcher.Spectate(game).has_snapshot()) return false;
  for (int i = 0; i < 500; ++i) {
    const wire::ServerMessage one = ListOne(watcher, game);
    if (one.game_list().games_size() == 1 && one.game_list().games(0).spectators() == 0) {
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

TEST(NetLog, AFinishedGameThatLeftTheLobbyCanStillBeReplayed) {
  ServerConfig config = TestConfig();
  config.finished_game_retention = std::chrono::seconds(0);
  TestServer server(config);
  auto a = Connected(server);
  auto b = Connected(server);
  std::string game;
  ASSERT_NO_FATAL_FAILURE(PlayToTheEnd(a.get(), b.get(), 45, &game));
  auto reader = Connected(server);
  ASSERT_TRUE(WaitUntilNotHosted(*reader, game))
      << "a finished game leaves the lobby after its retention time";
  EXPECT_EQ(FindGame(ListGames(*reader), game), nullptr);
  const wire::ServerMessage watched = reader->Spectate(game);
  ASSERT_TRUE(watched.has_snapshot()) << "its final state, from the log: " << Show(watched);
  EXPECT_EQ(watched.snapshot().state_hash(), a->track().state().Hash());

  const wire::ServerMessage reply = reader->Request(ReplayRequest(game));
  ASSERT_TRUE(reply.has_replay()) << Show(reply);
  EXPECT_EQ(reply.replay().game().status(), wire::GAME_STATUS_FINISHED);
  std::optional<city::PublicState> state;
  std::vector<uint64_t> hashes;
  ASSERT_NO_FATAL_FAILURE(FollowReplay(reply.replay(), &state, &hashes));
  ASSERT_NO_FATAL_FAILURE(ExpectTheDeltasPlayed(a->track().deltas, reply.replay()));
  EXPECT_TRUE(*state == a->track().state());
  const wire::ServerMessage end = reader->Request(SeekRequest(game, hashes.size() - 1));
  ASSERT_TRUE(end.has_snapshot()) << Show(end);
  EXPECT_EQ(end.snapshot().state_hash(), a->track().state().Hash());
}

// Removes a game log's files when the test ends, however it ends.
struct DatabaseFiles {
  std::string path;
  ~DatabaseFiles() { RemoveDatabase(path); }
};

// Tells each client the server is going and reads until its connection is closed.
void StopAndDrain(TestServer& server, const std::vector<Client*>& clients) {
  server.Stop("restart");
  for (Client* c : clients) {
    const auto closing =
        c->ReceiveUntil([](const wire::ServerMessage& m) { return m.has_server_closing(); });
    ASSERT_TRUE(closing.has_value()) << c->error().message();
    EXPECT_FALSE(c->Receive().has_value()) << "nothing after ServerClosing but the close";
  }
}

// A seat back on a new connection after the restart, with the view it kept.
std::unique_ptr<Client> ResumedSeat(const TestServer& server, const std::string& game,
                                    const Client::Track& kept, uint64_t last_seen,
                                    wire::ServerMessage* reply) {
  auto client = Connected(server);
  client->Adopt(game, kept);
  *reply = client->Request(msg::Resume(game, kept.token, last_seen));
  return client;
}

// The deltas `c` received from message `mark` on, by sequence.
std::vector<uint64_t> DeltaSequencesSince(const Client& c, size_t mark) {
  std::vector<uint64_t> sequences;
  for (size_t i = mark; i < c.received().size(); ++i) {
    if (c.received()[i].has_delta()) sequences.push_back(c.received()[i].delta().sequence());
  }
  return sequences;
}

TEST(NetLog, ARunningGameResumesAfterARestart) {
  const ServerConfig config = TestConfig();
  const DatabaseFiles files{config.db_path};
  constexpr uint64_t kSeed = 46;
  auto first = std::make_unique<TestServer>(config, TestServer::Database::kKeep);
  auto a = Connected(*first);
  auto b = Connected(*first);
  auto c = Connected(*first);
  const std::string game = SeatedGame({a.get(), b.get(), c.get()}, kSeed);
  core::Random random(46);
  // Seat 1 loses its connection at seat 2's first decision; the others play on until seat 1
  // must decide, so it has deltas to catch up on after the restart.
  ASSERT_NO_FATAL_FAILURE(
      Play({a.get(), b.get(), c.get()}, random, 500, [](const Client::Track& t) {
        const city::PublicState& s = t.state();
        return s.counters.turn_player == 2 && s.counters.decision.actor == 2;
      }));
  const uint64_t b_seen = b->track().sequence();
  const Client::Track b_kept = b->track();
  b->Drop();
  ASSERT_NO_FATAL_FAILURE(Play({a.get(), c.get()}, random, 500, [](const Client::Track& t) {
    const city::PublicState& s = t.state();
    return s.counters.decision.actor == 1;
  }));
  ASSERT_FALSE(a->track().over());
  const uint64_t now = a->track().sequence();
  ASSERT_GT(now, b_seen + 1);
  const Client::Track a_kept = a->track();
  const Client::Track c_kept = c->track();
  ASSERT_NO_FATAL_FAILURE(StopAndDrain(*first, {a.get(), c.get()}));
  first.reset();

  TestServer second(config, TestServer::Database::kKeep);
  auto lister = Connected(second);
  const wire::ServerMessage list = ListGames(*lister);
  const wire::GameInfo* listed = FindGame(list, game);
  ASSERT_NE(listed, nullptr) << Show(list);
  EXPECT_EQ(listed->status(), wire::GAME_STATUS_RUNNING);
  ASSERT_EQ(listed->seat_size(), 3);
  for (const wire::SeatInfo& seat : listed->seat()) {
    EXPECT_TRUE(seat.taken()) << seat.seat();
    EXPECT_FALSE(seat.online()) << "nobody is back yet: seat " << seat.seat();
  }
  // Seats 0 and 2 ask for a snapshot; seat 1 for what it missed, and gets exactly that.
  wire::ServerMessage reply;
  auto a2 = ResumedSeat(second, game, a_kept, 0, &reply);
  ASSERT_TRUE(reply.has_snapshot()) << Show(reply);
  EXPECT_EQ(reply.snapshot().sequence(), now);
  EXPECT_EQ(reply.snapshot().your_seat(), 0u);
  EXPECT_EQ(reply.snapshot().state_hash(), a_kept.state().Hash());
  auto b2 = ResumedSeat(second, game, b_kept, b_seen, &reply);
  ASSERT_TRUE(reply.has_delta()) << "the last missed delta answers the Resume: " << Show(reply);
  const std::vector<uint64_t> missed = DeltaSequencesSince(*b2, 0);
  ASSERT_EQ(missed.size(), now - b_seen) << "exactly the missed deltas";
  for (size_t i = 0; i < missed.size(); ++i) EXPECT_EQ(missed[i], b_seen + 1 + i);
  EXPECT_FALSE(b2->track().legal().empty()) << "seat 1 decides: its legal actions came along";
  auto c2 = ResumedSeat(second, game, c_kept, 0, &reply);
  ASSERT_TRUE(reply.has_snapshot()) << Show(reply);
  for (Client* back : {a2.get(), b2.get(), c2.get()}) {
    EXPECT_EQ(back->track().sequence(), now);
    EXPECT_EQ(back->track().state().Hash(), a_kept.state().Hash());
  }
  // The game plays on to the end, as the engine would have played it without the restart.
  ASSERT_NO_FATAL_FAILURE(Play({a2.get(), b2.get(), c2.get()}, random, 5000));
  ASSERT_TRUE(a2->track().over());
  ASSERT_NO_FATAL_FAILURE(ExpectAllAtTheEnginesState({b2.get(), a2.get(), c2.get()}, 3, kSeed));
}

// A restart replays its unfinished games on every core, at least 64 games to a thread
// (Lobby::ReplayInParallel): with 150 games, more than one thread replays on a machine with more
// than one core. Every game comes back at the sequence and state it was left at.
TEST(NetLog, ManyRunningGamesResumeWhereTheyWereAfterARestart) {
  const ServerConfig config = TestConfig();
  const DatabaseFiles files{config.db_path};
  constexpr int kGames = 150;
  std::vector<std::pair<std::string, Client::Track>> left;
  auto first = std::make_unique<TestServer>(config, TestServer::Database::kKeep);
  std::vector<std::unique_ptr<Client>> players;
  for (int g = 0; g < kGames; ++g) {
    auto a = Connected(*first);
    auto b = Connected(*first);
    const std::string game = SeatedGame({a.get(), b.get()}, 1000 + g);
    core::Random random(static_cast<uint64_t>(g));
    ASSERT_NO_FATAL_FAILURE(Play({a.get(), b.get()}, random, g % 7 * 3));  // games of all ages
    left.emplace_back(game, a->track());
    players.push_back(std::move(a));
    players.push_back(std::move(b));
  }
  std::vector<Client*> everyone;
  for (const auto& p : players) everyone.push_back(p.get());
  ASSERT_NO_FATAL_FAILURE(StopAndDrain(*first, everyone));
  first.reset();

  TestServer second(config, TestServer::Database::kKeep);
  for (const auto& [game, kept] : left) {
    wire::ServerMessage reply;
    auto back = ResumedSeat(second, game, kept, 0, &reply);
    ASSERT_TRUE(reply.has_snapshot()) << game << ": " << Show(reply);
    EXPECT_EQ(reply.snapshot().sequence(), kept.sequence()) << game;
    EXPECT_EQ(reply.snapshot().state_hash(), kept.state().Hash()) << game;
  }
}

// docs/operations.md, "Backups and restoring one": a backup taken with the game log's online
// backup while a game is played holds every move acknowledged before it, and nothing after; a
// server started on the backup resumes the game there, and it plays on to the end.
TEST(NetLog, ABackupTakenWhileAGameRunsRestoresItWhereItWas) {
  const ServerConfig config = TestConfig();
  const DatabaseFiles files{config.db_path};
  ServerConfig restored = config;
  restored.db_path = config.db_path + "-backup";
  const DatabaseFiles backup_files{restored.db_path};
  constexpr uint64_t kSeed = 47;
  auto first = std::make_unique<TestServer>(config, TestServer::Database::kKeep);
  auto a = Connected(*first);
  auto b = Connected(*first);
  const std::string game = SeatedGame({a.get(), b.get()}, kSeed);
  core::Random random(kSeed);
  ASSERT_NO_FATAL_FAILURE(Play({a.get(), b.get()}, random, 20));
  const Client::Track a_kept = a->track();
  const Client::Track b_kept = b->track();
  {
    // What `carc-db backup` does, from a connection of its own, while the server runs.
    persistence::StoreOptions options;
    options.path = config.db_path;
    options.create = false;
    auto store = persistence::Store::Open(options);
    ASSERT_TRUE(store.ok()) << store.error().message;
    ASSERT_EQ(store->Backup(restored.db_path), std::nullopt);
  }
  ASSERT_NO_FATAL_FAILURE(Play({a.get(), b.get()}, random, 20));
  ASSERT_GT(a->track().sequence(), a_kept.sequence()) << "the server played on meanwhile";
  ASSERT_NO_FATAL_FAILURE(StopAndDrain(*first, {a.get(), b.get()}));
  first.reset();

  TestServer second(restored, TestServer::Database::kKeep);
  wire::ServerMessage reply;
  auto a2 = ResumedSeat(second, game, a_kept, 0, &reply);
  ASSERT_TRUE(reply.has_snapshot()) << Show(reply);
  EXPECT_EQ(reply.snapshot().sequence(), a_kept.sequence()) << "the game as it was backed up";
  EXPECT_EQ(reply.snapshot().state_hash(), a_kept.state().Hash());
  auto b2 = ResumedSeat(second, game, b_kept, b_kept.sequence(), &reply);
  EXPECT_EQ(b2->track().sequence(), a_kept.sequence());
  ASSERT_NO_FATAL_FAILURE(Play({a2.get(), b2.get()}, random, 5000));
  ASSERT_TRUE(a2->track().over());
  ASSERT_NO_FATAL_FAILURE(ExpectAllAtTheEnginesState({a2.get(), b2.get()}, 2, kSeed));
}

// A game log written before protocol 2 (schema version 2, before games stored their rule set's
// version): its finished game of The City is hosted, replayed step by step and watched, each
// hash as it was stored.
TEST(NetLog, ACityGameStoredBeforeProtocol2IsReplayedAndWatched) {
  const ServerConfig config = TestConfig();
  const DatabaseFiles files{config.db_path};
  {
    std::ifstream in(std::string(CARC_SOURCE_DIR) +
                     "/tests/persistence/data/schema-v2-city-game.sql");
    const std::string sql((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_FALSE(sql.empty());
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(config.db_path.c_str(), &db), SQLITE_OK);
    EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
  }
  TestServer server(config, TestServer::Database::kKeep);
  auto c = Connected(server);
  const wire::ServerMessage reply = c->Request(msg::GetReplay("g1"));
  ASSERT_TRUE(reply.has_replay()) << Show(reply);
  const wire::Replay& replay = reply.replay();
  EXPECT_EQ(replay.game().rule_set(), msg::kCity);
  EXPECT_EQ(replay.game().rule_set_version(), 1u);
  EXPECT_EQ(replay.game().status(), wire::GAME_STATUS_FINISHED);
  ASSERT_EQ(replay.steps_size(), 259);
  protocol::Follower follower;
  ASSERT_EQ(follower.Start(replay.start(), msg::DefaultTiles(msg::kCity)), std::nullopt);
  for (const wire::Delta& step : replay.steps()) ASSERT_EQ(follower.Apply(step), std::nullopt);
  EXPECT_TRUE(follower.over());
  EXPECT_EQ(follower.hash(), 3108415732723108458u) << "the final hash the log stored";

  const wire::ServerMessage watched = c->Spectate("g1");
  ASSERT_TRUE(watched.has_snapshot()) << Show(watched);
  EXPECT_EQ(watched.snapshot().sequence(), 259u);
  EXPECT_EQ(watched.snapshot().state_hash(), follower.hash());
}

TEST(NetLog, AnOpenGameAndItsSeatTokenSurviveARestart) {
  const ServerConfig config = TestConfig();
  const DatabaseFiles files{config.db_path};
  auto first = std::make_unique<TestServer>(config, TestServer::Database::kKeep);
  auto a = Connected(*first);
  auto b = Connected(*first);
  const std::string running = SeatedGame({a.get(), b.get()}, 47);
  const std::string open = a->Create(3, 48);
  ASSERT_TRUE(a->Join(open, 0).has_seat_joined());
  const std::string token = a->track().token;
  ASSERT_NO_FATAL_FAILURE(StopAndDrain(*first, {a.get(), b.get()}));
  first.reset();

  TestServer second(config, TestServer::Database::kKeep);
  auto lister = Connected(second);
  const wire::ServerMessage list = ListGames(*lister);
  const wire::GameInfo* waiting = FindGame(list, open);
  ASSERT_NE(waiting, nullptr) << Show(list);
  EXPECT_EQ(waiting->status(), wire::GAME_STATUS_OPEN);
  ASSERT_EQ(waiting->seat_size(), 3);
  EXPECT_TRUE(waiting->seat(0).taken());
  EXPECT_FALSE(waiting->seat(1).taken());
  EXPECT_FALSE(waiting->seat(2).taken());
  // A second player joins; seat 0, back on a new connection, starts the game with its token.
  auto joiner = Connected(second);
  ASSERT_TRUE(joiner->Join(open).has_seat_joined());
  auto creator = Connected(second);
  Client::Track kept;
  kept.token = token;
  kept.seat = 0;
  creator->Adopt(open, kept);
  const wire::ServerMessage reply = creator->Start(open, token);
  ASSERT_TRUE(reply.has_snapshot()) << Show(reply);
  EXPECT_EQ(reply.snapshot().your_seat(), 0u);
  EXPECT_EQ(msg::CityStateOf(reply.snapshot()).players(), 2u) << "the free seat is dropped";
  for (Client* player : {creator.get(), joiner.get()}) ASSERT_TRUE(player->SyncPast(0));
  core::Random random(48);
  ASSERT_NO_FATAL_FAILURE(Play({creator.get(), joiner.get()}, random, 10));

  // A new game never takes the id of one from before the restart.
  const auto before = {persistence::ParseGameId(running), persistence::ParseGameId(open)};
  const std::string fresh = lister->Create(2, 49);
  const auto number = persistence::ParseGameId(fresh);
  ASSERT_TRUE(number.has_value()) << fresh;
  for (const auto& old : before) {
    ASSERT_TRUE(old.has_value());
    EXPECT_GT(*number, *old) << fresh << " after " << running << " and " << open;
  }
}

TEST(NetLog, HealthCheckReportsTheLogsCommits) {
  TestServer server;
  const auto log_of = [&server] {
    const auto health = HttpGet(server.port(), "/healthz");
    EXPECT_EQ(health.result(), http::status::ok);
    const auto body = nlohmann::json::parse(health.body(), nullptr, /*allow_exceptions=*/false);
    EXPECT_FALSE(body.is_discarded()) << "not JSON: " << health.body();
    EXPECT_TRUE(body.contains("log") && body["log"].is_object()) << health.body();
    return body.is_object() && body.contains("log") ? body["log"] : nlohmann::json::object();
  };
  const nlohmann::json before = log_of();
  EXPECT_EQ(before.value("commits", -1), 0) << before.dump();
  auto a = Connected(server);
  auto b = Connected(server);
  SeatedGame({a.get(), b.get()}, 50);
  core::Random random(50);
  ASSERT_NO_FATAL_FAILURE(Play({a.get(), b.get()}, random, 12));
  // Every move was acknowledged after its commit, so the figures already count it.
  const nlohmann::json log = log_of();
  for (const char* key : {"commits", "writes", "failed_writes", "actions", "largest_batch",
                          "commit_ms_p50", "commit_ms_p99", "commit_ms_max"}) {
    EXPECT_TRUE(log.contains(key) && log[key].is_number()) << key << " in " << log.dump();
  }
  EXPECT_GT(log.value("commits", 0), 0) << log.dump();
  EXPECT_GE(log.value("writes", 0), log.value("commits", 0)) << log.dump();
  EXPECT_EQ(log.value("failed_writes", -1), 0) << log.dump();
  EXPECT_EQ(log.value("actions", uint64_t{0}), a->track().sequence())
      << "every action of the game, the server's draws included: " << log.dump();
  EXPECT_GE(log.value("largest_batch", 0), 1) << log.dump();
}

// The value of one sample of a Prometheus scrape (`name{labels}` exactly), or -1 if absent.
double SampleValue(const std::string& scrape, const std::string& sample) {
  std::istringstream lines(scrape);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with(sample + " ")) return std::stod(line.substr(sample.size() + 1));
  }
  return -1;
}

// Scrapes /metrics until `sample` has `value` (a room counts a move, and a finished game, just
// after its delta went out, so a client may see the delta first), at most 5 s; the last scrape.
std::string ScrapeWhen(uint16_t port, const std::string& sample, double value) {
  std::string scrape;
  for (int i = 0; i < 500; ++i) {
    scrape = HttpGet(port, "/metrics").body();
    if (SampleValue(scrape, sample) == value) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return scrape;
}

TEST(NetHttp, MetricsCountTheMovesTheGamesAndTheConnections) {
  TestServer server;
  auto a = Connected(server);
  auto b = Connected(server);
  SeatedGame({a.get(), b.get()}, 51);
  core::Random random(51);
  ASSERT_NO_FATAL_FAILURE(Play({a.get(), b.get()}, random, 10));
  // A retry of a move already made: refused as stale.
  Client* decider = a->track().seat == a->track().actor() ? a.get() : b.get();
  wire::ClientMessage stale =
      decider->MoveMessage(decider->track().legal().front(), decider->track().sequence() - 1);
  stale.set_request_id(900);
  EXPECT_EQ(CodeOf(decider->Request(stale)), wire::ERROR_CODE_STALE_SEQUENCE);

  const auto response = HttpGet(server.port(), "/metrics");
  ASSERT_EQ(response.result(), http::status::ok);
  EXPECT_EQ(response[http::field::content_type], "text/plain; version=0.0.4; charset=utf-8");
  const std::string scrape = ScrapeWhen(server.port(), "carc_moves_accepted_total", 10);
  EXPECT_EQ(SampleValue(scrape, "carc_moves_accepted_total"), 10) << scrape;
  EXPECT_EQ(SampleValue(scrape, R"(carc_moves_refused_total{code="ERROR_CODE_STALE_SEQUENCE"})"), 1)
      << scrape;
  EXPECT_EQ(SampleValue(scrape, "carc_move_broadcast_seconds_count"), 10) << scrape;
  EXPECT_EQ(SampleValue(scrape, R"(carc_move_broadcast_seconds_bucket{le="+Inf"})"), 10);
  EXPECT_EQ(SampleValue(scrape, R"(carc_games{status="running"})"), 1) << scrape;
  EXPECT_EQ(SampleValue(scrape, R"(carc_games{status="open"})"), 0) << scrape;
  EXPECT_EQ(SampleValue(scrape, "carc_connections"), 2) << scrape;
  // Every action, the server's draws included, was committed before it was broadcast.
  EXPECT_EQ(SampleValue(scrape, "carc_log_actions_total"),
            static_cast<double>(a->track().sequence()));
  EXPECT_GT(SampleValue(scrape, "carc_commit_seconds_count"), 0) << scrape;
  EXPECT_EQ(SampleValue(scrape, "carc_bot_think_seconds_count"), 0) << "no bot played";
}

// Start() of a server on `config`, on an io_context that never runs.
std::optional<std::string> StartError(ServerConfig config) {
  asio::io_context io;
  Server server(io, std::move(config), DefaultRuleSets());
  return server.Start();
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(NetLog, AFileThatIsNoGameLogIsRefusedAtStart) {
  ServerConfig config = TestConfig();
  const DatabaseFiles files{config.db_path};
  std::string noise(8192, '\0');
  core::Random random(51);
  for (char& byte : noise) byte = static_cast<char>(random.Below(256));
  {
    std::ofstream out(config.db_path, std::ios::binary);
    out.write(noise.data(), static_cast<std::streamsize>(noise.size()));
  }
  const auto error = StartError(config);
  ASSERT_TRUE(error.has_value()) << "a server on random bytes must not start";
  EXPECT_NE(error->find(config.db_path), std::string::npos) << *error;
  EXPECT_NE(error->find("not a database"), std::string::npos) << *error;
  EXPECT_EQ(ReadFile(config.db_path), noise) << "the file is left as it was";
}

TEST(NetLog, AGameLogInsideARegularFileIsRefusedAtStart) {
  ServerConfig config = TestConfig();
  const DatabaseFiles files{config.db_path};
  { std::ofstream(config.db_path) << "a regular file\n"; }
  const std::string inside = config.db_path;
  config.db_path = inside + "/games.db";
  const auto error = StartError(config);
  ASSERT_TRUE(error.has_value()) << "a folder that is a file cannot hold the log";
  EXPECT_NE(error->find(inside), std::string::npos) << *error;
  EXPECT_EQ(ReadFile(inside), "a regular file\n") << "the file is left as it was";
}

bool HasServerClosing(const ws::ServerOutput& out) {
  return std::any_of(out.messages.begin(), out.messages.end(),
                     [](const wire::ServerMessage& m) { return m.has_server_closing(); });
}

// A raw client that has said Hello.
std::unique_ptr<RawClient> RawHello(uint16_t port) {
  auto raw = Greeted(port);
  EXPECT_NE(raw, nullptr) << "no Welcome";
  return raw ? std::move(raw) : std::make_unique<RawClient>();
}

// Clients that close politely, clients that answer the close frame and keep their socket open,
// clients that read nothing, and connections that never finished their HTTP request; games open,
// running and finished. The server tells every client, cuts off those left after the grace time,
// and runs out of work: its io threads return. Repeated, and run under the sanitizers in CI.
TEST(NetShutdown, StopsWithClientsThatLingerOrReadNothing) {
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    ServerConfig config = TestConfig();
    config.shutdown_grace = std::chrono::milliseconds(300);
    TestServer server(config);
    auto a = Connected(server);
    auto b = Connected(server);
    SeatedGame({a.get(), b.get()}, 11);
    core::Random random(11);
    ASSERT_NO_FATAL_FAILURE(Play({a.get(), b.get()}, random, 7));
    auto c = Connected(server);
    auto d = Connected(server);
    SeatedGame({c.get(), d.get()}, 12);
    ASSERT_NO_FATAL_FAILURE(Play({c.get(), d.get()}, random, 5000));
    ASSERT_TRUE(c->track().over());
    auto opener = Connected(server);
    const std::string open_game = opener->Create(3, 13);
    ASSERT_TRUE(opener->Join(open_game, 0).has_seat_joined());
    auto lingering = RawHello(server.port());
    auto deaf = RawHello(server.port());
    RawClient half_request;
    ASSERT_TRUE(half_request.ConnectTcp(server.port()));
    ASSERT_TRUE(half_request.SendBytes("GET /healthz HTTP/1.1\r\n"));
    ASSERT_TRUE(server.WaitForConnections(7));

    const auto stop_began = std::chrono::steady_clock::now();
    server.Stop("maintenance");
    for (Client* polite : {a.get(), b.get(), c.get(), d.get(), opener.get()}) {
      const auto closing =
          polite->ReceiveUntil([](const wire::ServerMessage& m) { return m.has_server_closing(); });
      ASSERT_TRUE(closing.has_value()) << polite->error().message();
      EXPECT_EQ(closing->server_closing().reason(), "maintenance");
    }
    // The lingering client reads up to the close frame, answers it, and keeps its socket.
    const ws::ServerOutput told =
        lingering->ReadUntil([](const ws::ServerOutput& out) { return out.close_code.has_value(); },
                             std::chrono::seconds(5));
    EXPECT_TRUE(HasServerClosing(told));
    EXPECT_EQ(told.close_code, std::optional<uint16_t>(1001));
    EXPECT_TRUE(lingering->SendBytes(ws::CloseFrame(1001)));

    EXPECT_TRUE(server.WaitStopped(std::chrono::seconds(8)))
        << "the server still had work after its grace time";
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - stop_began).count();
    RecordProperty("stop_seconds_round_" + std::to_string(round), std::to_string(seconds));
    // What the deaf client never read was sent all the same: ServerClosing is in its buffer.
    EXPECT_TRUE(HasServerClosing(deaf->ReadUntilClosed(std::chrono::seconds(2))));
    half_request.ReadUntilClosed(std::chrono::seconds(2));
    EXPECT_TRUE(half_request.closed_by_server());
  }
}

// A request that reaches the server as it stops: the move is either committed and its delta
// sent before ServerClosing, or refused with SHUTTING_DOWN (or, arriving after the goodbye, not
// read). What was acknowledged is in the log when the server comes back.
TEST(NetShutdown, ARequestMetByTheStopIsAnsweredAndWhatWasAcknowledgedStays) {
  for (int round = 0; round < 5; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    const ServerConfig config = TestConfig();
    std::string game;
    Client::Track kept;
    uint64_t acknowledged = 0;
    {
      TestServer server(config, TestServer::Database::kKeep);
      auto a = Connected(server);
      auto b = Connected(server);
      game = SeatedGame({a.get(), b.get()}, 20 + static_cast<uint64_t>(round));
      core::Random random(static_cast<uint64_t>(round));
      ASSERT_NO_FATAL_FAILURE(Play({a.get(), b.get()}, random, 3 + round));
      Client* decider = a->track().legal().empty() ? b.get() : a.get();
      kept = decider->track();
      const wire::ClientMessage move = decider->MoveMessage(decider->track().legal().front());
      const uint64_t id = decider->Send(move);
      server.Stop("restart");
      acknowledged = decider->track().sequence();
      bool answered = false;
      for (size_t i = 0; i < kMaxMessages; ++i) {
        const auto m = decider->Receive();
        ASSERT_TRUE(m.has_value()) << "ServerClosing comes last: " << decider->error().message();
        if (m->request_id() == id) {
          answered = true;
          if (m->has_delta()) {
            acknowledged = m->delta().sequence();
          } else {
            EXPECT_EQ(CodeOf(*m), wire::ERROR_CODE_SHUTTING_DOWN) << Show(*m);
          }
        }
        if (m->has_server_closing()) break;
      }
      EXPECT_FALSE(decider->Receive().has_value()) << "the close frame, answered";
      // A move that reaches the session after it said goodbye is not read: unanswered, and the
      // client knows from ServerClosing that nothing more will be.
      RecordProperty("answered_round_" + std::to_string(round), answered ? "yes" : "no");
      Client* other = decider == a.get() ? b.get() : a.get();
      EXPECT_TRUE(
          other->ReceiveUntil([](const wire::ServerMessage& m) { return m.has_server_closing(); })
              .has_value());
      EXPECT_FALSE(other->Receive().has_value()) << "the close frame, answered";
      ASSERT_TRUE(server.WaitStopped(std::chrono::seconds(8)));
    }
    TestServer again(config, TestServer::Database::kRemove);
    wire::ServerMessage reply;
    const auto back = ResumedSeat(again, game, kept, 0, &reply);
    ASSERT_TRUE(reply.has_snapshot()) << Show(reply);
    EXPECT_GE(reply.snapshot().sequence(), acknowledged) << "every acknowledged move is in the log";
  }
}

// ---------------------------------------------------------------------------------------------
// Timeouts and bounds of one connection

TEST(NetTimeouts, AnHttpRequestNotSentInTimeIsClosed) {
  ServerConfig config = TestConfig();
  config.handshake_timeout = std::chrono::milliseconds(200);
  TestServer server(config);
  RawClient silent;
  ASSERT_TRUE(silent.ConnectTcp(server.port()));
  silent.ReadUntilClosed(std::chrono::seconds(10));
  EXPECT_TRUE(silent.closed_by_server());
}

TEST(NetTimeouts, AnUpgradedConnectionWithoutHelloIsClosed) {
  ServerConfig config = TestConfig();
  config.handshake_timeout = std::chrono::milliseconds(200);
  TestServer server(config);
  RawClient mute;
  ASSERT_TRUE(mute.Connect(server.port()));
  const ws::ServerOutput out = mute.ReadUntil(
      [](const ws::ServerOutput& o) { return o.close_code.has_value(); }, std::chrono::seconds(10));
  ASSERT_EQ(out.messages.size(), 1u);
  EXPECT_EQ(out.messages[0].error().code(), wire::ERROR_CODE_HELLO_FIRST);
  EXPECT_EQ(out.close_code, std::optional<uint16_t>(1008));
  EXPECT_TRUE(server.WaitForConnections(0));
}

// The server pings after half the idle timeout; a client that answers stays, one that neither
// answers nor sends is dropped.
TEST(NetTimeouts, SilenceIsDroppedAndAClientAnsweringPingsStays) {
  ServerConfig config = TestConfig();
  config.idle_timeout = std::chrono::milliseconds(400);
  TestServer server(config);
  auto answering = RawHello(server.port());
  auto deaf = RawHello(server.port());
  ASSERT_TRUE(server.WaitForConnections(2));
  // Three idle timeouts: the answering one pongs each ping, the deaf one reads nothing.
  answering->AnswerPingsFor(std::chrono::milliseconds(1200));
  EXPECT_FALSE(answering->closed_by_server());
  EXPECT_TRUE(server.WaitForConnections(1)) << "the silent one is gone";
  wire::ClientMessage ping;
  ping.set_request_id(7);
  ping.mutable_ping()->set_nonce(5);
  const auto pong = answering->Request(ping);
  EXPECT_TRUE(pong && pong->has_pong()) << "the answering one is still there";
  deaf->ReadUntilClosed(std::chrono::seconds(5));
  EXPECT_TRUE(deaf->closed_by_server());
}

// Replays are large: a client asking for many and reading none reaches the byte bound long
// before the message bound, and is dropped.
TEST(NetLimits, TheOutboundQueueIsBoundedInBytes) {
  ServerConfig config = TestConfig();
  config.max_outbound_queue = 1 << 20;
  config.max_outbound_bytes = size_t{64} * 1024;
  TestServer server(config);
  auto a = Connected(server);
  auto b = Connected(server);
  const std::string game = SeatedGame({a.get(), b.get()}, 31);
  core::Random random(31);
  ASSERT_NO_FATAL_FAILURE(Play({a.get(), b.get()}, random, 5000));
  ASSERT_TRUE(a->track().over());
  Client hoarder;
  ASSERT_TRUE(hoarder.Connect(server.port(), "", /*receive_buffer=*/4096));
  hoarder.Hello();
  ASSERT_TRUE(server.WaitForConnections(3));
  const wire::ClientMessage replay = msg::GetReplay(game);
  bool dropped = false;
  for (int i = 0; i < 5000 && !dropped; ++i) {
    dropped = hoarder.Send(replay) == 0 || server.Connections() == 2;
  }
  EXPECT_TRUE(dropped || server.WaitForConnections(2))
      << "a client holding more than the byte bound is disconnected";
  EXPECT_TRUE(server.WaitForConnections(2));
}

// ---------------------------------------------------------------------------------------------
// 12. Game lists beyond the lobby, and the tile set (docs/protocol.md section 2.1)

wire::ServerMessage ListFinished(Client& c, uint32_t limit) {
  wire::ClientMessage list;
  list.mutable_list_games()->set_finished(true);
  list.mutable_list_games()->set_limit(limit);
  return c.Request(list);
}

wire::ServerMessage ListOne(Client& c, const std::string& game) {
  wire::ClientMessage list;
  list.mutable_list_games()->set_game_id(game);
  return c.Request(list);
}

std::vector<std::string> Ids(const wire::ServerMessage& list) {
  EXPECT_TRUE(list.has_game_list()) << Show(list);
  std::vector<std::string> ids;
  for (const wire::GameInfo& info : list.game_list().games()) ids.push_back(info.game_id());
  return ids;
}

// A finished 2-seat game as the log has it: both seats taken by their players, nobody online.
void ExpectFinishedFromTheLog(const wire::GameInfo& info) {
  EXPECT_EQ(info.status(), wire::GAME_STATUS_FINISHED) << info.game_id();
  EXPECT_EQ(info.name(), "net test");
  EXPECT_EQ(info.rule_set(), "the-city");
  EXPECT_EQ(info.seats(), 2u);
  ASSERT_EQ(info.seat_size(), 2) << info.game_id();
  for (const wire::SeatInfo& seat : info.seat()) {
    EXPECT_TRUE(seat.taken()) << info.game_id() << " seat " << seat.seat();
    EXPECT_EQ(seat.player_name(), "player") << info.game_id() << " seat " << seat.seat();
    EXPECT_FALSE(seat.online()) << info.game_id() << " seat " << seat.seat();
  }
}

TEST(NetLists, GetTileSetGivesTheServersTilesTheSameEachTime) {
  TestServer server;
  auto c = Connected(server);
  const wire::ClientMessage get = msg::GetTileSet(msg::kCity);
  const wire::ServerMessage reply = c->Request(get);
  ASSERT_TRUE(reply.has_tile_set()) << Show(reply);
  const protocol::tilespb::TileSet& set = reply.tile_set();
  const auto& tiles = *city::DefaultTileSet();
  EXPECT_EQ(set.id(), tiles.id());
  EXPECT_EQ(static_cast<int>(set.version()), tiles.version());
  ASSERT_EQ(set.types_size(), tiles.TypeCount());
  uint32_t total = 0;
  for (const protocol::tilespb::TileType& type : set.types()) {
    EXPECT_EQ(type.first_id(), total) << type.name();
    EXPECT_EQ(type.port_feature_size(), 12) << type.name();
    total += type.count();
  }
  EXPECT_EQ(total, 75u);
  const wire::ServerMessage again = c->Request(get);
  ASSERT_TRUE(again.has_tile_set()) << Show(again);
  EXPECT_NE(again.request_id(), reply.request_id());
  EXPECT_EQ(again.tile_set().SerializeAsString(), set.SerializeAsString());
}

// Each rule set the server hosts has its own tiles; a client draws with what GetTileSet answers
// for the game's rule set (the protocol::Follower of these tests uses the same tiles).
TEST(NetLists, GetTileSetAnswersEachRuleSetsTilesAndRefusesAnUnknownOne) {
  TestServer server;
  auto c = Connected(server);
  const wire::Welcome welcome = c->Hello();
  ASSERT_GE(welcome.rule_sets_size(), 2);
  std::set<std::string> ids;
  for (const wire::RuleSetInfo& info : welcome.rule_sets()) {
    SCOPED_TRACE(info.id());
    const wire::ServerMessage reply = c->Request(msg::GetTileSet(info.id()));
    ASSERT_TRUE(reply.has_tile_set()) << Show(reply);
    const std::shared_ptr<const core::TileSet> tiles = msg::DefaultTiles(info.id());
    ASSERT_NE(tiles, nullptr);
    EXPECT_EQ(reply.tile_set().id(), tiles->id());
    EXPECT_EQ(reply.tile_set().SerializeAsString(), protocol::ToProto(*tiles).SerializeAsString())
        << "the tiles of that rule set";
    const auto decoded = protocol::FromProto(reply.tile_set());
    ASSERT_TRUE(std::holds_alternative<std::shared_ptr<const core::TileSet>>(decoded))
        << std::get<std::string>(decoded);
    EXPECT_EQ(std::get<std::shared_ptr<const core::TileSet>>(decoded)->TileCount(),
              tiles->TileCount());
    ids.insert(reply.tile_set().id());
  }
  EXPECT_EQ(ids.size(), static_cast<size_t>(welcome.rule_sets_size()))
      << "each rule set has a tile set of its own";
  EXPECT_EQ(msg::DefaultTiles("carcassonne")->id(), river::DefaultTileSet()->id());

  for (const char* unknown : {"chess", "", "The-City", "the-city "}) {
    const wire::ServerMessage reply = c->Request(msg::GetTileSet(unknown));
    EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_NO_SUCH_RULE_SET) << "'" << unknown << "'";
    EXPECT_FALSE(reply.error().reason().empty());
  }
  EXPECT_TRUE(c->Request(msg::Ping(1)).has_pong()) << "the connection stays usable";
}

TEST(NetLists, FinishedGamesComeFromTheLogTheNewestFirst) {
  TestServer server;
  auto a = Connected(server);
  auto b = Connected(server);
  std::string first;
  std::string second;
  ASSERT_NO_FATAL_FAILURE(PlayToTheEnd(a.get(), b.get(), 47, &first));
  ASSERT_NO_FATAL_FAILURE(PlayToTheEnd(a.get(), b.get(), 48, &second));
  auto lister = Connected(server);
  const std::string open = lister->Create(3, 49);

  const wire::ServerMessage finished = ListFinished(*lister, 0);
  ASSERT_EQ(Ids(finished), (std::vector<std::string>{second, first}));
  for (const wire::GameInfo& info : finished.game_list().games()) ExpectFinishedFromTheLog(info);
  EXPECT_EQ(Ids(ListFinished(*lister, 1)), (std::vector<std::string>{second}));
  EXPECT_EQ(Ids(ListFinished(*lister, 1000)), (std::vector<std::string>{second, first}))
      << "a limit above the most is lowered, not refused";
  EXPECT_EQ(Ids(ListGames(*lister)), (std::vector<std::string>{open}))
      << "the default list leaves finished games out, though they are still hosted";

  // A finished game still hosted is found by its id, as the lobby has it.
  const wire::ServerMessage one = ListOne(*lister, first);
  ASSERT_EQ(Ids(one), (std::vector<std::string>{first}));
  EXPECT_EQ(one.game_list().games(0).status(), wire::GAME_STATUS_FINISHED);
}

TEST(NetLists, OneGameByItsIdHostedOrFromTheLogOrNone) {
  ServerConfig config = TestConfig();
  config.finished_game_retention = std::chrono::seconds(0);
  TestServer server(config);
  auto a = Connected(server);
  auto b = Connected(server);
  std::string done;
  ASSERT_NO_FATAL_FAILURE(PlayToTheEnd(a.get(), b.get(), 52, &done));
  auto reader = Connected(server);
  ASSERT_TRUE(WaitUntilNotHosted(*reader, done))
      << "a finished game leaves the lobby after its retention time";
  const wire::ServerMessage stored = ListOne(*reader, done);
  ASSERT_EQ(Ids(stored), (std::vector<std::string>{done}));
  ExpectFinishedFromTheLog(stored.game_list().games(0));

  // Hosted games are the lobby's view: who is online, whatever the status.
  const std::string running = SeatedGame({a.get(), b.get()}, 53);
  const wire::ServerMessage live = ListOne(*reader, running);
  ASSERT_EQ(Ids(live), (std::vector<std::string>{running}));
  EXPECT_EQ(live.game_list().games(0).status(), wire::GAME_STATUS_RUNNING);
  for (const wire::SeatInfo& seat : live.game_list().games(0).seat()) EXPECT_TRUE(seat.online());
  const std::string open = reader->Create(2, 54);
  const wire::ServerMessage waiting = ListOne(*reader, open);
  ASSERT_EQ(Ids(waiting), (std::vector<std::string>{open}));
  EXPECT_EQ(waiting.game_list().games(0).status(), wire::GAME_STATUS_OPEN);

  for (const char* none : {"g999", "nonsense", "g", "g0", "g-1", "G1"}) {
    const wire::ServerMessage reply = ListOne(*reader, none);
    EXPECT_TRUE(reply.has_game_list()) << none << ": " << Show(reply);
    EXPECT_EQ(reply.game_list().games_size(), 0) << none;
  }
}

// A log the server cannot read answers lists from it with an error; the hosted games are still
// listed.
TEST(NetLists, AnUnreadableLogAnswersStorageFailed) {
  const ServerConfig config = TestConfig();
  TestServer server(config);
  auto c = Connected(server);
  const std::string open = c->Create(2, 55);
  {
    // Another program takes a table away from under the running server.
    persistence::StoreOptions options;
    options.path = config.db_path;
    options.create = false;
    auto store = persistence::Store::Open(options);
    ASSERT_TRUE(store.ok()) << store.error().message;
    ASSERT_FALSE(store->connection().Exec("ALTER TABLE seats RENAME TO seats_elsewhere"));
  }
  for (const wire::ServerMessage& reply : {ListFinished(*c, 0), ListOne(*c, "g999")}) {
    EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_STORAGE_FAILED) << Show(reply);
    EXPECT_FALSE(reply.error().reason().empty());
  }
  EXPECT_EQ(Ids(ListGames(*c)), (std::vector<std::string>{open}));
  EXPECT_EQ(Ids(ListOne(*c, open)), (std::vector<std::string>{open}));
}

// ---------------------------------------------------------------------------------------------
// Ended games after a restart, idle games, and the open games one client may hold

wire::ClientMessage ResumeRequest(const std::string& game, const std::string& token,
                                  uint64_t last_seen) {
  return msg::Resume(game, token, last_seen);
}

// The game's status in the log, read with a connection of its own.
std::optional<persistence::GameStatus> StatusInTheLog(const std::string& db_path,
                                                      const std::string& game) {
  persistence::StoreOptions options;
  options.path = db_path;
  options.create = false;
  auto store = persistence::Store::Open(options);
  if (!store) return std::nullopt;
  const auto loaded = store->LoadGame(*persistence::ParseGameId(game));
  if (!loaded || !*loaded) return std::nullopt;
  return (*loaded)->game.status;
}

// Sends CreateGame until it is accepted (bounded): housekeeping frees places asynchronously.
std::string CreateOnceThereIsRoom(Client& c, wire::ErrorCode* last_refusal) {
  const auto deadline = std::chrono::steady_clock::now() + kTimeout;
  while (std::chrono::steady_clock::now() < deadline) {
    const wire::ServerMessage reply = c.Request(CreateGame(std::nullopt));
    if (reply.has_game_created()) return reply.game_created().game().game_id();
    *last_refusal = CodeOf(reply);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return "";
}

TEST(NetLog, AFinishedGameIsResumedAndWatchedAfterARestart) {
  const ServerConfig config = TestConfig();
  const DatabaseFiles files{config.db_path};
  auto first = std::make_unique<TestServer>(config, TestServer::Database::kKeep);
  auto a = Connected(*first);
  auto b = Connected(*first);
  std::string game;
  ASSERT_NO_FATAL_FAILURE(PlayToTheEnd(a.get(), b.get(), 50, &game));
  const Client::Track b_kept = b->track();
  const uint64_t end = b_kept.sequence();
  ASSERT_NO_FATAL_FAILURE(StopAndDrain(*first, {a.get(), b.get()}));
  first.reset();

  TestServer second(config, TestServer::Database::kKeep);
  // Seat 1 missed the last two deltas: it gets exactly those from the log.
  Client::Track behind;
  behind.token = b_kept.token;
  behind.seat = b_kept.seat;
  {
    // Its view two deltas before the end, rebuilt from the deltas it had received.
    const city::Game replay = Replay(2, 50, {b_kept.deltas.begin(), b_kept.deltas.end() - 2});
    wire::Snapshot view;
    view.set_game_id(game);
    view.set_sequence(end - 2);
    view.set_rule_set(msg::kCity);
    view.set_state(protocol::ToProto(replay.Public()).SerializeAsString());
    view.set_state_hash(replay.Hash());
    ASSERT_EQ(behind.follower.Start(view, msg::DefaultTiles(msg::kCity)), std::nullopt);
  }
  auto seat = Connected(second);
  seat->Adopt(game, behind);
  const wire::ServerMessage resumed = seat->Request(ResumeRequest(game, b_kept.token, end - 2));
  ASSERT_TRUE(resumed.has_delta()) << Show(resumed);
  EXPECT_EQ(DeltaSequencesSince(*seat, 0), (std::vector<uint64_t>{end - 1, end}));
  EXPECT_TRUE(seat->track().state() == b_kept.state()) << "at the final state";
  // From nothing, the final snapshot.
  auto other = Connected(second);
  const wire::ServerMessage snapshot = other->Request(ResumeRequest(game, a->track().token, 0));
  ASSERT_TRUE(snapshot.has_snapshot()) << Show(snapshot);
  EXPECT_EQ(snapshot.snapshot().sequence(), end);
  EXPECT_EQ(snapshot.snapshot().your_seat(), 0u);
  EXPECT_EQ(snapshot.snapshot().state_hash(), b_kept.state().Hash());
  // A spectator gets the final snapshot; a wrong token gets what a hosted game gives.
  auto watcher = Connected(second);
  const wire::ServerMessage watched = watcher->Spectate(game);
  ASSERT_TRUE(watched.has_snapshot()) << Show(watched);
  EXPECT_FALSE(watched.snapshot().has_your_seat());
  EXPECT_EQ(watched.snapshot().state_hash(), b_kept.state().Hash());
  EXPECT_EQ(CodeOf(watcher->Request(ResumeRequest(game, std::string(16, 'x'), 0))),
            wire::ERROR_CODE_BAD_TOKEN);
  EXPECT_EQ(CodeOf(watcher->Spectate("g999")), wire::ERROR_CODE_NO_SUCH_GAME);
}

// After a restart, a player who resumed the finished game is offered the rematch the other
// player asks for, as before the restart (docs/protocol.md, section 12).
TEST(NetLog, ASeatThatResumedAFinishedGameAfterARestartIsOfferedTheRematch) {
  const ServerConfig config = TestConfig();
  const DatabaseFiles files{config.db_path};
  auto first = std::make_unique<TestServer>(config, TestServer::Database::kKeep);
  auto a = Connected(*first);
  auto b = Connected(*first);
  std::string game;
  ASSERT_NO_FATAL_FAILURE(PlayToTheEnd(a.get(), b.get(), 54, &game));
  const std::string a_token = a->track().token;
  const std::string b_token = b->track().token;
  ASSERT_NO_FATAL_FAILURE(StopAndDrain(*first, {a.get(), b.get()}));
  first.reset();

  TestServer second(config, TestServer::Database::kKeep);
  auto back_b = Connected(second);
  const wire::ServerMessage resumed = back_b->Request(ResumeRequest(game, b_token, 0));
  ASSERT_TRUE(resumed.has_snapshot()) << Show(resumed);
  auto back_a = Connected(second);
  wire::ClientMessage ask;
  ask.mutable_rematch()->set_game_id(game);
  ask.mutable_rematch()->set_seat_token(a_token);
  const wire::ServerMessage joined = back_a->Request(ask);
  ASSERT_TRUE(joined.has_seat_joined()) << Show(joined);
  const std::string rematch = joined.seat_joined().game().game_id();

  const auto offer =
      back_b->ReceiveUntil([](const wire::ServerMessage& m) { return m.has_rematch_offered(); });
  ASSERT_TRUE(offer.has_value()) << "the seat that resumed is offered the rematch";
  EXPECT_EQ(offer->rematch_offered().game_id(), game);
  EXPECT_EQ(offer->rematch_offered().game().game_id(), rematch);
  EXPECT_EQ(offer->rematch_offered().seat(), 1u);
}

// Finished games are held for their retention time, but never more than --max-finished-games
// at once: the oldest leave first, and their players still find them (hosted again from the log).
TEST(NetLimits, AtMostMaxFinishedGamesAreHeldAndTheOldestLeaveFirst) {
  ServerConfig config = TestConfig();
  config.max_finished_games = 1;
  TestServer server(config);
  auto a = Connected(server);
  auto b = Connected(server);
  std::string first;
  ASSERT_NO_FATAL_FAILURE(PlayToTheEnd(a.get(), b.get(), 55, &first));
  const std::string first_token = a->track().token;
  const uint64_t first_end = a->track().sequence();
  auto c = Connected(server);
  auto d = Connected(server);
  std::string second;
  ASSERT_NO_FATAL_FAILURE(PlayToTheEnd(c.get(), d.get(), 56, &second));

  const std::string finished = R"(carc_games{status="finished"})";
  const std::string scrape = ScrapeWhen(server.port(), finished, 1);
  EXPECT_EQ(SampleValue(scrape, finished), 1) << "one finished game held:\n" << scrape;
  // The first game's player comes back to it: it is hosted again, at its end.
  auto back = Connected(server);
  const wire::ServerMessage resumed = back->Request(ResumeRequest(first, first_token, 0));
  ASSERT_TRUE(resumed.has_snapshot()) << Show(resumed);
  EXPECT_EQ(resumed.snapshot().sequence(), first_end);
}

TEST(NetLimits, ACreatorMayHoldOnlySoManyGamesWaitingForPlayers) {
  ServerConfig config = TestConfig();
  config.max_open_games_per_connection = 3;
  config.max_open_games_per_address = 5;
  TestServer server(config);
  auto a = Connected(server);
  std::vector<std::string> games;
  games.reserve(3);
  for (int i = 0; i < 3; ++i) games.push_back(a->Create(2, 60 + static_cast<uint64_t>(i)));
  const wire::ServerMessage refused = a->Request(CreateGame(70));
  EXPECT_EQ(CodeOf(refused), wire::ERROR_CODE_TOO_MANY_OPEN_GAMES) << Show(refused);
  EXPECT_EQ(HostedGames(*a), 3) << "nothing was created";

  // Another connection from the same address may hold the rest of the address's five.
  auto b = Connected(server);
  EXPECT_FALSE(b->Create(2, 71).empty());
  EXPECT_FALSE(b->Create(2, 72).empty());
  EXPECT_EQ(CodeOf(b->Request(CreateGame(73))), wire::ERROR_CODE_TOO_MANY_OPEN_GAMES)
      << "the address holds five";

  // A game that starts no longer counts: its creator may create another.
  ASSERT_TRUE(a->Join(games[0], 0).has_seat_joined());
  ASSERT_TRUE(b->Join(games[0], 1).has_seat_joined());
  wire::ErrorCode refusal =
      wire::ERROR_CODE_UNSPECIFIED;  // the lobby hears of the start just after
  EXPECT_FALSE(CreateOnceThereIsRoom(*a, &refusal).empty()) << wire::ErrorCode_Name(refusal);
  // A connection that leaves takes its count with it (the address keeps the games' count).
  a->Drop();
  ASSERT_TRUE(server.WaitForConnections(1));
  auto c = Connected(server);
  EXPECT_EQ(CodeOf(c->Request(CreateGame(75))), wire::ERROR_CODE_TOO_MANY_OPEN_GAMES)
      << "the address still holds five open games";
}

TEST(NetLimits, AnIdleGameIsAbandonedItsSeatToldAndItsPlaceFreed) {
  ServerConfig config = TestConfig();
  config.max_games = 1;
  config.open_game_timeout = std::chrono::milliseconds(300);
  config.finished_game_retention = std::chrono::seconds(0);
  TestServer server(config);
  auto a = Connected(server);
  const std::string game = a->Create(2, 80);
  ASSERT_TRUE(a->Join(game, 0).has_seat_joined());
  EXPECT_EQ(CodeOf(a->Request(CreateGame(81))), wire::ERROR_CODE_SERVER_FULL);

  const auto told = a->ReceiveUntil([](const wire::ServerMessage& m) {
    return m.has_lobby_update() && m.lobby_update().game().status() == wire::GAME_STATUS_ABANDONED;
  });
  ASSERT_TRUE(told.has_value()) << "the seat is told the game was abandoned";
  EXPECT_EQ(told->lobby_update().game().game_id(), game);
  EXPECT_EQ(StatusInTheLog(config.db_path, game), persistence::GameStatus::kAbandoned)
      << "the log says so";
  wire::ErrorCode refusal = wire::ERROR_CODE_UNSPECIFIED;
  EXPECT_FALSE(CreateOnceThereIsRoom(*a, &refusal).empty())
      << "the abandoned game no longer fills the server: " << wire::ErrorCode_Name(refusal);
  const wire::ServerMessage one = ListOne(*a, game);
  ASSERT_EQ(one.game_list().games_size(), 1) << Show(one);
  EXPECT_EQ(one.game_list().games(0).status(), wire::GAME_STATUS_ABANDONED);
  // Its seat may still look at it.
  const wire::ServerMessage resumed = a->Request(ResumeRequest(game, a->track().token, 0));
  ASSERT_TRUE(resumed.has_lobby_update()) << Show(resumed);
  EXPECT_EQ(resumed.lobby_update().game().status(), wire::GAME_STATUS_ABANDONED);
}

TEST(NetLog, GamesIdleForTooLongAreAbandonedAfterARestart) {
  ServerConfig config = TestConfig();
  const DatabaseFiles files{config.db_path};
  config.max_games = 2;
  std::string open;
  std::string running;
  {
    TestServer first(config, TestServer::Database::kKeep);
    auto a = Connected(first);
    auto b = Connected(first);
    running = SeatedGame({a.get(), b.get()}, 90);
    open = a->Create(3, 91);
    EXPECT_EQ(CodeOf(a->Request(CreateGame(92))), wire::ERROR_CODE_SERVER_FULL);
    ASSERT_NO_FATAL_FAILURE(StopAndDrain(first, {a.get(), b.get()}));
  }
  // Both games' last activity is now older than the second server's timeouts.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  config.open_game_timeout = std::chrono::milliseconds(50);
  config.running_game_timeout = std::chrono::milliseconds(50);
  TestServer second(config, TestServer::Database::kKeep);
  auto c = Connected(second);
  wire::ErrorCode refusal = wire::ERROR_CODE_UNSPECIFIED;
  EXPECT_FALSE(CreateOnceThereIsRoom(*c, &refusal).empty())
      << "the stale games were abandoned: " << wire::ErrorCode_Name(refusal);
  for (const std::string& game : {open, running}) {
    const auto deadline = std::chrono::steady_clock::now() + kTimeout;
    while (StatusInTheLog(config.db_path, game) != persistence::GameStatus::kAbandoned &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    EXPECT_EQ(StatusInTheLog(config.db_path, game), persistence::GameStatus::kAbandoned) << game;
  }
}

// ---------------------------------------------------------------------------------------------
// 13. Client text (docs/protocol.md section 2.7) and pages of game lists

// Everything the server logs while it lives, through a sink added to the default logger before
// the server starts and removed after it has gone.
class LogCapture {
 public:
  LogCapture() : sink_(std::make_shared<spdlog::sinks::ostream_sink_mt>(text_)) {
    sink_->set_pattern("%v");
    spdlog::default_logger()->sinks().push_back(sink_);
  }
  LogCapture(const LogCapture&) = delete;
  LogCapture& operator=(const LogCapture&) = delete;
  ~LogCapture() {
    auto& sinks = spdlog::default_logger()->sinks();
    sinks.erase(std::remove(sinks.begin(), sinks.end(), sink_), sinks.end());
  }
  std::string Text() {
    sink_->flush();
    return text_.str();
  }

 private:
  std::ostringstream text_;
  std::shared_ptr<spdlog::sinks::ostream_sink_mt> sink_;
};

wire::ClientMessage JoinAs(const std::string& game, const std::string& name) {
  return msg::JoinSeat(game, std::nullopt, name);
}

wire::ClientMessage NamedGame(const std::string& name) {
  return msg::CreateGame(msg::kCity, 2, std::nullopt, name);
}

TEST(NetText, AHugePlayerNameIsRefusedAndNobodyJoins) {
  TestServer server;
  auto c = Connected(server);
  const std::string game = c->Create(2, 60);
  const wire::ServerMessage reply = c->Request(JoinAs(game, std::string(60000, 'a')));
  EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_BAD_TEXT) << Show(reply);
  EXPECT_EQ(reply.error().reason(), "join_seat.player_name: at most 64 bytes, not 60000");
  const wire::ServerMessage listed = ListOne(*c, game);
  ASSERT_EQ(Ids(listed), (std::vector<std::string>{game}));
  for (const wire::SeatInfo& seat : listed.game_list().games(0).seat()) {
    EXPECT_FALSE(seat.taken()) << "seat " << seat.seat();
  }
  EXPECT_EQ(CodeOf(c->Request(JoinAs(game, std::string(65, 'a')))), wire::ERROR_CODE_BAD_TEXT);
  EXPECT_TRUE(c->Request(JoinAs(game, std::string(64, 'a'))).has_seat_joined())
      << "64 bytes is a name";
}

TEST(NetText, ControlCharactersAreRefusedAndNeverReachTheLogRaw) {
  LogCapture log;
  {
    TestServer server;
    spdlog::set_level(spdlog::level::info);
    auto c = Connected(server);
    const std::string forged = "x\n2020-01-01T00:00:00.000 info game g9 created\x1b[2J\0!"s;
    wire::ServerMessage reply = c->Request(NamedGame(forged));
    EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_BAD_TEXT) << Show(reply);
    EXPECT_EQ(reply.error().reason().find('\n'), std::string::npos) << "the reason echoes nothing";
    EXPECT_NE(reply.error().reason().find("create_game.name"), std::string::npos);
    reply = c->Request(JoinAs("g1", "bell\a"));
    EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_BAD_TEXT) << Show(reply);
    EXPECT_TRUE(Ids(ListGames(*c)).empty()) << "nothing was created";
    // Quotes and backslashes are text: accepted, and escaped in the log.
    reply = c->Request(NamedGame("it's \\n not a newline"));
    ASSERT_TRUE(reply.has_game_created()) << Show(reply);
    EXPECT_EQ(reply.game_created().game().name(), "it's \\n not a newline");
  }  // the server has gone: every line it logs is in (its "created" line follows the reply)
  spdlog::set_level(spdlog::level::warn);
  const std::string text = log.Text();
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
  EXPECT_EQ(text.find('\0'), std::string::npos) << text;
  EXPECT_EQ(text.find('\a'), std::string::npos) << text;
  EXPECT_EQ(text.find("\n2020-01-01"), std::string::npos) << "a forged line: " << text;
  EXPECT_NE(text.find("refused create_game.name 'x\\n2020-01-01T00:00:00.000 info game"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("name 'it\\'s \\\\n not a newline'"), std::string::npos) << text;
}

TEST(NetText, InvalidUtf8IsRefusedWithTheRequestsId) {
  TestServer server;
  auto c = Connected(server);
  const std::string game = c->Create(2, 61);
  // Written by hand: a protobuf library refuses to build this message.
  wire::ClientMessage m = JoinAs(game, "ok");
  m.set_request_id(99);
  std::string frame = m.SerializeAsString();
  const size_t at = frame.rfind("ok");
  ASSERT_NE(at, std::string::npos);
  frame[at + 1] = '\xff';
  ASSERT_TRUE(c->WriteBytes(frame));
  const auto reply = c->Receive();
  ASSERT_TRUE(reply.has_value()) << c->error().message();
  EXPECT_EQ(CodeOf(*reply), wire::ERROR_CODE_BAD_TEXT) << Show(*reply);
  EXPECT_EQ(reply->request_id(), 99u);
  EXPECT_EQ(reply->error().reason(), "join_seat.player_name: not valid UTF-8 (at byte 1)");
  const wire::ServerMessage listed = ListOne(*c, game);
  ASSERT_EQ(Ids(listed), (std::vector<std::string>{game}));
  EXPECT_FALSE(listed.game_list().games(0).seat(0).taken());
}

// CreateGame's option names are client text too: a bad one is refused before the lobby sees
// it, whether it parses (a control character) or not (invalid UTF-8).
TEST(NetText, AnOptionNameThatIsNoTextIsRefusedAndNothingCreated) {
  TestServer server;
  auto c = Connected(server);
  wire::ServerMessage reply =
      c->Request(msg::CreateGame("carcassonne", 2, std::nullopt, "", {{"riv\ner", 1}}));
  EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_BAD_TEXT) << Show(reply);
  EXPECT_NE(reply.error().reason().find("create_game.options"), std::string::npos) << Show(reply);
  reply =
      c->Request(msg::CreateGame("carcassonne", 2, std::nullopt, "", {{std::string(33, 'r'), 1}}));
  EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_BAD_TEXT) << Show(reply);

  wire::ClientMessage m = msg::CreateGame("carcassonne", 2, std::nullopt, "", {{"rivXr", 1}});
  m.set_request_id(98);
  std::string frame = m.SerializeAsString();
  const size_t at = frame.find("rivXr");
  ASSERT_NE(at, std::string::npos);
  frame[at + 3] = '\xff';
  ASSERT_TRUE(c->WriteBytes(frame));
  const auto refused = c->Receive();
  ASSERT_TRUE(refused.has_value()) << c->error().message();
  EXPECT_EQ(CodeOf(*refused), wire::ERROR_CODE_BAD_TEXT) << Show(*refused);
  EXPECT_EQ(refused->request_id(), 98u);
  EXPECT_NE(refused->error().reason().find("not valid UTF-8"), std::string::npos) << Show(*refused);
  EXPECT_TRUE(Ids(ListGames(*c)).empty()) << "nothing was created";
}

wire::ServerMessage ListPage(Client& c, uint32_t limit, const std::string& after,
                             bool finished = false) {
  wire::ClientMessage list;
  list.mutable_list_games()->set_limit(limit);
  list.mutable_list_games()->set_after(after);
  list.mutable_list_games()->set_finished(finished);
  return c.Request(list);
}

// Follows next_page from the first page to the last; every page at most `limit` games.
std::vector<std::string> WalkPages(Client& c, uint32_t limit, bool finished = false) {
  std::vector<std::string> ids;
  std::string after;
  for (int pages = 0; pages < 1000; ++pages) {
    const wire::ServerMessage page = ListPage(c, limit, after, finished);
    const uint32_t most = limit == 0 ? 50 : std::min(limit, 200u);
    EXPECT_LE(page.game_list().games_size(), static_cast<int>(most)) << after;
    for (const std::string& id : Ids(page)) ids.push_back(id);
    after = page.game_list().next_page();
    if (after.empty()) return ids;
  }
  ADD_FAILURE() << "next_page never ended";
  return ids;
}

TEST(NetLists, HostedGamesComeInPagesThatWalkEveryGameOnce) {
  TestServer server;
  auto a = Connected(server);
  auto b = Connected(server);
  std::string finished;
  ASSERT_NO_FATAL_FAILURE(PlayToTheEnd(a.get(), b.get(), 62, &finished));  // still hosted
  auto c = Connected(server);
  std::vector<std::string> open;
  open.reserve(250);
  for (int i = 0; i < 250; ++i) open.push_back(c->Create(2, 63));
  ASSERT_EQ(open.back(), "g251");

  const wire::ServerMessage first = ListGames(*c);
  EXPECT_EQ(first.game_list().games_size(), 50) << "the default page";
  EXPECT_EQ(first.game_list().next_page(), open[49]);
  const wire::ServerMessage most = ListPage(*c, 1000, "");
  EXPECT_EQ(most.game_list().games_size(), 200) << "a limit above 200 is lowered";
  EXPECT_EQ(most.game_list().next_page(), open[199]);

  for (const uint32_t limit : {0u, 1u, 37u, 50u, 120u, 250u, 1000u}) {
    EXPECT_EQ(WalkPages(*c, limit), open)
        << "limit " << limit << ": every open game once, by number, the finished one left out";
  }
  const wire::ServerMessage last = ListPage(*c, 10, open[245]);
  EXPECT_EQ(Ids(last), (std::vector<std::string>(open.begin() + 246, open.end())));
  EXPECT_TRUE(last.game_list().next_page().empty());
  EXPECT_EQ(Ids(ListPage(*c, 10, "g1")).front(), open.front()) << "after a finished game";
  EXPECT_EQ(CodeOf(ListPage(*c, 10, "nonsense")), wire::ERROR_CODE_MALFORMED_MESSAGE);
}

TEST(NetLists, FinishedGamesComeInPagesTheNewestFirst) {
  TestServer server;
  auto a = Connected(server);
  auto b = Connected(server);
  std::vector<std::string> games(3);
  for (size_t i = 0; i < games.size(); ++i) {
    ASSERT_NO_FATAL_FAILURE(PlayToTheEnd(a.get(), b.get(), 64 + i, &games[i]));
  }
  const std::vector<std::string> newest_first(games.rbegin(), games.rend());
  for (const uint32_t limit : {1u, 2u, 3u, 50u}) {
    EXPECT_EQ(WalkPages(*a, limit, /*finished=*/true), newest_first) << "limit " << limit;
  }
  const wire::ServerMessage one = ListPage(*a, 1, "", /*finished=*/true);
  EXPECT_EQ(one.game_list().next_page(), newest_first[0]);
  EXPECT_TRUE(ListPage(*a, 3, "", true).game_list().next_page().empty()) << "exactly one page";
  EXPECT_TRUE(Ids(ListPage(*a, 3, "g999", true)).empty()) << "after a game not in the list";
}

// ---------------------------------------------------------------------------------------------
// 14. A second game on the same server: Carcassonne with the River

constexpr const char* kCarcassonne = "carcassonne";

// The engine alone playing the River game of `seed` with the actions of `deltas` (the server's
// draws included) through Carcassonne's codec, checking the server's hash after each; the final
// State.
std::unique_ptr<core::State> ReplayCarcassonne(int players, uint64_t seed,
                                               const std::vector<wire::Delta>& deltas) {
  const core::RuleSet* rules = msg::DefaultRegistry().Find(kCarcassonne);
  EXPECT_NE(rules, nullptr);
  if (rules == nullptr) return nullptr;
  auto made = rules->NewGame(players, {{"river", 1}}, seed);
  EXPECT_TRUE(std::holds_alternative<std::unique_ptr<core::State>>(made));
  auto state = std::get<std::unique_ptr<core::State>>(std::move(made));
  const protocol::GameCodec& codec = *protocol::FindGameCodec(kCarcassonne);
  for (const wire::Delta& d : deltas) {
    const auto applied = codec.ApplyEncoded(*state, state->CurrentActor(), d.action());
    EXPECT_TRUE(std::holds_alternative<std::string>(applied)) << "delta " << d.sequence();
    if (!std::holds_alternative<std::string>(applied)) break;
    EXPECT_EQ(state->Hash(), d.state_hash()) << "delta " << d.sequence();
  }
  return state;
}

// The River's public state behind a client's view of a game.
const river::PublicState& RiverState(const Client::Track& t) {
  const river::PublicState* state = protocol::RiverStateOf(t.follower.view());
  EXPECT_NE(state, nullptr) << "a game of Carcassonne";
  static const river::PublicState kNone;
  return state != nullptr ? *state : kNone;
}

// Created with its rule set and option, played by two seats with a watcher arriving mid-game, a
// seat that drops and resumes with what it missed, a restart of the server in the middle, then
// played to the end and replayed: everything The City's games get, with nothing in the transport,
// the room or the log knowing which game it carries.
TEST(NetRiver, AGameOfCarcassonneIsCreatedPlayedResumedWatchedAndReplayed) {
  const ServerConfig config = TestConfig();
  const DatabaseFiles files{config.db_path};
  constexpr uint64_t kSeed = 2012;
  auto first = std::make_unique<TestServer>(config, TestServer::Database::kKeep);
  auto a = Connected(*first);
  auto b = Connected(*first);
  const wire::ServerMessage created =
      a->Request(msg::CreateGame(kCarcassonne, 2, kSeed, "river", {{"river", 1}}));
  ASSERT_TRUE(created.has_game_created()) << Show(created);
  const wire::GameInfo& info = created.game_created().game();
  EXPECT_EQ(info.rule_set(), kCarcassonne);
  EXPECT_EQ(info.rule_set_version(), 1u);
  EXPECT_EQ(info.options().at("river"), 1);
  const std::string game = info.game_id();
  ASSERT_TRUE(a->Join(game, 0).has_seat_joined());
  ASSERT_TRUE(b->Join(game).has_seat_joined());
  for (Client* c : {a.get(), b.get()}) ASSERT_TRUE(c->SyncPast(0));
  EXPECT_EQ(a->track().follower.rule_set(), kCarcassonne);
  ASSERT_EQ(RiverState(a->track()).tiles.size(), 1u) << "the spring lies at (0, 0)";
  EXPECT_TRUE(RiverState(a->track()).config.river);

  core::Random random(kSeed);
  ASSERT_NO_FATAL_FAILURE(Play({a.get(), b.get()}, random, 30));
  auto watcher = Connected(*first);
  const wire::ServerMessage view = watcher->Spectate(game);
  ASSERT_TRUE(view.has_snapshot()) << Show(view);
  EXPECT_EQ(view.snapshot().rule_set(), kCarcassonne);
  // Seat 1 drops when seat 0 must decide; seat 0 plays on until seat 1 must.
  ASSERT_NO_FATAL_FAILURE(Play({a.get(), b.get(), watcher.get()}, random, 100,
                               [](const Client::Track& t) { return t.actor() == 0; }));
  const uint64_t b_seen = b->track().sequence();
  const Client::Track b_kept = b->track();
  b->Drop();
  ASSERT_NO_FATAL_FAILURE(Play({a.get(), watcher.get()}, random, 100,
                               [](const Client::Track& t) { return t.actor() == 1; }));
  const uint64_t now = a->track().sequence();
  ASSERT_GT(now, b_seen);
  const Client::Track a_kept = a->track();

  // The server stops and starts again on the same log.
  ASSERT_NO_FATAL_FAILURE(StopAndDrain(*first, {a.get(), watcher.get()}));
  first.reset();
  TestServer second(config, TestServer::Database::kKeep);
  wire::ServerMessage reply;
  auto b2 = ResumedSeat(second, game, b_kept, b_seen, &reply);
  ASSERT_TRUE(reply.has_delta()) << "the last missed delta answers the Resume: " << Show(reply);
  ASSERT_EQ(DeltaSequencesSince(*b2, 0).size(), now - b_seen) << "exactly the missed deltas";
  EXPECT_FALSE(b2->track().legal().empty()) << "seat 1 decides: its legal actions came along";
  auto a2 = ResumedSeat(second, game, a_kept, 0, &reply);
  ASSERT_TRUE(reply.has_snapshot()) << Show(reply);
  EXPECT_EQ(reply.snapshot().rule_set(), kCarcassonne);
  EXPECT_EQ(a2->track().follower.hash(), b2->track().follower.hash());

  ASSERT_NO_FATAL_FAILURE(Play({a2.get(), b2.get()}, random, 5000));
  ASSERT_TRUE(a2->track().over()) << "the game ends within 5000 decisions";
  // Seat 1's view kept every delta: those before its drop, the missed ones, the rest.
  ASSERT_EQ(b2->track().deltas.size(), b2->track().sequence());
  const std::unique_ptr<core::State> engine = ReplayCarcassonne(2, kSeed, b2->track().deltas);
  ASSERT_NE(engine, nullptr);
  EXPECT_TRUE(engine->IsOver());
  EXPECT_EQ(engine->Hash(), a2->track().follower.hash());
  EXPECT_EQ(a2->track().follower.view().Scores(), engine->Scores());
  EXPECT_TRUE(RiverState(a2->track()) == river::GameOf(*engine)->Public());

  // The finished game's replay: every step checked by a follower, ending where the players did.
  const wire::ServerMessage replayed = a2->Request(msg::GetReplay(game));
  ASSERT_TRUE(replayed.has_replay()) << Show(replayed);
  EXPECT_EQ(replayed.replay().game().rule_set(), kCarcassonne);
  EXPECT_EQ(replayed.replay().game().status(), wire::GAME_STATUS_FINISHED);
  protocol::Follower follower;
  ASSERT_EQ(follower.Start(replayed.replay().start(), msg::DefaultTiles(kCarcassonne)),
            std::nullopt);
  for (const wire::Delta& step : replayed.replay().steps()) {
    ASSERT_EQ(follower.Apply(step), std::nullopt);
  }
  EXPECT_EQ(follower.sequence(), a2->track().sequence());
  EXPECT_EQ(follower.hash(), engine->Hash());
}

// ---------------------------------------------------------------------------------------------
// 15. A third game: Carcassonne: The Castle

constexpr const char* kTheCastle = "the-castle";

// The engine alone playing The Castle's game of `seed` with the actions of `deltas` (the
// server's draws included) through its codec, checking the server's hash after each; the final
// State.
std::unique_ptr<core::State> ReplayCastle(uint64_t seed, const std::vector<wire::Delta>& deltas) {
  const core::RuleSet* rules = msg::DefaultRegistry().Find(kTheCastle);
  EXPECT_NE(rules, nullptr);
  if (rules == nullptr) return nullptr;
  auto made = rules->NewGame(2, {}, seed);
  EXPECT_TRUE(std::holds_alternative<std::unique_ptr<core::State>>(made));
  auto state = std::get<std::unique_ptr<core::State>>(std::move(made));
  const protocol::GameCodec& codec = *protocol::FindGameCodec(kTheCastle);
  for (const wire::Delta& d : deltas) {
    const auto applied = codec.ApplyEncoded(*state, state->CurrentActor(), d.action());
    EXPECT_TRUE(std::holds_alternative<std::string>(applied)) << "delta " << d.sequence();
    if (!std::holds_alternative<std::string>(applied)) break;
    EXPECT_EQ(state->Hash(), d.state_hash()) << "delta " << d.sequence();
  }
  return state;
}

// The Castle's public state behind a client's view of a game.
const castle::PublicState& CastleState(const Client::Track& t) {
  const castle::PublicState* state = protocol::CastleStateOf(t.follower.view());
  EXPECT_NE(state, nullptr) << "a game of The Castle";
  static const castle::PublicState kNone;
  return state != nullptr ? *state : kNone;
}

// As the River's game: created, played by two seats with a watcher arriving mid-game, a seat
// that drops and resumes with what it missed across a restart of the server, played to the end
// and replayed; the snapshot brings the castle's board along.
TEST(NetCastle, AGameOfTheCastleIsCreatedPlayedResumedWatchedAndReplayed) {
  const ServerConfig config = TestConfig();
  const DatabaseFiles files{config.db_path};
  constexpr uint64_t kSeed = 2003;
  auto first = std::make_unique<TestServer>(config, TestServer::Database::kKeep);
  auto a = Connected(*first);
  auto b = Connected(*first);
  const wire::ServerMessage created = a->Request(msg::CreateGame(kTheCastle, 2, kSeed, "castle"));
  ASSERT_TRUE(created.has_game_created()) << Show(created);
  const wire::GameInfo& info = created.game_created().game();
  EXPECT_EQ(info.rule_set(), kTheCastle);
  EXPECT_EQ(info.rule_set_version(), 1u);
  EXPECT_TRUE(info.options().empty());
  const std::string game = info.game_id();
  ASSERT_TRUE(a->Join(game, 0).has_seat_joined());
  ASSERT_TRUE(b->Join(game).has_seat_joined());
  for (Client* c : {a.get(), b.get()}) ASSERT_TRUE(c->SyncPast(0));
  EXPECT_EQ(a->track().follower.rule_set(), kTheCastle);
  EXPECT_EQ(CastleState(a->track()).tiles.size(), 7u) << "the start spaces lie on the wall";
  const protocol::castle_wire::Board* board = protocol::CastleBoardOf(a->track().follower.view());
  ASSERT_NE(board, nullptr);
  EXPECT_EQ(board->squares.size(), 76u);
  EXPECT_EQ(board->wall.size(), 50u);
  EXPECT_EQ(board->start_spaces, 7);

  core::Random random(kSeed);
  ASSERT_NO_FATAL_FAILURE(Play({a.get(), b.get()}, random, 30));
  auto watcher = Connected(*first);
  const wire::ServerMessage view = watcher->Spectate(game);
  ASSERT_TRUE(view.has_snapshot()) << Show(view);
  EXPECT_EQ(view.snapshot().rule_set(), kTheCastle);
  // Seat 1 drops when seat 0 must decide; seat 0 plays on until seat 1 must.
  ASSERT_NO_FATAL_FAILURE(Play({a.get(), b.get(), watcher.get()}, random, 100,
                               [](const Client::Track& t) { return t.actor() == 0; }));
  const uint64_t b_seen = b->track().sequence();
  const Client::Track b_kept = b->track();
  b->Drop();
  ASSERT_NO_FATAL_FAILURE(Play({a.get(), watcher.get()}, random, 100,
                               [](const Client::Track& t) { return t.actor() == 1; }));
  const uint64_t now = a->track().sequence();
  ASSERT_GT(now, b_seen);
  const Client::Track a_kept = a->track();

  // The server stops and starts again on the same log.
  ASSERT_NO_FATAL_FAILURE(StopAndDrain(*first, {a.get(), watcher.get()}));
  first.reset();
  TestServer second(config, TestServer::Database::kKeep);
  wire::ServerMessage reply;
  auto b2 = ResumedSeat(second, game, b_kept, b_seen, &reply);
  ASSERT_TRUE(reply.has_delta()) << "the last missed delta answers the Resume: " << Show(reply);
  ASSERT_EQ(DeltaSequencesSince(*b2, 0).size(), now - b_seen) << "exactly the missed deltas";
  EXPECT_FALSE(b2->track().legal().empty()) << "seat 1 decides: its legal actions came along";
  auto a2 = ResumedSeat(second, game, a_kept, 0, &reply);
  ASSERT_TRUE(reply.has_snapshot()) << Show(reply);
  EXPECT_EQ(reply.snapshot().rule_set(), kTheCastle);
  EXPECT_EQ(a2->track().follower.hash(), b2->track().follower.hash());

  ASSERT_NO_FATAL_FAILURE(Play({a2.get(), b2.get()}, random, 5000));
  ASSERT_TRUE(a2->track().over()) << "the game ends within 5000 decisions";
  ASSERT_EQ(b2->track().deltas.size(), b2->track().sequence());
  const std::unique_ptr<core::State> engine = ReplayCastle(kSeed, b2->track().deltas);
  ASSERT_NE(engine, nullptr);
  EXPECT_TRUE(engine->IsOver());
  EXPECT_EQ(engine->Hash(), a2->track().follower.hash());
  EXPECT_EQ(a2->track().follower.view().Scores(), engine->Scores());
  castle::PublicState expected = castle::GameOf(*engine)->Public();
  expected.config.layout = nullptr;  // a client has the board instead
  EXPECT_TRUE(CastleState(a2->track()) == expected);

  // The finished game's replay: every step checked by a follower, ending where the players did.
  const wire::ServerMessage replayed = a2->Request(msg::GetReplay(game));
  ASSERT_TRUE(replayed.has_replay()) << Show(replayed);
  EXPECT_EQ(replayed.replay().game().rule_set(), kTheCastle);
  EXPECT_EQ(replayed.replay().game().status(), wire::GAME_STATUS_FINISHED);
  protocol::Follower follower;
  ASSERT_EQ(follower.Start(replayed.replay().start(), msg::DefaultTiles(kTheCastle)), std::nullopt);
  for (const wire::Delta& step : replayed.replay().steps()) {
    ASSERT_EQ(follower.Apply(step), std::nullopt);
  }
  EXPECT_EQ(follower.sequence(), a2->track().sequence());
  EXPECT_EQ(follower.hash(), engine->Hash());
}

}  // namespace
}  // namespace carc::server

namespace carc::server {
namespace {

// ---------------------------------------------------------------------------------------------
// Bots in seats, resigning and rematches, over the sockets

wire::ClientMessage CreateWithBots(uint32_t seats,
                                   const std::vector<std::pair<uint32_t, std::string>>& bots,
                                   wire::ResignPolicy on_resign = wire::RESIGN_POLICY_UNSPECIFIED) {
  wire::ClientMessage m = msg::CreateGame(msg::kCity, seats, 9, "bots");
  for (const auto& [seat, level] : bots) {
    wire::BotSeat* bot = m.mutable_create_game()->add_bots();
    bot->set_seat(seat);
    bot->set_level(level);
  }
  m.mutable_create_game()->set_on_resign(on_resign);
  return m;
}

TEST(NetBots, ACreateGameWithBadBotsOrPolicyCreatesNothing) {
  TestServer server;
  auto c = Connected(server);
  for (const auto& bots :
       std::vector<std::vector<std::pair<uint32_t, std::string>>>{{{2, "greedy"}},
                                                                  {{1, "greedy"}, {1, "random"}},
                                                                  {{1, "clever"}},
                                                                  {{0, "random"}, {1, "strong"}}}) {
    const wire::ServerMessage reply = c->Request(CreateWithBots(2, bots));
    EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_BAD_BOTS) << Show(reply);
  }
  const wire::ServerMessage policy =
      c->Request(CreateWithBots(2, {}, static_cast<wire::ResignPolicy>(9)));
  EXPECT_EQ(CodeOf(policy), wire::ERROR_CODE_BAD_RESIGN_POLICY) << Show(policy);
  EXPECT_EQ(HostedGames(*c), 0) << "a refused CreateGame creates nothing";
}

// Two people and a bot of the server's play a whole game (the bot thinks on the server's pool);
// then both ask for a rematch: the first creates it, the second is offered it and joins it.
TEST(NetBots, TwoPeopleAndABotPlayAWholeGameThenARematch) {
  TestServer server;
  auto a = Connected(server);
  auto b = Connected(server);
  const wire::ServerMessage created = a->Request(CreateWithBots(3, {{2, "greedy"}}));
  ASSERT_TRUE(created.has_game_created()) << Show(created);
  const std::string game = created.game_created().game().game_id();
  EXPECT_EQ(created.game_created().game().seat(2).bot(), "greedy");
  EXPECT_EQ(created.game_created().game().on_resign(), wire::RESIGN_POLICY_BOT_TAKES_SEAT);
  ASSERT_TRUE(a->Join(game, 0).has_seat_joined());
  ASSERT_TRUE(b->Join(game, 1).has_seat_joined());
  ASSERT_TRUE(a->SyncPast(0));

  core::Random random(12);
  int bot_moves = 0;
  for (int i = 0; i < 20000 && !a->track().over(); ++i) {
    const int actor = a->track().actor();
    if (actor != 0 && actor != 1) {  // the bot's decision (or a draw): its delta will come
      const auto m = a->Receive();
      ASSERT_TRUE(m.has_value()) << a->error().message();
      if (m->has_delta() && m->delta().seat() == 2 && actor == 2) ++bot_moves;
      continue;
    }
    Client* decider = actor == 0 ? a.get() : b.get();
    while (decider->track().sequence() < a->track().sequence()) ASSERT_TRUE(decider->Receive());
    const std::vector<std::string>& legal = decider->track().legal();
    ASSERT_FALSE(legal.empty());
    const wire::ServerMessage reply =
        decider->Move(legal[static_cast<size_t>(random.Below(legal.size()))]);
    ASSERT_TRUE(reply.has_delta()) << Show(reply);
    while (a->track().sequence() < decider->track().sequence()) ASSERT_TRUE(a->Receive());
  }
  ASSERT_TRUE(a->track().over());
  EXPECT_GT(bot_moves, 0);
  // Each of the bot's decisions was thought on the pool, and counted as a move like any other.
  const std::string scrape = ScrapeWhen(server.port(), R"(carc_games{status="finished"})", 1);
  EXPECT_GE(SampleValue(scrape, "carc_bot_think_seconds_count"), bot_moves) << scrape;
  EXPECT_GT(SampleValue(scrape, "carc_moves_accepted_total"), bot_moves) << scrape;
  EXPECT_EQ(SampleValue(scrape, R"(carc_games{status="finished"})"), 1) << scrape;

  const std::string old_token = a->track().token;
  wire::ClientMessage ask;
  ask.mutable_rematch()->set_game_id(game);
  ask.mutable_rematch()->set_seat_token(old_token);
  const wire::ServerMessage joined = a->Request(ask);
  ASSERT_TRUE(joined.has_seat_joined()) << Show(joined);
  const std::string rematch = joined.seat_joined().game().game_id();
  EXPECT_NE(rematch, game);
  EXPECT_EQ(joined.seat_joined().seat(), 0u);
  EXPECT_EQ(joined.seat_joined().game().rematch_of(), game);
  EXPECT_EQ(joined.seat_joined().game().seat(2).bot(), "greedy");

  const auto offer =
      b->ReceiveUntil([](const wire::ServerMessage& m) { return m.has_rematch_offered(); });
  ASSERT_TRUE(offer.has_value());
  EXPECT_EQ(offer->rematch_offered().game_id(), game);
  EXPECT_EQ(offer->rematch_offered().game().game_id(), rematch);
  EXPECT_EQ(offer->rematch_offered().seat(), 1u);

  ask.mutable_rematch()->set_seat_token(b->track().token);
  const wire::ServerMessage second = b->Request(ask);
  ASSERT_TRUE(second.has_seat_joined()) << Show(second);
  EXPECT_EQ(second.seat_joined().game().game_id(), rematch) << "the same rematch";
  EXPECT_EQ(second.seat_joined().seat(), 1u);

  const wire::ServerMessage listed = a->Request(msg::ListGames());
  const wire::GameInfo* old_info = FindGame(listed, game);
  EXPECT_EQ(old_info, nullptr) << "a finished game is not in the hosted list";
  wire::ClientMessage one = msg::ListGames();
  one.mutable_list_games()->set_game_id(game);
  const wire::ServerMessage old_game = a->Request(one);
  ASSERT_EQ(old_game.game_list().games_size(), 1) << Show(old_game);
  EXPECT_EQ(old_game.game_list().games(0).rematch(), rematch);
  EXPECT_EQ(old_game.game_list().games(0).status(), wire::GAME_STATUS_FINISHED);
}

// Players who come back for a rematch after their game left the lobby (its retention time is 0
// here): the game is hosted again from the log, and both land in one rematch. A token that is
// no seat's brings nothing back.
TEST(NetBots, ARematchAskedForAfterTheGameLeftTheLobbyHostsItAgain) {
  ServerConfig config = TestConfig();
  config.finished_game_retention = std::chrono::seconds(0);
  TestServer server(config);
  auto a = Connected(server);
  auto b = Connected(server);
  const std::string game = SeatedGame({a.get(), b.get()}, 53);
  core::Random random(53);
  ASSERT_NO_FATAL_FAILURE(Play({a.get(), b.get()}, random, 5000));
  ASSERT_TRUE(a->track().over());
  for (int i = 0; i < 500 && !Ids(ListGames(*a)).empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_TRUE(Ids(ListGames(*a)).empty()) << "the finished game left the lobby";

  const auto rematch_of = [&game](const std::string& token) {
    wire::ClientMessage ask;
    ask.mutable_rematch()->set_game_id(game);
    ask.mutable_rematch()->set_seat_token(token);
    return ask;
  };
  EXPECT_EQ(CodeOf(a->Request(rematch_of(std::string(16, '\x42')))), wire::ERROR_CODE_BAD_TOKEN);
  EXPECT_TRUE(Ids(ListGames(*a)).empty()) << "a token that is no seat's hosts nothing";

  const wire::ServerMessage joined = a->Request(rematch_of(a->track().token));
  ASSERT_TRUE(joined.has_seat_joined()) << Show(joined);
  const std::string rematch = joined.seat_joined().game().game_id();
  EXPECT_NE(rematch, game);
  EXPECT_EQ(joined.seat_joined().game().rematch_of(), game);
  const wire::ServerMessage second = b->Request(rematch_of(b->track().token));
  ASSERT_TRUE(second.has_seat_joined()) << Show(second);
  EXPECT_EQ(second.seat_joined().game().game_id(), rematch) << "the same rematch, from the log";
  EXPECT_EQ(second.seat_joined().seat(), 1u);
}

// ---------------------------------------------------------------------------------------------
// Clocks and absent players (docs/protocol.md, section 15)

wire::ClientMessage CreateWithClock(const wire::TimeControl& control,
                                    wire::ResignPolicy on_resign) {
  wire::ClientMessage m = CreateWithBots(2, {{1, "greedy"}}, on_resign);
  *m.mutable_create_game()->mutable_time_control() = control;
  return m;
}

TEST(NetClocks, ACreateGameWithABadTimeControlCreatesNothing) {
  TestServer server;
  auto c = Connected(server);
  wire::TimeControl control;
  control.set_kind(wire::CLOCK_KIND_LIVE);
  control.set_bank_ms(10);
  const wire::ServerMessage reply =
      c->Request(CreateWithClock(control, wire::RESIGN_POLICY_UNSPECIFIED));
  EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_BAD_TIME_CONTROL) << Show(reply);
  EXPECT_EQ(HostedGames(*c), 0) << "a refused CreateGame creates nothing";
}

// The server's own timer ends a live game whose player's second runs out.
TEST(NetClocks, APlayerWhoseTimeRunsOutForfeitsAndTheGameEnds) {
  TestServer server;
  auto a = Connected(server);
  wire::TimeControl control;
  control.set_kind(wire::CLOCK_KIND_LIVE);
  control.set_bank_ms(1'000);
  control.set_on_absent(wire::ABSENT_POLICY_FORFEIT);
  const wire::ServerMessage created =
      a->Request(CreateWithClock(control, wire::RESIGN_POLICY_END_GAME));
  ASSERT_TRUE(created.has_game_created()) << Show(created);
  EXPECT_EQ(created.game_created().game().time_control().bank_ms(), 1'000U);
  const std::string game = created.game_created().game().game_id();
  ASSERT_TRUE(a->Join(game, 0).has_seat_joined());
  const auto clocks = a->ReceiveUntil([](const wire::ServerMessage& m) { return m.has_clocks(); });
  ASSERT_TRUE(clocks.has_value());
  EXPECT_EQ(clocks->clocks().remaining_ms_size(), 2);
  // Whoever decides first, the person's second runs out before the game is over.
  const auto ended = a->ReceiveUntil([](const wire::ServerMessage& m) {
    return m.has_lobby_update() && m.lobby_update().game().status() == wire::GAME_STATUS_RESIGNED;
  });
  ASSERT_TRUE(ended.has_value());
  EXPECT_TRUE(ended->lobby_update().game().seat(0).resigned());
}

// docs/operations.md, "Shards": a shard's game ids carry its name, and a request that names
// another shard's game is refused with that shard's name, changing nothing.
TEST(NetShards, AShardNamesItsGamesAndRefusesOtherShardsGames) {
  ServerConfig config = TestConfig();
  config.shard = "a";
  TestServer server(config);
  auto c = std::make_unique<Client>();
  ASSERT_TRUE(c->Connect(server.port()));
  EXPECT_EQ(c->Hello().shard(), "a");
  const std::string game = c->Create(2, 61);
  EXPECT_EQ(game, "a-g1");
  ASSERT_TRUE(c->Join(game, 0).has_seat_joined());
  EXPECT_EQ(Ids(ListGames(*c)), (std::vector<std::string>{"a-g1"}));
  EXPECT_EQ(Ids(ListOne(*c, "a-g1")), (std::vector<std::string>{"a-g1"}));

  const auto refused = [](const wire::ServerMessage& reply) {
    EXPECT_EQ(CodeOf(reply), wire::ERROR_CODE_WRONG_SHARD) << Show(reply);
    EXPECT_NE(reply.error().reason().find("'b'"), std::string::npos) << Show(reply);
  };
  refused(c->Request(msg::JoinSeat("b-g1", std::nullopt)));
  refused(c->Request(msg::Spectate("b-g1")));
  refused(c->Request(msg::GetReplay("b-g1")));
  refused(ListOne(*c, "b-g1"));
  // The id of a server alone is no game of a shard's.
  EXPECT_EQ(CodeOf(c->Request(msg::JoinSeat("g1", std::nullopt))), wire::ERROR_CODE_NO_SUCH_GAME);
  EXPECT_TRUE(Ids(ListOne(*c, "g1")).empty());
  EXPECT_EQ(Ids(ListGames(*c)), (std::vector<std::string>{"a-g1"})) << "nothing changed";
}

// A shard's ended game, answered from its log after it left the lobby, keeps its shard's id.
TEST(NetShards, AnEndedGameAnsweredFromTheLogKeepsItsShardsId) {
  ServerConfig config = TestConfig();
  config.shard = "a";
  config.finished_game_retention = std::chrono::seconds(0);
  TestServer server(config);
  auto a = Connected(server);
  auto b = Connected(server);
  const std::string game = SeatedGame({a.get(), b.get()}, 63);
  EXPECT_EQ(game, "a-g1");
  core::Random random(63);
  ASSERT_NO_FATAL_FAILURE(Play({a.get(), b.get()}, random, 5000));
  ASSERT_TRUE(a->track().over());
  for (int i = 0; i < 500 && !Ids(ListGames(*a)).empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  auto watcher = Connected(server);
  const wire::ServerMessage snapshot = watcher->Request(msg::Spectate(game));
  ASSERT_TRUE(snapshot.has_snapshot()) << Show(snapshot);
  EXPECT_EQ(snapshot.snapshot().game_id(), "a-g1");
  EXPECT_EQ(Ids(ListFinished(*watcher, 0)), (std::vector<std::string>{"a-g1"}));
}

TEST(NetShards, AServerAloneNamesItsGamesAsBeforeAndOwnsNoShardsGame) {
  TestServer server;
  auto c = std::make_unique<Client>();
  ASSERT_TRUE(c->Connect(server.port()));
  EXPECT_EQ(c->Hello().shard(), "");
  EXPECT_EQ(c->Create(2, 62), "g1");
  EXPECT_EQ(CodeOf(c->Request(msg::Spectate("a-g1"))), wire::ERROR_CODE_WRONG_SHARD);
}

// ---------------------------------------------------------------------------------------------
// The game log's file (docs/operations.md): one server at a time, a shard's name kept, expiry
// and restores while games are hosted or after them

// The store of the game log at `path`, opened as carc-db opens it, beside the server.
persistence::Store OpenLogBeside(const std::string& path) {
  persistence::StoreOptions options;
  options.path = path;
  options.create = false;
  auto store = persistence::Store::Open(options);
  EXPECT_TRUE(store.ok()) << store.error().message;
  return std::move(*store);
}

TEST(NetLog, ASecondServerOnTheSameFileRefusesToStartAndTheFirstGoesOn) {
  const ServerConfig config = TestConfig();
  const DatabaseFiles files{config.db_path};
  {
    TestServer first(config, TestServer::Database::kKeep);
    auto c = Connected(first);
    const std::string game = c->Create(2, 64);
    const auto error = StartError(config);
    ASSERT_TRUE(error.has_value()) << "two servers would each number games in one file";
    EXPECT_NE(error->find("game log " + config.db_path + ": its lock " + config.db_path +
                          ".lock is held"),
              std::string::npos)
        << *error;
    EXPECT_EQ(Ids(ListGames(*c)), (std::vector<std::string>{game})) << "the first server goes on";
    // Nor is a backup restored under it.
    const auto restored = persistence::RestoreBackup({config.db_path + "-x", config.db_path, 9});
    ASSERT_FALSE(restored.ok());
    EXPECT_NE(restored.error().message.find(".lock is held"), std::string::npos)
        << restored.error().message;
    EXPECT_TRUE(c->Join(game, 0).has_seat_joined());
  }
  TestServer again(config, TestServer::Database::kKeep);  // the lock went with the first
  auto c = Connected(again);
  EXPECT_EQ(Ids(ListGames(*c)), (std::vector<std::string>{"g1"}));
}

// After a restore, the games created since the backup are gone, and so are their ids for good:
// an invite or seat link to one of them must never name another game.
TEST(NetLog, AfterARestoreTheIdsIssuedSinceTheBackupAreNotIssuedAgain) {
  const ServerConfig config = TestConfig();
  const DatabaseFiles files{config.db_path};
  const std::string backup = config.db_path + "-backup";
  const DatabaseFiles backup_files{backup};
  {
    TestServer first(config, TestServer::Database::kKeep);
    auto c = Connected(first);
    EXPECT_EQ(c->Create(2, 65), "g1");
    ASSERT_EQ(OpenLogBeside(config.db_path).Backup(backup), std::nullopt);
    EXPECT_EQ(c->Create(2, 66), "g2");
    EXPECT_EQ(c->Create(2, 67), "g3");
  }
  const auto restored = persistence::RestoreBackup({backup, config.db_path, std::nullopt});
  ASSERT_TRUE(restored.ok()) << restored.error().message;
  TestServer second(config, TestServer::Database::kKeep);
  auto c = Connected(second);
  EXPECT_EQ(Ids(ListGames(*c)), (std::vector<std::string>{"g1"})) << "the backup's games";
  EXPECT_EQ(c->Create(2, 68), "g4") << "g2 and g3 may still be in someone's links";
}

// `carc-db expire` may remove an ended game the server still holds (and so may the server's own
// housekeeping, of a game hosted again for a rematch): its players still get their rematch.
TEST(NetBots, ARematchOfAGameExpiredWhileTheServerHeldItIsCreated) {
  const ServerConfig config = TestConfig();
  const DatabaseFiles files{config.db_path};
  TestServer server(config, TestServer::Database::kKeep);
  auto a = Connected(server);
  auto b = Connected(server);
  const std::string game = SeatedGame({a.get(), b.get()}, 69);
  core::Random random(69);
  ASSERT_NO_FATAL_FAILURE(Play({a.get(), b.get()}, random, 5000));
  ASSERT_TRUE(a->track().over());
  const auto expired = OpenLogBeside(config.db_path).Expire(persistence::NowMs() + 60'000, "");
  ASSERT_TRUE(expired.ok()) << expired.error().message;
  ASSERT_EQ(expired->games, 1) << "the finished game left the log";

  wire::ClientMessage ask;
  ask.mutable_rematch()->set_game_id(game);
  ask.mutable_rematch()->set_seat_token(a->track().token);
  const wire::ServerMessage joined = a->Request(ask);
  ASSERT_TRUE(joined.has_seat_joined()) << Show(joined);
  const std::string rematch = joined.seat_joined().game().game_id();
  EXPECT_EQ(joined.seat_joined().game().rematch_of(), game);
  ask.mutable_rematch()->set_seat_token(b->track().token);
  const wire::ServerMessage second = b->Request(ask);
  ASSERT_TRUE(second.has_seat_joined()) << Show(second);
  EXPECT_EQ(second.seat_joined().game().game_id(), rematch);
  EXPECT_EQ(StatusInTheLog(config.db_path, rematch), persistence::GameStatus::kRunning);
}

// A write that fails is logged with its cause, also when no client asked for it: here a
// rematch's creation, whose game number another program took in the file meanwhile.
TEST(NetLog, AFailedWriteIsLoggedWithItsCauseThoughNoClientSentIt) {
  LogCapture log;
  const ServerConfig config = TestConfig();
  const DatabaseFiles files{config.db_path};
  {
    TestServer server(config, TestServer::Database::kKeep);
    auto a = Connected(server);
    auto b = Connected(server);
    const std::string game = SeatedGame({a.get(), b.get()}, 70);
    core::Random random(70);
    ASSERT_NO_FATAL_FAILURE(Play({a.get(), b.get()}, random, 5000));
    ASSERT_TRUE(a->track().over());
    ASSERT_FALSE(OpenLogBeside(config.db_path)
                     .connection()
                     .Exec("INSERT INTO games (number, name, rule_set, tileset_id, "
                           "tileset_version, seats, seed, status, created_ms, updated_ms) "
                           "VALUES (2, 'taken', 'the-city', 'the-city', 1, 2, 0, 'open', 0, 0)"));
    wire::ClientMessage ask;
    ask.mutable_rematch()->set_game_id(game);
    ask.mutable_rematch()->set_seat_token(a->track().token);
    const wire::ServerMessage refused = a->Request(ask);
    EXPECT_EQ(CodeOf(refused), wire::ERROR_CODE_STORAGE_FAILED) << Show(refused);
  }
  const std::string text = log.Text();
  EXPECT_NE(text.find("game g2: the log could not be written: g2: UNIQUE constraint failed: "
                      "games.number"),
            std::string::npos)
      << text;
}

// A file keeps the name of the shard whose games it holds: under another name (or none) the
// server would rename every game, link and seat, so it refuses to start.
TEST(NetShards, AServerStartedUnderAnotherNameThanItsFilesRefusesToStart) {
  ServerConfig config = TestConfig();
  const DatabaseFiles files{config.db_path};
  config.shard = "a";
  {
    TestServer first(config, TestServer::Database::kKeep);
    EXPECT_EQ(Connected(first)->Create(2, 71), "a-g1");
  }
  ServerConfig renamed = config;
  renamed.shard = "b";
  auto error = StartError(renamed);
  ASSERT_TRUE(error.has_value()) << "shard b must not take shard a's games";
  EXPECT_NE(error->find("holds the games of shard 'a', and this server was started as shard 'b' "
                        "(--shard)"),
            std::string::npos)
      << *error;
  EXPECT_NE(error->find("Start it with --shard a"), std::string::npos) << *error;
  renamed.shard = "";
  error = StartError(renamed);
  ASSERT_TRUE(error.has_value()) << "a server alone must not take shard a's games";
  EXPECT_NE(error->find("started as no shard (a server alone)"), std::string::npos) << *error;

  TestServer again(config, TestServer::Database::kKeep);
  EXPECT_EQ(Ids(ListGames(*Connected(again))), (std::vector<std::string>{"a-g1"}));
}

// A file stored before the shard's name was kept takes the first name it is started with.
TEST(NetShards, AFileWithoutAShardsNameTakesTheFirstItIsStartedWith) {
  ServerConfig config = TestConfig();
  const DatabaseFiles files{config.db_path};
  {
    TestServer first(config, TestServer::Database::kKeep);
    EXPECT_EQ(Connected(first)->Create(2, 72), "g1");
  }
  ASSERT_FALSE(OpenLogBeside(config.db_path).connection().Exec("DELETE FROM settings"));
  config.shard = "b";
  {
    TestServer adopted(config, TestServer::Database::kKeep);
    EXPECT_EQ(Ids(ListGames(*Connected(adopted))), (std::vector<std::string>{"b-g1"}));
  }
  config.shard = "c";
  const auto error = StartError(config);
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("holds the games of shard 'b'"), std::string::npos) << *error;
}

}  // namespace
}  // namespace carc::server
