#include "core/board.h"

#include <algorithm>

namespace carc::core {

Board::CellContext Board::Context(Cell c) const {
  // Without a branch on which sides hold a tile, which for a random cell is as good as random.
  unsigned sides = 0;
  unsigned streets = 0;
  for (int side = 0; side < kSides; ++side) {
    const uint8_t v = grid_[GridIndex(Neighbour(c, side))];
    const unsigned tile = v < kClosedFrontier ? 1u : 0u;
    const unsigned street = placed_[tile != 0 ? v : 0].street_sides >> Opposite(side) & 1u;
    sides |= tile << side;
    streets |= (tile & street) << side;
  }
  return {static_cast<uint8_t>(sides), static_cast<uint8_t>(streets)};
}

void Board::Place(const TileSet& set, int tile, Cell c, int rotation, Completed* completed) {
  assert(InBounds(c) && !HasTile(c) && count_ < kMaxTiles);
  const TileType& type = set.TypeOf(tile);
  const int index = count_++;
  PlacedTile& placed = placed_[Index(index)];
  placed.tile = static_cast<uint8_t>(tile);
  placed.x = static_cast<int8_t>(c.x);
  placed.y = static_cast<int8_t>(c.y);
  placed.rotation = static_cast<uint8_t>(rotation);
  placed.closed_sides = 0;
  placed.street_sides = type.street_sides_rotated[Index(rotation)];
  const int removed_at = IsFrontierMark(grid_[GridIndex(c)]) ? RemoveFromFrontier(c) : -1;
  grid_[GridIndex(c)] = static_cast<uint8_t>(index);
  if (index == 0) {
    min_x_ = max_x_ = c.x;
    min_y_ = max_y_ = c.y;
  } else {
    min_x_ = std::min(min_x_, c.x);
    max_x_ = std::max(max_x_, c.x);
    min_y_ = std::min(min_y_, c.y);
    max_y_ = std::max(max_y_, c.y);
  }
  AddFeatures(type, index);

  // Join every port with the port it meets on each placed neighbour. Both ports stop being open.
  // A neighbour's feature can be completed without joining the new tile (a market closed off
  // by residential halves), so the features met and not joined are checked below as well as the
  // tile's own (those joined now share a root with one of the tile's own).
  std::array<FeatureId, static_cast<size_t>(kSides) * kPortsPerSide> met{};
  int met_count = 0;
  for (int side = 0; side < kSides; ++side) {
    const int n = IndexAt(Neighbour(c, side));
    if (n < 0) continue;
    const PlacedTile& other = placed_[Index(n)];
    const TileType& other_type = set.TypeOf(other.tile);
    for (int k = 0; k < kPortsPerSide; ++k) {
      const int port = PortOf(side, k);
      const int mine = type.FeatureAt(port, rotation);
      const int theirs = other_type.FeatureAt(FacingPort(port), other.rotation);
      assert((mine == kNoFeature) == (theirs == kNoFeature));
      if (mine == kNoFeature) continue;
      const FeatureId a = FeatureOf(index, mine);
      const FeatureId b = FeatureOf(n, theirs);
      const FeatureId root_a = Root(a);
      const FeatureId root_b = Root(b);
      info_[Index(root_a)].open_ports--;
      info_[Index(root_b)].open_ports--;
      // Areas of different kinds (residential against market) touch but stay separate.
      if (info_[Index(root_a)].kind == info_[Index(root_b)].kind) {
        Join(a, root_a, root_b);
      } else {
        met[Index(met_count++)] = b;
      }
    }
  }
  UpdateFrontier(c, placed.street_sides, removed_at);
  const auto check = [&](FeatureId f) {
    const FeatureId root = Root(f);
    const FeatureInfo& info = info_[Index(root)];
    if (CompletesWhenClosed(info.kind) && info.Complete()) completed->Add(root);
  };
  for (int f = 0; f < type.FeatureCount(); ++f) check(FeatureOf(index, f));
  for (int i = 0; i < met_count; ++i) check(met[Index(i)]);
}

void Board::AddFeatures(const TileType& type, int index) {
  // Every slot of the tile starts as a feature of its own with nothing in it, then the tile's
  // features are filled in: two loops of fixed length and of the feature count, not a branch
  // per slot on whether the tile has that many.
  for (int f = 0; f < kMaxFeaturesPerTile; ++f) {
    const FeatureId id = FeatureOf(index, f);
    parent_[Index(id)] = static_cast<uint16_t>(id);
    info_[Index(id)] = FeatureInfo{};
  }
  for (int f = 0; f < type.FeatureCount(); ++f) {
    FeatureInfo& info = info_[Index(FeatureOf(index, f))];
    const FeatureDef& def = type.features[Index(f)];
    info.kind = def.kind;
    info.market_kinds = MarketBit(def.market);
    info.pennants = def.pennant ? 1 : 0;
    info.symbols = def.symbol ? 1 : 0;
    info.open_ports = static_cast<uint16_t>(CountBits(def.ports));
    info.tiles.Set(index);
  }
}

void Board::Join(FeatureId a, FeatureId ra, FeatureId rb) {
  if (ra == rb) return;
  // The lower id stays the root: roots are then independent of the order of joins.
  if (rb < ra) std::swap(ra, rb);
  FeatureInfo& into = info_[Index(ra)];
  const FeatureInfo& from = info_[Index(rb)];
  assert(into.kind == from.kind);
  into.market_kinds |= from.market_kinds;
  into.pennants = static_cast<uint8_t>(into.pennants + from.pennants);
  into.symbols = static_cast<uint8_t>(into.symbols + from.symbols);
  into.open_ports = static_cast<uint16_t>(into.open_ports + from.open_ports);
  for (int p = 0; p < kMaxPlayers; ++p) into.followers[Index(p)] += from.followers[Index(p)];
  into.tiles |= from.tiles;
  parent_[Index(rb)] = static_cast<uint16_t>(ra);
  // Path compression for the feature that was just absorbed keeps later finds short.
  for (FeatureId f = a; f != ra;) {
    const FeatureId next = parent_[Index(f)];
    parent_[Index(f)] = static_cast<uint16_t>(ra);
    f = next;
  }
}

void Board::CloseSide(const TileSet& set, int index, int side, Completed* completed,
                      FrontierUpkeep upkeep) {
  PlacedTile& placed = placed_[Index(index)];
  const auto bit = static_cast<uint8_t>(1u << side);
  assert(!(placed.closed_sides & bit));
  placed.closed_sides |= bit;
  const TileType& type = set.TypeOf(placed.tile);
  for (int k = 0; k < kPortsPerSide; ++k) {
    const int local = type.FeatureAt(PortOf(side, k), placed.rotation);
    if (local == kNoFeature) continue;
    const FeatureId root = Root(FeatureOf(index, local));
    FeatureInfo& info = info_[Index(root)];
    assert(info.open_ports > 0);
    info.open_ports--;
    if (CompletesWhenClosed(info.kind) && info.Complete()) completed->Add(root);
  }
  const Cell beyond = Neighbour(placed.cell(), side);
  uint8_t& mark = grid_[GridIndex(beyond)];
  if (!IsFrontierMark(mark)) return;
  mark = kClosedFrontier;
  if (upkeep == FrontierUpkeep::kLater) return;
  FrontierEntryAt(beyond).closed_sides |= static_cast<uint8_t>(1u << Opposite(side));
}

void Board::CatchUpFrontier() {
  for (int i = 0; i < frontier_count_; ++i) {
    FrontierEntry& entry = frontier_[Index(i)];
    if (grid_[GridIndex(entry.cell())] != kClosedFrontier) continue;
    uint8_t closed = 0;
    for (int side = 0; side < kSides; ++side) {
      const int n = IndexAt(Neighbour(entry.cell(), side));
      if (n >= 0 && (placed_[Index(n)].closed_sides >> Opposite(side) & 1u) != 0) {
        closed |= static_cast<uint8_t>(1u << side);
      }
    }
    entry.closed_sides = closed;
  }
}

int Board::FrontierLowerBound(Cell c) const {
  // Without branches on the comparisons, which random positions make unpredictable.
  if (frontier_count_ == 0) return 0;
  const int key = FrontierKey(c.x, c.y);
  const FrontierEntry* base = frontier_.data();
  for (int n = frontier_count_; n > 1;) {
    const int half = n / 2;
    base = FrontierKey(base[half].x, base[half].y) < key ? base + half : base;
    n -= half;
  }
  return static_cast<int>(base - frontier_.data()) + (FrontierKey(base->x, base->y) < key ? 1 : 0);
}

namespace {
// The ring bit (Board::kRingOffsets) of the cell at (dx, dy) from a cell, as [dx + 1][dy + 1].
constexpr std::array<std::array<int, 3>, 3> kRingBitAt = {{{5, 6, 7}, {4, -1, 0}, {3, 2, 1}}};
// The side of a cell that faces its neighbour at (dx, dy), as [dx + 1][dy + 1].
constexpr std::array<std::array<int, 3>, 3> kSideAt = {
    {{-1, kWest, -1}, {kSouth, -1, kNorth}, {-1, kEast, -1}}};
}  // namespace

void Board::UpdateFrontier(Cell placed, uint8_t street_sides, int removed_at) {
  // The eight cells around the tile, column by column: in the frontier's order, a column's
  // cells y - 1, y and y + 1 lie next to each other, so one search per column finds them all
  // (none for the tile's own column, where the cell's removal from the frontier found it).
  // Side neighbours join the frontier; every frontier cell around sees the tile in its ring.
  int inserted = 0;
  for (int dx = -1; dx <= 1; ++dx) {
    const int x = placed.x + dx;
    int position = 0;
    if (dx == 0 && removed_at >= 0) {
      // The placed cell's own column needs no search: the cell below it, if in the frontier,
      // stood just before it (the cells inserted into the column to the west come before both).
      const int at = removed_at + inserted;
      const bool below = at > 0 && frontier_[Index(at - 1)].cell() == Cell{x, placed.y - 1};
      position = below ? at - 1 : at;
      assert(position == FrontierLowerBound({x, placed.y - 1}));
    } else {
      position = FrontierLowerBound({x, placed.y - 1});
    }
    for (int dy = -1; dy <= 1; ++dy) {
      const Cell n{x, placed.y + dy};
      const uint8_t v = grid_[GridIndex(n)];
      const int side = kSideAt[Index(dx + 1)][Index(dy + 1)];
      if (v < kClosedFrontier) continue;  // a tile (the new one included)
      if (!IsFrontierMark(v)) {
        if (side < 0 || !InBounds(n)) continue;
        InsertIntoFrontier(position, n);
        ++inserted;
      }
      FrontierEntry& entry = frontier_[Index(position++)];
      assert(entry.cell() == n);
      entry.ring |= static_cast<uint8_t>(1u << kRingBitAt[Index(1 - dx)][Index(1 - dy)]);
      if (side < 0) continue;
      // Seen from the neighbour, the new tile lies on the opposite side.
      const auto from = static_cast<uint8_t>(1u << Opposite(side));
      entry.context.sides |= from;
      entry.context.streets |= static_cast<uint8_t>(from & (0u - (street_sides >> side & 1u)));
    }
  }
}

void Board::InsertIntoFrontier(int position, Cell c) {
  assert(frontier_count_ < kMaxFrontier);
  std::copy_backward(frontier_.begin() + position, frontier_.begin() + frontier_count_,
                     frontier_.begin() + frontier_count_ + 1);
  ++frontier_count_;
  frontier_[Index(position)] =
      FrontierEntry{static_cast<int8_t>(c.x), static_cast<int8_t>(c.y), {}, RingAt(c), 0};
  grid_[GridIndex(c)] = kFrontier;
}

uint8_t Board::RingAt(Cell c) const {
  unsigned ring = 0;
  for (int i = 0; i < 8; ++i) {
    ring |= (grid_[GridIndex(RingCell(c, i))] < kClosedFrontier ? 1u : 0u) << i;
  }
  return static_cast<uint8_t>(ring);
}

int Board::RemoveFromFrontier(Cell c) {
  const int position = FrontierLowerBound(c);
  assert(position < frontier_count_ && frontier_[Index(position)].cell() == c);
  std::copy(frontier_.begin() + position + 1, frontier_.begin() + frontier_count_,
            frontier_.begin() + position);
  --frontier_count_;
  return position;
}

uint32_t MajorityHolders(const FeatureInfo& info, int players) {
  int best = 0;
  for (int p = 0; p < players; ++p)
    best = std::max(best, static_cast<int>(info.followers[static_cast<size_t>(p)]));
  if (best == 0) return 0;
  uint32_t holders = 0;
  for (int p = 0; p < players; ++p) {
    if (info.followers[static_cast<size_t>(p)] == best) holders |= 1u << p;
  }
  return holders;
}

}  // namespace carc::core
