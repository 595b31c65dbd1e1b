// Conformance over many seeded random games: at every step the engine's contract holds.
//
// 10,000 games in 10 shards (2-4 players by seed). Cheap invariants are checked at every step of
// every game; the costlier ones on every step of a fixed subset of games, chosen by seed so any
// failure reproduces: every legal action applied to a clone (1 game in 97), a sample of five
// (1 in 4), sampled illegal actions (1 in 5), a client following the events (1 in 13), the wall
// and R8 against a full flood fill (1 in 3 and 1 in 7).
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "city/default_tiles.h"
#include "city/game.h"
#include "city/public_state.h"
#include "city/random_play.h"
#include "conformance_budget.h"
#include "scenario.h"

namespace carc::city {
namespace {

constexpr int kShards = 10;
constexpr int kGamesPerShard = 1000;

Game NewGame(uint64_t seed) {
  Config config;
  config.players = 2 + static_cast<int>(seed % 3);
  auto created = Game::Create(DefaultTileSet(), config, seed);
  return std::get<Game>(std::move(created));
}

int FollowersOnBoard(const Game& game, int player) {
  int n = 0;
  for (int i = 0; i < game.FollowerSpotCount(); ++i) n += game.Spot(i).player == player;
  const WallChain& chain = game.chain();
  for (int end = 0; end < 2; ++end) {
    for (int i = 0; i < chain.Count(end); ++i) n += chain.Piece(end, i).guard == player;
  }
  return n;
}

// A random action of any kind with random fields; most of them are illegal.
Action RandomAction(core::Random& random) {
  Action a;
  a.kind = static_cast<ActionKind>(random.Below(10));
  a.x = static_cast<int8_t>(static_cast<int>(random.Below(21)) - 10);
  a.y = static_cast<int8_t>(static_cast<int>(random.Below(21)) - 10);
  a.rotation = static_cast<uint8_t>(random.Below(5));
  a.side = static_cast<uint8_t>(random.Below(5));
  a.feature = static_cast<uint8_t>(random.Below(9));
  a.end = static_cast<uint8_t>(random.Below(3));
  a.tile = static_cast<uint8_t>(random.Below(80));
  return a;
}

void CheckStep(const Game& game, const std::vector<Action>& legal, const Game& before) {
  ASSERT_EQ(game.Hash(), game.RecomputeHash());
  ASSERT_TRUE(std::is_sorted(legal.begin(), legal.end()));
  ASSERT_TRUE(std::adjacent_find(legal.begin(), legal.end()) == legal.end()) << "duplicate action";
  ASSERT_EQ(legal.empty(), game.IsOver());
  ASSERT_EQ(game.TilesPlaced() + game.TilesDiscarded() + game.TilesLeft() +
                (game.counters().drawn_tile >= 0 ? 1 : 0),
            game.tiles().TileCount());
  for (int p = 0; p < game.players(); ++p) {
    ASSERT_EQ(game.FollowersInSupply(p) + FollowersOnBoard(game, p), game.config().followers);
    ASSERT_GE(game.FollowersInSupply(p), 0);
    for (int s = 0; s < kSourceCount; ++s) {
      ASSERT_GE(game.Score(p, static_cast<Source>(s)), before.Score(p, static_cast<Source>(s)));
    }
  }
}

void CheckIllegal(const Game& game, const std::vector<Action>& legal, core::Random& random) {
  for (int i = 0; i < 4; ++i) {
    const Action a = RandomAction(random);
    const bool is_legal = std::binary_search(legal.begin(), legal.end(), a);
    Game copy = game;
    std::vector<Event> events;
    // A legal action by the wrong actor, and random actions by the right one.
    const Actor wrong = game.CurrentDecision().actor == 0 ? 1 : 0;
    if (!legal.empty()) {
      ASSERT_EQ(copy.Apply(wrong, legal[0], &events), Error::kWrongPlayer);
    }
    if (!is_legal) {
      ASSERT_TRUE(copy.Apply(game.CurrentDecision().actor, a, &events).has_value());
    }
    ASSERT_TRUE(events.empty());
    ASSERT_TRUE(copy == game);
  }
}

void CheckAllLegalApply(const Game& game, const std::vector<Action>& legal) {
  for (const Action& a : legal) {
    Game copy = game;
    ASSERT_FALSE(copy.Apply(game.CurrentDecision().actor, a, nullptr).has_value())
        << ToString(a.kind);
    ASSERT_EQ(copy.Hash(), copy.RecomputeHash());
  }
}

// The outline found by walking it (FindOutlineSides, used for the gate and the closing wall)
// against a full flood fill of the open land; and what the board keeps of each frontier cell
// (the tiles around it, the closed sides it faces, used by R8) against the grid.
void CheckOutlineAndFrontier(const Game& game) {
  const core::Board& board = game.board();
  if (board.TileCount() == 0) return;
  OpenLand land;
  land.Compute(board);
  OutlineSides walked;
  const int count = FindOutlineSides(board, &walked);
  int expected_count = 0;
  for (int i = 0; i < board.TileCount(); ++i) {
    for (int side = 0; side < core::kSides; ++side) {
      const bool on_outline = IsOutlineEdge(board, land, {board.Placed(i).cell(), side});
      expected_count += on_outline ? 1 : 0;
      ASSERT_EQ(on_outline, (walked[static_cast<size_t>(i)] >> side & 1u) != 0)
          << "tile " << i << " side " << side;
    }
  }
  ASSERT_EQ(count, expected_count);
  for (int i = 0; i < board.FrontierSize(); ++i) {
    const core::Board::FrontierEntry& entry = board.Frontier(i);
    const Cell c = entry.cell();
    uint8_t ring = 0;
    for (int k = 0; k < 8; ++k) {
      if (board.HasTile(core::Board::RingCell(c, k))) ring |= static_cast<uint8_t>(1u << k);
    }
    ASSERT_EQ(entry.ring, ring);
    uint8_t closed = 0;
    for (int side = 0; side < core::kSides; ++side) {
      const int n = board.IndexAt(core::Neighbour(c, side));
      if (n >= 0 && (board.Placed(n).closed_sides >> core::Opposite(side) & 1u) != 0)
        closed |= static_cast<uint8_t>(1u << side);
    }
    ASSERT_EQ(entry.closed_sides, closed);
    ASSERT_EQ(board.FacesClosedSide(c), closed != 0);
  }
}

// The wall's invariants, checked against a full flood fill of the open land: every piece lies
// between a tile and open land (R19), and the closing distance equals the outline's length less
// the pieces on it (the chain is one stretch of the outline loop, R24).
void CheckWallAgainstFloodFill(const Game& game) {
  const WallChain& chain = game.chain();
  if (!chain.HasGate()) return;
  OpenLand land;
  land.Compute(game.board());
  int outline = 0;
  for (int i = 0; i < game.board().TileCount(); ++i) {
    for (int side = 0; side < core::kSides; ++side) {
      outline += IsOutlineEdge(game.board(), land, {game.board().Placed(i).cell(), side});
    }
  }
  ASSERT_TRUE(IsOutlineEdge(game.board(), land, chain.Gate().edge()));
  for (int end = 0; end < 2; ++end) {
    for (int i = 0; i < chain.Count(end); ++i) {
      ASSERT_TRUE(IsOutlineEdge(game.board(), land, chain.Piece(end, i).edge()));
    }
  }
  const int expected = chain.Closed() ? 0 : outline - 1 - chain.PieceCount();
  ASSERT_EQ(game.UnwalledDistance(), expected);
}

// R8 by brute force: the legal placements are the frontier cells and rotations where streets
// continue, the cell is not just outside a piece, and a flood fill with the tile placed still
// reaches every piece's outside.
void CheckPlacementsAgainstFloodFill(const Game& game, const std::vector<Action>& legal) {
  const core::Board& board = game.board();
  const WallChain& chain = game.chain();
  if (board.TileCount() == 0) return;
  std::vector<Cell> outsides;
  if (chain.HasGate()) outsides.push_back(chain.Gate().outside());
  for (int end = 0; end < 2; ++end) {
    for (int i = 0; i < chain.Count(end); ++i) outsides.push_back(chain.Piece(end, i).outside());
  }
  const core::TileType& type = game.tiles().TypeOf(game.counters().drawn_tile);
  std::vector<Action> expected;
  for (int i = 0; i < board.FrontierSize(); ++i) {
    const Cell c = board.FrontierCell(i);
    bool allowed = std::find(outsides.begin(), outsides.end(), c) == outsides.end();
    if (allowed && !outsides.empty()) {
      OpenLand land;
      land.Compute(board, &c);
      for (Cell o : outsides) allowed = allowed && land.IsOpen(o);
    }
    for (int r = 0; allowed && r < 4; ++r) {
      if (board.Context(c).Fits(type.street_sides_rotated[static_cast<size_t>(r)])) {
        expected.push_back(Action::PlaceTile(c.x, c.y, r));
      }
    }
  }
  std::sort(expected.begin(), expected.end());
  ASSERT_EQ(expected, legal);
}

// Up to five legal actions (all of them when there are no more), each applied to a clone.
void CheckSampleOfLegalApply(const Game& game, const std::vector<Action>& legal,
                             core::Random& random) {
  if (legal.size() <= 5) {
    CheckAllLegalApply(game, legal);
    return;
  }
  std::vector<Action> sample = {legal.front(), legal.back()};
  for (int i = 0; i < 3; ++i)
    sample.push_back(legal[static_cast<size_t>(random.Below(legal.size()))]);
  CheckAllLegalApply(game, sample);
}

void PlayAndCheck(uint64_t seed) {
  Game game = NewGame(seed);
  const bool deep = seed % 97 == 0;    // every legal action, at every step
  const bool follow = seed % 13 == 0;  // a client follows the events
  core::Random choices = ChoiceRandom(seed);
  core::Random probes(seed * 31 + 7);
  PublicState client = PublicState::Initial(game.config());
  if (follow) {
    ASSERT_TRUE(client == game.Public());
  }
  std::vector<Action> legal;
  std::vector<Event> events;
  int steps = 0;
  while (!game.IsOver()) {
    ASSERT_LT(++steps, 2000) << "the game must end";
    game.LegalActions(&legal);
    const Game before = game;
    ASSERT_TRUE(before == game);
    if (deep) {
      CheckAllLegalApply(game, legal);
    } else if (seed % 4 == 0) {
      CheckSampleOfLegalApply(game, legal, probes);
    }
    if (seed % 7 == 0 && game.CurrentDecision().kind == DecisionKind::kPlaceTile) {
      ASSERT_NO_FATAL_FAILURE(CheckPlacementsAgainstFloodFill(game, legal));
    }
    if (seed % 5 == 0) CheckIllegal(game, legal, probes);
    const Action action = legal[static_cast<size_t>(choices.Below(legal.size()))];
    events.clear();
    ASSERT_FALSE(game.Apply(game.CurrentDecision().actor, action, &events).has_value());
    ASSERT_FALSE(events.empty());
    game.LegalActions(&legal);
    CheckStep(game, legal, before);
    if (seed % 3 == 0) {
      ASSERT_NO_FATAL_FAILURE(CheckWallAgainstFloodFill(game));
      ASSERT_NO_FATAL_FAILURE(CheckOutlineAndFrontier(game));
    }
    if (follow) {
      for (const Event& e : events) client.Apply(e);
      ASSERT_TRUE(client == game.Public()) << "step " << steps;
      ASSERT_EQ(client.Hash(), game.Hash());
    }
  }
  EXPECT_EQ(game.Apply(kChance, Action::Draw(0), nullptr), Error::kGameOver);
  EXPECT_NE(game.EndedBy(), EndCondition::kNone);

  // Replaying the action list on a fresh game reaches the same state.
  Game replay = NewGame(seed);
  for (const HistoryEntry& entry : game.History()) {
    ASSERT_FALSE(replay.Apply(entry.actor, entry.action, nullptr).has_value());
  }
  ASSERT_EQ(replay.Hash(), game.Hash());
  ASSERT_TRUE(replay == game);
}

// A second family reaches the wall's end conditions, which uniformly random games seldom do
// (they nearly always run out of tiles first): players who place a follower whenever they can
// (so more features score and more walls are built), and smaller wall supplies.
struct Variant {
  int walls;
  std::array<int, 3> stacks;
  int closing_distance;
};

// Plays one eager game with a full check at every step; returns how it ended.
EndCondition PlayEager(uint64_t seed, const Variant& variant) {
  Config config;
  config.players = 2 + static_cast<int>(seed % 3);
  config.walls = variant.walls;
  config.stack_sizes = variant.stacks;
  config.closing_distance = variant.closing_distance;
  Game game = std::get<Game>(Game::Create(DefaultTileSet(), config, seed));
  core::Random random = ChoiceRandom(seed);
  std::vector<Action> legal;
  PublicState client = PublicState::Initial(config);
  std::vector<Event> events;
  while (!game.IsOver()) {
    game.LegalActions(&legal);
    const Game before = game;
    events.clear();
    EXPECT_FALSE(game.Apply(game.CurrentDecision().actor, EagerChoice(legal, random), &events));
    game.LegalActions(&legal);
    CheckStep(game, legal, before);
    CheckWallAgainstFloodFill(game);
    CheckOutlineAndFrontier(game);
    for (const Event& e : events) client.Apply(e);
    EXPECT_EQ(client.Hash(), game.Hash());
    if (::testing::Test::HasFatalFailure() || ::testing::Test::HasNonfatalFailure()) break;
  }
  EXPECT_TRUE(client == game.Public());
  return game.EndedBy();
}

TEST(ConformanceEager, EveryEndConditionOccursAndEveryInvariantHolds) {
  std::array<int, 5> ended{};
  // The last two start the wall with the city's first tiles, so the chain can wrap it whole.
  const std::array<Variant, 5> variants = {{{70, {30, 25, 20}, 5},
                                            {8, {30, 25, 20}, 5},
                                            {70, {10, 25, 40}, 20},
                                            {70, {1, 1, 73}, 0},
                                            {70, {2, 3, 70}, 0}}};
  for (size_t v = 0; v < variants.size(); ++v) {
    for (uint64_t g = 1; g <= 250; ++g) {
      const uint64_t seed = g * 100 + v;
      const EndCondition end = PlayEager(seed, variants[v]);
      ASSERT_FALSE(HasFailure()) << "seed " << seed << ", variant " << v;
      ++ended[static_cast<size_t>(end)];
    }
  }
  for (EndCondition c : {EndCondition::kLastWallBuilt, EndCondition::kLastTilePlaced,
                         EndCondition::kWallNearlyClosed, EndCondition::kWallClosed}) {
    EXPECT_GT(ended[static_cast<size_t>(c)], 0) << ToString(c) << " never ended a game";
  }
  std::printf("eager games ended by: last wall %d, last tile %d, nearly closed %d, closed %d\n",
              ended[1], ended[2], ended[3], ended[4]);
}

class Conformance : public ::testing::TestWithParam<int> {};

TEST_P(Conformance, RandomGamesKeepEveryInvariant) {
  const int shard = GetParam();
  for (int g = 0; g < test::kConformanceGamesPlayed; ++g) {
    const uint64_t seed = static_cast<uint64_t>(shard * kGamesPerShard + g + 1);
    ASSERT_NO_FATAL_FAILURE(PlayAndCheck(seed)) << "seed " << seed;
  }
}

INSTANTIATE_TEST_SUITE_P(Shards, Conformance, ::testing::Range(0, kShards));

TEST(Conformance, SameSeedSameGame) {
  for (uint64_t seed : {1u, 2u, 77u, 123456789u}) {
    Game a = NewGame(seed);
    Game b = NewGame(seed);
    ASSERT_EQ(a.Order(), b.Order());
    core::Random ra = ChoiceRandom(seed), rb = ChoiceRandom(seed);
    PlayBuffers buffers;
    while (RandomStep(a, ra, buffers)) {
    }
    while (RandomStep(b, rb, buffers)) {
    }
    EXPECT_TRUE(a == b);
    EXPECT_EQ(a.History(), b.History());
  }
}

TEST(Conformance, DrawnOrderIsRecoverableFromTheActions) {
  Game game = NewGame(42);
  core::Random random = ChoiceRandom(42);
  PlayBuffers buffers;
  while (RandomStep(game, random, buffers)) {
  }
  std::vector<int> drawn;
  for (const HistoryEntry& e : game.History()) {
    if (e.action.kind == ActionKind::kDraw) drawn.push_back(e.action.tile);
  }
  const std::vector<int> order = game.Order();
  ASSERT_LE(drawn.size(), order.size());
  EXPECT_TRUE(std::equal(drawn.begin(), drawn.end(), order.begin()));
}

}  // namespace
}  // namespace carc::city
