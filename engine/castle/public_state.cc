#include "castle/public_state.h"

#include <algorithm>
#include <type_traits>

namespace carc::castle {
namespace {
size_t Z(int i) { return static_cast<size_t>(i); }
}  // namespace

Source SourceOfScore(const FeatureScored& scored) {
  if (!scored.complete && scored.kind != core::FeatureKind::kCourt) return kWallTiles;
  switch (scored.kind) {
    case core::FeatureKind::kTower:
      return kTowers;
    case core::FeatureKind::kHouse:
      return kHouses;
    case core::FeatureKind::kCourt:
      return kCourts;
    default:
      return kPaths;
  }
}

PublicState PublicState::Initial(const Config& config, const std::vector<PublicTile>& start_tiles,
                                 const Layout& layout) {
  PublicState s;
  s.config = config;
  s.tiles = start_tiles;
  s.counters.players = config.players;
  s.counters.decision = {kChance, DecisionKind::kDrawTile};
  for (int corner = 1; corner < layout.CornerCount(); ++corner) {
    s.counters.wall_corners |= static_cast<uint16_t>(1u << corner);
  }
  for (int p = 0; p < config.players; ++p) s.counters.player[Z(p)].followers = config.followers;
  return s;
}

void PublicState::AddPoints(const Points& points, Source source) {
  for (int p = 0; p < counters.players; ++p) counters.player[Z(p)].score[source] += points[Z(p)];
}

void PublicState::Apply(const Event& event) {
  std::visit(
      [this](const auto& e) {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, TileDrawn>) {
          ++counters.tiles_drawn;
          counters.drawn_tile = e.tile;
        } else if constexpr (std::is_same_v<T, TileDiscarded>) {
          ++counters.tiles_discarded;
          counters.drawn_tile = -1;
        } else if constexpr (std::is_same_v<T, TilePlaced>) {
          tiles.push_back({e.tile, e.x, e.y, e.rotation});
          counters.drawn_tile = -1;
        } else if constexpr (std::is_same_v<T, FollowerPlaced>) {
          core::AddPublicFollower(&followers, {e.player, e.x, e.y, e.feature});
          --counters.player[Z(e.player)].followers;
        } else if constexpr (std::is_same_v<T, FeatureScored>) {
          AddPoints(e.points, SourceOfScore(e));
        } else if constexpr (std::is_same_v<T, FollowerReturned>) {
          core::RemovePublicFollower(&followers, {e.player, e.x, e.y, e.feature});
          ++counters.player[Z(e.player)].followers;
        } else if constexpr (std::is_same_v<T, KeepPlaced>) {
          counters.player[Z(e.player)].keep = {e.size, e.x, e.y, e.feature};
        } else if constexpr (std::is_same_v<T, WallTileTaken>) {
          counters.wall_corners = static_cast<uint16_t>(counters.wall_corners & ~(1u << e.corner));
          ++counters.player[Z(e.player)].wall_tiles[e.wall];
          ++counters.player[Z(e.player)].fresh[e.wall];
        } else if constexpr (std::is_same_v<T, WallTileUsed>) {
          PlayerCounters& pc = counters.player[Z(e.player)];
          --pc.wall_tiles[e.wall];
          ++pc.used[e.wall];
          pc.fresh[e.wall] = std::min(pc.fresh[e.wall], pc.wall_tiles[e.wall]);
          pc.score[kWallTiles] += e.points;
        } else if constexpr (std::is_same_v<T, KeepScored>) {
          AddPoints(e.points, kKeep);
        } else if constexpr (std::is_same_v<T, GameOver>) {
          counters.decision = {kNobody, DecisionKind::kNone};
          counters.drawn_tile = -1;
          counters.over = true;
          counters.wall_corners = 0;
        } else if constexpr (std::is_same_v<T, DecisionRequested>) {
          // A new turn starts with a draw after another player's turn or an extra turn: wall
          // tiles taken before it may be used from now on.
          const bool new_turn = e.decision.kind == DecisionKind::kDrawTile &&
                                counters.decision.kind != DecisionKind::kDrawTile;
          if (new_turn) {
            for (int p = 0; p < counters.players; ++p) counters.player[Z(p)].fresh = {};
          }
          counters.decision = e.decision;
          counters.turn_player = e.turn_player;
        }
      },
      event);
}

uint64_t PublicState::Hash() const {
  const uint64_t h = core::HashBoardFacts(tiles, followers, TileFact, FollowerFact);
  return h ^ CountersHash(counters);
}

}  // namespace carc::castle
