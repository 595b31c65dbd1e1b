#include "river_render.h"

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "canvas.h"
#include "river/action.h"
#include "river/public_state.h"
#include "river/rules.h"
#include "tile_drawing.h"

namespace carc::tool {
namespace {

using core::FeatureKind;
using river::Game;

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

// Tile `index` of the public state, its pennants and the followers on it.
void DrawTile(const river::PublicState& state, const core::TileSet& tiles, size_t index,
              const Frame& f, Canvas* canvas) {
  const river::PublicTile& tile = state.tiles[index];
  if (tile.tile >= tiles.TileCount()) return;
  const core::TileType& type = tiles.TypeOf(tile.tile);
  core::PlacedTile placed;
  placed.tile = tile.tile;
  placed.x = tile.x;
  placed.y = tile.y;
  placed.rotation = tile.rotation;
  TileDrawing drawing(type, placed, f.Col(placed.x), f.Row(placed.y), &Glyph);
  drawing.Draw(canvas);
  const Places& places = drawing.places();
  for (int feature = 0; feature < type.FeatureCount(); ++feature) {
    const auto& at = places[static_cast<size_t>(feature)];
    if (type.features[static_cast<size_t>(feature)].pennant && !at.empty()) {
      canvas->Put(at.back().first, at.back().second, 'P');
    }
  }
  // Followers last, so that one is never hidden by a pennant.
  for (const river::PublicFollower& follower : state.followers) {
    if (follower.x != tile.x || follower.y != tile.y) continue;
    if (follower.feature >= places.size()) continue;
    const auto& at = places[follower.feature];
    if (at.empty()) continue;
    canvas->Put(at.front().first, at.front().second, static_cast<char>('0' + follower.player));
  }
}

int Total(const river::PlayerCounters& player) {
  int total = 0;
  for (const int points : player.score) total += points;
  return total;
}

}  // namespace

std::string RenderRiverBoard(const river::PublicState& state, const core::TileSet& tiles) {
  if (state.tiles.empty()) return "no tile placed\n";
  Bounds b{state.tiles.front().x, state.tiles.front().x, state.tiles.front().y,
           state.tiles.front().y};
  for (const river::PublicTile& t : state.tiles) {
    b.min_x = std::min<int>(b.min_x, t.x);
    b.max_x = std::max<int>(b.max_x, t.x);
    b.min_y = std::min<int>(b.min_y, t.y);
    b.max_y = std::max<int>(b.max_y, t.y);
  }
  const Frame f = BoardFrame(b);
  Canvas canvas = BoardCanvas(b, f);
  for (size_t i = 0; i < state.tiles.size(); ++i) DrawTile(state, tiles, i, f, &canvas);
  return canvas.Text() +
         "legend: . field, C city (P: a pennant), | - roads, ~ the river, M monastery,\n"
         "        + roads or the river meet, digit: a player's follower where it stands\n";
}

std::string RiverPlayersText(const river::PublicState& state) {
  std::string out;
  for (int p = 0; p < state.counters.players; ++p) {
    const river::PlayerCounters& pc = state.counters.player[static_cast<size_t>(p)];
    out += "player " + std::to_string(p) + ": " + std::to_string(Total(pc)) + " points (";
    for (int s = 0; s < river::kSourceCount; ++s) {
      const auto source = static_cast<river::Source>(s);
      out += std::string(s ? ", " : "") + river::ToString(source) + " " +
             std::to_string(pc.score[static_cast<size_t>(s)]);
    }
    out += "), followers " + std::to_string(pc.followers) + "\n";
  }
  return out;
}

std::string RiverNextLine(const river::PublicState& state, const core::TileSet& tiles) {
  const river::Counters& c = state.counters;
  if (c.over) {
    int best = 0;
    for (int p = 0; p < c.players; ++p) {
      best = std::max(best, Total(c.player[static_cast<size_t>(p)]));
    }
    std::string winners;
    for (int p = 0; p < c.players; ++p) {
      if (Total(c.player[static_cast<size_t>(p)]) == best) winners += " " + std::to_string(p);
    }
    return "game over: winners" + winners + "\n";
  }
  const river::Decision& d = c.decision;
  std::string out = std::string("next: ") + river::ToString(d.kind) + " by " +
                    (d.actor == river::kChance ? "chance" : "player " + std::to_string(d.actor));
  if (const int tile = c.drawn_tile; tile >= 0 && tile < tiles.TileCount()) {
    out += " (tile " + std::to_string(tile) + ", " + tiles.TypeOf(tile).name + ")";
  }
  return out + "\n";
}

std::string RenderRiverGame(const Game& game) {
  const river::PublicState state = game.Public();
  return RenderRiverBoard(state, game.tiles()) + RiverPlayersText(state) +
         "tiles left: " + std::to_string(game.TilesLeft()) + "; discarded " +
         std::to_string(game.TilesDiscarded()) + "; the River " +
         (!game.config().river ? "not played"
          : game.RiverOpen()   ? "still open"
                               : "closed") +
         "\n" + RiverNextLine(state, game.tiles());
}

}  // namespace carc::tool
