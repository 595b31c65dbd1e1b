#include "city/public_state.h"

#include <cassert>
#include <type_traits>

namespace carc::city {
namespace {
size_t Z(int i) { return static_cast<size_t>(i); }
}  // namespace

PublicState PublicState::Initial(const Config& config) {
  PublicState s;
  s.config = config;
  s.counters.players = config.players;
  s.counters.walls_left = config.walls;
  s.counters.decision = {kChance, DecisionKind::kDrawTile};
  for (int p = 0; p < config.players; ++p) {
    s.counters.player[Z(p)].followers = config.followers;
    s.counters.player[Z(p)].towers = config.towers_total / config.players;
  }
  return s;
}

WallPiece* PublicState::FindPiece(int x, int y, int side) {
  for (auto& list : pieces) {
    for (WallPiece& w : list) {
      if (w.x == x && w.y == y && w.side == side) return &w;
    }
  }
  return nullptr;
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
          AddPoints(e.points, e.kind == core::FeatureKind::kStreet ? kStreets : kMarkets);
        } else if constexpr (std::is_same_v<T, FollowerReturned>) {
          core::RemovePublicFollower(&followers, {e.player, e.x, e.y, e.feature});
          ++counters.player[Z(e.player)].followers;
        } else if constexpr (std::is_same_v<T, GatePlaced>) {
          has_gate = true;
          gate = WallPiece{e.x, e.y, e.side, kNoGuard};
        } else if constexpr (std::is_same_v<T, WallBuilt>) {
          pieces[e.end].push_back(WallPiece{e.x, e.y, e.side, kNoGuard});
          --counters.walls_left;
        } else if constexpr (std::is_same_v<T, ChainClosed>) {
          counters.chain_closed = true;
        } else if constexpr (std::is_same_v<T, GuardPlaced>) {
          WallPiece* piece = FindPiece(e.x, e.y, e.side);
          assert(piece != nullptr);
          piece->guard = static_cast<int8_t>(e.player);
          --counters.player[Z(e.player)].followers;
        } else if constexpr (std::is_same_v<T, TowerPlaced>) {
          towers.push_back({e.player, e.end, e.position});
          --counters.player[Z(e.player)].towers;
          counters.player[Z(e.player)].score[kTowers] += e.points;
        } else if constexpr (std::is_same_v<T, StewardsScored>) {
          AddPoints(e.points, kStewards);
        } else if constexpr (std::is_same_v<T, GuardScored>) {
          counters.player[Z(e.player)].score[kGuards] += e.points;
        } else if constexpr (std::is_same_v<T, GameOver>) {
          counters.end = e.condition;
          counters.decision = {kNobody, DecisionKind::kNone};
          counters.drawn_tile = -1;
        } else if constexpr (std::is_same_v<T, DecisionRequested>) {
          counters.decision = e.decision;
          counters.turn_player = e.turn_player;
        }
        // StackStarted, WallPhaseBegun, WallRoundBegun and WallCompleted change nothing that
        // the public state holds: they are there for people and for clients' displays.
      },
      event);
}

uint64_t PublicState::Hash() const {
  uint64_t h = core::HashBoardFacts(tiles, followers, TileFact, FollowerFact);
  if (has_gate) h ^= WallFact(0, gate.x, gate.y, gate.side);
  for (int end = 0; end < 2; ++end) {
    for (size_t i = 0; i < pieces[Z(end)].size(); ++i) {
      const WallPiece& w = pieces[Z(end)][i];
      const int position = end == kFrontEnd ? static_cast<int>(i) + 1 : -static_cast<int>(i) - 1;
      h ^= WallFact(position, w.x, w.y, w.side);
      if (w.guard != kNoGuard) h ^= GuardFact(w.guard, w.x, w.y, w.side);
    }
  }
  for (const Tower& t : towers) h ^= TowerFact(t.player, t.end, t.position);
  return h ^ CountersHash(counters);
}

}  // namespace carc::city
