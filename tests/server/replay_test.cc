// Replays for clients (room/replay.h): a stored game of The City as GetReplay and Seek answer
// it, rebuilt with the rule set (id and version) it was stored with; a game whose rule set this
// server does not have, has not started or does not replay is refused with its code.
#include "room/replay.h"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "city/default_tiles.h"
#include "city/rule_set.h"
#include "core/hash.h"
#include "persistence/journal.h"
#include "protocol/follower.h"
#include "registry.h"
#include "room/room.h"

namespace carc::server {
namespace {

// A connection that keeps the last seat token it was given.
class Seat : public Peer {
 public:
  void Send(Bytes message) override {
    wire::ServerMessage decoded;
    ASSERT_TRUE(decoded.ParseFromString(*message));
    if (decoded.has_seat_joined()) token = decoded.seat_joined().seat_token();
  }
  std::string token;
};

class ReplayTest : public ::testing::Test {
 protected:
  ReplayTest() : store_(Open()), log_(store_) {}

  static persistence::Store Open() {
    persistence::StoreOptions options;
    options.path = ":memory:";
    auto store = persistence::Store::Open(options);
    EXPECT_TRUE(store.ok());
    return std::move(*store);
  }

  // Game 1 of The City, two seats, played through a room for `moves` moves (or to its end).
  void Play(int moves) {
    Room room(RoomOptions{1, "replayed", 2, 11, 512},
              DefaultRoomGame(city::MakeRuleSet(city::DefaultTileSet())), OsRandomToken, log_);
    room.Create(std::make_shared<Seat>(), 0);
    std::vector<std::shared_ptr<Seat>> seats;
    for (int i = 0; i < 2; ++i) {
      seats.push_back(std::make_shared<Seat>());
      wire::JoinSeat join;
      join.set_game_id("g1");
      room.Join(seats.back(), 1, join);
    }
    ASSERT_EQ(room.Status(), wire::GAME_STATUS_RUNNING);
    core::Random random(3);
    for (int i = 0; i < moves && !room.game()->IsOver(); ++i) {
      const auto legal = room.hosted().codec->EncodeLegalActions(*room.game());
      const auto& seat = seats[static_cast<size_t>(room.game()->CurrentActor())];
      wire::Move move;
      move.set_game_id("g1");
      move.set_seat_token(seat->token);
      move.set_sequence(room.Sequence());
      move.set_action(legal[static_cast<size_t>(random.Below(legal.size()))]);
      const uint64_t before = room.Sequence();
      room.Move(seat, 2, move);
      ASSERT_GT(room.Sequence(), before);
    }
    final_hash_ = room.game()->Hash();
    over_ = room.game()->IsOver();
  }

  persistence::StoredGame Stored() {
    auto loaded = store_.LoadGame(1);
    EXPECT_TRUE(loaded.ok() && loaded->has_value());
    return std::move(**loaded);
  }

  persistence::Store store_;
  persistence::DirectLog log_;
  uint64_t final_hash_ = 0;
  bool over_ = false;
  const RuleSetRegistry rule_sets_ = DefaultRuleSets();
};

// Every step of the replay follows from its start, as a client's Follower checks it, to the
// state the room finished with.
TEST_F(ReplayTest, AFinishedGameReplaysStepByStepToItsEnd) {
  ASSERT_NO_FATAL_FAILURE(Play(100000));
  ASSERT_TRUE(over_);
  const persistence::StoredGame stored = Stored();
  const wire::ServerMessage message = ReplayMessage(stored, rule_sets_);
  ASSERT_TRUE(message.has_replay()) << message.ShortDebugString().substr(0, 200);
  const wire::Replay& replay = message.replay();
  EXPECT_EQ(replay.game().game_id(), "g1");
  EXPECT_EQ(replay.game().rule_set(), "the-city");
  EXPECT_EQ(replay.game().rule_set_version(), static_cast<uint32_t>(city::kRuleSetVersion));
  EXPECT_EQ(replay.game().status(), wire::GAME_STATUS_FINISHED);
  EXPECT_EQ(replay.start().sequence(), 0u);
  EXPECT_EQ(replay.start().rule_set(), "the-city");
  EXPECT_FALSE(replay.start().has_your_seat());
  ASSERT_EQ(static_cast<size_t>(replay.steps_size()), stored.actions.size());
  ASSERT_EQ(replay.time_ms_size(), replay.steps_size());
  protocol::Follower follower;
  ASSERT_EQ(follower.Start(replay.start(), city::DefaultTileSet()), std::nullopt);
  for (int i = 0; i < replay.steps_size(); ++i) {
    const wire::Delta& step = replay.steps(i);
    EXPECT_EQ(step.legal_actions_size(), 0);
    ASSERT_EQ(follower.Apply(step), std::nullopt) << "step " << i;
    EXPECT_EQ(step.state_hash(), stored.actions[static_cast<size_t>(i)].state_hash);
    EXPECT_EQ(follower.last_action(), stored.actions[static_cast<size_t>(i)].action)
        << "the step's action reads as the log stores it";
  }
  EXPECT_EQ(follower.hash(), final_hash_);
  EXPECT_TRUE(follower.over());
}

TEST_F(ReplayTest, SeekGivesThePublicStateAtAStep) {
  ASSERT_NO_FATAL_FAILURE(Play(12));
  const persistence::StoredGame stored = Stored();
  ASSERT_GT(stored.actions.size(), 10u);
  for (const uint64_t sequence : {uint64_t{0}, uint64_t{5}, uint64_t{stored.actions.size()}}) {
    const wire::ServerMessage message = SeekMessage(stored, rule_sets_, sequence);
    ASSERT_TRUE(message.has_snapshot()) << message.ShortDebugString();
    EXPECT_EQ(message.snapshot().sequence(), sequence);
    EXPECT_EQ(message.snapshot().rule_set(), "the-city");
    EXPECT_EQ(message.snapshot().legal_actions_size(), 0);
    if (sequence > 0) {
      EXPECT_EQ(message.snapshot().state_hash(), stored.actions[sequence - 1].state_hash);
    }
    protocol::Follower follower;
    EXPECT_EQ(follower.Start(message.snapshot(), city::DefaultTileSet()), std::nullopt);
  }
  EXPECT_EQ(SeekMessage(stored, rule_sets_, stored.actions.size()).snapshot().state_hash(),
            final_hash_);
  const wire::ServerMessage beyond = SeekMessage(stored, rule_sets_, stored.actions.size() + 1);
  EXPECT_EQ(beyond.error().code(), wire::ERROR_CODE_MALFORMED_MESSAGE);
}

// A game stored with a version of its rules that this server's registry does not hold (rules
// since changed), or with a rule set it does not have at all, is not replayed by other rules.
TEST_F(ReplayTest, ARuleSetVersionNotInTheRegistryIsRefused) {
  ASSERT_NO_FATAL_FAILURE(Play(6));
  persistence::StoredGame stored = Stored();
  ASSERT_TRUE(ReplayMessage(stored, rule_sets_).has_replay());
  stored.game.rule_set_version = city::kRuleSetVersion + 1;
  ASSERT_EQ(rule_sets_.Find("the-city", stored.game.rule_set_version), nullptr);
  wire::ServerMessage refused = ReplayMessage(stored, rule_sets_);
  ASSERT_TRUE(refused.has_error());
  EXPECT_EQ(refused.error().code(), wire::ERROR_CODE_NO_SUCH_RULE_SET);
  EXPECT_NE(refused.error().reason().find("'the-city' version 2"), std::string::npos)
      << refused.error().reason();
  EXPECT_EQ(SeekMessage(stored, rule_sets_, 1).error().code(), wire::ERROR_CODE_NO_SUCH_RULE_SET);

  stored.game.rule_set_version = city::kRuleSetVersion;
  EXPECT_EQ(ReplayMessage(stored, RuleSetRegistry{}).error().code(),
            wire::ERROR_CODE_NO_SUCH_RULE_SET)
      << "a registry without The City";
  stored.game.rule_set = "no-such-game";
  EXPECT_EQ(ReplayMessage(stored, rule_sets_).error().code(), wire::ERROR_CODE_NO_SUCH_RULE_SET);
  EXPECT_EQ(SeekMessage(stored, rule_sets_, 0).error().code(), wire::ERROR_CODE_NO_SUCH_RULE_SET);
}

TEST_F(ReplayTest, AGameNotStartedOrDamagedIsRefused) {
  ASSERT_NO_FATAL_FAILURE(Play(4));
  persistence::StoredGame stored = Stored();
  persistence::StoredGame open = stored;
  open.game.status = persistence::GameStatus::kOpen;
  open.game.order.clear();
  open.actions.clear();
  EXPECT_EQ(ReplayMessage(open, rule_sets_).error().code(), wire::ERROR_CODE_GAME_NOT_RUNNING);
  EXPECT_EQ(SeekMessage(open, rule_sets_, 0).error().code(), wire::ERROR_CODE_GAME_NOT_RUNNING);

  persistence::StoredGame wrong_hash = stored;
  wrong_hash.actions[1].state_hash ^= 1;
  EXPECT_EQ(ReplayMessage(wrong_hash, rule_sets_).error().code(), wire::ERROR_CODE_GAME_DAMAGED);
  EXPECT_EQ(SeekMessage(wrong_hash, rule_sets_, 3).error().code(), wire::ERROR_CODE_GAME_DAMAGED);

  persistence::StoredGame marked = stored;
  marked.game.status = persistence::GameStatus::kDamaged;
  marked.game.damage = "action 2: its hash";
  const wire::ServerMessage damaged = ReplayMessage(marked, rule_sets_);
  EXPECT_EQ(damaged.error().code(), wire::ERROR_CODE_GAME_DAMAGED);
  EXPECT_NE(damaged.error().reason().find("action 2: its hash"), std::string::npos);
}

}  // namespace
}  // namespace carc::server
