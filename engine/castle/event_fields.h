// The fields of every event, named once, for any output format: the text notation (FormatEvent)
// walks them, and a tool's JSON can walk the same, so the two cannot drift apart.
//
// A Sink provides Number(key, int), Text(key, const char*) and Points(key, const Points&).
#pragma once

#include <type_traits>

#include "castle/event.h"

namespace carc::castle {

template <typename Sink>
void ForEachField(const Event& event, Sink& out) {
  std::visit(
      [&out](const auto& e) {
        using T = std::decay_t<decltype(e)>;
        const auto cell = [&out](int x, int y) {
          out.Number("x", x);
          out.Number("y", y);
        };
        if constexpr (std::is_same_v<T, TileDrawn> || std::is_same_v<T, TileDiscarded>) {
          out.Number("tile", e.tile);
        } else if constexpr (std::is_same_v<T, TilePlaced>) {
          out.Number("player", e.player);
          out.Number("tile", e.tile);
          cell(e.x, e.y);
          out.Number("rotation", e.rotation);
        } else if constexpr (std::is_same_v<T, FollowerPlaced>) {
          out.Number("player", e.player);
          cell(e.x, e.y);
          out.Number("feature", e.feature);
          out.Text("role", RoleName(e.role));
        } else if constexpr (std::is_same_v<T, FeatureScored>) {
          out.Text("kind", KindName(e.kind));
          cell(e.x, e.y);
          out.Number("feature", e.feature);
          out.Number("tiles", e.tiles);
          out.Number("symbols", e.symbols);
          out.Text("complete", e.complete ? "yes" : "no");
          out.Number("wall", e.wall);
          out.Points("points", e.points);
        } else if constexpr (std::is_same_v<T, FollowerReturned>) {
          out.Number("player", e.player);
          cell(e.x, e.y);
          out.Number("feature", e.feature);
        } else if constexpr (std::is_same_v<T, KeepPlaced>) {
          out.Number("player", e.player);
          cell(e.x, e.y);
          out.Number("feature", e.feature);
          out.Number("size", e.size);
        } else if constexpr (std::is_same_v<T, WallTileTaken>) {
          out.Number("player", e.player);
          out.Number("corner", e.corner);
          out.Number("wall", e.wall);
        } else if constexpr (std::is_same_v<T, WallTileUsed>) {
          out.Number("player", e.player);
          out.Number("wall", e.wall);
          out.Number("points", e.points);
        } else if constexpr (std::is_same_v<T, KeepScored>) {
          out.Number("area", e.area);
          Points sizes{};
          for (size_t p = 0; p < sizes.size(); ++p) sizes[p] = e.sizes[p];
          out.Points("sizes", sizes);
          out.Points("points", e.points);
        } else if constexpr (std::is_same_v<T, GameOver>) {
          for (int s = 0; s < kSourceCount; ++s) {
            Points by_player{};
            for (size_t p = 0; p < by_player.size(); ++p) {
              by_player[p] = e.scores[p][static_cast<size_t>(s)];
            }
            out.Points(ToString(static_cast<Source>(s)), by_player);
          }
          out.Number("winners", e.winners);
        } else if constexpr (std::is_same_v<T, DecisionRequested>) {
          out.Number("actor", e.decision.actor);
          out.Text("decision", ToString(e.decision.kind));
          if (e.decision.kind == DecisionKind::kWallTile) out.Number("wall", e.decision.wall);
          out.Number("turn", e.turn_player);
        }
      },
      event);
}

}  // namespace carc::castle
