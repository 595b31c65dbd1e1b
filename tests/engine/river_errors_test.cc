// Every reason river::Game::Apply can give for refusing an action, each reached in a real
// position, and the refusal's contract (river/game.h): the game is unchanged (equal to a copy
// taken before, same hash) and no event was appended.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "river/default_tiles.h"
#include "river/game.h"
#include "river_scenario.h"

namespace carc::river {
namespace {

using test::MakeGame;
using test::MakeTiles;

void ExpectRefused(Game& game, Actor actor, const Action& action, Error expected) {
  const Game copy = game;
  const uint64_t hash = game.Hash();
  std::vector<Event> events = {TileDrawn{0}};  // a sentinel: nothing may be appended after it
  const std::optional<Error> error = game.Apply(actor, action, &events);
  ASSERT_TRUE(error.has_value()) << "the action was accepted";
  EXPECT_EQ(*error, expected) << "got " << ToString(*error) << ", expected " << ToString(expected);
  EXPECT_TRUE(copy == game);
  EXPECT_EQ(game.Hash(), hash);
  EXPECT_EQ(game.Hash(), game.RecomputeHash());
  EXPECT_EQ(events.size(), 1u);
  std::vector<Action> legal;
  game.LegalActions(&legal);
  if (actor == game.CurrentDecision().actor) {
    EXPECT_FALSE(std::binary_search(legal.begin(), legal.end(), action));
  }
}

void ExpectRefused(Game& game, const Action& action, Error expected) {
  ExpectRefused(game, game.CurrentDecision().actor, action, expected);
}

#define EXPECT_REFUSED(...)         \
  do {                              \
    SCOPED_TRACE("EXPECT_REFUSED"); \
    ExpectRefused(__VA_ARGS__);     \
  } while (false)

// The base game, two players, waiting for p0 to place its first tile (a straight road U).
Game FirstPlacement() {
  Game game = MakeGame(DefaultTileSet(), 2, false, {"U-road-straight", "E-city1"});
  test::DrawIfNeeded(game);
  return game;
}

// With the River, waiting for p0 to place the first River tile (a right-hand bend).
Game RiverPlacement(std::initializer_list<std::string_view> first) {
  Game game = MakeGame(DefaultTileSet(), 2, true, first);
  test::DrawIfNeeded(game);
  return game;
}

TEST(RiverErrors, GameOver) {
  auto tiles = MakeTiles(
      "tile start 1 a-a a-a a-a a-a a=field role=start\n"
      "tile plain 1 a-a a-a a-a a-a a=field\n");
  Game game = MakeGame(tiles, 2, false, {"plain"});
  test::Run(game, {"place 1 0 0", "follower none"});
  ASSERT_TRUE(game.IsOver());
  EXPECT_REFUSED(game, kChance, Action::Draw(1), Error::kGameOver);
  EXPECT_REFUSED(game, 0, Action::SkipFollower(), Error::kGameOver);
}

TEST(RiverErrors, WrongPlayer) {
  Game game = FirstPlacement();
  EXPECT_REFUSED(game, 1, Action::PlaceTile(1, 0, 0), Error::kWrongPlayer);
  EXPECT_REFUSED(game, kChance, Action::PlaceTile(1, 0, 0), Error::kWrongPlayer);
}

TEST(RiverErrors, WrongPhase) {
  Game game = FirstPlacement();
  EXPECT_REFUSED(game, Action::SkipFollower(), Error::kWrongPhase);
  test::Run(game, {"place 1 0 0"});
  EXPECT_REFUSED(game, Action::PlaceTile(2, 0, 0), Error::kWrongPhase);
}

TEST(RiverErrors, Malformed) {
  Game game = FirstPlacement();
  EXPECT_REFUSED(game, Action::PlaceTile(1, 0, 4), Error::kMalformed);  // rotation
  Action stray = Action::PlaceTile(1, 0, 0);
  stray.feature = 1;  // a field a placement does not use
  EXPECT_REFUSED(game, stray, Error::kMalformed);
  Action unknown = Action::SkipFollower();
  unknown.kind = static_cast<ActionKind>(9);
  EXPECT_REFUSED(game, unknown, Error::kMalformed);
  Game drawing = MakeGame(DefaultTileSet(), 2, false, {});
  EXPECT_REFUSED(drawing, kChance, Action::Draw(200), Error::kMalformed);  // no such tile
}

TEST(RiverErrors, NotNextTile) {
  Game game = MakeGame(DefaultTileSet(), 2, false, {"U-road-straight"});
  std::vector<Action> legal;
  game.LegalActions(&legal);
  ASSERT_EQ(legal.size(), 1u);
  EXPECT_REFUSED(game, kChance, Action::Draw((legal[0].tile + 1) % 72), Error::kNotNextTile);
}

TEST(RiverErrors, OutOfBounds) {
  Game game = FirstPlacement();
  EXPECT_REFUSED(game, Action::PlaceTile(core::kMaxCoord + 1, 0, 0), Error::kOutOfBounds);
  EXPECT_REFUSED(game, Action::PlaceTile(0, -core::kMaxCoord - 1, 0), Error::kOutOfBounds);
}

TEST(RiverErrors, CellOccupied) {
  Game game = FirstPlacement();
  EXPECT_REFUSED(game, Action::PlaceTile(0, 0, 0), Error::kCellOccupied);
}

TEST(RiverErrors, NoNeighbour) {
  Game game = FirstPlacement();
  EXPECT_REFUSED(game, Action::PlaceTile(1, 1, 0), Error::kNoNeighbour);  // a corner only
  EXPECT_REFUSED(game, Action::PlaceTile(5, 5, 0), Error::kNoNeighbour);
}

TEST(RiverErrors, SidesDoNotMatch) {
  Game game = FirstPlacement();
  // The road turned north-south against the start tile's road end: fields meet the road.
  EXPECT_REFUSED(game, Action::PlaceTile(1, 0, 1), Error::kSidesDoNotMatch);
  // The road's field side against the start tile's city.
  EXPECT_REFUSED(game, Action::PlaceTile(0, 1, 0), Error::kSidesDoNotMatch);
}

TEST(RiverErrors, RiverNotContinued) {
  Game game = RiverPlacement({"R07-river-straight"});
  EXPECT_REFUSED(game, Action::PlaceTile(0, 1, 0), Error::kRiverNotContinued);  // sides match
  EXPECT_REFUSED(game, Action::PlaceTile(-1, 0, 0), Error::kRiverNotContinued);
}

TEST(RiverErrors, RiverUTurn) {
  Game game = RiverPlacement({"R11-river-curve", "R12-river-curve"});
  test::Run(game, {"place 1 0 0", "follower none"});
  EXPECT_REFUSED(game, Action::PlaceTile(1, -1, 1), Error::kRiverUTurn);
}

TEST(RiverErrors, NoSuchFeature) {
  Game game = FirstPlacement();
  test::Run(game, {"place 1 0 0"});
  EXPECT_REFUSED(game, Action::PlaceFollower(3), Error::kNoSuchFeature);  // U has 3 features
  EXPECT_REFUSED(game, Action::PlaceFollower(200), Error::kNoSuchFeature);
}

TEST(RiverErrors, OnTheRiver) {
  Game game = RiverPlacement({"R07-river-straight"});
  test::Run(game, {"place 1 0 0"});
  const core::TileType& type = game.tiles().TypeOf(game.board().Placed(1).tile);
  int river = -1;
  for (int f = 0; f < type.FeatureCount(); ++f) {
    if (type.features[static_cast<size_t>(f)].kind == core::FeatureKind::kRiver) river = f;
  }
  ASSERT_GE(river, 0);
  EXPECT_REFUSED(game, Action::PlaceFollower(river), Error::kOnTheRiver);
}

TEST(RiverErrors, NoFollowerLeft) {
  const std::vector<int> order =
      test::OrderStartingWith(*DefaultTileSet(), false, test::TileIds(*DefaultTileSet(), {}));
  Game game = std::get<Game>(Game::CreateWithOrder(
      DefaultTileSet(), Config{.players = 2, .river = false, .followers = 0}, 0, order));
  test::DrawIfNeeded(game);
  std::vector<Action> legal;
  game.LegalActions(&legal);
  ASSERT_FALSE(legal.empty());
  ASSERT_FALSE(game.Apply(0, legal.front(), nullptr));
  game.LegalActions(&legal);
  EXPECT_EQ(legal, std::vector<Action>{Action::SkipFollower()});
  EXPECT_REFUSED(game, Action::PlaceFollower(0), Error::kNoFollowerLeft);
}

TEST(RiverErrors, FeatureOccupied) {
  Game game = MakeGame(DefaultTileSet(), 2, false, {"U-road-straight", "U-road-straight"});
  test::Run(game, {"place 1 0 0", "follower 1", "place 2 0 0"});
  EXPECT_REFUSED(game, Action::PlaceFollower(1), Error::kFeatureOccupied);  // the road
}

TEST(RiverErrors, EveryErrorHasANameAndASentence) {
  std::set<std::string> names;
  for (int e = 0; e <= static_cast<int>(Error::kFeatureOccupied); ++e) {
    const Error error = static_cast<Error>(e);
    EXPECT_STRNE(ToString(error), "?");
    EXPECT_STRNE(Describe(error), "?");
    names.insert(ToString(error));
  }
  EXPECT_EQ(names.size(), static_cast<size_t>(Error::kFeatureOccupied) + 1);
}

}  // namespace
}  // namespace carc::river
