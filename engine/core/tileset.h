// Tile sets: the tile types of a game and the numbered copies that go into its stacks.
//
// A TileSet is parsed from text (docs/tiles.md) and is immutable afterwards; games share one
// through a shared_ptr. Tile ids are the copies' numbers in file order. The engine does no I/O:
// callers read the file and pass its text, or use a set compiled into the binary.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/geometry.h"

namespace carc::core {

// Streets, residential areas and markets are The City's; roads and The Castle's paths are streets
// by other names (midpoint segments that score per tile). Cities and fields are areas on halves,
// a monastery lies in a tile's centre (no ports), and a river is a midpoint segment that nobody
// may occupy. Towers, houses and courts are The Castle's areas.
enum class FeatureKind : uint8_t {
  kStreet,
  kResidential,
  kMarket,
  kCity,
  kField,
  kMonastery,
  kRiver,
  kTower,
  kHouse,
  kCourt,
};
enum class MarketKind : uint8_t { kNone = 0, kFish = 1, kGrain = 2, kLivestock = 3 };
// Where a street that touches one side of its tile ends. A square (The Castle) ends paths like a
// crossing; a street ending at the wall lies on one of The Castle's start spaces.
enum class StreetEnd : uint8_t {
  kThrough,
  kCrossing,
  kBuilding,
  kMarket,
  kMonastery,
  kCity,
  kSquare,
  kWall,
};
enum class Building : uint8_t { kNone, kPublic, kHistoric };
// A tile with a part in a game's set-up: the start tile, the River's spring and its lake, and
// The Castle's start spaces (strips printed on the castle wall, placed by the game's board).
enum class TileRole : uint8_t { kNone, kStart, kSpring, kLake, kStartSpace };

inline constexpr int kMaxFeaturesPerTile = 8;
inline constexpr int kNoFeature = -1;

constexpr uint8_t MarketBit(MarketKind kind) {
  return kind == MarketKind::kNone ? 0 : static_cast<uint8_t>(1u << (static_cast<int>(kind) - 1));
}

// One feature drawn on a tile: an area (residential or market) or a street segment.
struct FeatureDef {
  FeatureKind kind = FeatureKind::kResidential;
  MarketKind market = MarketKind::kNone;  // for markets
  StreetEnd end = StreetEnd::kThrough;    // for streets that touch one side
  bool pennant = false;                   // for cities: the segment carries a pennant
  // The Castle: a market on a court, a fountain on a path (a court counts its markets, a path
  // scores double with one or more fountains).
  bool symbol = false;
  char label = '?';    // the letter or digit of the tile file
  uint16_t ports = 0;  // bit p: the feature touches port p (unrotated)
};

struct TileType {
  std::string name;
  int count = 0;
  int first_id = 0;  // id of the first copy; copies are first_id .. first_id + count - 1
  std::array<int8_t, kPorts> port_feature{};  // feature index per port, kNoFeature at plain sides
  std::vector<FeatureDef> features;
  // Pairs of area indices that touch inside the tile (docs/tiles.md), each with first < second.
  std::vector<std::array<uint8_t, 2>> touching_areas;
  Building building = Building::kNone;
  std::string historic_name;  // with spaces, e.g. "Saint Sernin"
  TileRole role = TileRole::kNone;
  // What each side shows, for games where every side must match its neighbour (roads to roads,
  // cities to cities, ...): the kinds of its three ports (first half, midpoint, second half),
  // 4 bits each with 0 for "nothing", unrotated. `side_kinds_facing` is the same side read from
  // the neighbour's point of view (halves swapped): a tile fits next to another where its side's
  // side_kinds equals the neighbour's facing side's side_kinds_facing.
  std::array<uint16_t, kSides> side_kinds{};
  std::array<uint16_t, kSides> side_kinds_facing{};
  uint8_t street_sides = 0;  // bit s: a street crosses the midpoint of side s (unrotated)
  std::array<uint8_t, 4> street_sides_rotated{};  // street_sides for each rotation
  // For each neighbour context (sides touching a tile << 4 | those with a street), the
  // rotations (bit r) in which the tile's streets continue theirs: one lookup per cell.
  std::array<uint8_t, 256> fitting_rotations{};

  // port_feature for each rotation: port_feature_rotated[r][p] = port_feature[UnrotatePort(p, r)].
  std::array<std::array<int8_t, kPorts>, 4> port_feature_rotated{};

  // The feature at `port` when the tile is turned `rotation` quarter turns clockwise.
  int FeatureAt(int port, int rotation) const {
    return port_feature_rotated[static_cast<size_t>(rotation)][static_cast<size_t>(port)];
  }
  int FeatureCount() const { return static_cast<int>(features.size()); }
  // side_kinds of side `side` when the tile is turned `rotation` quarter turns clockwise.
  uint16_t SideKinds(int side, int rotation) const {
    return side_kinds[static_cast<size_t>(UnrotateSide(side, rotation))];
  }
  uint16_t SideKindsFacing(int side, int rotation) const {
    return side_kinds_facing[static_cast<size_t>(UnrotateSide(side, rotation))];
  }
  bool HasFeature(FeatureKind kind) const {
    for (const FeatureDef& def : features) {
      if (def.kind == kind) return true;
    }
    return false;
  }
};

class TileSet {
 public:
  const std::string& id() const { return id_; }
  int version() const { return version_; }
  int TileCount() const { return static_cast<int>(type_of_tile_.size()); }
  int TypeCount() const { return static_cast<int>(types_.size()); }
  const TileType& Type(int type_index) const { return types_[static_cast<size_t>(type_index)]; }
  int TypeIndexOf(int tile_id) const { return type_of_tile_[static_cast<size_t>(tile_id)]; }
  const TileType& TypeOf(int tile_id) const { return Type(TypeIndexOf(tile_id)); }
  const std::vector<TileType>& types() const { return types_; }

 private:
  friend class TileSetParser;
  std::string id_;
  int version_ = 0;
  std::vector<TileType> types_;
  std::vector<uint8_t> type_of_tile_;
};

struct ParseError {
  int line = 0;  // 1-based; 0 when the error concerns the whole file
  std::string message;
  std::string ToString() const;
};

// Parses a tile-set file; returns the set or the first error, naming its line.
std::variant<std::shared_ptr<const TileSet>, ParseError> ParseTileSet(std::string_view text);

const char* ToString(FeatureKind kind);
const char* ToString(MarketKind kind);
const char* ToString(StreetEnd end);
const char* ToString(Building building);
const char* ToString(TileRole role);

}  // namespace carc::core
