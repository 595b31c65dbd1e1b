// The Follower: a client's copy of a game from a snapshot through deltas, the hash checked at
// every step; whole games followed through protobuf bytes, and every delta that does not follow
// refused with a reason while the follower stays as it was.
#include "protocol/follower.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "city/default_tiles.h"
#include "city/game.h"
#include "city/random_play.h"
#include "protocol/codec.h"

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

// What a server sends one seat of a game played with eager choices: the snapshot at sequence 0,
// then a delta per action, with the legal actions whenever that seat decides next; and the
// engine's public state after each step, to compare with.
struct PlayedGame {
  v1::Snapshot start;
  std::vector<v1::Delta> deltas;
  std::vector<city::PublicState> states;         // states[i]: after deltas[i]
  std::vector<std::vector<city::Action>> legal;  // legal[i]: the seat's, after deltas[i]
};

void AddLegal(const city::Game& game, int seat, std::vector<city::Action>* legal,
              google::protobuf::RepeatedPtrField<v1::Action>* wire) {
  legal->clear();
  if (game.IsOver() || game.CurrentDecision().actor != seat) return;
  game.LegalActions(legal);
  for (const city::Action& a : *legal) *wire->Add() = ToProto(a);
}

PlayedGame Play(uint64_t seed, int players, int seat, int max_steps = 100000) {
  city::Config config;
  config.players = players;
  city::Game game = std::get<city::Game>(city::Game::Create(city::DefaultTileSet(), config, seed));
  PlayedGame played;
  played.start.set_game_id("g1");
  played.start.set_sequence(0);
  *played.start.mutable_state() = ToProto(game.Public());
  played.start.set_state_hash(game.Hash());
  played.start.set_your_seat(static_cast<uint32_t>(seat));
  core::Random random = city::ChoiceRandom(seed);
  std::vector<city::Action> legal;
  std::vector<city::Event> events;
  for (int step = 1; step <= max_steps && !game.IsOver(); ++step) {
    game.LegalActions(&legal);
    const city::Action action = city::EagerChoice(legal, random);
    const int actor = game.CurrentDecision().actor;
    events.clear();
    EXPECT_FALSE(game.Apply(actor, action, &events));
    v1::Delta& delta = played.deltas.emplace_back();
    delta.set_game_id("g1");
    delta.set_sequence(static_cast<uint64_t>(step));
    delta.set_seat(static_cast<uint32_t>(std::max(actor, 0)));
    *delta.mutable_action() = ToProto(action);
    for (const city::Event& e : events) *delta.add_events() = ToProto(e, players);
    delta.set_state_hash(game.Hash());
    AddLegal(game, seat, &played.legal.emplace_back(), delta.mutable_legal_actions());
    delta = ThroughBytes(delta);
    played.states.push_back(game.Public());
  }
  return played;
}

// Everything a follower shows is as it was.
void ExpectUnchanged(const Follower& before, const Follower& after) {
  ASSERT_EQ(after.started(), before.started());
  EXPECT_EQ(after.game_id(), before.game_id());
  EXPECT_EQ(after.sequence(), before.sequence());
  if (!before.started()) return;
  EXPECT_TRUE(after.state() == before.state());
  EXPECT_EQ(after.hash(), before.hash());
  EXPECT_EQ(after.your_seat(), before.your_seat());
  EXPECT_EQ(after.legal(), before.legal());
  EXPECT_EQ(after.legal_actions().size(), before.legal_actions().size());
  EXPECT_EQ(after.last_action(), before.last_action());
  ASSERT_EQ(after.events().size(), before.events().size());
  const int players = before.state().counters.players;
  for (size_t i = 0; i < before.events().size(); ++i) {
    EXPECT_EQ(ToProto(after.events()[i], players).SerializeAsString(),
              ToProto(before.events()[i], players).SerializeAsString());
  }
}

// A follower that took the start and the first `steps` deltas of `played`.
Follower FollowedFor(const PlayedGame& played, size_t steps) {
  Follower follower;
  EXPECT_EQ(follower.Start(played.start), std::nullopt);
  for (size_t i = 0; i < steps; ++i) EXPECT_EQ(follower.Apply(played.deltas[i]), std::nullopt);
  return follower;
}

TEST(Follower, FollowsWholeGamesWithTheServersStateHashAndLegalActions) {
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    const int players = 2 + static_cast<int>(seed % 3);
    const int seat = static_cast<int>(seed) % players;
    const PlayedGame played = Play(seed, players, seat);
    Follower follower;
    ASSERT_EQ(follower.Start(ThroughBytes(played.start)), std::nullopt);
    EXPECT_EQ(follower.game_id(), "g1");
    EXPECT_EQ(follower.sequence(), 0u);
    EXPECT_EQ(follower.your_seat(), seat);
    EXPECT_TRUE(follower.events().empty());
    bool decided = false;
    for (size_t i = 0; i < played.deltas.size(); ++i) {
      ASSERT_EQ(follower.Apply(played.deltas[i]), std::nullopt) << "seed " << seed << " step " << i;
      EXPECT_EQ(follower.sequence(), i + 1);
      ASSERT_TRUE(follower.state() == played.states[i]) << "seed " << seed << " step " << i;
      EXPECT_EQ(follower.hash(), played.deltas[i].state_hash());
      EXPECT_EQ(follower.last_action(), FromProto(played.deltas[i].action()));
      EXPECT_EQ(follower.events().size(), static_cast<size_t>(played.deltas[i].events_size()));
      ASSERT_EQ(follower.legal(), played.legal[i]);
      ASSERT_EQ(follower.legal_actions().size(), played.legal[i].size());
      if (!follower.legal().empty()) {
        decided = true;
        EXPECT_EQ(follower.decision().actor, seat);
      }
    }
    EXPECT_TRUE(follower.over()) << "seed " << seed;
    EXPECT_TRUE(decided) << "the seat had decisions to make";
  }
}

TEST(Follower, RefusesADeltaBeforeAnySnapshot) {
  const PlayedGame played = Play(3, 2, 0, 3);
  Follower follower;
  const auto error = follower.Apply(played.deltas[0]);
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("before any snapshot"), std::string::npos) << *error;
  EXPECT_FALSE(follower.started());
}

TEST(Follower, RefusesAGapAndStaysWhereItWas) {
  const PlayedGame played = Play(3, 2, 0, 10);
  Follower follower = FollowedFor(played, 4);
  const Follower before = follower;
  const auto error = follower.Apply(played.deltas[5]);  // sequence 6 after 4
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(*error, "a gap: delta 6 after sequence 4");
  ExpectUnchanged(before, follower);
  EXPECT_EQ(follower.Apply(played.deltas[4]), std::nullopt) << "the next one still follows";
}

TEST(Follower, RefusesADeltaAppliedAlready) {
  const PlayedGame played = Play(3, 2, 0, 10);
  Follower follower = FollowedFor(played, 4);
  const Follower before = follower;
  for (const size_t again : {3u, 0u}) {
    const auto error = follower.Apply(played.deltas[again]);
    ASSERT_TRUE(error.has_value());
    EXPECT_NE(error->find("again"), std::string::npos) << *error;
    ExpectUnchanged(before, follower);
  }
}

TEST(Follower, RefusesAWrongHashAndStaysWhereItWas) {
  const PlayedGame played = Play(5, 3, 1, 10);
  Follower follower = FollowedFor(played, 2);
  const Follower before = follower;
  v1::Delta wrong = played.deltas[2];
  wrong.set_state_hash(wrong.state_hash() ^ 1);
  const auto error = follower.Apply(wrong);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(*error, "the state after delta 3 hashes to " + HashHex(played.deltas[2].state_hash()) +
                        ", the server says " + HashHex(wrong.state_hash()));
  ExpectUnchanged(before, follower);
  EXPECT_EQ(follower.Apply(played.deltas[2]), std::nullopt);
}

TEST(Follower, RefusesAnotherGamesDelta) {
  const PlayedGame played = Play(5, 3, 1, 10);
  Follower follower = FollowedFor(played, 2);
  const Follower before = follower;
  v1::Delta other = played.deltas[2];
  other.set_game_id("g2");
  const auto error = follower.Apply(other);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(*error, "delta 3 is of game 'g2', not 'g1'");
  ExpectUnchanged(before, follower);
}

TEST(Follower, RefusesADeltaWithAnEventOrActionThatDoesNotDecode) {
  const PlayedGame played = Play(5, 2, 0, 10);
  Follower follower = FollowedFor(played, 2);
  const Follower before = follower;
  v1::Delta bad_event = played.deltas[2];
  bad_event.mutable_events(0)->Clear();  // an event with no body
  auto error = follower.Apply(bad_event);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(*error, "delta 3: event 0 does not decode");
  ExpectUnchanged(before, follower);

  v1::Delta bad_action = played.deltas[2];
  bad_action.mutable_action()->set_kind(v1::ACTION_KIND_UNSPECIFIED);
  error = follower.Apply(bad_action);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(*error, "delta 3: its action does not decode");
  ExpectUnchanged(before, follower);
}

TEST(Follower, RefusesASnapshotThatDoesNotHashToItsStateAndKeepsTheGameItFollows) {
  const PlayedGame played = Play(7, 2, 0, 10);
  Follower follower = FollowedFor(played, 3);
  const Follower before = follower;
  v1::Snapshot wrong = played.start;
  wrong.set_state_hash(wrong.state_hash() + 1);
  const auto error = follower.Start(wrong);
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("hashes to"), std::string::npos) << *error;
  ExpectUnchanged(before, follower);
  // A good snapshot starts over, wherever the follower was.
  ASSERT_EQ(follower.Start(played.start), std::nullopt);
  EXPECT_EQ(follower.sequence(), 0u);
  EXPECT_FALSE(follower.last_action().has_value());
}

}  // namespace
}  // namespace carc::protocol
