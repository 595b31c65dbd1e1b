#include "city/walls.h"

#include <algorithm>

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
// A side of a tile facing an empty cell, seen as a directed edge with the tile on its right.
bool IsBoundaryEdge(const Board& board, CellSide e) {
  return board.HasTile(e.cell) && !board.HasTile(core::Neighbour(e.cell, e.side));
}
}  // namespace

CellSide NextOutlineEdge(const Board& board, CellSide edge) {
  const core::Vertex v = core::EdgeEnd(edge.cell, edge.side);
  const int heading = HeadingOf(edge.side);
  for (int turn : {3, 0, 1}) {  // left, straight, right
    const CellSide e = core::EdgeLeaving(v, (heading + turn) % core::kSides);
    if (IsBoundaryEdge(board, e)) return e;
  }
  assert(false && "the outline is a closed loop");
  return edge;
}

CellSide PreviousOutlineEdge(const Board& board, CellSide edge) {
  const core::Vertex v = core::EdgeStart(edge.cell, edge.side);
  const int heading = HeadingOf(edge.side);
  // The edge from which NextOutlineEdge would turn onto `edge`: the one it turned left from
  // first, then straight on, then right.
  for (int turn : {1, 0, 3}) {
    const CellSide e = core::EdgeArriving(v, (heading + turn) % core::kSides);
    if (IsBoundaryEdge(board, e)) return e;
  }
  assert(false && "the outline is a closed loop");
  return edge;
}

int FindOutlineSides(const Board& board, OutlineSides* sides) {
  sides->fill(0);
  if (board.TileCount() == 0) return 0;
  Cell west = board.Placed(0).cell();
  for (int i = 1; i < board.TileCount(); ++i) west = std::min(west, board.Placed(i).cell());
  const CellSide start{west, core::kWest};
  int count = 0;
  CellSide e = start;
  do {
    (*sides)[static_cast<size_t>(board.IndexAt(e.cell))] |= static_cast<uint8_t>(1u << e.side);
    ++count;
    assert(count <= 4 * core::kMaxTiles);
    e = NextOutlineEdge(board, e);
  } while (e != start);
  return count;
}

int UnwalledDistance(const Board& board, const WallChain& chain, int limit) {
  if (chain.Closed()) return 0;
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
