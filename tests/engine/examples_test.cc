// Every worked example of The City's rulebooks (shared/seeds/000, 001, 003), rebuilt as a board
// position that the engine plays out, with the rulebook's exact points.
//
// The rulebooks' pictures are not available, so each position is built from the text: the
// smallest city that matches what the example says and gives exactly its points. Each scenario
// uses a small inline tile set and a chosen draw order; the sketches show the board with x to the
// east and y to the north. Red is player 0 (p0) and Blue player 1 (p1); with two players they take
// turns, p0 first.
//
// Tile shapes used below (sides read N E S W, each: first half, midpoint, second half):
//   endN      a1a a-a a-a a-a   a street from the north side to a building on the tile
//   straight  a1b b-b b1a a-a   a street from north to south
//   curve     a1b b1a a-a a-a   a street from north to east
//   plain     a-a a-a a-a a-a   no street, one residential area
// Rotation r turns a tile r quarter turns clockwise: endN at r=2 has its street to the south.
// A `spare` tile left in a stack keeps the game going after the example's last placement, so the
// events checked are the example's alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "city/game.h"
#include "scenario.h"

namespace carc::city {
namespace {

using core::FeatureKind;
using test::FeaturePoints;
using test::MakeGame;
using test::MakeTiles;
using test::Only;
using test::Try;

constexpr int kRed = 0;
constexpr int kBlue = 1;

// Tile ids in draw order: each name takes the next copy of that type not taken yet.
std::vector<int> DrawOrder(const core::TileSet& tiles,
                           std::initializer_list<std::string_view> names) {
  std::map<std::string, size_t, std::less<>> taken;
  std::vector<int> ids;
  for (std::string_view name : names) {
    const std::vector<int> copies = test::TilesOf(tiles, name);
    size_t& n = taken[std::string(name)];
    EXPECT_LT(n, copies.size()) << "not enough copies of " << name;
    if (n < copies.size()) ids.push_back(copies[n++]);
  }
  return ids;
}

Game TwoPlayerGame(std::shared_ptr<const core::TileSet> tiles, std::array<int, 3> stacks,
                   std::initializer_list<std::string_view> order) {
  const std::vector<int> first = DrawOrder(*tiles, order);
  return MakeGame(std::move(tiles), Config{.players = 2, .stack_sizes = stacks}, first);
}

// The labels of the features a follower may go on now (the follower decision), sorted.
std::string FollowerChoices(const Game& game) {
  EXPECT_EQ(game.CurrentDecision().kind, DecisionKind::kPlaceFollower);
  std::vector<Action> legal;
  game.LegalActions(&legal);
  const core::TileType& type =
      game.tiles().TypeOf(game.board().Placed(game.board().TileCount() - 1).tile);
  std::string labels;
  for (const Action& a : legal) {
    if (a.kind == ActionKind::kPlaceFollower) labels += type.features[a.feature].label;
  }
  std::sort(labels.begin(), labels.end());
  return labels;
}

// The one FeatureScored event among `events`; fails the test if there is not exactly one.
FeatureScored OnlyScoring(const std::vector<Event>& events) {
  const std::vector<FeatureScored> scored = Only<FeatureScored>(events);
  EXPECT_EQ(scored.size(), 1u);
  return scored.empty() ? FeatureScored{} : scored[0];
}

// ---------------------------------------------------------------------------------------------
// Streets (R13): 1 point per tile with 1-3 tiles, 2 per tile with 4 or more; tiles, not segments.

constexpr std::string_view kStreetTiles = R"(
tile endN     3 a1a a-a a-a a-a a=residential 1=building
tile straight 2 a1b b-b b1a a-a a=residential b=residential
tile spare    1 a-a a-a a-a a-a a=residential
)";

// "Red scores 3 points (3 tiles)."
//
//   y=1   [endN r2]   building, street south
//   y=0   [straight]  red citizen
//   y=-1  [endN r0]   building, street north  <- placed last, completes the street
TEST(ExamplesStreets, ThreeTilesScoreThree) {
  Game game = TwoPlayerGame(MakeTiles(kStreetTiles), {6, 0, 0}, {"straight", "endN", "endN"});
  test::Run(game, {"place 0 0 0", "follower 1", "place 0 1 2", "follower none"});
  const auto events = test::Run(game, {"place 0 -1 0", "follower none"});
  const FeatureScored scored = OnlyScoring(events);
  EXPECT_EQ(scored.kind, FeatureKind::kStreet);
  EXPECT_EQ(scored.tiles, 3);
  EXPECT_EQ(scored.points[kRed], 3);
  EXPECT_EQ(scored.points[kBlue], 0);
  EXPECT_EQ(game.Score(kRed, kStreets), 3);
  EXPECT_EQ(game.FollowersInSupply(kRed), 7);  // the citizen came back
}

// "Red scores 8 points (4 tiles)."
//
//   y=2   [endN r2]
//   y=1   [straight]
//   y=0   [straight]  red citizen
//   y=-1  [endN r0]   <- placed last
TEST(ExamplesStreets, FourTilesScoreEight) {
  Game game =
      TwoPlayerGame(MakeTiles(kStreetTiles), {6, 0, 0}, {"straight", "straight", "endN", "endN"});
  test::Run(game, {"place 0 0 0", "follower 1", "place 0 1 0", "follower none", "place 0 2 2",
                   "follower none"});
  const auto events = test::Run(game, {"place 0 -1 0", "follower none"});
  const FeatureScored scored = OnlyScoring(events);
  EXPECT_EQ(scored.tiles, 4);
  EXPECT_EQ(scored.points[kRed], 8);
  EXPECT_EQ(game.Score(kRed, kStreets), 8);
}

// A street that passes twice through one tile: five segments on four tiles score as four tiles.
// The origin tile carries two segments, each from a side to a building on the tile.
//
//   y=1   [curve r1 ]--[curve r2]      the street leaves (0,0) north, turns round through
//            |              |          (0,1), (1,1) and (1,0), and comes back into (0,0) east
//   y=0   [twoEnds  ]--[curve r3]
//          red citizen  <- (1,0) placed last
//          on segment 1
TEST(ExamplesStreets, TilesCountOnceHoweverManySegments) {
  auto tiles = MakeTiles(R"(
tile twoEnds 1 a1b b2a a-a a-a a=residential b=residential 1=building 2=building
tile curve   3 a1b b1a a-a a-a a=residential b=residential
tile spare   1 a-a a-a a-a a-a a=residential
)");
  Game game = TwoPlayerGame(tiles, {5, 0, 0}, {"twoEnds", "curve", "curve", "curve"});
  test::Run(game, {"place 0 0 0", "follower 1", "place 0 1 1", "follower none", "place 1 1 2",
                   "follower none"});
  const auto events = test::Run(game, {"place 1 0 3", "follower none"});
  const FeatureScored scored = OnlyScoring(events);
  EXPECT_EQ(scored.kind, FeatureKind::kStreet);
  EXPECT_EQ(scored.tiles, 4);
  EXPECT_EQ(scored.points[kRed], 8);  // 4 tiles x 2, not 5 segments x 2
}

// ---------------------------------------------------------------------------------------------
// Markets (R13, R14): tiles x different kinds; tied majorities each score in full.

// "Blue scores 9 points (3 different kinds x 3 tiles = 9 points)."
//
//   y=0   [  fish]=[grain  grain]=[livestock  ]
//          fishE     grainEW         livestockE r2 <- placed last
//                    blue seller
TEST(ExamplesMarkets, ThreeTilesThreeKindsScoreNine) {
  auto tiles = MakeTiles(R"(
tile fishE       1 a-a b-b a-a a-a a=residential b=fish
tile grainEW     1 a-a b-b c-c b-b a=residential b=grain c=residential
tile livestockE  1 a-a b-b a-a a-a a=residential b=livestock
tile spare       1 a-a a-a a-a a-a a=residential
)");
  Game game = TwoPlayerGame(tiles, {4, 0, 0}, {"fishE", "grainEW", "livestockE"});
  test::Run(game, {"place 0 0 0", "follower none", "place 1 0 0", "follower b"});
  const auto events = test::Run(game, {"place 2 0 2", "follower none"});
  const FeatureScored scored = OnlyScoring(events);
  EXPECT_EQ(scored.kind, FeatureKind::kMarket);
  EXPECT_EQ(scored.tiles, 3);
  EXPECT_EQ(scored.market_kinds, 3);
  EXPECT_EQ(scored.points[kBlue], 9);
  EXPECT_EQ(game.Score(kBlue, kMarkets), 9);
}

// "Blue scores 8 points (2 different kinds x 4 tiles = 8 points)."
// Four corner markets meet around the point (1, 1): fish, grain, fish, grain.
//
//   y=1   [ grain|]  [|fish  ]     <- (0,1) placed last
//         [------+]  [+------]
//   y=0   [------+]  [+------]
//         [  fish|]  [|grain ]  blue seller on (1,0)
//           x=0        x=1
TEST(ExamplesMarkets, FourTilesTwoKindsScoreEight) {
  auto tiles = MakeTiles(R"(
tile cornerFish  2 a-b b-a a-a a-a a=residential b=fish
tile cornerGrain 2 a-b b-a a-a a-a a=residential b=grain
tile spare       1 a-a a-a a-a a-a a=residential
)");
  Game game =
      TwoPlayerGame(tiles, {5, 0, 0}, {"cornerFish", "cornerGrain", "cornerFish", "cornerGrain"});
  test::Run(game, {"place 0 0 0", "follower none", "place 1 0 3", "follower b", "place 1 1 2",
                   "follower none"});
  const auto events = test::Run(game, {"place 0 1 1", "follower none"});
  const FeatureScored scored = OnlyScoring(events);
  EXPECT_EQ(scored.tiles, 4);
  EXPECT_EQ(scored.market_kinds, 2);
  EXPECT_EQ(scored.points[kBlue], 8);
}

// "Red and blue both score the full points, in this case 18 points (3 kinds x 6 cards), as each
// ties with the most sellers (1) on the market." The new tile (1,1) joins two separate markets,
// one with a red seller and one with a blue seller, and completes the joined market.
//
//   y=1   [grain ]==[livestock]==[fish  ]==[grain ]
//           ||        ^ new                  ||
//   y=0   [fish  ]  [plain    ]  [plain ]  [fish  ]
//          red seller                       blue seller
//           x=0        x=1         x=2       x=3
TEST(ExamplesMarkets, TiedSellersBothScoreEighteen) {
  auto tiles = MakeTiles(R"(
tile fishN           2 b-b a-a a-a a-a a=residential b=fish
tile grainNE         2 b-b b-b a-a a-a a=residential b=grain
tile fishEW          1 a-a b-b c-c b-b a=residential b=fish c=residential
tile livestockEW     1 a-a b-b c-c b-b a=residential b=livestock c=residential
tile plain           3 a-a a-a a-a a-a a=residential
)");
  Game game = TwoPlayerGame(
      tiles, {9, 0, 0},
      {"fishN", "plain", "plain", "fishN", "grainNE", "grainNE", "fishEW", "livestockEW"});
  test::Run(game, {
                      "place 0 0 0", "follower b",     // red seller: market A
                      "place 1 0 0", "follower none",  //
                      "place 2 0 0", "follower none",  //
                      "place 3 0 0", "follower b",     // blue seller: market B
                      "place 0 1 1", "follower none",  // A grows north, open to the east
                      "place 3 1 2", "follower none",  // B grows north ...
                      "place 2 1 0", "follower none",  // ... and west, open to the west
                  });
  const auto events = test::Run(game, {"place 1 1 0", "follower none"});
  const FeatureScored scored = OnlyScoring(events);
  EXPECT_EQ(scored.tiles, 6);
  EXPECT_EQ(scored.market_kinds, 3);
  EXPECT_EQ(scored.points[kRed], 18);
  EXPECT_EQ(scored.points[kBlue], 18);
  EXPECT_EQ(game.Score(kRed, kMarkets), 18);
  EXPECT_EQ(game.Score(kBlue, kMarkets), 18);
  EXPECT_EQ(Only<FollowerReturned>(events).size(), 2u);
}

// ---------------------------------------------------------------------------------------------
// Towers (R23): 1 point per wall piece back to the previous tower, or to the gate.

// "Red places a tower and scores 4 points."
// Blue's scoring turn builds the gate and three pieces clockwise (front); Blue's tower ends them
// (3 points, back to the gate). Red's scoring turn builds four more at the front; Red's tower
// scores those 4, back to Blue's tower.
//
//   y=1   [endN r2 ]  [endN r2 ]              gate G on (1,1)N; front: (1,1)E, (2,0)N, (2,0)E,
//          ^ red's     ^ blue's               then (2,0)S, (1,0)S, (0,0)S, (0,0)W
//          turn 5      turn 4
//   y=0   [endN    ]  [endN    ]  [plain]
//          red cit.    blue cit.
TEST(ExamplesTowers, TowerScoresThePiecesBackToThePreviousTower) {
  auto tiles = MakeTiles(R"(
tile endN  4 a1a a-a a-a a-a a=residential 1=building
tile plain 1 a-a a-a a-a a-a a=residential
)");
  Game game = TwoPlayerGame(tiles, {3, 2, 0}, {"endN", "endN", "plain", "endN", "endN"});
  test::Run(game, {"place 0 0 0", "follower 1", "place 1 0 0", "follower 1", "place 2 0 0",
                   "follower none"});
  // Stack 2. Blue completes his street and starts the wall: gate, Red, Blue, Red.
  test::Run(game, {"place 1 1 2", "follower none", "gate 1 1 N", "wall front", "guard no",
                   "wall front", "guard no", "wall front", "guard no"});
  auto events = test::Run(game, {"tower front"});
  ASSERT_EQ(Only<TowerPlaced>(events).size(), 1u);
  EXPECT_EQ(Only<TowerPlaced>(events)[0].points, 3);
  EXPECT_EQ(game.Score(kBlue, kTowers), 3);

  // Red completes his street: four pieces, Red, Blue, Red, Blue, all at the front.
  test::Run(game, {"place 0 1 2", "follower none", "wall front", "guard no", "wall front",
                   "guard no", "wall front", "guard no", "wall front", "guard no"});
  EXPECT_EQ(game.chain().Count(kFrontEnd), 7);
  events = test::Run(game, {"tower front"});
  ASSERT_EQ(Only<TowerPlaced>(events).size(), 1u);
  EXPECT_EQ(Only<TowerPlaced>(events)[0].player, kRed);
  EXPECT_EQ(Only<TowerPlaced>(events)[0].points, 4);
  EXPECT_EQ(game.Score(kRed, kTowers), 4);
}

// ---------------------------------------------------------------------------------------------
// Walls completing streets and markets (R20, R21).

// "The wall completes the adjacent market. Red scores 4 points (2 kinds x 2 tiles) and returns
// the follower to his supply." and "This wall completes the street. Red scores 1 point and takes
// back his follower." Neither scoring starts another wall round (R17).
//
//                                          [endN r2]  <- Red, turn 5: completes Blue's street
//   y=0   [fish  ]=[grain]  [endN    ]  [endN    ]
//          red seller        red citizen blue citizen
//           x=0      x=1      x=2         x=3
// Gate on (0,0)W; then at the front: (0,0)N closes the market, (1,0)N, (2,0)N closes the street.
TEST(ExamplesWalls, WallPiecesCompleteAMarketAndAStreet) {
  auto tiles = MakeTiles(R"(
tile fishNE 1 b-b b-b a-a a-a a=residential b=fish
tile grainW 1 a-a a-a a-a b-b a=residential b=grain
tile endN   3 a1a a-a a-a a-a a=residential 1=building
tile spare  1 a-a a-a a-a a-a a=residential
)");
  Game game = TwoPlayerGame(tiles, {4, 2, 0}, {"fishNE", "grainW", "endN", "endN", "endN"});
  test::Run(game, {"place 0 0 0", "follower b", "place 1 0 0", "follower none", "place 2 0 0",
                   "follower 1", "place 3 0 0", "follower 1"});
  ASSERT_EQ(game.FollowersInSupply(kRed), 5);
  const auto blue_street = test::Run(game, {"place 3 1 2", "follower none"});
  EXPECT_EQ(FeaturePoints(blue_street, kBlue), 2);
  test::Run(game, {"gate 0 0 W"});

  auto events = test::Run(game, {"wall front"});  // Blue builds on (0,0)N
  FeatureScored scored = OnlyScoring(events);
  EXPECT_EQ(scored.kind, FeatureKind::kMarket);
  EXPECT_EQ(scored.cause, ScoreCause::kWall);
  EXPECT_EQ(scored.tiles, 2);
  EXPECT_EQ(scored.market_kinds, 2);
  EXPECT_EQ(scored.points[kRed], 4);
  ASSERT_EQ(Only<FollowerReturned>(events).size(), 1u);
  EXPECT_EQ(Only<FollowerReturned>(events)[0].player, kRed);
  EXPECT_EQ(game.FollowersInSupply(kRed), 6);

  test::Run(game, {"guard no", "wall front", "guard no"});  // Red builds on (1,0)N
  events = test::Run(game, {"wall front"});                 // Blue builds on (2,0)N
  scored = OnlyScoring(events);
  EXPECT_EQ(scored.kind, FeatureKind::kStreet);
  EXPECT_EQ(scored.cause, ScoreCause::kWall);
  EXPECT_EQ(scored.tiles, 1);
  EXPECT_EQ(scored.points[kRed], 1);
  EXPECT_EQ(game.FollowersInSupply(kRed), 7);

  events = test::Run(game, {"guard no", "tower none"});
  EXPECT_TRUE(Only<WallRoundBegun>(events).empty());
  EXPECT_EQ(game.CurrentDecision().kind, DecisionKind::kDrawTile);
  EXPECT_EQ(game.Score(kRed, kMarkets), 4);
  EXPECT_EQ(game.Score(kRed, kStreets), 1);
}

// ---------------------------------------------------------------------------------------------
// Stewards (R27): 2 points per different market touching the area, complete or not.

// "Red scores 6 points (3 adjacent markets)."
// Red's steward stands on the residential area R of (0,0), which continues into (1,0). R touches
// the fish market F inside both tiles (one market, counted once), the grain market G across
// (0,0)'s west side and the livestock market L across its south side. G and L were completed
// in play; F is still open when the last tile ends the game. Tiles drawn as quarters:
//
//            x=-1      x=0       x=1
//   y=0    [ .  G ]  [ R  F ]  [ F  R ]     .: residential areas without a steward
//          [ .  G ]  [ R  R ]  [ R  R ]
//   y=-1             [ L  L ]
//                    [ .  . ]
TEST(ExamplesStewards, AreaTouchingThreeMarketsScoresSix) {
  auto tiles = MakeTiles(R"(
tile home        1 a-b b-a a-a a-a a=residential b=fish
tile grainE      1 a-a b-b a-a a-a a=residential b=grain
tile livestockN  1 b-b a-a a-a a-a a=residential b=livestock
tile fishW       1 a-a a-a a-a a-b a=residential b=fish
)");
  Game game = TwoPlayerGame(tiles, {4, 0, 0}, {"home", "grainE", "livestockN", "fishW"});
  test::Run(game, {"place 0 0 0", "follower a", "place -1 0 0", "follower none", "place 0 -1 0",
                   "follower none"});
  const auto events = test::Run(game, {"place 1 0 0", "follower none"});
  ASSERT_TRUE(game.IsOver());
  EXPECT_EQ(game.EndedBy(), EndCondition::kLastTilePlaced);
  const auto stewards = Only<StewardsScored>(events);
  ASSERT_EQ(stewards.size(), 1u);
  EXPECT_EQ(stewards[0].markets, 3);
  EXPECT_EQ(stewards[0].points[kRed], 6);
  EXPECT_EQ(stewards[0].points[kBlue], 0);
  EXPECT_EQ(game.Score(kRed, kStewards), 6);
}

// ---------------------------------------------------------------------------------------------
// Guards (R22, R28): 2 points per public and 3 per historic building in the guard's row, up to the
// first empty cell; every guard scores on its own.

// "Red scores 9 points for 3 public and 1 historic building."
//
//                            [endN r2]   <- Red, turn 5 (stack 2, last tile): completes the street
//   y=0  R| [public][public][endNP   ][historic]
//                            red citizen
//          x=0     x=1     x=2       x=3
// Gate on (0,0)S; Blue (1,0)S; Red (0,0)W with a guard looking east; Blue (2,0)S.
TEST(ExamplesGuards, GuardOverThreePublicAndOneHistoricScoresNine) {
  auto tiles = MakeTiles(R"(
tile plainP 2 a-a a-a a-a a-a a=residential building=public
tile endNP  1 a1a a-a a-a a-a a=residential 1=building building=public
tile plainH 1 a-a a-a a-a a-a a=residential building=historic:Saint_Sernin
tile endN   1 a1a a-a a-a a-a a=residential 1=building
)");
  Game game = TwoPlayerGame(tiles, {4, 1, 0}, {"plainP", "plainP", "endNP", "plainH", "endN"});
  test::Run(game, {"place 0 0 0", "follower none", "place 1 0 0", "follower none", "place 2 0 0",
                   "follower 1", "place 3 0 0", "follower none"});
  test::Run(game, {"place 2 1 2", "follower none", "gate 0 0 S", "wall back", "guard no",
                   "wall front", "guard yes", "wall back", "guard no"});
  const auto events = test::Run(game, {"tower none"});
  ASSERT_TRUE(game.IsOver());
  const auto guards = Only<GuardScored>(events);
  ASSERT_EQ(guards.size(), 1u);
  EXPECT_EQ(guards[0].player, kRed);
  EXPECT_EQ(guards[0].side, core::kWest);
  EXPECT_EQ(guards[0].public_buildings, 3);
  EXPECT_EQ(guards[0].historic_buildings, 1);
  EXPECT_EQ(guards[0].points, 9);
  EXPECT_EQ(game.Score(kRed, kGuards), 9);
}

// The row y=0 with an empty cell, a hole inside the city, at (2,0):
//
//   y=1               [plain][plain][plain]
//   y=0  R| [public][hist ]  hole  [public][public] |B
//   y=-1                   [endN r2][endN r2]          red citizen (2,-1), blue citizen (3,-1)
//   y=-2                   [endN   ][endN   ]          completed in stack 3 / stack 2
//          x=0     x=1      x=2      x=3     x=4
//
// Blue's scoring turn (stack 2) builds the gate on (2,1)N and three pieces; Red's (stack 3)
// builds eight, going round the top from (0,0)W to (4,0)E. Red guards (0,0)W, Blue (4,0)E. The
// last tile (stack 3) ends the game.
constexpr std::string_view kHoleRowTiles = R"(
tile plain  4 a-a a-a a-a a-a a=residential
tile plainP 3 a-a a-a a-a a-a a=residential building=public
tile plainH 1 a-a a-a a-a a-a a=residential building=historic:Grand_Puits
tile endN   4 a1a a-a a-a a-a a=residential 1=building
)";

// Plays the hole-row game up to Blue's guard decision on (4,0)E, Red's guard standing on (0,0)W.
Game HoleRowAtBluesGuard() {
  Game game = TwoPlayerGame(MakeTiles(kHoleRowTiles), {9, 1, 2},
                            {"plainP", "plainH", "plain", "plain", "plain", "plainP", "plainP",
                             "endN", "endN", "endN", "endN", "plain"});
  test::Run(game, {
                      "place 0 0 0", "follower none",  //
                      "place 1 0 0", "follower none",  //
                      "place 1 1 0", "follower none",  //
                      "place 2 1 0", "follower none",  //
                      "place 3 1 0", "follower none",  //
                      "place 3 0 0", "follower none",  //
                      "place 4 0 0", "follower none",  //
                      "place 3 -1 2", "follower 1",    // blue citizen
                      "place 2 -1 2", "follower 1",    // red citizen
                  });
  // Stack 2: Blue completes his street; gate, then Red (back), Blue (front), Red (back).
  test::Run(game, {"place 3 -2 0", "follower none", "gate 2 1 N", "wall back", "guard no",
                   "wall front", "guard no", "wall back", "guard no", "tower none"});
  // Stack 3: Red completes his street; eight pieces, Red and Blue in turn.
  test::Run(game, {"place 2 -2 0", "follower none",  //
                   "wall back", "guard no",          // Red  (0,0)N
                   "wall front", "guard no",         // Blue (3,1)E
                   "wall back", "guard yes",         // Red  (0,0)W, looking east
                   "wall front", "guard no",         // Blue (4,0)N
                   "wall back", "guard no",          // Red  (0,0)S
                   "wall front"});                   // Blue (4,0)E
  return game;
}

// Finishes the wall round after Blue's guard: the remaining three pieces, no tower.
void FinishHoleRowWalls(Game& game) {
  test::Run(game, {"guard yes", "wall back", "guard no", "wall front", "guard no", "tower none"});
  ASSERT_FALSE(game.IsOver());
  ASSERT_EQ(game.UnwalledDistance(), 6);
}

// "Red scores 5 points. Blue scores 4 points. Each scores points only on their side of the row -
// up to the empty space." The last tile goes elsewhere, under the completed streets.
TEST(ExamplesGuards, GuardsFacingAcrossAnEmptyCellScoreTheirSideOnly) {
  Game game = HoleRowAtBluesGuard();
  ASSERT_NO_FATAL_FAILURE(FinishHoleRowWalls(game));
  const auto events = test::Run(game, {"place 2 -3 0", "follower none"});
  ASSERT_TRUE(game.IsOver());
  const auto guards = Only<GuardScored>(events);
  ASSERT_EQ(guards.size(), 2u);
  for (const GuardScored& g : guards) {
    if (g.player == kRed) {
      EXPECT_EQ(g.public_buildings, 1);
      EXPECT_EQ(g.historic_buildings, 1);
      EXPECT_EQ(g.points, 5);
    } else {
      EXPECT_EQ(g.public_buildings, 2);
      EXPECT_EQ(g.historic_buildings, 0);
      EXPECT_EQ(g.points, 4);
    }
  }
  EXPECT_EQ(game.Score(kRed, kGuards), 5);
  EXPECT_EQ(game.Score(kBlue, kGuards), 4);
}

// "When the empty space is filled after the guards are placed, each scores 9 points."
TEST(ExamplesGuards, FillingTheEmptyCellGivesBothGuardsTheWholeRow) {
  Game game = HoleRowAtBluesGuard();
  ASSERT_NO_FATAL_FAILURE(FinishHoleRowWalls(game));
  const auto events = test::Run(game, {"place 2 0 0", "follower none"});
  ASSERT_TRUE(game.IsOver());
  const auto guards = Only<GuardScored>(events);
  ASSERT_EQ(guards.size(), 2u);
  for (const GuardScored& g : guards) {
    EXPECT_EQ(g.public_buildings, 3);
    EXPECT_EQ(g.historic_buildings, 1);
    EXPECT_EQ(g.points, 9);
  }
  EXPECT_EQ(game.Score(kRed, kGuards), 9);
  EXPECT_EQ(game.Score(kBlue, kGuards), 9);
}

// "Blue may place a guard on the wall as there is an empty space in the city between the walls."
TEST(ExamplesGuards, GuardAllowedOppositeAGuardAcrossAnEmptyCell) {
  Game game = HoleRowAtBluesGuard();
  ASSERT_EQ(game.CurrentDecision(), (Decision{kBlue, DecisionKind::kPlaceGuard}));
  const WallPiece& piece = game.chain().Last(kFrontEnd);
  ASSERT_EQ(piece.cell(), (core::Cell{4, 0}));
  ASSERT_EQ(piece.side, core::kEast);
  std::vector<Action> legal;
  game.LegalActions(&legal);
  EXPECT_NE(std::find(legal.begin(), legal.end(), Action::PlaceGuard()), legal.end());
  EXPECT_EQ(Try(game, "guard yes"), std::nullopt);
}

// "Blue may not place a guard as there is a red guard on the opposite wall." Every cell between
// the two pieces holds a tile.
//
//   y=0   R| [plain][endN r2] |B      blue citizen on (1,0)
//   y=-1           [endN    ]         <- Red, stack 2: completes Blue's street
// Gate on (0,0)N (Red); Blue (1,0)N; Red (0,0)W with a guard; Blue (1,0)E.
TEST(ExamplesGuards, GuardRefusedOppositeAGuardAcrossAFullRow) {
  auto tiles = MakeTiles(R"(
tile plain 1 a-a a-a a-a a-a a=residential
tile endN  2 a1a a-a a-a a-a a=residential 1=building
)");
  Game game = TwoPlayerGame(tiles, {2, 1, 0}, {"plain", "endN", "endN"});
  test::Run(game, {"place 0 0 0", "follower none", "place 1 0 2", "follower 1", "place 1 -1 0",
                   "follower none", "gate 0 0 N", "wall front", "guard no", "wall back",
                   "guard yes", "wall front"});
  ASSERT_EQ(game.CurrentDecision(), (Decision{kBlue, DecisionKind::kPlaceGuard}));
  ASSERT_EQ(game.chain().Last(kFrontEnd).cell(), (core::Cell{1, 0}));
  ASSERT_EQ(game.chain().Last(kFrontEnd).side, core::kEast);
  EXPECT_EQ(Try(game, "guard yes"), Error::kGuardOpposite);
  std::vector<Action> legal;
  game.LegalActions(&legal);
  EXPECT_EQ(legal, std::vector<Action>{Action::SkipGuard()});
}

// ---------------------------------------------------------------------------------------------
// Follower restrictions (R10, R11).

// "Red may only place a steward. In the continued market there is already a blue seller."
// The new tile (0,-1) continues the street with Red's own citizen and the market with Blue's
// seller; only its residential area is free.
//
//   y=0   [a | fish ]=[livestock]     red citizen on the street, blue seller on (1,0)
//          | street
//   y=-1  [a | grain]                 <- Red's new tile: street 1 to a building, market b
TEST(ExamplesFollowers, OnlyAStewardWhereMarketAndStreetAreTaken) {
  auto tiles = MakeTiles(R"(
tile streetFish 1 a1b b-b b1a a-a a=residential b=fish
tile livestockW 1 a-a a-a a-a b-b a=residential b=livestock
tile endGrain   1 a1b b-b a-a a-a a=residential b=grain 1=building
tile spare      1 a-a a-a a-a a-a a=residential
)");
  Game game = TwoPlayerGame(tiles, {4, 0, 0}, {"streetFish", "livestockW", "endGrain"});
  test::Run(game, {"place 0 0 0", "follower 1", "place 1 0 0", "follower b", "place 0 -1 0"});
  EXPECT_EQ(Try(game, "follower b"), Error::kFeatureOccupied);
  EXPECT_EQ(Try(game, "follower 1"), Error::kFeatureOccupied);
  EXPECT_EQ(FollowerChoices(game), "a");
  EXPECT_EQ(Try(game, "follower a"), std::nullopt);
}

// "Blue may place a follower as a seller or a citizen, but as a steward only on the small
// residential area, as he already has a steward on the larger residential area."
//
//   y=1          [plain]                  blue steward on (0,1): the large area spans (0,1),
//   y=0   [plain][plain][a |1| fish]      (0,0), (-1,0) and, across (1,0)'s west side, area a
//                       [a |1| c   ]      <- Blue's new tile (1,0): street 1, market b (fish)
//          x=-1   x=0      x=1               and the small area c are free
TEST(ExamplesFollowers, StewardOnlyOnTheSmallArea) {
  auto tiles = MakeTiles(R"(
tile plain 3 a-a a-a a-a a-a a=residential
tile split 1 a1b b-c c1a a-a a=residential b=fish c=residential
tile spare 1 a-a a-a a-a a-a a=residential
)");
  Game game = TwoPlayerGame(tiles, {5, 0, 0}, {"plain", "plain", "plain", "split"});
  test::Run(game, {"place 0 0 0", "follower none", "place 0 1 0", "follower a", "place -1 0 0",
                   "follower none", "place 1 0 0"});
  EXPECT_EQ(Try(game, "follower a"), Error::kFeatureOccupied);
  EXPECT_EQ(FollowerChoices(game), "1bc");
}

// "Blue may not place a follower on the empty market as he just completed it."
//
//   y=0   [ fish]=[grain ]   <- Blue's tile (1,0) closes the two-tile market
TEST(ExamplesFollowers, NoSellerOnAMarketJustCompleted) {
  auto tiles = MakeTiles(R"(
tile fishE  1 a-a b-b a-a a-a a=residential b=fish
tile grainE 1 a-a b-b a-a a-a a=residential b=grain
tile spare  1 a-a a-a a-a a-a a=residential
)");
  Game game = TwoPlayerGame(tiles, {3, 0, 0}, {"fishE", "grainE"});
  test::Run(game, {"place 0 0 0", "follower none", "place 1 0 2"});
  EXPECT_EQ(Try(game, "follower b"), Error::kFeatureJustCompleted);
  EXPECT_EQ(FollowerChoices(game), "a");
}

// ---------------------------------------------------------------------------------------------
// Game end (R24, R26).

// "After the last round of wall building, there are only spaces for 4 wall pieces. The game
// ends." ... "In the previous example, red scores 1 point for the thus completed street."
//
//   y=1   [endN    ][endN r2]    red citizen on (0,1), its street open to the north
//   y=0   [plain   ][endN    ]   blue citizen on (1,0); (1,1) completes it in stack 2
// Gate on (1,0)S; (0,0)S, (1,0)E, (0,0)W. Left unwalled: (0,1)W, (0,1)N, (1,1)N, (1,1)E.
TEST(ExamplesGameEnd, FourSidesLeftEndTheGameAndCloseRedsStreet) {
  auto tiles = MakeTiles(R"(
tile plain 2 a-a a-a a-a a-a a=residential
tile endN  3 a1a a-a a-a a-a a=residential 1=building
)");
  Game game = TwoPlayerGame(tiles, {3, 2, 0}, {"plain", "endN", "endN", "endN"});
  test::Run(game, {"place 0 0 0", "follower none", "place 1 0 0", "follower 1", "place 0 1 0",
                   "follower 1"});
  test::Run(game, {"place 1 1 2", "follower none", "gate 1 0 S", "wall front", "guard no",
                   "wall back", "guard no", "wall front", "guard no"});
  EXPECT_EQ(game.UnwalledDistance(), 4);
  const auto events = test::Run(game, {"tower none"});
  ASSERT_TRUE(game.IsOver());
  EXPECT_EQ(game.EndedBy(), EndCondition::kWallNearlyClosed);
  EXPECT_GT(game.TilesLeft(), 0);
  const auto completed = Only<WallCompleted>(events);
  ASSERT_EQ(completed.size(), 1u);
  EXPECT_EQ(completed[0].sides, 4);
  const FeatureScored scored = OnlyScoring(events);
  EXPECT_EQ(scored.kind, FeatureKind::kStreet);
  EXPECT_EQ(scored.cause, ScoreCause::kClosingWall);
  EXPECT_EQ(scored.tiles, 1);
  EXPECT_EQ(scored.points[kRed], 1);
  EXPECT_EQ(game.Score(kRed, kStreets), 1);
}

}  // namespace
}  // namespace carc::city
