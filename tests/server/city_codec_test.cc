// The City's protocol package (carcassonne.city.v1) and its GameCodec: engine values survive the
// trip through protobuf bytes, malformed input is refused, a client that knows nothing but the
// wire messages follows whole games with the server's state and hash at every step, and the
// engine's refusals reach the wire by their stable names.
#include <gtest/gtest.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "city/default_tiles.h"
#include "city/game.h"
#include "city/notation.h"
#include "city/public_state.h"
#include "city/random_play.h"
#include "city/rule_set.h"
#include "protocol/city/codec.h"
#include "protocol/city/game_codec.h"
#include "protocol/envelope.h"

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

// The server's side of one step: the delta for an accepted action, its game values encoded as
// The City's messages.
wire::ServerMessage DeltaFor(const city::Game& game, uint64_t sequence, const city::Action& action,
                             const std::vector<city::Event>& events) {
  wire::ServerMessage message;
  wire::Delta* delta = message.mutable_delta();
  delta->set_game_id("g1");
  delta->set_sequence(sequence);
  delta->set_action(ToProto(action).SerializeAsString());
  for (const city::Event& e : events)
    delta->add_events(ToProto(e, game.players()).SerializeAsString());
  delta->set_state_hash(game.Hash());
  return message;
}

template <typename Message>
std::optional<Message> Decoded(const std::string& bytes) {
  Message message;
  if (!message.ParseFromString(bytes)) return std::nullopt;
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
  citypb::Action a;
  a.set_kind(citypb::ACTION_KIND_PLACE_TILE);
  ASSERT_TRUE(FromProto(a).has_value());
  for (const auto& mutate : std::vector<std::function<void(citypb::Action*)>>{
           [](citypb::Action* m) { m->set_kind(citypb::ACTION_KIND_UNSPECIFIED); },
           [](citypb::Action* m) { m->set_kind(static_cast<citypb::ActionKind>(11)); },
           [](citypb::Action* m) { m->set_x(128); }, [](citypb::Action* m) { m->set_y(-129); },
           [](citypb::Action* m) { m->set_rotation(256); },
           [](citypb::Action* m) { m->set_side(1000); },
           [](citypb::Action* m) { m->set_feature(300); },
           [](citypb::Action* m) { m->set_end(4000000000u); },
           [](citypb::Action* m) { m->set_tile(256); }}) {
    citypb::Action bad = a;
    mutate(&bad);
    EXPECT_FALSE(FromProto(bad).has_value()) << bad.ShortDebugString();
  }
}

// A client that starts from a snapshot and applies deltas decoded from bytes holds the server's
// public state and hash after every action, in whole games of every size, with walls.
TEST(Codec, AClientFollowingTheWireStaysInStep) {
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    city::Game game = NewGame(seed, 2 + static_cast<int>(seed % 3));
    wire::ServerMessage snapshot;
    snapshot.mutable_snapshot()->set_state(ToProto(game.Public()).SerializeAsString());
    snapshot.mutable_snapshot()->set_state_hash(game.Hash());
    const auto state = Decoded<citypb::PublicState>(ThroughBytes(snapshot).snapshot().state());
    ASSERT_TRUE(state.has_value());
    auto client = FromProto(*state);
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
      const wire::ServerMessage message =
          ThroughBytes(DeltaFor(game, ++sequence, action, buffers.events));
      const auto sent = Decoded<citypb::Action>(message.delta().action());
      ASSERT_TRUE(sent.has_value());
      ASSERT_EQ(FromProto(*sent), action);
      for (const std::string& bytes : message.delta().events()) {
        const auto e = Decoded<citypb::Event>(bytes);
        ASSERT_TRUE(e.has_value());
        const auto event = FromProto(*e);
        ASSERT_TRUE(event.has_value()) << e->ShortDebugString();
        client->Apply(*event);
      }
      ASSERT_EQ(client->Hash(), message.delta().state_hash())
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
  EXPECT_FALSE(FromProto(citypb::Event{}).has_value()) << "no event set";
  citypb::Event placed;
  placed.mutable_tile_placed()->set_x(500);
  EXPECT_FALSE(FromProto(placed).has_value());
  citypb::Event follower;
  follower.mutable_follower_placed()->set_role(citypb::FEATURE_KIND_UNSPECIFIED);
  EXPECT_FALSE(FromProto(follower).has_value());
  citypb::Event scored;
  scored.mutable_feature_scored()->set_kind(citypb::FEATURE_KIND_STREET);
  scored.mutable_feature_scored()->set_cause(citypb::SCORE_CAUSE_TILE);
  ASSERT_TRUE(FromProto(scored).has_value());
  for (int i = 0; i < 6; ++i) scored.mutable_feature_scored()->add_points(1);
  EXPECT_FALSE(FromProto(scored).has_value()) << "more points than seats";
  citypb::Event wall;
  wall.mutable_wall_built()->set_end(2);
  EXPECT_FALSE(FromProto(wall).has_value());
  citypb::Event decision;
  decision.mutable_decision_requested()->mutable_decision()->set_kind(
      citypb::DECISION_KIND_UNSPECIFIED);
  EXPECT_FALSE(FromProto(decision).has_value());
}

TEST(Codec, MalformedStatesAreRefused) {
  const city::Game game = NewGame(1, 3);
  const citypb::PublicState good = ToProto(game.Public());
  ASSERT_TRUE(FromProto(good).has_value());
  citypb::PublicState bad = good;
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

// Every engine refusal has its own stable name, the engine's: what Error.rule_error carries with
// ERROR_CODE_RULE_REFUSED (protocol 1 gave each a code of its own).
TEST(Codec, EveryEngineErrorHasItsOwnStableName) {
  std::set<std::string> names;
  for (int e = 0; e <= static_cast<int>(city::Error::kTowerEndTaken); ++e) {
    const auto error = static_cast<city::Error>(e);
    const std::string name = city::ToString(error);
    ASSERT_FALSE(name.empty());
    for (const char c : name) {
      EXPECT_TRUE((c >= 'a' && c <= 'z') || c == '_') << name << ": lower case and '_'";
    }
    EXPECT_NE(std::string(city::Describe(error)), "") << name;
    names.insert(name);
  }
  EXPECT_EQ(names.size(), static_cast<size_t>(city::Error::kTowerEndTaken) + 1);
  EXPECT_TRUE(names.contains("not_at_origin"));
  EXPECT_TRUE(names.contains("malformed"));
}

// ---------------------------------------------------------------------------------------------
// The City's GameCodec: a core::State of The City to bytes and back.

std::unique_ptr<core::State> NewState(uint64_t seed, int players) {
  auto created = city::MakeRuleSet(city::DefaultTileSet())->NewGame(players, {}, seed);
  return std::get<std::unique_ptr<core::State>>(std::move(created));
}

TEST(CityCodec, IsFoundByItsRuleSetId) {
  EXPECT_EQ(CityCodec().RuleSetId(), city::kRuleSetId);
  EXPECT_EQ(FindGameCodec("the-city"), &CityCodec());
  EXPECT_EQ(FindGameCodec("no-such-game"), nullptr);
}

// The engine refuses through the codec with its own name; bytes that are no Action are
// "malformed"; a refusal changes nothing.
TEST(CityCodec, RefusalsCarryTheEnginesNameAndChangeNothing) {
  auto state = NewState(7, 2);
  const core::Actor actor = state->CurrentActor();
  ASSERT_EQ(actor, core::kChanceActor) << "the first tile is drawn";
  ASSERT_FALSE(state->Apply(actor, state->LegalActions().front(), nullptr));
  const uint64_t hash = state->Hash();
  const std::vector<std::string> legal = CityCodec().EncodeLegalActions(*state);
  ASSERT_FALSE(legal.empty());

  citypb::Action far = *Decoded<citypb::Action>(legal.front());
  far.set_x(40);
  auto refused = CityCodec().ApplyEncoded(*state, state->CurrentActor(), far.SerializeAsString());
  ASSERT_TRUE(std::holds_alternative<core::RuleError>(refused));
  EXPECT_EQ(std::get<core::RuleError>(refused).code, "not_at_origin") << "R5";

  citypb::Action huge = far;
  huge.set_x(500);
  refused = CityCodec().ApplyEncoded(*state, state->CurrentActor(), huge.SerializeAsString());
  ASSERT_TRUE(std::holds_alternative<core::RuleError>(refused));
  EXPECT_EQ(std::get<core::RuleError>(refused).code, "malformed");

  refused = CityCodec().ApplyEncoded(*state, state->CurrentActor(), "\xff\xff\xff");
  ASSERT_TRUE(std::holds_alternative<core::RuleError>(refused));
  EXPECT_EQ(std::get<core::RuleError>(refused).code, "malformed");

  refused = CityCodec().ApplyEncoded(*state, 1 - state->CurrentActor(), legal.front());
  ASSERT_TRUE(std::holds_alternative<core::RuleError>(refused));
  EXPECT_EQ(std::get<core::RuleError>(refused).code, "wrong_player");
  EXPECT_EQ(state->Hash(), hash);
  EXPECT_EQ(CityCodec().EncodeLegalActions(*state), legal);
}

// A whole game through the codec, as the room plays it: each legal action applied as bytes, its
// step encoded, and a client's view (decoded from the first state) following the events with
// the engine's hash, the legal actions reading as the engine's notation.
TEST(CityCodec, AWholeGameThroughTheCodecKeepsTheClientsViewInStep) {
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    const int players = 2 + static_cast<int>(seed % 3);
    auto state = NewState(seed, players);
    auto view = CityCodec().DecodeState(CityCodec().EncodeState(*state), city::DefaultTileSet());
    ASSERT_NE(view, nullptr);
    EXPECT_EQ(view->Hash(), state->Hash());
    ASSERT_NE(CityStateOf(*view), nullptr);
    EXPECT_TRUE(*CityStateOf(*view) == city::GameOf(*state)->Public());
    core::Random random(seed);
    int steps = 0;
    while (!state->IsOver()) {
      const core::Actor actor = state->CurrentActor();
      EXPECT_EQ(view->Actor(), actor);
      const std::vector<std::string> legal = CityCodec().EncodeLegalActions(*state);
      const std::vector<std::string> notation = state->LegalActions();
      ASSERT_EQ(legal.size(), notation.size());
      const size_t pick = static_cast<size_t>(random.Below(legal.size()));
      EXPECT_EQ(CityCodec().DescribeAction(*view, legal[pick]), notation[pick]);
      const auto applied = CityCodec().ApplyEncoded(*state, actor, legal[pick]);
      ASSERT_TRUE(std::holds_alternative<std::string>(applied));
      EXPECT_EQ(std::get<std::string>(applied), notation[pick]) << "what the game log stores";
      const EncodedStep step = CityCodec().EncodeLastStep(*state);
      EXPECT_EQ(step.action, legal[pick]);
      for (const std::string& event : step.events) {
        EXPECT_TRUE(CityCodec().DescribeEvent(event).has_value());
        ASSERT_TRUE(view->ApplyEvent(event));
      }
      ASSERT_EQ(view->Hash(), state->Hash()) << "seed " << seed << " step " << steps;
      ++steps;
    }
    EXPECT_EQ(view->Actor(), core::kNoActor);
    EXPECT_EQ(view->Scores(), state->Scores());
    const nlohmann::json result = nlohmann::json::parse(CityCodec().ResultJson(*state));
    ASSERT_EQ(result["scores"].size(), static_cast<size_t>(players));
    for (int p = 0; p < players; ++p) {
      EXPECT_EQ(result["scores"][static_cast<size_t>(p)]["total"],
                state->Scores()[static_cast<size_t>(p)]);
    }
    EXPECT_FALSE(result["winners"].empty());
    EXPECT_EQ(result["state_hash"], state->Hash());
  }
}

TEST(CityCodec, BytesThatAreNoneOfTheCitysMessagesDoNotDecode) {
  auto state = NewState(3, 2);
  const std::string good = CityCodec().EncodeState(*state);
  EXPECT_NE(CityCodec().DecodeState(good, city::DefaultTileSet()), nullptr);
  EXPECT_EQ(CityCodec().DecodeState(good, nullptr), nullptr) << "no tiles to play with";
  EXPECT_EQ(CityCodec().DecodeState("\xff\xff", city::DefaultTileSet()), nullptr);
  citypb::PublicState bad = *Decoded<citypb::PublicState>(good);
  bad.set_players(4);
  EXPECT_EQ(CityCodec().DecodeState(bad.SerializeAsString(), city::DefaultTileSet()), nullptr);
  auto view = CityCodec().DecodeState(good, city::DefaultTileSet());
  EXPECT_FALSE(CityCodec().DescribeAction(*view, "\xff").has_value());
  EXPECT_FALSE(CityCodec().DescribeAction(*view, citypb::Action{}.SerializeAsString()).has_value());
  EXPECT_FALSE(CityCodec().DescribeEvent(citypb::Event{}.SerializeAsString()).has_value());
  EXPECT_FALSE(view->ApplyEvent("\xff"));
}

// Events that decode but do not fit the game the view follows are refused, and the view is left
// as it was: a tile beyond the game's tile set, a seat beyond its players, a follower returned
// that is not there, a guard on a piece that is not built.
TEST(CityCodec, AViewRefusesEventsThatDoNotFitItsGame) {
  auto state = NewState(3, 2);
  auto view = CityCodec().DecodeState(CityCodec().EncodeState(*state), city::DefaultTileSet());
  ASSERT_NE(view, nullptr);
  const uint64_t before = view->Hash();
  const int tiles = city::DefaultTileSet()->TileCount();
  ASSERT_LT(tiles, core::kMaxTiles);
  const auto bytes = [](const city::Event& e) { return ToProto(e, 2).SerializeAsString(); };
  const std::vector<city::Event> misfits = {
      city::TileDrawn{static_cast<uint8_t>(tiles), 1},
      city::TilePlaced{3, 0, 0, 0, 0},
      city::FollowerReturned{0, 0, 0, 1, true},
      city::GuardPlaced{0, 0, 0, 1},
  };
  for (const city::Event& e : misfits) {
    EXPECT_FALSE(view->ApplyEvent(bytes(e))) << city::FormatEvent(e);
    EXPECT_EQ(view->Hash(), before);
  }
  EXPECT_TRUE(view->ApplyEvent(bytes(city::TileDrawn{static_cast<uint8_t>(tiles - 1), 1})));
  citypb::PublicState in_hand = *Decoded<citypb::PublicState>(CityCodec().EncodeState(*state));
  in_hand.set_drawn_tile(tiles);
  EXPECT_EQ(CityCodec().DecodeState(in_hand.SerializeAsString(), city::DefaultTileSet()), nullptr);
}

}  // namespace
}  // namespace carc::protocol
