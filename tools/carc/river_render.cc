#include "river_render.h"

#include <algorithm>
#include <array>
#include <bit>
#include <utility>
#include <vector>

#include "canvas.h"
#include "river/action.h"
#include "river/rules.h"

namespace carc::tool {
namespace {

using core::FeatureKind;
using river::Game;

// Where each feature of one placed tile was drawn, in drawing order: a follower is shown on the
// first of these places, a pennant on the last.
using Places = std::array<std::vector<std::pair<int, int>>, core::kMaxFeaturesPerTile>;

char Glyph(const core::FeatureDef& def, bool vertical) {
  switch (def.kind) {
    case FeatureKind::kCity:
      return 'C';
    case FeatureKind::kField:
      return '.';
    case FeatureKind::kMonastery:
      return 'M';
    case FeatureKind::kRiver:
      return '~';
    case FeatureKind::kStreet:
      return vertical ? '|' : '-';
    default:
      return '?';  // The City's kinds: not on a tile of this game
  }
}

// One tile as drawn: its type, rotation and top-left corner on the canvas.
class TileDrawing {
 public:
  TileDrawing(const core::TileType& type, const core::PlacedTile& placed, int cx, int cy)
      : type_(type), rotation_(placed.rotation), cx_(cx), cy_(cy) {}

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
    const auto& def = type_.features[static_cast<size_t>(feature)];
    canvas->Put(cx_ + dx, cy_ + dy, Glyph(def, vertical));
    places_[static_cast<size_t>(feature)].emplace_back(cx_ + dx, cy_ + dy);
  }

  void DrawPort(Canvas* canvas, int dx, int dy, int port, bool vertical) {
    Put(canvas, dx, dy, type_.FeatureAt(port, rotation_), vertical);
  }

  // The centre: the monastery; the one road or river that passes through; '+' where several
  // meet (a crossing, a bridge); else the area that touches most of the tile's border.
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
      if (type_.features[static_cast<size_t>(f)].kind == FeatureKind::kMonastery) {
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
    Put(canvas, 2, 1, widest, false);
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
  Places places_;
};

void DrawTile(const Game& game, int index, const Frame& f, Canvas* canvas) {
  const core::PlacedTile& placed = game.board().Placed(index);
  const core::TileType& type = game.tiles().TypeOf(placed.tile);
  TileDrawing drawing(type, placed, f.Col(placed.x), f.Row(placed.y));
  drawing.Draw(canvas);
  const Places& places = drawing.places();
  for (int feature = 0; feature < type.FeatureCount(); ++feature) {
    const auto& at = places[static_cast<size_t>(feature)];
    if (type.features[static_cast<size_t>(feature)].pennant && !at.empty()) {
      canvas->Put(at.back().first, at.back().second, 'P');
    }
  }
  // Followers last, so that one is never hidden by a pennant.
  for (int i = 0; i < game.FollowerSpotCount(); ++i) {
    const river::FollowerSpot& spot = game.Spot(i);
    const auto& at = places[spot.feature];
    if (spot.index != index || at.empty()) continue;
    canvas->Put(at.front().first, at.front().second, static_cast<char>('0' + spot.player));
  }
}

std::string PlayerLine(const Game& game, int p) {
  std::string out =
      "player " + std::to_string(p) + ": " + std::to_string(game.TotalScore(p)) + " points (";
  for (int s = 0; s < river::kSourceCount; ++s) {
    const auto source = static_cast<river::Source>(s);
    out += std::string(s ? ", " : "") + river::ToString(source) + " " +
           std::to_string(game.Score(p, source));
  }
  return out + "), followers " + std::to_string(game.FollowersInSupply(p)) + "\n";
}

std::string NextLine(const Game& game) {
  if (game.IsOver()) {
    int best = 0;
    for (int p = 0; p < game.players(); ++p) best = std::max(best, game.TotalScore(p));
    std::string winners;
    for (int p = 0; p < game.players(); ++p) {
      if (game.TotalScore(p) == best) winners += " " + std::to_string(p);
    }
    return "game over: winners" + winners + "\n";
  }
  const river::Decision d = game.CurrentDecision();
  std::string out = std::string("next: ") + river::ToString(d.kind) + " by " +
                    (d.actor == river::kChance ? "chance" : "player " + std::to_string(d.actor));
  if (const int tile = game.counters().drawn_tile; tile >= 0) {
    out += " (tile " + std::to_string(tile) + ", " + game.tiles().TypeOf(tile).name + ")";
  }
  return out + "\n";
}

std::string Summary(const Game& game) {
  std::string out;
  for (int p = 0; p < game.players(); ++p) out += PlayerLine(game, p);
  out += "tiles left: " + std::to_string(game.TilesLeft()) + "; discarded " +
         std::to_string(game.TilesDiscarded()) + "; the River " +
         (!game.config().river ? "not played"
          : game.RiverOpen()   ? "still open"
                               : "closed") +
         "\n";
  return out + NextLine(game);
}

}  // namespace

std::string RenderRiverGame(const Game& game) {
  const core::Board& board = game.board();
  const Frame f = BoardFrame(board);
  Canvas canvas = BoardCanvas(board, f);
  for (int i = 0; i < board.TileCount(); ++i) DrawTile(game, i, f, &canvas);
  return canvas.Text() +
         "legend: . field, C city (P: a pennant), | - roads, ~ the river, M monastery,\n"
         "        + roads or the river meet, digit: a player's follower where it stands\n" +
         Summary(game);
}

}  // namespace carc::tool
