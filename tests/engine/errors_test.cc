// Every reason Game::Apply can give for refusing an action, each reached in a real position.
//
// One test per value of city::Error: the test builds the smallest position in which the engine
// must refuse with exactly that error, and checks the refusal's contract (city/game.h): the game
// is unchanged (equal to a copy taken before, same hash) and no event was appended.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "city/action.h"
#include "city/game.h"
#include "city/rules.h"
#include "scenario.h"

namespace carc::city {
namespace {

using test::MakeGame;
using test::MakeTiles;

// end: a street from the north ends at a building; two of them facing each other complete a
// street, which is how the tests start wall rounds. straight: north to south. plain: no street.
constexpr std::string_view kTileLines =
    "tile end 4 a1a a-a a-a a-a a=residential 1=building\n"
    "tile straight 1 a1b b-b b1a a-a a=residential b=residential\n"
    "tile plain 10 a-a a-a a-a a-a a=residential\n";
constexpr int kEnd0 = 0, kEnd1 = 1, kEnd2 = 2, kEnd3 = 3;  // tile ids of the four "end" tiles
constexpr int kStraight = 4;
constexpr int kPlain0 = 5;
constexpr int kTileCount = 15;

std::shared_ptr<const core::TileSet> Tiles() {
  static const std::shared_ptr<const core::TileSet> tiles = MakeTiles(kTileLines);
  return tiles;
}

// Two players, every tile in the first stack: no wall phase.
Config PlainConfig() {
  Config config;
  config.players = 2;
  config.stack_sizes = {kTileCount, 0, 0};
  return config;
}

// Three players (one wall piece each per round), the wall phase from the second tile on, and no
// end by R24's distance so that the short walls of these tests do not end the game.
Config WallConfig() {
  Config config;
  config.players = 3;
  config.stack_sizes = {1, kTileCount - 1, 0};
  config.walls = 20;
  config.towers_total = 3;
  config.closing_distance = 0;
  return config;
}

// Applies `action` for `actor` and checks that it is refused with `expected` and changes nothing.
void ExpectRefused(Game& game, Actor actor, const Action& action, Error expected) {
  const Game copy = game;
  const uint64_t hash = game.Hash();
  std::vector<Event> events = {ChainClosed{}};  // a sentinel: nothing may be appended after it
  const std::optional<Error> error = game.Apply(actor, action, &events);
  ASSERT_TRUE(error.has_value()) << "the action was accepted";
  EXPECT_EQ(*error, expected) << "got " << ToString(*error) << ", expected " << ToString(expected);
  EXPECT_TRUE(copy == game);
  EXPECT_EQ(game.Hash(), hash);
  EXPECT_EQ(game.Hash(), game.RecomputeHash());
  EXPECT_EQ(events.size(), 1u);
  // The refused action is not among the legal ones.
  std::vector<Action> legal;
  game.LegalActions(&legal);
  if (actor == game.CurrentDecision().actor) {
    EXPECT_FALSE(std::binary_search(legal.begin(), legal.end(), action));
  }
}

// The same, for whoever must decide now.
void ExpectRefused(Game& game, const Action& action, Error expected) {
  ExpectRefused(game, game.CurrentDecision().actor, action, expected);
}

#define EXPECT_REFUSED(...)         \
  do {                              \
    SCOPED_TRACE("EXPECT_REFUSED"); \
    ExpectRefused(__VA_ARGS__);     \
  } while (false)

// A game waiting for its first tile to be placed (the draw done).
Game FirstPlacement() {
  Game game = MakeGame(Tiles(), PlainConfig(), {kEnd0, kEnd1, kStraight, kPlain0});
  test::DrawIfNeeded(game);
  return game;
}

// A game waiting for its second tile (an "end" tile) after the first "end" tile at the origin,
// its street leading north.
Game SecondPlacement() {
  Game game = MakeGame(Tiles(), PlainConfig(), {kEnd0, kEnd1, kStraight, kPlain0});
  test::Run(game, {"place 0 0 0", "follower none"});
  test::DrawIfNeeded(game);
  return game;
}

// A three-player game at the first wall round's gate decision: p0 put an "end" tile at (0, 0)
// with a citizen on its street, p1 closed that street with the first tile of stack 2 at (0, 1);
// the scoring starts a round built by p1 (the gate), p2 and p0. `after` follows the first two
// tiles in the stacks.
Game AtGate(const Config& config, const std::vector<int>& after) {
  std::vector<int> order = {kEnd0, kEnd1};
  order.insert(order.end(), after.begin(), after.end());
  Game game = MakeGame(Tiles(), config, order);
  test::Run(game, {"place 0 0 0", "follower 1", "place 0 1 2", "follower none"});
  EXPECT_EQ(game.CurrentDecision(), (Decision{1, DecisionKind::kPlaceGate}));
  return game;
}

// The same round finished: the gate south of (0, 0), p2's piece west of (0, 0) with a guard and
// p0's piece east of it; p1 now decides on a tower.
Game AtFirstTower(const Config& config, const std::vector<int>& after) {
  Game game = AtGate(config, after);
  test::Run(game, {"gate 0 0 S", "wall front", "guard yes", "wall back", "guard no"});
  EXPECT_EQ(game.CurrentDecision(), (Decision{1, DecisionKind::kPlaceTower}));
  const WallChain& chain = game.chain();
  EXPECT_EQ(chain.Gate().edge(), (CellSide{{0, 0}, core::kSouth}));
  EXPECT_EQ(chain.Count(kFrontEnd), 1);
  EXPECT_EQ(chain.Count(kBackEnd), 1);
  EXPECT_EQ(chain.Piece(kFrontEnd, 0).edge(), (CellSide{{0, 0}, core::kWest}));
  EXPECT_EQ(chain.Piece(kBackEnd, 0).edge(), (CellSide{{0, 0}, core::kEast}));
  return game;
}

// ---------------------------------------------------------------------------------------------

TEST(Errors, EveryErrorHasANameAndADescription) {
  std::set<std::string> names;
  for (int e = 0; e <= static_cast<int>(Error::kTowerEndTaken); ++e) {
    const Error error = static_cast<Error>(e);
    const std::string name = ToString(error);
    const std::string description = Describe(error);
    EXPECT_FALSE(name.empty()) << e;
    EXPECT_NE(name, "?") << e;
    EXPECT_FALSE(description.empty()) << name;
    EXPECT_NE(description, "?") << name;
    EXPECT_TRUE(names.insert(name).second) << "two errors are named " << name;
  }
  EXPECT_EQ(names.size(), 21u);
}

TEST(Errors, GameOver) {
  auto tiles = MakeTiles("tile plain 2 a-a a-a a-a a-a a=residential\n");
  Config config;
  config.players = 2;
  config.stack_sizes = {2, 0, 0};
  Game game = MakeGame(tiles, config, {0, 1});
  test::Run(game, {"place 0 0 0", "follower none", "place 1 0 0", "follower none"});
  ASSERT_TRUE(game.IsOver());
  EXPECT_REFUSED(game, kChance, Action::Draw(0), Error::kGameOver);
  EXPECT_REFUSED(game, kNobody, Action::Draw(0), Error::kGameOver);
  EXPECT_REFUSED(game, 0, Action::PlaceTile(0, 1, 0), Error::kGameOver);
  EXPECT_REFUSED(game, 1, Action::SkipFollower(), Error::kGameOver);
}

TEST(Errors, WrongPlayer) {
  Game game = MakeGame(Tiles(), PlainConfig(), {kEnd0, kEnd1});
  // Chance draws, not a player.
  EXPECT_REFUSED(game, 0, Action::Draw(kEnd0), Error::kWrongPlayer);
  test::DrawIfNeeded(game);
  // p0 places the first tile, not p1 nor chance.
  EXPECT_REFUSED(game, 1, Action::PlaceTile(0, 0, 0), Error::kWrongPlayer);
  EXPECT_REFUSED(game, kChance, Action::PlaceTile(0, 0, 0), Error::kWrongPlayer);
  EXPECT_REFUSED(game, 4, Action::PlaceTile(0, 0, 0), Error::kWrongPlayer);
  // In a wall round the builder decides, not the player whose turn it is.
  Game walls = AtGate(WallConfig(), {});
  EXPECT_REFUSED(walls, 0, Action::PlaceGate(0, 0, core::kSouth), Error::kWrongPlayer);
}

TEST(Errors, WrongPhase) {
  Game game = MakeGame(Tiles(), PlainConfig(), {kEnd0, kEnd1});
  EXPECT_REFUSED(game, kChance, Action::PlaceTile(0, 0, 0), Error::kWrongPhase);
  test::DrawIfNeeded(game);
  EXPECT_REFUSED(game, Action::SkipFollower(), Error::kWrongPhase);
  EXPECT_REFUSED(game, Action::Draw(kEnd1), Error::kWrongPhase);
  test::Run(game, {"place 0 0 0"});
  EXPECT_REFUSED(game, Action::PlaceTile(0, 1, 2), Error::kWrongPhase);
  EXPECT_REFUSED(game, Action::SkipGuard(), Error::kWrongPhase);

  Game walls = AtGate(WallConfig(), {});
  EXPECT_REFUSED(walls, Action::BuildWall(kFrontEnd), Error::kWrongPhase);
  test::Run(walls, {"gate 0 0 S"});
  EXPECT_REFUSED(walls, Action::PlaceGate(0, 1, core::kNorth), Error::kWrongPhase);
  EXPECT_REFUSED(walls, Action::SkipTower(), Error::kWrongPhase);
  test::Run(walls, {"wall front"});
  EXPECT_REFUSED(walls, Action::BuildWall(kBackEnd), Error::kWrongPhase);
  EXPECT_REFUSED(walls, Action::SkipTower(), Error::kWrongPhase);
  test::Run(walls, {"guard no", "wall back", "guard no"});
  ASSERT_EQ(walls.CurrentDecision().kind, DecisionKind::kPlaceTower);
  EXPECT_REFUSED(walls, Action::SkipGuard(), Error::kWrongPhase);
  EXPECT_REFUSED(walls, Action::SkipFollower(), Error::kWrongPhase);
}

TEST(Errors, Malformed) {
  Game game = MakeGame(Tiles(), PlainConfig(), {kEnd0, kEnd1});
  // A draw of a tile id the set does not have.
  EXPECT_REFUSED(game, Action::Draw(kTileCount), Error::kMalformed);
  EXPECT_REFUSED(game, Action::Draw(255), Error::kMalformed);
  // A draw with a field a draw does not use.
  Action draw = Action::Draw(kEnd0);
  draw.x = 1;
  EXPECT_REFUSED(game, draw, Error::kMalformed);
  // An action kind beyond the last.
  Action unknown;
  unknown.kind = static_cast<ActionKind>(static_cast<int>(ActionKind::kSkipTower) + 1);
  EXPECT_REFUSED(game, kChance, unknown, Error::kMalformed);

  test::DrawIfNeeded(game);
  EXPECT_REFUSED(game, Action::PlaceTile(0, 0, 4), Error::kMalformed);
  EXPECT_REFUSED(game, Action::PlaceTile(0, 0, 255), Error::kMalformed);
  Action place = Action::PlaceTile(0, 0, 0);
  place.feature = 1;
  EXPECT_REFUSED(game, place, Error::kMalformed);
  place = Action::PlaceTile(0, 0, 0);
  place.tile = kEnd1;
  EXPECT_REFUSED(game, place, Error::kMalformed);

  test::Run(game, {"place 0 0 0"});
  Action skip = Action::SkipFollower();
  skip.x = 1;
  EXPECT_REFUSED(game, skip, Error::kMalformed);
  skip = Action::SkipFollower();
  skip.feature = 1;
  EXPECT_REFUSED(game, skip, Error::kMalformed);
  Action follower = Action::PlaceFollower(0);
  follower.end = 1;
  EXPECT_REFUSED(game, follower, Error::kMalformed);

  Game walls = AtGate(WallConfig(), {});
  EXPECT_REFUSED(walls, Action::PlaceGate(0, 0, 4), Error::kMalformed);
  EXPECT_REFUSED(walls, Action::PlaceGate(0, 0, 255), Error::kMalformed);
  Action gate = Action::PlaceGate(0, 0, core::kSouth);
  gate.rotation = 1;
  EXPECT_REFUSED(walls, gate, Error::kMalformed);
  test::Run(walls, {"gate 0 0 S"});
  Action wall = Action::BuildWall(kFrontEnd);
  wall.side = 2;
  EXPECT_REFUSED(walls, wall, Error::kMalformed);
}

TEST(Errors, NotNextTile) {
  Game game = MakeGame(Tiles(), PlainConfig(), {kEnd0, kEnd1});
  EXPECT_REFUSED(game, Action::Draw(kEnd1), Error::kNotNextTile);
  EXPECT_REFUSED(game, Action::Draw(kTileCount - 1), Error::kNotNextTile);
  test::Run(game, {"place 0 0 0", "follower none"});
  EXPECT_REFUSED(game, Action::Draw(kEnd0), Error::kNotNextTile);  // already drawn
}

TEST(Errors, OutOfBounds) {
  Game game = FirstPlacement();
  EXPECT_REFUSED(game, Action::PlaceTile(core::kMaxCoord + 1, 0, 0), Error::kOutOfBounds);
  EXPECT_REFUSED(game, Action::PlaceTile(0, -core::kMaxCoord - 1, 0), Error::kOutOfBounds);
  EXPECT_REFUSED(game, Action::PlaceTile(-128, 127, 0), Error::kOutOfBounds);
  Game second = SecondPlacement();
  EXPECT_REFUSED(second, Action::PlaceTile(core::kMaxCoord + 1, 0, 2), Error::kOutOfBounds);
}

TEST(Errors, NotAtOrigin) {
  Game game = FirstPlacement();
  EXPECT_REFUSED(game, Action::PlaceTile(1, 0, 0), Error::kNotAtOrigin);
  EXPECT_REFUSED(game, Action::PlaceTile(0, -1, 2), Error::kNotAtOrigin);
  EXPECT_REFUSED(game, Action::PlaceTile(core::kMaxCoord, core::kMaxCoord, 3), Error::kNotAtOrigin);
}

TEST(Errors, CellOccupied) {
  Game game = SecondPlacement();
  for (int rotation = 0; rotation < 4; ++rotation) {
    EXPECT_REFUSED(game, Action::PlaceTile(0, 0, rotation), Error::kCellOccupied);
  }
}

TEST(Errors, NoNeighbour) {
  Game game = SecondPlacement();
  EXPECT_REFUSED(game, Action::PlaceTile(1, 1, 2), Error::kNoNeighbour);  // corner only
  EXPECT_REFUSED(game, Action::PlaceTile(0, 2, 2), Error::kNoNeighbour);  // a cell apart
  EXPECT_REFUSED(game, Action::PlaceTile(-5, 7, 0), Error::kNoNeighbour);
}

TEST(Errors, StreetNotContinued) {
  Game game = SecondPlacement();
  // North of (0, 0) the street must go on: an "end" tile whose street leads elsewhere is refused.
  EXPECT_REFUSED(game, Action::PlaceTile(0, 1, 0), Error::kStreetNotContinued);
  EXPECT_REFUSED(game, Action::PlaceTile(0, 1, 1), Error::kStreetNotContinued);
  // East of (0, 0) there is no street: a street may not lead into it.
  EXPECT_REFUSED(game, Action::PlaceTile(1, 0, 3), Error::kStreetNotContinued);
  // A tile without street north of the street.
  Game plain = MakeGame(Tiles(), PlainConfig(), {kEnd0, kPlain0});
  test::Run(plain, {"place 0 0 0", "follower none"});
  test::DrawIfNeeded(plain);
  EXPECT_REFUSED(plain, Action::PlaceTile(0, 1, 0), Error::kStreetNotContinued);
}

TEST(Errors, BeyondWall) {
  Game game = AtFirstTower(WallConfig(), {kPlain0, kPlain0 + 1});
  test::Run(game, {"tower none"});
  test::DrawIfNeeded(game);
  ASSERT_EQ(game.CurrentDecision(), (Decision{2, DecisionKind::kPlaceTile}));
  EXPECT_REFUSED(game, Action::PlaceTile(0, -1, 0), Error::kBeyondWall);  // outside the gate
  EXPECT_REFUSED(game, Action::PlaceTile(-1, 0, 0), Error::kBeyondWall);  // outside p2's piece
  EXPECT_REFUSED(game, Action::PlaceTile(1, 0, 0), Error::kBeyondWall);   // outside p0's piece
  // Next to the unwalled tile the plain tile is fine.
  test::Run(game, {"place 1 1 0"});
}

TEST(Errors, WallSurrounded) {
  std::vector<int> plains;
  plains.reserve(6);
  for (int i = 0; i < 6; ++i) plains.push_back(kPlain0 + i);
  Game game = AtFirstTower(WallConfig(), plains);
  // Plain tiles around the cell west of (0, 0), which lies outside p2's wall piece; the last
  // one would enclose that cell and cut the wall off from the open land.
  test::Run(game, {"tower none",                        //
                   "place -1 1 0", "follower none",     //
                   "place -2 1 0", "follower none",     //
                   "place -2 0 0", "follower none",     //
                   "place -2 -1 0", "follower none"});  //
  test::DrawIfNeeded(game);
  ASSERT_EQ(game.CurrentDecision().kind, DecisionKind::kPlaceTile);
  for (int rotation = 0; rotation < 4; ++rotation) {
    EXPECT_REFUSED(game, Action::PlaceTile(-1, -1, rotation), Error::kWallSurrounded);
  }
  test::Run(game, {"place -2 -2 0"});  // next to it, no cell is cut off
}

TEST(Errors, NoSuchFeature) {
  Game game = SecondPlacement();
  test::Run(game, {"place 0 1 2"});  // an "end" tile: features a and 1
  ASSERT_EQ(game.CurrentDecision().kind, DecisionKind::kPlaceFollower);
  EXPECT_REFUSED(game, Action::PlaceFollower(2), Error::kNoSuchFeature);
  EXPECT_REFUSED(game, Action::PlaceFollower(core::kMaxFeaturesPerTile), Error::kNoSuchFeature);
  EXPECT_REFUSED(game, Action::PlaceFollower(255), Error::kNoSuchFeature);
}

TEST(Errors, NoFollowerLeft) {
  Config config = PlainConfig();
  config.followers = 0;
  Game game = MakeGame(Tiles(), config, {kPlain0});
  test::Run(game, {"place 0 0 0"});
  EXPECT_REFUSED(game, Action::PlaceFollower(0), Error::kNoFollowerLeft);

  // With one follower each, the one placed on the first turn is gone on the next turn.
  config.followers = 1;
  Game one = MakeGame(Tiles(), config, {kPlain0, kPlain0 + 1, kPlain0 + 2});
  test::Run(one, {"place 0 0 0", "follower a", "place 1 0 0", "follower none", "place 2 0 0"});
  ASSERT_EQ(one.CurrentDecision(), (Decision{0, DecisionKind::kPlaceFollower}));
  EXPECT_REFUSED(one, Action::PlaceFollower(0), Error::kNoFollowerLeft);
}

TEST(Errors, FeatureOccupied) {
  // A residential area joined to one with p0's steward.
  Game game = MakeGame(Tiles(), PlainConfig(), {kPlain0, kPlain0 + 1});
  test::Run(game, {"place 0 0 0", "follower a", "place 1 0 0"});
  EXPECT_REFUSED(game, Action::PlaceFollower(0), Error::kFeatureOccupied);
  // A street that goes on from one with p0's citizen.
  Game street = MakeGame(Tiles(), PlainConfig(), {kEnd0, kStraight});
  test::Run(street, {"place 0 0 0", "follower 1", "place 0 1 0"});
  const core::TileType& straight = street.tiles().TypeOf(kStraight);
  const int street_feature = straight.FeatureAt(core::PortOf(core::kNorth, core::kMidPort), 0);
  EXPECT_REFUSED(street, Action::PlaceFollower(street_feature), Error::kFeatureOccupied);
}

TEST(Errors, FeatureJustCompleted) {
  Game game = SecondPlacement();
  test::Run(game,
            {"place 0 1 2"});  // closes the street of (0, 0): two tiles, both ends at buildings
  const core::TileType& end = game.tiles().TypeOf(kEnd1);
  const int street = end.FeatureAt(core::PortOf(core::kSouth, core::kMidPort), 2);
  ASSERT_EQ(end.features[static_cast<size_t>(street)].kind, core::FeatureKind::kStreet);
  EXPECT_REFUSED(game, Action::PlaceFollower(street), Error::kFeatureJustCompleted);
  test::Run(game, {"follower a"});  // the residential area is still free
}

TEST(Errors, NotOnOutline) {
  Game game = AtGate(WallConfig(), {});
  // Between the two tiles.
  EXPECT_REFUSED(game, Action::PlaceGate(0, 0, core::kNorth), Error::kNotOnOutline);
  EXPECT_REFUSED(game, Action::PlaceGate(0, 1, core::kSouth), Error::kNotOnOutline);
  // No tile there.
  EXPECT_REFUSED(game, Action::PlaceGate(5, 5, core::kNorth), Error::kNotOnOutline);
  EXPECT_REFUSED(game, Action::PlaceGate(0, -1, core::kNorth), Error::kNotOnOutline);
  // Beyond the board.
  EXPECT_REFUSED(game, Action::PlaceGate(100, 0, core::kWest), Error::kNotOnOutline);
}

TEST(Errors, NotAWallEnd) {
  Game game = AtGate(WallConfig(), {});
  test::Run(game, {"gate 0 0 S"});
  ASSERT_EQ(game.CurrentDecision().kind, DecisionKind::kBuildWall);
  EXPECT_REFUSED(game, Action::BuildWall(2), Error::kNotAWallEnd);
  EXPECT_REFUSED(game, Action::BuildWall(255), Error::kNotAWallEnd);
  Game tower = AtFirstTower(WallConfig(), {});
  EXPECT_REFUSED(tower, Action::PlaceTower(2), Error::kNotAWallEnd);
}

TEST(Errors, GuardOpposite) {
  Game game = AtGate(WallConfig(), {});
  // p2's guard west of (0, 0); p0's piece east of it faces that guard across one tile.
  test::Run(game, {"gate 0 0 S", "wall front", "guard yes", "wall back"});
  ASSERT_EQ(game.CurrentDecision(), (Decision{0, DecisionKind::kPlaceGuard}));
  EXPECT_REFUSED(game, Action::PlaceGuard(), Error::kGuardOpposite);
  test::Run(game, {"guard no"});
}

TEST(Errors, NoTowerLeft) {
  Config config = WallConfig();
  config.towers_total = 0;
  Game game = AtFirstTower(config, {});
  EXPECT_REFUSED(game, Action::PlaceTower(kFrontEnd), Error::kNoTowerLeft);
  EXPECT_REFUSED(game, Action::PlaceTower(kBackEnd), Error::kNoTowerLeft);
  test::Run(game, {"tower none"});
}

TEST(Errors, TowerEndTaken) {
  Game game = AtFirstTower(WallConfig(), {kEnd2, kEnd3});
  // p1's tower on the front end. Then p2 starts a street north of (0, 1) and p0 closes it,
  // which starts a second round; its pieces all go to the back end.
  test::Run(game, {"tower front",                   //
                   "place 0 2 0", "follower 1",     // p2
                   "place 0 3 2", "follower none",  // p0: p2 scores, the round begins
                   "wall back", "guard no",         // p0
                   "wall back", "guard no",         // p1
                   "wall back", "guard no"});       // p2
  ASSERT_EQ(game.CurrentDecision(), (Decision{0, DecisionKind::kPlaceTower}));
  ASSERT_EQ(game.chain().Count(kFrontEnd), 1);
  ASSERT_EQ(game.TowersLeft(0), 1);
  EXPECT_REFUSED(game, Action::PlaceTower(kFrontEnd), Error::kTowerEndTaken);
  test::Run(game, {"tower back"});
}

}  // namespace
}  // namespace carc::city
