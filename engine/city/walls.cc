#include "city/walls.h"

#include <algorithm>
#include <cstdlib>

namespace carc::city {

bool WallChain::EndHasTower(int end) const {
  for (int i = 0; i < tower_count_; ++i) {
    const Tower& t = towers_[static_cast<size_t>(i)];
    if (t.end == end && t.position == Count(end)) return true;
  }
  return false;
}

int WallChain::PiecesToPreviousTower(int end) const {
  int previous = 0;  // the gate
  for (int i = 0; i < tower_count_; ++i) {
    const Tower& t = towers_[static_cast<size_t>(i)];
    if (t.end == end && t.position <= Count(end)) previous = std::max<int>(previous, t.position);
  }
  return Count(end) - previous;
}

const WallPiece* WallChain::Find(CellSide edge) const {
  if (!has_gate_) return nullptr;
  if (gate_.edge() == edge) return &gate_;
  for (int end = 0; end < 2; ++end) {
    for (int i = 0; i < Count(end); ++i) {
      if (Piece(end, i).edge() == edge) return &Piece(end, i);
    }
  }
  return nullptr;
}

void OpenLand::Compute(const Board& board, const Cell* blocked) {
  x0_ = board.min_x() - 1;
  y0_ = board.min_y() - 1;
  width_ = board.max_x() - board.min_x() + 3;
  height_ = board.max_y() - board.min_y() + 3;
  const size_t cells = static_cast<size_t>(width_) * static_cast<size_t>(height_);
  std::fill_n(open_.begin(), cells, uint8_t{0});
  size_t top = 0;
  auto visit = [&](int x, int y) {
    const Cell c{x, y};
    const size_t i = Index(c);
    if (open_[i] || board.HasTile(c) || (blocked != nullptr && *blocked == c)) return;
    open_[i] = 1;
    stack_[top++] = static_cast<uint16_t>(i);
  };
  // The ring around the bounding box is empty and open; flood inwards from it.
  for (int x = x0_; x < x0_ + width_; ++x) {
    visit(x, y0_);
    visit(x, y0_ + height_ - 1);
  }
  for (int y = y0_; y < y0_ + height_; ++y) {
    visit(x0_, y);
    visit(x0_ + width_ - 1, y);
  }
  while (top > 0) {
    const int i = stack_[--top];
    const int x = x0_ + i % width_;
    const int y = y0_ + i / width_;
    if (x > x0_) visit(x - 1, y);
    if (x < x0_ + width_ - 1) visit(x + 1, y);
    if (y > y0_) visit(x, y - 1);
    if (y < y0_ + height_ - 1) visit(x, y + 1);
  }
}

bool IsOutlineEdge(const Board& board, const OpenLand& land, CellSide edge) {
  return board.HasTile(edge.cell) && land.IsOpen(core::Neighbour(edge.cell, edge.side));
}

namespace {
// The four cells around a lattice point v, as bits: bit (dy * 2 + dx) for the cell
// (v.x - 1 + dx, v.y - 1 + dy), as Board::TilesAround has them.
constexpr unsigned CornerBit(Cell c, Vertex v) {
  return static_cast<unsigned>((c.y - v.y + 1) * 2 + (c.x - v.x + 1));
}
// A side of a tile facing an empty cell, seen as a directed edge with the tile on its right:
// whether `edge` is one, given the cells around a lattice point it touches.
constexpr bool IsBoundaryEdge(unsigned block, CellSide edge, Vertex v) {
  const Cell outside = core::Neighbour(edge.cell, edge.side);
  return ((block >> CornerBit(edge.cell, v)) & 1u) != 0 &&
         ((block >> CornerBit(outside, v)) & 1u) == 0;
}

// The walk's choice at each lattice point as a table, by the cells around the point and the
// heading it arrives with: the heading it leaves with (-1 where no outline edge goes on). Each
// step of a walk is then four reads of the board and one of the table, without branches on the
// shape. `turns` lists the turns tried in order; `edge_at` is core::EdgeLeaving or
// core::EdgeArriving.
template <typename EdgeAt>
constexpr std::array<std::array<int8_t, core::kSides>, 16> HeadingTable(std::array<int, 3> turns,
                                                                        EdgeAt edge_at) {
  std::array<std::array<int8_t, core::kSides>, 16> table{};
  const Vertex v{0, 0};
  for (unsigned block = 0; block < 16; ++block) {
    for (int heading = 0; heading < core::kSides; ++heading) {
      int8_t found = -1;
      for (int turn : turns) {
        const int h = (heading + turn) % core::kSides;
        if (IsBoundaryEdge(block, edge_at(v, h), v)) {
          found = static_cast<int8_t>(h);
          break;
        }
      }
      table[block][static_cast<size_t>(heading)] = found;
    }
  }
  return table;
}
// NextOutlineEdge turns left, goes straight on, or turns right, the first that stays on the
// outline. PreviousOutlineEdge undoes it: the edge it turned left from first, then straight on,
// then right.
constexpr auto kNextHeading = HeadingTable({3, 0, 1}, core::EdgeLeaving);
constexpr auto kPreviousHeading = HeadingTable({1, 0, 3}, core::EdgeArriving);
}  // namespace

CellSide NextOutlineEdge(const Board& board, CellSide edge) {
  const core::Vertex v = core::EdgeEnd(edge.cell, edge.side);
  const int heading = kNextHeading[board.TilesAround(v)][HeadingOf(edge.side)];
  assert(heading >= 0 && "the outline is a closed loop");
  return core::EdgeLeaving(v, heading);
}

CellSide PreviousOutlineEdge(const Board& board, CellSide edge) {
  const core::Vertex v = core::EdgeStart(edge.cell, edge.side);
  const int heading = kPreviousHeading[board.TilesAround(v)][HeadingOf(edge.side)];
  assert(heading >= 0 && "the outline is a closed loop");
  return core::EdgeArriving(v, heading);
}

namespace {
// The west side of the west-most tile (the southern-most of those), which surely faces open
// land: the least of the cells as numbers ordered as cells are (x, then y), without a branch
// per tile.
Cell WestMostTile(const Board& board) {
  const auto key = [](Cell c) { return (c.x + 128) << 8 | (c.y + 128); };
  int least = key(board.Placed(0).cell());
  for (int i = 1; i < board.TileCount(); ++i) least = std::min(least, key(board.Placed(i).cell()));
  return {(least >> 8) - 128, (least & 0xFF) - 128};
}
}  // namespace

int FindOutlineSides(const Board& board, OutlineSides* sides) {
  sides->fill(0);
  if (board.TileCount() == 0) return 0;
  // From point to point, the grid index of the cell south-west of the point kept along: the
  // start, the west-most tile's west side, runs north from its south-west corner.
  const Vertex first = core::EdgeStart(WestMostTile(board), core::kWest);
  Vertex v = first;
  int heading = core::kNorth;
  size_t below = Board::GridIndexOf({v.x - 1, v.y - 1});
  int count = 0;
  do {
    const CellSide e = core::EdgeLeaving(v, heading);
    (*sides)[static_cast<size_t>(board.IndexAt(e.cell))] |= static_cast<uint8_t>(1u << e.side);
    ++count;
    assert(count <= 4 * core::kMaxTiles);
    const auto step = static_cast<size_t>(heading);
    v = {v.x + core::kDx[step], v.y + core::kDy[step]};
    below = static_cast<size_t>(static_cast<ptrdiff_t>(below) + Board::kGridStep[step]);
    heading = kNextHeading[board.TilesAroundAt(below)][step];
    assert(heading >= 0 && "the outline is a closed loop");
  } while (heading != core::kNorth || v != first);
  return count;
}

int UnwalledDistance(const Board& board, const WallChain& chain, int limit) {
  if (chain.Closed()) return 0;
  // Two lower bounds spare the walk while the wall is far from closed. The edges between the
  // ends join the front end's point to the back end's, so there are at least as many as the
  // points are apart (in steps along the grid). And they are the outline less the chain (gate
  // and pieces), while the outline is at least as long as the bounding box's perimeter: each
  // column has a top and a bottom side facing open land, each row a west and an east side.
  const Vertex from = chain.FrontVertex();
  const Vertex to = chain.BackVertex();
  const int apart = std::abs(from.x - to.x) + std::abs(from.y - to.y);
  const int perimeter = 2 * (board.max_x() - board.min_x() + 1 + board.max_y() - board.min_y() + 1);
  if (std::max(apart, perimeter - (chain.PieceCount() + 1)) >= limit) return limit;
  const WallPiece& back = chain.Last(kBackEnd);
  const CellSide stop = back.edge();
  CellSide e = chain.Last(kFrontEnd).edge();
  int distance = 0;
  for (;;) {
    e = NextOutlineEdge(board, e);
    if (e == stop || distance == limit) return distance;
    ++distance;
    assert(distance <= 4 * core::kMaxTiles + 4);
  }
}

}  // namespace carc::city
