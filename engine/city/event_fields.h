// The fields of every event, named once, for any output format: the text notation
// (FormatEvent) and the tool's JSON both walk them, so the two cannot drift apart.
//
// A Sink provides Number(key, int), Text(key, const char*) and Points(key, const Points&).
// Sides are written as letters (N, E, S, W) and ends as "front"/"back".
#pragma once

#include <type_traits>

#include "city/event.h"

namespace carc::city {

inline const char* SideLetter(int side) {
  static constexpr const char* kLetters[] = {"N", "E", "S", "W"};
  return side >= 0 && side < 4 ? kLetters[side] : "?";
}
inline const char* EndName(int end) { return end == kFrontEnd ? "front" : "back"; }

template <typename Sink>
void ForEachField(const Event& event, Sink& out) {
  std::visit(
      [&out](const auto& e) {
        using T = std::decay_t<decltype(e)>;
        const auto cell = [&out](int x, int y) {
          out.Number("x", x);
          out.Number("y", y);
        };
        if constexpr (std::is_same_v<T, TileDrawn>) {
          out.Number("tile", e.tile);
          out.Number("stack", e.stack);
        } else if constexpr (std::is_same_v<T, StackStarted>) {
          out.Number("stack", e.stack);
        } else if constexpr (std::is_same_v<T, TileDiscarded>) {
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
          out.Text("role", ToString(e.role));
        } else if constexpr (std::is_same_v<T, FeatureScored>) {
          out.Text("kind", ToString(e.kind));
          cell(e.x, e.y);
          out.Number("feature", e.feature);
          out.Number("tiles", e.tiles);
          out.Number("market_kinds", e.market_kinds);
          out.Text("cause", ToString(e.cause));
          out.Points("points", e.points);
        } else if constexpr (std::is_same_v<T, FollowerReturned>) {
          out.Number("player", e.player);
          cell(e.x, e.y);
          out.Number("feature", e.feature);
          out.Text("scored", e.scored ? "yes" : "no");
        } else if constexpr (std::is_same_v<T, WallRoundBegun>) {
          out.Number("scorer", e.scorer);
          out.Number("pieces", e.pieces);
        } else if constexpr (std::is_same_v<T, GatePlaced> || std::is_same_v<T, GuardPlaced>) {
          out.Number("player", e.player);
          cell(e.x, e.y);
          out.Text("side", SideLetter(e.side));
        } else if constexpr (std::is_same_v<T, WallBuilt>) {
          out.Number("player", e.player);
          cell(e.x, e.y);
          out.Text("side", SideLetter(e.side));
          out.Text("end", EndName(e.end));
        } else if constexpr (std::is_same_v<T, TowerPlaced>) {
          out.Number("player", e.player);
          out.Text("end", EndName(e.end));
          out.Number("position", e.position);
          out.Number("points", e.points);
        } else if constexpr (std::is_same_v<T, WallCompleted>) {
          out.Number("sides", e.sides);
        } else if constexpr (std::is_same_v<T, StewardsScored>) {
          cell(e.x, e.y);
          out.Number("feature", e.feature);
          out.Number("markets", e.markets);
          out.Points("points", e.points);
        } else if constexpr (std::is_same_v<T, GuardScored>) {
          out.Number("player", e.player);
          cell(e.x, e.y);
          out.Text("side", SideLetter(e.side));
          out.Number("public", e.public_buildings);
          out.Number("historic", e.historic_buildings);
          out.Number("points", e.points);
        } else if constexpr (std::is_same_v<T, GameOver>) {
          out.Text("ended_by", ToString(e.condition));
          out.Number("conditions", e.conditions);
          out.Number("winners", e.winners);
        } else if constexpr (std::is_same_v<T, DecisionRequested>) {
          out.Number("actor", e.decision.actor);
          out.Text("decision", ToString(e.decision.kind));
          out.Number("turn", e.turn_player);
        }
      },
      event);
}

}  // namespace carc::city
