// The Castle's data as shipped (data/castle-tiles.txt, data/castle-board.txt): the counts the
// rule book and the scans give, and the board's shape.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "castle/default_data.h"
#include "castle/game.h"
#include "castle/rules.h"

namespace carc::castle {
namespace {

using core::FeatureKind;
using core::StreetEnd;
using core::TileRole;

// Tiles of each kind of content, as docs/tiles.md lists them.
struct Census {
  int castle_tiles = 0, start_spaces = 0;
  int with_path = 0, with_tower = 0, with_house = 0, with_court = 0;
  int markets = 0, fountain_tiles = 0, square_tiles = 0, building_ends = 0;
};

Census Count(const core::TileSet& tiles) {
  Census c;
  for (int id = 0; id < tiles.TileCount(); ++id) {
    const core::TileType& type = tiles.TypeOf(id);
    if (type.role == TileRole::kStartSpace) {
      ++c.start_spaces;
      continue;
    }
    ++c.castle_tiles;
    c.with_path += type.HasFeature(FeatureKind::kStreet);
    c.with_tower += type.HasFeature(FeatureKind::kTower);
    c.with_house += type.HasFeature(FeatureKind::kHouse);
    c.with_court += type.HasFeature(FeatureKind::kCourt);
    bool fountain = false, square = false;
    for (const core::FeatureDef& def : type.features) {
      if (def.kind == FeatureKind::kCourt && def.symbol) ++c.markets;
      if (def.kind == FeatureKind::kStreet && def.symbol) fountain = true;
      if (def.kind == FeatureKind::kStreet && def.end == StreetEnd::kSquare) square = true;
      if (def.kind == FeatureKind::kStreet && def.end == StreetEnd::kBuilding) ++c.building_ends;
    }
    c.fountain_tiles += fountain;
    c.square_tiles += square;
  }
  return c;
}

TEST(CastleTileSet, HoldsTheSixtyCastleTilesAndTheSevenStartSpaces) {
  const auto tiles = DefaultTileSet();
  ASSERT_NE(tiles, nullptr);
  EXPECT_EQ(tiles->id(), "castle");
  const Census c = Count(*tiles);
  EXPECT_EQ(c.castle_tiles, 60);
  EXPECT_EQ(c.start_spaces, 7);
  EXPECT_EQ(c.with_path, 38);
  EXPECT_EQ(c.with_tower, 38);
  EXPECT_EQ(c.with_house, 38);
  EXPECT_EQ(c.with_court, 48);
  EXPECT_EQ(c.markets, 10);
  EXPECT_EQ(c.fountain_tiles, 6);
  EXPECT_EQ(c.square_tiles, 8);
  EXPECT_EQ(c.building_ends, 6);
}

TEST(CastleBoard, HasSeventySixSquaresInsideAFiftyCellWall) {
  const auto layout = DefaultLayout();
  ASSERT_NE(layout, nullptr);
  EXPECT_EQ(layout->Interior().size(), 76u);
  EXPECT_EQ(layout->Wall().size(), 50u);
  EXPECT_EQ(layout->CornerCount(), 14);
  EXPECT_EQ(layout->StartSpaces().size(), 7u);
  EXPECT_EQ(layout->WallTiles().size(), 18u);
  // The corner towers' track numbers, as printed on the wall.
  std::vector<int> corners;
  corners.reserve(static_cast<size_t>(layout->CornerCount()));
  for (int c = 0; c < layout->CornerCount(); ++c) corners.push_back(layout->CornerTrack(c));
  EXPECT_EQ(corners, (std::vector<int>{0, 12, 16, 20, 26, 32, 38, 42, 56, 64, 66, 82, 88, 90}));
  EXPECT_EQ(layout->CornerAt(33), 5);
  EXPECT_EQ(layout->CornerAt(34), -1);
  for (int w = 1; w < kWallTileKinds; ++w) {
    EXPECT_EQ(std::count(layout->WallTiles().begin(), layout->WallTiles().end(), w), 2) << w;
  }
}

TEST(CastleBoard, StartSpacesFaceTheCastleAndTheWallRingsIt) {
  const auto layout = DefaultLayout();
  for (const StartSpace& start : layout->StartSpaces()) {
    const Cell inside = core::Neighbour(start.cell, start.rotation);
    EXPECT_TRUE(layout->IsInterior(inside)) << start.tile_name;
  }
  // Track 6 is the west wall's start space; it faces east, onto (2, 3).
  EXPECT_EQ(layout->StartSpaces().front().tile_name, "start-6");
  EXPECT_EQ(layout->StartSpaces().front().cell, (Cell{1, 3}));
  EXPECT_EQ(layout->StartSpaces().front().rotation, core::kEast);
}

TEST(CastleBoard, RefusesABoardWithAGapInTheWall) {
  const std::string text(DefaultLayoutText());
  std::string broken = text;
  const std::string line = "wall 10  1  5 wall";
  const size_t at = broken.find(line);
  ASSERT_NE(at, std::string::npos);
  broken.replace(at, line.size(), "wall 10  0 12 wall");
  const auto parsed = ParseLayout(broken);
  ASSERT_TRUE(std::holds_alternative<core::ParseError>(parsed));
  EXPECT_NE(std::get<core::ParseError>(parsed).message.find("walled in"), std::string::npos)
      << std::get<core::ParseError>(parsed).ToString();
}

TEST(CastleGame, StartsWithTheStartSpacesOnTheWallAndThirteenWallTiles) {
  Config config;
  config.layout = DefaultLayout();
  auto created = Game::Create(DefaultTileSet(), config, 7);
  ASSERT_TRUE(std::holds_alternative<Game>(created)) << std::get<std::string>(created);
  const Game& game = std::get<Game>(created);
  EXPECT_EQ(game.StartTiles().size(), 7u);
  EXPECT_EQ(game.TilesPlaced(), 0);
  EXPECT_EQ(game.TilesLeft(), 60);
  const std::vector<int> wall = game.WallLayout();
  EXPECT_EQ(wall.front(), 0);
  EXPECT_EQ(std::count(wall.begin(), wall.end(), 0), 1);
  EXPECT_EQ(std::popcount(game.counters().wall_corners), 13);
}

}  // namespace
}  // namespace carc::castle
