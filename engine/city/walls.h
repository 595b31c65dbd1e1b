// The city wall: the chain of wall pieces around the gate, its towers, and the open land.
//
// Every piece lies on a side of a placed tile whose other cell is empty and connected to the
// open land (R19). Pieces are directed edges of the lattice walked with the city on the right
// (core/geometry.h), so the chain runs clockwise from its back end to its front end. Because
// the city is joined side to side, its outline against the open land is one simple closed loop,
// and the piece that continues an end is the next edge of that loop: building needs no more
// than the choice of end.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>

#include "city/action.h"
#include "core/board.h"

namespace carc::city {

using core::Board;
using core::Cell;
using core::CellSide;
using core::Vertex;

inline constexpr int kMaxWalls = 96;
inline constexpr int kMaxTowers = 12;
inline constexpr int8_t kNoGuard = -1;

struct WallPiece {
  int8_t x = 0;
  int8_t y = 0;
  uint8_t side = 0;
  int8_t guard = kNoGuard;  // the guard's owner
  Cell cell() const { return {x, y}; }
  CellSide edge() const { return {cell(), side}; }
  Cell outside() const { return core::Neighbour(cell(), side); }
  friend bool operator==(const WallPiece&, const WallPiece&) = default;
};

struct Tower {
  uint8_t player = 0;
  uint8_t end = 0;
  uint8_t position = 0;  // pieces on that end's side when it was placed
  friend bool operator==(const Tower&, const Tower&) = default;
};

class WallChain {
 public:
  bool HasGate() const { return has_gate_; }
  bool Closed() const { return closed_; }
  const WallPiece& Gate() const { return gate_; }
  // Pieces on one side of the gate; index 0 is next to the gate.
  int Count(int end) const { return count_[static_cast<size_t>(end)]; }
  const WallPiece& Piece(int end, int i) const {
    return pieces_[static_cast<size_t>(end)][static_cast<size_t>(i)];
  }
  WallPiece& MutablePiece(int end, int i) {
    return pieces_[static_cast<size_t>(end)][static_cast<size_t>(i)];
  }
  int PieceCount() const { return Count(kFrontEnd) + Count(kBackEnd); }
  const WallPiece& Last(int end) const {
    return Count(end) == 0 ? gate_ : Piece(end, Count(end) - 1);
  }
  // The lattice point where each end stops.
  Vertex FrontVertex() const { return core::EdgeEnd(Last(kFrontEnd).cell(), Last(kFrontEnd).side); }
  Vertex BackVertex() const { return core::EdgeStart(Last(kBackEnd).cell(), Last(kBackEnd).side); }

  void SetGate(CellSide edge) {
    assert(!has_gate_);
    gate_ = Make(edge);
    has_gate_ = true;
  }
  void Add(int end, CellSide edge) {
    assert(has_gate_ && !closed_ && Count(end) < kMaxWalls);
    pieces_[static_cast<size_t>(end)][static_cast<size_t>(count_[static_cast<size_t>(end)]++)] =
        Make(edge);
    closed_ = FrontVertex() == BackVertex();
  }

  int TowerCount() const { return tower_count_; }
  const Tower& TowerAt(int i) const { return towers_[static_cast<size_t>(i)]; }
  void AddTower(Tower tower) {
    assert(tower_count_ < kMaxTowers);
    towers_[static_cast<size_t>(tower_count_++)] = tower;
  }
  // True if a tower stands on the end now (no piece was built there since it was placed).
  bool EndHasTower(int end) const;
  // Pieces between the end and the nearest tower on that side, or the gate (R23).
  int PiecesToPreviousTower(int end) const;

  // A wall piece or the gate on this edge, if any.
  const WallPiece* Find(CellSide edge) const;

  friend bool operator==(const WallChain&, const WallChain&) = default;

 private:
  static WallPiece Make(CellSide edge) {
    return WallPiece{static_cast<int8_t>(edge.cell.x), static_cast<int8_t>(edge.cell.y),
                     static_cast<uint8_t>(edge.side), kNoGuard};
  }

  bool has_gate_ = false;
  bool closed_ = false;
  WallPiece gate_;
  std::array<int, 2> count_{};
  std::array<std::array<WallPiece, kMaxWalls>, 2> pieces_{};
  std::array<Tower, kMaxTowers> towers_{};
  int tower_count_ = 0;
};

// Which empty cells belong to the open land: those joined side to side, through empty cells, to
// the outside of the city's bounding box. Empty cells enclosed by tiles are holes (R19). A
// scratch object: computed when needed, never part of a game's state.
class OpenLand {
 public:
  // `blocked`, if given, is treated as holding a tile (to test a placement before making it).
  void Compute(const Board& board, const Cell* blocked = nullptr);
  bool IsOpen(Cell c) const {
    if (c.x < x0_ || c.x >= x0_ + width_ || c.y < y0_ || c.y >= y0_ + height_) return true;
    return open_[Index(c)] != 0;
  }

 private:
  size_t Index(Cell c) const {
    return static_cast<size_t>(c.y - y0_) * static_cast<size_t>(width_) +
           static_cast<size_t>(c.x - x0_);
  }
  int x0_ = 0, y0_ = 0, width_ = 0, height_ = 0;
  std::array<uint8_t, core::kGridCells> open_;
  std::array<uint16_t, core::kGridCells> stack_;
};

// An edge of the outline: a side of a placed tile whose other cell is open land.
bool IsOutlineEdge(const Board& board, const OpenLand& land, CellSide edge);

// Walking the outline needs no flood fill. Keep the open land on the left and, at each vertex,
// take the left-most turn onto an edge with a tile on its right and an empty cell on its left:
// that hugs one empty cell after another of the same side-joined empty region, so a walk that
// starts on the outline (next to open land) stays on it even where a hole touches the outline
// at a single corner. `heading` is the direction of travel (kNorth, kEast, ...).
constexpr int HeadingOf(int side) { return (side + 1) % core::kSides; }
// The outline edge that follows `edge` (clockwise), and the one that precedes it.
CellSide NextOutlineEdge(const Board& board, CellSide edge);
CellSide PreviousOutlineEdge(const Board& board, CellSide edge);

// The sides of the placed tiles that lie on the outline, found by walking it once from a side
// that surely lies on it (the west side of the west-most tile): bit s of sides[i] is side s of
// the tile placed i-th. The same sides as IsOutlineEdge accepts, without a flood fill. Returns
// how many.
using OutlineSides = std::array<uint8_t, core::kMaxTiles>;
int FindOutlineSides(const Board& board, OutlineSides* sides);

// R24: outline edges between the front and the back end that hold no wall (0 when closed).
// The walk stops at `limit`: the result is then min(distance, limit).
int UnwalledDistance(const Board& board, const WallChain& chain, int limit = 1 << 20);

}  // namespace carc::city
