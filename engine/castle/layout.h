// The Castle's board: the squares inside the castle wall where tiles may lie, the wall around
// them with its scoring track (0-99) and corner towers, the start spaces printed on it, and the
// wall tiles. Parsed from a board file (docs/tiles.md, "The Castle's board"); immutable after.
//
// The engine does no I/O: callers hand it the file's text, or use the board compiled in
// (default_data.h).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/geometry.h"
#include "core/tileset.h"

namespace carc::castle {

using core::Cell;

inline constexpr int kTrackLength = 100;  // the scoring track: spaces 0..99, two per wall cell

enum class WallKind : uint8_t { kWall, kTower, kStart };

struct WallCell {
  int track = 0;  // the first of its two track numbers (even)
  Cell cell;
  WallKind kind = WallKind::kWall;
  friend bool operator==(const WallCell&, const WallCell&) = default;
};

// A start space: a strip on the inner face of a wall cell that acts as the side of a tile. The
// tile type `start-<track>` shows it on its north side; the game lays it on the wall cell turned
// `rotation` quarter turns so that its north side faces the castle.
struct StartSpace {
  int track = 0;
  Cell cell;
  int rotation = 0;
  std::string tile_name;
};

class Layout {
 public:
  // The largest x and y a cell of the board file may have.
  static constexpr int kMaxCoordinate = 15;

  const std::string& id() const { return id_; }
  int version() const { return version_; }

  bool IsInterior(Cell c) const {
    return c.x >= 0 && c.y >= 0 && c.x <= kMaxCoordinate && c.y <= kMaxCoordinate &&
           interior_[Bit(c)];
  }
  // Every square inside the wall, sorted by y, then x.
  const std::vector<Cell>& Interior() const { return interior_cells_; }
  // The wall cells in track order, from track 0.
  const std::vector<WallCell>& Wall() const { return wall_; }
  const std::vector<StartSpace>& StartSpaces() const { return starts_; }
  // The corner towers in track order (corner 0 is the one at track 0, which holds no wall tile).
  int CornerCount() const { return static_cast<int>(corner_tracks_.size()); }
  int CornerTrack(int corner) const { return corner_tracks_[static_cast<size_t>(corner)]; }
  // The corner tower whose spaces include `position` (0..99), or -1.
  int CornerAt(int position) const;
  // Every wall tile of the box, by number (1..9), in rule-book order.
  const std::vector<int>& WallTiles() const { return wall_tiles_; }

 private:
  friend class LayoutParser;
  static size_t Bit(Cell c) { return static_cast<size_t>(c.y * (kMaxCoordinate + 1) + c.x); }

  std::string id_;
  int version_ = 0;
  std::array<bool, (kMaxCoordinate + 1) * (kMaxCoordinate + 1)> interior_{};
  std::vector<Cell> interior_cells_;
  std::vector<WallCell> wall_;
  std::vector<StartSpace> starts_;
  std::vector<int> corner_tracks_;
  std::vector<int> wall_tiles_;
};

// Parses a board file; returns the board or the first error, naming its line. The board is
// checked for shape: the wall rings the squares, each start space touches exactly one square.
std::variant<std::shared_ptr<const Layout>, core::ParseError> ParseLayout(std::string_view text);

}  // namespace carc::castle
