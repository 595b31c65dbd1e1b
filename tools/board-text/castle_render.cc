#include "castle_render.h"

#include <algorithm>
#include <bit>
#include <string>

#include "canvas.h"
#include "castle/action.h"
#include "castle/rules.h"
#include "tile_drawing.h"

namespace carc::tool {
namespace {

using core::FeatureKind;

size_t Z(int i) { return static_cast<size_t>(i); }

char Glyph(const core::FeatureDef& def, bool vertical) {
  switch (def.kind) {
    case FeatureKind::kStreet:
      return vertical ? '|' : '-';
    case FeatureKind::kTower:
      return 'T';
    case FeatureKind::kHouse:
      return 'H';
    case FeatureKind::kCourt:
      return 'c';
    default:
      return '?';  // the other games' kinds: not on a tile of this game
  }
}

// What marks a feature's symbol: a fountain on a path, a market on a court.
char SymbolGlyph(const core::FeatureDef& def) {
  return def.kind == FeatureKind::kCourt ? 'm' : 'f';
}

Bounds BoundsOf(const castle::Layout& layout) {
  Bounds b{layout.Wall().front().cell.x, layout.Wall().front().cell.x, layout.Wall().front().cell.y,
           layout.Wall().front().cell.y};
  const auto grow = [&b](core::Cell c) {
    b.min_x = std::min(b.min_x, c.x);
    b.max_x = std::max(b.max_x, c.x);
    b.min_y = std::min(b.min_y, c.y);
    b.max_y = std::max(b.max_y, c.y);
  };
  for (const castle::WallCell& w : layout.Wall()) grow(w.cell);
  for (const core::Cell c : layout.Interior()) grow(c);
  return b;
}

void Fill(Canvas* canvas, int cx, int cy, char c) {
  for (int dy = 0; dy < kCellH; ++dy) {
    for (int dx = 0; dx < kCellW; ++dx) canvas->Put(cx + dx, cy + dy, c);
  }
}

void PutText(Canvas* canvas, int x, int y, const std::string& text) {
  for (size_t i = 0; i < text.size(); ++i) canvas->Put(x + static_cast<int>(i), y, text[i]);
}

// The wall: '=' for a wall cell, '#' for a corner tower, each with its first track number; a
// start space's cell is drawn as wall, its tile over it.
void DrawWall(const castle::PublicState& state, const castle::Layout& layout, const Frame& f,
              Canvas* canvas) {
  for (const castle::WallCell& w : layout.Wall()) {
    const int cx = f.Col(w.cell.x);
    const int cy = f.Row(w.cell.y);
    Fill(canvas, cx, cy, w.kind == castle::WallKind::kTower ? '#' : '=');
    if (w.kind != castle::WallKind::kStart)
      PutText(canvas, cx + 1, cy + 1, std::to_string(w.track));
    const int corner = layout.CornerAt(w.track);
    if (w.kind == castle::WallKind::kTower && corner >= 0 &&
        (state.counters.wall_corners & (1u << corner)) != 0) {
      canvas->Put(cx + 3, cy + 1, 'W');
    }
  }
  for (const core::Cell c : layout.Interior()) canvas->Put(f.Col(c.x) + 2, f.Row(c.y) + 1, '.');
}

// Whether a tile's west side shows anything (a start space facing west).
bool FacesWest(const core::TileType& type, int rotation) {
  for (int k = 0; k < core::kPortsPerSide; ++k) {
    if (type.FeatureAt(core::PortOf(core::kWest, k), rotation) != core::kNoFeature) return true;
  }
  return false;
}

// A tile, its fountains and markets, the keeps on it and the followers on it. A start space
// keeps its track number on the wall part of its cell.
void DrawTile(const castle::PublicState& state, const core::TileSet& tiles,
              const castle::PublicTile& tile, const castle::Layout& layout, const Frame& f,
              Canvas* canvas) {
  if (tile.tile >= tiles.TileCount()) return;
  const core::TileType& type = tiles.TypeOf(tile.tile);
  core::PlacedTile placed;
  placed.tile = tile.tile;
  placed.x = tile.x;
  placed.y = tile.y;
  placed.rotation = tile.rotation;
  const int cx = f.Col(placed.x);
  const int cy = f.Row(placed.y);
  TileDrawing drawing(type, placed, cx, cy, &Glyph);
  drawing.Draw(canvas);
  if (!layout.IsInterior({tile.x, tile.y})) {
    for (const castle::StartSpace& start : layout.StartSpaces()) {
      if (start.cell.x != tile.x || start.cell.y != tile.y) continue;
      const int dx = FacesWest(type, tile.rotation) ? 3 : 0;
      PutText(canvas, cx + dx, cy + 1, std::to_string(start.track));
    }
  }
  const Places& places = drawing.places();
  for (int feature = 0; feature < type.FeatureCount(); ++feature) {
    const core::FeatureDef& def = type.features[Z(feature)];
    const auto& at = places[Z(feature)];
    if (def.symbol && !at.empty()) canvas->Put(at.back().first, at.back().second, SymbolGlyph(def));
  }
  for (int p = 0; p < state.counters.players; ++p) {
    const castle::Keep& keep = state.counters.player[Z(p)].keep;
    if (keep.size == 0 || keep.x != tile.x || keep.y != tile.y) continue;
    if (keep.feature >= type.FeatureCount() || places[Z(keep.feature)].empty()) continue;
    const auto& at = places[Z(keep.feature)];
    canvas->Put(at.back().first, at.back().second, 'K');
  }
  // Followers last, so that a symbol never hides one.
  for (const castle::PublicFollower& follower : state.followers) {
    if (follower.x != tile.x || follower.y != tile.y) continue;
    if (follower.feature >= places.size()) continue;
    const auto& at = places[follower.feature];
    if (at.empty()) continue;
    canvas->Put(at.front().first, at.front().second, static_cast<char>('0' + follower.player));
  }
}

int Total(const castle::PlayerCounters& player) { return player.Total(); }

std::string KeepText(const castle::Keep& keep) {
  if (keep.size == 0) return "no keep";
  return "keep of " + std::to_string(keep.size) + " at " + std::to_string(keep.x) + "," +
         std::to_string(keep.y);
}

std::string WallTilesText(const castle::PlayerCounters& player) {
  std::string out;
  for (int k = 1; k < castle::kWallTileKinds; ++k) {
    for (int n = 0; n < player.wall_tiles[Z(k)]; ++n) {
      out += std::string(out.empty() ? "" : " ") + std::to_string(k) + ":" +
             castle::ToString(static_cast<castle::WallTile>(k));
    }
  }
  return out.empty() ? "none" : out;
}

}  // namespace

std::string RenderCastleBoard(const castle::PublicState& state, const core::TileSet& tiles,
                              const castle::Layout& layout) {
  if (layout.Wall().empty()) return "no board\n";
  const Bounds b = BoundsOf(layout);
  const Frame f = BoardFrame(b);
  Canvas canvas = BoardCanvas(b, f);
  DrawWall(state, layout, f, &canvas);
  for (const castle::PublicTile& tile : state.tiles)
    DrawTile(state, tiles, tile, layout, f, &canvas);
  return canvas.Text() +
         "legend: = wall, # corner tower (W: a wall tile on it), numbers: track spaces,\n"
         "        . an empty square, | - paths (f: a fountain, +: paths meet), T tower, H house,\n"
         "        c court (m: a market), K a keep, digit: a player's follower where it stands\n";
}

std::string CastlePlayersText(const castle::PublicState& state) {
  std::string out;
  for (int p = 0; p < state.counters.players; ++p) {
    const castle::PlayerCounters& pc = state.counters.player[Z(p)];
    out += "player " + std::to_string(p) + ": " + std::to_string(Total(pc)) + " points (";
    for (int s = 0; s < castle::kSourceCount; ++s) {
      const auto source = static_cast<castle::Source>(s);
      out += std::string(s ? ", " : "") + castle::ToString(source) + " " +
             std::to_string(pc.score[Z(s)]);
    }
    out += "), followers " + std::to_string(pc.followers) + ", " + KeepText(pc.keep) +
           ", wall tiles " + WallTilesText(pc) + "\n";
  }
  return out;
}

std::string CastleNextLine(const castle::PublicState& state, const core::TileSet& tiles) {
  const castle::Counters& c = state.counters;
  if (c.over) {
    int best = 0;
    for (int p = 0; p < c.players; ++p) best = std::max(best, Total(c.player[Z(p)]));
    std::string winners;
    for (int p = 0; p < c.players; ++p) {
      if (Total(c.player[Z(p)]) == best) winners += " " + std::to_string(p);
    }
    return "game over: winners" + winners + "\n";
  }
  const castle::Decision& d = c.decision;
  std::string out = std::string("next: ") + castle::ToString(d.kind) + " by " +
                    (d.actor == castle::kChance ? "chance" : "player " + std::to_string(d.actor));
  if (d.kind == castle::DecisionKind::kWallTile) {
    out += std::string(" (wall tile ") + std::to_string(d.wall) + ", " +
           castle::ToString(static_cast<castle::WallTile>(d.wall)) + ")";
  }
  if (const int tile = c.drawn_tile; tile >= 0 && tile < tiles.TileCount()) {
    out += " (tile " + std::to_string(tile) + ", " + tiles.TypeOf(tile).name + ")";
  }
  return out + "\n";
}

std::string RenderCastleGame(const castle::Game& game) {
  const castle::PublicState state = game.Public();
  return RenderCastleBoard(state, game.tiles(), game.layout()) + CastlePlayersText(state) +
         "tiles left: " + std::to_string(game.TilesLeft()) + "; discarded " +
         std::to_string(game.TilesDiscarded()) + "; wall tiles still on the wall " +
         std::to_string(std::popcount(state.counters.wall_corners)) + "\n" +
         CastleNextLine(state, game.tiles());
}

}  // namespace carc::tool
