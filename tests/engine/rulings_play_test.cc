// Rulings R1-R17 of shared/rules/the-city-rulings.md, each played out on a small board.
//
// Every test is named after the ruling it pins down and is built so that a plausible wrong
// reading of that ruling fails it (the comment before each test names the readings it rules
// out). Boards are drawn with x to the east and y to the north; a tile's rotation is in quarter
// turns clockwise (docs/tiles.md). The test tile set below is small and written inline, so that
// every position is easy to follow; R1-R4 use the default set.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <numeric>
#include <set>
#include <string_view>
#include <vector>

#include "city/default_tiles.h"
#include "city/game.h"
#include "city/random_play.h"
#include "core/hash.h"
#include "scenario.h"

namespace carc::city {
namespace {

using core::FeatureKind;
using test::DrawIfNeeded;
using test::FeaturePoints;
using test::Only;
using test::Try;

// Feature labels: areas are letters, street segments digits (docs/tiles.md).
//   plain         no street, one residential area (a)
//   straight      street 1 from north to south between areas a (west) and b (east)
//   curve         street 1 from north to east; b is the inner (north-east) corner
//   deadend       street 1 from the north ends at a building
//   cross4        four streets 1-4 end at a crossing
//   end-fish      street 1 from the north ends at a fish market b filling the south half
//   corner-*      market b in the north-east corner (touches the north and east sides)
//   corner-res    the reverse: a residential corner b in a fish market a
//   double-curve  street 1 from north to west, street 2 from east to south
constexpr std::string_view kTileLines = R"(
tile plain            24 a-a a-a a-a a-a a=residential
tile straight         10 a1b b-b b1a a-a a=residential b=residential
tile curve             8 a1b b1a a-a a-a a=residential b=residential
tile deadend          10 a1a a-a a-a a-a a=residential 1=building
tile cross4            2 a1b b2c c3d d4a a=residential b=residential c=residential d=residential 1=crossing 2=crossing 3=crossing 4=crossing
tile end-fish          1 a1c c-b b-b b-a a=residential c=residential b=fish 1=market
tile corner-fish       3 a-b b-a a-a a-a a=residential b=fish
tile corner-grain      3 a-b b-a a-a a-a a=residential b=grain
tile corner-livestock  1 a-b b-a a-a a-a a=residential b=livestock
tile corner-res        4 a-b b-a a-a a-a a=fish b=residential
tile double-curve      1 a1b b2c c2b b1a a=residential b=residential c=residential
)";

std::shared_ptr<const core::TileSet> TestTiles() {
  static const std::shared_ptr<const core::TileSet> tiles = test::MakeTiles(kTileLines);
  return tiles;
}

// A game of the test set whose stacks start with copies of the named types, in that order; the
// other tiles follow in id order (plain ones first). Stack 3 takes what stacks 1 and 2 leave.
Game NewGame(int players, int stack1, int stack2, std::initializer_list<std::string_view> first,
             int followers = 7) {
  const auto tiles = TestTiles();
  std::vector<int> order;
  std::set<int> used;
  for (std::string_view name : first) {
    const std::vector<int> copies = test::TilesOf(*tiles, name);
    const auto it =
        std::find_if(copies.begin(), copies.end(), [&](int id) { return used.count(id) == 0; });
    if (it == copies.end()) {
      ADD_FAILURE() << "the test set has no copy of " << name << " left";
      continue;
    }
    used.insert(*it);
    order.push_back(*it);
  }
  Config config;
  config.players = players;
  config.stack_sizes = {stack1, stack2, tiles->TileCount() - stack1 - stack2};
  config.followers = followers;
  return test::MakeGame(tiles, config, order);
}

// test::Run under another name: inside a TEST body, Run names gtest's Test::Run.
std::vector<Event> Play(Game& game, std::initializer_list<std::string_view> lines) {
  return test::Run(game, lines);
}

std::vector<Action> Legal(const Game& game) {
  std::vector<Action> legal;
  game.LegalActions(&legal);
  return legal;
}

bool IsLegal(const Game& game, const Action& action) {
  const std::vector<Action> legal = Legal(game);
  return std::find(legal.begin(), legal.end(), action) != legal.end();
}

bool HasPlacementAt(const Game& game, int x, int y) {
  const std::vector<Action> legal = Legal(game);
  return std::any_of(legal.begin(), legal.end(), [&](const Action& a) {
    return a.kind == ActionKind::kPlaceTile && a.x == x && a.y == y;
  });
}

// The index of the feature labelled `label` on the tile placed last.
int FeatureIndex(const Game& game, char label) {
  const core::TileType& type =
      game.tiles().TypeOf(game.board().Placed(game.board().TileCount() - 1).tile);
  for (int f = 0; f < type.FeatureCount(); ++f) {
    if (type.features[static_cast<size_t>(f)].label == label) return f;
  }
  ADD_FAILURE() << "no feature " << label;
  return 0;
}

Decision Wants(Actor actor, DecisionKind kind) { return Decision{actor, kind}; }

// Streets and markets scored, by kind.
std::vector<FeatureScored> Scored(const std::vector<Event>& events, FeatureKind kind) {
  std::vector<FeatureScored> out;
  for (const FeatureScored& s : Only<FeatureScored>(events)) {
    if (s.kind == kind) out.push_back(s);
  }
  return out;
}

// Two players. Stack 1 (6 tiles) lays out, with p0's citizen on the street of (0,0) and p1's on
// the street of (1,0); stack 2 starts with the deadend that completes p0's street at (-1,0):
//
//   y= 0:  [-1,0]  (0,0)=  =(1,0)             = street; (1,0)'s street leaves north and ends at
//   y=-1:  (-1,-1) (0,-1)  (1,-1)  (2,-1)*      its building; * a fish market in the north-east
//                                               corner of (2,-1), touching its north and east side
//
// The tiles after them are a plain tile and a deadend (stack 2 holds 10).
Game WallRoundGame(int followers) {
  Game game = NewGame(2, 6, 10,
                      {"deadend", "deadend", "plain", "plain", "corner-fish", "plain", "deadend",
                       "plain", "deadend"},
                      followers);
  Play(game, {"place 0 0 3", "follower 1",         // p0: street to the west
              "place 1 0 0", "follower 1",         // p1: street to the north
              "place 0 -1 0", "follower none",     // p0
              "place 1 -1 0", "follower none",     // p1
              "place 2 -1 0", "follower none",     // p0: market north-east
              "place -1 -1 0", "follower none"});  // p1: the last tile of stack 1
  return game;
}

// Three players. Stack 1 (9 tiles) builds a city with an inlet two cells deep, open to the east:
//
//   y= 1:  A(0,1)  B(1,1)  C(2,1)  H(3,1)
//   y= 0:  W(0,0)  .(1,0)  .(2,0)  .(3,0)     W: deadend, street to the west, p0's citizen
//   y=-1:  D(0,-1) F(1,-1) G(2,-1) I(3,-1)
//
// Stack 2 starts with the deadend that completes p0's street at (-1,0), then plain tiles. Placing
// it (turn 10, p0) starts the first wall round: p0 the gate, p1 and p2 one wall each.
Game InletGame() {
  Game game = NewGame(3, 9, 10,
                      {"deadend", "plain", "plain", "plain", "plain", "plain", "plain", "plain",
                       "plain", "deadend"});
  Play(game, {"place 0 0 3", "follower 1", "place 0 1 0", "follower none", "place 1 1 0",
              "follower none", "place 2 1 0", "follower none", "place 3 1 0", "follower none",
              "place 0 -1 0", "follower none", "place 1 -1 0", "follower none", "place 2 -1 0",
              "follower none", "place 3 -1 0", "follower none"});
  return game;
}

// ---------------------------------------------------------------------------------------------
// Components and set-up

// R1-R3 with the default set: 7 followers in supply, towers 12 split evenly, 70 walls, stacks of
// 30, 25 and 20 tiles out of 75.
TEST(RulingsPlay, R01_R03_SupplyTowersWallsAndStacks) {
  const Config defaults;
  EXPECT_EQ(defaults.followers, 7);
  EXPECT_EQ(defaults.walls, 70);
  EXPECT_EQ(defaults.towers_total, 12);
  EXPECT_EQ(defaults.stack_sizes, (std::array<int, 3>{30, 25, 20}));
  const int towers[] = {0, 0, 6, 4, 3};
  for (int players = 2; players <= 4; ++players) {
    SCOPED_TRACE(players);
    Config config;
    config.players = players;
    auto created = Game::Create(DefaultTileSet(), config, 1);
    ASSERT_TRUE(std::holds_alternative<Game>(created));
    const Game& game = std::get<Game>(created);
    EXPECT_EQ(game.tiles().TileCount(), 75);
    EXPECT_EQ(game.TilesLeft(), 75);
    for (int p = 0; p < players; ++p) {
      EXPECT_EQ(game.FollowersInSupply(p), 7);
      EXPECT_EQ(game.TowersLeft(p), towers[players]);
      EXPECT_EQ(game.TotalScore(p), 0);
    }
    EXPECT_EQ(game.WallsLeft(), 70);
    EXPECT_EQ(game.StackLeft(0), 30);
    EXPECT_EQ(game.StackLeft(1), 25);
    EXPECT_EQ(game.StackLeft(2), 20);
    EXPECT_EQ(game.CurrentStack(), 1);
  }
  EXPECT_FALSE(
      std::holds_alternative<Game>(Game::Create(DefaultTileSet(), Config{.players = 1}, 1)));
  EXPECT_FALSE(
      std::holds_alternative<Game>(Game::Create(DefaultTileSet(), Config{.players = 5}, 1)));
}

// R2: the stacks are drawn in turn: draws 1-30 come from stack 1, 31-55 from stack 2, the rest
// from stack 3, whoever draws and whatever is discarded.
TEST(RulingsPlay, R02_StacksAreDrawnThirtyThenTwentyFiveThenTwenty) {
  for (uint64_t seed : {1u, 5u, 9u}) {
    SCOPED_TRACE(seed);
    Config config;
    config.players = 2 + static_cast<int>(seed % 3);
    Game game = std::get<Game>(Game::Create(DefaultTileSet(), config, seed));
    core::Random random = ChoiceRandom(seed);
    PlayBuffers buffers;
    std::vector<int> stacks;
    while (RandomStep(game, random, buffers)) {
      for (const TileDrawn& drawn : Only<TileDrawn>(buffers.events)) stacks.push_back(drawn.stack);
    }
    ASSERT_GT(stacks.size(), 30u);
    for (size_t i = 0; i < stacks.size(); ++i) {
      const int expected = i < 30 ? 1 : i < 55 ? 2 : 3;
      ASSERT_EQ(stacks[i], expected) << "draw " << i + 1;
    }
  }
}

// R2, R20: the gate is not one of the 70 wall pieces.
TEST(RulingsPlay, R02_TheGateIsNotOneOfTheWalls) {
  Game game = WallRoundGame(7);
  Play(game, {"place -1 0 1", "follower none"});
  ASSERT_EQ(game.CurrentDecision(), Wants(0, DecisionKind::kPlaceGate));
  Play(game, {"gate 1 0 E"});
  EXPECT_EQ(game.WallsLeft(), 70);
  Play(game, {"wall back"});
  EXPECT_EQ(game.WallsLeft(), 69);
}

// R4: the shuffle is SplitMix64 feeding the Fisher-Yates of core/hash.h, so the order for a seed
// is fixed forever. Any change of the generator, of the rejection step or of the swap order moves
// these ids.
TEST(RulingsPlay, R04_SeedOneGivesThePinnedOrder) {
  const std::vector<int> order = Game::ShuffledOrder(75, 1);
  const std::vector<int> pinned = {12, 49, 54, 36, 67, 25, 38, 37, 24, 15, 31, 50};
  EXPECT_TRUE(std::equal(pinned.begin(), pinned.end(), order.begin()));

  // The game with seed 1 draws them in this order, the first from stack 1.
  Game game = std::get<Game>(Game::Create(DefaultTileSet(), Config{}, 1));
  EXPECT_EQ(game.Order(), order);
  std::vector<Event> events;
  ASSERT_FALSE(game.Apply(kChance, Action::Draw(12), &events).has_value());
  ASSERT_EQ(Only<TileDrawn>(events).size(), 1u);
  EXPECT_EQ(Only<TileDrawn>(events)[0].tile, 12);
  EXPECT_EQ(Only<TileDrawn>(events)[0].stack, 1);

  // A random game with seed 1 draws 12, 49, 54 first.
  Game played = std::get<Game>(Game::Create(DefaultTileSet(), Config{}, 1));
  core::Random random = ChoiceRandom(1);
  PlayBuffers buffers;
  std::vector<int> drawn;
  while (drawn.size() < 3 && RandomStep(played, random, buffers)) {
    for (const TileDrawn& d : Only<TileDrawn>(buffers.events)) drawn.push_back(d.tile);
  }
  EXPECT_EQ(drawn, (std::vector<int>{12, 49, 54}));
}

// R4: the documented algorithm, written out again here from its description: SplitMix64
// (checked against the reference outputs for seed 1234567), a uniform draw below n by rejecting
// values under 2^64 mod n, and Fisher-Yates swapping item i-1 with item Below(i) for i = n..2.
TEST(RulingsPlay, R04_ShuffleIsThePortableFisherYates) {
  core::Random reference(1234567);
  EXPECT_EQ(reference.Next(), 6457827717110365317ULL);
  EXPECT_EQ(reference.Next(), 3203168211198807973ULL);
  EXPECT_EQ(reference.Next(), 9817491932198370423ULL);

  for (uint64_t seed : {0ULL, 1ULL, 2ULL, 42ULL, 0xFFFFFFFFFFFFFFFFULL}) {
    SCOPED_TRACE(seed);
    uint64_t state = seed;
    const auto next = [&state] {
      state += 0x9E3779B97F4A7C15ULL;
      uint64_t z = state;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
      return z ^ (z >> 31);
    };
    const auto below = [&next](uint64_t n) {
      const uint64_t threshold = (~n + 1) % n;  // 2^64 mod n
      for (;;) {
        const uint64_t r = next();
        if (r >= threshold) return r % n;
      }
    };
    std::vector<int> expected(75);
    std::iota(expected.begin(), expected.end(), 0);
    for (size_t i = expected.size(); i > 1; --i) std::swap(expected[i - 1], expected[below(i)]);
    EXPECT_EQ(Game::ShuffledOrder(75, seed), expected);
  }
}

// R4: same seed, same stacks, whatever else differs; another seed, other stacks. The order is
// stored with the game: a game created from an explicit order draws that order, not the shuffle.
TEST(RulingsPlay, R04_SameSeedSameStacksAndTheOrderIsStored) {
  std::vector<int> first;
  for (int players = 2; players <= 4; ++players) {
    Config config;
    config.players = players;
    const Game game = std::get<Game>(Game::Create(DefaultTileSet(), config, 77));
    if (first.empty()) first = game.Order();
    EXPECT_EQ(game.Order(), first);
  }
  EXPECT_EQ(first, Game::ShuffledOrder(75, 77));
  EXPECT_NE(Game::ShuffledOrder(75, 77), Game::ShuffledOrder(75, 78));

  std::vector<int> reversed(75);
  std::iota(reversed.rbegin(), reversed.rend(), 0);
  Game stored = std::get<Game>(Game::CreateWithOrder(DefaultTileSet(), Config{}, 77, reversed));
  EXPECT_EQ(stored.Order(), reversed);
  EXPECT_EQ(stored.Apply(kChance, Action::Draw(first[0]), nullptr), Error::kNotNextTile);
  EXPECT_EQ(Legal(stored), (std::vector<Action>{Action::Draw(74)}));
  EXPECT_FALSE(stored.Apply(kChance, Action::Draw(74), nullptr).has_value());
  ASSERT_EQ(stored.History().size(), 1u);
  EXPECT_EQ(stored.History()[0].action, Action::Draw(74));
}

// ---------------------------------------------------------------------------------------------
// Placing tiles

// R5: the first player places the first tile of stack 1 at the origin (any rotation) and may put
// a follower on it. Wrong readings: any cell allowed, another player starts, no follower on it.
TEST(RulingsPlay, R05_FirstTileAtTheOriginByTheFirstPlayer) {
  Game game = std::get<Game>(Game::Create(DefaultTileSet(), Config{}, 1));
  EXPECT_EQ(game.CurrentDecision(), Wants(kChance, DecisionKind::kDrawTile));
  std::vector<Event> events;
  DrawIfNeeded(game, &events);
  ASSERT_EQ(Only<TileDrawn>(events).size(), 1u);
  EXPECT_EQ(Only<TileDrawn>(events)[0].tile, game.Order()[0]);
  EXPECT_EQ(Only<TileDrawn>(events)[0].stack, 1);
  EXPECT_EQ(game.CurrentDecision(), Wants(0, DecisionKind::kPlaceTile));
  EXPECT_EQ(Legal(game),
            (std::vector<Action>{Action::PlaceTile(0, 0, 0), Action::PlaceTile(0, 0, 1),
                                 Action::PlaceTile(0, 0, 2), Action::PlaceTile(0, 0, 3)}));
  EXPECT_EQ(Try(game, "place 1 0 0"), Error::kNotAtOrigin);
  EXPECT_EQ(Try(game, "place 0 -1 2"), Error::kNotAtOrigin);
  EXPECT_EQ(game.Apply(1, Action::PlaceTile(0, 0, 0), nullptr), Error::kWrongPlayer);
  events = Play(game, {"place 0 0 3"});
  ASSERT_EQ(Only<TilePlaced>(events).size(), 1u);
  EXPECT_EQ(Only<TilePlaced>(events)[0].player, 0);
  ASSERT_EQ(game.CurrentDecision(), Wants(0, DecisionKind::kPlaceFollower));
  EXPECT_TRUE(IsLegal(game, Action::PlaceFollower(0)));
  events.clear();
  ASSERT_FALSE(game.Apply(0, Action::PlaceFollower(0), &events).has_value());
  ASSERT_EQ(Only<FollowerPlaced>(events).size(), 1u);
  EXPECT_EQ(Only<FollowerPlaced>(events)[0].player, 0);
  EXPECT_EQ(game.FollowersInSupply(0), 6);
}

// R6: a corner alone is not enough; the tile must share a full side with a placed tile.
TEST(RulingsPlay, R06_CornerContactIsNotEnough) {
  Game game = NewGame(2, 30, 10, {"plain", "plain", "plain"});
  Play(game, {"place 0 0 0", "follower none"});
  DrawIfNeeded(game);
  for (auto [x, y] : {std::pair{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}) {
    EXPECT_FALSE(HasPlacementAt(game, x, y)) << x << "," << y;
    EXPECT_EQ(game.Apply(1, Action::PlaceTile(x, y, 0), nullptr), Error::kNoNeighbour);
  }
  EXPECT_EQ(Try(game, "place 2 0 0"), Error::kNoNeighbour);
  EXPECT_TRUE(HasPlacementAt(game, 1, 0));
  Play(game, {"place 1 0 0", "follower none"});
  // (1,1) now shares its south side with (1,0): it is a legal cell, though still only touching
  // the first tile at a corner.
  DrawIfNeeded(game);
  EXPECT_TRUE(HasPlacementAt(game, 1, 1));
  EXPECT_FALSE(HasPlacementAt(game, -1, 1));
  EXPECT_EQ(Try(game, "place 1 1 0"), std::nullopt);
}

// R6: a street side meets a street side, a side without street one without; every placed
// neighbour counts, not just one. Markets may meet residential areas.
TEST(RulingsPlay, R06_StreetsMustContinueOnEverySide) {
  Game game = NewGame(2, 30, 10, {"straight", "plain", "plain", "curve", "cross4", "corner-fish"});
  Play(game, {"place 0 0 0", "follower none"});  // p0: street north-south
  // p1, plain: its sides have no street, so not north or south of the street.
  EXPECT_EQ(Try(game, "place 0 1 0"), Error::kStreetNotContinued);
  EXPECT_EQ(Try(game, "place 0 -1 0"), Error::kStreetNotContinued);
  EXPECT_FALSE(HasPlacementAt(game, 0, 1));
  Play(game, {"place 1 0 0", "follower none"});
  Play(game, {"place 1 1 0", "follower none"});  // p0, plain
  // p1, curve at (0,1): the street below needs a street on its south side, the plain tile to
  // the east one without street on its east side.
  EXPECT_EQ(Try(game, "place 0 1 1"), Error::kStreetNotContinued);  // east and south
  EXPECT_EQ(Try(game, "place 0 1 0"), Error::kStreetNotContinued);  // north and east
  EXPECT_EQ(Try(game, "place 0 1 3"), Error::kStreetNotContinued);  // west and north
  EXPECT_FALSE(IsLegal(game, Action::PlaceTile(0, 1, 1)));
  EXPECT_TRUE(IsLegal(game, Action::PlaceTile(0, 1, 2)));
  Play(game, {"place 0 1 2", "follower none"});  // south and west
  // p0, cross4: a street on every side; west of the straight street it would meet a side
  // without one; west of the curve it continues the curve's street.
  EXPECT_EQ(Try(game, "place -1 0 0"), Error::kStreetNotContinued);
  Play(game, {"place -1 1 0", "follower none"});
  // p1, a fish market in the south-west corner, against the plain tile's residential side.
  Play(game, {"place 2 0 2", "follower none"});
  EXPECT_EQ(game.TilesPlaced(), 6);
}

// R7: a tile that fits nowhere is discarded and the same player draws again; when that empties
// stack 1 mid-turn, the draw comes from stack 2, so the turn is a stack-2 turn (its scoring
// starts the first wall round). Wrong readings: the turn passes, the tile goes back into the
// stack, the turn still counts as stack 1.
TEST(RulingsPlay, R07_UnplaceableTileIsDiscardedAndTheNextStackServes) {
  // Stack 1: deadend, plain, plain, cross4. The cross4 has a street on every side and no
  // frontier cell takes one: every side it could touch has no street, or, at (0,1), one has.
  Game game = NewGame(2, 4, 10, {"deadend", "plain", "plain", "cross4", "deadend"});
  const int cross = game.Order()[3];
  Play(game, {"place 0 0 0", "follower 1",  // p0: street north, ends at the building
              "place 1 0 0", "follower none", "place 1 1 0", "follower none"});
  ASSERT_EQ(game.CurrentDecision(), Wants(kChance, DecisionKind::kDrawTile));
  EXPECT_EQ(game.counters().turn_player, 1);
  EXPECT_FALSE(game.TileFitsSomewhere(cross));

  std::vector<Event> events;
  ASSERT_FALSE(game.Apply(kChance, Action::Draw(cross), &events).has_value());
  ASSERT_EQ(Only<TileDiscarded>(events).size(), 1u);
  EXPECT_EQ(Only<TileDiscarded>(events)[0].tile, cross);
  EXPECT_TRUE(Only<TilePlaced>(events).empty());
  EXPECT_EQ(game.TilesDiscarded(), 1);
  EXPECT_EQ(game.StackLeft(0), 0);
  EXPECT_EQ(game.CurrentDecision(), Wants(kChance, DecisionKind::kDrawTile));
  EXPECT_EQ(game.counters().turn_player, 1);
  EXPECT_EQ(game.CurrentStack(), 2);

  events.clear();
  DrawIfNeeded(game, &events);
  ASSERT_EQ(Only<TileDrawn>(events).size(), 1u);
  EXPECT_EQ(Only<TileDrawn>(events)[0].stack, 2);
  EXPECT_EQ(Only<WallPhaseBegun>(events).size(), 1u);
  EXPECT_EQ(game.CurrentDecision(), Wants(1, DecisionKind::kPlaceTile));  // still p1's turn

  // p1's deadend from stack 2 completes p0's street: a stack-2 scoring, so a wall round.
  events = Play(game, {"place 0 1 2", "follower none"});
  EXPECT_EQ(FeaturePoints(events, 0), 2);
  EXPECT_EQ(Only<WallRoundBegun>(events).size(), 1u);
  EXPECT_EQ(game.CurrentDecision(), Wants(1, DecisionKind::kPlaceGate));
  EXPECT_EQ(game.TilesPlaced() + game.TilesDiscarded() + game.TilesLeft(),
            game.tiles().TileCount());
}

// R7, R24: when the last tile is unplaceable there is none left to draw: the last tile has been
// placed and the game ends (it does not wait for a draw that cannot come).
TEST(RulingsPlay, R07_NoTileLeftToDrawEndsTheGame) {
  const auto tiles = test::MakeTiles(
      "tile plain 2 a-a a-a a-a a-a a=residential\n"
      "tile cross4 1 a1b b2c c3d d4a a=residential b=residential c=residential d=residential "
      "1=crossing 2=crossing 3=crossing 4=crossing\n");
  Config config;
  config.players = 2;
  config.stack_sizes = {3, 0, 0};
  Game game = test::MakeGame(tiles, config, {0, 1, 2});
  Play(game, {"place 0 0 0", "follower none", "place 1 0 0", "follower none"});
  std::vector<Event> events;
  DrawIfNeeded(game, &events);
  EXPECT_EQ(Only<TileDiscarded>(events).size(), 1u);
  EXPECT_TRUE(game.IsOver());
  EXPECT_EQ(game.EndedBy(), EndCondition::kLastTilePlaced);
  EXPECT_EQ(Only<GameOver>(events).size(), 1u);
  EXPECT_EQ(game.TilesPlaced(), 2);
}

// R8, first clause: once walls exist, no tile on the cell just outside the gate or a wall piece.
// Growing elsewhere, even right next to such a cell along the walled stretch, stays allowed.
// Wrong readings: walls block nothing, or they block every cell near the wall.
TEST(RulingsPlay, R08_NoTileJustOutsideAWallPieceOrTheGate) {
  Game game = InletGame();
  DrawIfNeeded(game);
  {  // Before any wall, (1,-2) south of F takes the deadend (street south).
    Game before = game;
    EXPECT_EQ(Try(before, "place 1 -2 2"), std::nullopt);
  }
  Play(game, {"place -1 0 1", "follower none"});  // p0 scores: the first wall round
  // The gate on D's south side, then walls on F's and G's south sides: a straight stretch.
  Play(game, {"gate 0 -1 S", "wall back", "guard no", "wall back", "guard no", "tower none"});
  ASSERT_EQ(game.chain().PieceCount(), 2);
  EXPECT_EQ(game.chain().Piece(kBackEnd, 1).edge(), (core::CellSide{{2, -1}, core::kSouth}));

  DrawIfNeeded(game);  // p1, a plain tile
  ASSERT_EQ(game.CurrentDecision(), Wants(1, DecisionKind::kPlaceTile));
  EXPECT_EQ(Try(game, "place 0 -2 0"), Error::kBeyondWall);  // outside the gate
  EXPECT_EQ(Try(game, "place 1 -2 0"), Error::kBeyondWall);
  EXPECT_EQ(Try(game, "place 2 -2 0"), Error::kBeyondWall);
  for (int x = 0; x <= 2; ++x) EXPECT_FALSE(HasPlacementAt(game, x, -2));
  // Alongside the walled stretch: (3,-2) touches (2,-2), the outside of G's wall, which stays
  // joined to the open land. (-1,-1) continues the walled row to the west.
  EXPECT_TRUE(HasPlacementAt(game, 3, -2));
  EXPECT_TRUE(HasPlacementAt(game, -1, -1));
  Play(game, {"place 3 -2 0", "follower none"});
  DrawIfNeeded(game);
  Play(game, {"place -1 -1 0", "follower none"});
}

// R8, second clause: no tile that would cut the outside of the gate or a wall piece off from
// the open land (footnote 6: a tile may not surround the wall), even when that outside cell
// would keep an empty neighbour (a hole two cells wide) and the tile lies on no wall.
TEST(RulingsPlay, R08_NoTileThatCutsAWallOffTheOpenLand) {
  Game game = InletGame();
  DrawIfNeeded(game);
  {  // Before any wall the inlet may be closed (the deadend, street east, fits both cells).
    Game before = game;
    EXPECT_EQ(Try(before, "place 3 0 1"), std::nullopt);
    before = game;
    EXPECT_EQ(Try(before, "place 2 0 1"), std::nullopt);
  }
  Play(game, {"place -1 0 1", "follower none"});
  // The gate on W's east side, walls on F's north and B's south side: all three face (1,0).
  Play(game, {"gate 0 0 E", "wall front", "guard no", "wall back", "guard no", "tower none"});
  ASSERT_EQ(game.chain().Piece(kFrontEnd, 0).edge(), (core::CellSide{{1, -1}, core::kNorth}));
  ASSERT_EQ(game.chain().Piece(kBackEnd, 0).edge(), (core::CellSide{{1, 1}, core::kSouth}));

  DrawIfNeeded(game);  // p1, a plain tile
  EXPECT_EQ(Try(game, "place 1 0 0"), Error::kBeyondWall);
  // (3,0) closes the mouth: (1,0) and (2,0) become a hole. (2,0) leaves (1,0) alone in one.
  EXPECT_EQ(Try(game, "place 3 0 0"), Error::kWallSurrounded);
  EXPECT_EQ(Try(game, "place 2 0 0"), Error::kWallSurrounded);
  EXPECT_FALSE(HasPlacementAt(game, 3, 0));
  EXPECT_FALSE(HasPlacementAt(game, 2, 0));
  // Elsewhere the city still grows, also next to the inlet.
  EXPECT_TRUE(HasPlacementAt(game, 4, 1));
  EXPECT_TRUE(HasPlacementAt(game, 4, -1));
  Play(game, {"place 4 -1 0", "follower none"});
}

// ---------------------------------------------------------------------------------------------
// Followers

// R9: one follower, from the supply, on one feature of the tile just placed: a street segment
// (citizen), a market (seller) or a residential area (steward).
TEST(RulingsPlay, R09_OneFollowerOnAnyFeatureOfThePlacedTile) {
  Game game = NewGame(2, 30, 10, {"end-fish", "plain", "plain"}, 1);
  Play(game, {"place 0 0 0"});
  ASSERT_EQ(game.CurrentDecision(), Wants(0, DecisionKind::kPlaceFollower));
  EXPECT_EQ(Legal(game), (std::vector<Action>{Action::PlaceFollower(0), Action::PlaceFollower(1),
                                              Action::PlaceFollower(2), Action::PlaceFollower(3),
                                              Action::SkipFollower()}));
  const std::pair<char, FeatureKind> roles[] = {{'1', FeatureKind::kStreet},
                                                {'b', FeatureKind::kMarket},
                                                {'a', FeatureKind::kResidential},
                                                {'c', FeatureKind::kResidential}};
  for (const auto& [label, role] : roles) {
    SCOPED_TRACE(label);
    Game copy = game;
    std::vector<Event> events;
    ASSERT_FALSE(
        copy.Apply(0, Action::PlaceFollower(FeatureIndex(copy, label)), &events).has_value());
    ASSERT_EQ(Only<FollowerPlaced>(events).size(), 1u);
    EXPECT_EQ(Only<FollowerPlaced>(events)[0].role, role);
    EXPECT_EQ(Only<FollowerPlaced>(events)[0].x, 0);
    EXPECT_EQ(copy.FollowersInSupply(0), 0);
    // One follower per tile: the follower step is over.
    EXPECT_NE(copy.CurrentDecision().kind, DecisionKind::kPlaceFollower);
  }
  EXPECT_EQ(game.Apply(0, Action::PlaceFollower(4), nullptr), Error::kNoSuchFeature);
  Play(game, {"follower b"});
  Play(game, {"place 0 -1 0", "follower a"});  // p1
  // p0's supply (one follower) is empty.
  Play(game, {"place 1 0 0"});
  EXPECT_EQ(Legal(game), (std::vector<Action>{Action::SkipFollower()}));
  EXPECT_EQ(Try(game, "follower a"), Error::kNoFollowerLeft);
}

// R10: not on a feature that, joined across tile sides, already holds a follower: anybody's, the
// player's own included, at any distance. Features of the tile not joined to it stay free.
TEST(RulingsPlay, R10_NoFollowerOnAnOccupiedFeatureAtAnyDistance) {
  Game game = NewGame(2, 30, 10, {"straight", "straight", "straight", "straight"});
  Play(game, {"place 0 0 0", "follower 1"});  // p0: citizen
  Play(game, {"place 0 1 0"});                // p1
  EXPECT_EQ(Try(game, "follower 1"), Error::kFeatureOccupied);
  Play(game, {"follower a"});                                   // p1: steward west of the street
  Play(game, {"place 0 2 0"});                                  // p0
  EXPECT_EQ(Try(game, "follower 1"), Error::kFeatureOccupied);  // its own citizen, 2 tiles away
  EXPECT_EQ(Try(game, "follower a"), Error::kFeatureOccupied);  // p1's steward
  EXPECT_TRUE(IsLegal(game, Action::PlaceFollower(FeatureIndex(game, 'b'))));
  Play(game, {"follower b"});
  Play(game, {"place 0 3 0"});  // p1: three tiles from p0's citizen
  EXPECT_EQ(Try(game, "follower 1"), Error::kFeatureOccupied);
  EXPECT_EQ(Legal(game), (std::vector<Action>{Action::SkipFollower()}));
}

// R10: the tile that joins two occupied streets cannot take a follower on the joined street.
TEST(RulingsPlay, R10_StreetsJoinedByTheTileCount) {
  Game game = NewGame(3, 30, 10, {"deadend", "plain", "plain", "plain", "straight", "straight"});
  Play(game, {"place 0 0 1", "follower 1",     // p0: street east
              "place 0 1 0", "follower none",  // p1
              "place 1 1 0", "follower none",  // p2
              "place 2 1 0", "follower none",  // p0
              "place 2 0 1"});                 // p1: a separate street, east-west
  EXPECT_EQ(Try(game, "follower 1"), std::nullopt);
  Play(game, {"place 1 0 1"});  // p2 joins both streets (still open to the east)
  EXPECT_EQ(Try(game, "follower 1"), Error::kFeatureOccupied);
  EXPECT_EQ(Try(game, "follower a"), std::nullopt);  // the residential area north is free
}

// R11: not on a street or market that this very tile completes (unlike the other Carcassonne
// games, where one may and scores at once). Other features of the tile stay open to followers,
// residential areas even when the tile closes them.
TEST(RulingsPlay, R11_NoFollowerOnWhatTheTileCompletes) {
  {  // A street: two deadends facing each other.
    Game game = NewGame(2, 30, 10, {"deadend", "deadend"});
    Play(game, {"place 0 0 0", "follower none"});
    Play(game, {"place 0 1 2"});
    EXPECT_EQ(Try(game, "follower 1"), Error::kFeatureJustCompleted);
    EXPECT_FALSE(IsLegal(game, Action::PlaceFollower(FeatureIndex(game, '1'))));
    std::vector<Event> events = Play(game, {"follower a"});
    EXPECT_EQ(Scored(events, FeatureKind::kStreet).size(), 1u);
    EXPECT_EQ(FeaturePoints(events, 1), 0);
  }
  {  // A market: four market corners around one point.
    Game game = NewGame(2, 30, 10, {"corner-fish", "corner-grain", "corner-fish", "corner-grain"});
    Play(game, {"place 0 0 0", "follower none", "place 1 0 3", "follower none", "place 1 1 2",
                "follower none"});
    Play(game, {"place 0 1 1"});
    EXPECT_EQ(Try(game, "follower b"), Error::kFeatureJustCompleted);
    EXPECT_FALSE(IsLegal(game, Action::PlaceFollower(FeatureIndex(game, 'b'))));
    std::vector<Event> events = Play(game, {"follower a"});
    EXPECT_EQ(Scored(events, FeatureKind::kMarket).size(), 1u);
  }
  {  // A residential area the tile closes: stewards may go there (R11 names streets, markets).
    Game game = NewGame(2, 30, 10, {"corner-res", "corner-res", "corner-res", "corner-res"});
    Play(game, {"place 0 0 0", "follower none", "place 1 0 3", "follower none", "place 1 1 2",
                "follower none"});
    Play(game, {"place 0 1 1"});
    const core::FeatureId area =
        game.board().Root(game.board().FeatureOf(3, FeatureIndex(game, 'b')));
    ASSERT_TRUE(game.board().Info(area).Complete());
    EXPECT_EQ(Try(game, "follower b"), std::nullopt);
  }
}

// ---------------------------------------------------------------------------------------------
// Completing and scoring

// R12: a street ends at a crossing, a building or a market drawn on a tile; a street through a
// tile does not end there.
TEST(RulingsPlay, R12_StreetEndsAtCrossingBuildingOrMarket) {
  Game game = NewGame(2, 30, 10, {"cross4", "deadend", "end-fish", "straight", "deadend"});
  Play(game, {"place 0 0 0", "follower none"});
  std::vector<Event> events = Play(game, {"place 0 1 2", "follower none"});  // building
  ASSERT_EQ(Scored(events, FeatureKind::kStreet).size(), 1u);
  EXPECT_EQ(Scored(events, FeatureKind::kStreet)[0].tiles, 2);
  events = Play(game, {"place 1 0 3", "follower none"});  // market, the street from the west
  ASSERT_EQ(Scored(events, FeatureKind::kStreet).size(), 1u);
  EXPECT_EQ(Scored(events, FeatureKind::kStreet)[0].tiles, 2);
  events = Play(game, {"place 0 -1 0", "follower none"});  // a straight: still open
  EXPECT_TRUE(Only<FeatureScored>(events).empty());
  events = Play(game, {"place 0 -2 0", "follower none"});
  ASSERT_EQ(Scored(events, FeatureKind::kStreet).size(), 1u);
  EXPECT_EQ(Scored(events, FeatureKind::kStreet)[0].tiles, 3);
}

// R12: a street that closes on itself is complete, though it ends nowhere.
TEST(RulingsPlay, R12_StreetLoopIsComplete) {
  Game game = NewGame(2, 30, 10, {"curve", "curve", "curve", "curve"});
  std::vector<Event> events = Play(game, {"place 0 0 0", "follower 1",       // north and east
                                          "place 1 0 3", "follower none",    // west and north
                                          "place 1 1 2", "follower none"});  // south and west
  EXPECT_TRUE(Only<FeatureScored>(events).empty());
  events = Play(game, {"place 0 1 1", "follower none"});  // east and south: the loop closes
  ASSERT_EQ(Scored(events, FeatureKind::kStreet).size(), 1u);
  EXPECT_EQ(Scored(events, FeatureKind::kStreet)[0].tiles, 4);
  EXPECT_EQ(FeaturePoints(events, 0), 8);
  EXPECT_EQ(game.FollowersInSupply(0), 7);
}

// R12: a market is complete when every side that it touches meets a tile (or a wall), not
// before; the sides it does not touch do not matter.
TEST(RulingsPlay, R12_MarketNeedsEveryTouchedSideClosed) {
  Game game = NewGame(2, 30, 10, {"corner-fish", "plain", "plain"});
  Play(game, {"place 0 0 0", "follower b"});  // p0: seller; the market touches north and east
  std::vector<Event> events = Play(game, {"place 0 1 0", "follower none"});
  EXPECT_TRUE(Only<FeatureScored>(events).empty());
  events = Play(game, {"place 1 0 0", "follower none"});  // south and west stay open
  ASSERT_EQ(Scored(events, FeatureKind::kMarket).size(), 1u);
  EXPECT_EQ(Scored(events, FeatureKind::kMarket)[0].tiles, 1);
  EXPECT_EQ(FeaturePoints(events, 0), 1);
}

// R12, R21: a wall piece on a tile side ends the street that crosses it (the street of (1,0)
// ends at its building and leaves north), and a market is complete once walls close each side
// it touches. Both are scored at once, caused by the wall.
TEST(RulingsPlay, R12_WallsCompleteStreetsAndMarkets) {
  Game game = WallRoundGame(7);
  Play(game, {"place -1 0 1", "follower none", "gate 1 0 E"});
  std::vector<Event> events = Play(game, {"wall back"});  // on (1,0)'s north side
  ASSERT_EQ(Only<WallBuilt>(events).size(), 1u);
  EXPECT_EQ(Only<WallBuilt>(events)[0].side, core::kNorth);
  ASSERT_EQ(Scored(events, FeatureKind::kStreet).size(), 1u);
  EXPECT_EQ(Scored(events, FeatureKind::kStreet)[0].cause, ScoreCause::kWall);
  EXPECT_EQ(Scored(events, FeatureKind::kStreet)[0].tiles, 1);
  EXPECT_EQ(FeaturePoints(events, 1), 1);  // R13: one tile, one point

  events = Play(game, {"guard no", "wall front"});  // (2,-1) north: the market is half closed
  EXPECT_EQ(Only<WallBuilt>(events)[0].side, core::kNorth);
  EXPECT_TRUE(Only<FeatureScored>(events).empty());
  events = Play(game, {"guard no", "wall front"});  // (2,-1) east
  EXPECT_EQ(Only<WallBuilt>(events)[0].side, core::kEast);
  ASSERT_EQ(Scored(events, FeatureKind::kMarket).size(), 1u);
  EXPECT_EQ(Scored(events, FeatureKind::kMarket)[0].cause, ScoreCause::kWall);
}

// R13: streets score 1 point a tile with 1-3 tiles, 2 a tile with 4 or more (3 tiles: 3, not 6;
// 4 tiles: 8, not 4 or 5).
TEST(RulingsPlay, R13_StreetPointsDoubleFromFourTiles) {
  {
    Game game = NewGame(2, 30, 10, {"deadend", "straight", "deadend"});
    std::vector<Event> events = Play(game, {"place 0 0 0", "follower 1", "place 0 1 0",
                                            "follower none", "place 0 2 2", "follower none"});
    EXPECT_EQ(FeaturePoints(events, 0), 3);
  }
  {
    Game game = NewGame(2, 30, 10, {"deadend", "straight", "straight", "deadend"});
    std::vector<Event> events =
        Play(game, {"place 0 0 0", "follower 1", "place 0 1 0", "follower none", "place 0 2 0",
                    "follower none", "place 0 3 2", "follower none"});
    EXPECT_EQ(FeaturePoints(events, 0), 8);
    EXPECT_EQ(game.Score(0, kStreets), 8);
  }
}

// R13: tiles, not segments. The double curve's two segments join into one street around a
// 2x2 block, so the street has 7 segments on 6 tiles: 12 points, not 14.
TEST(RulingsPlay, R13_StreetCountsTilesNotSegments) {
  Game game = NewGame(2, 30, 10, {"double-curve", "curve", "curve", "curve", "deadend", "deadend"});
  std::vector<Event> events =
      Play(game, {"place 0 0 0", "follower 1",        // p0: north-west segment
                  "place 0 1 1", "follower none",     // east and south
                  "place 1 1 2", "follower none",     // south and west
                  "place 1 0 3", "follower none",     // west and north: both segments joined
                  "place -1 0 1", "follower none",    // the west end
                  "place 0 -1 0", "follower none"});  // the south end
  ASSERT_EQ(Scored(events, FeatureKind::kStreet).size(), 1u);
  EXPECT_EQ(Scored(events, FeatureKind::kStreet)[0].tiles, 6);
  EXPECT_EQ(FeaturePoints(events, 0), 12);
}

// R13: a market scores its tiles times its different kinds: four tiles, fish twice and grain
// twice, make 4 x 2 = 8 (not 4 x 4 by market areas, nor 4 + 2).
TEST(RulingsPlay, R13_MarketScoresTilesTimesKinds) {
  Game game = NewGame(2, 30, 10, {"corner-fish", "corner-grain", "corner-fish", "corner-grain"});
  std::vector<Event> events =
      Play(game, {"place 0 0 0", "follower b", "place 1 0 3", "follower none", "place 1 1 2",
                  "follower none", "place 0 1 1", "follower none"});
  ASSERT_EQ(Scored(events, FeatureKind::kMarket).size(), 1u);
  EXPECT_EQ(Scored(events, FeatureKind::kMarket)[0].tiles, 4);
  EXPECT_EQ(Scored(events, FeatureKind::kMarket)[0].market_kinds, 2);
  EXPECT_EQ(FeaturePoints(events, 0), 8);
  EXPECT_EQ(game.Score(0, kMarkets), 8);

  Game three =
      NewGame(2, 30, 10, {"corner-fish", "corner-grain", "corner-livestock", "corner-fish"});
  events = Play(three, {"place 0 0 0", "follower b", "place 1 0 3", "follower none", "place 1 1 2",
                        "follower none", "place 0 1 1", "follower none"});
  EXPECT_EQ(FeaturePoints(events, 0), 12);
}

// R14: tied majorities each score in full; the turn's player scores nothing for completing.
TEST(RulingsPlay, R14_TiedMajoritiesBothScore) {
  Game game = NewGame(3, 30, 10, {"deadend", "plain", "plain", "plain", "deadend", "straight"});
  Play(game, {"place 0 0 1", "follower 1",                                   // p0: street east
              "place 0 1 0", "follower none",                                // p1
              "place 1 1 0", "follower none",                                // p2
              "place 2 1 0", "follower none",                                // p0
              "place 2 0 3", "follower 1"});                                 // p1: street west
  std::vector<Event> events = Play(game, {"place 1 0 1", "follower none"});  // p2 joins them
  ASSERT_EQ(Scored(events, FeatureKind::kStreet).size(), 1u);
  EXPECT_EQ(FeaturePoints(events, 0), 3);
  EXPECT_EQ(FeaturePoints(events, 1), 3);
  EXPECT_EQ(FeaturePoints(events, 2), 0);
  EXPECT_EQ(Only<FollowerReturned>(events).size(), 2u);
  EXPECT_EQ(game.FollowersInSupply(0), 7);
  EXPECT_EQ(game.FollowersInSupply(1), 7);
}

// R14: two followers beat one: the minority scores nothing, but its follower goes home too.
TEST(RulingsPlay, R14_MinorityScoresNothing) {
  Game game = NewGame(3, 30, 10,
                      {"deadend", "plain", "plain", "plain", "plain", "plain", "straight",
                       "deadend", "straight", "straight"});
  Play(game, {"place 0 0 1", "follower 1",       // p0: street east
              "place 0 1 0", "follower none",    // p1
              "place 1 1 0", "follower none",    // p2
              "place 2 1 0", "follower none",    // p0
              "place 3 1 0", "follower none",    // p1
              "place 4 1 0", "follower none",    // p2
              "place 2 0 1", "follower 1",       // p0: a second, separate street
              "place 4 0 3", "follower 1",       // p1: a third, street west
              "place 1 0 1", "follower none"});  // p2 joins p0's two
  std::vector<Event> events = Play(game, {"place 3 0 1", "follower none"});  // p0 closes it
  ASSERT_EQ(Scored(events, FeatureKind::kStreet).size(), 1u);
  EXPECT_EQ(Scored(events, FeatureKind::kStreet)[0].tiles, 5);
  EXPECT_EQ(FeaturePoints(events, 0), 10);
  EXPECT_EQ(FeaturePoints(events, 1), 0);
  EXPECT_EQ(FeaturePoints(events, 2), 0);
  EXPECT_EQ(Only<FollowerReturned>(events).size(), 3u);
  EXPECT_EQ(game.FollowersInSupply(0), 7);
  EXPECT_EQ(game.FollowersInSupply(1), 7);
  EXPECT_EQ(game.TotalScore(1), 0);
}

// R15 with one follower each. p0's citizen comes back when p0's tile completes its street: the
// follower step of that turn has passed (p0 cannot use it on the tile), but it can guard in the
// wall round at once. p1's citizen comes back when p1's own wall piece ends its street, and can
// guard that very piece. From p0's next turn the follower is a citizen again.
TEST(RulingsPlay, R15_ReturnedFollowerCanGuardAtOnceButNotStandOnTheTile) {
  Game game = WallRoundGame(1);
  Play(game, {"place -1 0 1"});  // p0 completes its own street
  ASSERT_EQ(game.CurrentDecision(), Wants(0, DecisionKind::kPlaceFollower));
  EXPECT_EQ(game.FollowersInSupply(0), 0);
  EXPECT_EQ(Legal(game), (std::vector<Action>{Action::SkipFollower()}));
  EXPECT_EQ(Try(game, "follower a"), Error::kNoFollowerLeft);

  std::vector<Event> events = Play(game, {"follower none"});
  EXPECT_EQ(FeaturePoints(events, 0), 2);
  EXPECT_EQ(game.FollowersInSupply(0), 1);  // in the supply at once
  ASSERT_EQ(game.CurrentDecision(), Wants(0, DecisionKind::kPlaceGate));

  Play(game, {"gate 1 0 E"});
  events = Play(game, {"wall back"});  // p1's piece ends p1's street
  ASSERT_EQ(Only<FollowerReturned>(events).size(), 1u);
  EXPECT_EQ(Only<FollowerReturned>(events)[0].player, 1);
  EXPECT_EQ(game.FollowersInSupply(1), 1);
  ASSERT_EQ(game.CurrentDecision(), Wants(1, DecisionKind::kPlaceGuard));
  EXPECT_TRUE(IsLegal(game, Action::PlaceGuard()));
  events = Play(game, {"guard yes"});
  ASSERT_EQ(Only<GuardPlaced>(events).size(), 1u);
  EXPECT_EQ(Only<GuardPlaced>(events)[0].player, 1);
  EXPECT_EQ(Only<GuardPlaced>(events)[0].x, 1);
  EXPECT_EQ(Only<GuardPlaced>(events)[0].y, 0);
  EXPECT_EQ(Only<GuardPlaced>(events)[0].side, core::kNorth);
  EXPECT_EQ(game.FollowersInSupply(1), 0);

  Play(game, {"wall front"});  // p0
  ASSERT_EQ(game.CurrentDecision(), Wants(0, DecisionKind::kPlaceGuard));
  {
    Game guarded = game;
    EXPECT_TRUE(IsLegal(guarded, Action::PlaceGuard()));
    EXPECT_EQ(Try(guarded, "guard yes"), std::nullopt);
    EXPECT_EQ(guarded.FollowersInSupply(0), 0);
  }
  // p0 keeps its follower instead; from its next turn it is a citizen again.
  Play(game, {"guard no", "wall front"});
  EXPECT_EQ(Legal(game), (std::vector<Action>{Action::SkipGuard()}));  // p1 has none left
  Play(game, {"guard no", "tower none"});
  Play(game, {"place -2 -1 0", "follower none"});  // p1, plain
  Play(game, {"place -1 -2 2"});                   // p0, deadend with a street south
  EXPECT_EQ(Try(game, "follower 1"), std::nullopt);
  EXPECT_EQ(game.FollowersInSupply(0), 0);
}

// ---------------------------------------------------------------------------------------------
// Walls

// R16: the wall phase starts with the first tile drawn from stack 2: a scoring in the turn of
// the last tile of stack 1 builds nothing (though stack 1 is empty after it), the first scoring
// of a stack-2 turn starts a round.
TEST(RulingsPlay, R16_WallPhaseStartsWithTheFirstTileOfStackTwo) {
  Game game = NewGame(2, 2, 10, {"deadend", "deadend", "deadend", "deadend"});
  Play(game, {"place 0 0 0", "follower 1"});                                 // p0
  std::vector<Event> events = Play(game, {"place 0 1 2", "follower none"});  // p1, stack 1's last
  EXPECT_EQ(game.StackLeft(0), 0);
  EXPECT_EQ(FeaturePoints(events, 0), 2);
  EXPECT_TRUE(Only<WallRoundBegun>(events).empty());
  EXPECT_TRUE(Only<WallPhaseBegun>(events).empty());
  EXPECT_FALSE(game.chain().HasGate());
  EXPECT_EQ(game.CurrentDecision(), Wants(kChance, DecisionKind::kDrawTile));

  events = Play(game, {"place 1 0 1", "follower 1"});  // p0, stack 2: street east
  ASSERT_EQ(Only<TileDrawn>(events).size(), 1u);
  EXPECT_EQ(Only<TileDrawn>(events)[0].stack, 2);
  EXPECT_EQ(Only<WallPhaseBegun>(events).size(), 1u);
  EXPECT_TRUE(Only<WallRoundBegun>(events).empty());  // nothing scored

  events = Play(game, {"place 2 0 3", "follower none"});  // p1 completes p0's street
  EXPECT_EQ(FeaturePoints(events, 0), 2);
  EXPECT_EQ(Only<WallRoundBegun>(events).size(), 1u);
  EXPECT_EQ(game.CurrentDecision(), Wants(1, DecisionKind::kPlaceGate));
}

// R17: a street completed with no follower scores nobody and starts no round; a street that
// scores for somebody starts one, even when that is not the player whose turn it is.
TEST(RulingsPlay, R17_OnlyAScoringForSomebodyStartsARound) {
  Game game = NewGame(2, 1, 10, {"deadend", "deadend", "deadend", "deadend"});
  Play(game, {"place 0 0 0", "follower none"});  // p0, the whole of stack 1
  std::vector<Event> events = Play(game, {"place 0 1 2", "follower none"});  // p1, stack 2
  ASSERT_EQ(Scored(events, FeatureKind::kStreet).size(), 1u);
  EXPECT_EQ(FeaturePoints(events, 0) + FeaturePoints(events, 1), 0);
  EXPECT_TRUE(Only<WallRoundBegun>(events).empty());
  EXPECT_EQ(game.CurrentDecision(), Wants(kChance, DecisionKind::kDrawTile));
  EXPECT_FALSE(game.chain().HasGate());

  Play(game, {"place 1 0 1", "follower 1"});              // p0: street east
  events = Play(game, {"place 2 0 3", "follower none"});  // p1 completes it for p0
  EXPECT_EQ(FeaturePoints(events, 0), 2);
  EXPECT_EQ(FeaturePoints(events, 1), 0);
  ASSERT_EQ(Only<WallRoundBegun>(events).size(), 1u);
  EXPECT_EQ(game.CurrentDecision(), Wants(1, DecisionKind::kPlaceGate));
}

// R17: a scoring caused by a wall never triggers a round. The round of 2 players in stack 2
// (gate and 3 walls) scores p1's street and a market on the way, then ends with the tower step
// and the next player's draw.
TEST(RulingsPlay, R17_WallScoringStartsNoNewRound) {
  Game game = WallRoundGame(7);
  std::vector<Event> events =
      Play(game, {"place -1 0 1", "follower none", "gate 1 0 E", "wall back", "guard no",
                  "wall front", "guard no", "wall front", "guard no"});
  EXPECT_EQ(Only<WallRoundBegun>(events).size(), 1u);
  EXPECT_EQ(Only<GatePlaced>(events).size(), 1u);
  EXPECT_EQ(Only<WallBuilt>(events).size(), 3u);
  EXPECT_EQ(Scored(events, FeatureKind::kStreet).size(), 2u);  // p0's by the tile, p1's by a wall
  EXPECT_EQ(FeaturePoints(events, 1), 1);
  ASSERT_EQ(game.CurrentDecision(), Wants(0, DecisionKind::kPlaceTower));
  events = Play(game, {"tower none"});
  EXPECT_TRUE(Only<WallRoundBegun>(events).empty());
  EXPECT_EQ(game.CurrentDecision(), Wants(kChance, DecisionKind::kDrawTile));
  EXPECT_EQ(game.counters().turn_player, 1);
  EXPECT_EQ(game.WallsLeft(), 67);
  EXPECT_FALSE(game.IsOver());
}

}  // namespace
}  // namespace carc::city
