// The game room, driven by fake connections: whole games of The City played through it (its
// messages through The City's codec, followed by the generic Follower), every refusal, the
// order of the move checks, tokens, spectators and reconnection, and the rule set and options a
// game is played by.
#include "room/room.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>

#include "city/default_tiles.h"
#include "city/public_state.h"
#include "city/random_play.h"
#include "city/rule_set.h"
#include "persistence/replay.h"
#include "persistence/token.h"
#include "protocol/city/codec.h"
#include "protocol/city/game_codec.h"
#include "protocol/follower.h"
#include "registry.h"
#include "room/replay.h"

namespace carc::server {
namespace {

namespace citypb = protocol::citypb;

std::shared_ptr<const core::RuleSet> CityRules() {
  static const auto rules = city::MakeRuleSet(city::DefaultTileSet());
  return rules;
}

// The typed game behind a room's State of The City.
const city::Game& CityGame(const Room& room) {
  const city::Game* game = city::GameOf(*room.game());
  assert(game != nullptr);
  return *game;
}

// A connection that keeps every message it receives, decoded, and the client's view of the game.
class FakePeer : public Peer {
 public:
  void Send(Bytes message) override {
    wire::ServerMessage decoded;
    ASSERT_TRUE(decoded.ParseFromString(*message));
    raw.push_back(*message);
    received.push_back(decoded);
    Follow(decoded);
  }

  // Follows the game from snapshots and deltas, every step and hash checked.
  void Follow(const wire::ServerMessage& m) {
    std::optional<std::string> error;
    if (m.has_snapshot()) {
      error = follower.Start(m.snapshot(), city::DefaultTileSet());
    } else if (m.has_delta()) {
      error = follower.Apply(m.delta());
    } else {
      return;
    }
    ASSERT_EQ(error, std::nullopt);
    legal = follower.legal_actions();
  }

  std::optional<wire::ErrorCode> LastError() const {
    if (received.empty() || !received.back().has_error()) return std::nullopt;
    return received.back().error().code();
  }
  // The engine's name for the last refusal, with ERROR_CODE_RULE_REFUSED.
  std::string LastRuleError() const {
    return received.empty() ? std::string() : received.back().error().rule_error();
  }
  // The public state the follower holds.
  const city::PublicState& state() const { return *protocol::CityStateOf(follower.view()); }

  std::vector<std::string> raw;
  std::vector<wire::ServerMessage> received;
  protocol::Follower follower;
  std::vector<std::string> legal;  // the follower's (encoded Actions), until a test uses them
  std::string token;
  int seat = -1;
};

// Tokens 1, 2, 3 ... in the first byte: predictable, so tests can forge wrong ones.
TokenSource CountingTokens() {
  auto next = std::make_shared<uint8_t>(0);
  return [next] {
    SeatToken t{};
    t[0] = ++*next;
    return t;
  };
}

persistence::Store MemoryStore() {
  persistence::StoreOptions options;
  options.path = ":memory:";
  auto store = persistence::Store::Open(options);
  assert(store.ok());
  return std::move(*store);
}

// The game log as the room sees it: writes go to the store at once, unless the test holds them
// (to see what waits for a write) or makes them fail (a full disk).
class ControlledLog : public persistence::GameLog {
 public:
  explicit ControlledLog(persistence::Store& store) : store_(store) {}
  void Submit(persistence::Write write, Done done) override {
    submitted.push_back(write);
    if (hold) {
      held_.emplace_back(std::move(write), std::move(done));
      return;
    }
    done(fail ? fail : store_.Apply(write));
  }
  // Commits the held writes, in order, and answers them.
  void Release() {
    hold = false;
    auto held = std::move(held_);
    for (auto& [write, done] : held) done(store_.Apply(write));
  }
  size_t held() const { return held_.size(); }

  bool hold = false;
  persistence::Status fail;
  std::vector<persistence::Write> submitted;  // every write the room handed over, in order

 private:
  persistence::Store& store_;
  std::vector<std::pair<persistence::Write, Done>> held_;
};

// A room on an in-memory game log, its game created.
struct Table {
  explicit Table(int seats, uint64_t seed = 7)
      : store(MemoryStore()),
        log(store),
        room(RoomOptions{1, "test", seats, seed, 512}, DefaultRoomGame(CityRules()),
             CountingTokens(), log) {
    room.Create(std::make_shared<FakePeer>(), 0);
  }

  std::shared_ptr<FakePeer> Join(const std::string& name = "p") {
    auto peer = std::make_shared<FakePeer>();
    wire::JoinSeat join;
    join.set_game_id("g1");
    join.set_player_name(name);
    room.Join(peer, 1, join);
    for (const auto& m : peer->received) {
      if (m.has_seat_joined()) {
        peer->token = m.seat_joined().seat_token();
        peer->seat = static_cast<int>(m.seat_joined().seat());
      }
    }
    return peer;
  }

  wire::Move MoveOf(const FakePeer& peer, const std::string& action) const {
    wire::Move move;
    move.set_game_id("g1");
    move.set_seat_token(peer.token);
    move.set_sequence(peer.follower.sequence());
    move.set_action(action);
    return move;
  }

  persistence::Store store;
  ControlledLog log;
  Room room;
};

std::string Skip(citypb::ActionKind kind) {
  citypb::Action a;
  a.set_kind(kind);
  return a.SerializeAsString();
}

// A room's game as a spectator's snapshot shows it now.
wire::Snapshot SnapshotOfRoom(const Room& room) {
  wire::Snapshot snapshot;
  snapshot.set_game_id(room.id());
  snapshot.set_sequence(room.Sequence());
  snapshot.set_state(room.hosted().codec->EncodeState(*room.game()));
  snapshot.set_state_hash(room.game()->Hash());
  snapshot.set_rule_set(room.hosted().rules->Type().id);
  return snapshot;
}

// Plays the whole game: whoever received legal actions chooses one (seeded) and sends it.
void PlayToTheEnd(Table& t, const std::vector<std::shared_ptr<FakePeer>>& peers, uint64_t seed) {
  core::Random random(seed);
  for (int guard = 0; guard < 5000 && t.room.Status() == wire::GAME_STATUS_RUNNING; ++guard) {
    auto decider =
        std::find_if(peers.begin(), peers.end(), [](const auto& p) { return !p->legal.empty(); });
    ASSERT_NE(decider, peers.end()) << "somebody must hold the legal actions";
    FakePeer& p = **decider;
    const std::string action = p.legal[static_cast<size_t>(random.Below(p.legal.size()))];
    p.legal.clear();
    t.room.Move(*decider, 100 + static_cast<uint64_t>(guard), t.MoveOf(p, action));
    ASSERT_FALSE(p.LastError().has_value()) << p.received.back().error().reason();
  }
  ASSERT_EQ(t.room.Status(), wire::GAME_STATUS_FINISHED);
}

TEST(Room, AFourPlayerGameIsPlayedToTheEndWithTheEnginesScores) {
  Table t(4);
  std::vector<std::shared_ptr<FakePeer>> peers;
  peers.reserve(4);
  for (int i = 0; i < 4; ++i) peers.push_back(t.Join("p" + std::to_string(i)));
  auto spectator = std::make_shared<FakePeer>();
  t.room.Spectate(spectator, 9);
  ASSERT_EQ(t.room.Status(), wire::GAME_STATUS_RUNNING)
      << "the game starts when every seat is taken";
  ASSERT_NO_FATAL_FAILURE(PlayToTheEnd(t, peers, 11));

  // Everybody, the spectator too, followed every delta to the server's final state.
  const city::Game& game = CityGame(t.room);
  for (const auto& p : peers) ASSERT_TRUE(p->state() == game.Public());
  ASSERT_TRUE(spectator->state() == game.Public());
  // The engine alone, given the same actions, reaches the same scores.
  city::Config config;
  config.players = 4;
  city::Game replay = std::get<city::Game>(
      city::Game::CreateWithOrder(city::DefaultTileSet(), config, game.seed(), game.Order()));
  for (const city::HistoryEntry& e : game.History())
    ASSERT_FALSE(replay.Apply(e.actor, e.action, nullptr));
  for (int p = 0; p < 4; ++p) EXPECT_EQ(replay.TotalScore(p), game.TotalScore(p));
  EXPECT_EQ(replay.Hash(), game.Hash());
}

TEST(Room, MovesAreCheckedInOrderAndARefusalChangesNothing) {
  Table t(2);
  auto a = t.Join();
  auto b = t.Join();
  ASSERT_FALSE(a->legal.empty()) << "seat 0 places the first tile";
  const uint64_t sequence = t.room.Sequence();
  const uint64_t hash = t.room.game()->Hash();
  const std::string place = a->legal.front();

  wire::Move forged = t.MoveOf(*a, place);
  forged.set_seat_token(std::string(16, '\x7f'));
  t.room.Move(a, 1, forged);
  EXPECT_EQ(a->LastError(), wire::ERROR_CODE_BAD_TOKEN);

  t.room.Move(b, 2, t.MoveOf(*b, place));  // b's own token, but a's decision
  EXPECT_EQ(b->LastError(), wire::ERROR_CODE_NOT_YOUR_DECISION);

  wire::Move stale = t.MoveOf(*a, place);
  stale.set_sequence(sequence - 1);
  t.room.Move(a, 3, stale);
  EXPECT_EQ(a->LastError(), wire::ERROR_CODE_STALE_SEQUENCE);

  citypb::Action far;
  ASSERT_TRUE(far.ParseFromString(place));
  far.set_x(40);
  t.room.Move(a, 4, t.MoveOf(*a, far.SerializeAsString()));
  EXPECT_EQ(a->LastError(), wire::ERROR_CODE_RULE_REFUSED) << "the engine judges (R5)";
  EXPECT_EQ(a->LastRuleError(), "not_at_origin");
  EXPECT_FALSE(a->received.back().error().reason().empty());

  citypb::Action huge = far;
  huge.set_x(500);
  t.room.Move(a, 5, t.MoveOf(*a, huge.SerializeAsString()));
  EXPECT_EQ(a->LastError(), wire::ERROR_CODE_RULE_REFUSED);
  EXPECT_EQ(a->LastRuleError(), "malformed");

  t.room.Move(a, 6, t.MoveOf(*a, "\xff\xff\xff"));  // not an Action of The City at all
  EXPECT_EQ(a->LastError(), wire::ERROR_CODE_RULE_REFUSED);
  EXPECT_EQ(a->LastRuleError(), "malformed");

  EXPECT_EQ(a->received.back().request_id(), 6u) << "replies carry the request id";
  EXPECT_EQ(t.room.Sequence(), sequence);
  EXPECT_EQ(t.room.game()->Hash(), hash);
}

TEST(Room, ADuplicatedMoveIsNeverAppliedTwice) {
  Table t(2);
  auto a = t.Join();
  auto b = t.Join();
  const wire::Move move = t.MoveOf(*a, a->legal.front());
  t.room.Move(a, 1, move);
  ASSERT_FALSE(a->LastError().has_value());
  const uint64_t after = t.room.Sequence();
  // The same bytes again (a retry after a lost reply): the follower decision is a's too now.
  t.room.Move(a, 2, move);
  EXPECT_EQ(a->LastError(), wire::ERROR_CODE_STALE_SEQUENCE);
  EXPECT_EQ(t.room.Sequence(), after);
}

TEST(Room, SpectatorsWatchButCannotMove) {
  Table t(2);
  auto a = t.Join();
  auto b = t.Join();
  auto watcher = std::make_shared<FakePeer>();
  t.room.Spectate(watcher, 3);
  ASSERT_TRUE(watcher->follower.started());
  EXPECT_FALSE(watcher->received.back().snapshot().has_your_seat());
  EXPECT_TRUE(watcher->legal.empty());
  wire::Move move = t.MoveOf(*a, a->legal.front());
  move.clear_seat_token();
  t.room.Move(watcher, 4, move);
  EXPECT_EQ(watcher->LastError(), wire::ERROR_CODE_SPECTATOR);
  t.room.Move(a, 5, t.MoveOf(*a, a->legal.front()));
  ASSERT_TRUE(watcher->state() == CityGame(t.room).Public()) << "the spectator sees the move";
}

TEST(Room, TokensAreSecretAndOnlyTheJoinerGetsItsOwn) {
  Table t(3);
  auto a = t.Join();
  auto b = t.Join();
  auto c = t.Join();
  EXPECT_EQ(a->token.size(), 16u);
  EXPECT_NE(a->token, b->token);
  for (const auto& [peer, others] :
       {std::pair{a, std::vector{b, c}}, std::pair{b, std::vector{a, c}}}) {
    for (const auto& other : others) {
      for (const std::string& bytes : other->raw) {
        EXPECT_EQ(bytes.find(peer->token), std::string::npos) << "a token reached another seat";
      }
    }
  }
}

TEST(Room, OsTokensAreRandom) { EXPECT_NE(OsRandomToken(), OsRandomToken()); }

TEST(Room, LobbyRefusals) {
  Table t(2);
  auto a = t.Join();
  auto late = std::make_shared<FakePeer>();
  wire::JoinSeat taken;
  taken.set_seat(0);
  t.room.Join(late, 1, taken);
  EXPECT_EQ(late->LastError(), wire::ERROR_CODE_SEAT_TAKEN);
  wire::JoinSeat missing;
  missing.set_seat(7);
  t.room.Join(late, 2, missing);
  EXPECT_EQ(late->LastError(), wire::ERROR_CODE_BAD_SEAT_COUNT);
  wire::StartGame start;
  start.set_seat_token(a->token);
  t.room.Start(a, 3, start);
  EXPECT_EQ(a->LastError(), wire::ERROR_CODE_BAD_SEAT_COUNT) << "one player cannot start";
  wire::Move early = t.MoveOf(*a, Skip(citypb::ACTION_KIND_SKIP_FOLLOWER));
  t.room.Move(a, 4, early);
  EXPECT_EQ(a->LastError(), wire::ERROR_CODE_GAME_NOT_RUNNING);
  auto b = t.Join();  // the game starts
  t.room.Join(late, 5, wire::JoinSeat{});
  EXPECT_EQ(late->LastError(), wire::ERROR_CODE_GAME_STARTED);
  wire::LeaveSeat leave;
  leave.set_seat_token(b->token);
  t.room.Leave(b, 6, leave);
  EXPECT_EQ(b->LastError(), wire::ERROR_CODE_GAME_STARTED);
}

TEST(Room, TheCreatorMayStartEarlyAndOnlyTheCreator) {
  Table t(4);
  auto a = t.Join();
  auto b = t.Join();
  auto c = t.Join();
  wire::StartGame start;
  start.set_seat_token(b->token);
  t.room.Start(b, 1, start);
  EXPECT_EQ(b->LastError(), wire::ERROR_CODE_NOT_CREATOR);
  start.set_seat_token(a->token);
  t.room.Start(a, 2, start);
  ASSERT_EQ(t.room.Status(), wire::GAME_STATUS_RUNNING);
  EXPECT_EQ(t.room.game()->Players(), 3);
  EXPECT_TRUE(std::any_of(a->received.begin(), a->received.end(), [](const auto& m) {
    return m.has_snapshot() && m.request_id() == 2;
  })) << "the starter's snapshot answers StartGame";
  ASSERT_NO_FATAL_FAILURE(PlayToTheEnd(t, {a, b, c}, 3));
}

// The token is the proof of seat 0, whichever connection sends it: that connection gets the
// reply and becomes the seat's.
TEST(Room, StartGameFromAnotherConnectionIsAnswered) {
  Table t(3);
  auto a = t.Join();
  auto b = t.Join();
  auto a_elsewhere = std::make_shared<FakePeer>();
  wire::StartGame start;
  start.set_seat_token(a->token);
  t.room.Start(a_elsewhere, 77, start);
  ASSERT_EQ(t.room.Status(), wire::GAME_STATUS_RUNNING);
  ASSERT_FALSE(a_elsewhere->received.empty());
  EXPECT_TRUE(a_elsewhere->received.front().has_snapshot());
  EXPECT_EQ(a_elsewhere->received.front().request_id(), 77u);
  EXPECT_FALSE(a_elsewhere->legal.empty()) << "seat 0 places the first tile there";
}

// A move with a seat's token from a new connection (a client that came back without Resume) is
// answered there, and that connection follows the game from then on.
TEST(Room, AMoveFromAnotherConnectionOfTheSeatIsAnswered) {
  Table t(2);
  auto a = t.Join();
  auto b = t.Join();
  auto a_again = std::make_shared<FakePeer>();
  ASSERT_EQ(a_again->follower.Start(SnapshotOfRoom(t.room), city::DefaultTileSet()), std::nullopt);
  a_again->token = a->token;
  t.room.Move(a_again, 5, t.MoveOf(*a_again, a->legal.front()));
  ASSERT_FALSE(a_again->received.empty());
  EXPECT_TRUE(a_again->received.front().has_delta());
  EXPECT_EQ(a_again->received.front().request_id(), 5u);
  EXPECT_FALSE(a_again->legal.empty()) << "its follower decision comes to the new connection";
}

TEST(Room, TheConnectionASeatMovesAwayFromIsToldAndHearsNoMore) {
  Table t(2);
  auto a = t.Join();
  auto b = t.Join();
  auto a_elsewhere = std::make_shared<FakePeer>();
  a_elsewhere->token = a->token;
  a_elsewhere->seat = a->seat;
  wire::Resume resume;
  resume.set_game_id("g1");
  resume.set_seat_token(a->token);
  t.room.Resume(a_elsewhere, 9, resume);
  ASSERT_TRUE(a->received.back().has_seat_moved());
  EXPECT_EQ(a->received.back().seat_moved().game_id(), "g1");
  EXPECT_EQ(a->received.back().seat_moved().seat(), static_cast<uint32_t>(a->seat));
  EXPECT_EQ(a->received.back().request_id(), 0u);
  EXPECT_TRUE(a_elsewhere->received.back().snapshot().has_your_seat());
  const size_t told = a->received.size();
  FakePeer& decider = a_elsewhere->legal.empty() ? *b : *a_elsewhere;
  t.room.Move(decider.seat == b->seat ? b : a_elsewhere, 10,
              t.MoveOf(decider, decider.legal.front()));
  ASSERT_FALSE(decider.LastError().has_value());
  EXPECT_EQ(a->received.size(), told) << "no more of the seat's deltas on the old connection";
  EXPECT_GT(a_elsewhere->follower.sequence(), 0u);
  // Resuming on the same connection again moves nothing.
  t.room.Resume(a_elsewhere, 11, resume);
  for (const auto& m : a_elsewhere->received) EXPECT_FALSE(m.has_seat_moved());
}

TEST(Room, AMoveFromAnotherConnectionTellsTheOldOneItsSeatMoved) {
  Table t(2);
  auto a = t.Join();
  auto b = t.Join();
  FakePeer& decider = a->legal.empty() ? *b : *a;
  auto elsewhere = std::make_shared<FakePeer>();
  ASSERT_EQ(elsewhere->follower.Start(SnapshotOfRoom(t.room), city::DefaultTileSet()),
            std::nullopt);
  elsewhere->token = decider.token;
  const size_t before = decider.received.size();
  t.room.Move(elsewhere, 5, t.MoveOf(*elsewhere, decider.legal.front()));
  ASSERT_GT(decider.received.size(), before);
  EXPECT_TRUE(decider.received[before].has_seat_moved());
  for (size_t i = before + 1; i < decider.received.size(); ++i) {
    EXPECT_FALSE(decider.received[i].has_delta()) << "the move's deltas go to the new connection";
  }
}

TEST(Room, APlayerWhoWatchedBeforeJoiningIsNotAWatcher) {
  Table t(2);
  auto a = t.Join();
  // Bob opens the invite link: his page watches the open game, then he joins on that connection.
  auto bob = std::make_shared<FakePeer>();
  t.room.Spectate(bob, 2);
  EXPECT_EQ(t.room.Info().spectators(), 1u);
  wire::JoinSeat join;
  join.set_game_id("g1");
  join.set_player_name("Bob");
  t.room.Join(bob, 3, join);
  ASSERT_EQ(t.room.Status(), wire::GAME_STATUS_RUNNING);
  EXPECT_EQ(t.room.Info().spectators(), 0u);
  for (const auto& m : bob->received) {
    if (m.has_seat_joined()) bob->token = m.seat_joined().seat_token();
  }
  // A real watcher counts.
  auto watcher = std::make_shared<FakePeer>();
  t.room.Spectate(watcher, 4);
  EXPECT_EQ(t.room.Info().spectators(), 1u);
  // One frame per step for Bob: every delta once, never twice.
  size_t snapshots = 0;
  for (const auto& m : bob->received) snapshots += m.has_snapshot() ? 1 : 0;
  EXPECT_EQ(snapshots, 1u) << "the start's snapshot once";
  core::Random random(3);
  for (int step = 0; step < 6; ++step) {
    FakePeer& p = a->legal.empty() ? *bob : *a;
    ASSERT_FALSE(p.legal.empty());
    const std::string action = p.legal[static_cast<size_t>(random.Below(p.legal.size()))];
    t.room.Move(&p == a.get() ? a : bob, 10 + static_cast<uint64_t>(step), t.MoveOf(p, action));
    ASSERT_FALSE(p.LastError().has_value());
  }
  std::map<uint64_t, int> deltas_per_step;
  for (const auto& m : bob->received) {
    if (m.has_delta()) ++deltas_per_step[m.delta().sequence()];
  }
  EXPECT_EQ(deltas_per_step.size(), t.room.Sequence());
  for (const auto& [sequence, count] : deltas_per_step) {
    EXPECT_EQ(count, 1) << "step " << sequence;
  }
}

TEST(Room, TheSeatsOfAnOpenGameHearOfANewWatcher) {
  Table t(3);
  auto a = t.Join();
  const size_t before = a->received.size();
  auto watcher = std::make_shared<FakePeer>();
  t.room.Spectate(watcher, 2);
  ASSERT_EQ(a->received.size(), before + 1);
  ASSERT_TRUE(a->received.back().has_lobby_update());
  EXPECT_EQ(a->received.back().lobby_update().game().spectators(), 1u);
  // Asking again (a page recovering its state) is not a new watcher.
  t.room.Spectate(watcher, 3);
  EXPECT_EQ(a->received.size(), before + 1);
}

TEST(Room, AWatcherWhoResumesASeatIsNoLongerAWatcher) {
  Table t(2);
  auto a = t.Join();
  auto b = t.Join();
  auto a_watching = std::make_shared<FakePeer>();
  t.room.Spectate(a_watching, 1);
  EXPECT_EQ(t.room.Info().spectators(), 1u);
  wire::Resume resume;
  resume.set_game_id("g1");
  resume.set_seat_token(a->token);
  t.room.Resume(a_watching, 2, resume);
  EXPECT_EQ(t.room.Info().spectators(), 0u);
}

// The City's rules under another version and with options of their own: a rule set the room
// knows only through core::RuleSet, to see that what the game is played by reaches GameInfo.
class CityWithOptions : public core::RuleSet {
 public:
  CityWithOptions() : type_(CityRules()->Type()) {
    type_.version = 3;
    type_.options = {
        {.name = "demo", .description = "a test", .default_value = 1, .min = 0, .max = 5},
        {.name = "flag", .description = "another", .default_value = 0}};
  }
  const core::GameType& Type() const override { return type_; }
  const core::TileSet& Tiles() const override { return CityRules()->Tiles(); }
  std::variant<std::unique_ptr<core::State>, core::RuleError> NewGame(
      int players, const core::Options& /*options*/, uint64_t seed) const override {
    return CityRules()->NewGame(players, {}, seed);
  }
  std::variant<std::unique_ptr<core::State>, core::RuleError> NewGameWithOrder(
      int players, const core::Options& /*options*/, uint64_t seed,
      std::span<const int> order) const override {
    return CityRules()->NewGameWithOrder(players, {}, seed, order);
  }

 private:
  core::GameType type_;
};

TEST(RoomGameInfo, ACityGameShowsItsRuleSetVersionAndNoOptions) {
  Table t(3);
  const wire::GameInfo info = t.room.Info();
  EXPECT_EQ(info.rule_set(), "the-city");
  EXPECT_EQ(info.rule_set_version(), static_cast<uint32_t>(city::kRuleSetVersion));
  EXPECT_TRUE(info.options().empty()) << "The City has no options";
  EXPECT_EQ(info.seats(), 3u);
  EXPECT_EQ(info.name(), "test");
  auto a = t.Join();
  ASSERT_TRUE(a->received.front().has_seat_joined());
  EXPECT_EQ(a->received.front().seat_joined().game().rule_set(), "the-city");
  const auto b = t.Join();
  const auto c = t.Join();
  EXPECT_EQ(c->seat, 2);
  const auto snapshot = std::find_if(b->received.begin(), b->received.end(),
                                     [](const wire::ServerMessage& m) { return m.has_snapshot(); });
  ASSERT_NE(snapshot, b->received.end()) << "the start";
  EXPECT_EQ(snapshot->snapshot().rule_set(), "the-city") << "snapshots name it too";
  EXPECT_EQ(b->follower.rule_set(), "the-city");
  const persistence::StoredGame stored = [&] {
    auto loaded = t.store.LoadGame(1);
    EXPECT_TRUE(loaded.ok() && loaded->has_value());
    return std::move(**loaded);
  }();
  EXPECT_EQ(stored.game.rule_set, "the-city");
  EXPECT_EQ(stored.game.rule_set_version, city::kRuleSetVersion);
  EXPECT_EQ(stored.game.options, "");
  EXPECT_EQ(stored.game.tileset_id, city::DefaultTileSet()->id());
}

TEST(RoomGameInfo, TheOptionsAndRuleSetAGameIsPlayedByReachGameInfoAndTheLog) {
  auto store = MemoryStore();
  ControlledLog log(store);
  const RoomGame game{std::make_shared<CityWithOptions>(), &protocol::CityCodec(),
                      core::Options{{"demo", 4}, {"flag", 0}}};
  Room room(RoomOptions{1, "opts", 2, 7, 512}, game, CountingTokens(), log);
  auto creator = std::make_shared<FakePeer>();
  room.Create(creator, 3);
  ASSERT_TRUE(creator->received.back().has_game_created());
  const auto expect_info = [](const wire::GameInfo& info) {
    EXPECT_EQ(info.rule_set(), "the-city");
    EXPECT_EQ(info.rule_set_version(), 3u);
    EXPECT_EQ((std::map<std::string, int32_t>(info.options().begin(), info.options().end())),
              (std::map<std::string, int32_t>{{"demo", 4}, {"flag", 0}}));
  };
  expect_info(creator->received.back().game_created().game());
  expect_info(room.Info());
  EXPECT_EQ(room.hosted().options, game.options);

  // The seats hear it, the game is played by it, and the log keeps it.
  auto a = std::make_shared<FakePeer>();
  wire::JoinSeat join;
  join.set_game_id("g1");
  room.Join(a, 1, join);
  ASSERT_TRUE(a->received.front().has_seat_joined());
  expect_info(a->received.front().seat_joined().game());
  auto b = std::make_shared<FakePeer>();
  room.Join(b, 2, join);
  ASSERT_EQ(room.Status(), wire::GAME_STATUS_RUNNING);
  auto loaded = store.LoadGame(1);
  ASSERT_TRUE(loaded.ok() && loaded->has_value());
  const persistence::StoredGame stored = std::move(**loaded);
  EXPECT_EQ(stored.game.rule_set_version, 3);
  EXPECT_EQ(stored.game.options, "demo=4 flag=0");
  // As a game list from the log shows it, and as a restored room does.
  expect_info(InfoFromRecord(stored.game));
  Room restored(RoomOptions{1, "", 2, 0, 512}, game, CountingTokens(), log);
  ASSERT_FALSE(restored.Restore(stored).has_value());
  expect_info(restored.Info());
  EXPECT_EQ(restored.game()->Hash(), room.game()->Hash());
}

TEST(Room, LeavingBeforeTheStartFreesTheSeat) {
  Table t(2);
  auto a = t.Join();
  wire::LeaveSeat leave;
  leave.set_seat_token(a->token);
  t.room.Leave(a, 1, leave);
  EXPECT_FALSE(t.room.Info().seat(0).taken());
  auto b = t.Join();
  EXPECT_EQ(b->seat, 0);
}

TEST(Room, AReconnectingSeatGetsExactlyTheDeltasItMissed) {
  Table t(3);
  auto a = t.Join();
  auto b = t.Join();
  auto c = t.Join();
  // b drops out; the others see it go offline.
  t.room.Disconnected(b.get());
  ASSERT_TRUE(a->received.back().has_seat_status());
  EXPECT_FALSE(a->received.back().seat_status().online());
  const uint64_t seen = b->follower.sequence();
  // a and c play on until it is b's decision again.
  core::Random random(5);
  while (!t.room.game()->IsOver() && t.room.game()->CurrentActor() != 1) {
    FakePeer& p = a->legal.empty() ? *c : *a;
    const std::string action = p.legal[static_cast<size_t>(random.Below(p.legal.size()))];
    t.room.Move(p.seat == 0 ? a : c, 1, t.MoveOf(p, action));
    ASSERT_FALSE(p.LastError().has_value());
  }
  const uint64_t now = t.room.Sequence();
  ASSERT_GT(now, seen + 1);
  // b comes back on a new connection with its token and the last sequence it saw.
  auto b2 = std::make_shared<FakePeer>();
  b2->follower = std::move(b->follower);  // b's connection is gone: it hears nothing more
  b2->token = b->token;
  b2->seat = 1;
  wire::Resume resume;
  resume.set_seat_token(b->token);
  resume.set_last_seen_sequence(seen);
  t.room.Resume(b2, 42, resume);
  size_t deltas = 0;
  for (const auto& m : b2->received) deltas += m.has_delta() ? 1 : 0;
  EXPECT_EQ(deltas, now - seen) << "exactly the missed deltas";
  EXPECT_EQ(b2->received.back().request_id(), 42u);
  EXPECT_FALSE(b2->legal.empty()) << "it is b's decision: the last delta carries the legal actions";
  ASSERT_TRUE(b2->state() == CityGame(t.room).Public());
  EXPECT_TRUE(a->received.back().has_seat_status() && a->received.back().seat_status().online());
  // And b carries on.
  t.room.Move(b2, 43, t.MoveOf(*b2, b2->legal.front()));
  EXPECT_FALSE(b2->LastError().has_value());
}

TEST(Room, AResumeFromNothingOrTooFarGetsASnapshot) {
  Table t(2);
  auto a = t.Join();
  auto b = t.Join();
  t.room.Move(a, 1, t.MoveOf(*a, a->legal.front()));
  auto fresh = std::make_shared<FakePeer>();
  wire::Resume resume;
  resume.set_seat_token(b->token);
  resume.set_last_seen_sequence(0);
  t.room.Resume(fresh, 2, resume);
  ASSERT_TRUE(fresh->received.back().has_snapshot());
  EXPECT_EQ(fresh->received.back().snapshot().your_seat(), 1u);
  resume.set_seat_token("nonsense");
  t.room.Resume(fresh, 3, resume);
  EXPECT_EQ(fresh->LastError(), wire::ERROR_CODE_BAD_TOKEN);
}

// ---------------------------------------------------------------------------------------------
// The game log

persistence::StoredGame Stored(persistence::Store& store) {
  auto loaded = store.LoadGame(1);
  EXPECT_TRUE(loaded.ok() && loaded->has_value());
  return loaded.ok() && loaded->has_value() ? std::move(**loaded) : persistence::StoredGame{};
}

TEST(RoomLog, EveryAcknowledgedActionIsInTheLogAndReplaysToTheSameGame) {
  Table t(2);
  auto a = t.Join();
  auto b = t.Join();
  ASSERT_NO_FATAL_FAILURE(PlayToTheEnd(t, {a, b}, 3));
  const persistence::StoredGame stored = Stored(t.store);
  EXPECT_EQ(stored.game.status, persistence::GameStatus::kFinished);
  EXPECT_EQ(stored.actions.size(), t.room.Sequence());
  const auto replayed = persistence::ReplayStored(stored, DefaultRuleSets());
  ASSERT_FALSE(replayed.damage.has_value()) << *replayed.damage;
  EXPECT_EQ(replayed.state->Hash(), t.room.game()->Hash());
  EXPECT_NE(stored.game.result.find("\"winners\""), std::string::npos) << stored.game.result;
  // The tokens are stored as their hashes only.
  ASSERT_EQ(stored.game.seat_records.size(), 2u);
  EXPECT_EQ(stored.game.seat_records[0].token_hash, persistence::HashToken(a->token));
  EXPECT_EQ(stored.game.seat_records[1].token_hash, persistence::HashToken(b->token));
}

TEST(RoomLog, AWriteThatFailsRefusesTheMoveAndChangesNothing) {
  Table t(2);
  auto a = t.Join();
  auto b = t.Join();
  const uint64_t sequence = t.room.Sequence();
  const uint64_t hash = t.room.game()->Hash();
  const size_t b_messages = b->received.size();
  const wire::Move move = t.MoveOf(*a, a->legal.front());
  t.log.fail = persistence::StoreError{SQLITE_FULL, "database or disk is full"};
  t.room.Move(a, 5, move);
  EXPECT_EQ(a->LastError(), wire::ERROR_CODE_STORAGE_FAILED);
  EXPECT_EQ(t.room.Sequence(), sequence);
  EXPECT_EQ(t.room.game()->Hash(), hash);
  EXPECT_EQ(b->received.size(), b_messages) << "nobody hears of a move that was not saved";
  EXPECT_EQ(Stored(t.store).actions.size(), sequence);
  // Once the log works again, the same move is accepted.
  t.log.fail.reset();
  t.room.Move(a, 6, move);
  EXPECT_FALSE(a->LastError().has_value());
  EXPECT_EQ(a->received.back().request_id(), 6u);
  EXPECT_GT(t.room.Sequence(), sequence);
}

TEST(RoomLog, AJoinThatCannotBeSavedTakesNoSeat) {
  Table t(2);
  t.log.fail = persistence::StoreError{SQLITE_IOERR_WRITE, "disk I/O error"};
  auto a = t.Join();
  EXPECT_EQ(a->LastError(), wire::ERROR_CODE_STORAGE_FAILED);
  EXPECT_TRUE(a->token.empty());
  EXPECT_FALSE(t.room.Info().seat(0).taken());
}

TEST(RoomLog, TheJoinThatFillsTheGameStartsItInTheSameWrite) {
  Table t(2);
  auto a = t.Join("a");
  const size_t writes = t.log.submitted.size();
  auto b = t.Join("b");
  ASSERT_EQ(t.log.submitted.size(), writes + 1) << "the seat and the start are one write";
  const std::vector<persistence::WriteOp>& ops = t.log.submitted.back().ops;
  ASSERT_EQ(ops.size(), 4u);
  const auto* take = std::get_if<persistence::TakeSeatOp>(&ops[0]);
  ASSERT_NE(take, nullptr);
  EXPECT_EQ(take->seat.seat, 1);
  EXPECT_EQ(take->seat.player_name, "b");
  EXPECT_EQ(take->seat.token_hash, persistence::HashToken(b->token));
  const auto* start = std::get_if<persistence::StartGameOp>(&ops[1]);
  ASSERT_NE(start, nullptr);
  EXPECT_EQ(start->seats.size(), 2u);
  // The commitment to the draws lands with the start (room/draw_commitment.h).
  EXPECT_TRUE(std::holds_alternative<persistence::CommitDrawsOp>(ops[2]));
  const auto* draws = std::get_if<persistence::AppendActionsOp>(&ops[3]);
  ASSERT_NE(draws, nullptr);
  ASSERT_FALSE(draws->actions.empty());
  EXPECT_EQ(draws->actions.front().sequence, 1u);
  EXPECT_EQ(draws->actions.size(), t.room.Sequence());
  // The joiner hears of its seat first, then of the start, like everybody.
  ASSERT_GE(b->received.size(), 2u);
  EXPECT_TRUE(b->received[0].has_seat_joined());
  EXPECT_TRUE(b->received[1].has_snapshot());
  EXPECT_EQ(Stored(t.store).game.status, persistence::GameStatus::kRunning);
  // The game runs: whoever holds the legal actions plays one.
  ASSERT_EQ(t.room.Status(), wire::GAME_STATUS_RUNNING);
  auto& decider = a->legal.empty() ? b : a;
  ASSERT_FALSE(decider->legal.empty());
  t.room.Move(decider, 5, t.MoveOf(*decider, decider->legal.front()));
  EXPECT_FALSE(decider->LastError().has_value());
  EXPECT_GT(t.room.Sequence(), draws->actions.size());
}

TEST(RoomLog, AFillingJoinThatCannotBeSavedNeitherTakesTheSeatNorStarts) {
  Table t(2);
  std::vector<RoomEvent> events;
  t.room.on_event = [&events](RoomEvent e) { events.push_back(e); };
  auto a = t.Join("a");
  auto watcher = std::make_shared<FakePeer>();
  t.room.Spectate(watcher, 2);
  const size_t a_messages = a->received.size();
  const size_t watcher_messages = watcher->received.size();
  t.log.fail = persistence::StoreError{SQLITE_IOERR_WRITE, "disk I/O error"};
  auto b = t.Join("b");
  EXPECT_EQ(b->LastError(), wire::ERROR_CODE_STORAGE_FAILED);
  EXPECT_EQ(b->received.size(), 1u);
  EXPECT_TRUE(b->token.empty());
  EXPECT_EQ(a->received.size(), a_messages) << "nothing is published";
  EXPECT_EQ(watcher->received.size(), watcher_messages) << "nothing is published";
  EXPECT_TRUE(events.empty());
  const wire::GameInfo info = t.room.Info();
  EXPECT_FALSE(info.seat(1).taken());
  EXPECT_EQ(info.status(), wire::GAME_STATUS_OPEN);
  EXPECT_EQ(t.room.game(), nullptr);
  EXPECT_EQ(t.room.Sequence(), 0u);
  const persistence::StoredGame stored = Stored(t.store);
  EXPECT_EQ(stored.game.status, persistence::GameStatus::kOpen);
  EXPECT_EQ(stored.game.seat_records.size(), 1u);
  EXPECT_TRUE(stored.actions.empty());
  // Once the log works again, a later join takes the seat and starts the game.
  t.log.fail.reset();
  auto c = t.Join("c");
  EXPECT_EQ(c->seat, 1);
  EXPECT_EQ(t.room.Status(), wire::GAME_STATUS_RUNNING);
  EXPECT_EQ(events, std::vector<RoomEvent>{RoomEvent::kStarted});
  EXPECT_TRUE(c->follower.started());
  EXPECT_TRUE(watcher->follower.started());
  EXPECT_EQ(Stored(t.store).game.status, persistence::GameStatus::kRunning);
  EXPECT_EQ(Stored(t.store).actions.size(), t.room.Sequence());
}

TEST(RoomLog, RequestsWaitForTheWriteInFlightAndThenSeeItsResult) {
  Table t(2);
  auto a = t.Join();
  auto b = t.Join();
  const uint64_t before = t.room.Sequence();
  t.log.hold = true;
  t.room.Move(a, 7, t.MoveOf(*a, a->legal.front()));
  auto watcher = std::make_shared<FakePeer>();
  t.room.Spectate(watcher, 8);
  EXPECT_TRUE(t.room.writing());
  EXPECT_TRUE(watcher->received.empty()) << "the spectator waits for the write";
  EXPECT_EQ(t.room.Sequence(), before) << "nothing is published before the commit";
  t.log.Release();
  EXPECT_FALSE(t.room.writing());
  ASSERT_FALSE(watcher->received.empty());
  ASSERT_TRUE(watcher->received.front().has_snapshot());
  EXPECT_EQ(watcher->received.front().snapshot().sequence(), t.room.Sequence())
      << "the spectator's snapshot shows the committed move";
  EXPECT_EQ(a->received.back().request_id(), 7u);
}

TEST(RoomLog, ARestoredRoomTakesItsSeatsBackByToken) {
  Table t(2);
  auto a = t.Join();
  auto b = t.Join();
  core::Random random(9);
  for (int i = 0; i < 20; ++i) {
    FakePeer& p = a->legal.empty() ? *b : *a;
    t.room.Move(p.seat == 0 ? a : b, 10, t.MoveOf(p, p.legal[random.Below(p.legal.size())]));
    ASSERT_FALSE(p.LastError().has_value());
  }
  // A second room, as after a restart, from what the log holds.
  auto unfinished = t.store.LoadUnfinished();
  ASSERT_TRUE(unfinished.ok());
  ASSERT_EQ(unfinished->size(), 1u);
  Room restored(RoomOptions{1, "", 2, 0, 512}, DefaultRoomGame(CityRules()), CountingTokens(),
                t.log);
  ASSERT_FALSE(restored.Restore(unfinished->front()).has_value());
  EXPECT_EQ(restored.Status(), wire::GAME_STATUS_RUNNING);
  EXPECT_EQ(restored.Sequence(), t.room.Sequence());
  EXPECT_EQ(restored.game()->Hash(), t.room.game()->Hash());
  EXPECT_FALSE(restored.Info().seat(0).online()) << "offline until the player comes back";
  // The player who must decide comes back with its token and plays on.
  auto& decider = a->legal.empty() ? b : a;
  auto back = std::make_shared<FakePeer>();
  wire::Resume resume;
  resume.set_seat_token(decider->token);
  restored.Resume(back, 11, resume);
  ASSERT_TRUE(back->received.back().has_snapshot());
  ASSERT_FALSE(back->legal.empty());
  back->token = decider->token;
  restored.Move(back, 12, t.MoveOf(*back, back->legal.front()));
  EXPECT_FALSE(back->LastError().has_value());
}

TEST(RoomLog, ALogThatDoesNotReplayIsMarkedDamagedAndNotPlayed) {
  Table t(2);
  auto a = t.Join();
  auto b = t.Join();
  t.room.Move(a, 1, t.MoveOf(*a, a->legal.front()));
  ASSERT_FALSE(t.store.connection().Exec("UPDATE actions SET state_hash = 1 WHERE sequence = 2"));
  auto unfinished = t.store.LoadUnfinished();
  ASSERT_TRUE(unfinished.ok());
  Room restored(RoomOptions{1, "", 2, 0, 512}, DefaultRoomGame(CityRules()), CountingTokens(),
                t.log);
  const auto damage = restored.Restore(unfinished->front());
  ASSERT_TRUE(damage.has_value());
  EXPECT_NE(damage->find("action 2"), std::string::npos) << *damage;
  EXPECT_EQ(restored.Status(), wire::GAME_STATUS_DAMAGED);
  auto back = std::make_shared<FakePeer>();
  wire::Move move = t.MoveOf(*b, Skip(citypb::ACTION_KIND_SKIP_FOLLOWER));
  move.set_seat_token(a->token);
  restored.Move(back, 2, move);
  EXPECT_EQ(back->LastError(), wire::ERROR_CODE_GAME_DAMAGED);
  EXPECT_EQ(Stored(t.store).game.status, persistence::GameStatus::kDamaged);
}

TEST(RoomLog, AFullGameLeftUnstartedByACrashStartsWhenRestored) {
  Table t(2);
  auto a = t.Join();
  // The second seat is in the log but no start: a file from an older server, which wrote the
  // last join and the start separately and stopped between the two.
  ASSERT_FALSE(t.store.Apply(persistence::Write{
      1, {persistence::TakeSeatOp{1, {1, "b", persistence::HashToken("b's token")}}}}));
  auto unfinished = t.store.LoadUnfinished();
  ASSERT_TRUE(unfinished.ok());
  Room restored(RoomOptions{1, "", 2, 7, 512}, DefaultRoomGame(CityRules()), CountingTokens(),
                t.log);
  ASSERT_FALSE(restored.Restore(unfinished->front()).has_value());
  EXPECT_EQ(restored.Status(), wire::GAME_STATUS_RUNNING);
  EXPECT_EQ(Stored(t.store).game.status, persistence::GameStatus::kRunning);
  EXPECT_EQ(Stored(t.store).actions.size(), restored.Sequence());
}

// The public state of `game` after its first `actions` actions.
city::PublicState StateAfter(const city::Game& game, uint64_t actions) {
  city::Game replay = std::get<city::Game>(city::Game::CreateWithOrder(
      city::DefaultTileSet(), game.config(), game.seed(), game.Order()));
  for (uint64_t i = 0; i < actions; ++i) {
    const city::HistoryEntry& e = game.History()[i];
    [[maybe_unused]] const auto error = replay.Apply(e.actor, e.action, nullptr);
    assert(!error);
  }
  return replay.Public();
}

// A snapshot of game g1 as the room would send it to a spectator.
wire::Snapshot SnapshotOf(const city::PublicState& state, uint64_t sequence) {
  wire::Snapshot snapshot;
  snapshot.set_game_id("g1");
  snapshot.set_sequence(sequence);
  snapshot.set_state(protocol::ToProto(state).SerializeAsString());
  snapshot.set_state_hash(state.Hash());
  snapshot.set_rule_set(city::kRuleSetId);
  return snapshot;
}

// A finished game read back from the log (the lobby does this for a game no longer hosted)
// answers as it did while hosted, and writes nothing.
TEST(RoomLog, AFinishedGameRestoredFromTheLogGivesItsSeatsWhatTheyMissed) {
  Table t(2);
  auto a = t.Join();
  auto b = t.Join();
  ASSERT_NO_FATAL_FAILURE(PlayToTheEnd(t, {a, b}, 21));
  const auto stored = t.store.LoadGame(1);
  ASSERT_TRUE(stored.ok() && stored->has_value());
  const size_t writes = t.log.submitted.size();
  Room restored(RoomOptions{1, "", 2, 0, 512}, DefaultRoomGame(CityRules()), CountingTokens(),
                t.log);
  ASSERT_FALSE(restored.Restore(**stored).has_value());
  EXPECT_EQ(restored.Status(), wire::GAME_STATUS_FINISHED);
  EXPECT_EQ(restored.Sequence(), t.room.Sequence());
  EXPECT_EQ(t.log.submitted.size(), writes) << "an ended game is not written again";

  const uint64_t end = t.room.Sequence();
  auto back = std::make_shared<FakePeer>();
  wire::Resume resume;
  resume.set_game_id("g1");
  resume.set_seat_token(b->token);
  resume.set_last_seen_sequence(0);
  restored.Resume(back, 5, resume);
  ASSERT_TRUE(back->received.back().has_snapshot()) << "from nothing: the final snapshot";
  EXPECT_EQ(back->received.back().request_id(), 5u);
  EXPECT_EQ(back->received.back().snapshot().sequence(), end);
  EXPECT_EQ(back->received.back().snapshot().your_seat(), 1u);
  EXPECT_TRUE(back->state() == CityGame(t.room).Public());

  // A seat that missed the last three deltas gets exactly those, and follows them to the end.
  auto behind = std::make_shared<FakePeer>();
  ASSERT_EQ(behind->follower.Start(SnapshotOf(StateAfter(CityGame(t.room), end - 3), end - 3),
                                   city::DefaultTileSet()),
            std::nullopt);
  resume.set_last_seen_sequence(end - 3);
  restored.Resume(behind, 6, resume);
  std::vector<uint64_t> sequences;
  for (const auto& m : behind->received) {
    if (m.has_delta()) sequences.push_back(m.delta().sequence());
  }
  EXPECT_EQ(sequences, (std::vector<uint64_t>{end - 2, end - 1, end})) << "the missed deltas";
  EXPECT_EQ(behind->received.back().request_id(), 6u) << "the last one answers the Resume";
  EXPECT_TRUE(behind->state() == CityGame(t.room).Public());

  resume.set_seat_token(std::string(16, '\x7f'));
  auto stranger = std::make_shared<FakePeer>();
  restored.Resume(stranger, 7, resume);
  EXPECT_EQ(stranger->LastError(), wire::ERROR_CODE_BAD_TOKEN);

  auto spectator = std::make_shared<FakePeer>();
  restored.Spectate(spectator, 8);
  ASSERT_TRUE(spectator->received.back().has_snapshot());
  EXPECT_FALSE(spectator->received.back().snapshot().has_your_seat());
  EXPECT_TRUE(spectator->state() == CityGame(t.room).Public());
}

// The deltas a seat missed come as the very bytes every connection got when they were new, from
// the room that played them and from the same game read back from the log.
TEST(RoomLog, AResumeAfterAWholeGameGetsEveryDeltaByteForByte) {
  Table t(4);
  std::vector<std::shared_ptr<FakePeer>> peers;
  peers.reserve(4);
  for (int i = 0; i < 3; ++i) peers.push_back(t.Join("p" + std::to_string(i)));
  auto spectator = std::make_shared<FakePeer>();
  t.room.Spectate(spectator, 9);
  peers.push_back(t.Join("p3"));
  ASSERT_NO_FATAL_FAILURE(PlayToTheEnd(t, peers, 13));
  std::map<uint64_t, std::string> live;  // what the spectator got, by sequence
  for (size_t i = 0; i < spectator->received.size(); ++i) {
    if (spectator->received[i].has_delta()) {
      live[spectator->received[i].delta().sequence()] = spectator->raw[i];
    }
  }
  const uint64_t end = t.room.Sequence();
  ASSERT_EQ(live.size(), end) << "the spectator saw the game from its start";
  ASSERT_GT(end, 200u);

  Room restored(RoomOptions{1, "", 4, 0, 512}, DefaultRoomGame(CityRules()), CountingTokens(),
                t.log);
  ASSERT_FALSE(restored.Restore(Stored(t.store)).has_value());
  for (Room* room : {&t.room, &restored}) {
    auto back = std::make_shared<FakePeer>();
    ASSERT_EQ(back->follower.Start(SnapshotOf(StateAfter(CityGame(t.room), 1), 1),
                                   city::DefaultTileSet()),
              std::nullopt);
    wire::Resume resume;
    resume.set_game_id("g1");
    resume.set_seat_token(peers[2]->token);
    resume.set_last_seen_sequence(1);
    room->Resume(back, 77, resume);
    std::vector<size_t> deltas;  // indices in back->received
    for (size_t i = 0; i < back->received.size(); ++i) {
      if (back->received[i].has_delta()) deltas.push_back(i);
    }
    ASSERT_EQ(deltas.size(), end - 1) << "every delta after the first";
    for (size_t k = 0; k + 1 < deltas.size(); ++k) {
      const uint64_t sequence = k + 2;
      ASSERT_EQ(back->received[deltas[k]].delta().sequence(), sequence);
      ASSERT_EQ(back->raw[deltas[k]], live[sequence]) << "delta " << sequence;
    }
    // The last one answers the Resume: the same delta with the request's id (the game is over,
    // so no seat has legal actions).
    wire::ServerMessage last = back->received[deltas.back()];
    EXPECT_EQ(last.request_id(), 77u);
    EXPECT_EQ(last.delta().legal_actions_size(), 0);
    last.set_request_id(0);
    EXPECT_EQ(last.SerializeAsString(), live[end]);
    EXPECT_TRUE(back->state() == CityGame(t.room).Public());
  }
}

// Abandoning: the log first, then the seats and spectators; the game then refuses play.
TEST(RoomAbandon, AnIdleOpenGameIsAbandonedInTheLogBeforeAnybodyIsTold) {
  Table t(3);
  auto a = t.Join();
  auto spectator = std::make_shared<FakePeer>();
  t.room.Spectate(spectator, 2);
  std::vector<RoomEvent> events;
  t.room.on_event = [&events](RoomEvent e) { events.push_back(e); };
  const size_t a_before = a->received.size();
  const size_t spectator_before = spectator->received.size();
  EXPECT_GT(t.room.LastActivityMs(), 0) << "the join was committed";

  t.log.hold = true;
  t.room.Abandon();
  ASSERT_EQ(t.log.held(), 1u);
  EXPECT_EQ(t.room.Status(), wire::GAME_STATUS_OPEN) << "nothing changes before the commit";
  EXPECT_EQ(a->received.size(), a_before) << "nothing is announced before the commit";
  EXPECT_EQ(Stored(t.store).game.status, persistence::GameStatus::kOpen);
  t.log.Release();

  EXPECT_EQ(Stored(t.store).game.status, persistence::GameStatus::kAbandoned);
  EXPECT_EQ(t.room.Status(), wire::GAME_STATUS_ABANDONED);
  EXPECT_EQ(events, std::vector<RoomEvent>{RoomEvent::kAbandoned});
  for (const auto& peer : {a, spectator}) {
    const size_t before = peer == a ? a_before : spectator_before;
    ASSERT_EQ(peer->received.size(), before + 1);
    ASSERT_TRUE(peer->received.back().has_lobby_update());
    EXPECT_EQ(peer->received.back().lobby_update().game().status(), wire::GAME_STATUS_ABANDONED);
  }
  auto late = std::make_shared<FakePeer>();
  wire::JoinSeat join;
  join.set_player_name("late");
  t.room.Join(late, 3, join);
  EXPECT_EQ(late->LastError(), wire::ERROR_CODE_GAME_NOT_RUNNING);
  t.room.Abandon();  // an ended game is left as it is
  EXPECT_EQ(events.size(), 1u);
}

TEST(RoomAbandon, AnAbandonedRunningGameRefusesMovesAndStillAnswersResume) {
  Table t(2);
  auto a = t.Join();
  auto b = t.Join();
  const uint64_t sequence = t.room.Sequence();
  t.room.Abandon();
  ASSERT_EQ(t.room.Status(), wire::GAME_STATUS_ABANDONED);
  EXPECT_EQ(Stored(t.store).game.status, persistence::GameStatus::kAbandoned);
  ASSERT_TRUE(b->received.back().has_lobby_update());
  EXPECT_EQ(b->received.back().lobby_update().game().status(), wire::GAME_STATUS_ABANDONED);
  t.room.Move(a, 4, t.MoveOf(*a, a->legal.front()));
  EXPECT_EQ(a->LastError(), wire::ERROR_CODE_GAME_NOT_RUNNING);
  EXPECT_EQ(t.room.Sequence(), sequence);

  // From the log, the abandoned game still gives a seat its last state.
  const auto stored = t.store.LoadGame(1);
  ASSERT_TRUE(stored.ok() && stored->has_value());
  Room restored(RoomOptions{1, "", 2, 0, 512}, DefaultRoomGame(CityRules()), CountingTokens(),
                t.log);
  ASSERT_FALSE(restored.Restore(**stored).has_value());
  EXPECT_EQ(restored.Status(), wire::GAME_STATUS_ABANDONED);
  auto back = std::make_shared<FakePeer>();
  wire::Resume resume;
  resume.set_seat_token(b->token);
  restored.Resume(back, 5, resume);
  ASSERT_TRUE(back->received.back().has_snapshot());
  EXPECT_EQ(back->received.back().snapshot().sequence(), sequence);
}

TEST(RoomAbandon, AnAbandonThatCannotBeSavedChangesNothing) {
  Table t(2);
  auto a = t.Join();
  const size_t before = a->received.size();
  t.log.fail = persistence::StoreError{SQLITE_FULL, "disk full"};
  t.room.Abandon();
  EXPECT_EQ(t.room.Status(), wire::GAME_STATUS_OPEN);
  EXPECT_EQ(a->received.size(), before);
  t.log.fail.reset();
  auto b = t.Join();
  EXPECT_EQ(t.room.Status(), wire::GAME_STATUS_RUNNING) << "the game carries on";
}

}  // namespace
}  // namespace carc::server
