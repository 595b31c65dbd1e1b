// The board shared by every tile-laying game: placed tiles on a grid, the frontier of empty
// cells next to them, and the features that tiles form when joined side to side.
//
// A Board is a plain value (no pointers, no heap): copying it copies the whole position, which
// keeps game states cheap to clone and compare. It knows nothing of any game's rules: it joins
// features, counts their open ports and their followers, and reports which street or market a
// change has completed. Games put rules on top (who may place what, when, for how many points).
//
// Features are numbered kMaxFeaturesPerTile per placed tile: feature f of the tile placed n-th
// is n * kMaxFeaturesPerTile + f. A union-find joins the numbers of one feature; its root holds
// the feature's aggregates (open ports, tiles, market kinds, followers per player).
#pragma once

#include <array>
#include <bit>
#include <cassert>
#include <cstdint>

#include "core/geometry.h"
#include "core/tileset.h"

namespace carc::core {

inline constexpr int kMaxPlayers = 5;
// The most tiles one game can hold: the base game with the River has 84 (83 in play).
inline constexpr int kMaxTiles = 84;
// Tiles may lie at |x|, |y| <= kMaxCoord (the board's reach, which no game of 75-83 tiles comes
// near in practice); the grid keeps one more ring for their neighbours.
inline constexpr int kMaxCoord = 79;
inline constexpr int kGridRadius = kMaxCoord + 1;
inline constexpr int kGridSide = 2 * kGridRadius + 1;
inline constexpr size_t kGridCells = static_cast<size_t>(kGridSide) * kGridSide;
inline constexpr size_t kMaxFeatures = static_cast<size_t>(kMaxTiles) * kMaxFeaturesPerTile;
inline constexpr int kMaxFrontier = 4 * kMaxTiles;

// The bits set in `w`, counted in place (SWAR): std::popcount calls a library routine on the
// x86-64 baseline, which has no popcount instruction, and the board counts bits at every
// placement and every scoring.
constexpr int CountBits(uint32_t w) {
  w -= (w >> 1) & 0x55555555u;
  w = (w & 0x33333333u) + ((w >> 2) & 0x33333333u);
  return static_cast<int>((((w + (w >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}

// The placement indices of the tiles a feature covers, as a small fixed bit set.
class TileBits {
 public:
  void Set(int index) { words_[static_cast<size_t>(index / 32)] |= 1u << (index % 32); }
  int Count() const {
    int n = 0;
    for (uint32_t w : words_) n += CountBits(w);
    return n;
  }
  TileBits& operator|=(const TileBits& other) {
    for (size_t i = 0; i < words_.size(); ++i) words_[i] |= other.words_[i];
    return *this;
  }
  friend bool operator==(const TileBits&, const TileBits&) = default;

 private:
  std::array<uint32_t, (kMaxTiles + 31) / 32> words_{};
};

using FeatureId = int;

struct PlacedTile {
  uint8_t tile = 0;  // tile id in the tile set
  int8_t x = 0;
  int8_t y = 0;
  uint8_t rotation = 0;      // quarter turns clockwise
  uint8_t closed_sides = 0;  // bit s: side s is closed by a wall (or the game's equivalent)
  uint8_t street_sides = 0;  // bit s: a street crosses side s (rotation applied)
  Cell cell() const { return {x, y}; }
  friend bool operator==(const PlacedTile&, const PlacedTile&) = default;
};

// Aggregates of one feature, valid at its union-find root.
struct FeatureInfo {
  FeatureKind kind = FeatureKind::kResidential;
  uint8_t market_kinds = 0;  // MarketBit() of every market kind in the feature
  uint16_t open_ports = 0;   // ports facing an empty cell with no wall between
  std::array<uint8_t, kMaxPlayers> followers{};
  uint8_t pennants = 0;  // cities: pennants on the city's segments
  uint8_t symbols = 0;   // The Castle: markets on a court, fountains on a path
  TileBits tiles;        // placement indices of the tiles the feature covers

  int TileCount() const { return tiles.Count(); }
  int FollowerCount() const {
    int n = 0;
    for (uint8_t f : followers) n += f;
    return n;
  }
  bool Complete() const { return open_ports == 0; }
  friend bool operator==(const FeatureInfo&, const FeatureInfo&) = default;
};

// Whether a feature of this kind is finished once it has no open port: streets (roads, paths),
// markets, cities, towers and houses. Residential areas, fields and courts are never "completed";
// a monastery has no ports (its game counts the tiles around it); a river is never scored.
constexpr bool CompletesWhenClosed(FeatureKind kind) {
  return kind == FeatureKind::kStreet || kind == FeatureKind::kMarket ||
         kind == FeatureKind::kCity || kind == FeatureKind::kTower || kind == FeatureKind::kHouse;
}

// Features that a placement or a closed side finished (CompletesWhenClosed), as roots.
struct Completed {
  // At most the tile's own features and one per port it meets.
  static constexpr size_t kCapacity = kMaxFeaturesPerTile + kSides * kPortsPerSide;
  // Feature ids fit in 16 bits (kMaxFeatures): the whole set is then cleared with a few stores.
  std::array<uint16_t, kCapacity> roots{};
  int count = 0;
  void Add(FeatureId root) {
    for (int i = 0; i < count; ++i) {
      if (roots[static_cast<size_t>(i)] == root) return;
    }
    assert(count < static_cast<int>(roots.size()));
    roots[static_cast<size_t>(count++)] = static_cast<uint16_t>(root);
  }
  friend bool operator==(const Completed&, const Completed&) = default;
};

class Board {
 public:
  // What the grid holds for a cell without a tile. The placement indices lie below these.
  static constexpr uint8_t kEmpty = 0xFF;
  static constexpr uint8_t kFrontier = 0xFE;        // next to a tile
  static constexpr uint8_t kClosedFrontier = 0xFD;  // next to a tile's closed side (CloseSide)

  Board() { grid_.fill(kEmpty); }

  int TileCount() const { return count_; }
  static bool InBounds(Cell c) {
    return c.x >= -kMaxCoord && c.x <= kMaxCoord && c.y >= -kMaxCoord && c.y <= kMaxCoord;
  }
  // The placement index of the tile at `c`, or -1. `c` may be one ring outside InBounds.
  int IndexAt(Cell c) const {
    const uint8_t v = grid_[GridIndex(c)];
    return v >= kClosedFrontier ? -1 : v;
  }
  bool HasTile(Cell c) const { return IndexAt(c) >= 0; }
  // Whether `c` is an empty cell that a closed side of a placed tile looks onto (a wall's
  // outside, in The City). `c` may be one ring outside InBounds (never such a cell there).
  bool FacesClosedSide(Cell c) const { return grid_[GridIndex(c)] == kClosedFrontier; }
  // The same by a cell's place in the board's grid (GridIndexOf: row by row from the south-west
  // corner, so a step east adds 1 and a step north kGridSide), for searches that walk the grid.
  static size_t GridIndexOf(Cell c) { return GridIndex(c); }
  // A step towards each side (north, east, south, west), in grid indices.
  static constexpr std::array<ptrdiff_t, kSides> kGridStep = {kGridSide, 1, -kGridSide, -1};
  bool HasTileAt(size_t index) const { return grid_[index] < kClosedFrontier; }
  bool FacesClosedSideAt(size_t index) const { return grid_[index] == kClosedFrontier; }
  const PlacedTile& Placed(int index) const { return placed_[static_cast<size_t>(index)]; }
  // Which of the four cells around the lattice point `v` hold a tile: bit 0 the cell
  // (v.x - 1, v.y - 1), bit 1 (v.x, v.y - 1), bit 2 (v.x - 1, v.y), bit 3 (v.x, v.y).
  unsigned TilesAround(Vertex v) const { return TilesAroundAt(GridIndex({v.x - 1, v.y - 1})); }
  // The same from the grid index (GridIndexOf) of the cell south-west of the point, for walks
  // that step from point to point.
  unsigned TilesAroundAt(size_t below) const {
    const size_t above = below + kGridSide;
    return static_cast<unsigned>(grid_[below] < kClosedFrontier) |
           static_cast<unsigned>(grid_[below + 1] < kClosedFrontier) << 1 |
           static_cast<unsigned>(grid_[above] < kClosedFrontier) << 2 |
           static_cast<unsigned>(grid_[above + 1] < kClosedFrontier) << 3;
  }

  // What the placed neighbours of an empty cell ask of a tile there: which sides touch a tile,
  // and which of those carry a street. A tile fits (streets continue, R6) when its own street
  // sides restricted to `sides` equal `streets`.
  struct CellContext {
    uint8_t sides = 0;
    uint8_t streets = 0;
    bool Fits(uint8_t tile_streets) const { return (tile_streets & sides) == streets; }
    // Index into TileType::fitting_rotations.
    size_t Key() const { return static_cast<size_t>(sides << 4 | streets); }
    friend bool operator==(const CellContext&, const CellContext&) = default;
  };
  CellContext Context(Cell c) const;

  // Empty cells that share a side with a placed tile, sorted by cell (x, then y), each with its
  // context, the tiles around it and the closed sides it faces, all kept up to date as tiles are
  // placed and sides closed. Kept sorted so that games list their placements in order without
  // sorting them.
  struct FrontierEntry {
    int8_t x = 0;
    int8_t y = 0;
    CellContext context;
    uint8_t ring = 0;          // bit i: the cell at kRingOffsets[i] from it holds a tile
    uint8_t closed_sides = 0;  // bit s: the tile across side s has closed the side it shows
    Cell cell() const { return {x, y}; }
    friend bool operator==(const FrontierEntry&, const FrontierEntry&) = default;
  };
  // The eight cells around a cell, clockwise from north: N, NE, E, SE, S, SW, W, NW.
  static constexpr std::array<std::array<int, 2>, 8> kRingOffsets = {
      {{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}};
  static Cell RingCell(Cell c, int i) {
    return {c.x + kRingOffsets[Index(i)][0], c.y + kRingOffsets[Index(i)][1]};
  }
  // The ring bits (FrontierEntry::ring) of the cells around `c` that hold a tile.
  uint8_t RingAt(Cell c) const;
  int FrontierSize() const { return frontier_count_; }
  const FrontierEntry& Frontier(int i) const { return frontier_[static_cast<size_t>(i)]; }
  Cell FrontierCell(int i) const { return Frontier(i).cell(); }

  // Bounding box of the placed tiles (meaningless while the board is empty).
  int min_x() const { return min_x_; }
  int max_x() const { return max_x_; }
  int min_y() const { return min_y_; }
  int max_y() const { return max_y_; }

  // Places a tile (the caller has checked legality) and joins its features to its neighbours'.
  // Streets, markets and cities that the placement completes are added to `completed`.
  void Place(const TileSet& set, int tile, Cell c, int rotation, Completed* completed);

  // Closes one side of a placed tile (a wall on it): its ports stop being open, and an empty
  // cell beyond it FacesClosedSide. Streets and markets that this completes are added to
  // `completed`. With FrontierUpkeep::kLater, the frontier entry of the cell beyond is left for
  // CatchUpFrontier, which must follow before the frontier is read: closing a whole outline
  // then finds no cell in the frontier one by one.
  enum class FrontierUpkeep : uint8_t { kNow, kLater };
  void CloseSide(const TileSet& set, int index, int side, Completed* completed,
                 FrontierUpkeep upkeep = FrontierUpkeep::kNow);
  // Brings every frontier entry's closed sides up to date after closes with kLater.
  void CatchUpFrontier();

  FeatureId FeatureOf(int index, int local) const { return index * kMaxFeaturesPerTile + local; }
  FeatureId Root(FeatureId f) const {
    // Two steps up without looking (a root is its own parent), then the rest: most features lie
    // within two steps of their root, and a loop's length per feature is as good as random.
    f = parent_[Index(parent_[Index(f)])];
    while (parent_[static_cast<size_t>(f)] != f) f = parent_[static_cast<size_t>(f)];
    return f;
  }
  const FeatureInfo& Info(FeatureId root) const {
    assert(Root(root) == root);
    return info_[static_cast<size_t>(root)];
  }
  void AddFollower(FeatureId f, int player) { ++info_[Index(Root(f))].followers[Index(player)]; }
  void RemoveFollower(FeatureId f, int player) {
    uint8_t& n = info_[Index(Root(f))].followers[Index(player)];
    assert(n > 0);
    --n;
  }

  friend bool operator==(const Board&, const Board&) = default;

 private:
  static size_t Index(int i) { return static_cast<size_t>(i); }
  static bool IsFrontierMark(uint8_t v) { return v == kFrontier || v == kClosedFrontier; }
  static size_t GridIndex(Cell c) {
    assert(c.x >= -kGridRadius && c.x <= kGridRadius && c.y >= -kGridRadius && c.y <= kGridRadius);
    return static_cast<size_t>(c.y + kGridRadius) * kGridSide +
           static_cast<size_t>(c.x + kGridRadius);
  }
  void AddFeatures(const TileType& type, int index);
  // Joins the features rooted at `ra` (that of `a`) and `rb`.
  void Join(FeatureId a, FeatureId ra, FeatureId rb);
  // `removed_at`: where the placed cell stood in the frontier before it was removed, or -1.
  void UpdateFrontier(Cell placed, uint8_t street_sides, int removed_at);
  // Removes `c` from the frontier; returns where it stood.
  int RemoveFromFrontier(Cell c);
  void InsertIntoFrontier(int position, Cell c);
  // Orders cells as Cell's operator< does (x, then y): |y| < 128 on the grid.
  static int FrontierKey(int x, int y) { return x * 256 + y; }
  // The position of `c` in the sorted frontier, or where it would be inserted.
  int FrontierLowerBound(Cell c) const;
  FrontierEntry& FrontierEntryAt(Cell c) {
    const int position = FrontierLowerBound(c);
    assert(position < frontier_count_ && frontier_[Index(position)].cell() == c);
    return frontier_[Index(position)];
  }

  std::array<uint8_t, kGridCells> grid_;  // filled by the constructor
  std::array<PlacedTile, kMaxTiles> placed_{};
  std::array<uint16_t, kMaxFeatures> parent_{};
  std::array<FeatureInfo, kMaxFeatures> info_{};
  std::array<FrontierEntry, kMaxFrontier> frontier_{};
  int count_ = 0;
  int frontier_count_ = 0;
  int min_x_ = 0, max_x_ = 0, min_y_ = 0, max_y_ = 0;
};

// The players holding the most followers on a feature (R14): a bit per player, 0 if none.
uint32_t MajorityHolders(const FeatureInfo& info, int players);

}  // namespace carc::core
