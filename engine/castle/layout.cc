#include "castle/layout.h"

#include <algorithm>
#include <map>

#include "castle/rules.h"
#include "core/text.h"

namespace carc::castle {

int Layout::CornerAt(int position) const {
  const int track = position - position % 2;
  for (int corner = 0; corner < CornerCount(); ++corner) {
    if (CornerTrack(corner) == track) return corner;
  }
  return -1;
}

class LayoutParser {
 public:
  std::variant<std::shared_ptr<const Layout>, core::ParseError> Parse(std::string_view text) {
    const bool parsed =
        core::ForEachLine(text, [this](int number, std::string_view, const auto& words) {
          line_ = number;
          return ParseLine(words);
        });
    if (!parsed) return error_;
    line_ = 0;
    if (!seen_header_) return core::ParseError{0, "the file has no 'castleboard' line"};
    if (!Finish()) return error_;
    return std::shared_ptr<const Layout>(std::move(layout_));
  }

 private:
  bool Fail(std::string message) {
    error_ = core::ParseError{line_, std::move(message)};
    return false;
  }

  bool ParseLine(const std::vector<std::string_view>& w) {
    if (w[0] == "castleboard") return ParseHeader(w);
    if (!seen_header_) return Fail("'castleboard <id> <version>' must come first");
    if (w[0] == "interior") return ParseInterior(w);
    if (w[0] == "wall") return ParseWall(w);
    if (w[0] == "walltile") return ParseWallTile(w);
    return Fail("unknown line '" + std::string(w[0]) +
                "' (expected castleboard, interior, wall or walltile)");
  }

  bool ParseHeader(const std::vector<std::string_view>& w) {
    if (seen_header_) return Fail("a second 'castleboard' line");
    int version = 0;
    if (w.size() != 3 || !core::ParseNumber(w[2], &version) || version < 0) {
      return Fail("expected 'castleboard <id> <version>'");
    }
    layout_->id_ = std::string(w[1]);
    layout_->version_ = version;
    seen_header_ = true;
    return true;
  }

  bool Coordinate(std::string_view word, int* value) {
    return core::ParseNumber(word, value) && *value >= 0 && *value <= Layout::kMaxCoordinate;
  }

  bool ParseInterior(const std::vector<std::string_view>& w) {
    int y = 0, from = 0, to = 0;
    if (w.size() != 4 || !Coordinate(w[1], &y) || !Coordinate(w[2], &from) ||
        !Coordinate(w[3], &to) || from > to) {
      return Fail("expected 'interior <y> <x from> <x to>' with coordinates 0-15");
    }
    for (int x = from; x <= to; ++x) {
      const Cell c{x, y};
      if (layout_->IsInterior(c)) return Fail("a square listed twice");
      layout_->interior_[Layout::Bit(c)] = true;
      layout_->interior_cells_.push_back(c);
    }
    return true;
  }

  bool ParseWall(const std::vector<std::string_view>& w) {
    WallCell cell;
    if (w.size() != 5 || !core::ParseNumber(w[1], &cell.track) || !Coordinate(w[2], &cell.cell.x) ||
        !Coordinate(w[3], &cell.cell.y)) {
      return Fail("expected 'wall <track> <x> <y> wall|tower|start'");
    }
    const int expected = 2 * static_cast<int>(layout_->wall_.size());
    if (cell.track != expected) {
      return Fail("wall cells come in track order: expected track " + std::to_string(expected));
    }
    if (w[4] == "wall") {
      cell.kind = WallKind::kWall;
    } else if (w[4] == "tower") {
      cell.kind = WallKind::kTower;
      layout_->corner_tracks_.push_back(cell.track);
    } else if (w[4] == "start") {
      cell.kind = WallKind::kStart;
      layout_->starts_.push_back({cell.track, cell.cell, 0, "start-" + std::to_string(cell.track)});
    } else {
      return Fail("a wall cell is wall, tower or start, not '" + std::string(w[4]) + "'");
    }
    if (layout_->IsInterior(cell.cell)) return Fail("a wall cell on a square of the castle");
    for (const WallCell& other : layout_->wall_) {
      if (other.cell == cell.cell) return Fail("a wall cell listed twice");
    }
    layout_->wall_.push_back(cell);
    return true;
  }

  bool ParseWallTile(const std::vector<std::string_view>& w) {
    int kind = 0, count = 0;
    if (w.size() != 4 || !core::ParseNumber(w[1], &kind) || !core::ParseNumber(w[2], &count) ||
        kind < 1 || kind >= kWallTileKinds || count < 0 || count > 4) {
      return Fail("expected 'walltile <number 1-9> <count 0-4> <name>'");
    }
    if (w[3] != ToString(static_cast<WallTile>(kind))) {
      return Fail("wall tile " + std::to_string(kind) + " is '" +
                  ToString(static_cast<WallTile>(kind)) + "'");
    }
    if (std::count(layout_->wall_tiles_.begin(), layout_->wall_tiles_.end(), kind) > 0) {
      return Fail("wall tile " + std::to_string(kind) + " listed twice");
    }
    layout_->wall_tiles_.insert(layout_->wall_tiles_.end(), static_cast<size_t>(count), kind);
    std::sort(layout_->wall_tiles_.begin(), layout_->wall_tiles_.end());
    return true;
  }

  bool IsWall(Cell c) const {
    return std::any_of(layout_->wall_.begin(), layout_->wall_.end(),
                       [&](const WallCell& w) { return w.cell == c; });
  }

  // The whole board: a full track, a closed ring, start spaces that face one square each, and
  // enough wall tiles for the corner towers.
  bool Finish() {
    if (layout_->interior_cells_.empty()) return Fail("the board has no squares");
    if (static_cast<int>(layout_->wall_.size()) * 2 != kTrackLength) {
      return Fail("the wall has " + std::to_string(layout_->wall_.size()) +
                  " cells; its track needs 50 (two spaces each, 0-99)");
    }
    if (layout_->corner_tracks_.empty() || layout_->corner_tracks_.front() != 0) {
      return Fail("the track starts at a corner tower (track 0)");
    }
    std::sort(layout_->interior_cells_.begin(), layout_->interior_cells_.end(),
              [](Cell a, Cell b) { return a.y != b.y ? a.y < b.y : a.x < b.x; });
    for (const Cell c : layout_->interior_cells_) {
      for (int side = 0; side < core::kSides; ++side) {
        const Cell n = core::Neighbour(c, side);
        if (!layout_->IsInterior(n) && !IsWall(n)) {
          return Fail("square (" + std::to_string(c.x) + ", " + std::to_string(c.y) +
                      ") is not walled in on side " + std::to_string(side));
        }
      }
    }
    for (StartSpace& start : layout_->starts_) {
      int facing = -1;
      for (int side = 0; side < core::kSides; ++side) {
        if (!layout_->IsInterior(core::Neighbour(start.cell, side))) continue;
        if (facing >= 0) return Fail(start.tile_name + " touches more than one square");
        facing = side;
      }
      if (facing < 0) return Fail(start.tile_name + " touches no square");
      start.rotation = facing;  // a quarter turn clockwise per side: north 0, east 1, ...
    }
    const int needed = layout_->CornerCount() - 1;
    if (static_cast<int>(layout_->wall_tiles_.size()) < needed) {
      return Fail("the corner towers need " + std::to_string(needed) + " wall tiles");
    }
    return true;
  }

  std::unique_ptr<Layout> layout_ = std::make_unique<Layout>();
  bool seen_header_ = false;
  int line_ = 0;
  core::ParseError error_;
};

std::variant<std::shared_ptr<const Layout>, core::ParseError> ParseLayout(std::string_view text) {
  return LayoutParser().Parse(text);
}

}  // namespace carc::castle
