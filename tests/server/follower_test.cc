// The Follower: a client's copy of a game from a snapshot through deltas, the hash checked at
// every step. It knows no game: the snapshot's rule set picks The City's codec here. Whole games
// are followed through protobuf bytes, and every message that does not follow (out of order, of
// another game, of a rule set no client knows, with a wrong hash or a part that does not decode)
// is refused with a reason while the follower stays as it was.
#include "protocol/follower.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "city/default_tiles.h"
#include "city/game.h"
#include "city/notation.h"
#include "city/random_play.h"
#include "protocol/city/codec.h"
#include "protocol/city/game_codec.h"

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

// What a server sends one seat of a game of The City played with eager choices: the snapshot at
// sequence 0, then a delta per action, with the legal actions whenever that seat decides next;
// and the engine's public state after each step, to compare with.
struct PlayedGame {
  wire::Snapshot start;
  std::vector<wire::Delta> deltas;
  std::vector<city::PublicState> states;        // states[i]: after deltas[i]
  std::vector<std::string> actions;             // actions[i]: deltas[i]'s, in the notation
  std::vector<std::vector<std::string>> legal;  // legal[i]: the seat's, after deltas[i]
};

// The seat's legal actions, as the engine writes them and onto the wire.
void AddLegal(const city::Game& game, int seat, std::vector<std::string>* notation,
              google::protobuf::RepeatedPtrField<std::string>* wire) {
  notation->clear();
  if (game.IsOver() || game.CurrentDecision().actor != seat) return;
  std::vector<city::Action> legal;
  game.LegalActions(&legal);
  for (const city::Action& a : legal) {
    notation->push_back(city::FormatAction(game, a));
    *wire->Add() = ToProto(a).SerializeAsString();
  }
}

PlayedGame Play(uint64_t seed, int players, int seat, int max_steps = 100000) {
  city::Config config;
  config.players = players;
  city::Game game = std::get<city::Game>(city::Game::Create(city::DefaultTileSet(), config, seed));
  PlayedGame played;
  played.start.set_game_id("g1");
  played.start.set_rule_set("the-city");
  played.start.set_sequence(0);
  played.start.set_state(ToProto(game.Public()).SerializeAsString());
  played.start.set_state_hash(game.Hash());
  played.start.set_your_seat(static_cast<uint32_t>(seat));
  core::Random random = city::ChoiceRandom(seed);
  std::vector<city::Action> legal;
  std::vector<city::Event> events;
  for (int step = 1; step <= max_steps && !game.IsOver(); ++step) {
    game.LegalActions(&legal);
    const city::Action action = city::EagerChoice(legal, random);
    const int actor = game.CurrentDecision().actor;
    played.actions.push_back(city::FormatAction(game, action));
    events.clear();
    EXPECT_FALSE(game.Apply(actor, action, &events));
    wire::Delta& delta = played.deltas.emplace_back();
    delta.set_game_id("g1");
    delta.set_sequence(static_cast<uint64_t>(step));
    delta.set_seat(static_cast<uint32_t>(std::max(actor, 0)));
    delta.set_action(ToProto(action).SerializeAsString());
    for (const city::Event& e : events) delta.add_events(ToProto(e, players).SerializeAsString());
    delta.set_state_hash(game.Hash());
    AddLegal(game, seat, &played.legal.emplace_back(), delta.mutable_legal_actions());
    delta = ThroughBytes(delta);
    played.states.push_back(game.Public());
  }
  return played;
}

// Everything a follower shows, copied (a Follower holds its view alone and is not copied).
struct Shown {
  explicit Shown(const Follower& f)
      : started(f.started()), game_id(f.game_id()), sequence(f.sequence()) {
    if (!started) return;
    rule_set = f.rule_set();
    state = *CityStateOf(f.view());
    hash = f.hash();
    your_seat = f.your_seat();
    legal = f.legal();
    legal_actions = f.legal_actions();
    last_action = f.last_action();
    events = f.events();
  }
  bool started;
  std::string game_id;
  uint64_t sequence;
  std::string rule_set;
  std::optional<city::PublicState> state;
  uint64_t hash = 0;
  std::optional<int> your_seat;
  std::vector<std::string> legal;
  std::vector<std::string> legal_actions;
  std::optional<std::string> last_action;
  std::vector<std::string> events;
};

// Everything a follower shows is as it was.
void ExpectUnchanged(const Shown& before, const Follower& follower) {
  const Shown after(follower);
  ASSERT_EQ(after.started, before.started);
  EXPECT_EQ(after.game_id, before.game_id);
  EXPECT_EQ(after.sequence, before.sequence);
  if (!before.started) return;
  EXPECT_EQ(after.rule_set, before.rule_set);
  EXPECT_TRUE(*after.state == *before.state);
  EXPECT_EQ(after.hash, before.hash);
  EXPECT_EQ(follower.view().Hash(), before.hash);
  EXPECT_EQ(after.your_seat, before.your_seat);
  EXPECT_EQ(after.legal, before.legal);
  EXPECT_EQ(after.legal_actions, before.legal_actions);
  EXPECT_EQ(after.last_action, before.last_action);
  EXPECT_EQ(after.events, before.events);
}

// A follower that took the start and the first `steps` deltas of `played`.
void FollowFor(const PlayedGame& played, size_t steps, Follower& follower) {
  EXPECT_EQ(follower.Start(played.start, city::DefaultTileSet()), std::nullopt);
  for (size_t i = 0; i < steps; ++i) EXPECT_EQ(follower.Apply(played.deltas[i]), std::nullopt);
}

TEST(Follower, FollowsWholeGamesWithTheServersStateHashAndLegalActions) {
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    const int players = 2 + static_cast<int>(seed % 3);
    const int seat = static_cast<int>(seed) % players;
    const PlayedGame played = Play(seed, players, seat);
    Follower follower;
    EXPECT_FALSE(follower.started());
    ASSERT_EQ(follower.Start(ThroughBytes(played.start), city::DefaultTileSet()), std::nullopt);
    EXPECT_EQ(follower.game_id(), "g1");
    EXPECT_EQ(follower.rule_set(), "the-city");
    EXPECT_EQ(&follower.codec(), &CityCodec());
    EXPECT_EQ(follower.sequence(), 0u);
    EXPECT_EQ(follower.your_seat(), seat);
    EXPECT_TRUE(follower.events().empty());
    EXPECT_FALSE(follower.last_action().has_value());
    bool decided = false;
    for (size_t i = 0; i < played.deltas.size(); ++i) {
      ASSERT_EQ(follower.Apply(played.deltas[i]), std::nullopt) << "seed " << seed << " step " << i;
      EXPECT_EQ(follower.sequence(), i + 1);
      ASSERT_TRUE(*CityStateOf(follower.view()) == played.states[i])
          << "seed " << seed << " step " << i;
      EXPECT_EQ(follower.hash(), played.deltas[i].state_hash());
      EXPECT_EQ(follower.last_action(), played.actions[i]);
      EXPECT_EQ(follower.events(), std::vector<std::string>(played.deltas[i].events().begin(),
                                                            played.deltas[i].events().end()));
      ASSERT_EQ(follower.legal(), played.legal[i]);
      ASSERT_EQ(follower.legal_actions(),
                std::vector<std::string>(played.deltas[i].legal_actions().begin(),
                                         played.deltas[i].legal_actions().end()));
      if (!follower.legal().empty()) {
        decided = true;
        EXPECT_EQ(follower.actor(), seat);
      }
    }
    EXPECT_TRUE(follower.over()) << "seed " << seed;
    EXPECT_EQ(follower.view().Scores().size(), static_cast<size_t>(players));
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
  Follower follower;
  FollowFor(played, 4, follower);
  const Shown before(follower);
  const auto error = follower.Apply(played.deltas[5]);  // sequence 6 after 4
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(*error, "a gap: delta 6 after sequence 4");
  ExpectUnchanged(before, follower);
  EXPECT_EQ(follower.Apply(played.deltas[4]), std::nullopt) << "the next one still follows";
}

TEST(Follower, RefusesADeltaAppliedAlready) {
  const PlayedGame played = Play(3, 2, 0, 10);
  Follower follower;
  FollowFor(played, 4, follower);
  const Shown before(follower);
  for (const size_t again : {3u, 0u}) {
    const auto error = follower.Apply(played.deltas[again]);
    ASSERT_TRUE(error.has_value());
    EXPECT_NE(error->find("again"), std::string::npos) << *error;
    ExpectUnchanged(before, follower);
  }
}

TEST(Follower, RefusesAWrongHashAndStaysWhereItWas) {
  const PlayedGame played = Play(5, 3, 1, 10);
  Follower follower;
  FollowFor(played, 2, follower);
  const Shown before(follower);
  wire::Delta wrong = played.deltas[2];
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
  Follower follower;
  FollowFor(played, 2, follower);
  const Shown before(follower);
  wire::Delta other = played.deltas[2];
  other.set_game_id("g2");
  const auto error = follower.Apply(other);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(*error, "delta 3 is of game 'g2', not 'g1'");
  ExpectUnchanged(before, follower);
}

TEST(Follower, RefusesADeltaWithAnEventActionOrLegalActionThatDoesNotDecode) {
  const PlayedGame played = Play(5, 2, 0, 10);
  Follower follower;
  FollowFor(played, 2, follower);
  const Shown before(follower);
  wire::Delta bad_event = played.deltas[2];
  ASSERT_GT(bad_event.events_size(), 0);
  bad_event.set_events(0, citypb::Event{}.SerializeAsString());  // an event with no body
  auto error = follower.Apply(bad_event);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(*error, "delta 3: event 0 does not decode");
  ExpectUnchanged(before, follower);

  wire::Delta garbled_event = played.deltas[2];
  garbled_event.set_events(garbled_event.events_size() - 1, "\xff\xff\xff");  // no protobuf
  error = follower.Apply(garbled_event);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(*error, "delta 3: event " + std::to_string(garbled_event.events_size() - 1) +
                        " does not decode");
  ExpectUnchanged(before, follower);

  wire::Delta bad_action = played.deltas[2];
  citypb::Action unspecified;
  unspecified.set_kind(citypb::ACTION_KIND_UNSPECIFIED);
  bad_action.set_action(unspecified.SerializeAsString());
  error = follower.Apply(bad_action);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(*error, "delta 3: its action does not decode");
  ExpectUnchanged(before, follower);

  wire::Delta bad_legal = played.deltas[2];
  bad_legal.add_legal_actions("\xff");
  error = follower.Apply(bad_legal);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(*error, "delta 3: a legal action does not decode");
  ExpectUnchanged(before, follower);
  EXPECT_EQ(follower.Apply(played.deltas[2]), std::nullopt) << "the good copy still follows";
}

TEST(Follower, RefusesASnapshotThatDoesNotHashToItsStateAndKeepsTheGameItFollows) {
  const PlayedGame played = Play(7, 2, 0, 10);
  Follower follower;
  FollowFor(played, 3, follower);
  const Shown before(follower);
  wire::Snapshot wrong = played.start;
  wrong.set_state_hash(wrong.state_hash() + 1);
  const auto error = follower.Start(wrong, city::DefaultTileSet());
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("hashes to"), std::string::npos) << *error;
  ExpectUnchanged(before, follower);
  // A good snapshot starts over, wherever the follower was.
  ASSERT_EQ(follower.Start(played.start, city::DefaultTileSet()), std::nullopt);
  EXPECT_EQ(follower.sequence(), 0u);
  EXPECT_FALSE(follower.last_action().has_value());
}

// A snapshot of a rule set no client knows, or whose state or legal actions do not decode as
// that rule set's messages, is refused; the game followed so far is kept.
TEST(Follower, RefusesASnapshotItCannotDecodeAndKeepsTheGameItFollows) {
  const PlayedGame played = Play(9, 3, 0, 10);
  Follower follower;
  FollowFor(played, 3, follower);
  const Shown before(follower);

  wire::Snapshot other_game = played.start;
  other_game.set_rule_set("no-such-game");
  auto error = follower.Start(other_game, city::DefaultTileSet());
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(*error,
            "the snapshot of game 'g1' at sequence 0: no client knows rule set "
            "'no-such-game'");
  ExpectUnchanged(before, follower);

  wire::Snapshot bad_state = played.start;
  bad_state.set_state("\xff\xff");
  error = follower.Start(bad_state, city::DefaultTileSet());
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(*error, "the snapshot of game 'g1' at sequence 0: its state does not decode");
  ExpectUnchanged(before, follower);

  citypb::PublicState four_players;
  ASSERT_TRUE(four_players.ParseFromString(played.start.state()));
  four_players.set_players(4);  // but three players' entries
  bad_state.set_state(four_players.SerializeAsString());
  EXPECT_TRUE(follower.Start(bad_state, city::DefaultTileSet()).has_value());
  ExpectUnchanged(before, follower);

  error = follower.Start(played.start, nullptr);
  EXPECT_TRUE(error.has_value()) << "no tile set to play with";
  ExpectUnchanged(before, follower);

  wire::Snapshot bad_legal = played.start;
  bad_legal.add_legal_actions(citypb::Action{}.SerializeAsString());
  error = follower.Start(bad_legal, city::DefaultTileSet());
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(*error, "the snapshot of game 'g1' at sequence 0: a legal action does not decode");
  ExpectUnchanged(before, follower);
}

TEST(Follower, HashHexWritesSixteenDigits) {
  EXPECT_EQ(HashHex(0), "0000000000000000");
  EXPECT_EQ(HashHex(0x0123456789abcdefULL), "0123456789abcdef");
}

}  // namespace
}  // namespace carc::protocol
