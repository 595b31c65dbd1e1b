// Every reason castle::Game::Apply can give for refusing an action, each reached in a real
// position, and the refusal's contract (castle/game.h): the game is unchanged (equal to a copy
// taken before, same hash) and no event was appended.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "castle/default_data.h"
#include "castle/game.h"
#include "castle/notation.h"
#include "castle/random_play.h"

namespace carc::castle {
namespace {

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

// A game whose first draw is a tile of the named type, then every other castle tile in id order.
Game Scenario(const std::string& first, int followers = 6) {
  const auto tiles = DefaultTileSet();
  std::vector<int> order;
  for (int id = 0; id < tiles->TileCount(); ++id) {
    if (order.empty() && tiles->TypeOf(id).name == first) order.push_back(id);
  }
  EXPECT_EQ(order.size(), 1u) << "unknown tile type " << first;
  for (int id = 0; id < tiles->TileCount(); ++id) {
    if (id != order.front() && tiles->TypeOf(id).role != core::TileRole::kStartSpace) {
      order.push_back(id);
    }
  }
  Config config;
  config.followers = followers;
  config.layout = DefaultLayout();
  return std::get<Game>(Game::CreateWithOrder(tiles, config, 1, order));
}

// Applies one line of the notation for whoever must decide.
void Play(Game& game, const std::string& line) {
  auto parsed = ParseAction(game, line);
  ASSERT_TRUE(std::holds_alternative<ParsedAction>(parsed)) << line;
  const auto error =
      game.Apply(game.CurrentDecision().actor, std::get<ParsedAction>(parsed).action, nullptr);
  ASSERT_FALSE(error.has_value()) << line << ": " << Describe(*error);
}

void DrawNext(Game& game) {
  Play(game, "draw " + std::to_string(game.Order()[static_cast<size_t>(game.TilesDrawn())]));
}

// Waiting for p0 to place CT24, a tile with a path, first of all.
Game FirstPlacement() {
  Game game = Scenario("CT24");
  DrawNext(game);
  return game;
}

// Seeded random games (eager players: many followers, many wall tiles) played until `wanted`
// holds; fails the test if none of the seeds reaches such a position.
Game FindPosition(const std::function<bool(const Game&)>& wanted) {
  PlayBuffers buffers;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    Config config;
    config.layout = DefaultLayout();
    Game game = std::get<Game>(Game::Create(DefaultTileSet(), config, seed));
    core::Random random = ChoiceRandom(seed);
    while (!game.IsOver()) {
      if (wanted(game)) return game;
      RandomStep(game, random, buffers, Policy::kEager);
    }
  }
  ADD_FAILURE() << "no seed reaches the position";
  return Scenario("CT24");
}

bool Legal(const Game& game, const Action& action) {
  std::vector<Action> legal;
  game.LegalActions(&legal);
  return std::binary_search(legal.begin(), legal.end(), action);
}

TEST(CastleErrors, GameOver) {
  Game game = Scenario("CT24");
  PlayBuffers buffers;
  core::Random random(7);
  while (RandomStep(game, random, buffers)) {
  }
  ASSERT_TRUE(game.IsOver());
  EXPECT_REFUSED(game, kChance, Action::Draw(0), Error::kGameOver);
  EXPECT_REFUSED(game, 0, Action::SkipFollower(), Error::kGameOver);
  EXPECT_REFUSED(game, 1, Action::EndTurn(), Error::kGameOver);
}

TEST(CastleErrors, WrongPlayer) {
  Game game = FirstPlacement();
  EXPECT_REFUSED(game, 1, Action::PlaceTile(8, 5, 1), Error::kWrongPlayer);
  EXPECT_REFUSED(game, kChance, Action::PlaceTile(8, 5, 1), Error::kWrongPlayer);
}

TEST(CastleErrors, WrongPhase) {
  Game game = FirstPlacement();
  EXPECT_REFUSED(game, Action::SkipFollower(), Error::kWrongPhase);
  EXPECT_REFUSED(game, Action::EndTurn(), Error::kWrongPhase);
  Play(game, "place 8 5 1");
  EXPECT_REFUSED(game, Action::PlaceTile(4, 7, 3), Error::kWrongPhase);
}

TEST(CastleErrors, Malformed) {
  Game game = FirstPlacement();
  EXPECT_REFUSED(game, Action::PlaceTile(8, 5, 4), Error::kMalformed);  // rotation
  Action stray = Action::PlaceTile(8, 5, 1);
  stray.wall = 2;  // a field a placement does not use
  EXPECT_REFUSED(game, stray, Error::kMalformed);
  Action unknown = Action::SkipFollower();
  unknown.kind = static_cast<ActionKind>(10);
  EXPECT_REFUSED(game, unknown, Error::kMalformed);
  Game drawing = Scenario("CT24");
  EXPECT_REFUSED(drawing, kChance, Action::Draw(200), Error::kMalformed);  // no such tile
}

TEST(CastleErrors, NotNextTile) {
  Game game = Scenario("CT24");
  std::vector<Action> legal;
  game.LegalActions(&legal);
  ASSERT_EQ(legal.size(), 1u);
  EXPECT_REFUSED(game, kChance, Action::Draw((legal[0].tile + 1) % 60), Error::kNotNextTile);
}

TEST(CastleErrors, OutsideCastle) {
  Game game = FirstPlacement();
  EXPECT_REFUSED(game, Action::PlaceTile(0, 0, 0), Error::kOutsideCastle);  // the first tower
  EXPECT_REFUSED(game, Action::PlaceTile(9, 5, 0), Error::kOutsideCastle);  // start space 74
  EXPECT_REFUSED(game, Action::PlaceTile(20, 20, 0), Error::kOutsideCastle);
  EXPECT_REFUSED(game, Action::PlaceTile(-1, 3, 0), Error::kOutsideCastle);
}

TEST(CastleErrors, CellOccupied) {
  Game game = FirstPlacement();
  Play(game, "place 8 5 1");
  Play(game, "follower none");
  DrawNext(game);
  EXPECT_REFUSED(game, Action::PlaceTile(8, 5, 1), Error::kCellOccupied);
}

TEST(CastleErrors, NoNeighbour) {
  Game game = FirstPlacement();
  EXPECT_REFUSED(game, Action::PlaceTile(6, 6, 0), Error::kNoNeighbour);  // mid-castle
  EXPECT_REFUSED(game, Action::PlaceTile(7, 4, 0), Error::kNoNeighbour);  // a corner only
}

TEST(CastleErrors, PathNotContinued) {
  // Start space 74, west of (8, 5), has a path on its side facing the castle: CT24's path must
  // meet it (rotation 1), and no other rotation of CT24 has a path on its east side.
  Game game = FirstPlacement();
  EXPECT_REFUSED(game, Action::PlaceTile(8, 5, 0), Error::kPathNotContinued);
  EXPECT_REFUSED(game, Action::PlaceTile(8, 5, 2), Error::kPathNotContinued);
  EXPECT_REFUSED(game, Action::PlaceTile(8, 5, 3), Error::kPathNotContinued);
  EXPECT_TRUE(Legal(game, Action::PlaceTile(8, 5, 1)));
}

TEST(CastleErrors, NoSuchFeature) {
  Game game = FirstPlacement();
  Play(game, "place 8 5 1");
  const int features =
      game.tiles().TypeOf(game.board().Placed(game.board().TileCount() - 1).tile).FeatureCount();
  EXPECT_REFUSED(game, Action::PlaceFollower(features), Error::kNoSuchFeature);
  EXPECT_REFUSED(game, Action::PlaceFollower(200), Error::kNoSuchFeature);
}

TEST(CastleErrors, NoFollowerLeft) {
  Game game = Scenario("CT24", /*followers=*/0);
  DrawNext(game);
  Play(game, "place 8 5 1");
  std::vector<Action> legal;
  game.LegalActions(&legal);
  EXPECT_EQ(legal, std::vector<Action>{Action::SkipFollower()});
  EXPECT_REFUSED(game, Action::PlaceFollower(0), Error::kNoFollowerLeft);
}

TEST(CastleErrors, FeatureOccupied) {
  // A tile that joins a feature someone holds: a feature of the tile just placed that the
  // player, with followers left, may not take.
  int occupied = -1;
  Game game = FindPosition([&occupied](const Game& g) {
    if (g.CurrentDecision().kind != DecisionKind::kPlaceFollower) return false;
    if (g.FollowersInSupply(g.CurrentDecision().actor) == 0) return false;
    const core::PlacedTile& last = g.board().Placed(g.board().TileCount() - 1);
    for (int f = 0; f < g.tiles().TypeOf(last.tile).FeatureCount(); ++f) {
      if (!Legal(g, Action::PlaceFollower(f))) {
        occupied = f;
        return true;
      }
    }
    return false;
  });
  ASSERT_GE(occupied, 0);
  EXPECT_REFUSED(game, Action::PlaceFollower(occupied), Error::kFeatureOccupied);
}

TEST(CastleErrors, NotPending) {
  Game game = FindPosition(
      [](const Game& g) { return g.CurrentDecision().kind == DecisionKind::kScoreNext; });
  std::vector<Action> legal;
  game.LegalActions(&legal);
  ASSERT_FALSE(legal.empty());
  // The first corner tower holds no tile, so no feature.
  EXPECT_REFUSED(game, Action::Score(0, 0, 0, false), Error::kNotPending);
  // A feature that did not just score: a start space's, not among the legal choices.
  bool tried = false;
  for (const PublicTile& start : game.StartTiles()) {
    const Action score = Action::Score(start.x, start.y, 0, false);
    if (tried || std::binary_search(legal.begin(), legal.end(), score)) continue;
    EXPECT_REFUSED(game, score, Error::kNotPending);
    tried = true;
  }
  EXPECT_TRUE(tried);
}

TEST(CastleErrors, NoWallTile) {
  // Doubled without a wall tile 2 or 3 in hand.
  Game game = FindPosition([](const Game& g) {
    const Decision d = g.CurrentDecision();
    return d.kind == DecisionKind::kScoreNext &&
           g.WallTilesHeld(d.actor, WallTile::kDoubleTower) == 0 &&
           g.WallTilesHeld(d.actor, WallTile::kDoubleHouse) == 0;
  });
  std::vector<Action> legal;
  game.LegalActions(&legal);
  ASSERT_FALSE(legal.empty());
  EXPECT_REFUSED(game, Action::Score(legal[0].x, legal[0].y, legal[0].feature, true),
                 Error::kNoWallTile);
  // At the game's end, another wall tile than the one asked about.
  Game end = FindPosition(
      [](const Game& g) { return g.CurrentDecision().kind == DecisionKind::kWallTile; });
  const int asked = end.CurrentDecision().wall;
  const int other = asked == 9 ? 4 : asked + 1;
  EXPECT_REFUSED(end, Action::SkipWallTile(other), Error::kNoWallTile);
}

TEST(CastleErrors, NotEligible) {
  Game game = FindPosition(
      [](const Game& g) { return g.CurrentDecision().kind == DecisionKind::kWallTile; });
  const int wall = game.CurrentDecision().wall;
  // The first corner tower holds no tile, so no feature.
  EXPECT_REFUSED(game, Action::UseWallTile(wall, 0, 0, 0), Error::kNotEligible);
  // A start space's feature the wall tile may not be used on (not among the legal choices).
  std::vector<Action> legal;
  game.LegalActions(&legal);
  bool tried = false;
  for (const PublicTile& start : game.StartTiles()) {
    const Action use = Action::UseWallTile(wall, start.x, start.y, 0);
    if (tried || std::binary_search(legal.begin(), legal.end(), use)) continue;
    EXPECT_REFUSED(game, use, Error::kNotEligible);
    tried = true;
  }
  EXPECT_TRUE(tried);
}

TEST(CastleErrors, EveryErrorHasANameAndASentence) {
  std::set<std::string> names;
  for (int e = 0; e <= static_cast<int>(Error::kNotEligible); ++e) {
    const Error error = static_cast<Error>(e);
    EXPECT_STRNE(ToString(error), "?");
    EXPECT_STRNE(Describe(error), "?");
    names.insert(ToString(error));
  }
  EXPECT_EQ(names.size(), static_cast<size_t>(Error::kNotEligible) + 1);
}

}  // namespace
}  // namespace carc::castle
