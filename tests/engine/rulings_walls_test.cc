// Rulings R18-R29 (shared/rules/the-city-rulings.md): wall rounds, wall geometry, gate, guards,
// towers, the end of the game and the final scoring. Each test plays a small scripted game with an
// inline tile set and fixed stacks, and pins down what a wrong reading of its ruling would change.
//
// Coordinates: x grows east, y north; sides N E S W. The wall chain's front end grows clockwise
// around the city, the back end counter-clockwise. The wall phase starts with stack 2 (R16).
//
// Tile shapes used below (docs/tiles.md): `dead` is a street from the north side that ends at a
// building (rotation 1: from the east, 2: south, 3: west); `straight` runs north-south; the
// others carry no street.
#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "city/game.h"
#include "scenario.h"

namespace carc::city {
namespace {

using test::DrawIfNeeded;
using test::Only;
using test::Try;

constexpr std::string_view kBasic = R"(
tile dead     5 a1a a-a a-a a-a a=residential 1=building
tile res      8 a-a a-a a-a a-a a=residential
tile straight 1 a1b b-b b1a a-a a=residential b=residential
tile fish     1 a-a a-a a-a a-a a=fish
)";

struct Setup {
  int players = 2;
  int stack1 = 1;
  int stack2 = 0;  // stack 3 takes the rest of the tile set
  int walls = 70;
  int towers = 12;
};

// A game whose first draws are tiles of the named types, in order (the n-th use of a name takes
// its n-th copy); the rest of the set follows in id order.
Game Start(std::string_view tile_lines, const Setup& s,
           std::initializer_list<std::string_view> first) {
  auto tiles = test::MakeTiles(tile_lines);
  Config config;
  config.players = s.players;
  config.walls = s.walls;
  config.towers_total = s.towers;
  config.stack_sizes = {s.stack1, s.stack2, tiles->TileCount() - s.stack1 - s.stack2};
  std::map<std::string, size_t, std::less<>> used;
  std::vector<int> order;
  for (std::string_view name : first) {
    const std::vector<int> ids = test::TilesOf(*tiles, name);
    size_t& n = used[std::string(name)];
    EXPECT_LT(n, ids.size()) << "not enough tiles of type " << name;
    order.push_back(ids.at(n++));
  }
  return test::MakeGame(tiles, config, order);
}

// test::Run under another name: inside a TEST body `Run` would name testing::Test::Run.
std::vector<Event> Play(Game& game, std::initializer_list<std::string_view> lines) {
  return test::Run(game, lines);
}
std::vector<Event> Play(Game& game, const std::vector<std::string>& lines) {
  return test::Run(game, lines);
}

// The wall phase's decisions among `events`, e.g. "p1 gate", "p0 wall", "p0 guard", "p1 tower".
std::vector<std::string> WallSteps(const std::vector<Event>& events) {
  std::vector<std::string> steps;
  for (const DecisionRequested& r : Only<DecisionRequested>(events)) {
    const char* what = nullptr;
    switch (r.decision.kind) {
      case DecisionKind::kPlaceGate:
        what = "gate";
        break;
      case DecisionKind::kBuildWall:
        what = "wall";
        break;
      case DecisionKind::kPlaceGuard:
        what = "guard";
        break;
      case DecisionKind::kPlaceTower:
        what = "tower";
        break;
      default:
        break;
    }
    if (what != nullptr) steps.push_back("p" + std::to_string(r.decision.actor) + " " + what);
  }
  return steps;
}

// The steps of a round whose builders are `builders` (gate first if `gate`), each wall followed
// by its guard decision, then the scorer's tower.
std::vector<std::string> ExpectedRound(int scorer, bool gate, const std::vector<int>& builders) {
  std::vector<std::string> steps;
  if (gate) steps.push_back("p" + std::to_string(scorer) + " gate");
  for (int b : builders) {
    steps.push_back("p" + std::to_string(b) + " wall");
    steps.push_back("p" + std::to_string(b) + " guard");
  }
  steps.push_back("p" + std::to_string(scorer) + " tower");
  return steps;
}

std::string SideName(int side) { return std::string(1, "NESW"[side]); }

std::string Piece(int player, int x, int y, std::string_view side, std::string_view end) {
  return "p" + std::to_string(player) + " (" + std::to_string(x) + "," + std::to_string(y) + ") " +
         std::string(side) + " " + std::string(end);
}

std::vector<std::string> Pieces(const std::vector<Event>& events) {
  std::vector<std::string> out;
  for (const WallBuilt& w : Only<WallBuilt>(events)) {
    out.push_back(
        Piece(w.player, w.x, w.y, SideName(w.side), w.end == kFrontEnd ? "front" : "back"));
  }
  return out;
}

// Builds one wall per entry ("front" or "back"), each time declining the guard.
std::vector<Event> BuildWalls(Game& game, std::initializer_list<std::string_view> ends) {
  std::vector<std::string> lines;
  for (std::string_view end : ends) {
    lines.push_back("wall " + std::string(end));
    lines.push_back("guard no");
  }
  return Play(game, lines);
}

std::vector<Action> Legal(const Game& game) {
  std::vector<Action> legal;
  game.LegalActions(&legal);
  return legal;
}

bool IsLegal(const Game& game, const Action& a) {
  const std::vector<Action> legal = Legal(game);
  return std::find(legal.begin(), legal.end(), a) != legal.end();
}

const GameOver* FindGameOver(const std::vector<Event>& events) {
  for (const Event& e : events) {
    if (const auto* over = std::get_if<GameOver>(&e)) return over;
  }
  return nullptr;
}

uint8_t Bit(EndCondition c) { return static_cast<uint8_t>(1u << static_cast<int>(c)); }

// --- Layouts ------------------------------------------------------------------------------------

// 2 players, a row of four tiles y=0, x=-2..1 (outline 10). p0 puts a citizen on the street of
// (0,0) (open to the east); p1's tile from stack 2 at (1,0) completes it: p0 scores, p1 is the
// scorer of the first wall round (gate + 3 walls). Returns the events; the gate is next.
std::vector<Event> TwoPlayerRow(Game& game) {
  return Play(game, {"place 0 0 1", "follower 1",       // p0, stack 1
                     "place -1 0 0", "follower none",   // p1
                     "place -2 0 0", "follower none",   // p0
                     "place 1 0 3", "follower none"});  // p1, stack 2: completes the street
}

Game TwoPlayerRowGame(Setup s = {}) {
  s.players = 2;
  s.stack1 = 3;
  s.stack2 = 2;
  return Start(kBasic, s, {"dead", "res", "res", "dead", "res"});
}

// 3 players, a row of three tiles y=0, x=-1..1 (outline 8); p1's tile at (-1,0) is a street open
// to the west with p1's citizen. p2's tile from stack 2 completes p0's street: the round is the
// gate (p2) and one wall each for p0 and p1.
Game ThreePlayerRowGame() {
  return Start(kBasic, {.players = 3, .stack1 = 2, .stack2 = 1}, {"dead", "dead", "dead"});
}
std::vector<Event> ThreePlayerRow(Game& game) {
  return Play(game, {"place 0 0 1", "follower 1",       // p0
                     "place -1 0 3", "follower 1",      // p1: street open to the west
                     "place 1 0 3", "follower none"});  // p2, stack 2: completes p0's street
}

// 2 players, a 3x3 ring around the hole (1,1), plus (-1,1) and (-1,0): outline 14. (1,0) shows a
// public building, (1,2) a historic one, the last tile (pub) is still to be placed. The scoring
// tile (-1,0) comes from stack 3, so the first round is the gate (p1) and 7 walls.
constexpr std::string_view kRing = R"(
tile dead 2 a1a a-a a-a a-a a=residential 1=building
tile res  6 a-a a-a a-a a-a a=residential
tile pub  2 a-a a-a a-a a-a a=residential building=public
tile hist 1 a-a a-a a-a a-a a=residential building=historic:Saint_Sernin
)";
Game RingGame() {
  return Start(kRing, {.players = 2, .stack1 = 8, .stack2 = 1},
               {"dead", "pub", "res", "res", "res", "hist", "res", "res", "res", "dead", "pub"});
}
std::vector<Event> Ring(Game& game) {
  return Play(game, {"place 0 0 3",  "follower 1",       // p0: street open to the west
                     "place 1 0 0",  "follower none",    // p1: public building
                     "place 2 0 0",  "follower none",    // p0
                     "place 2 1 0",  "follower none",    // p1
                     "place 2 2 0",  "follower none",    // p0
                     "place 1 2 0",  "follower none",    // p1: historic building
                     "place 0 2 0",  "follower none",    // p0
                     "place 0 1 0",  "follower none",    // p1: the ring closes round (1,1)
                     "place -1 1 0", "follower none",    // p0, stack 2: no scoring
                     "place -1 0 1", "follower none"});  // p1, stack 3: p0's street completes
}

// The ring's round with guards of p1 on (1,2)N and (1,0)S, which face each other across the hole.
std::vector<Event> RingRoundWithFacingGuards(Game& game) {
  return Play(game, {"p1 gate 2 2 E", "p0 wall back", "guard no",  // (2,2)N
                     "p1 wall back", "guard yes",                  // (1,2)N
                     "p0 wall front", "guard no",                  // (2,1)E
                     "p1 wall front", "guard no",                  // (2,0)E
                     "p0 wall front", "guard no",                  // (2,0)S
                     "p1 wall front", "guard yes",                 // (1,0)S
                     "p0 wall back", "guard no",                   // (0,2)N
                     "p1 tower none"});
}

// --- R18 ----------------------------------------------------------------------------------------

TEST(RulingsWalls, R18_TwoPlayersStack2FirstRoundIsGateOtherScorerOther) {
  Game game = TwoPlayerRowGame();
  std::vector<Event> events = TwoPlayerRow(game);
  ASSERT_EQ(game.CurrentDecision(), (Decision{1, DecisionKind::kPlaceGate}));
  const auto round = Play(game, {"gate 0 0 N", "wall front", "guard no", "wall front", "guard no",
                                 "wall front", "guard no", "tower none"});
  events.insert(events.end(), round.begin(), round.end());
  EXPECT_EQ(WallSteps(events), ExpectedRound(1, true, {0, 1, 0}));
  const auto begun = Only<WallRoundBegun>(events);
  ASSERT_EQ(begun.size(), 1u);
  EXPECT_EQ(begun[0].scorer, 1);
  EXPECT_EQ(begun[0].pieces, 4);  // the gate and three walls
  EXPECT_EQ(Only<WallBuilt>(events).size(), 3u);
  EXPECT_EQ(game.WallsLeft(), 67);
}

TEST(RulingsWalls, R18_TwoPlayersFirstRoundInStack3IsFourEachWithTheGateFirst) {
  // Stack 2 holds one tile that scores nothing; the first scoring falls in stack 3.
  Game game =
      Start(kBasic, {.players = 2, .stack1 = 2, .stack2 = 1}, {"dead", "res", "res", "dead"});
  std::vector<Event> events =
      Play(game, {"place 0 0 1", "follower 1", "place -1 0 0", "follower none", "place -2 0 0",
                  "follower none",                   // p0, stack 2
                  "place 1 0 3", "follower none"});  // p1, stack 3
  ASSERT_EQ(Only<WallRoundBegun>(events).size(), 1u);
  EXPECT_EQ(Only<WallRoundBegun>(events)[0].pieces, 8);
  auto more = Play(game, {"gate 1 0 N"});
  events.insert(events.end(), more.begin(), more.end());
  more = BuildWalls(game, {"front", "back", "back", "back", "back", "front", "front"});
  events.insert(events.end(), more.begin(), more.end());
  ASSERT_EQ(game.CurrentDecision(), (Decision{1, DecisionKind::kPlaceTower}));
  // Gate (p1), then other, scorer, other, scorer, other, scorer, other: 4 pieces each.
  EXPECT_EQ(WallSteps(events), ExpectedRound(1, true, {0, 1, 0, 1, 0, 1, 0}));
  EXPECT_EQ(game.WallsLeft(), 63);
}

TEST(RulingsWalls, R18_ThreePlayersStack2OneEachFromTheScorerClockwise) {
  Game game = ThreePlayerRowGame();
  std::vector<Event> events = ThreePlayerRow(game);
  const auto round = Play(game, {"gate 0 0 N", "wall front", "guard no", "wall front", "guard no"});
  events.insert(events.end(), round.begin(), round.end());
  // The scorer is p2: the gate in p2's place, then p0 and p1.
  EXPECT_EQ(WallSteps(events), ExpectedRound(2, true, {0, 1}));
  EXPECT_EQ(Only<WallRoundBegun>(events).at(0).pieces, 3);
}

TEST(RulingsWalls, R18_ThreePlayersFirstRoundInStack3GoesTwiceAroundWithTheGateFirst) {
  Game game = Start(kBasic, {.players = 3, .stack1 = 3, .stack2 = 1},
                    {"dead", "res", "res", "res", "dead"});
  std::vector<Event> events = Play(game, {"place 0 0 1", "follower 1",       // p0
                                          "place -1 0 0", "follower none",   // p1
                                          "place -2 0 0", "follower none",   // p2
                                          "place -3 0 0", "follower none",   // p0, stack 2
                                          "place 1 0 3", "follower none"});  // p1, stack 3
  const auto round = Play(game, {"gate 0 0 N"});
  const auto walls = BuildWalls(game, {"front", "front", "front", "front", "front"});
  events.insert(events.end(), round.begin(), round.end());
  events.insert(events.end(), walls.begin(), walls.end());
  // Twice around from p1, the gate taking p1's first place: gate, p2, p0, p1, p2, p0.
  EXPECT_EQ(WallSteps(events), ExpectedRound(1, true, {2, 0, 1, 2, 0}));
  EXPECT_EQ(Only<WallRoundBegun>(events).at(0).pieces, 6);
}

// 4 players: a row y=0 x=-3..1 and a street north of (0,0). Round 1 (stack 2, scorer p1), round 2
// (stack 3, scorer p2).
Game FourPlayerGame(int walls) {
  return Start(kBasic, {.players = 4, .stack1 = 5, .stack2 = 1, .walls = walls},
               {"dead", "res", "dead", "res", "res", "dead", "dead"});
}
std::vector<Event> FourPlayerOpening(Game& game) {
  return Play(game, {"place 0 0 1", "follower 1",       // p0: street east
                     "place -1 0 0", "follower none",   // p1
                     "place 0 1 0", "follower 1",       // p2: street north
                     "place -2 0 0", "follower none",   // p3
                     "place -3 0 0", "follower none",   // p0
                     "place 1 0 3", "follower none"});  // p1, stack 2: p0's street is complete
}

TEST(RulingsWalls, R18_FourPlayersOneEachInStack2AndTwiceAroundInStack3) {
  Game game = FourPlayerGame(70);
  std::vector<Event> events = FourPlayerOpening(game);
  auto more = Play(game, {"gate -3 0 S"});
  events.insert(events.end(), more.begin(), more.end());
  more = BuildWalls(game, {"back", "back", "back"});
  events.insert(events.end(), more.begin(), more.end());
  more = Play(game, {"tower none"});
  events.insert(events.end(), more.begin(), more.end());
  EXPECT_EQ(WallSteps(events), ExpectedRound(1, true, {2, 3, 0}));

  // p2's tile from stack 3 completes p2's street: 2 walls each, twice around from p2.
  events = Play(game, {"place 0 2 2", "follower none"});
  ASSERT_EQ(game.CurrentDecision(), (Decision{2, DecisionKind::kBuildWall}));
  more = BuildWalls(game, {"front", "front", "front", "front", "front", "front", "front", "front"});
  events.insert(events.end(), more.begin(), more.end());
  EXPECT_EQ(WallSteps(events), ExpectedRound(2, false, {2, 3, 0, 1, 2, 3, 0, 1}));
  EXPECT_EQ(Only<WallRoundBegun>(events).at(0).pieces, 8);
  EXPECT_EQ(game.WallsLeft(), 70 - 3 - 8);
}

TEST(RulingsWalls, R18_WallSupplyRunningOutStopsTheRound) {
  Game game = FourPlayerGame(/*walls=*/2);
  std::vector<Event> events = FourPlayerOpening(game);
  auto more = Play(game, {"gate -3 0 S"});
  events.insert(events.end(), more.begin(), more.end());
  more = BuildWalls(game, {"back", "back"});
  events.insert(events.end(), more.begin(), more.end());
  // p0 would build the fourth piece, but the supply is empty: the scorer's tower step follows.
  EXPECT_EQ(WallSteps(events), ExpectedRound(1, true, {2, 3}));
  EXPECT_EQ(Only<WallRoundBegun>(events).at(0).pieces, 3);
  EXPECT_EQ(game.WallsLeft(), 0);
  EXPECT_EQ(game.CurrentDecision(), (Decision{1, DecisionKind::kPlaceTower}));
}

// --- R19 ----------------------------------------------------------------------------------------

TEST(RulingsWalls, R19_GateOnlyOnASideBetweenATileAndOpenLand) {
  Game game = RingGame();
  Ring(game);
  ASSERT_EQ(game.CurrentDecision(), (Decision{1, DecisionKind::kPlaceGate}));
  EXPECT_EQ(Try(game, "gate 1 0 N"), Error::kNotOnOutline);  // faces the hole (1,1)
  EXPECT_EQ(Try(game, "gate 0 1 E"), Error::kNotOnOutline);  // faces the hole
  EXPECT_EQ(Try(game, "gate 1 2 S"), Error::kNotOnOutline);  // faces the hole
  EXPECT_EQ(Try(game, "gate 0 0 E"), Error::kNotOnOutline);  // between two tiles
  EXPECT_EQ(Try(game, "gate 5 5 N"), Error::kNotOnOutline);  // no tile there
  EXPECT_EQ(Try(game, "gate 1 1 S"), Error::kNotOnOutline);  // inside the hole
  // Exactly the 14 sides of the outer outline are offered.
  const std::vector<Action> legal = Legal(game);
  EXPECT_EQ(legal.size(), 14u);
  EXPECT_FALSE(IsLegal(game, Action::PlaceGate(1, 0, core::kNorth)));
  EXPECT_TRUE(IsLegal(game, Action::PlaceGate(1, 0, core::kSouth)));
  EXPECT_FALSE(Try(game, "gate 1 0 S").has_value());
}

TEST(RulingsWalls, R19_WallEndsFollowTheOutlineAroundCornersWithTheCityOnOneSide) {
  Game game = TwoPlayerRowGame();
  TwoPlayerRow(game);
  Game back = game;
  auto events = Play(game, {"gate 0 0 N"});
  const auto gates = Only<GatePlaced>(events);
  ASSERT_EQ(gates.size(), 1u);
  EXPECT_EQ(gates[0].x, 0);
  EXPECT_EQ(gates[0].y, 0);
  EXPECT_EQ(gates[0].side, core::kNorth);
  // The front end runs clockwise: east along the north side, round the east end, back west.
  events = BuildWalls(game, {"front", "front", "front"});
  EXPECT_EQ(Pieces(events),
            (std::vector<std::string>{Piece(0, 1, 0, "N", "front"), Piece(1, 1, 0, "E", "front"),
                                      Piece(0, 1, 0, "S", "front")}));
  // The back end runs the other way: west along the north side and round the west end.
  Play(back, {"gate 0 0 N"});
  events = BuildWalls(back, {"back", "back", "back"});
  EXPECT_EQ(Pieces(events),
            (std::vector<std::string>{Piece(0, -1, 0, "N", "back"), Piece(1, -2, 0, "N", "back"),
                                      Piece(0, -2, 0, "W", "back")}));
  EXPECT_EQ(back.chain().Count(kBackEnd), 3);
  EXPECT_EQ(back.chain().Count(kFrontEnd), 0);
}

// 2 players. Round 1 (stack 2, scorer p1) leaves 6 unwalled sides; p0's tile from stack 3 fills
// the concave corner (0,1), completes p0's second street, and the 8 walls of round 2 close the
// chain after 6. Returns the game at round 2's first wall (p0 to build).
Game ClosingGame(std::vector<Event>* round1 = nullptr) {
  Game game = Start(kBasic, {.players = 2, .stack1 = 3, .stack2 = 1},
                    {"dead", "res", "dead", "dead", "dead"});
  Play(game, {"place 0 0 1", "follower 1",       // p0: street east
              "place -1 0 0", "follower none",   // p1
              "place -1 1 1", "follower 1",      // p0: street east, towards (0,1)
              "place 1 0 3", "follower none"});  // p1, stack 2
  auto events = Play(game, {"p1 gate 1 0 S", "p0 wall front", "guard no",  // (0,0)S
                            "p1 wall back", "guard no",                    // (1,0)E
                            "p0 wall front", "guard no",                   // (-1,0)S
                            "p1 tower none"});
  if (round1 != nullptr) *round1 = events;
  EXPECT_EQ(game.UnwalledDistance(), 6);
  Play(game, {"place 0 1 3", "follower none"});  // p0, stack 3: fills the corner (0,1)
  EXPECT_EQ(game.UnwalledDistance(), 6);
  EXPECT_EQ(game.CurrentDecision(), (Decision{0, DecisionKind::kBuildWall}));
  return game;
}

std::vector<Event> CloseTheChain(Game& game) {
  return BuildWalls(game, {"front", "back", "front", "back", "front", "back"});
}

TEST(RulingsWalls, R19_APieceMayCloseTheChain) {
  std::vector<Event> round1;
  Game game = ClosingGame(&round1);
  EXPECT_EQ(Pieces(round1),
            (std::vector<std::string>{Piece(0, 0, 0, "S", "front"), Piece(1, 1, 0, "E", "back"),
                                      Piece(0, -1, 0, "S", "front")}));
  const auto events = CloseTheChain(game);
  // Round the west end and over the filled corner at the front; round (1,0)'s north-east corner
  // and into the concave corner at the back; the ends meet at (0,2).
  EXPECT_EQ(Pieces(events),
            (std::vector<std::string>{Piece(0, -1, 0, "W", "front"), Piece(1, 1, 0, "N", "back"),
                                      Piece(0, -1, 1, "W", "front"), Piece(1, 0, 1, "E", "back"),
                                      Piece(0, -1, 1, "N", "front"), Piece(1, 0, 1, "N", "back")}));
  EXPECT_EQ(Only<ChainClosed>(events).size(), 1u);
  EXPECT_TRUE(game.chain().Closed());
  EXPECT_EQ(game.UnwalledDistance(), 0);
}

// --- R20 ----------------------------------------------------------------------------------------

TEST(RulingsWalls, R20_GateOnAStreetEndsItAndActsAsAWallButHoldsNoGuardNorCounts) {
  Game game = Start(kBasic, {.players = 2, .stack1 = 3, .stack2 = 2},
                    {"dead", "dead", "res", "dead", "dead"});
  Play(game, {"place 0 0 1", "follower 1",       // p0: street east
              "place 0 1 0", "follower 1",       // p1: street north, ends at a building
              "place -1 0 0", "follower none",   // p0
              "place 1 0 3", "follower none"});  // p1, stack 2: p0's street completes
  ASSERT_EQ(game.CurrentDecision(), (Decision{1, DecisionKind::kPlaceGate}));
  const int p1_followers = game.FollowersInSupply(1);
  auto events = Play(game, {"gate 0 1 N"});
  // The gate ends p1's street at (0,1): complete, scored at once (R21) as a wall would.
  const auto scored = Only<FeatureScored>(events);
  ASSERT_EQ(scored.size(), 1u);
  EXPECT_EQ(scored[0].kind, core::FeatureKind::kStreet);
  EXPECT_EQ(scored[0].x, 0);
  EXPECT_EQ(scored[0].y, 1);
  EXPECT_EQ(scored[0].tiles, 1);
  EXPECT_EQ(scored[0].cause, ScoreCause::kWall);
  EXPECT_EQ(scored[0].points[1], 1);
  EXPECT_EQ(game.Score(1, kStreets), 1);
  EXPECT_EQ(game.FollowersInSupply(1), p1_followers + 1);
  // No guard on the gate: the next decision is the next builder's wall.
  EXPECT_EQ(WallSteps(events), (std::vector<std::string>{"p0 wall"}));
  EXPECT_NE(Try(game, "p1 guard yes"), std::nullopt);
  // The gate is not one of the wall pieces.
  EXPECT_EQ(game.WallsLeft(), 70);
  BuildWalls(game, {"front", "front", "front"});
  EXPECT_EQ(game.WallsLeft(), 67);
  ASSERT_EQ(game.CurrentDecision(), (Decision{1, DecisionKind::kPlaceTower}));
  // Towers count wall pieces only: 3 in front of the gate, none behind it.
  Game back = game;
  events = Play(game, {"tower front"});
  ASSERT_EQ(Only<TowerPlaced>(events).size(), 1u);
  EXPECT_EQ(Only<TowerPlaced>(events)[0].points, 3);
  events = Play(back, {"tower back"});
  ASSERT_EQ(Only<TowerPlaced>(events).size(), 1u);
  EXPECT_EQ(Only<TowerPlaced>(events)[0].points, 0);
  // R8: no tile on the cell just outside the gate (the next tile, a dead end, would fit there).
  EXPECT_EQ(Try(game, "place 0 2 2"), Error::kBeyondWall);
  EXPECT_FALSE(Try(game, "place -1 1 3").has_value());
}

TEST(RulingsWalls, R20_WallOnAStreetEndsItThereCompleteOnceItsOtherEndIsClosed) {
  Game game =
      Start(kBasic, {.players = 2, .stack1 = 3, .stack2 = 2}, {"dead", "res", "straight", "dead"});
  Play(game, {"place 0 0 1", "follower 1",       // p0
              "place -1 0 0", "follower none",   // p1
              "place -2 0 0", "follower 1",      // p0: a street from north to south
              "place 1 0 3", "follower none"});  // p1, stack 2
  Play(game, {"gate -1 0 N"});
  // A wall across the street's north end: its south end is still open.
  auto events = Play(game, {"p0 wall back"});
  EXPECT_EQ(Pieces(events), (std::vector<std::string>{Piece(0, -2, 0, "N", "back")}));
  EXPECT_TRUE(Only<FeatureScored>(events).empty());
  events = Play(game, {"guard no", "p1 wall back", "guard no"});
  EXPECT_EQ(Pieces(events), (std::vector<std::string>{Piece(1, -2, 0, "W", "back")}));
  EXPECT_TRUE(Only<FeatureScored>(events).empty());
  // A wall across its south end completes it.
  events = Play(game, {"p0 wall back"});
  EXPECT_EQ(Pieces(events), (std::vector<std::string>{Piece(0, -2, 0, "S", "back")}));
  const auto scored = Only<FeatureScored>(events);
  ASSERT_EQ(scored.size(), 1u);
  EXPECT_EQ(scored[0].x, -2);
  EXPECT_EQ(scored[0].tiles, 1);
  EXPECT_EQ(scored[0].cause, ScoreCause::kWall);
  EXPECT_EQ(scored[0].points[0], 1);
  EXPECT_EQ(game.Score(0, kStreets), 2 + 1);
}

// --- R21 ----------------------------------------------------------------------------------------

TEST(RulingsWalls, R21_WallPieceCompletingAMarketScoresItAtOnce) {
  Game game = Start(kBasic, {.players = 2, .stack1 = 6, .stack2 = 2},
                    {"dead", "res", "res", "res", "res", "fish", "dead"});
  Play(game, {"place 0 0 1", "follower 1",       // p0
              "place -1 0 0", "follower none",   // p1
              "place 0 1 0", "follower none",    // p0
              "place -2 0 0", "follower none",   // p1
              "place -2 1 0", "follower none",   // p0
              "place -1 1 0", "follower a",      // p1: a seller; the market is open to the north
              "place 1 0 3", "follower none"});  // p0, stack 2: p0's street scores
  Play(game, {"p0 gate 0 1 N"});
  const int followers = game.FollowersInSupply(1);
  const auto events = Play(game, {"p1 wall back"});
  EXPECT_EQ(Pieces(events), (std::vector<std::string>{Piece(1, -1, 1, "N", "back")}));
  // The market is scored within this very action, before the guard decision and the round's end.
  const auto scored = Only<FeatureScored>(events);
  ASSERT_EQ(scored.size(), 1u);
  EXPECT_EQ(scored[0].kind, core::FeatureKind::kMarket);
  EXPECT_EQ(scored[0].cause, ScoreCause::kWall);
  EXPECT_EQ(scored[0].points[1], 1);
  EXPECT_EQ(game.Score(1, kMarkets), 1);
  EXPECT_EQ(game.FollowersInSupply(1), followers + 1);
  const auto returned = Only<FollowerReturned>(events);
  ASSERT_EQ(returned.size(), 1u);
  EXPECT_TRUE(returned[0].scored);
  EXPECT_EQ(game.CurrentDecision(), (Decision{1, DecisionKind::kPlaceGuard}));
  // A scoring caused by a wall starts no round of its own: the round goes on as planned.
  const auto rest = Play(game, {"guard no", "wall front", "guard no", "wall front", "guard no"});
  EXPECT_EQ(WallSteps(rest),
            (std::vector<std::string>{"p0 wall", "p0 guard", "p1 wall", "p1 guard", "p0 tower"}));
}

// --- R22 ----------------------------------------------------------------------------------------

TEST(RulingsWalls, R22_OppositeGuardBlocksWhenNoGap) {
  // 2 players, a row y=0 x=-2..1; the first round falls in stack 3: the gate and 7 walls.
  Game game =
      Start(kBasic, {.players = 2, .stack1 = 2, .stack2 = 1}, {"dead", "res", "res", "dead"});
  Play(game, {"place 0 0 1", "follower 1", "place -1 0 0", "follower none", "place -2 0 0",
              "follower none", "place 1 0 3", "follower none"});
  Play(game, {"p1 gate 1 0 N", "p0 wall front",
              "guard yes",                    // (1,0)E: p0's guard looks west along the row
              "p1 wall back", "guard yes"});  // (0,0)N: p1's guard looks south over (0,0)
  EXPECT_EQ(Pieces(Play(game, {"p0 wall back", "guard no", "p1 wall back", "guard no"})),
            (std::vector<std::string>{Piece(0, -1, 0, "N", "back"), Piece(1, -2, 0, "N", "back")}));

  // (-2,0)W faces (1,0)E across four tiles with no gap: blocked.
  auto events = Play(game, {"p0 wall back"});
  EXPECT_EQ(Pieces(events), (std::vector<std::string>{Piece(0, -2, 0, "W", "back")}));
  EXPECT_EQ(Try(game, "guard yes"), Error::kGuardOpposite);
  EXPECT_EQ(Legal(game), (std::vector<Action>{Action::SkipGuard()}));
  Play(game, {"guard no"});

  // (1,0)S faces the gate, which holds no guard: allowed.
  events = Play(game, {"p1 wall front"});
  EXPECT_EQ(Pieces(events), (std::vector<std::string>{Piece(1, 1, 0, "S", "front")}));
  EXPECT_TRUE(IsLegal(game, Action::PlaceGuard()));
  Play(game, {"guard no"});

  // (0,0)S and (0,0)N lie on opposite sides of one tile: blocked, whoever's guard it is.
  events = Play(game, {"p0 wall front"});
  EXPECT_EQ(Pieces(events), (std::vector<std::string>{Piece(0, 0, 0, "S", "front")}));
  EXPECT_EQ(Try(game, "guard yes"), Error::kGuardOpposite);
  EXPECT_FALSE(IsLegal(game, Action::PlaceGuard()));
  EXPECT_FALSE(Try(game, "guard no").has_value());
}

TEST(RulingsWalls, R22_OppositeGuardAllowedWithAnEmptyCellBetween) {
  Game game = RingGame();
  Ring(game);
  Play(game, {"p1 gate 2 2 E", "p0 wall back", "guard no"});
  auto events = Play(game, {"p1 wall back", "guard yes"});
  EXPECT_EQ(Pieces(events), (std::vector<std::string>{Piece(1, 1, 2, "N", "back")}));
  ASSERT_EQ(Only<GuardPlaced>(events).size(), 1u);
  Play(game,
       {"p0 wall front", "guard no", "p1 wall front", "guard no", "p0 wall front", "guard no"});
  // (1,0)S faces (1,2)N across the column x=1, but the hole (1,1) lies between them.
  events = Play(game, {"p1 wall front"});
  EXPECT_EQ(Pieces(events), (std::vector<std::string>{Piece(1, 1, 0, "S", "front")}));
  EXPECT_TRUE(IsLegal(game, Action::PlaceGuard()));
  events = Play(game, {"guard yes"});
  const auto guards = Only<GuardPlaced>(events);
  ASSERT_EQ(guards.size(), 1u);
  EXPECT_EQ(guards[0].player, 1);
  EXPECT_EQ(guards[0].x, 1);
  EXPECT_EQ(guards[0].y, 0);
  EXPECT_EQ(guards[0].side, core::kSouth);
}

// --- R23 ----------------------------------------------------------------------------------------

// 2 players; p1 scores in two rounds of stack 2. Round 1: gate (-2,0)S and 3 walls at the front.
// Returns the game at round 1's tower decision (p1).
Game TowerGame(int towers) {
  Game game = Start(kBasic, {.players = 2, .stack1 = 5, .stack2 = 3, .towers = towers},
                    {"dead", "dead", "res", "res", "res", "dead", "res", "dead"});
  Play(game, {"place 0 0 1", "follower 1",       // p0: street east
              "place 0 1 1", "follower 1",       // p1: street east
              "place -1 0 0", "follower none",   // p0
              "place -1 1 0", "follower none",   // p1
              "place -2 0 0", "follower none",   // p0
              "place 1 0 3", "follower none"});  // p1, stack 2: p0's street completes
  Play(game, {"p1 gate -2 0 S"});
  EXPECT_EQ(Pieces(BuildWalls(game, {"front", "front", "front"})),
            (std::vector<std::string>{Piece(0, -2, 0, "W", "front"), Piece(1, -2, 0, "N", "front"),
                                      Piece(0, -1, 1, "W", "front")}));
  EXPECT_EQ(game.CurrentDecision(), (Decision{1, DecisionKind::kPlaceTower}));
  return game;
}

// p0 places a tile that scores nothing; p1's next tile completes p1's street: round 2.
void ToSecondRound(Game& game) {
  Play(game, {"place 0 -1 0", "follower none", "place 1 1 3", "follower none"});
  EXPECT_EQ(game.CurrentDecision(), (Decision{1, DecisionKind::kBuildWall}));
}

TEST(RulingsWalls, R23_TowerScoresPiecesBackToTheNearestTowerOrTheGate) {
  Game game = TowerGame(12);
  // A tower on the back end, where nothing was built since the gate: allowed, 0 points.
  Game zero = game;
  auto events = Play(zero, {"tower back"});
  ASSERT_EQ(Only<TowerPlaced>(events).size(), 1u);
  EXPECT_EQ(Only<TowerPlaced>(events)[0].points, 0);
  EXPECT_EQ(zero.Score(1, kTowers), 0);
  EXPECT_EQ(zero.TowersLeft(1), 5);
  // On the front end: 3 wall pieces back to the gate; the gate itself is not a piece.
  events = Play(game, {"tower front"});
  ASSERT_EQ(Only<TowerPlaced>(events).size(), 1u);
  EXPECT_EQ(Only<TowerPlaced>(events)[0].points, 3);
  EXPECT_EQ(game.Score(1, kTowers), 3);

  ToSecondRound(game);
  BuildWalls(game, {"front", "back", "back", "back"});
  ASSERT_EQ(game.CurrentDecision(), (Decision{1, DecisionKind::kPlaceTower}));
  // Front: 4 pieces from the gate, but the nearest tower stands after the third: 1 point.
  Game front = game;
  events = Play(front, {"tower front"});
  EXPECT_EQ(Only<TowerPlaced>(events).at(0).points, 1);
  EXPECT_EQ(front.Score(1, kTowers), 3 + 1);
  // Back: no tower on that side, 3 pieces back to the gate.
  events = Play(game, {"tower back"});
  EXPECT_EQ(Only<TowerPlaced>(events).at(0).points, 3);
  EXPECT_EQ(game.Score(1, kTowers), 3 + 3);
}

TEST(RulingsWalls, R23_NoTowerOnAnEndThatHoldsOneNorWithoutATowerLeft) {
  {
    Game game = TowerGame(12);
    Play(game, {"tower front"});
    ToSecondRound(game);
    BuildWalls(game, {"back", "back", "back", "back"});
    // Nothing was built at the front since p1's tower: that end is taken.
    EXPECT_EQ(Try(game, "tower front"), Error::kTowerEndTaken);
    EXPECT_EQ(Legal(game),
              (std::vector<Action>{Action::PlaceTower(kBackEnd), Action::SkipTower()}));
    const auto events = Play(game, {"tower back"});
    EXPECT_EQ(Only<TowerPlaced>(events).at(0).points, 4);
  }
  {
    Game game = TowerGame(2);  // one tower each
    EXPECT_EQ(game.TowersLeft(1), 1);
    Play(game, {"tower front"});
    EXPECT_EQ(game.TowersLeft(1), 0);
    ToSecondRound(game);
    BuildWalls(game, {"front", "back", "back", "back"});
    ASSERT_EQ(game.CurrentDecision(), (Decision{1, DecisionKind::kPlaceTower}));
    EXPECT_EQ(Try(game, "tower front"), Error::kNoTowerLeft);
    EXPECT_EQ(Try(game, "tower back"), Error::kNoTowerLeft);
    EXPECT_EQ(Legal(game), (std::vector<Action>{Action::SkipTower()}));
    EXPECT_FALSE(Try(game, "tower none").has_value());
    EXPECT_EQ(game.Score(1, kTowers), 3);
  }
}

// --- R24 ----------------------------------------------------------------------------------------

TEST(RulingsWalls, R24_LastWallPieceBuiltEndsTheGameAfterTheRound) {
  Game game = TwoPlayerRowGame({.walls = 3});
  TwoPlayerRow(game);
  auto events = Play(game, {"gate 0 0 N"});
  events = BuildWalls(game, {"front", "front", "front"});
  EXPECT_EQ(game.WallsLeft(), 0);
  // The round's tower step still comes; the game ends after the turn.
  ASSERT_FALSE(game.IsOver());
  ASSERT_EQ(game.CurrentDecision(), (Decision{1, DecisionKind::kPlaceTower}));
  events = Play(game, {"tower front"});
  EXPECT_EQ(Only<TowerPlaced>(events).size(), 1u);
  const GameOver* over = FindGameOver(events);
  ASSERT_NE(over, nullptr);
  EXPECT_EQ(over->condition, EndCondition::kLastWallBuilt);
  EXPECT_EQ(over->conditions, Bit(EndCondition::kLastWallBuilt));

  // With one wall piece more (the gate is not one of them) the game goes on.
  Game more = TwoPlayerRowGame({.walls = 4});
  TwoPlayerRow(more);
  Play(more, {"gate 0 0 N"});
  BuildWalls(more, {"front", "front", "front"});
  Play(more, {"tower none"});
  EXPECT_FALSE(more.IsOver());
  EXPECT_EQ(more.WallsLeft(), 1);
}

TEST(RulingsWalls, R24_LastTilePlacedEndsTheGameAfterItsWallRound) {
  constexpr std::string_view kFour = R"(
tile dead 2 a1a a-a a-a a-a a=residential 1=building
tile res  2 a-a a-a a-a a-a a=residential
)";
  Game game =
      Start(kFour, {.players = 2, .stack1 = 3, .stack2 = 1}, {"dead", "res", "res", "dead"});
  auto events = TwoPlayerRow(game);
  EXPECT_EQ(game.TilesLeft(), 0);
  // The last tile scored: its wall round comes first.
  ASSERT_FALSE(game.IsOver());
  ASSERT_EQ(game.CurrentDecision(), (Decision{1, DecisionKind::kPlaceGate}));
  Play(game, {"gate 0 0 N"});
  BuildWalls(game, {"front", "front", "front"});
  EXPECT_EQ(game.UnwalledDistance(), 6);
  ASSERT_FALSE(game.IsOver());
  events = Play(game, {"tower front"});
  const GameOver* over = FindGameOver(events);
  ASSERT_NE(over, nullptr);
  EXPECT_EQ(over->condition, EndCondition::kLastTilePlaced);
  EXPECT_EQ(over->conditions, Bit(EndCondition::kLastTilePlaced));
  EXPECT_EQ(game.Score(1, kTowers), 3);
}

TEST(RulingsWalls, R24_LastTileDiscardedEndsTheGame) {
  constexpr std::string_view kFive = R"(
tile dead   2 a1a a-a a-a a-a a=residential 1=building
tile res    2 a-a a-a a-a a-a a=residential
tile cross4 1 a1a a2a a3a a4a a=residential 1=crossing 2=crossing 3=crossing 4=crossing
)";
  Game game = Start(kFive, {.players = 2, .stack1 = 3, .stack2 = 2},
                    {"dead", "res", "res", "dead", "cross4"});
  TwoPlayerRow(game);
  Play(game, {"gate 0 0 N"});
  BuildWalls(game, {"front", "front", "front"});
  Play(game, {"tower none"});
  ASSERT_FALSE(game.IsOver());
  // The last tile has a street on every side: no cell next to the city can take it.
  std::vector<Event> events;
  DrawIfNeeded(game, &events);
  EXPECT_EQ(Only<TileDiscarded>(events).size(), 1u);
  ASSERT_TRUE(game.IsOver());
  EXPECT_EQ(game.TilesPlaced(), 4);
  const GameOver* over = FindGameOver(events);
  ASSERT_NE(over, nullptr);
  EXPECT_EQ(over->condition, EndCondition::kLastTilePlaced);
  EXPECT_EQ(over->conditions, Bit(EndCondition::kLastTilePlaced));
}

TEST(RulingsWalls, R24_UnwalledDistanceOfFiveEndsTheGameAfterTheTurn) {
  Game game = ThreePlayerRowGame();
  ThreePlayerRow(game);
  Play(game, {"gate 0 0 N", "wall front", "guard no", "wall front", "guard no"});
  // Outline 8, three pieces: 5 sides left. The tower step still comes first.
  EXPECT_EQ(game.UnwalledDistance(), 5);
  ASSERT_FALSE(game.IsOver());
  ASSERT_EQ(game.CurrentDecision(), (Decision{2, DecisionKind::kPlaceTower}));
  const auto events = Play(game, {"tower none"});
  const GameOver* over = FindGameOver(events);
  ASSERT_NE(over, nullptr);
  EXPECT_EQ(over->condition, EndCondition::kWallNearlyClosed);
  EXPECT_EQ(over->conditions, Bit(EndCondition::kWallNearlyClosed));
}

TEST(RulingsWalls, R24_UnwalledDistanceOfSixDoesNotEndTheGame) {
  Game game = TwoPlayerRowGame();
  TwoPlayerRow(game);
  Play(game, {"gate 0 0 N"});
  BuildWalls(game, {"front", "back", "front"});
  EXPECT_EQ(game.UnwalledDistance(), 6);
  const auto events = Play(game, {"tower none"});
  EXPECT_EQ(FindGameOver(events), nullptr);
  EXPECT_FALSE(game.IsOver());
  EXPECT_EQ(game.CurrentDecision(), (Decision{kChance, DecisionKind::kDrawTile}));
}

TEST(RulingsWalls, R24_DistanceIsCheckedOnlyAfterTheWallRound) {
  // Outline 10, and a round of 8 pieces: the distance falls to 5 and below mid-round, but the
  // round is built in full and the game ends after the turn.
  Game game =
      Start(kBasic, {.players = 2, .stack1 = 2, .stack2 = 1}, {"dead", "res", "res", "dead"});
  Play(game, {"place 0 0 1", "follower 1", "place -1 0 0", "follower none", "place -2 0 0",
              "follower none", "place 1 0 3", "follower none"});
  Play(game, {"gate 0 0 N"});
  const auto walls =
      BuildWalls(game, {"front", "front", "front", "front", "front", "front", "back"});
  EXPECT_EQ(Only<WallBuilt>(walls).size(), 7u);
  EXPECT_EQ(game.UnwalledDistance(), 2);
  ASSERT_FALSE(game.IsOver());
  const auto events = Play(game, {"tower none"});
  const GameOver* over = FindGameOver(events);
  ASSERT_NE(over, nullptr);
  EXPECT_EQ(over->condition, EndCondition::kWallNearlyClosed);
}

TEST(RulingsWalls, R24_ClosedChainEndsTheGame) {
  Game game = ClosingGame();
  CloseTheChain(game);
  ASSERT_FALSE(game.IsOver());
  ASSERT_EQ(game.CurrentDecision(), (Decision{0, DecisionKind::kPlaceTower}));
  const auto events = Play(game, {"tower none"});
  const GameOver* over = FindGameOver(events);
  ASSERT_NE(over, nullptr);
  EXPECT_EQ(over->condition, EndCondition::kWallClosed);
  EXPECT_EQ(over->conditions, Bit(EndCondition::kWallClosed));
  const auto completed = Only<WallCompleted>(events);
  ASSERT_EQ(completed.size(), 1u);
  EXPECT_EQ(completed[0].sides, 0);
}

// --- R25 ----------------------------------------------------------------------------------------

TEST(RulingsWalls, R25_ClosingStopsTheRoundAndTheTowerScoresOneChosenDirection) {
  Game game = ClosingGame();
  auto events = CloseTheChain(game);
  // The round had 8 walls (stack 3, 2 players) but stops when the chain closes, after the
  // closing piece's guard decision. (p0's first wall was requested before CloseTheChain.)
  std::vector<std::string> expected = ExpectedRound(0, false, {0, 1, 0, 1, 0, 1});
  expected.erase(expected.begin());
  EXPECT_EQ(WallSteps(events), expected);
  EXPECT_EQ(game.WallsLeft(), 70 - 3 - 6);
  // Front: 2 + 3 pieces, back: 1 + 3 pieces from the gate; the tower goes where the ends met.
  EXPECT_TRUE(IsLegal(game, Action::PlaceTower(kFrontEnd)));
  EXPECT_TRUE(IsLegal(game, Action::PlaceTower(kBackEnd)));
  Game back = game;
  events = Play(game, {"tower front"});
  EXPECT_EQ(Only<TowerPlaced>(events).at(0).points, 5);
  EXPECT_EQ(game.Score(0, kTowers), 5);
  events = Play(back, {"tower back"});
  EXPECT_EQ(Only<TowerPlaced>(events).at(0).points, 4);
  EXPECT_EQ(back.Score(0, kTowers), 4);
  EXPECT_TRUE(game.IsOver());
  EXPECT_TRUE(back.IsOver());
}

// --- R26 ----------------------------------------------------------------------------------------

TEST(RulingsWalls, R26_NoWallEverBuiltWholeOutlineWalledHolesStayOpen) {
  // A ring around the hole (1,1), all in stack 1: no wall phase. (1,0)'s street runs into the
  // hole, (2,1)'s market faces it; (1,2)'s street runs out to the open land.
  constexpr std::string_view kTiles = R"(
tile dead 2 a1a a-a a-a a-a a=residential 1=building
tile res  5 a-a a-a a-a a-a a=residential
tile fish 1 a-a a-a a-a a-a a=fish
)";
  Game game = Start(kTiles, {.players = 2, .stack1 = 8, .stack2 = 0},
                    {"res", "dead", "res", "fish", "res", "res", "dead", "res"});
  const auto events = Play(game, {"place 0 0 0", "follower none",  // p0
                                  "place 1 0 0", "follower 1",     // p1: street into the hole
                                  "place 2 0 0", "follower none",  // p0
                                  "place 2 1 0", "follower a",  // p1: seller, market faces the hole
                                  "place 0 1 0", "follower none",    // p0
                                  "place 2 2 0", "follower none",    // p1
                                  "place 1 2 0", "follower 1",       // p0: street out to open land
                                  "place 0 2 0", "follower none"});  // p1: the last tile
  ASSERT_TRUE(game.IsOver());
  EXPECT_EQ(game.chain().HasGate(), false);
  const auto completed = Only<WallCompleted>(events);
  ASSERT_EQ(completed.size(), 1u);
  EXPECT_EQ(completed[0].sides, 12);  // the outer outline, not the hole's four sides

  const auto scored = Only<FeatureScored>(events);
  ASSERT_EQ(scored.size(), 1u);
  EXPECT_EQ(scored[0].x, 1);
  EXPECT_EQ(scored[0].y, 2);
  EXPECT_EQ(scored[0].cause, ScoreCause::kClosingWall);
  EXPECT_EQ(scored[0].points[0], 1);
  EXPECT_EQ(game.Score(0, kStreets), 1);
  EXPECT_EQ(game.Score(1, kStreets), 0);
  EXPECT_EQ(game.Score(1, kMarkets), 0);

  int scored_returns = 0, unscored_returns = 0;
  for (const FollowerReturned& r : Only<FollowerReturned>(events)) {
    if (r.scored) {
      ++scored_returns;
      EXPECT_EQ(r.player, 0);
      EXPECT_EQ(r.y, 2);
    } else {
      ++unscored_returns;
      EXPECT_EQ(r.player, 1);
      EXPECT_TRUE((r.x == 1 && r.y == 0) || (r.x == 2 && r.y == 1)) << r.x << "," << r.y;
    }
  }
  EXPECT_EQ(scored_returns, 1);
  EXPECT_EQ(unscored_returns, 2);
  EXPECT_EQ(game.FollowersInSupply(0), 7);
  EXPECT_EQ(game.FollowersInSupply(1), 7);
  EXPECT_EQ(game.FollowerSpotCount(), 0);
}

TEST(RulingsWalls, R26_RestOfTheOutlineIsTakenAsWalledAfterTheLastRound) {
  Game game = ThreePlayerRowGame();
  ThreePlayerRow(game);
  Play(game, {"gate 0 0 N", "wall front", "guard no", "wall front", "guard no"});
  const int walls_left = game.WallsLeft();
  const auto events = Play(game, {"tower none"});
  ASSERT_TRUE(game.IsOver());
  const auto completed = Only<WallCompleted>(events);
  ASSERT_EQ(completed.size(), 1u);
  EXPECT_EQ(completed[0].sides, 5);
  // No pieces are taken from the supply for it, no guard or tower decisions are asked.
  EXPECT_EQ(game.WallsLeft(), walls_left);
  EXPECT_TRUE(WallSteps(events).empty());
  // (-1,0)'s street, open to the west, is completed by the rest of the wall and scored for p1.
  const auto scored = Only<FeatureScored>(events);
  ASSERT_EQ(scored.size(), 1u);
  EXPECT_EQ(scored[0].x, -1);
  EXPECT_EQ(scored[0].cause, ScoreCause::kClosingWall);
  EXPECT_EQ(scored[0].points[1], 1);
  EXPECT_EQ(game.Score(1, kStreets), 1);
  const auto returned = Only<FollowerReturned>(events);
  ASSERT_EQ(returned.size(), 1u);
  EXPECT_TRUE(returned[0].scored);
}

// --- R27 ----------------------------------------------------------------------------------------

TEST(RulingsWalls, R27_TiedStewardsEachScoreEveryTouchingMarketOnceCompleteOrNot) {
  // A ring around the hole (1,1). p0's steward at (0,0) and p1's at (2,0) start in separate areas
  // that the ring joins into one. The fish market (1,0) touches the area across two tiles' sides
  // and faces the hole (never complete); the corner market of (2,2) touches it inside its tile.
  constexpr std::string_view kTiles = R"(
tile res    6 a-a a-a a-a a-a a=residential
tile fish   1 a-a a-a a-a a-a a=fish
tile corner 1 a-b b-a a-a a-a a=residential b=fish
)";
  Game game = Start(kTiles, {.players = 2, .stack1 = 8, .stack2 = 0},
                    {"res", "fish", "res", "res", "res", "res", "corner", "res"});
  const auto events = Play(game, {"place 0 0 0", "follower a",       // p0: steward
                                  "place 1 0 0", "follower none",    // p1: fish
                                  "place 0 1 0", "follower none",    // p0
                                  "place 2 0 0", "follower a",       // p1: steward, separate area
                                  "place 0 2 0", "follower none",    // p0
                                  "place 2 1 0", "follower none",    // p1
                                  "place 2 2 0", "follower none",    // p0: corner market to the NE
                                  "place 1 2 0", "follower none"});  // p1: joins the two areas
  ASSERT_TRUE(game.IsOver());
  const auto stewards = Only<StewardsScored>(events);
  ASSERT_EQ(stewards.size(), 1u);
  EXPECT_EQ(stewards[0].markets, 2);
  EXPECT_EQ(stewards[0].points[0], 4);
  EXPECT_EQ(stewards[0].points[1], 4);
  EXPECT_EQ(game.Score(0, kStewards), 4);
  EXPECT_EQ(game.Score(1, kStewards), 4);
  // The fish market was never complete (it faces the hole).
  for (const FeatureScored& s : Only<FeatureScored>(events)) {
    EXPECT_FALSE(s.x == 1 && s.y == 0) << "the market facing the hole was scored";
  }
}

TEST(RulingsWalls, R27_MostStewardsOwnTheArea) {
  // Row y=0: res(p0) fish res(p1) grain res(p0); row y=1 joins the three areas into one, where p0
  // has 2 stewards and p1 one. Both markets touch it, each in several places.
  constexpr std::string_view kTiles = R"(
tile res   8 a-a a-a a-a a-a a=residential
tile fish  1 a-a a-a a-a a-a a=fish
tile grain 1 a-a a-a a-a a-a a=grain
)";
  Game game = Start(kTiles, {.players = 2, .stack1 = 10, .stack2 = 0},
                    {"res", "fish", "res", "res", "grain", "res", "res", "res", "res", "res"});
  const auto events = Play(game, {"place 0 0 0", "follower a",       // p0
                                  "place 1 0 0", "follower none",    // p1: fish
                                  "place 0 1 0", "follower none",    // p0
                                  "place 2 0 0", "follower a",       // p1
                                  "place 3 0 0", "follower none",    // p0: grain
                                  "place 2 1 0", "follower none",    // p1
                                  "place 4 0 0", "follower a",       // p0
                                  "place 1 1 0", "follower none",    // p1: joins (0,0) and (2,0)
                                  "place 3 1 0", "follower none",    // p0
                                  "place 4 1 0", "follower none"});  // p1: joins (4,0)
  ASSERT_TRUE(game.IsOver());
  const auto stewards = Only<StewardsScored>(events);
  ASSERT_EQ(stewards.size(), 1u);
  EXPECT_EQ(stewards[0].markets, 2);
  EXPECT_EQ(stewards[0].points[0], 4);
  EXPECT_EQ(stewards[0].points[1], 0);
  EXPECT_EQ(game.Score(0, kStewards), 4);
  EXPECT_EQ(game.Score(1, kStewards), 0);
}

TEST(RulingsWalls, R27_JoinedMarketCountsOnce) {
  // p0's steward at (0,0); fish (1,0) and fish (0,1) both touch it, and grain (1,1) joins them
  // into one market.
  constexpr std::string_view kTiles = R"(
tile res   1 a-a a-a a-a a-a a=residential
tile fish  2 a-a a-a a-a a-a a=fish
tile grain 1 a-a a-a a-a a-a a=grain
)";
  Game game =
      Start(kTiles, {.players = 2, .stack1 = 4, .stack2 = 0}, {"res", "fish", "fish", "grain"});
  const auto events = Play(game, {"place 0 0 0", "follower a", "place 1 0 0", "follower none",
                                  "place 0 1 0", "follower none", "place 1 1 0", "follower none"});
  ASSERT_TRUE(game.IsOver());
  const auto stewards = Only<StewardsScored>(events);
  ASSERT_EQ(stewards.size(), 1u);
  EXPECT_EQ(stewards[0].markets, 1);
  EXPECT_EQ(stewards[0].points[0], 2);
  EXPECT_EQ(game.Score(0, kStewards), 2);
}

// --- R28 ----------------------------------------------------------------------------------------

TEST(RulingsWalls, R28_GuardsFacingEachOtherEachScoreTheWholeColumn) {
  Game game = RingGame();
  Ring(game);
  RingRoundWithFacingGuards(game);
  EXPECT_EQ(game.UnwalledDistance(), 6);
  // The last tile, a public building, fills the hole between the two guards.
  const auto events = Play(game, {"place 1 1 0", "follower none"});
  ASSERT_TRUE(game.IsOver());
  const auto guards = Only<GuardScored>(events);
  ASSERT_EQ(guards.size(), 2u);
  for (const GuardScored& g : guards) {
    EXPECT_EQ(g.player, 1);
    EXPECT_EQ(g.x, 1);
    EXPECT_EQ(g.public_buildings, 2);    // (1,0) and (1,1)
    EXPECT_EQ(g.historic_buildings, 1);  // (1,2)
    EXPECT_EQ(g.points, 2 * 2 + 3);
  }
  EXPECT_EQ(game.Score(1, kGuards), 14);
  EXPECT_EQ(game.Score(0, kGuards), 0);
}

TEST(RulingsWalls, R28_GuardViewStopsAtTheFirstEmptyCell) {
  Game game = RingGame();
  Ring(game);
  RingRoundWithFacingGuards(game);
  // The last tile goes elsewhere: the hole stays open between the guards.
  const auto events = Play(game, {"place -2 0 0", "follower none"});
  ASSERT_TRUE(game.IsOver());
  const auto guards = Only<GuardScored>(events);
  ASSERT_EQ(guards.size(), 2u);
  for (const GuardScored& g : guards) {
    EXPECT_EQ(g.player, 1);
    if (g.side == core::kSouth) {  // (1,0)S looks north: (1,0) public, then the hole
      EXPECT_EQ(g.y, 0);
      EXPECT_EQ(g.public_buildings, 1);
      EXPECT_EQ(g.historic_buildings, 0);
      EXPECT_EQ(g.points, 2);
    } else {  // (1,2)N looks south: (1,2) historic, then the hole
      EXPECT_EQ(g.side, core::kNorth);
      EXPECT_EQ(g.y, 2);
      EXPECT_EQ(g.public_buildings, 0);
      EXPECT_EQ(g.historic_buildings, 1);
      EXPECT_EQ(g.points, 3);
    }
  }
  EXPECT_EQ(game.Score(1, kGuards), 5);
}

// --- R29 ----------------------------------------------------------------------------------------

TEST(RulingsWalls, R29_PlayersTiedForMostPointsShareTheWin) {
  // 3 players, stack 1 only: p0 and p1 each score a 2-tile street, p2 nothing.
  constexpr std::string_view kTiles = R"(
tile dead 4 a1a a-a a-a a-a a=residential 1=building
)";
  Game game =
      Start(kTiles, {.players = 3, .stack1 = 4, .stack2 = 0}, {"dead", "dead", "dead", "dead"});
  const auto events = Play(game, {"place 0 0 1", "follower 1",       // p0
                                  "place 0 1 1", "follower 1",       // p1
                                  "place 1 0 3", "follower none",    // p2: p0 scores 2
                                  "place 1 1 3", "follower none"});  // p0: p1 scores 2
  ASSERT_TRUE(game.IsOver());
  EXPECT_EQ(game.TotalScore(0), 2);
  EXPECT_EQ(game.TotalScore(1), 2);
  EXPECT_EQ(game.TotalScore(2), 0);
  const GameOver* over = FindGameOver(events);
  ASSERT_NE(over, nullptr);
  EXPECT_EQ(over->winners, 0b011);
}

TEST(RulingsWalls, R29_MostPointsWinsAlone) {
  Game game = ThreePlayerRowGame();
  ThreePlayerRow(game);  // p0 scores 2
  Play(game, {"gate 0 0 N", "wall front", "guard no", "wall front", "guard no"});
  const auto events = Play(game, {"tower none"});  // p1 scores 1 at the end
  const GameOver* over = FindGameOver(events);
  ASSERT_NE(over, nullptr);
  EXPECT_EQ(game.TotalScore(0), 2);
  EXPECT_EQ(game.TotalScore(1), 1);
  EXPECT_EQ(over->winners, 0b001);
}

}  // namespace
}  // namespace carc::city
