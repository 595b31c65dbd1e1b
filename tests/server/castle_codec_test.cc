// The Castle's side of the wire (server/protocol/castle/): every action and event survives the
// trip through its message; over seeded random games played through core::State, the encoded
// state (with the castle's board), legal actions and events decode to exactly what the engine
// holds (a client following the events stays in step, hash for hash); and malformed bytes are
// refused, never trusted.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <numeric>
#include <string>
#include <variant>
#include <vector>

#include "castle/default_data.h"
#include "castle/notation.h"
#include "castle/rule_set.h"
#include "core/hash.h"
#include "protocol/castle/codec.h"
#include "protocol/castle/game_codec.h"

namespace carc::protocol {
namespace {

namespace cv1 = ::carcassonne::castle::v1;
using castle_wire::FromProto;
using castle_wire::ToProto;

const GameCodec& Codec() { return CastleCodec(); }

// A view of an encoded state, as a client decodes it with the server's tile set.
std::unique_ptr<PublicView> Decode(std::string_view state) {
  return Codec().DecodeState(state, castle::DefaultTileSet());
}

// Events have no operator==; their text (castle::FormatEvent) names every field of every
// alternative (castle/event_fields.h), so equal texts of the same alternative are equal events.
bool SameEvent(const castle::Event& a, const castle::Event& b) {
  return a.index() == b.index() && castle::FormatEvent(a) == castle::FormatEvent(b);
}

castle::Points PointsOf(std::initializer_list<int16_t> seats) {
  castle::Points points{};
  std::copy(seats.begin(), seats.end(), points.begin());
  return points;
}

// One event of every alternative, for a game of two.
std::vector<castle::Event> OneOfEach() {
  castle::GameOver over{};
  over.scores[0] = {4, 10, 9, 6, 12, 5};
  over.scores[1] = {-1, 0, 0, 12, 0, 32767};
  over.winners = 0b10;
  castle::KeepScored keeps{};
  keeps.area = 14;
  keeps.sizes = {5, 3};
  keeps.points = PointsOf({14, 0});
  return {
      castle::TileDrawn{.tile = 59},
      castle::TileDiscarded{.tile = 5},
      castle::TilePlaced{.player = 1, .tile = 17, .x = -128, .y = 127, .rotation = 3},
      castle::FollowerPlaced{
          .player = 1, .x = 4, .y = 2, .feature = 7, .role = core::FeatureKind::kCourt},
      castle::FeatureScored{.kind = core::FeatureKind::kTower,
                            .x = 3,
                            .y = 5,
                            .feature = 2,
                            .tiles = 6,
                            .symbols = 0,
                            .complete = true,
                            .wall = 2,
                            .points = PointsOf({24, 0})},
      castle::FollowerReturned{.player = 0, .x = 1, .y = 1, .feature = 0},
      castle::KeepPlaced{.player = 0, .x = 6, .y = 7, .feature = 1, .size = 4},
      castle::WallTileTaken{.player = 1, .corner = 3, .wall = 9},
      castle::WallTileUsed{.player = 1, .wall = 9, .points = 5},
      keeps,
      over,
      castle::DecisionRequested{
          .decision = {.actor = 0, .kind = castle::DecisionKind::kWallTile, .wall = 5},
          .turn_player = 1},
  };
}

TEST(CastleCodec, EveryActionKindRoundTrips) {
  const std::vector<castle::Action> actions = {castle::Action::Draw(0),
                                               castle::Action::Draw(59),
                                               castle::Action::PlaceTile(0, 0, 0),
                                               castle::Action::PlaceTile(-128, 127, 3),
                                               castle::Action::PlaceFollower(0),
                                               castle::Action::PlaceFollower(7),
                                               castle::Action::SkipFollower(),
                                               castle::Action::Score(4, 11, 2, false),
                                               castle::Action::Score(4, 11, 2, true),
                                               castle::Action::ExtraTurn(),
                                               castle::Action::EndTurn(),
                                               castle::Action::UseWallTile(4, 5, 8, 1),
                                               castle::Action::SkipWallTile(7)};
  for (const castle::Action& a : actions) {
    cv1::Action wire;
    ASSERT_TRUE(wire.ParseFromString(ToProto(a).SerializeAsString()));
    EXPECT_EQ(FromProto(wire), a) << castle::ToString(a.kind);
  }
}

TEST(CastleCodec, EveryEventAlternativeRoundTrips) {
  const std::vector<castle::Event> events = OneOfEach();
  ASSERT_EQ(events.size(), std::variant_size_v<castle::Event>);
  for (size_t i = 0; i < events.size(); ++i) {
    ASSERT_EQ(events[i].index(), i);
    cv1::Event wire;
    ASSERT_TRUE(wire.ParseFromString(ToProto(events[i], 2).SerializeAsString()));
    const std::optional<castle::Event> back = FromProto(wire, 2);
    ASSERT_TRUE(back.has_value()) << castle::FormatEvent(events[i]);
    EXPECT_TRUE(SameEvent(*back, events[i])) << castle::FormatEvent(*back);
    EXPECT_EQ(Codec().DescribeEvent(wire.SerializeAsString()), castle::FormatEvent(events[i]));
  }
}

TEST(CastleCodec, DecisionsRoundTrip) {
  for (const castle::Decision decision :
       {castle::Decision{castle::kChance, castle::DecisionKind::kDrawTile},
        castle::Decision{1, castle::DecisionKind::kScoreNext},
        castle::Decision{0, castle::DecisionKind::kWallTile, 7},
        castle::Decision{castle::kNobody, castle::DecisionKind::kNone}}) {
    const auto back = FromProto(ToProto(decision, 1), 2);
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(back->decision, decision);
    EXPECT_EQ(back->turn_player, 1);
  }
}

// --- Seeded random games through core::State ---

std::unique_ptr<core::State> NewState(uint64_t seed) {
  static const auto rules = castle::MakeRuleSet(castle::DefaultTileSet());
  auto made = rules->NewGame(2, {}, seed);
  EXPECT_TRUE(std::holds_alternative<std::unique_ptr<core::State>>(made));
  return std::move(std::get<std::unique_ptr<core::State>>(made));
}

// Whether an action's text takes something the rules offer: a follower, a doubled score, an
// extra turn, a wall tile at the end.
bool Eager(const std::string& text) {
  return (text.starts_with("follower ") && text != "follower none") || text.ends_with(" double") ||
         text == "extra-turn yes" || (text.starts_with("walltile ") && !text.ends_with(" none"));
}

// Takes what the rules offer nine times in ten (so games score every kind of feature and use
// wall tiles), otherwise any legal action.
const std::string& Pick(const std::vector<std::string>& legal, core::Random& random) {
  std::vector<size_t> eager;
  for (size_t i = 0; i < legal.size(); ++i) {
    if (Eager(legal[i])) eager.push_back(i);
  }
  if (!eager.empty() && random.Below(10) != 0) {
    return legal[eager[static_cast<size_t>(random.Below(eager.size()))]];
  }
  return legal[static_cast<size_t>(random.Below(legal.size()))];
}

// The encoded state decodes to a view equal to the engine's public state, hash, board and all.
void ExpectStateDecodes(const core::State& state) {
  const std::unique_ptr<PublicView> view = Decode(Codec().EncodeState(state));
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(view->Hash(), state.Hash());
  const castle::Game& game = *castle::GameOf(state);
  ASSERT_NE(CastleStateOf(*view), nullptr);
  castle::PublicState expected = game.Public();
  expected.config.layout = nullptr;  // a client has the board instead
  EXPECT_TRUE(*CastleStateOf(*view) == expected);
  ASSERT_NE(CastleBoardOf(*view), nullptr);
  EXPECT_EQ(*CastleBoardOf(*view),
            castle_wire::BoardOf(game.layout(), static_cast<int>(game.StartTiles().size())));
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
  const auto typed = castle::StateOf(state)->last_events();
  ASSERT_EQ(encoded.size(), texts.size());
  ASSERT_EQ(typed.size(), texts.size());
  for (size_t i = 0; i < texts.size(); ++i) {
    EXPECT_EQ(Codec().DescribeEvent(encoded[i]), texts[i]);
    cv1::Event wire;
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
    ASSERT_EQ(by_source[p].size(), static_cast<size_t>(castle::kSourceCount));
    EXPECT_EQ(std::accumulate(by_source[p].begin(), by_source[p].end(), 0), scores[p]);
  }
  EXPECT_EQ(result["state_hash"].get<uint64_t>(), state.Hash());
}

// What the games saw: every event alternative counts, so the suite knows its games scored.
using Seen = std::array<int, std::variant_size_v<castle::Event>>;

void PlayOneGame(uint64_t seed, Seen& seen) {
  std::unique_ptr<core::State> state = NewState(seed);
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
    for (const castle::Event& e : castle::StateOf(*state)->last_events()) ++seen[e.index()];
    ASSERT_EQ(follower->Hash(), state->Hash()) << "seed " << seed << " step " << steps;
    ExpectStateDecodes(*state);
  }
  EXPECT_EQ(follower->Actor(), core::kNoActor);
  EXPECT_EQ(follower->Scores(), state->Scores());
  EXPECT_TRUE(Codec().EncodeLegalActions(*state).empty());
  ExpectResult(*state);
}

// 60 seeded games.
TEST(CastleCodecGames, EncodedGamesDecodeToTheEnginesValues) {
  Seen seen{};
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    PlayOneGame(seed * 7919, seen);
    if (HasFatalFailure()) return;
  }
  // Discards are rare; every other alternative must have crossed the wire.
  for (size_t i = 0; i < seen.size(); ++i) {
    if (i != 1) {
      EXPECT_GT(seen[i], 0) << "event alternative " << i;
    }
  }
}

// --- Malformed input ---

TEST(CastleCodec, GarbageBytesAreRefused) {
  std::unique_ptr<core::State> state = NewState(7);
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

TEST(CastleCodec, OutOfRangeActionsAreRefused) {
  const auto refused = [](const castle::Action& action, auto&& change) {
    cv1::Action a = ToProto(action);
    change(a);
    return !FromProto(a).has_value();
  };
  const castle::Action place = castle::Action::PlaceTile(1, 2, 3);
  EXPECT_FALSE(refused(place, [](cv1::Action&) {}));
  EXPECT_TRUE(refused(place, [](cv1::Action& a) { a.set_kind(static_cast<cv1::ActionKind>(99)); }));
  EXPECT_TRUE(refused(place, [](cv1::Action& a) { a.set_x(1000); }));
  EXPECT_TRUE(refused(place, [](cv1::Action& a) { a.set_y(-129); }));
  EXPECT_TRUE(refused(place, [](cv1::Action& a) { a.set_rotation(4); }));
  EXPECT_TRUE(refused(place, [](cv1::Action& a) { a.set_tile(3); }));     // unused by a placement
  EXPECT_TRUE(refused(place, [](cv1::Action& a) { a.set_feature(1); }));  // unused by a placement
  EXPECT_TRUE(refused(place, [](cv1::Action& a) { a.set_wall(1); }));     // unused by a placement
  const castle::Action score = castle::Action::Score(4, 11, 2, true);
  EXPECT_FALSE(refused(score, [](cv1::Action&) {}));
  EXPECT_TRUE(refused(score, [](cv1::Action& a) { a.set_rotation(1); }));
  EXPECT_TRUE(refused(score, [](cv1::Action& a) { a.set_feature(core::kMaxFeaturesPerTile); }));
  const castle::Action wall = castle::Action::UseWallTile(4, 5, 8, 1);
  EXPECT_FALSE(refused(wall, [](cv1::Action&) {}));
  EXPECT_TRUE(refused(wall, [](cv1::Action& a) { a.set_wall(0); }));
  EXPECT_TRUE(refused(wall, [](cv1::Action& a) { a.set_wall(10); }));
  EXPECT_TRUE(refused(castle::Action::SkipWallTile(7), [](cv1::Action& a) { a.set_x(1); }));
  EXPECT_TRUE(refused(castle::Action::ExtraTurn(), [](cv1::Action& a) { a.set_feature(1); }));
  EXPECT_TRUE(
      refused(castle::Action::Draw(3), [](cv1::Action& a) { a.set_tile(core::kMaxTiles); }));
}

TEST(CastleCodec, OutOfRangeEventsAreRefused) {
  const std::vector<castle::Event> events = OneOfEach();
  const auto wire = [&](size_t alternative) { return ToProto(events[alternative], 2); };
  cv1::Event e = wire(3);
  e.mutable_follower_placed()->set_role(cv1::FEATURE_KIND_UNSPECIFIED);
  EXPECT_FALSE(FromProto(e, 2).has_value());
  e = wire(3);
  e.mutable_follower_placed()->set_player(2);  // a third seat in a game of two
  EXPECT_FALSE(FromProto(e, 2).has_value());
  e = wire(2);
  e.mutable_tile_placed()->set_x(1000);
  EXPECT_FALSE(FromProto(e, 2).has_value());
  e = wire(0);
  e.mutable_tile_drawn()->set_tile(300);
  EXPECT_FALSE(FromProto(e, 2).has_value());
  e = wire(4);
  e.mutable_feature_scored()->add_points(0);  // three entries in a game of two
  EXPECT_FALSE(FromProto(e, 2).has_value());
  e = wire(4);
  e.mutable_feature_scored()->set_wall(10);
  EXPECT_FALSE(FromProto(e, 2).has_value());
  e = wire(7);
  e.mutable_wall_tile_taken()->set_wall(0);
  EXPECT_FALSE(FromProto(e, 2).has_value());
  e = wire(7);
  e.mutable_wall_tile_taken()->set_corner(16);
  EXPECT_FALSE(FromProto(e, 2).has_value());
  e = wire(8);
  e.mutable_wall_tile_used()->set_wall(10);
  EXPECT_FALSE(FromProto(e, 2).has_value());
  e = wire(9);
  e.mutable_keep_scored()->mutable_sizes()->RemoveLast();
  EXPECT_FALSE(FromProto(e, 2).has_value());
  e = wire(10);
  e.mutable_game_over()->set_winners(0b100);
  EXPECT_FALSE(FromProto(e, 2).has_value());
  e = wire(11);
  e.mutable_decision_requested()->mutable_decision()->set_wall(0);  // a wall-tile decision
  EXPECT_FALSE(FromProto(e, 2).has_value());
  e = wire(11);
  e.mutable_decision_requested()->mutable_decision()->set_kind(cv1::DECISION_KIND_EXTRA_TURN);
  EXPECT_FALSE(FromProto(e, 2).has_value());  // names a wall tile it has no use for
  e = wire(11);
  e.mutable_decision_requested()->mutable_decision()->set_actor(-3);
  EXPECT_FALSE(FromProto(e, 2).has_value());
  EXPECT_FALSE(FromProto(wire(0), 1).has_value());  // no game of one
}

TEST(CastleCodec, AViewRefusesEventsThatDoNotFitItsState) {
  std::unique_ptr<core::State> state = NewState(11);
  std::unique_ptr<PublicView> view = Decode(Codec().EncodeState(*state));
  ASSERT_NE(view, nullptr);
  const uint64_t before = view->Hash();
  const auto bytes = [](const castle::Event& e) { return ToProto(e, 2).SerializeAsString(); };
  EXPECT_FALSE(view->ApplyEvent(bytes(OneOfEach()[5])));  // no follower stands there
  EXPECT_FALSE(view->ApplyEvent(bytes(OneOfEach()[8])));  // no wall tile 9 is held
  EXPECT_FALSE(
      view->ApplyEvent(bytes(castle::WallTileTaken{.player = 0, .corner = 15, .wall = 1})));
  EXPECT_FALSE(view->ApplyEvent(bytes(castle::TileDrawn{.tile = 250})));  // beyond the set
  EXPECT_EQ(view->Hash(), before);
}

TEST(CastleCodec, OutOfRangeStatesAreRefused) {
  std::unique_ptr<core::State> state = NewState(5);
  const std::string good_bytes = Codec().EncodeState(*state);
  cv1::PublicState good;
  ASSERT_TRUE(good.ParseFromString(good_bytes));
  ASSERT_GT(good.board().squares_size(), 0);
  ASSERT_GT(good.board().wall_size(), 0);
  ASSERT_GT(good.start_spaces(), 0u);
  const auto refused = [&](auto&& change) {
    cv1::PublicState s = good;
    change(s);
    return Decode(s.SerializeAsString()) == nullptr;
  };
  EXPECT_FALSE(refused([](cv1::PublicState&) {}));
  EXPECT_TRUE(refused([](cv1::PublicState& s) { s.set_players(1); }));
  EXPECT_TRUE(refused([](cv1::PublicState& s) { s.mutable_player()->RemoveLast(); }));
  EXPECT_TRUE(refused([](cv1::PublicState& s) { s.mutable_tiles(0)->set_tile(250); }));
  EXPECT_TRUE(refused([](cv1::PublicState& s) { s.set_drawn_tile(-2); }));
  EXPECT_TRUE(refused([](cv1::PublicState& s) { s.set_over(true); }));
  EXPECT_TRUE(refused([](cv1::PublicState& s) { s.set_start_spaces(s.tiles_size() + 1); }));
  EXPECT_TRUE(refused([](cv1::PublicState& s) { s.set_wall_corners(1u << 16); }));
  EXPECT_TRUE(refused([](cv1::PublicState& s) { s.mutable_player(0)->set_followers(9); }));
  EXPECT_TRUE(refused([](cv1::PublicState& s) { s.mutable_player(0)->add_wall_tiles(0); }));
  EXPECT_TRUE(refused([](cv1::PublicState& s) { s.mutable_player(0)->set_fresh(3, 1); }));
  EXPECT_TRUE(refused([](cv1::PublicState& s) { s.mutable_player(0)->set_wall_tiles(0, 1); }));
  EXPECT_TRUE(refused([](cv1::PublicState& s) {  // squares out of order
    s.mutable_board()->mutable_squares()->SwapElements(0, 1);
  }));
  EXPECT_TRUE(
      refused([](cv1::PublicState& s) { s.mutable_board()->mutable_squares(0)->set_x(16); }));
  EXPECT_TRUE(
      refused([](cv1::PublicState& s) { s.mutable_board()->mutable_wall(1)->set_track(3); }));
  EXPECT_TRUE(refused([](cv1::PublicState& s) {
    s.mutable_board()->mutable_wall(0)->set_kind(cv1::WALL_KIND_UNSPECIFIED);
  }));
  EXPECT_TRUE(refused([](cv1::PublicState& s) { s.mutable_board()->add_corner_tracks(2); }));
}

}  // namespace
}  // namespace carc::protocol

namespace carc::protocol {
namespace {

std::string Hex(uint64_t h) {
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return out;
}

// The test vectors of docs/protocol-castle.md (section 5): the game with seed 8 in which every
// decision takes the first of its legal actions, hash by sequence number, as the engine and a
// client's view that follows the events compute them.
TEST(CastleCodec, HashVectorsOfTheProtocolPage) {
  EXPECT_EQ(Hex(core::FactKey(31, 0, 0, 0, 0)), "9e3732e66e5b9c92");
  std::unique_ptr<core::State> state = NewState(8);
  std::unique_ptr<PublicView> view = Decode(Codec().EncodeState(*state));
  ASSERT_NE(view, nullptr);
  std::vector<std::string> actions = {""};
  std::vector<std::string> hashes = {Hex(view->Hash())};
  while (!state->IsOver()) {
    ASSERT_LT(actions.size(), 1000u);
    actions.push_back(state->LegalActions().front());
    ASSERT_FALSE(state->Apply(state->CurrentActor(), actions.back(), nullptr));
    for (const std::string& event : Codec().EncodeLastStep(*state).events) {
      ASSERT_TRUE(view->ApplyEvent(event));
    }
    hashes.push_back(Hex(view->Hash()));
  }
  const std::vector<std::string> first_actions = {"", "draw 24", "place 2 3 0", "follower a"};
  const std::vector<std::string> first_hashes = {"53e6336b7189cb40", "7662fa0079e5aab1",
                                                 "2645308d5d055eca", "f422411e2aef7ab3"};
  EXPECT_EQ(std::vector(actions.begin(), actions.begin() + 4), first_actions);
  EXPECT_EQ(std::vector(hashes.begin(), hashes.begin() + 4), first_hashes);
  EXPECT_EQ(hashes.size(), 181u);
  EXPECT_EQ(hashes.back(), "79f8cb23d4dd582f");
  EXPECT_EQ(view->Scores(), (std::vector<int>{25, 36}));
}

}  // namespace
}  // namespace carc::protocol
