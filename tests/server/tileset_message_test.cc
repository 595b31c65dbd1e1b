// The TileSet message (carcassonne.tiles.v1): a rule set's tile set as a client receives it,
// checked against The City's default set's published facts (75 tiles, 7 historic buildings, 32
// public ones), against the base game and River set's (cities with pennants, fields,
// monasteries, roads, rivers; the start tile, the spring and the lake), against The Castle's
// (towers, houses, courts with markets, paths with fountains, junctions and squares, start spaces
// with blank halves), and against the engine's own view of each type, after a trip through
// protobuf bytes.
#include "protocol/tileset_message.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "castle/default_data.h"
#include "city/default_tiles.h"
#include "river/default_tiles.h"

namespace carc::protocol {
namespace {

tilespb::TileSet ThroughBytesOf(const tilespb::TileSet& set) {
  std::string bytes;
  EXPECT_TRUE(set.SerializeToString(&bytes));
  tilespb::TileSet parsed;
  EXPECT_TRUE(parsed.ParseFromString(bytes));
  return parsed;
}

tilespb::TileSet DefaultTileSetThroughBytes() {
  std::string bytes;
  EXPECT_TRUE(ToProto(*city::DefaultTileSet()).SerializeToString(&bytes));
  tilespb::TileSet parsed;
  EXPECT_TRUE(parsed.ParseFromString(bytes));
  return parsed;
}

const tilespb::TileType* FindType(const tilespb::TileSet& set, const std::string& name) {
  for (const tilespb::TileType& type : set.types()) {
    if (type.name() == name) return &type;
  }
  return nullptr;
}

// Checks that a type's ports follow the sides of its tile-file line ("a1b b-b b1a a-a"): one
// feature per letter or digit, a street for a digit, an area for a letter, -1 for '-'.
void ExpectPortsOf(const tilespb::TileType& type, const std::string& sides) {
  std::string ports;
  for (const char c : sides) {
    if (c != ' ') ports += c;
  }
  ASSERT_EQ(ports.size(), 12u);
  ASSERT_EQ(type.port_feature_size(), 12);
  std::map<char, int> feature_of;
  for (int p = 0; p < 12; ++p) {
    const char c = ports[static_cast<size_t>(p)];
    const int feature = type.port_feature(p);
    if (c == '-') {
      EXPECT_EQ(feature, -1) << "port " << p;
      continue;
    }
    ASSERT_GE(feature, 0) << "port " << p;
    ASSERT_LT(feature, type.features_size()) << "port " << p;
    const auto [it, added] = feature_of.emplace(c, feature);
    EXPECT_EQ(it->second, feature) << "port " << p << " belongs to '" << c << "'";
    const bool street = c >= '1' && c <= '4';
    EXPECT_EQ(type.features(feature).kind() == tilespb::FEATURE_KIND_STREET, street)
        << "port " << p;
  }
  std::set<int> distinct;
  for (const auto& [c, feature] : feature_of) distinct.insert(feature);
  EXPECT_EQ(distinct.size(), feature_of.size()) << "each letter or digit is a feature of its own";
  EXPECT_EQ(static_cast<int>(feature_of.size()), type.features_size());
}

TEST(TileSetMessage, TheDefaultSetHasItsIdAnd75TilesNumberedInFileOrder) {
  const tilespb::TileSet set = DefaultTileSetThroughBytes();
  EXPECT_EQ(set.id(), "the-city-reconstruction");
  EXPECT_EQ(set.version(), 1u);
  ASSERT_EQ(set.types_size(), city::DefaultTileSet()->TypeCount());
  uint32_t next_id = 0;
  for (const tilespb::TileType& type : set.types()) {
    EXPECT_EQ(type.first_id(), next_id) << type.name();
    EXPECT_GE(type.count(), 1u) << type.name();
    next_id += type.count();
  }
  EXPECT_EQ(next_id, 75u);
}

TEST(TileSetMessage, EveryPortNamesAFeatureOfItsTypeOrNone) {
  const tilespb::TileSet set = DefaultTileSetThroughBytes();
  for (const tilespb::TileType& type : set.types()) {
    ASSERT_EQ(type.port_feature_size(), 12) << type.name();
    std::set<int> at_ports;
    for (int p = 0; p < 12; ++p) {
      const int feature = type.port_feature(p);
      EXPECT_GE(feature, -1) << type.name() << " port " << p;
      EXPECT_LT(feature, type.features_size()) << type.name() << " port " << p;
      // Only midpoints (1, 4, 7, 10) may be without a feature: every half is in an area.
      if (p % 3 != 1) {
        EXPECT_NE(feature, -1) << type.name() << " port " << p;
      }
      at_ports.insert(feature);
    }
    for (int f = 0; f < type.features_size(); ++f) {
      EXPECT_TRUE(at_ports.count(f)) << type.name() << ": feature " << f << " touches a port";
      const tilespb::TileFeature& feature = type.features(f);
      EXPECT_EQ(feature.kind() == tilespb::FEATURE_KIND_MARKET,
                feature.market() != tilespb::MARKET_KIND_NONE)
          << type.name() << " feature " << f << ": markets, and only they, have a kind";
      if (feature.kind() != tilespb::FEATURE_KIND_STREET) {
        EXPECT_EQ(feature.end(), tilespb::STREET_END_THROUGH) << type.name() << " feature " << f;
      }
    }
  }
}

TEST(TileSetMessage, KnownTypesHaveTheirFileLinesPortsAndFeatures) {
  const tilespb::TileSet set = DefaultTileSetThroughBytes();
  const tilespb::TileType* straight = FindType(set, "straight-res");
  ASSERT_NE(straight, nullptr);
  EXPECT_EQ(straight->count(), 5u);
  EXPECT_EQ(straight->first_id(), 0u);
  ExpectPortsOf(*straight, "a1b b-b b1a a-a");
  // Features are numbered as they first appear clockwise (docs/protocol.md gives this example).
  EXPECT_EQ(std::vector<int>(straight->port_feature().begin(), straight->port_feature().end()),
            (std::vector<int>{0, 1, 2, 2, -1, 2, 2, 1, 0, 0, -1, 0}));
  const tilespb::TileFeature& street = straight->features(straight->port_feature(1));
  EXPECT_EQ(street.end(), tilespb::STREET_END_THROUGH);
  EXPECT_EQ(straight->building(), tilespb::BUILDING_NONE);
  EXPECT_EQ(straight->historic_name(), "");

  const tilespb::TileType* fish = FindType(set, "straight-fish");
  ASSERT_NE(fish, nullptr);
  ExpectPortsOf(*fish, "a1b b-b b1a a-a");
  const tilespb::TileFeature& market = fish->features(fish->port_feature(2));  // b
  EXPECT_EQ(market.kind(), tilespb::FEATURE_KIND_MARKET);
  EXPECT_EQ(market.market(), tilespb::MARKET_KIND_FISH);

  const tilespb::TileType* sernin = FindType(set, "historic-saint-sernin");
  ASSERT_NE(sernin, nullptr);
  ExpectPortsOf(*sernin, "a1a a-a a-a a-a");
  EXPECT_EQ(sernin->features(sernin->port_feature(1)).end(), tilespb::STREET_END_BUILDING);
  EXPECT_EQ(sernin->building(), tilespb::BUILDING_HISTORIC);
  EXPECT_EQ(sernin->historic_name(), "Saint Sernin");
}

TEST(TileSetMessage, SevenHistoricBuildingsWithTheirNamesAnd32PublicOnes) {
  std::set<std::string> historic;
  uint32_t public_tiles = 0;
  const tilespb::TileSet set = DefaultTileSetThroughBytes();
  for (const tilespb::TileType& type : set.types()) {
    if (type.building() == tilespb::BUILDING_HISTORIC) {
      EXPECT_EQ(type.count(), 1u) << type.name();
      historic.insert(type.historic_name());
    } else {
      EXPECT_EQ(type.historic_name(), "") << type.name();
    }
    if (type.building() == tilespb::BUILDING_PUBLIC) public_tiles += type.count();
  }
  EXPECT_EQ(historic,
            (std::set<std::string>{"Petit Puits", "Grand Puits", "Tour Carree", "Batiment",
                                   "Saint Sernin", "Saint Nazaire", "Chateau Comtal"}));
  EXPECT_EQ(public_tiles, 32u);
}

// The message says what the engine says, type by type.
void ExpectTypesAsTheEngineHasThem(const core::TileSet& tiles) {
  const tilespb::TileSet set = ThroughBytesOf(ToProto(tiles));
  EXPECT_EQ(set.id(), tiles.id());
  EXPECT_EQ(static_cast<int>(set.version()), tiles.version());
  ASSERT_EQ(set.types_size(), tiles.TypeCount());
  for (int t = 0; t < tiles.TypeCount(); ++t) {
    const core::TileType& engine = tiles.Type(t);
    const tilespb::TileType& wire = set.types(t);
    EXPECT_EQ(wire.name(), engine.name);
    EXPECT_EQ(static_cast<int>(wire.first_id()), engine.first_id);
    EXPECT_EQ(static_cast<int>(wire.count()), engine.count);
    for (size_t p = 0; p < engine.port_feature.size(); ++p) {
      EXPECT_EQ(wire.port_feature(static_cast<int>(p)), engine.port_feature[p]) << engine.name;
    }
    ASSERT_EQ(wire.features_size(), engine.FeatureCount()) << engine.name;
    for (int f = 0; f < engine.FeatureCount(); ++f) {
      const core::FeatureDef& def = engine.features[static_cast<size_t>(f)];
      // The wire's feature kinds are the engine's plus 1; markets, ends and buildings are equal.
      EXPECT_EQ(static_cast<int>(wire.features(f).kind()), static_cast<int>(def.kind) + 1);
      EXPECT_EQ(static_cast<int>(wire.features(f).market()), static_cast<int>(def.market));
      EXPECT_EQ(static_cast<int>(wire.features(f).end()), static_cast<int>(def.end));
      EXPECT_EQ(wire.features(f).label(), std::string(1, def.label)) << engine.name;
      EXPECT_EQ(wire.features(f).pennant(), def.pennant) << engine.name;
      EXPECT_EQ(wire.features(f).symbol(), def.symbol) << engine.name;
    }
    EXPECT_EQ(static_cast<int>(wire.building()), static_cast<int>(engine.building));
    EXPECT_EQ(wire.historic_name(), engine.historic_name);
    EXPECT_EQ(static_cast<int>(wire.role()), static_cast<int>(engine.role));
  }
}

TEST(TileSetMessage, EveryTypeMatchesTheEngines) {
  SCOPED_TRACE("The City");
  ExpectTypesAsTheEngineHasThem(*city::DefaultTileSet());
}

TEST(TileSetMessage, EveryTypeOfTheBaseGameAndRiverMatchesTheEngines) {
  SCOPED_TRACE("Carcassonne with the River");
  ExpectTypesAsTheEngineHasThem(*river::DefaultTileSet());
}

TEST(TileSetMessage, EveryTypeOfTheCastleMatchesTheEngines) {
  SCOPED_TRACE("The Castle");
  ExpectTypesAsTheEngineHasThem(*castle::DefaultTileSet());
}

// Between them, the three default sets show every feature kind and every role the message has.
TEST(TileSetMessage, EveryFeatureKindAndRoleReachesTheWire) {
  std::set<int> kinds;
  std::map<std::string, tilespb::TileRole> roles;  // by type name, those with a role
  bool pennant = false;
  for (const auto& tiles :
       {city::DefaultTileSet(), river::DefaultTileSet(), castle::DefaultTileSet()}) {
    const tilespb::TileSet set = ThroughBytesOf(ToProto(*tiles));
    for (const tilespb::TileType& type : set.types()) {
      for (const tilespb::TileFeature& f : type.features()) {
        kinds.insert(f.kind());
        EXPECT_TRUE(!f.pennant() || f.kind() == tilespb::FEATURE_KIND_CITY) << type.name();
        pennant = pennant || f.pennant();
      }
      if (type.role() != tilespb::TILE_ROLE_NONE) roles[type.name()] = type.role();
    }
  }
  std::set<int> every_kind;
  for (int k = tilespb::FeatureKind_MIN; k <= tilespb::FeatureKind_MAX; ++k) {
    if (k != tilespb::FEATURE_KIND_UNSPECIFIED) every_kind.insert(k);
  }
  EXPECT_EQ(kinds, every_kind);
  EXPECT_TRUE(pennant) << "cities with a pennant";
  const auto space = tilespb::TILE_ROLE_START_SPACE;
  EXPECT_EQ(roles,
            (std::map<std::string, tilespb::TileRole>{{"D-start", tilespb::TILE_ROLE_START},
                                                      {"R01-spring", tilespb::TILE_ROLE_SPRING},
                                                      {"R02-lake", tilespb::TILE_ROLE_LAKE},
                                                      {"start-6", space},
                                                      {"start-18", space},
                                                      {"start-40", space},
                                                      {"start-50", space},
                                                      {"start-62", space},
                                                      {"start-74", space},
                                                      {"start-94", space}}));
}

TEST(TileSetMessage, TheRiverSetsTypesHaveTheirFileLines) {
  const tilespb::TileSet set = ThroughBytesOf(ToProto(*river::DefaultTileSet()));
  EXPECT_EQ(set.id(), "base-and-river");
  uint32_t tiles = 0;
  for (const tilespb::TileType& type : set.types()) tiles += type.count();
  EXPECT_EQ(tiles, 84u);

  // A monastery lies in the tile's centre: no port names it.
  const tilespb::TileType* monastery = FindType(set, "A-monastery-road");
  ASSERT_NE(monastery, nullptr);
  EXPECT_EQ(monastery->count(), 2u);
  int monastery_feature = -1;
  for (int f = 0; f < monastery->features_size(); ++f) {
    if (monastery->features(f).kind() == tilespb::FEATURE_KIND_MONASTERY) monastery_feature = f;
  }
  ASSERT_GE(monastery_feature, 0);
  EXPECT_EQ(monastery->features(monastery_feature).label(), "m");
  for (const int feature : monastery->port_feature()) EXPECT_NE(feature, monastery_feature);
  // Its road ends at the monastery, on the south side's midpoint (port 7).
  const tilespb::TileFeature& road = monastery->features(monastery->port_feature(7));
  EXPECT_EQ(road.kind(), tilespb::FEATURE_KIND_STREET);
  EXPECT_EQ(road.end(), tilespb::STREET_END_MONASTERY);

  const tilespb::TileType* pennant = FindType(set, "C-city4-pennant");
  ASSERT_NE(pennant, nullptr);
  ASSERT_EQ(pennant->features_size(), 1);
  EXPECT_EQ(pennant->features(0).kind(), tilespb::FEATURE_KIND_CITY);
  EXPECT_TRUE(pennant->features(0).pennant());

  const tilespb::TileType* start = FindType(set, "D-start");
  ASSERT_NE(start, nullptr);
  EXPECT_EQ(start->role(), tilespb::TILE_ROLE_START);
  EXPECT_EQ(start->features(start->port_feature(0)).kind(), tilespb::FEATURE_KIND_CITY);
  EXPECT_FALSE(start->features(start->port_feature(0)).pennant());
  EXPECT_EQ(start->features(start->port_feature(3)).kind(), tilespb::FEATURE_KIND_FIELD);
  EXPECT_EQ(FindType(set, "D-city-road")->role(), tilespb::TILE_ROLE_NONE);

  const tilespb::TileType* spring = FindType(set, "R01-spring");
  ASSERT_NE(spring, nullptr);
  EXPECT_EQ(spring->role(), tilespb::TILE_ROLE_SPRING);
  EXPECT_EQ(spring->features(spring->port_feature(4)).kind(), tilespb::FEATURE_KIND_RIVER);
  EXPECT_EQ(spring->port_feature(1), -1);
  const tilespb::TileType* lake = FindType(set, "R02-lake");
  ASSERT_NE(lake, nullptr);
  EXPECT_EQ(lake->role(), tilespb::TILE_ROLE_LAKE);
  EXPECT_EQ(lake->features(lake->port_feature(10)).kind(), tilespb::FEATURE_KIND_RIVER);
}

// ---------------------------------------------------------------------------------------------
// From the wire back to the engine's tile set

// Every field of two tile sets, those the engine derives included, is the same.
void ExpectSameTileSet(const core::TileSet& got, const core::TileSet& want) {
  EXPECT_EQ(got.id(), want.id());
  EXPECT_EQ(got.version(), want.version());
  ASSERT_EQ(got.TileCount(), want.TileCount());
  for (int tile = 0; tile < want.TileCount(); ++tile) {
    EXPECT_EQ(got.TypeIndexOf(tile), want.TypeIndexOf(tile)) << "tile " << tile;
  }
  ASSERT_EQ(got.TypeCount(), want.TypeCount());
  for (int t = 0; t < want.TypeCount(); ++t) {
    const core::TileType& a = got.Type(t);
    const core::TileType& b = want.Type(t);
    SCOPED_TRACE(b.name);
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.count, b.count);
    EXPECT_EQ(a.first_id, b.first_id);
    EXPECT_EQ(a.port_feature, b.port_feature);
    ASSERT_EQ(a.FeatureCount(), b.FeatureCount());
    for (size_t f = 0; f < b.features.size(); ++f) {
      EXPECT_EQ(a.features[f].kind, b.features[f].kind) << "feature " << f;
      EXPECT_EQ(a.features[f].market, b.features[f].market) << "feature " << f;
      EXPECT_EQ(a.features[f].end, b.features[f].end) << "feature " << f;
      EXPECT_EQ(a.features[f].label, b.features[f].label) << "feature " << f;
      EXPECT_EQ(a.features[f].pennant, b.features[f].pennant) << "feature " << f;
      EXPECT_EQ(a.features[f].symbol, b.features[f].symbol) << "feature " << f;
      EXPECT_EQ(a.features[f].ports, b.features[f].ports) << "feature " << f;
    }
    EXPECT_EQ(a.touching_areas, b.touching_areas);
    EXPECT_EQ(a.building, b.building);
    EXPECT_EQ(a.historic_name, b.historic_name);
    EXPECT_EQ(a.role, b.role);
    EXPECT_EQ(a.side_kinds, b.side_kinds);
    EXPECT_EQ(a.side_kinds_facing, b.side_kinds_facing);
    EXPECT_EQ(a.street_sides, b.street_sides);
    EXPECT_EQ(a.street_sides_rotated, b.street_sides_rotated);
    EXPECT_EQ(a.fitting_rotations, b.fitting_rotations);
  }
}

std::shared_ptr<const core::TileSet> Parse(const std::string& text) {
  auto parsed = core::ParseTileSet(text);
  EXPECT_TRUE(std::holds_alternative<std::shared_ptr<const core::TileSet>>(parsed));
  return std::get<std::shared_ptr<const core::TileSet>>(std::move(parsed));
}

// What FromProto refuses `set` with ("" if it takes it).
std::string Refusal(const tilespb::TileSet& set) {
  const auto tiles = FromProto(set);
  const auto* error = std::get_if<std::string>(&tiles);
  return error ? *error : "";
}

TEST(TileSetMessage, TheDefaultSetComesBackFromTheWireEqualInEveryField) {
  const auto tiles = FromProto(DefaultTileSetThroughBytes());
  ASSERT_TRUE(std::holds_alternative<std::shared_ptr<const core::TileSet>>(tiles))
      << std::get<std::string>(tiles);
  ExpectSameTileSet(*std::get<std::shared_ptr<const core::TileSet>>(tiles),
                    *city::DefaultTileSet());
}

TEST(TileSetMessage, TheRiverSetComesBackFromTheWireEqualInEveryField) {
  const auto tiles = FromProto(ThroughBytesOf(ToProto(*river::DefaultTileSet())));
  ASSERT_TRUE(std::holds_alternative<std::shared_ptr<const core::TileSet>>(tiles))
      << std::get<std::string>(tiles);
  ExpectSameTileSet(*std::get<std::shared_ptr<const core::TileSet>>(tiles),
                    *river::DefaultTileSet());
}

TEST(TileSetMessage, TheCastleSetComesBackFromTheWireEqualInEveryField) {
  const auto tiles = FromProto(ThroughBytesOf(ToProto(*castle::DefaultTileSet())));
  ASSERT_TRUE(std::holds_alternative<std::shared_ptr<const core::TileSet>>(tiles))
      << std::get<std::string>(tiles);
  ExpectSameTileSet(*std::get<std::shared_ptr<const core::TileSet>>(tiles),
                    *castle::DefaultTileSet());
}

TEST(TileSetMessage, TheCastleSetsTypesHaveTheirFileLines) {
  const tilespb::TileSet set = ThroughBytesOf(ToProto(*castle::DefaultTileSet()));
  EXPECT_EQ(set.id(), "castle");
  // CT01: "a1b b1c c1d d1a a=house b=tower c=house d=tower 1=junction+fountain".
  const tilespb::TileType* junction = FindType(set, "CT01");
  ASSERT_NE(junction, nullptr);
  ExpectPortsOf(*junction, "a1b b1c c1d d1a");
  const tilespb::TileFeature& path = junction->features(junction->port_feature(1));
  EXPECT_EQ(path.kind(), tilespb::FEATURE_KIND_STREET);
  EXPECT_TRUE(path.symbol()) << "a fountain";
  EXPECT_EQ(junction->features(junction->port_feature(0)).kind(), tilespb::FEATURE_KIND_HOUSE);
  EXPECT_EQ(junction->features(junction->port_feature(2)).kind(), tilespb::FEATURE_KIND_TOWER);
  // CT05: three paths end at a square.
  const tilespb::TileType* square = FindType(set, "CT05");
  ASSERT_NE(square, nullptr);
  EXPECT_EQ(square->features(square->port_feature(4)).end(), tilespb::STREET_END_SQUARE);
  // CT13: one court with a market.
  const tilespb::TileType* market = FindType(set, "CT13");
  ASSERT_NE(market, nullptr);
  ASSERT_EQ(market->features_size(), 1);
  EXPECT_EQ(market->features(0).kind(), tilespb::FEATURE_KIND_COURT);
  EXPECT_TRUE(market->features(0).symbol());
  // start-18: "a1b .-. .-. .-." with a path that ends at the wall, a fountain on it.
  const tilespb::TileType* start = FindType(set, "start-18");
  ASSERT_NE(start, nullptr);
  EXPECT_EQ(start->role(), tilespb::TILE_ROLE_START_SPACE);
  const tilespb::TileFeature& wall_path = start->features(start->port_feature(1));
  EXPECT_EQ(wall_path.end(), tilespb::STREET_END_WALL);
  EXPECT_TRUE(wall_path.symbol());
  for (int p = 3; p < 12; ++p) EXPECT_EQ(start->port_feature(p), -1) << "blank port " << p;
}

TEST(TileSetMessage, AnotherSetComesBackFromTheWireWithItsOwnNamesAndLabels) {
  const auto want = Parse(
      "tileset example 3\n"
      "tile cross4 1 h4g g3f f2e e1h h=residential g=fish f=residential e=livestock "
      "4=crossing 3=crossing 2=crossing 1=crossing\n"
      "tile straight 2 c2d d-d d2c c-c c=residential d=grain building=public\n"
      "tile deadend 1 a1a a-a a-a a-a a=residential 1=building building=historic:Petit_Puits\n");
  ASSERT_NE(want, nullptr);
  const auto got = FromProto(ThroughBytesOf(ToProto(*want)));
  ASSERT_TRUE(std::holds_alternative<std::shared_ptr<const core::TileSet>>(got))
      << std::get<std::string>(got);
  ExpectSameTileSet(*std::get<std::shared_ptr<const core::TileSet>>(got), *want);
}

TEST(TileSetMessage, AMessageNoTileSetFileCouldHoldIsRefusedWithTheReason) {
  const tilespb::TileSet good = DefaultTileSetThroughBytes();
  ASSERT_EQ(Refusal(good), "");

  tilespb::TileSet no_label = good;
  no_label.mutable_types(0)->mutable_features(1)->clear_label();
  EXPECT_EQ(Refusal(no_label),
            "tile type 'straight-res': feature 1 is not one a tile-set file has");

  tilespb::TileSet bad_port = good;
  bad_port.mutable_types(0)->set_port_feature(0, 7);
  EXPECT_EQ(Refusal(bad_port), "tile type 'straight-res': port 0 names feature 7");

  tilespb::TileSet short_ports = good;
  short_ports.mutable_types(0)->mutable_port_feature()->RemoveLast();
  EXPECT_EQ(Refusal(short_ports), "tile type 'straight-res': 11 ports, not 12");

  tilespb::TileSet bad_name = good;
  bad_name.mutable_types(1)->set_name("two words");
  EXPECT_EQ(Refusal(bad_name), "a tile type's name is not one a tile-set file has");

  tilespb::TileSet bad_id = good;
  bad_id.set_id("x\ntile extra 1 a-a a-a a-a a-a a=residential");
  EXPECT_EQ(Refusal(bad_id), "the tile set's id is not one a tile-set file has");

  tilespb::TileSet bad_kind = good;
  bad_kind.mutable_types(0)->mutable_features(0)->set_kind(tilespb::FEATURE_KIND_UNSPECIFIED);
  EXPECT_EQ(Refusal(bad_kind),
            "tile type 'straight-res': feature 0 is not one a tile-set file has");

  tilespb::TileSet bad_role = good;
  bad_role.mutable_types(0)->set_role(static_cast<tilespb::TileRole>(9));
  EXPECT_EQ(Refusal(bad_role), "tile type 'straight-res': its role is of no known kind");

  tilespb::TileSet unknown_kind = good;
  unknown_kind.mutable_types(0)->mutable_features(0)->set_kind(
      static_cast<tilespb::FeatureKind>(tilespb::FeatureKind_MAX + 1));
  EXPECT_EQ(Refusal(unknown_kind),
            "tile type 'straight-res': feature 0 is not one a tile-set file has");

  // The loader's own checks: a street where the file has an area.
  tilespb::TileSet street_at_half = good;
  street_at_half.mutable_types(0)->set_port_feature(0, 1);
  EXPECT_EQ(Refusal(street_at_half).rfind("tile type 'straight-res': ", 0), 0u)
      << Refusal(street_at_half);

  // Ids that do not follow the types' order, and features numbered otherwise than the file.
  tilespb::TileSet bad_first_id = good;
  bad_first_id.mutable_types(1)->set_first_id(0);
  EXPECT_EQ(Refusal(bad_first_id),
            "tile type '" + good.types(1).name() +
                "': its tile ids or features are not numbered as the tile-set file numbers them");
  tilespb::TileSet renumbered = good;
  tilespb::TileType* straight = renumbered.mutable_types(0);  // features a, 1, b at ports 0, 1, 2
  straight->mutable_features()->SwapElements(0, 2);
  for (int p = 0; p < 12; ++p) {
    const int f = straight->port_feature(p);
    straight->set_port_feature(p, f == 0 ? 2 : f == 2 ? 0 : f);
  }
  EXPECT_EQ(Refusal(renumbered),
            "tile type 'straight-res': its tile ids or features are not numbered as the "
            "tile-set file numbers them");
}

}  // namespace
}  // namespace carc::protocol
