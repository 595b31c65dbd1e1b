// One placed tile drawn on a Canvas (kCellW x kCellH characters), shared by the pictures of the
// games whose tiles are cut into ports (Carcassonne, The Castle): each game says which character
// shows a feature of its kinds, the drawing decides where.
#pragma once

#include <array>
#include <bit>
#include <utility>
#include <vector>

#include "canvas.h"
#include "core/board.h"
#include "core/tileset.h"

namespace carc::tool {

// Where each feature of one placed tile was drawn, in drawing order: a follower is shown on the
// first of these places, a symbol (a pennant, a fountain, a market) on the last.
using Places = std::array<std::vector<std::pair<int, int>>, core::kMaxFeaturesPerTile>;

// The character of a feature; `vertical`: a path crossing the north or south side.
using GlyphOf = char (*)(const core::FeatureDef& def, bool vertical);

class TileDrawing {
 public:
  TileDrawing(const core::TileType& type, const core::PlacedTile& placed, int cx, int cy,
              GlyphOf glyph)
      : type_(type), rotation_(placed.rotation), cx_(cx), cy_(cy), glyph_(glyph) {}

  // Ports without a feature (the plain sides of a start space) are left as they were.
  void Draw(Canvas* canvas) {
    DrawCentre(canvas);
    // A side's midpoint shows its road or river, or else the half next to it.
    DrawPort(canvas, 2, 0, Mid(core::kNorth, 0), true);
    DrawPort(canvas, 2, 2, Mid(core::kSouth, 0), true);
    DrawPort(canvas, 0, 1, Mid(core::kWest, 2), false);
    DrawPort(canvas, 4, 1, Mid(core::kEast, 0), false);
    DrawPort(canvas, 1, 1, Mid(core::kWest, 2), false);
    DrawPort(canvas, 3, 1, Mid(core::kEast, 0), false);
    // The corners and the halves beside the midpoints of the north and south sides.
    for (const int dx : {0, 1}) DrawPort(canvas, dx, 0, core::PortOf(core::kNorth, 0), false);
    for (const int dx : {3, 4}) DrawPort(canvas, dx, 0, core::PortOf(core::kNorth, 2), false);
    for (const int dx : {0, 1}) DrawPort(canvas, dx, 2, core::PortOf(core::kSouth, 2), false);
    for (const int dx : {3, 4}) DrawPort(canvas, dx, 2, core::PortOf(core::kSouth, 0), false);
  }
  const Places& places() const { return places_; }

 private:
  // The midpoint port of `side` if a road or river crosses it, else the port of its half `k`.
  int Mid(int side, int k) const {
    const int mid = core::PortOf(side, core::kMidPort);
    return type_.FeatureAt(mid, rotation_) != core::kNoFeature ? mid : core::PortOf(side, k);
  }

  void Put(Canvas* canvas, int dx, int dy, int feature, bool vertical) {
    if (feature == core::kNoFeature) return;
    const auto& def = type_.features[static_cast<size_t>(feature)];
    canvas->Put(cx_ + dx, cy_ + dy, glyph_(def, vertical));
    places_[static_cast<size_t>(feature)].emplace_back(cx_ + dx, cy_ + dy);
  }

  void DrawPort(Canvas* canvas, int dx, int dy, int port, bool vertical) {
    Put(canvas, dx, dy, type_.FeatureAt(port, rotation_), vertical);
  }

  // The centre: the monastery; the one road or river that passes through; '+' where several
  // meet (a crossing, a bridge, a junction); else the area that touches most of the tile's border.
  void DrawCentre(Canvas* canvas) {
    unsigned segment_bits = 0;  // bit f: feature f crosses a side's midpoint
    int segment = core::kNoFeature;
    std::array<int, core::kMaxFeaturesPerTile> ports{};
    for (int port = 0; port < core::kPorts; ++port) {
      const int feature = type_.FeatureAt(port, rotation_);
      if (feature == core::kNoFeature) continue;
      ++ports[static_cast<size_t>(feature)];
      if (port % core::kPortsPerSide == core::kMidPort) {
        segment_bits |= 1u << feature;
        segment = feature;
      }
    }
    const int segments = std::popcount(segment_bits);
    for (int f = 0; f < type_.FeatureCount(); ++f) {
      if (type_.features[static_cast<size_t>(f)].kind == core::FeatureKind::kMonastery) {
        Put(canvas, 2, 1, f, false);
        return;
      }
    }
    if (segments > 1) {
      canvas->Put(cx_ + 2, cy_ + 1, '+');
      return;
    }
    if (segments == 1) {
      Put(canvas, 2, 1, segment, Vertical(segment));
      return;
    }
    int widest = 0;
    for (int f = 1; f < type_.FeatureCount(); ++f) {
      if (ports[static_cast<size_t>(f)] > ports[static_cast<size_t>(widest)]) widest = f;
    }
    if (type_.FeatureCount() > 0) Put(canvas, 2, 1, widest, false);
  }

  // Whether a road or river crosses the north or south side (drawn '|' through the centre).
  bool Vertical(int feature) const {
    for (const int side : {core::kNorth, core::kSouth}) {
      if (type_.FeatureAt(core::PortOf(side, core::kMidPort), rotation_) == feature) return true;
    }
    return false;
  }

  const core::TileType& type_;
  int rotation_;
  int cx_, cy_;
  GlyphOf glyph_;
  Places places_;
};

}  // namespace carc::tool
