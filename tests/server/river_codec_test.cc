// Carcassonne's side of the wire (server/protocol/river/): every action and event survives the
// trip through its message; over seeded random games played through core::State, the encoded
// state, legal actions and events decode to exactly what the engine holds (a client following the
// events stays in step, hash for hash); and malformed bytes are refused, never trusted.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <numeric>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include "core/hash.h"
#include "protocol/river/codec.h"
#include "protocol/river/game_codec.h"
#include "river/default_tiles.h"
#include "river/notation.h"
#include "river/rule_set.h"

namespace carc::protocol {
namespace {

namespace rv1 = ::carcassonne::river::v1;
using river_wire::FromProto;
using river_wire::ToProto;

const GameCodec& Codec() { return RiverCodec(); }

// A view of an encoded state, as a client decodes it with the server's tile set.
std::unique_ptr<PublicView> Decode(std::string_view state) {
  return Codec().DecodeState(state, river::DefaultTileSet());
}

// Events have no operator==; their text (river::FormatEvent) names every field of every
// alternative (river/event_fields.h), so equal texts of the same alternative are equal events.
bool SameEvent(const river::Event& a, const river::Event& b) {
  return a.index() == b.index() && river::FormatEvent(a) == river::FormatEvent(b);
}

river::Points PointsOf(std::initializer_list<int16_t> seats) {
  river::Points points{};
  std::copy(seats.begin(), seats.end(), points.begin());
  return points;
}

// One event of every alternative, for a game of three.
std::vector<river::Event> OneOfEach() {
  river::GameOver over{};
  over.scores[0] = {4, 10, 9, 6};
  over.scores[1] = {-1, 0, 0, 12};
  over.scores[2] = {0, 32767, 0, 0};
  over.winners = 0b101;
  return {
      river::TileDrawn{.tile = 83},
      river::TileDiscarded{.tile = 5},
      river::TilePlaced{.player = 2, .tile = 17, .x = -128, .y = 127, .rotation = 3},
      river::FollowerPlaced{
          .player = 1, .x = 4, .y = -2, .feature = 7, .role = core::FeatureKind::kField},
      river::FeatureScored{.kind = core::FeatureKind::kCity,
                           .x = -3,
                           .y = 5,
                           .feature = 2,
                           .tiles = 6,
                           .pennants = 2,
                           .complete = true,
                           .points = PointsOf({16, 0, 16})},
      river::FollowerReturned{.player = 0, .x = 1, .y = 1, .feature = 0},
      river::FieldScored{
          .x = 0, .y = -1, .feature = 3, .cities = 4, .points = PointsOf({0, 12, 0})},
      over,
      river::DecisionRequested{
          .decision = {.actor = 1, .kind = river::DecisionKind::kPlaceFollower}, .turn_player = 1},
  };
}

TEST(RiverCodec, EveryActionKindRoundTrips) {
  const std::vector<river::Action> actions = {river::Action::Draw(0),
                                              river::Action::Draw(83),
                                              river::Action::PlaceTile(0, 0, 0),
                                              river::Action::PlaceTile(-128, 127, 3),
                                              river::Action::PlaceFollower(0),
                                              river::Action::PlaceFollower(7),
                                              river::Action::SkipFollower()};
  for (const river::Action& a : actions) {
    rv1::Action wire;
    ASSERT_TRUE(wire.ParseFromString(ToProto(a).SerializeAsString()));
    EXPECT_EQ(FromProto(wire), a) << river::ToString(a.kind);
  }
}

TEST(RiverCodec, EveryEventAlternativeRoundTrips) {
  const std::vector<river::Event> events = OneOfEach();
  ASSERT_EQ(events.size(), std::variant_size_v<river::Event>);
  for (size_t i = 0; i < events.size(); ++i) {
    ASSERT_EQ(events[i].index(), i);
    rv1::Event wire;
    ASSERT_TRUE(wire.ParseFromString(ToProto(events[i], 3).SerializeAsString()));
    const std::optional<river::Event> back = FromProto(wire, 3);
    ASSERT_TRUE(back.has_value()) << river::FormatEvent(events[i]);
    EXPECT_TRUE(SameEvent(*back, events[i])) << river::FormatEvent(*back);
    EXPECT_EQ(Codec().DescribeEvent(wire.SerializeAsString()), river::FormatEvent(events[i]));
  }
}

TEST(RiverCodec, DecisionsRoundTrip) {
  for (const river::Decision decision :
       {river::Decision{river::kChance, river::DecisionKind::kDrawTile},
        river::Decision{4, river::DecisionKind::kPlaceTile},
        river::Decision{river::kNobody, river::DecisionKind::kNone}}) {
    const auto back = FromProto(ToProto(decision, 3), 5);
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(back->decision, decision);
    EXPECT_EQ(back->turn_player, 3);
  }
}

// --- Seeded random games through core::State ---

struct GameCase {
  int players;
  int river;
};

class RiverCodecGames : public ::testing::TestWithParam<GameCase> {};

std::unique_ptr<core::State> NewState(const GameCase& c, uint64_t seed) {
  static const auto rules = river::MakeRuleSet(river::DefaultTileSet());
  auto made = rules->NewGame(c.players, {{"river", c.river}}, seed);
  EXPECT_TRUE(std::holds_alternative<std::unique_ptr<core::State>>(made));
  return std::move(std::get<std::unique_ptr<core::State>>(made));
}

// Places a follower nine times in ten when it may (so games score roads, cities, monasteries and
// farmers), otherwise any legal action.
const std::string& Pick(const std::vector<std::string>& legal, core::Random& random) {
  std::vector<size_t> followers;
  for (size_t i = 0; i < legal.size(); ++i) {
    if (legal[i].starts_with("follower ") && legal[i] != "follower none") followers.push_back(i);
  }
  if (!followers.empty() && random.Below(10) != 0) {
    return legal[followers[static_cast<size_t>(random.Below(followers.size()))]];
  }
  return legal[static_cast<size_t>(random.Below(legal.size()))];
}

// The encoded state decodes to a view equal to the engine's public state, hash and all.
void ExpectStateDecodes(const core::State& state) {
  const std::unique_ptr<PublicView> view = Decode(Codec().EncodeState(state));
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(view->Hash(), state.Hash());
  ASSERT_NE(RiverStateOf(*view), nullptr);
  EXPECT_TRUE(*RiverStateOf(*view) == river::GameOf(state)->Public());
  EXPECT_EQ(view->Actor(), state.CurrentActor());
  EXPECT_EQ(view->Scores(), state.Scores());
}

// The legal actions, encoded, read in a client's view of the state as exactly the engine's
// texts, in its order.
void ExpectLegalActionsDecode(const core::State& state) {
  const std::vector<std::string> legal = state.LegalActions();
  const std::vector<std::string> encoded = Codec().EncodeLegalActions(state);
  const std::unique_ptr<PublicView> view = Decode(Codec().EncodeState(state));
  ASSERT_NE(view, nullptr);
  ASSERT_EQ(encoded.size(), legal.size());
  for (size_t i = 0; i < legal.size(); ++i) {
    ASSERT_EQ(Codec().DescribeAction(*view, encoded[i]), legal[i]);
  }
}

// The last action's events, encoded, describe as the engine's texts and round-trip as values.
void ExpectEventsDecode(const core::State& state, const std::vector<std::string>& texts) {
  const std::vector<std::string> encoded = Codec().EncodeLastStep(state).events;
  const auto typed = river::StateOf(state)->last_events();
  ASSERT_EQ(encoded.size(), texts.size());
  ASSERT_EQ(typed.size(), texts.size());
  for (size_t i = 0; i < texts.size(); ++i) {
    EXPECT_EQ(Codec().DescribeEvent(encoded[i]), texts[i]);
    rv1::Event wire;
    ASSERT_TRUE(wire.ParseFromString(encoded[i]));
    const auto back = FromProto(wire, state.Players());
    ASSERT_TRUE(back.has_value()) << texts[i];
    EXPECT_TRUE(SameEvent(*back, typed[i])) << texts[i];
  }
}

void ExpectResult(const core::State& state) {
  const nlohmann::json result = nlohmann::json::parse(Codec().ResultJson(state));
  const std::vector<int> scores = state.Scores();
  EXPECT_EQ(result["scores"].get<std::vector<int>>(), scores);
  const int best = *std::max_element(scores.begin(), scores.end());
  std::vector<int> winners;
  for (size_t p = 0; p < scores.size(); ++p) {
    if (scores[p] == best) winners.push_back(static_cast<int>(p));
  }
  EXPECT_EQ(result["winners"].get<std::vector<int>>(), winners);
  const auto by_source = result["by_source"].get<std::vector<std::vector<int>>>();
  ASSERT_EQ(by_source.size(), scores.size());
  for (size_t p = 0; p < scores.size(); ++p) {
    ASSERT_EQ(by_source[p].size(), static_cast<size_t>(river::kSourceCount));
    EXPECT_EQ(std::accumulate(by_source[p].begin(), by_source[p].end(), 0), scores[p]);
  }
  EXPECT_EQ(result["state_hash"].get<uint64_t>(), state.Hash());
}

// What one game saw: every event alternative counts, so the suite knows its games scored.
using Seen = std::array<int, std::variant_size_v<river::Event>>;

void PlayOneGame(const GameCase& c, uint64_t seed, Seen& seen) {
  std::unique_ptr<core::State> state = NewState(c, seed);
  ASSERT_NE(state, nullptr);
  ExpectStateDecodes(*state);
  std::unique_ptr<PublicView> follower = Decode(Codec().EncodeState(*state));
  ASSERT_NE(follower, nullptr);
  core::Random random(core::Mix64(seed));
  for (int steps = 0; !state->IsOver(); ++steps) {
    ASSERT_LT(steps, 1000);
    ExpectLegalActionsDecode(*state);
    // The action goes the way a client's Move does: encoded, applied by the codec.
    const std::vector<std::string> legal = state->LegalActions();
    const std::string& text = Pick(legal, random);
    const size_t picked = static_cast<size_t>(&text - legal.data());
    const std::string bytes = Codec().EncodeLegalActions(*state)[picked];
    std::unique_ptr<core::State> by_text = state->Clone();
    std::vector<std::string> texts;
    ASSERT_FALSE(by_text->Apply(state->CurrentActor(), text, &texts));
    const auto applied = Codec().ApplyEncoded(*state, state->CurrentActor(), bytes);
    ASSERT_EQ(std::get<std::string>(applied), text);
    ASSERT_EQ(state->Hash(), by_text->Hash());
    ExpectEventsDecode(*state, texts);
    const EncodedStep step = Codec().EncodeLastStep(*state);
    EXPECT_EQ(Codec().DescribeAction(*follower, step.action), text);
    for (const std::string& event : step.events) {
      ASSERT_TRUE(follower->ApplyEvent(event));
    }
    for (const river::Event& e : river::StateOf(*state)->last_events()) ++seen[e.index()];
    ASSERT_EQ(follower->Hash(), state->Hash()) << "seed " << seed << " step " << steps;
    ExpectStateDecodes(*state);
  }
  EXPECT_EQ(follower->Actor(), core::kNoActor);
  EXPECT_EQ(follower->Scores(), state->Scores());
  EXPECT_TRUE(Codec().EncodeLegalActions(*state).empty());
  ExpectResult(*state);
}

// 25 seeds for each of the eight cases: 200 games.
TEST_P(RiverCodecGames, EncodedGamesDecodeToTheEnginesValues) {
  const GameCase c = GetParam();
  Seen seen{};
  for (uint64_t seed = 1; seed <= 25; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    PlayOneGame(c, seed * 1000 + static_cast<uint64_t>(c.players * 10 + c.river), seen);
    if (HasFatalFailure()) return;
  }
  // Discards are rare; every other alternative must have crossed the wire.
  for (size_t i = 0; i < seen.size(); ++i) {
    if (i != 1) {
      EXPECT_GT(seen[i], 0) << "event alternative " << i;
    }
  }
}

std::string CaseName(const ::testing::TestParamInfo<GameCase>& c) {
  return std::to_string(c.param.players) + "Players" + (c.param.river ? "River" : "BaseGame");
}

INSTANTIATE_TEST_SUITE_P(PlayersAndRiver, RiverCodecGames,
                         ::testing::Values(GameCase{2, 1}, GameCase{3, 1}, GameCase{4, 1},
                                           GameCase{5, 1}, GameCase{2, 0}, GameCase{3, 0},
                                           GameCase{4, 0}, GameCase{5, 0}),
                         CaseName);

// --- Malformed input ---

TEST(RiverCodec, GarbageBytesAreRefused) {
  std::unique_ptr<core::State> state = NewState({2, 1}, 7);
  const std::string garbage = "\xff\xff\xff\xff\x0f\x12";
  EXPECT_EQ(Decode(garbage), nullptr);
  EXPECT_EQ(Decode(""), nullptr);                                                 // no players
  EXPECT_EQ(Codec().DecodeState(Codec().EncodeState(*state), nullptr), nullptr);  // no tiles
  EXPECT_EQ(Codec().DescribeEvent(garbage), std::nullopt);
  EXPECT_EQ(Codec().DescribeEvent(""), std::nullopt);  // no alternative set
  const uint64_t before = state->Hash();
  for (const std::string& bytes : {garbage, std::string()}) {  // "": ACTION_KIND_UNSPECIFIED
    const auto refused = Codec().ApplyEncoded(*state, core::kChanceActor, bytes);
    ASSERT_TRUE(std::holds_alternative<core::RuleError>(refused));
    EXPECT_EQ(std::get<core::RuleError>(refused).code, "malformed");
    EXPECT_EQ(state->Hash(), before);
  }
  std::unique_ptr<PublicView> view = Decode(Codec().EncodeState(*state));
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(Codec().DescribeAction(*view, garbage), std::nullopt);
  EXPECT_FALSE(view->ApplyEvent(garbage));
}

TEST(RiverCodec, OutOfRangeActionsAreRefused) {
  const auto refused = [](auto&& change) {
    rv1::Action a = ToProto(river::Action::PlaceTile(1, 2, 3));
    change(a);
    return !FromProto(a).has_value();
  };
  EXPECT_FALSE(refused([](rv1::Action&) {}));
  EXPECT_TRUE(refused([](rv1::Action& a) { a.set_kind(static_cast<rv1::ActionKind>(99)); }));
  EXPECT_TRUE(refused([](rv1::Action& a) { a.set_x(1000); }));
  EXPECT_TRUE(refused([](rv1::Action& a) { a.set_y(-129); }));
  EXPECT_TRUE(refused([](rv1::Action& a) { a.set_rotation(4); }));
  EXPECT_TRUE(refused([](rv1::Action& a) { a.set_tile(3); }));     // unused by a placement
  EXPECT_TRUE(refused([](rv1::Action& a) { a.set_feature(1); }));  // unused by a placement
  rv1::Action draw = ToProto(river::Action::Draw(3));
  draw.set_tile(core::kMaxTiles);
  EXPECT_FALSE(FromProto(draw).has_value());
  rv1::Action follower = ToProto(river::Action::PlaceFollower(2));
  follower.set_feature(core::kMaxFeaturesPerTile);
  EXPECT_FALSE(FromProto(follower).has_value());
}

TEST(RiverCodec, AFeatureTheTileDoesNotHaveIsRefusedByTheEngine) {
  std::unique_ptr<core::State> state = NewState({2, 0}, 3);
  ASSERT_FALSE(state->Apply(core::kChanceActor, state->LegalActions().front(), nullptr));
  ASSERT_FALSE(state->Apply(0, state->LegalActions().front(), nullptr));
  ASSERT_EQ(state->CurrentActor(), 0);
  const uint64_t before = state->Hash();
  const std::string seven = ToProto(river::Action::PlaceFollower(7)).SerializeAsString();
  const auto refused = Codec().ApplyEncoded(*state, 0, seven);
  ASSERT_TRUE(std::holds_alternative<core::RuleError>(refused));
  EXPECT_EQ(state->Hash(), before);
  std::unique_ptr<PublicView> view = Decode(Codec().EncodeState(*state));
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(Codec().DescribeAction(*view, seven), "follower ?");
}

TEST(RiverCodec, OutOfRangeEventsAreRefused) {
  const std::vector<river::Event> events = OneOfEach();
  const auto wire = [&](size_t alternative) { return ToProto(events[alternative], 3); };
  rv1::Event e = wire(3);
  e.mutable_follower_placed()->set_role(static_cast<rv1::FeatureKind>(77));
  EXPECT_FALSE(FromProto(e, 3).has_value());
  e = wire(3);
  e.mutable_follower_placed()->set_player(3);  // a fourth seat in a game of three
  EXPECT_FALSE(FromProto(e, 3).has_value());
  e = wire(2);
  e.mutable_tile_placed()->set_x(1000);
  EXPECT_FALSE(FromProto(e, 3).has_value());
  e = wire(0);
  e.mutable_tile_drawn()->set_tile(300);
  EXPECT_FALSE(FromProto(e, 3).has_value());
  e = wire(4);
  e.mutable_feature_scored()->add_points(0);  // four entries in a game of three
  EXPECT_FALSE(FromProto(e, 3).has_value());
  EXPECT_TRUE(FromProto(e, 4).has_value());
  e = wire(4);
  e.mutable_feature_scored()->set_points(0, 40000);  // beyond int16
  EXPECT_FALSE(FromProto(e, 3).has_value());
  e = wire(6);
  e.mutable_field_scored()->mutable_points()->RemoveLast();
  EXPECT_FALSE(FromProto(e, 3).has_value());
  e = wire(7);
  e.mutable_game_over()->set_winners(0b1000);
  EXPECT_FALSE(FromProto(e, 3).has_value());
  e = wire(7);
  e.mutable_game_over()->mutable_scores()->RemoveLast();
  EXPECT_FALSE(FromProto(e, 3).has_value());
  e = wire(8);
  e.mutable_decision_requested()->mutable_decision()->set_kind(static_cast<rv1::DecisionKind>(9));
  EXPECT_FALSE(FromProto(e, 3).has_value());
  e = wire(8);
  e.mutable_decision_requested()->mutable_decision()->set_actor(-3);
  EXPECT_FALSE(FromProto(e, 3).has_value());
  EXPECT_FALSE(FromProto(wire(0), 1).has_value());  // no game of one
  EXPECT_FALSE(FromProto(wire(0), 6).has_value());
}

TEST(RiverCodec, AViewRefusesAFollowerThatIsNotThere) {
  std::unique_ptr<core::State> state = NewState({3, 1}, 11);
  std::unique_ptr<PublicView> view = Decode(Codec().EncodeState(*state));
  ASSERT_NE(view, nullptr);
  const std::string returned = ToProto(OneOfEach()[5], 3).SerializeAsString();
  EXPECT_FALSE(view->ApplyEvent(returned));
  EXPECT_EQ(view->Hash(), state->Hash());
  // A view of the wrong game's seats: points for five in a game of three.
  rv1::Event scored = ToProto(OneOfEach()[4], 5);
  EXPECT_FALSE(view->ApplyEvent(scored.SerializeAsString()));
}

TEST(RiverCodec, AViewRefusesTilesBeyondItsTileSet) {
  // The view checks tile ids against the set it was given; the River's set has as many tiles as
  // the engine's bound (core::kMaxTiles), so the decoder refuses the same ids.
  std::unique_ptr<core::State> state = NewState({2, 1}, 4);
  const int tiles = river::DefaultTileSet()->TileCount();
  std::unique_ptr<PublicView> view = Decode(Codec().EncodeState(*state));
  ASSERT_NE(view, nullptr);
  const uint64_t before = view->Hash();
  const auto drawn = [](int tile) {
    return ToProto(river::Event{river::TileDrawn{static_cast<uint8_t>(tile)}}, 2)
        .SerializeAsString();
  };
  if (tiles < core::kMaxTiles) {
    EXPECT_FALSE(view->ApplyEvent(drawn(tiles)));
    EXPECT_EQ(view->Hash(), before);
  }
  EXPECT_TRUE(view->ApplyEvent(drawn(tiles - 1)));
  rv1::PublicState in_hand = ToProto(river::GameOf(*state)->Public());
  in_hand.set_drawn_tile(tiles);
  EXPECT_EQ(Decode(in_hand.SerializeAsString()), nullptr);
}

TEST(RiverCodec, OutOfRangeStatesAreRefused) {
  std::unique_ptr<core::State> state = NewState({3, 1}, 5);
  const rv1::PublicState good = ToProto(river::GameOf(*state)->Public());
  const auto refused = [&](auto&& change) {
    rv1::PublicState s = good;
    change(s);
    return Decode(s.SerializeAsString()) == nullptr;
  };
  EXPECT_FALSE(refused([](rv1::PublicState&) {}));
  EXPECT_TRUE(refused([](rv1::PublicState& s) { s.set_players(1); }));
  EXPECT_TRUE(refused([](rv1::PublicState& s) { s.set_players(6); }));
  EXPECT_TRUE(refused([](rv1::PublicState& s) { s.mutable_player()->RemoveLast(); }));
  EXPECT_TRUE(refused([](rv1::PublicState& s) { s.add_player(); }));
  EXPECT_TRUE(refused([](rv1::PublicState& s) { s.mutable_tiles(0)->set_x(1000); }));
  EXPECT_TRUE(refused([](rv1::PublicState& s) { s.mutable_tiles(0)->set_tile(200); }));
  EXPECT_TRUE(refused([](rv1::PublicState& s) { s.mutable_tiles(0)->set_rotation(4); }));
  EXPECT_TRUE(refused([](rv1::PublicState& s) { s.clear_tiles(); }));
  EXPECT_TRUE(refused([](rv1::PublicState& s) { s.set_drawn_tile(-2); }));
  EXPECT_TRUE(refused([](rv1::PublicState& s) { s.set_drawn_tile(core::kMaxTiles); }));
  EXPECT_TRUE(refused([](rv1::PublicState& s) { s.set_over(true); }));
  EXPECT_TRUE(refused([](rv1::PublicState& s) {
    s.mutable_decision()->set_kind(static_cast<rv1::DecisionKind>(5));
  }));
  EXPECT_TRUE(refused([](rv1::PublicState& s) { s.mutable_decision()->set_turn_player(3); }));
  EXPECT_TRUE(refused([](rv1::PublicState& s) { s.mutable_player(0)->set_followers(8); }));
  EXPECT_TRUE(refused([](rv1::PublicState& s) { s.set_followers_per_player(300); }));
  const auto follower = [](rv1::PublicState& s, uint32_t player, uint32_t feature) {
    rv1::Follower* f = s.add_followers();
    f->set_player(player);
    f->set_feature(feature);
  };
  EXPECT_FALSE(refused([&](rv1::PublicState& s) {
    follower(s, 0, 1);
    follower(s, 1, 0);
  }));
  EXPECT_TRUE(refused([&](rv1::PublicState& s) {  // unsorted
    follower(s, 1, 0);
    follower(s, 0, 1);
  }));
  EXPECT_TRUE(refused([&](rv1::PublicState& s) { follower(s, 3, 0); }));
  EXPECT_TRUE(refused([&](rv1::PublicState& s) { follower(s, 0, core::kMaxFeaturesPerTile); }));
}

}  // namespace
}  // namespace carc::protocol
