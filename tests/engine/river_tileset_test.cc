// The base game's and the River's tile set (data/base-and-river-tiles.txt) and the tile-file
// format's additions for them: cities with pennants, fields, monasteries, rivers, roles.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "core/tileset.h"
#include "river/default_tiles.h"

namespace carc::core {
namespace {

using TileSetPtr = std::shared_ptr<const TileSet>;

std::string ParseErrorOf(std::string_view text) {
  auto parsed = ParseTileSet(text);
  if (const auto* error = std::get_if<ParseError>(&parsed)) return error->ToString();
  return "";
}

TileSetPtr Parse(std::string_view text) {
  auto parsed = ParseTileSet(text);
  if (const auto* error = std::get_if<ParseError>(&parsed)) {
    ADD_FAILURE() << error->ToString();
    return nullptr;
  }
  return std::get<TileSetPtr>(parsed);
}

const TileType& TypeNamed(const TileSet& set, std::string_view name) {
  for (const TileType& type : set.types()) {
    if (type.name == name) return type;
  }
  ADD_FAILURE() << "no tile type " << name;
  return set.Type(0);
}

int FeaturesOfKind(const TileType& type, FeatureKind kind) {
  int n = 0;
  for (const FeatureDef& def : type.features) n += def.kind == kind;
  return n;
}

TEST(RiverTileSet, TheEmbeddedFileParses) {
  EXPECT_EQ(ParseErrorOf(river::DefaultTileSetText()), "");
  ASSERT_NE(river::DefaultTileSet(), nullptr);
}

// The published counts: 72 land tiles (the start tile among them) and 12 River tiles.
TEST(RiverTileSet, CountsOfTheBaseGameAndTheRiver) {
  const TileSet& set = *river::DefaultTileSet();
  EXPECT_EQ(set.id(), "base-and-river");
  EXPECT_EQ(set.version(), 1);
  EXPECT_EQ(set.TileCount(), 84);
  int river = 0, monasteries = 0, pennants = 0, roads = 0, cities = 0;
  std::map<TileRole, int> roles;
  for (const TileType& type : set.types()) {
    if (type.role != TileRole::kNone) roles[type.role] += type.count;
    if (type.HasFeature(FeatureKind::kRiver)) {
      river += type.count;
      continue;
    }
    monasteries += type.count * FeaturesOfKind(type, FeatureKind::kMonastery);
    roads += type.HasFeature(FeatureKind::kStreet) ? type.count : 0;
    cities += type.HasFeature(FeatureKind::kCity) ? type.count : 0;
    for (const FeatureDef& def : type.features) pennants += def.pennant ? type.count : 0;
  }
  EXPECT_EQ(river, 12);
  EXPECT_EQ(set.TileCount() - river, 72);
  EXPECT_EQ(monasteries, 6);  // A x2, B x4
  EXPECT_EQ(pennants, 10);    // C, F x2, M x2, O x2, Q, S x2
  EXPECT_EQ(roads, 45);       // tiles showing a road
  EXPECT_EQ(cities, 44);      // tiles showing a city
  EXPECT_EQ(roles[TileRole::kStart], 1);
  EXPECT_EQ(roles[TileRole::kSpring], 1);
  EXPECT_EQ(roles[TileRole::kLake], 1);
}

// The start tile is a D: a city on the north side, a road from west to east.
TEST(RiverTileSet, StartTileIsAD) {
  const TileSet& set = *river::DefaultTileSet();
  const TileType& start = TypeNamed(set, "D-start");
  const TileType& d = TypeNamed(set, "D-city-road");
  EXPECT_EQ(start.role, TileRole::kStart);
  EXPECT_EQ(start.side_kinds, d.side_kinds);
  EXPECT_EQ(start.count + d.count, 4);
}

// Fields touch the cities they meet on the tile: what farmers score. Checked against the
// published adjacency of a few tiles.
TEST(RiverTileSet, FieldsTouchTheirCities) {
  const TileSet& set = *river::DefaultTileSet();
  const auto cities_touched = [](const TileType& type) {
    std::map<char, std::set<char>> out;
    for (const auto& pair : type.touching_areas) {
      const FeatureDef& a = type.features[pair[0]];
      const FeatureDef& b = type.features[pair[1]];
      if (a.kind == FeatureKind::kField && b.kind == FeatureKind::kCity)
        out[a.label].insert(b.label);
      if (b.kind == FeatureKind::kField && a.kind == FeatureKind::kCity)
        out[b.label].insert(a.label);
    }
    return out;
  };
  using Touch = std::map<char, std::set<char>>;
  // D: the field north of the road touches the city, the southern one does not.
  EXPECT_EQ(cities_touched(TypeNamed(set, "D-city-road")), (Touch{{'b', {'a'}}}));
  // H: one field between two cities touches both.
  EXPECT_EQ(cities_touched(TypeNamed(set, "H-cities-opposite")), (Touch{{'c', {'a', 'b'}}}));
  // F: the city band across the tile touches the fields on both sides.
  EXPECT_EQ(cities_touched(TypeNamed(set, "F-city-band-pennant")),
            (Touch{{'b', {'a'}}, {'c', {'a'}}}));
  // R04: the road to the city splits the fields north of the river; both touch the city.
  EXPECT_EQ(cities_touched(TypeNamed(set, "R04-river-city-road")),
            (Touch{{'b', {'a'}}, {'c', {'a'}}}));
  EXPECT_TRUE(cities_touched(TypeNamed(set, "U-road-straight")).empty());
}

TEST(RiverTileSet, SideKindsOfARotatedTile) {
  TileSetPtr set = Parse(
      "tileset t 1\n"
      "tile e 1 a-a b-b b-b b-b a=city b=field\n"
      "tile v 1 a-a a-a a1b b1a a=field b=field\n");
  ASSERT_NE(set, nullptr);
  const TileType& e = set->Type(0);
  const uint16_t city = (1 + static_cast<int>(FeatureKind::kCity)) * 0x101;
  const uint16_t field = (1 + static_cast<int>(FeatureKind::kField)) * 0x101;
  EXPECT_EQ(e.SideKinds(kNorth, 0), city);
  EXPECT_EQ(e.SideKinds(kEast, 1), city);  // turned a quarter clockwise: the city faces east
  EXPECT_EQ(e.SideKinds(kNorth, 1), field);
  const TileType& v = set->Type(1);
  const int road = 1 + static_cast<int>(FeatureKind::kStreet);
  EXPECT_EQ(v.SideKinds(kNorth, 0), field);
  EXPECT_EQ(v.SideKinds(kSouth, 0), field | road << 4);  // field, road, field
  // Read from the neighbour's side, the two halves swap: b then a becomes a then b.
  EXPECT_EQ(v.side_kinds_facing[kSouth], v.side_kinds[kSouth]);
}

TEST(RiverTileSet, MonasteryIsAFeatureWithoutPorts) {
  TileSetPtr set = Parse("tileset t 1\ntile a 1 a-a a-a a1a a-a a=field m=monastery 1=monastery\n");
  ASSERT_NE(set, nullptr);
  const TileType& a = set->Type(0);
  ASSERT_EQ(a.FeatureCount(), 3);
  EXPECT_EQ(a.features[2].kind, FeatureKind::kMonastery);
  EXPECT_EQ(a.features[2].label, 'm');
  EXPECT_EQ(a.features[2].ports, 0);
  EXPECT_EQ(a.features[1].end, StreetEnd::kMonastery);
}

TEST(RiverTileSet, FormatErrorsNameTheProblem) {
  const auto error = [](std::string_view tile) {
    return ParseErrorOf("tileset t 1\n" + std::string(tile) + "\n");
  };
  EXPECT_NE(error("tile a 1 a-a a-a a-a a-a a=field m=monastery m=monastery").find("one monastery"),
            std::string::npos);
  EXPECT_NE(error("tile a 1 a-a a-a a-a a-a a=monastery").find("centre"), std::string::npos);
  EXPECT_NE(error("tile a 1 a-a a-a a1a a-a a=field 1=monastery").find("monastery"),
            std::string::npos);
  EXPECT_NE(error("tile a 1 a-a a-a a1a a-a a=field 1=city").find("city"), std::string::npos);
  EXPECT_NE(error("tile a 1 a-a a-a a1a a-a a=field 1=river").find("role=spring"),
            std::string::npos);
  EXPECT_NE(error("tile a 1 a-a a1a a-a a1a a=field 1=river role=lake").find("one side"),
            std::string::npos);
  EXPECT_NE(error("tile a 2 a-a a-a a-a a-a a=field role=start").find("count"), std::string::npos);
  EXPECT_NE(error("tile a 1 a-a a-a a-a a-a a=field role=castle").find("'castle'"),
            std::string::npos);
  EXPECT_NE(ParseErrorOf("tileset t 1\ntile a 1 a-a a-a a-a a-a a=field role=start\n"
                         "tile b 1 a-a a-a a-a a-a a=city role=start\n")
                .find("second"),
            std::string::npos);
  EXPECT_EQ(error("tile a 1 a-a a1a a-a a-a a=field 1=river role=spring"), "");
  EXPECT_EQ(error("tile a 1 a-a a-a a-a a-a a=city+pennant"), "");
}

}  // namespace
}  // namespace carc::core
