// The protocol codec: engine values survive the trip through protobuf bytes, malformed input is
// refused, and a client that knows nothing but the wire messages follows whole games with the
// server's state and hash at every step.
#include "protocol/codec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <string>

#include "city/default_tiles.h"
#include "city/game.h"
#include "city/public_state.h"
#include "city/random_play.h"

namespace carc::protocol {
namespace {

template <typename Message>
Message ThroughBytes(const Message& message) {
  std::string bytes;
  EXPECT_TRUE(message.SerializeToString(&bytes));
  Message parsed;
  EXPECT_TRUE(parsed.ParseFromString(bytes));
  return parsed;
}

city::Game NewGame(uint64_t seed, int players) {
  city::Config config;
  config.players = players;
  return std::get<city::Game>(city::Game::Create(city::DefaultTileSet(), config, seed));
}

// The server's side of one step: the delta for an accepted action.
v1::ServerMessage DeltaFor(const city::Game& game, uint64_t sequence, const city::Action& action,
                           const std::vector<city::Event>& events) {
  v1::ServerMessage message;
  v1::Delta* delta = message.mutable_delta();
  delta->set_game_id("g1");
  delta->set_sequence(sequence);
  *delta->mutable_action() = ToProto(action);
  for (const city::Event& e : events) *delta->add_events() = ToProto(e, game.players());
  delta->set_state_hash(game.Hash());
  return message;
}

TEST(Codec, EveryLegalActionSurvivesTheWire) {
  std::set<city::ActionKind> kinds;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    city::Game game = NewGame(seed, 2 + static_cast<int>(seed % 3));
    core::Random random = city::ChoiceRandom(seed);
    city::PlayBuffers buffers;
    do {
      game.LegalActions(&buffers.legal);
      for (const city::Action& a : buffers.legal) {
        const auto decoded = FromProto(ThroughBytes(ToProto(a)));
        ASSERT_TRUE(decoded.has_value());
        ASSERT_EQ(*decoded, a);
        kinds.insert(a.kind);
      }
    } while (city::RandomStep(game, random, buffers, city::Policy::kEager));
  }
  EXPECT_EQ(kinds.size(), 10u) << "every action kind was met";
}

TEST(Codec, ActionsOutsideTheEnginesRangesAreRefused) {
  v1::Action a;
  a.set_kind(v1::ACTION_KIND_PLACE_TILE);
  ASSERT_TRUE(FromProto(a).has_value());
  for (const auto& mutate : std::vector<std::function<void(v1::Action*)>>{
           [](v1::Action* m) { m->set_kind(v1::ACTION_KIND_UNSPECIFIED); },
           [](v1::Action* m) { m->set_kind(static_cast<v1::ActionKind>(11)); },
           [](v1::Action* m) { m->set_x(128); }, [](v1::Action* m) { m->set_y(-129); },
           [](v1::Action* m) { m->set_rotation(256); }, [](v1::Action* m) { m->set_side(1000); },
           [](v1::Action* m) { m->set_feature(300); },
           [](v1::Action* m) { m->set_end(4000000000u); },
           [](v1::Action* m) { m->set_tile(256); }}) {
    v1::Action bad = a;
    mutate(&bad);
    EXPECT_FALSE(FromProto(bad).has_value()) << bad.ShortDebugString();
  }
}

// A client that starts from a snapshot and applies deltas decoded from bytes holds the server's
// public state and hash after every action, in whole games of every size, with walls.
TEST(Codec, AClientFollowingTheWireStaysInStep) {
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    city::Game game = NewGame(seed, 2 + static_cast<int>(seed % 3));
    v1::ServerMessage snapshot;
    *snapshot.mutable_snapshot()->mutable_state() = ToProto(game.Public());
    snapshot.mutable_snapshot()->set_state_hash(game.Hash());
    auto client = FromProto(ThroughBytes(snapshot).snapshot().state());
    ASSERT_TRUE(client.has_value());
    ASSERT_TRUE(*client == game.Public());
    core::Random random = city::ChoiceRandom(seed);
    city::PlayBuffers buffers;
    uint64_t sequence = 0;
    while (!game.IsOver()) {
      game.LegalActions(&buffers.legal);
      const city::Action action = city::EagerChoice(buffers.legal, random);
      buffers.events.clear();
      ASSERT_FALSE(game.Apply(game.CurrentDecision().actor, action, &buffers.events));
      const v1::ServerMessage wire =
          ThroughBytes(DeltaFor(game, ++sequence, action, buffers.events));
      for (const v1::Event& e : wire.delta().events()) {
        const auto event = FromProto(e);
        ASSERT_TRUE(event.has_value()) << e.ShortDebugString();
        client->Apply(*event);
      }
      ASSERT_EQ(client->Hash(), wire.delta().state_hash())
          << "seed " << seed << " step " << sequence;
      ASSERT_TRUE(*client == game.Public()) << "seed " << seed << " step " << sequence;
    }
  }
}

TEST(Codec, SnapshotsRoundTripAtAnyStep) {
  city::Game game = NewGame(58, 4);
  core::Random random = city::ChoiceRandom(58);
  city::PlayBuffers buffers;
  int step = 0;
  do {
    if (++step % 7 == 0 || game.IsOver()) {
      const auto decoded = FromProto(ThroughBytes(ToProto(game.Public())));
      ASSERT_TRUE(decoded.has_value());
      ASSERT_TRUE(*decoded == game.Public()) << "step " << step;
      ASSERT_EQ(decoded->Hash(), game.Hash());
    }
  } while (city::RandomStep(game, random, buffers, city::Policy::kEager));
}

TEST(Codec, MalformedEventsAreRefused) {
  EXPECT_FALSE(FromProto(v1::Event{}).has_value()) << "no event set";
  v1::Event placed;
  placed.mutable_tile_placed()->set_x(500);
  EXPECT_FALSE(FromProto(placed).has_value());
  v1::Event follower;
  follower.mutable_follower_placed()->set_role(v1::FEATURE_KIND_UNSPECIFIED);
  EXPECT_FALSE(FromProto(follower).has_value());
  v1::Event scored;
  scored.mutable_feature_scored()->set_kind(v1::FEATURE_KIND_STREET);
  scored.mutable_feature_scored()->set_cause(v1::SCORE_CAUSE_TILE);
  ASSERT_TRUE(FromProto(scored).has_value());
  for (int i = 0; i < 6; ++i) scored.mutable_feature_scored()->add_points(1);
  EXPECT_FALSE(FromProto(scored).has_value()) << "more points than seats";
  v1::Event wall;
  wall.mutable_wall_built()->set_end(2);
  EXPECT_FALSE(FromProto(wall).has_value());
  v1::Event decision;
  decision.mutable_decision_requested()->mutable_decision()->set_kind(
      v1::DECISION_KIND_UNSPECIFIED);
  EXPECT_FALSE(FromProto(decision).has_value());
}

TEST(Codec, MalformedStatesAreRefused) {
  const city::Game game = NewGame(1, 3);
  const v1::PublicState good = ToProto(game.Public());
  ASSERT_TRUE(FromProto(good).has_value());
  v1::PublicState bad = good;
  bad.add_stack_sizes(5);
  EXPECT_FALSE(FromProto(bad).has_value()) << "four stacks";
  bad = good;
  bad.set_players(4);
  EXPECT_FALSE(FromProto(bad).has_value()) << "players and player entries disagree";
  bad = good;
  bad.mutable_decision()->set_actor(1000);
  EXPECT_FALSE(FromProto(bad).has_value());
  bad = good;
  bad.add_front()->set_side(7);
  EXPECT_FALSE(FromProto(bad).has_value());
}

// Every engine refusal has its own stable code, named after the engine's error.
TEST(Codec, EveryEngineErrorHasItsOwnCode) {
  std::set<int> codes;
  for (int e = 0; e <= static_cast<int>(city::Error::kTowerEndTaken); ++e) {
    const auto error = static_cast<city::Error>(e);
    const v1::ErrorCode code = ToErrorCode(error);
    ASSERT_TRUE(v1::ErrorCode_IsValid(code)) << city::ToString(error);
    std::string expected = std::string("ERROR_CODE_RULE_") + city::ToString(error);
    std::transform(expected.begin(), expected.end(), expected.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    EXPECT_EQ(v1::ErrorCode_Name(code), expected);
    codes.insert(code);
  }
  EXPECT_EQ(codes.size(), static_cast<size_t>(city::Error::kTowerEndTaken) + 1);
}

}  // namespace
}  // namespace carc::protocol
