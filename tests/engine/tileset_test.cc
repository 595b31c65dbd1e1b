// The tile-set loader (docs/tiles.md) and the default tile set of The City (rulings R30, R31).
//
// Every rule of docs/tiles.md's Syntax section has a test that breaks it and checks that the
// loader names the line and the problem. The default set's constraints are computed from the
// parsed TileSet, as the engine sees it.
#include "core/tileset.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "city/default_tiles.h"
#include "city/game.h"
#include "core/geometry.h"

namespace carc::core {
namespace {

using TileSetPtr = std::shared_ptr<const TileSet>;

// The example of docs/tiles.md, as printed there.
constexpr std::string_view kExample =
    "tileset example 1\n"
    "# a straight street from north to south between two residential areas\n"
    "tile straight 2 a1b b-b b1a a-a a=residential b=residential\n"
    "# a crossing of four streets, with a fish market in the north-east corner\n"
    "tile cross4 1 a1b b2c c3d d4a a=residential b=fish c=residential d=residential 1=crossing "
    "2=crossing 3=crossing 4=crossing\n"
    "# a street that ends at a public building\n"
    "tile deadend 3 a1a a-a a-a a-a a=residential 1=building building=public\n";

TileSetPtr Parse(std::string_view text) {
  auto parsed = ParseTileSet(text);
  if (auto* error = std::get_if<ParseError>(&parsed)) {
    ADD_FAILURE() << "parse error: " << error->ToString();
    return nullptr;
  }
  return std::get<TileSetPtr>(parsed);
}

// Parses text that must be refused; returns the error.
ParseError Refused(std::string_view text) {
  auto parsed = ParseTileSet(text);
  if (std::holds_alternative<TileSetPtr>(parsed)) {
    ADD_FAILURE() << "accepted:\n" << text;
    return {};
  }
  return std::get<ParseError>(parsed);
}

// Checks that `text` is refused at `line` with a message containing `words`, and that the
// printable form names the line.
void ExpectRefused(std::string_view text, int line, std::string_view words) {
  const ParseError error = Refused(text);
  EXPECT_EQ(error.line, line) << error.ToString();
  EXPECT_NE(error.message.find(words), std::string::npos)
      << "message '" << error.message << "' should mention '" << words << "'";
  if (line > 0) {
    EXPECT_EQ(error.ToString().rfind("line " + std::to_string(line) + ": ", 0), 0u)
        << error.ToString();
  }
}

#define EXPECT_PARSE_ERROR(text, line, words) \
  do {                                        \
    SCOPED_TRACE(text);                       \
    ExpectRefused(text, line, words);         \
  } while (false)

// A header and a comment, so that the tile line under test is line 3.
std::string OneTile(std::string_view tile_line) {
  return "tileset test 1\n# the tile under test\n" + std::string(tile_line) + "\n";
}

const TileType* FindType(const TileSet& set, std::string_view name) {
  for (const TileType& type : set.types()) {
    if (type.name == name) return &type;
  }
  ADD_FAILURE() << "no tile type " << name;
  return nullptr;
}

int Port(int side, int k) { return PortOf(side, k); }

// ---------------------------------------------------------------------------------------------
// The example and derived data

TEST(TileSet, AcceptsTheExample) {
  TileSetPtr set = Parse(kExample);
  ASSERT_NE(set, nullptr);
  EXPECT_EQ(set->id(), "example");
  EXPECT_EQ(set->version(), 1);
  ASSERT_EQ(set->TypeCount(), 3);
  EXPECT_EQ(set->TileCount(), 6);
  EXPECT_EQ(set->Type(0).name, "straight");
  EXPECT_EQ(set->Type(1).name, "cross4");
  EXPECT_EQ(set->Type(2).name, "deadend");
  // Copies are numbered in file order.
  EXPECT_EQ(set->Type(0).first_id, 0);
  EXPECT_EQ(set->Type(1).first_id, 2);
  EXPECT_EQ(set->Type(2).first_id, 3);
  const std::vector<int> type_of = {0, 0, 1, 2, 2, 2};
  for (int tile = 0; tile < set->TileCount(); ++tile)
    EXPECT_EQ(set->TypeIndexOf(tile), type_of[tile]);

  const TileType& cross = set->Type(1);
  ASSERT_EQ(cross.FeatureCount(), 8);
  int streets = 0;
  for (const FeatureDef& def : cross.features) {
    if (def.kind != FeatureKind::kStreet) continue;
    ++streets;
    EXPECT_EQ(def.end, StreetEnd::kCrossing);
  }
  EXPECT_EQ(streets, 4);
  const FeatureDef& fish = cross.features[static_cast<size_t>(cross.port_feature[2])];
  EXPECT_EQ(fish.kind, FeatureKind::kMarket);
  EXPECT_EQ(fish.market, MarketKind::kFish);
  EXPECT_EQ(fish.label, 'b');

  const TileType& deadend = set->Type(2);
  EXPECT_EQ(deadend.building, Building::kPublic);
  EXPECT_EQ(deadend.street_sides, 0b0001);
  const FeatureDef& street = deadend.features[static_cast<size_t>(deadend.port_feature[1])];
  EXPECT_EQ(street.kind, FeatureKind::kStreet);
  EXPECT_EQ(street.end, StreetEnd::kBuilding);
}

// The example in docs/tiles.md itself parses (the copy above must not drift from it).
TEST(TileSet, AcceptsTheExampleOfTheDocs) {
  std::ifstream file(std::string(CARC_SOURCE_DIR) + "/docs/tiles.md");
  ASSERT_TRUE(file.good());
  std::stringstream buffer;
  buffer << file.rdbuf();
  const std::string doc = buffer.str();
  const size_t heading = doc.find("## Example");
  ASSERT_NE(heading, std::string::npos);
  const size_t open = doc.find("```\n", heading);
  ASSERT_NE(open, std::string::npos);
  const size_t close = doc.find("```", open + 4);
  ASSERT_NE(close, std::string::npos);
  const std::string example = doc.substr(open + 4, close - open - 4);
  EXPECT_EQ(example, kExample);
  TileSetPtr set = Parse(example);
  ASSERT_NE(set, nullptr);
  EXPECT_EQ(set->TileCount(), 6);
}

TEST(TileSet, CrlfLineEndingsAreAccepted) {
  std::string crlf;
  for (char c : kExample) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  TileSetPtr unix_set = Parse(kExample);
  TileSetPtr dos_set = Parse(crlf);
  ASSERT_NE(unix_set, nullptr);
  ASSERT_NE(dos_set, nullptr);
  EXPECT_EQ(dos_set->id(), "example");
  EXPECT_EQ(dos_set->version(), 1);
  ASSERT_EQ(dos_set->TypeCount(), unix_set->TypeCount());
  for (int i = 0; i < unix_set->TypeCount(); ++i) {
    const TileType& a = unix_set->Type(i);
    const TileType& b = dos_set->Type(i);
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.count, b.count);
    EXPECT_EQ(a.port_feature, b.port_feature);
    EXPECT_EQ(a.building, b.building);
    ASSERT_EQ(a.FeatureCount(), b.FeatureCount());
    for (int f = 0; f < a.FeatureCount(); ++f) {
      EXPECT_EQ(a.features[f].kind, b.features[f].kind);
      EXPECT_EQ(a.features[f].market, b.features[f].market);
      EXPECT_EQ(a.features[f].end, b.features[f].end);
    }
  }
  // An error in a CRLF file still names its line.
  EXPECT_PARSE_ERROR("tileset test 1\r\ntile t 1 a-a a-a a-a a-a\r\n", 2, "has no kind");
}

TEST(TileSet, CommentsAndBlankLinesAreIgnored) {
  TileSetPtr set = Parse(
      "\n# comment\n   \ntileset t 3  # trailing comment\n\n"
      "\ttile one 1 a-a a-a a-a a-a a=residential # a plain tile\n");
  ASSERT_NE(set, nullptr);
  EXPECT_EQ(set->id(), "t");
  EXPECT_EQ(set->version(), 3);
  EXPECT_EQ(set->TileCount(), 1);
}

TEST(TileSet, PortFeatureOfARotatedTile) {
  TileSetPtr set = Parse(kExample);
  ASSERT_NE(set, nullptr);
  const TileType& cross = set->Type(1);  // a1b b2c c3d d4a, the fish b in the north-east
  const int a = cross.FeatureAt(0, 0);
  const int b = cross.FeatureAt(2, 0);
  const int c = cross.FeatureAt(5, 0);
  const int d = cross.FeatureAt(8, 0);
  const int street1 = cross.FeatureAt(1, 0);
  const int street2 = cross.FeatureAt(4, 0);
  // Unrotated, FeatureAt is port_feature.
  for (int port = 0; port < kPorts; ++port)
    EXPECT_EQ(cross.FeatureAt(port, 0), cross.port_feature[port]);
  // A quarter turn clockwise: the fish corner moves to the south-east (ports 5 and 6), the
  // north street to the east midpoint.
  EXPECT_EQ(cross.FeatureAt(Port(kEast, 2), 1), b);
  EXPECT_EQ(cross.FeatureAt(Port(kSouth, 0), 1), b);
  EXPECT_EQ(cross.FeatureAt(Port(kEast, kMidPort), 1), street1);
  EXPECT_EQ(cross.FeatureAt(Port(kSouth, kMidPort), 1), street2);
  EXPECT_EQ(cross.FeatureAt(Port(kNorth, 0), 1), d);
  EXPECT_EQ(cross.FeatureAt(Port(kNorth, 2), 1), a);
  // A half turn: the fish in the south-west; three quarters: in the north-west.
  EXPECT_EQ(cross.FeatureAt(Port(kSouth, 2), 2), b);
  EXPECT_EQ(cross.FeatureAt(Port(kWest, 0), 2), b);
  EXPECT_EQ(cross.FeatureAt(Port(kWest, 2), 3), b);
  EXPECT_EQ(cross.FeatureAt(Port(kNorth, 0), 3), b);
  EXPECT_EQ(cross.FeatureAt(Port(kNorth, 2), 3), c);

  const TileType& deadend = set->Type(2);  // the street from the north
  for (int r = 0; r < 4; ++r) {
    for (int side = 0; side < kSides; ++side) {
      const int f = deadend.FeatureAt(Port(side, kMidPort), r);
      if (side == r) {
        ASSERT_GE(f, 0);
        EXPECT_EQ(deadend.features[static_cast<size_t>(f)].kind, FeatureKind::kStreet);
      } else {
        EXPECT_EQ(f, kNoFeature) << "rotation " << r << " side " << side;
      }
    }
  }
}

TEST(TileSet, StreetSidesRotated) {
  TileSetPtr set = Parse(kExample);
  ASSERT_NE(set, nullptr);
  const TileType& straight = set->Type(0);
  EXPECT_EQ(straight.street_sides, 0b0101);
  EXPECT_EQ(straight.street_sides_rotated,
            (std::array<uint8_t, 4>{0b0101, 0b1010, 0b0101, 0b1010}));
  const TileType& cross = set->Type(1);
  EXPECT_EQ(cross.street_sides_rotated, (std::array<uint8_t, 4>{0xF, 0xF, 0xF, 0xF}));
  const TileType& deadend = set->Type(2);
  EXPECT_EQ(deadend.street_sides_rotated, (std::array<uint8_t, 4>{0b0001, 0b0010, 0b0100, 0b1000}));
  TileSetPtr curve = Parse(OneTile("tile curve 1 a1b b1a a-a a-a a=residential b=residential"));
  ASSERT_NE(curve, nullptr);
  EXPECT_EQ(curve->Type(0).street_sides_rotated,
            (std::array<uint8_t, 4>{0b0011, 0b0110, 0b1100, 0b1001}));
}

TEST(TileSet, TouchingAreas) {
  TileSetPtr set = Parse(
      "tileset t 1\n"
      // A street between the two areas on both sides where they meet: they do not touch.
      "tile straight 1 a1b b-b b1a a-a a=residential b=fish\n"
      "tile curve 1 a1b b1a a-a a-a a=residential b=fish\n"
      // No street between them: they touch.
      "tile half 1 a-b b-b b-a a-a a=residential b=fish\n"
      // A street on one side only: they still touch across the other.
      "tile end 1 a1c c-b b-b b-a a=residential c=residential b=fish 1=market\n"
      // Opposite corners: each touches the residential area, not each other.
      "tile corners 1 a-b b-a a-d d-a a=residential b=fish d=grain\n");
  ASSERT_NE(set, nullptr);
  using Pairs = std::vector<std::array<uint8_t, 2>>;
  EXPECT_EQ(FindType(*set, "straight")->touching_areas, Pairs{});
  EXPECT_EQ(FindType(*set, "curve")->touching_areas, Pairs{});
  EXPECT_EQ(FindType(*set, "half")->touching_areas, (Pairs{{0, 1}}));
  // end: a=0, 1=1, c=2, b=3; a meets c only across the street, c and a each meet b.
  const TileType* end = FindType(*set, "end");
  ASSERT_EQ(end->features[0].label, 'a');
  ASSERT_EQ(end->features[2].label, 'c');
  ASSERT_EQ(end->features[3].label, 'b');
  EXPECT_EQ(end->touching_areas, (Pairs{{0, 3}, {2, 3}}));
  // corners: a=0, b=1, d=2.
  EXPECT_EQ(FindType(*set, "corners")->touching_areas, (Pairs{{0, 1}, {0, 2}}));
  // The four-way crossing of the example: every pair of areas has a street between them.
  TileSetPtr example = Parse(kExample);
  ASSERT_NE(example, nullptr);
  EXPECT_EQ(example->Type(1).touching_areas, Pairs{});
}

// ---------------------------------------------------------------------------------------------
// One test per rule of docs/tiles.md's Syntax section

TEST(TileSet, MissingHeader) {
  EXPECT_PARSE_ERROR("# no header\ntile one 1 a-a a-a a-a a-a a=residential\n", 2, "tileset");
  ExpectRefused("", 0, "tileset");
  ExpectRefused("# only a comment\n\n", 0, "tileset");
}

TEST(TileSet, NoTiles) { ExpectRefused("tileset t 1\n", 0, "tile"); }

TEST(TileSet, SecondHeader) {
  EXPECT_PARSE_ERROR("tileset t 1\ntile one 1 a-a a-a a-a a-a a=residential\ntileset u 2\n", 3,
                     "second");
}

TEST(TileSet, BadId) {
  EXPECT_PARSE_ERROR("tileset Upper 1\n", 1, "id");
  EXPECT_PARSE_ERROR("tileset under_score 1\n", 1, "id");
  EXPECT_PARSE_ERROR("tileset dot.ted 1\n", 1, "id");
}

TEST(TileSet, BadVersion) {
  EXPECT_PARSE_ERROR("tileset t one\n", 1, "version");
  EXPECT_PARSE_ERROR("tileset t -1\n", 1, "version");
  EXPECT_PARSE_ERROR("tileset t 1.5\n", 1, "version");
}

TEST(TileSet, UnknownLine) {
  EXPECT_PARSE_ERROR("tileset t 1\ntiles one 1 a-a a-a a-a a-a a=residential\n", 2, "tiles");
  EXPECT_PARSE_ERROR("tileset t 1\nhello\n", 2, "unknown line");
}

TEST(TileSet, WrongWordCount) {
  EXPECT_PARSE_ERROR("tileset t\n", 1, "tileset <id> <version>");
  EXPECT_PARSE_ERROR("tileset t 1 extra\n", 1, "tileset <id> <version>");
  EXPECT_PARSE_ERROR(OneTile("tile one 1 a-a a-a a-a"), 3, "tile <name> <count>");
  EXPECT_PARSE_ERROR(OneTile("tile"), 3, "tile <name> <count>");
}

TEST(TileSet, BadName) {
  EXPECT_PARSE_ERROR(OneTile("tile bad.name 1 a-a a-a a-a a-a a=residential"), 3, "name");
  EXPECT_PARSE_ERROR(OneTile("tile bad/name 1 a-a a-a a-a a-a a=residential"), 3, "name");
  // Upper case, digits, '_' and '-' are fine.
  EXPECT_NE(Parse(OneTile("tile Good_Name-2 1 a-a a-a a-a a-a a=residential")), nullptr);
}

TEST(TileSet, DuplicateName) {
  EXPECT_PARSE_ERROR(
      "tileset t 1\ntile one 1 a-a a-a a-a a-a a=residential\ntile one 2 a-a a-a a-a a-a a=fish\n",
      3, "'one' used twice");
}

TEST(TileSet, BadCount) {
  EXPECT_PARSE_ERROR(OneTile("tile one 0 a-a a-a a-a a-a a=residential"), 3, "count");
  EXPECT_PARSE_ERROR(OneTile("tile one 76 a-a a-a a-a a-a a=residential"), 3, "count");
  EXPECT_PARSE_ERROR(OneTile("tile one two a-a a-a a-a a-a a=residential"), 3, "count");
  EXPECT_PARSE_ERROR(OneTile("tile one -1 a-a a-a a-a a-a a=residential"), 3, "count");
  EXPECT_NE(Parse(OneTile("tile one 75 a-a a-a a-a a-a a=residential")), nullptr);
}

TEST(TileSet, SideNotThreeCharacters) {
  EXPECT_PARSE_ERROR(OneTile("tile one 1 a1 a-a a-a a-a a=residential"), 3,
                     "side 'a1' (north) must be three characters");
  EXPECT_PARSE_ERROR(OneTile("tile one 1 a-a a-a a-a a-aa a=residential"), 3, "(west)");
}

TEST(TileSet, BadHalf) {
  EXPECT_PARSE_ERROR(OneTile("tile one 1 a-a a-a a-i a-a a=residential"), 3, "half");
  EXPECT_PARSE_ERROR(OneTile("tile one 1 A-a a-a a-a a-a a=residential"), 3, "'A'");
  EXPECT_PARSE_ERROR(OneTile("tile one 1 a-a a-a a-a 1-a a=residential"), 3, "half");
}

TEST(TileSet, BadMidpoint) {
  EXPECT_PARSE_ERROR(OneTile("tile one 1 a5a a-a a-a a-a a=residential"), 3, "midpoint");
  EXPECT_PARSE_ERROR(OneTile("tile one 1 aaa a-a a-a a-a a=residential"), 3, "'a'");
  EXPECT_PARSE_ERROR(OneTile("tile one 1 a0a a-a a-a a-a a=residential"), 3, "midpoint");
}

TEST(TileSet, UndeclaredArea) {
  EXPECT_PARSE_ERROR(OneTile("tile one 1 a-b b-b b-a a-a a=residential"), 3,
                     "area 'b' has no kind");
}

TEST(TileSet, DeclaredButUnused) {
  EXPECT_PARSE_ERROR(OneTile("tile one 1 a-a a-a a-a a-a a=residential c=fish"), 3,
                     "'c' is declared but not used");
  EXPECT_PARSE_ERROR(OneTile("tile one 1 a-a a-a a-a a-a a=residential 2=building"), 3,
                     "'2' is declared but not used");
}

TEST(TileSet, DeclaredTwice) {
  EXPECT_PARSE_ERROR(OneTile("tile one 1 a-a a-a a-a a-a a=residential a=fish"), 3,
                     "'a' is declared twice");
  EXPECT_PARSE_ERROR(OneTile("tile one 1 a1a a-a a-a a-a a=residential 1=building 1=building"), 3,
                     "'1' is declared twice");
}

TEST(TileSet, UnknownKind) {
  EXPECT_PARSE_ERROR(OneTile("tile one 1 a-a a-a a-a a-a a=forest"), 3, "'forest'");
  EXPECT_PARSE_ERROR(OneTile("tile one 1 a1a a-a a-a a-a a=residential 1=river"), 3, "'river'");
  EXPECT_PARSE_ERROR(OneTile("tile one 1 a-a a-a a-a a-a a=residential colour=red"), 3,
                     "unknown key 'colour'");
  EXPECT_PARSE_ERROR(OneTile("tile one 1 a-a a-a a-a a-a a=residential a="), 3, "key=value");
  EXPECT_PARSE_ERROR(OneTile("tile one 1 a-a a-a a-a a-a a=residential plain"), 3, "key=value");
}

TEST(TileSet, OneSidedStreetWithoutEnd) {
  EXPECT_PARSE_ERROR(OneTile("tile one 1 a1a a-a a-a a-a a=residential"), 3,
                     "street '1' touches one side");
}

TEST(TileSet, TwoSidedStreetWithEnd) {
  EXPECT_PARSE_ERROR(OneTile("tile one 1 a1b b-b b1a a-a a=residential b=residential 1=building"),
                     3, "street '1' runs through the tile");
}

TEST(TileSet, StreetOnThreeSides) {
  EXPECT_PARSE_ERROR(
      OneTile("tile one 1 a1b b1c c1a a-a a=residential b=residential c=residential"), 3,
      "street '1' touches more than two sides");
}

TEST(TileSet, CrossingNeedsThreeEnds) {
  EXPECT_PARSE_ERROR(
      OneTile("tile one 1 a1b b2a a-a a-a a=residential b=residential 1=crossing 2=crossing"), 3,
      "crossing needs at least three");
  // A crossing and a building: still only one end at the crossing.
  EXPECT_PARSE_ERROR(
      OneTile("tile one 1 a1b b2a a-a a-a a=residential b=residential 1=crossing 2=building"), 3,
      "crossing");
}

TEST(TileSet, MarketEndWithoutMarket) {
  EXPECT_PARSE_ERROR(OneTile("tile one 1 a1a a-a a-a a-a a=residential 1=market"), 3,
                     "ends at a market, but the tile has none");
  EXPECT_NE(Parse(OneTile("tile one 1 a1a a-a a-a a-a a=grain 1=market")), nullptr);
}

TEST(TileSet, TwoBuildings) {
  EXPECT_PARSE_ERROR(
      OneTile("tile one 1 a-a a-a a-a a-a a=residential building=public building=public"), 3,
      "at most one building");
  EXPECT_PARSE_ERROR(OneTile("tile one 1 a-a a-a a-a a-a a=residential building=public "
                             "building=historic:Batiment"),
                     3, "at most one building");
}

TEST(TileSet, BadBuilding) {
  EXPECT_PARSE_ERROR(OneTile("tile one 1 a-a a-a a-a a-a a=residential building=private"), 3,
                     "building must be");
  EXPECT_PARSE_ERROR(OneTile("tile one 1 a-a a-a a-a a-a a=residential building=historic:"), 3,
                     "building must be");
  EXPECT_PARSE_ERROR(OneTile("tile one 1 a-a a-a a-a a-a a=residential building=historic:Saint.X"),
                     3, "building must be");
  // Underscores in a historic name become spaces.
  TileSetPtr set =
      Parse(OneTile("tile one 1 a-a a-a a-a a-a a=residential building=historic:Saint_Sernin"));
  ASSERT_NE(set, nullptr);
  EXPECT_EQ(set->Type(0).building, Building::kHistoric);
  EXPECT_EQ(set->Type(0).historic_name, "Saint Sernin");
}

TEST(TileSet, HistoricCountAboveOne) {
  EXPECT_PARSE_ERROR(OneTile("tile one 2 a-a a-a a-a a-a a=residential building=historic:Batiment"),
                     3, "unique");
}

TEST(TileSet, DuplicateHistoricName) {
  EXPECT_PARSE_ERROR(
      "tileset t 1\n"
      "tile one 1 a-a a-a a-a a-a a=residential building=historic:Grand_Puits\n"
      "tile two 1 a-a a-a a-a a-a a=fish building=public\n"
      "tile three 1 a-a a-a a-a a-a a=grain building=historic:Grand_Puits\n",
      4, "'Grand Puits' appears twice");
}

TEST(TileSet, MoreThanEightFeatures) {
  // Eight areas and a street: nine features.
  EXPECT_PARSE_ERROR(
      OneTile("tile one 1 a1b c-d e-f g-h a=residential b=residential c=residential d=residential "
              "e=residential f=residential g=residential h=residential 1=building"),
      3, "at most 8 features");
  // Eight are fine.
  EXPECT_NE(Parse(OneTile("tile one 1 a-b c-d e-f g-h a=residential b=residential c=residential "
                          "d=residential e=residential f=residential g=residential h=residential")),
            nullptr);
}

TEST(TileSet, ErrorNamesTheLineAfterValidLines) {
  const ParseError error = Refused(
      "tileset t 1\n"
      "tile one 1 a-a a-a a-a a-a a=residential\n"
      "\n"
      "# comment\n"
      "tile two 1 a-a a-a a-a a-a a=residential\n"
      "tile three 1 a1 a-a a-a a-a a=residential\n");
  EXPECT_EQ(error.line, 6);
  EXPECT_EQ(error.ToString(), "line 6: side 'a1' (north) must be three characters");
}

// ---------------------------------------------------------------------------------------------
// The default tile set: ruling R30

TEST(TileSet, DefaultSetParses) {
  TileSetPtr set = city::DefaultTileSet();
  ASSERT_NE(set, nullptr);
  EXPECT_EQ(set->id(), "the-city-reconstruction");
  EXPECT_GE(set->version(), 1);
  // The embedded text is the one parsed.
  auto again = ParseTileSet(city::DefaultTileSetText());
  ASSERT_TRUE(std::holds_alternative<TileSetPtr>(again));
  EXPECT_EQ(std::get<TileSetPtr>(again)->TileCount(), set->TileCount());
}

TEST(TileSet, DefaultSetHas75Tiles) {
  const TileSet& set = *city::DefaultTileSet();
  EXPECT_EQ(set.TileCount(), 75);
  int sum = 0;
  for (const TileType& type : set.types()) sum += type.count;
  EXPECT_EQ(sum, 75);
  // The default game's stacks hold exactly the set.
  const city::Config config;
  EXPECT_EQ(config.stack_sizes[0] + config.stack_sizes[1] + config.stack_sizes[2], 75);
}

TEST(TileSet, DefaultSetSidesAreTwoHalvesAndAnOptionalStreet) {
  for (const TileType& type : city::DefaultTileSet()->types()) {
    SCOPED_TRACE(type.name);
    for (int side = 0; side < kSides; ++side) {
      for (int k = 0; k < kPortsPerSide; ++k) {
        const int f = type.FeatureAt(PortOf(side, k), 0);
        if (k == kMidPort) {
          if (f == kNoFeature) continue;
          ASSERT_GE(f, 0);
          EXPECT_EQ(type.features[static_cast<size_t>(f)].kind, FeatureKind::kStreet);
          EXPECT_TRUE(type.street_sides & (1u << side));
        } else {
          ASSERT_GE(f, 0) << "side " << side << " half " << k;
          EXPECT_NE(type.features[static_cast<size_t>(f)].kind, FeatureKind::kStreet);
        }
      }
      if (type.port_feature[static_cast<size_t>(PortOf(side, kMidPort))] == kNoFeature) {
        EXPECT_FALSE(type.street_sides & (1u << side));
      }
    }
  }
}

TEST(TileSet, DefaultSetAreasAndMarketKinds) {
  std::map<MarketKind, int> market_areas;
  int residential_areas = 0;
  for (const TileType& type : city::DefaultTileSet()->types()) {
    SCOPED_TRACE(type.name);
    for (const FeatureDef& def : type.features) {
      switch (def.kind) {
        case FeatureKind::kStreet:
          EXPECT_EQ(def.market, MarketKind::kNone);
          break;
        case FeatureKind::kResidential:
          EXPECT_EQ(def.market, MarketKind::kNone);
          residential_areas += type.count;
          break;
        case FeatureKind::kMarket:
          // Exactly one kind per market area.
          EXPECT_TRUE(def.market == MarketKind::kFish || def.market == MarketKind::kGrain ||
                      def.market == MarketKind::kLivestock);
          market_areas[def.market] += type.count;
          break;
        case FeatureKind::kCity:
        case FeatureKind::kField:
        case FeatureKind::kMonastery:
        case FeatureKind::kRiver:
        case FeatureKind::kTower:
        case FeatureKind::kHouse:
        case FeatureKind::kCourt:
          ADD_FAILURE() << "The City's tiles show no " << core::ToString(def.kind);
          break;
      }
    }
  }
  EXPECT_GT(residential_areas, 0);
  const int fish = market_areas[MarketKind::kFish];
  const int grain = market_areas[MarketKind::kGrain];
  const int livestock = market_areas[MarketKind::kLivestock];
  EXPECT_EQ(market_areas.size(), 3u);
  const int total = fish + grain + livestock;
  EXPECT_GT(total, 0);
  // Each kind on roughly a third of the market areas.
  EXPECT_LE(std::abs(fish - grain), 2) << fish << " fish, " << grain << " grain";
  EXPECT_LE(std::abs(grain - livestock), 2) << grain << " grain, " << livestock << " livestock";
  EXPECT_LE(std::abs(livestock - fish), 2) << livestock << " livestock, " << fish << " fish";
}

// The street shapes of a tile type, from its parsed segments.
struct Shapes {
  bool straight = false;
  bool curve = false;
  bool building_end = false;
  bool market_end = false;
  int crossing_ends = 0;
};

Shapes ShapesOf(const TileType& type) {
  Shapes s;
  for (const FeatureDef& def : type.features) {
    if (def.kind != FeatureKind::kStreet) continue;
    std::vector<int> sides;
    for (int side = 0; side < kSides; ++side) {
      if (def.ports & (1u << PortOf(side, kMidPort))) sides.push_back(side);
    }
    if (sides.size() == 2) {
      if (sides[1] - sides[0] == 2) {
        s.straight = true;
      } else {
        s.curve = true;
      }
      EXPECT_EQ(def.end, StreetEnd::kThrough) << type.name;
    } else {
      EXPECT_EQ(sides.size(), 1u) << type.name;
      if (def.end == StreetEnd::kCrossing) ++s.crossing_ends;
      if (def.end == StreetEnd::kBuilding) s.building_end = true;
      if (def.end == StreetEnd::kMarket) s.market_end = true;
    }
  }
  return s;
}

TEST(TileSet, DefaultSetStreetShapes) {
  int straights = 0, curves = 0, crossings3 = 0, crossings4 = 0, building_ends = 0, market_ends = 0;
  for (const TileType& type : city::DefaultTileSet()->types()) {
    const Shapes s = ShapesOf(type);
    straights += s.straight ? type.count : 0;
    curves += s.curve ? type.count : 0;
    crossings3 += s.crossing_ends == 3 ? type.count : 0;
    crossings4 += s.crossing_ends == 4 ? type.count : 0;
    building_ends += s.building_end ? type.count : 0;
    market_ends += s.market_end ? type.count : 0;
    if (s.market_end) {
      bool has_market = false;
      for (const FeatureDef& def : type.features) has_market |= def.kind == FeatureKind::kMarket;
      EXPECT_TRUE(has_market) << type.name;
    }
  }
  EXPECT_GT(straights, 0);
  EXPECT_GT(curves, 0);
  EXPECT_GT(crossings3, 0);
  EXPECT_GT(crossings4, 0);
  EXPECT_GT(building_ends, 0);
  EXPECT_GT(market_ends, 0);
}

TEST(TileSet, DefaultSetBuildings) {
  int public_tiles = 0;
  int historic_tiles = 0;
  std::multiset<std::string> names;
  for (const TileType& type : city::DefaultTileSet()->types()) {
    switch (type.building) {
      case Building::kNone:
        EXPECT_TRUE(type.historic_name.empty()) << type.name;
        break;
      case Building::kPublic:
        public_tiles += type.count;
        EXPECT_TRUE(type.historic_name.empty()) << type.name;
        break;
      case Building::kHistoric:
        historic_tiles += type.count;
        EXPECT_EQ(type.count, 1) << type.name;
        names.insert(type.historic_name);
        break;
    }
  }
  // A tile carries at most one building, so the public and historic tiles are distinct.
  EXPECT_EQ(public_tiles, 32);
  EXPECT_EQ(historic_tiles, 7);
  const std::multiset<std::string> expected = {"Petit Puits",   "Grand Puits",  "Tour Carree",
                                               "Batiment",      "Saint Sernin", "Saint Nazaire",
                                               "Chateau Comtal"};
  EXPECT_EQ(names, expected);
}

// Ruling R31: every tile may be turned to any of the four orientations; as the first tile at the
// origin, all four are legal.
TEST(TileSet, DefaultSetEveryTileInFourRotations) {
  TileSetPtr tiles = city::DefaultTileSet();
  const city::Config config;
  std::vector<city::Action> legal;
  for (int tile = 0; tile < tiles->TileCount(); ++tile) {
    SCOPED_TRACE("tile " + std::to_string(tile) + " (" + tiles->TypeOf(tile).name + ")");
    std::vector<int> order = {tile};
    for (int t = 0; t < tiles->TileCount(); ++t) {
      if (t != tile) order.push_back(t);
    }
    auto created = city::Game::CreateWithOrder(tiles, config, 1, order);
    ASSERT_TRUE(std::holds_alternative<city::Game>(created));
    city::Game game = std::get<city::Game>(std::move(created));
    ASSERT_FALSE(game.Apply(city::kChance, city::Action::Draw(tile), nullptr).has_value());
    game.LegalActions(&legal);
    ASSERT_EQ(legal.size(), 4u);
    for (int r = 0; r < 4; ++r) {
      EXPECT_EQ(legal[static_cast<size_t>(r)], city::Action::PlaceTile(0, 0, r));
      city::Game copy = game;
      EXPECT_FALSE(copy.Apply(0, city::Action::PlaceTile(0, 0, r), nullptr).has_value());
      EXPECT_EQ(copy.board().Placed(0).street_sides, tiles->TypeOf(tile).street_sides_rotated[r]);
    }
  }
}

}  // namespace
}  // namespace carc::core
