// Geometry of the square grid shared by every tile-laying game.
//
// Cells have integer coordinates: x grows to the east, y grows to the north; the first tile lies
// at (0, 0). A cell's sides are numbered clockwise from north. Each side is cut into two halves
// with an optional street at its midpoint, which gives twelve ports per tile, numbered clockwise
// from the north-west corner (docs/tiles.md draws them). Rotations are quarter turns clockwise.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace carc::core {

enum Side : uint8_t { kNorth = 0, kEast = 1, kSouth = 2, kWest = 3 };
inline constexpr int kSides = 4;
inline constexpr int kPorts = 12;
inline constexpr int kPortsPerSide = 3;
inline constexpr int kMidPort = 1;  // index of the midpoint within a side's three ports

struct Cell {
  int x = 0;
  int y = 0;
  friend constexpr bool operator==(Cell, Cell) = default;
  friend constexpr auto operator<=>(Cell, Cell) = default;
};

inline constexpr std::array<int, kSides> kDx = {0, 1, 0, -1};
inline constexpr std::array<int, kSides> kDy = {1, 0, -1, 0};

constexpr int Opposite(int side) { return (side + 2) % kSides; }

constexpr Cell Neighbour(Cell cell, int side) {
  return Cell{cell.x + kDx[side], cell.y + kDy[side]};
}

constexpr int PortOf(int side, int k) { return side * kPortsPerSide + k; }
constexpr int SideOfPort(int port) { return port / kPortsPerSide; }

// The port of the neighbouring tile that touches `port` across their shared side.
constexpr int FacingPort(int port) {
  const int side = SideOfPort(port);
  const int k = port % kPortsPerSide;
  return PortOf(Opposite(side), kPortsPerSide - 1 - k);
}

// Port `port` of a tile turned `rotation` quarter turns clockwise shows the unrotated tile's
// port UnrotatePort(port, rotation).
constexpr int UnrotatePort(int port, int rotation) {
  return (port - kPortsPerSide * rotation + kPorts * 4) % kPorts;
}
constexpr int UnrotateSide(int side, int rotation) { return (side - rotation + 8) % kSides; }

// A 4-bit mask with one bit per side, turned `rotation` quarter turns clockwise.
constexpr uint8_t RotateSideMask(uint8_t mask, int rotation) {
  const unsigned m = mask & 0xFu;
  const unsigned r = static_cast<unsigned>(rotation) % 4u;
  return static_cast<uint8_t>(((m << r) | (m >> (4u - r))) & 0xFu);
}

// A lattice point (corner of cells). Cell (x, y) spans the corners (x, y) .. (x + 1, y + 1).
struct Vertex {
  int x = 0;
  int y = 0;
  friend constexpr bool operator==(Vertex, Vertex) = default;
};

// A side of a cell seen as a directed edge of the lattice, walked so that the cell lies on the
// right: north sides are walked eastwards, east sides southwards, and so on. Walking a city's
// outline this way goes clockwise around it.
// (As tables, not branches: a walk along an outline turns unpredictably.)
inline constexpr std::array<std::array<int, 2>, kSides> kEdgeStartOffset = {
    {{0, 1}, {1, 1}, {1, 0}, {0, 0}}};
constexpr Vertex EdgeStart(Cell c, int side) {
  const auto& offset = kEdgeStartOffset[static_cast<size_t>(side)];
  return {c.x + offset[0], c.y + offset[1]};
}
constexpr Vertex EdgeEnd(Cell c, int side) { return EdgeStart(c, (side + 1) % kSides); }

// The cell on whose `side` the directed edge leaving `v` in compass direction `heading` lies
// (heading: kNorth, kEast, ... as a direction of travel). The edge heading east from v is the
// north side of the cell south-east of v, etc.
struct CellSide {
  Cell cell;
  int side = 0;
  friend constexpr bool operator==(CellSide, CellSide) = default;
};
// By heading: the offset of the cell from `v`, and the side.
inline constexpr std::array<std::array<int, 3>, kSides> kEdgeLeaving = {
    {{0, 0, kWest}, {0, -1, kNorth}, {-1, -1, kEast}, {-1, 0, kSouth}}};
constexpr CellSide EdgeLeaving(Vertex v, int heading) {
  const auto& e = kEdgeLeaving[static_cast<size_t>(heading)];
  return {{v.x + e[0], v.y + e[1]}, e[2]};
}
// The edge arriving at `v` that travels in direction `heading`.
inline constexpr std::array<std::array<int, 3>, kSides> kEdgeArriving = {
    {{0, -1, kWest}, {-1, -1, kNorth}, {-1, 0, kEast}, {0, 0, kSouth}}};
constexpr CellSide EdgeArriving(Vertex v, int heading) {
  const auto& e = kEdgeArriving[static_cast<size_t>(heading)];
  return {{v.x + e[0], v.y + e[1]}, e[2]};
}

}  // namespace carc::core
