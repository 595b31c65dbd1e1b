// Every worked example of the 2012 rulebook (shared/seeds/004) and its River rules, rebuilt as a
// board position that the engine plays out, with the rulebook's exact points.
//
// The rulebook's pictures are not available, so each position is built from the text: the
// smallest board that matches what the example says. Most use the real tile set
// (data/base-and-river-tiles.txt) with a chosen draw order; the final-scoring examples use small
// inline sets so that the game ends after the example's last tile. Red is player 0 (p0) and Blue
// player 1 (p1) unless a test says otherwise; players take turns, p0 first. Coordinates: x east,
// y north; the set-up tile lies at (0, 0). Rotation r turns a tile r quarter turns clockwise.
//
// Real tiles used (sides N E S W; letters are areas, digits roads or rivers):
//   D-start  a-a b1c c-c c1b  city north, road west-east, field b north of it, c south
//   U        a-a a1b b-b b1a  road west-east
//   W        a-a a1b b2c c3a  three roads (east, south, west) ending at a crossing
//   E        a-a b-b b-b b-b  city north
//   F        b-b a-a c-c a-a  city band west-east with a pennant (G: the same without)
//   N        a-a b-b b-b a-a  city on north and west, one city
//   K        a-a b-b b1c c1b  city north, road from south to west; small field c inside the bend
//   R        a-a a-a b-b a-a  city on north, east and west
//   I        a-a c-c c-c b-b  two cities: north (a) and west (b)
//   B        a-a a-a a-a a-a  a monastery (m) in a field
#include <gtest/gtest.h>

#include "river/default_tiles.h"
#include "river/game.h"
#include "river_scenario.h"

namespace carc::river {
namespace {

using core::FeatureKind;
using test::FollowerChoices;
using test::MakeGame;
using test::MakeTiles;
using test::Only;
using test::Try;

constexpr int kRed = 0;
constexpr int kBlue = 1;

Game BaseGame(std::initializer_list<std::string_view> first) {
  return MakeGame(DefaultTileSet(), 2, false, first);
}

// The one FeatureScored event among `events`; fails the test if there is not exactly one.
FeatureScored OnlyScoring(const std::vector<Event>& events) {
  const std::vector<FeatureScored> scored = Only<FeatureScored>(events);
  EXPECT_EQ(scored.size(), 1u);
  return scored.empty() ? FeatureScored{} : scored[0];
}

// ---------------------------------------------------------------------------------------------
// Roads: 1 point per tile.

// "Red scores 4 points."
//   x=-1 [W]  x=0 [D-start]  x=1 [U] red thief  x=2 [W]: a road from crossing to crossing
TEST(RiverExamplesRoads, FourTilesScoreFour) {
  Game game = BaseGame({"U-road-straight", "W-crossing3", "W-crossing3"});
  test::Run(game, {"place 1 0 0", "follower 1", "place 2 0 0", "follower none"});
  const auto events = test::Run(game, {"place -1 0 0", "follower none"});
  const FeatureScored scored = OnlyScoring(events);
  EXPECT_EQ(scored.kind, FeatureKind::kStreet);
  EXPECT_TRUE(scored.complete);
  EXPECT_EQ(scored.tiles, 4);
  EXPECT_EQ(scored.points[kRed], 4);
  EXPECT_EQ(game.Score(kRed, kRoads), 4);
  EXPECT_EQ(game.FollowersInSupply(kRed), 7);  // the thief came back
}

// "Red scores 3 points." Red puts the thief on the tile that completes the road: it scores and
// comes back in the same turn (complete, place, score, return).
TEST(RiverExamplesRoads, ThiefOnTheCompletingTileScoresAndReturnsAtOnce) {
  Game game = BaseGame({"W-crossing3", "B-monastery", "W-crossing3"});
  test::Run(game, {"place 1 0 0", "follower none", "place 0 -1 0", "follower none"});
  const auto events = test::Run(game, {"place -1 0 0", "follower 1"});
  ASSERT_EQ(Only<FollowerPlaced>(events).size(), 1u);
  const FeatureScored scored = OnlyScoring(events);
  EXPECT_EQ(scored.tiles, 3);
  EXPECT_EQ(scored.points[kRed], 3);
  EXPECT_EQ(Only<FollowerReturned>(events).size(), 1u);
  EXPECT_EQ(game.FollowersInSupply(kRed), 7);
}

// ---------------------------------------------------------------------------------------------
// Cities: 2 points per tile and 2 per pennant.

// "Red scores 8 points (3-tile city and 1 banner)."
//   y=2 [E r2] city south      <- placed last
//   y=1 [F r1] city north-south, pennant, red knight
//   y=0 [D-start] city north
TEST(RiverExamplesCities, ThreeTilesAndAPennantScoreEight) {
  Game game = BaseGame({"F-city-band-pennant", "B-monastery", "E-city1"});
  test::Run(game, {"place 0 1 1", "follower a", "place 0 -1 0", "follower none"});
  const auto events = test::Run(game, {"place 0 2 2", "follower none"});
  const FeatureScored scored = OnlyScoring(events);
  EXPECT_EQ(scored.kind, FeatureKind::kCity);
  EXPECT_EQ(scored.tiles, 3);
  EXPECT_EQ(scored.pennants, 1);
  EXPECT_EQ(scored.points[kRed], 8);
  EXPECT_EQ(game.Score(kRed, kCities), 8);
}

// "Red scores 8 points (4-tile city and no banners)."
//   y=1 [N r2] red knight  [N r3]
//   y=0 [D-start]          [K]     <- placed last
TEST(RiverExamplesCities, FourTilesNoPennantScoreEight) {
  Game game = BaseGame({"N-city-corner", "N-city-corner", "K-city-road-curve-left"});
  test::Run(game, {"place 0 1 2", "follower a", "place 1 1 3", "follower none"});
  const auto events = test::Run(game, {"place 1 0 0", "follower none"});
  const FeatureScored scored = OnlyScoring(events);
  EXPECT_EQ(scored.tiles, 4);
  EXPECT_EQ(scored.pennants, 0);
  EXPECT_EQ(scored.points[kRed], 8);
}

// "When 2 city sections are on the same tile, it is still worth only 2 points since it counts as
// 1 tile." A ring of four tiles whose first tile (I, two cities) holds both ends of the city.
//   y=-1 [I r2] red knight on its south city, its east city ...
//   y=-2 [N r1]  [N r0]          ... runs round through (1,-1), (1,-2), (0,-2) back to it
TEST(RiverExamplesCities, TwoSectionsOnOneTileCountOnce) {
  Game game = BaseGame({"I-cities-corner", "N-city-corner", "N-city-corner", "N-city-corner"});
  test::Run(game, {"place 0 -1 2", "follower a", "place 1 -1 3", "follower none", "place 1 -2 0",
                   "follower none"});
  const auto events = test::Run(game, {"place 0 -2 1", "follower none"});
  const FeatureScored scored = OnlyScoring(events);
  EXPECT_EQ(scored.tiles, 4);
  EXPECT_EQ(scored.points[kRed], 8);  // 4 tiles, not 5 sections
}

// "Blue and Red both score 10 points for this city (made out of 5 tiles) since they have one
// knight each in that completed city."
//   y=1 [N r2] red knight   [R r2] <- joins them   [E r3]
//   y=0 [D-start]           [K] blue knight        [B]
TEST(RiverExamplesCities, TiedKnightsBothScoreTen) {
  Game game =
      BaseGame({"N-city-corner", "K-city-road-curve-left", "B-monastery", "E-city1", "R-city3"});
  test::Run(game, {"place 0 1 2", "follower a", "place 1 0 0", "follower a", "place 2 0 0",
                   "follower none", "place 2 1 3", "follower none"});
  const auto events = test::Run(game, {"place 1 1 2", "follower none"});
  const FeatureScored scored = OnlyScoring(events);
  EXPECT_EQ(scored.tiles, 5);
  EXPECT_EQ(scored.points[kRed], 10);
  EXPECT_EQ(scored.points[kBlue], 10);
  EXPECT_EQ(Only<FollowerReturned>(events).size(), 2u);
}

// ---------------------------------------------------------------------------------------------
// Monasteries: 9 points once surrounded.

constexpr std::string_view kMonasteryTiles = R"(
tile start    1 a-a a-a a-a a-a a=field role=start
tile cloister 1 a-a a-a a-a a-a a=field m=monastery
tile plain    7 a-a a-a a-a a-a a=field
)";

// "Red scores 9 points." The monastery at (0, 1); the eighth neighbour completes it.
TEST(RiverExamplesMonasteries, SurroundedMonasteryScoresNine) {
  Game game = MakeGame(MakeTiles(kMonasteryTiles), 2, false, {"cloister"});
  test::Run(game, {"place 0 1 0", "follower m", "place 1 0 0", "follower none", "place -1 0 0",
                   "follower none", "place 1 1 0", "follower none", "place -1 1 0", "follower none",
                   "place 0 2 0", "follower none", "place 1 2 0", "follower none"});
  EXPECT_EQ(game.Score(kRed, kMonasteries), 0);
  const auto events = test::Run(game, {"place -1 2 0", "follower none"});
  const std::vector<FeatureScored> scored = Only<FeatureScored>(events);
  ASSERT_FALSE(scored.empty());
  EXPECT_EQ(scored[0].kind, FeatureKind::kMonastery);
  EXPECT_TRUE(scored[0].complete);
  EXPECT_EQ(scored[0].tiles, 9);
  EXPECT_EQ(scored[0].points[kRed], 9);
  EXPECT_EQ(game.Score(kRed, kMonasteries), 9);
}

// Scoring summary: an incomplete monastery scores 1 point for its tile and each neighbour.
TEST(RiverExamplesMonasteries, IncompleteMonasteryScoresItsTilesAtTheEnd) {
  auto tiles = MakeTiles(R"(
tile start    1 a-a a-a a-a a-a a=field role=start
tile cloister 1 a-a a-a a-a a-a a=field m=monastery
tile plain    3 a-a a-a a-a a-a a=field
)");
  Game game = MakeGame(tiles, 2, false, {"cloister"});
  const auto events =
      test::Run(game, {"place 0 1 0", "follower m", "place 1 0 0", "follower none", "place 1 1 0",
                       "follower none", "place 0 2 0", "follower none"});
  ASSERT_TRUE(game.IsOver());
  const FeatureScored scored = OnlyScoring(events);
  EXPECT_FALSE(scored.complete);
  EXPECT_EQ(scored.tiles, 5);  // itself, (0,0), (1,0), (1,1), (0,2)
  EXPECT_EQ(game.Score(kRed, kMonasteries), 5);
}

// ---------------------------------------------------------------------------------------------
// Placing followers.

// "Blue can only place a farmer in the field since there already is a knight in the continued
// city."
TEST(RiverExamplesFollowers, OnlyAFarmerWhereTheCityIsTaken) {
  Game game = BaseGame({"F-city-band-pennant", "N-city-corner"});
  test::Run(game, {"place 0 1 1", "follower a", "place 0 2 2"});
  EXPECT_EQ(FollowerChoices(game), "b");  // the field; the city 'a' holds Red's knight
  EXPECT_EQ(Try(game, "follower a"), Error::kFeatureOccupied);
}

// "Blue can place his follower as a knight, a thief or a farmer. However, if he wants to place a
// farmer, he must put it on the small field since the other field is occupied."
//   x=-1 [K r2]: city south, road north-east; its big field b meets Red's farmer's field
TEST(RiverExamplesFollowers, FarmerOnlyOnTheSmallField) {
  Game game = BaseGame({"U-road-straight", "K-city-road-curve-left"});
  test::Run(game, {"place 1 0 0", "follower b", "place -1 0 2"});  // Red's farmer south of the road
  EXPECT_EQ(FollowerChoices(game), "1ac");  // thief, knight, farmer on the small field only
  EXPECT_EQ(Try(game, "follower b"), Error::kFeatureOccupied);
}

// "How can more than one follower occupy the same field?" Turn 1: a farmer; turn 2: another
// player's farmer on a tile diagonal to it, in a field not yet connected; turn 3: a tile joins
// the two fields. The player who joined them may not add a farmer there.
//   y=1 [cap r2] p1 farmer   [plain] <- joins
//   y=0 [start: 4 cities]    [cap r3] p0 farmer
constexpr std::string_view kFarmTiles = R"(
tile start 1 a-a b-b c-c d-d a=city b=city c=city d=city role=start
tile cap   3 a-a b-b b-b b-b a=city b=field
tile plain 2 a-a a-a a-a a-a a=field
)";

TEST(RiverExamplesFields, DiagonalFarmersEndUpInOneField) {
  Game game = MakeGame(MakeTiles(kFarmTiles), 2, false, {"cap", "cap", "plain"});
  test::Run(game, {"place 1 0 3", "follower b", "place 0 1 2", "follower b", "place 1 1 0"});
  EXPECT_EQ(FollowerChoices(game), "");  // the joined field holds two farmers already
  const core::Board& board = game.board();
  const core::FeatureInfo& field = board.Info(board.Root(board.FeatureOf(3, 0)));
  EXPECT_EQ(field.followers[0], 1);
  EXPECT_EQ(field.followers[1], 1);
}

// ---------------------------------------------------------------------------------------------
// Final scoring.

// "Blue scores 3 points for the incomplete city in the lower right-hand corner. Green scores 8
// points for the large incomplete city to the left. Black scores nothing as Green has more knights
// than her in the city." Blue p0, Green p1, Black p2.
//   y=1  [bandP]G [band] [band]B [band] [bandP]G [band]   six tiles, two pennants, open ends
//   y=0  [start]  [plain][plain] [plain][plain]
//   y=-1 [band]Blue [capP r3]                              two tiles, one pennant, open west
TEST(RiverExamplesFinalScoring, IncompleteCitiesScoreOnePerTileAndPennant) {
  auto tiles = MakeTiles(R"(
tile start 1 a-a a-a a-a a-a a=field role=start
tile plain 4 a-a a-a a-a a-a a=field
tile band  5 b-b a-a c-c a-a a=city b=field c=field
tile bandP 2 b-b a-a c-c a-a a=city+pennant b=field c=field
tile capP  1 a-a b-b b-b b-b a=city+pennant b=field
)");
  constexpr int kBlue3 = 0, kGreen = 1, kBlack = 2;
  Game game = MakeGame(tiles, 3, false,
                       {"plain", "bandP", "plain", "band", "plain", "band", "plain", "bandP",
                        "band", "capP", "band", "band"});
  const auto events = test::Run(
      game, {"place 1 0 0",   "follower none", "place 0 1 0",   "follower a",    "place 2 0 0",
             "follower none", "place 0 -1 0",  "follower a",    "place 3 0 0",   "follower none",
             "place 2 1 0",   "follower a",    "place 4 0 0",   "follower none", "place 4 1 0",
             "follower a",    "place 1 1 0",   "follower none", "place 1 -1 3",  "follower none",
             "place 3 1 0",   "follower none", "place 5 1 0",   "follower none"});
  ASSERT_TRUE(game.IsOver());
  const std::vector<FeatureScored> scored = Only<FeatureScored>(events);
  ASSERT_EQ(scored.size(), 2u);
  EXPECT_FALSE(scored[0].complete);
  EXPECT_EQ(scored[0].tiles, 6);
  EXPECT_EQ(scored[0].pennants, 2);
  EXPECT_EQ(scored[0].points[kGreen], 8);
  EXPECT_EQ(scored[0].points[kBlack], 0);
  EXPECT_EQ(scored[1].points[kBlue3], 3);
  EXPECT_EQ(game.Score(kGreen, kCities), 8);
  EXPECT_EQ(game.Score(kBlack, kCities), 0);
  EXPECT_EQ(game.Score(kBlue3, kCities), 3);
  for (int p = 0; p < 3; ++p) EXPECT_EQ(game.FollowersInSupply(p), 7);
}

// "Blue scores 6 points. Red scores 3 points. No one scores points for the incomplete city."
// Here Blue is p0 and Red p1.
//   y=0  [start: city S] [capS]
//   y=-1 [D] Blue farmer north of the road (touches A and B) [D]
//   y=-2 [capS] Red farmer (city open: incomplete) [capS]
//   y=-3                                           [capN]   (completes C)
TEST(RiverExamplesFinalScoring, FarmersScoreCompletedCitiesOnly) {
  auto tiles = MakeTiles(R"(
tile start 1 b-b b-b a-a b-b a=city b=field role=start
tile D     2 a-a b1c c-c c1b a=city b=field c=field
tile capS  3 b-b b-b a-a b-b a=city b=field
tile capN  1 a-a b-b b-b b-b a=city b=field
)");
  Game game = MakeGame(tiles, 2, false, {"D", "capS", "capS", "D", "capS", "capN"});
  const auto events =
      test::Run(game, {"place 0 -1 0", "follower b", "place 0 -2 0", "follower b", "place 1 0 0",
                       "follower none", "place 1 -1 0", "follower none", "place 1 -2 0",
                       "follower none", "place 1 -3 0", "follower none"});
  ASSERT_TRUE(game.IsOver());
  const std::vector<FieldScored> fields = Only<FieldScored>(events);
  ASSERT_EQ(fields.size(), 2u);
  EXPECT_EQ(game.Score(0, kFields), 6);  // Blue: cities A and B
  EXPECT_EQ(game.Score(1, kFields), 3);  // Red: city C; the open city is worth nothing
}

// Player aid: "Red and Yellow both have 2 farmers and score 6 points each (3 points each for
// cities A and B)": tied farmers each score in full. Here one farmer each, joined diagonally.
TEST(RiverExamplesFinalScoring, TiedFarmersEachScoreInFull) {
  auto tiles = MakeTiles(R"(
tile start 1 a-a b-b c-c d-d a=city b=city c=city d=city role=start
tile cap   2 a-a b-b b-b b-b a=city b=field
tile plain 1 a-a a-a a-a a-a a=field
)");
  Game game = MakeGame(tiles, 2, false, {"cap", "cap", "plain"});
  const auto events = test::Run(game, {"place 1 0 3", "follower b", "place 0 1 2", "follower b",
                                       "place 1 1 0", "follower none"});
  ASSERT_TRUE(game.IsOver());
  const std::vector<FieldScored> fields = Only<FieldScored>(events);
  ASSERT_EQ(fields.size(), 1u);
  EXPECT_EQ(fields[0].cities, 2);
  EXPECT_EQ(fields[0].points[0], 6);
  EXPECT_EQ(fields[0].points[1], 6);
}

// Player aid: "Red owns the large field ... He scores 6 points (3 for each city, A and B). Blue
// owns the small field. He also scores 3 points for city A": one city scores for every field that
// touches it. Here a two-tile city between two fields, each with a farmer.
//   y=1 [plain] p0 farmer: joins the start tile's field
//   y=0 [start: city east] [capW] p1 farmer
TEST(RiverExamplesFinalScoring, OneCityScoresForEveryFieldThatTouchesIt) {
  auto tiles = MakeTiles(R"(
tile start 1 b-b a-a b-b b-b a=city b=field role=start
tile capW  1 b-b b-b b-b a-a a=city b=field
tile plain 1 a-a a-a a-a a-a a=field
)");
  Game game = MakeGame(tiles, 2, false, {"plain", "capW"});
  const auto events = test::Run(game, {"place 0 1 0", "follower a", "place 1 0 0", "follower b"});
  ASSERT_TRUE(game.IsOver());
  const std::vector<FieldScored> fields = Only<FieldScored>(events);
  ASSERT_EQ(fields.size(), 2u);
  EXPECT_EQ(fields[0].cities, 1);
  EXPECT_EQ(fields[1].cities, 1);
  EXPECT_EQ(game.Score(0, kFields), 3);
  EXPECT_EQ(game.Score(1, kFields), 3);
}

// "Field 3: Yellow is the sole player to score Field 3 since he has more followers than Black";
// "Blue scores 9 points": three completed cities. Yellow p0 (two farmers), Black p1 (one).
TEST(RiverExamplesFinalScoring, MostFarmersTakeTheFieldThreeCitiesNine) {
  Game game = MakeGame(MakeTiles(kFarmTiles), 2, false, {"cap", "cap", "cap", "plain", "plain"});
  const auto events = test::Run(
      game, {"place 1 0 3", "follower b", "place 0 1 2", "follower b", "place -1 0 1", "follower b",
             "place 1 1 0", "follower none", "place -1 1 0", "follower none"});
  ASSERT_TRUE(game.IsOver());
  const std::vector<FieldScored> fields = Only<FieldScored>(events);
  ASSERT_EQ(fields.size(), 1u);
  EXPECT_EQ(fields[0].cities, 3);  // the start tile's south city stays open: not counted
  EXPECT_EQ(game.Score(0, kFields), 9);
  EXPECT_EQ(game.Score(1, kFields), 0);
  // Farmers never return.
  EXPECT_EQ(game.FollowersInSupply(0), 5);
  EXPECT_EQ(game.FollowersInSupply(1), 6);
}

// ---------------------------------------------------------------------------------------------
// The River.

Game RiverGame(std::initializer_list<std::string_view> first) {
  return MakeGame(DefaultTileSet(), 2, true, first);
}

// The spring replaces the start tile; the river flows east from it.
TEST(RiverExamplesRiver, TheSpringIsTheSetUpTile) {
  Game game = RiverGame({});
  EXPECT_EQ(game.tiles().TypeOf(game.SetupTile()).role, core::TileRole::kSpring);
  EXPECT_EQ(game.TileTotal(), 83);  // the start tile left the game
  EXPECT_TRUE(game.RiverOpen());
  const std::vector<int> order = game.Order();
  for (size_t i = 0; i < order.size(); ++i) {
    EXPECT_NE(game.tiles().TypeOf(order[i]).role, core::TileRole::kStart);
  }
  // The River's tiles come first, the lake as the eleventh draw.
  for (int i = 1; i <= 10; ++i) {
    EXPECT_TRUE(game.tiles().TypeOf(order[static_cast<size_t>(i)]).HasFeature(FeatureKind::kRiver));
  }
  EXPECT_EQ(game.tiles().TypeOf(order[11]).role, core::TileRole::kLake);
}

// "never place 2 bends (turns) in the same direction one after the other"
TEST(RiverExamplesRiver, NoTwoBendsTheSameWayInARow) {
  Game game = RiverGame({"R11-river-curve", "R12-river-curve"});
  test::Run(game, {"place 1 0 0", "follower none"});  // a right turn: east, then south
  test::DrawIfNeeded(game);
  EXPECT_EQ(Try(game, "place 1 -1 1"), Error::kRiverUTurn);  // right again
  std::vector<Action> legal;
  game.LegalActions(&legal);
  EXPECT_EQ(legal, std::vector<Action>{Action::PlaceTile(1, -1, 2)});  // the left turn only
}

// A straight stretch between two bends does not lift the ban (docs/rules.md, C4 point 3).
TEST(RiverExamplesRiver, AStraightBetweenBendsDoesNotLiftTheBan) {
  Game game = RiverGame({"R11-river-curve", "R07-river-straight", "R12-river-curve"});
  test::Run(game, {"place 1 0 0", "follower none", "place 1 -1 1", "follower none"});
  test::DrawIfNeeded(game);
  EXPECT_EQ(Try(game, "place 1 -2 1"), Error::kRiverUTurn);
  EXPECT_FALSE(Try(game, "place 1 -2 2").has_value());
}

// "Lay these tiles in order to continue the river": a River tile elsewhere is refused, even where
// its sides match.
TEST(RiverExamplesRiver, RiverTilesContinueTheRiver) {
  Game game = RiverGame({"R07-river-straight"});
  test::DrawIfNeeded(game);
  EXPECT_EQ(Try(game, "place 0 1 0"), Error::kRiverNotContinued);
  EXPECT_FALSE(Try(game, "place 1 0 0").has_value());
}

// "Once the last of the 10 River tiles has been placed, the next player places the lake and then
// the game continues normally."
TEST(RiverExamplesRiver, TheLakeClosesTheRiverThenLandTilesFollow) {
  Game game = RiverGame({});
  std::vector<Action> legal;
  for (int turn = 0; turn < 11; ++turn) {
    test::DrawIfNeeded(game);
    ASSERT_TRUE(game.RiverOpen());
    game.LegalActions(&legal);
    ASSERT_FALSE(legal.empty());
    ASSERT_FALSE(game.Apply(game.CurrentDecision().actor, legal.front(), nullptr));
    ASSERT_FALSE(game.Apply(game.CurrentDecision().actor, Action::SkipFollower(), nullptr));
  }
  EXPECT_FALSE(game.RiverOpen());
  EXPECT_EQ(game.TilesDiscarded(), 0);
  const core::PlacedTile& lake = game.board().Placed(11);
  EXPECT_EQ(game.tiles().TypeOf(lake.tile).role, core::TileRole::kLake);
  EXPECT_EQ(game.counters().turn_player, 1);  // the eleventh draw was p0's: p1 goes on
  test::DrawIfNeeded(game);
  EXPECT_FALSE(game.tiles().TypeOf(game.counters().drawn_tile).HasFeature(FeatureKind::kRiver));
}

// "Players are allowed to place followers on these tiles ... However, no followers are allowed on
// the river."
TEST(RiverExamplesRiver, FollowersOnRiverTilesButNotOnTheRiver) {
  Game game = RiverGame({"R03-river-cities"});
  test::Run(game, {"place 1 0 0"});
  EXPECT_EQ(FollowerChoices(game), "abcd");  // two cities, two fields; not the river '1'
  EXPECT_EQ(Try(game, "follower 1"), Error::kOnTheRiver);
}

}  // namespace
}  // namespace carc::river
