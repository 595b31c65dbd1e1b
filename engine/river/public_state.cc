#include "river/public_state.h"

#include <type_traits>

namespace carc::river {
namespace {
size_t Z(int i) { return static_cast<size_t>(i); }

Source SourceOfKind(core::FeatureKind kind) {
  switch (kind) {
    case core::FeatureKind::kCity:
      return kCities;
    case core::FeatureKind::kMonastery:
      return kMonasteries;
    case core::FeatureKind::kField:
      return kFields;
    default:
      return kRoads;
  }
}
}  // namespace

PublicState PublicState::Initial(const Config& config, int setup_tile) {
  PublicState s;
  s.config = config;
  s.tiles.push_back({static_cast<uint8_t>(setup_tile), 0, 0, 0});
  s.counters.players = config.players;
  s.counters.decision = {kChance, DecisionKind::kDrawTile};
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
          AddPoints(e.points, SourceOfKind(e.kind));
        } else if constexpr (std::is_same_v<T, FollowerReturned>) {
          core::RemovePublicFollower(&followers, {e.player, e.x, e.y, e.feature});
          ++counters.player[Z(e.player)].followers;
        } else if constexpr (std::is_same_v<T, FieldScored>) {
          AddPoints(e.points, kFields);
        } else if constexpr (std::is_same_v<T, GameOver>) {
          counters.decision = {kNobody, DecisionKind::kNone};
          counters.drawn_tile = -1;
          counters.over = true;
        } else if constexpr (std::is_same_v<T, DecisionRequested>) {
          counters.decision = e.decision;
          counters.turn_player = e.turn_player;
        }
      },
      event);
}

uint64_t PublicState::Hash() const {
  uint64_t h = core::HashBoardFacts(tiles, followers, TileFact, FollowerFact);
  return h ^ CountersHash(counters);
}

}  // namespace carc::river
