// The Castle's rules, each on a board built for it: the rule book's worked examples with their
// exact points, and the rules docs/rules.md states ("The Castle"), including its decisions where
// the rule book is silent.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <sstream>
#include <string>
#include <vector>

#include "castle/default_data.h"
#include "castle/game.h"
#include "castle/notation.h"
#include "castle/public_state.h"
#include "castle/random_play.h"

namespace carc::castle {
namespace {

// A game whose first draws are the named tile types (one copy each, in that order), then every
// other castle tile in id order; the wall as given (13 numbers) or shuffled from the seed.
Game Scenario(const std::vector<std::string>& first, std::vector<int> wall = {}) {
  const auto tiles = DefaultTileSet();
  std::vector<int> order;
  std::vector<bool> used(static_cast<size_t>(tiles->TileCount()), false);
  for (const std::string& name : first) {
    for (int id = 0; id < tiles->TileCount(); ++id) {
      if (!used[static_cast<size_t>(id)] && tiles->TypeOf(id).name == name) {
        used[static_cast<size_t>(id)] = true;
        order.push_back(id);
        break;
      }
    }
  }
  EXPECT_EQ(order.size(), first.size()) << "unknown or exhausted tile type";
  for (int id = 0; id < tiles->TileCount(); ++id) {
    if (!used[static_cast<size_t>(id)] && tiles->TypeOf(id).role != core::TileRole::kStartSpace) {
      order.push_back(id);
    }
  }
  Config config;
  config.layout = DefaultLayout();
  auto created = Game::CreateWithOrder(tiles, config, 1, order, wall);
  EXPECT_TRUE(std::holds_alternative<Game>(created));
  return std::get<Game>(std::move(created));
}

// Applies one line of the notation for whoever must decide; the events it caused.
std::vector<Event> Play(Game& game, const std::string& line) {
  auto parsed = ParseAction(game, line);
  EXPECT_TRUE(std::holds_alternative<ParsedAction>(parsed)) << line;
  if (!std::holds_alternative<ParsedAction>(parsed)) return {};
  std::vector<Event> events;
  const auto error =
      game.Apply(game.CurrentDecision().actor, std::get<ParsedAction>(parsed).action, &events);
  EXPECT_FALSE(error.has_value()) << line << ": " << (error ? Describe(*error) : "");
  return events;
}

// Draws the next tile, places it, and answers the follower decision.
std::vector<Event> Turn(Game& game, const std::string& place, const std::string& follower) {
  Play(game, "draw " + std::to_string(game.Order()[static_cast<size_t>(game.TilesDrawn())]));
  Play(game, place);
  return Play(game, follower);
}

template <typename T>
std::vector<T> All(const std::vector<Event>& events) {
  std::vector<T> out;
  for (const Event& e : events) {
    if (const auto* t = std::get_if<T>(&e)) out.push_back(*t);
  }
  return out;
}

// The rule book, p. 3-4: a tower completed and scored in the turn its knight is placed, the
// knight back in the supply at once. The tower segment on start space 40 counts as a tile: a
// tower of 2 tiles scores 4 points.
TEST(CastleExamples, ATowerWithAStartSpaceSegmentScoresFourAndItsKnightReturns) {
  // CT19: a tower in the north-west corner (north and west halves). At (4, 12), its north side
  // is against the wall and its west side against start space 40's tower.
  Game game = Scenario({"CT19"});
  const auto events = Turn(game, "place 4 12 0", "follower a");
  const auto scored = All<FeatureScored>(events);
  ASSERT_EQ(scored.size(), 1u);
  EXPECT_EQ(scored[0].kind, core::FeatureKind::kTower);
  EXPECT_EQ(scored[0].tiles, 2);
  EXPECT_EQ(scored[0].points[0], 4);
  EXPECT_EQ(game.Score(0, kTowers), 4);
  EXPECT_EQ(All<FollowerReturned>(events).size(), 1u);
  EXPECT_EQ(game.FollowersInSupply(0), 6);
}

// The rule book, p. 3: a path scores 1 point per tile, and a path segment on a start space counts
// as a tile. Start space 74's path meets a path that ends at a building: 2 tiles, 2 points. The
// start space's house segment, now walled in by the tile's court, is a completed house of one
// tile that nobody holds: it scores nothing.
TEST(CastleExamples, APathWithAStartSpaceSegmentScoresOnePointPerTile) {
  Game game = Scenario({"CT24"});
  const auto events = Turn(game, "place 8 5 1", "follower 1");
  const auto scored = All<FeatureScored>(events);
  ASSERT_EQ(scored.size(), 2u);
  EXPECT_EQ(scored[0].kind, core::FeatureKind::kHouse);
  EXPECT_EQ(scored[0].tiles, 1);
  EXPECT_EQ(scored[0].points[0] + scored[0].points[1], 0);
  EXPECT_EQ(scored[1].kind, core::FeatureKind::kStreet);
  EXPECT_EQ(scored[1].tiles, 2);
  EXPECT_EQ(scored[1].points[0], 2);
  EXPECT_EQ(game.Score(0, kPaths), 2);
}

// The rule book, p. 4: a path with a fountain scores 2 points per tile. Start space 18's path
// carries one.
TEST(CastleExamples, APathWithAFountainScoresTwoPointsPerTile) {
  Game game = Scenario({"CT24"});
  const auto events = Turn(game, "place 4 7 3", "follower 1");
  const auto scored = All<FeatureScored>(events);
  ASSERT_EQ(scored.size(), 1u);
  EXPECT_EQ(scored[0].symbols, 1);
  EXPECT_EQ(scored[0].points[0], 4);
}

// The rule book, p. 4: two heralds placed on separate paths, joined later; the path completes with
// one herald each, so neither player scores it, and both heralds return.
TEST(CastleExamples, ATieOnACompletedPathScoresForNobody) {
  Game game = Scenario({"CT14", "CT03", "CT26", "CT15"});
  Turn(game, "place 8 5 0", "follower 1");     // p0: a straight path from start space 74, westwards
  Turn(game, "place 8 4 0", "follower 1");     // p1: a straight path from the wall, westwards
  Turn(game, "place 7 5 0", "follower none");  // p0: a bend from the east down to the south
  const auto events = Turn(game, "place 7 4 1", "follower none");  // p1: a bend joins both
  const auto scored = All<FeatureScored>(events);
  const auto path = std::find_if(scored.begin(), scored.end(), [](const FeatureScored& s) {
    return s.kind == core::FeatureKind::kStreet;
  });
  ASSERT_NE(path, scored.end());
  EXPECT_EQ(path->tiles, 5);  // the start space and four tiles
  EXPECT_EQ(path->points[0], 0);
  EXPECT_EQ(path->points[1], 0);
  EXPECT_EQ(All<FollowerReturned>(events).size(), 2u);
  EXPECT_EQ(game.TotalScore(0) + game.TotalScore(1), 0);
  EXPECT_EQ(game.FollowersInSupply(0), 6);
  EXPECT_EQ(game.FollowersInSupply(1), 6);
}

// A game of a few castle tiles only (and the start spaces): it ends when they are placed.
Game ShortGame(const std::vector<std::string>& types) {
  std::string text;
  std::istringstream lines{std::string(DefaultTileSetText())};
  for (std::string line; std::getline(lines, line);) {
    const bool castle_tile = line.rfind("tile CT", 0) == 0;
    bool wanted = !castle_tile;
    for (const std::string& type : types) {
      wanted = wanted || line.rfind("tile " + type + " ", 0) == 0;
    }
    if (wanted) text += line + "\n";
  }
  auto parsed = core::ParseTileSet(text);
  EXPECT_TRUE(std::holds_alternative<std::shared_ptr<const core::TileSet>>(parsed));
  const auto tiles = std::get<std::shared_ptr<const core::TileSet>>(parsed);
  std::vector<int> order;
  for (const std::string& type : types) {
    for (int id = 0; id < tiles->TileCount(); ++id) {
      if (tiles->TypeOf(id).name == type) order.push_back(id);
    }
  }
  Config config;
  config.layout = DefaultLayout();
  return std::get<Game>(Game::CreateWithOrder(tiles, config, 1, order));
}

// The rule book, p. 5: a court scores at the end, 3 points per market on it, the market on the
// start space included, for the player with the most merchants: 5 markets, 15 points.
TEST(CastleExamples, ACourtWithFiveMarketsScoresFifteenAtTheEnd) {
  Game game = ShortGame({"CT13", "CT29", "CT38", "CT31"});
  Turn(game, "place 4 1 0", "follower a");     // p0: a merchant; start space 94's market joins
  Turn(game, "place 5 1 3", "follower none");  // p1: the court continues east, a market on it
  Turn(game, "place 3 1 1", "follower none");  // p0: and west, with a market
  const auto events = Turn(game, "place 4 2 0", "follower none");  // p1: and north, a market
  ASSERT_TRUE(game.IsOver());
  const auto scored = All<FeatureScored>(events);
  ASSERT_EQ(scored.size(), 1u);
  EXPECT_EQ(scored[0].kind, core::FeatureKind::kCourt);
  EXPECT_EQ(scored[0].symbols, 5);
  EXPECT_FALSE(scored[0].complete);
  EXPECT_EQ(scored[0].points[0], 15);
  EXPECT_EQ(game.Score(0, kCourts), 15);
  EXPECT_EQ(game.FollowersInSupply(0), 5);  // merchants never return
}

// The rule book, p. 2: the first tile touches a start space along a full side; later tiles touch
// a start space or a placed tile; tiles lie inside the wall; paths continue.
TEST(CastleExamples, PlacementRules) {
  Game game = Scenario({"CT24", "CT19"});
  Play(game, "draw " + std::to_string(game.Order()[0]));
  const int tile = game.counters().drawn_tile;
  EXPECT_EQ(game.CheckPlacement(tile, {6, 6}, 0), Error::kNoNeighbour);
  EXPECT_EQ(game.CheckPlacement(tile, {0, 0}, 0), Error::kOutsideCastle);
  EXPECT_EQ(game.CheckPlacement(tile, {1, 3}, 0), Error::kOutsideCastle);  // the wall itself
  // Start space 74 shows a path: a tile there must continue it, and only it.
  EXPECT_EQ(game.CheckPlacement(tile, {8, 5}, 0), Error::kPathNotContinued);
  EXPECT_FALSE(game.CheckPlacement(tile, {8, 5}, 1).has_value());
  // Start space 40 shows no path: a path may not run into it.
  EXPECT_EQ(game.CheckPlacement(tile, {4, 12}, 3), Error::kPathNotContinued);
  EXPECT_FALSE(game.CheckPlacement(tile, {4, 12}, 0).has_value());
  std::vector<Action> legal;
  game.LegalActions(&legal);
  for (const Action& a : legal) {
    const Cell c{a.x, a.y};
    bool touches_start = false;
    for (const PublicTile& start : game.StartTiles()) {
      for (int side = 0; side < core::kSides; ++side) {
        touches_start = touches_start || core::Neighbour(c, side) == Cell{start.x, start.y};
      }
    }
    EXPECT_TRUE(touches_start) << a.x << " " << a.y;
  }
}

// The rule book, p. 3: no follower on a feature that already holds one, even far away.
TEST(CastleExamples, NoFollowerOnAFeatureThatHoldsOne) {
  // CT35's tower covers all but its north-west corner. At (5, 12) turned so that its tower meets
  // the tower of a CT19 at (4, 12)... the first one holds a knight, so the second may not.
  Game game = Scenario({"CT37", "CT37"});
  Turn(game, "place 4 12 2", "follower b");  // the tower against start space 40, not closed
  Play(game, "draw " + std::to_string(game.Order()[1]));
  Play(game, "place 5 12 2");
  EXPECT_EQ(game.Apply(1, Action::PlaceFollower(1), nullptr), Error::kFeatureOccupied);
  EXPECT_FALSE(game.Apply(1, Action::PlaceFollower(0), nullptr).has_value());  // its court
}

// Every score a game reports follows the rule book's table, and a tie scores for nobody
// (p. 4): checked on every FeatureScored of many eager games against the feature as it was.
TEST(CastleExamples, EveryScoreFollowsThePointTable) {
  int ties = 0, doubled = 0, courts = 0;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    Config config;
    config.layout = DefaultLayout();
    Game game = std::get<Game>(Game::Create(DefaultTileSet(), config, seed));
    core::Random random = ChoiceRandom(seed);
    std::vector<Action> legal;
    std::vector<Event> events;
    while (!game.IsOver()) {
      game.LegalActions(&legal);
      const Game before = game;
      events.clear();
      ASSERT_FALSE(game.Apply(game.CurrentDecision().actor, EagerChoice(legal, random), &events));
      for (const Event& e : events) {
        const auto* s = std::get_if<FeatureScored>(&e);
        if (s == nullptr) continue;
        const int index = before.board().IndexAt({s->x, s->y});
        const core::FeatureId root = before.board().FeatureOf(index, s->feature);
        const core::FeatureId r = before.board().Root(root);
        const core::FeatureInfo& info = before.board().Info(r);
        // The followers on it as it scores: those before the action, and one placed by it.
        std::array<int, 2> followers = {info.followers[0], info.followers[1]};
        for (const Event& placed : events) {
          const auto* f = std::get_if<FollowerPlaced>(&placed);
          if (f != nullptr && before.board().Root(before.board().FeatureOf(
                                  before.board().IndexAt({f->x, f->y}), f->feature)) == r) {
            ++followers[f->player];
          }
        }
        const int holder = followers[0] > followers[1] ? 0 : followers[1] > followers[0] ? 1 : -1;
        const int per_tile = s->kind == core::FeatureKind::kTower   ? 2
                             : s->kind == core::FeatureKind::kHouse ? 1
                             : info.symbols > 0                     ? 2
                                                                    : 1;
        int expected =
            s->kind == core::FeatureKind::kCourt ? 3 * info.symbols : per_tile * info.TileCount();
        if (s->wall == static_cast<int>(WallTile::kDoubleTower) ||
            s->wall == static_cast<int>(WallTile::kDoubleHouse)) {
          expected *= 2;
          ++doubled;
        }
        if (s->wall == static_cast<int>(WallTile::kMarkets)) expected = 4 * info.symbols;
        courts += s->kind == core::FeatureKind::kCourt;
        if (holder < 0) {
          ++ties;
          EXPECT_EQ(s->points[0] + s->points[1], 0);
        } else {
          EXPECT_EQ(s->points[static_cast<size_t>(holder)], expected) << "seed " << seed;
          EXPECT_EQ(s->points[static_cast<size_t>(1 - holder)], 0);
        }
      }
    }
  }
  EXPECT_GT(ties, 0);
  EXPECT_GT(doubled, 0);
  EXPECT_GT(courts, 0);
}

// The rule book, p. 5: the largest keep scores the largest connected area of empty squares; a
// tie in keeps scores nothing; wall tile 8 adds 2 tiles. And a marker that ends exactly on a
// corner tower takes the wall tile there (p. 5), never one it passes.
TEST(CastleExamples, KeepsAndWallTilesAtTheEnd) {
  int keeps = 0, taken = 0, moved = 0;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    Config config;
    config.layout = DefaultLayout();
    Game game = std::get<Game>(Game::Create(DefaultTileSet(), config, seed));
    const std::vector<int> wall = game.WallLayout();
    std::array<int, 2> keep_size = {0, 0};
    core::Random random = ChoiceRandom(seed);
    std::vector<Action> legal;
    std::vector<Event> events;
    while (!game.IsOver()) {
      game.LegalActions(&legal);
      const Game before = game;
      events.clear();
      ASSERT_FALSE(game.Apply(game.CurrentDecision().actor, EagerChoice(legal, random), &events));
      for (const Event& e : events) {
        if (const auto* t = std::get_if<WallTileTaken>(&e)) {
          ++taken;
          EXPECT_EQ(t->wall, wall[t->corner]);
          EXPECT_NE(game.layout().CornerAt(before.counters().player[t->player].Position()),
                    t->corner)
              << "a marker already on the corner does not take its tile again";
        }
        if (const auto* k = std::get_if<KeepPlaced>(&e)) {
          // The keep goes on the first house scored, then moves only to a larger one.
          EXPECT_GT(k->size, keep_size[k->player]);
          moved += keep_size[k->player] > 0;
          keep_size[k->player] = k->size;
        }
        if (const auto* k = std::get_if<KeepScored>(&e)) {
          EXPECT_EQ(k->area, before.LargestEmptyArea());
          const int a = k->sizes[0], b = k->sizes[1];
          EXPECT_EQ(k->points[0], a > b ? k->area : 0);
          EXPECT_EQ(k->points[1], b > a ? k->area : 0);
          keeps += a != b;
        }
      }
      for (int p = 0; p < 2; ++p) {
        // Wall tiles are taken where the marker stands, and only there.
        const int corner = game.layout().CornerAt(game.counters().player[p].Position());
        if (game.TotalScore(p) != before.TotalScore(p) && corner > 0 && !game.IsOver() &&
            (before.counters().wall_corners & (1u << corner))) {
          // Taken in this action: by this player, or by the other whose marker got there first.
          bool took = false;
          for (const Event& e : events) {
            if (const auto* t = std::get_if<WallTileTaken>(&e)) took = took || t->corner == corner;
          }
          EXPECT_TRUE(took) << "seed " << seed;
        }
      }
    }
  }
  EXPECT_GT(keeps, 0);
  EXPECT_GT(taken, 0);
  EXPECT_GT(moved, 0);
}

}  // namespace
}  // namespace carc::castle
