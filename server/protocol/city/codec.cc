#include "protocol/city/codec.h"

#include <type_traits>
#include <utility>

#include "protocol/decoder.h"

namespace carc::protocol {
namespace {

using city::kMaxPlayers;

citypb::FeatureKind ToProto(core::FeatureKind kind) {
  switch (kind) {
    case core::FeatureKind::kStreet:
      return citypb::FEATURE_KIND_STREET;
    case core::FeatureKind::kResidential:
      return citypb::FEATURE_KIND_RESIDENTIAL;
    case core::FeatureKind::kMarket:
      return citypb::FEATURE_KIND_MARKET;
    // Not features of The City: its games never hold them (Game::Create refuses such tiles).
    case core::FeatureKind::kCity:
    case core::FeatureKind::kField:
    case core::FeatureKind::kMonastery:
    case core::FeatureKind::kRiver:
    case core::FeatureKind::kTower:
    case core::FeatureKind::kHouse:
    case core::FeatureKind::kCourt:
      return citypb::FEATURE_KIND_UNSPECIFIED;
  }
  return citypb::FEATURE_KIND_UNSPECIFIED;
}

std::optional<core::FeatureKind> FromProto(citypb::FeatureKind kind) {
  switch (kind) {
    case citypb::FEATURE_KIND_STREET:
      return core::FeatureKind::kStreet;
    case citypb::FEATURE_KIND_RESIDENTIAL:
      return core::FeatureKind::kResidential;
    case citypb::FEATURE_KIND_MARKET:
      return core::FeatureKind::kMarket;
    default:
      return std::nullopt;
  }
}

citypb::ScoreCause ToProto(city::ScoreCause cause) {
  switch (cause) {
    case city::ScoreCause::kTile:
      return citypb::SCORE_CAUSE_TILE;
    case city::ScoreCause::kWall:
      return citypb::SCORE_CAUSE_WALL;
    case city::ScoreCause::kClosingWall:
      return citypb::SCORE_CAUSE_CLOSING_WALL;
  }
  return citypb::SCORE_CAUSE_UNSPECIFIED;
}

// Enumerations whose wire values are the engine's plus a fixed offset.
template <typename Engine, typename Wire>
Wire Shifted(Engine value, int offset) {
  return static_cast<Wire>(static_cast<int>(value) + offset);
}

void SetPoints(const city::Points& points, int players,
               google::protobuf::RepeatedField<int32_t>* out) {
  for (int p = 0; p < players; ++p) out->Add(points[static_cast<size_t>(p)]);
}

city::Points GetPoints(const google::protobuf::RepeatedField<int32_t>& in, Decoder& d) {
  city::Points points{};
  if (in.size() > kMaxPlayers) d.Get<int8_t>(1000);  // too many seats: malformed
  for (int p = 0; p < in.size() && p < kMaxPlayers; ++p) {
    points[static_cast<size_t>(p)] = d.Get<int16_t>(in.Get(p));
  }
  return points;
}

citypb::Scores ScoresOf(const std::array<int, city::kSourceCount>& score) {
  citypb::Scores s;
  s.set_streets(score[city::kStreets]);
  s.set_markets(score[city::kMarkets]);
  s.set_towers(score[city::kTowers]);
  s.set_stewards(score[city::kStewards]);
  s.set_guards(score[city::kGuards]);
  return s;
}

std::array<int, city::kSourceCount> FromScores(const citypb::Scores& s) {
  std::array<int, city::kSourceCount> score{};
  score[city::kStreets] = s.streets();
  score[city::kMarkets] = s.markets();
  score[city::kTowers] = s.towers();
  score[city::kStewards] = s.stewards();
  score[city::kGuards] = s.guards();
  return score;
}

citypb::WallPiece PieceOf(const city::WallPiece& w) {
  citypb::WallPiece p;
  p.set_x(w.x);
  p.set_y(w.y);
  p.set_side(w.side);
  if (w.guard != city::kNoGuard) p.set_guard(static_cast<uint32_t>(w.guard));
  return p;
}

city::WallPiece FromPiece(const citypb::WallPiece& p, Decoder& d) {
  city::WallPiece w;
  w.x = d.Get<int8_t>(p.x());
  w.y = d.Get<int8_t>(p.y());
  w.side = d.Get<uint8_t>(p.side());
  if (w.side >= core::kSides) d.Get<int8_t>(1000);
  w.guard = p.has_guard() ? d.Get<int8_t>(p.guard()) : city::kNoGuard;
  return w;
}

}  // namespace

citypb::Action ToProto(const city::Action& a) {
  citypb::Action out;
  out.set_kind(Shifted<city::ActionKind, citypb::ActionKind>(a.kind, 1));
  out.set_x(a.x);
  out.set_y(a.y);
  out.set_rotation(a.rotation);
  out.set_side(a.side);
  out.set_feature(a.feature);
  out.set_end(a.end);
  out.set_tile(a.tile);
  return out;
}

std::optional<city::Action> FromProto(const citypb::Action& in) {
  if (in.kind() < citypb::ACTION_KIND_DRAW || in.kind() > citypb::ACTION_KIND_SKIP_TOWER) {
    return std::nullopt;
  }
  Decoder d;
  city::Action a;
  a.kind = static_cast<city::ActionKind>(in.kind() - 1);
  a.x = d.Get<int8_t>(in.x());
  a.y = d.Get<int8_t>(in.y());
  a.rotation = d.Get<uint8_t>(in.rotation());
  a.side = d.Get<uint8_t>(in.side());
  a.feature = d.Get<uint8_t>(in.feature());
  a.end = d.Get<uint8_t>(in.end());
  a.tile = d.Get<uint8_t>(in.tile());
  if (!d.ok()) return std::nullopt;
  return a;
}

citypb::Decision ToProto(const city::Decision& decision, int turn_player) {
  citypb::Decision out;
  out.set_actor(decision.actor);
  out.set_kind(Shifted<city::DecisionKind, citypb::DecisionKind>(decision.kind, 1));
  out.set_turn_player(static_cast<uint32_t>(turn_player));
  return out;
}

namespace {

std::optional<city::Decision> FromDecision(const citypb::Decision& in, Decoder& d) {
  if (in.kind() < citypb::DECISION_KIND_DRAW_TILE || in.kind() > citypb::DECISION_KIND_NONE) {
    return std::nullopt;
  }
  city::Decision decision;
  decision.actor = d.Get<int8_t>(in.actor());
  decision.kind = static_cast<city::DecisionKind>(in.kind() - 1);
  return decision;
}

}  // namespace

citypb::Event ToProto(const city::Event& event, int players) {
  citypb::Event out;
  std::visit(
      [&out, players](const auto& e) {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, city::TileDrawn>) {
          auto* m = out.mutable_tile_drawn();
          m->set_tile(e.tile);
          m->set_stack(e.stack);
        } else if constexpr (std::is_same_v<T, city::StackStarted>) {
          out.mutable_stack_started()->set_stack(e.stack);
        } else if constexpr (std::is_same_v<T, city::WallPhaseBegun>) {
          out.mutable_wall_phase_begun();
        } else if constexpr (std::is_same_v<T, city::TileDiscarded>) {
          out.mutable_tile_discarded()->set_tile(e.tile);
        } else if constexpr (std::is_same_v<T, city::TilePlaced>) {
          auto* m = out.mutable_tile_placed();
          m->set_player(e.player);
          m->set_tile(e.tile);
          m->set_x(e.x);
          m->set_y(e.y);
          m->set_rotation(e.rotation);
        } else if constexpr (std::is_same_v<T, city::FollowerPlaced>) {
          auto* m = out.mutable_follower_placed();
          m->set_player(e.player);
          m->set_x(e.x);
          m->set_y(e.y);
          m->set_feature(e.feature);
          m->set_role(ToProto(e.role));
        } else if constexpr (std::is_same_v<T, city::FeatureScored>) {
          auto* m = out.mutable_feature_scored();
          m->set_kind(ToProto(e.kind));
          m->set_x(e.x);
          m->set_y(e.y);
          m->set_feature(e.feature);
          m->set_tiles(e.tiles);
          m->set_market_kinds(e.market_kinds);
          m->set_cause(ToProto(e.cause));
          SetPoints(e.points, players, m->mutable_points());
        } else if constexpr (std::is_same_v<T, city::FollowerReturned>) {
          auto* m = out.mutable_follower_returned();
          m->set_player(e.player);
          m->set_x(e.x);
          m->set_y(e.y);
          m->set_feature(e.feature);
          m->set_scored(e.scored);
        } else if constexpr (std::is_same_v<T, city::WallRoundBegun>) {
          auto* m = out.mutable_wall_round_begun();
          m->set_scorer(e.scorer);
          m->set_pieces(e.pieces);
        } else if constexpr (std::is_same_v<T, city::GatePlaced>) {
          auto* m = out.mutable_gate_placed();
          m->set_player(e.player);
          m->set_x(e.x);
          m->set_y(e.y);
          m->set_side(e.side);
        } else if constexpr (std::is_same_v<T, city::WallBuilt>) {
          auto* m = out.mutable_wall_built();
          m->set_player(e.player);
          m->set_x(e.x);
          m->set_y(e.y);
          m->set_side(e.side);
          m->set_end(e.end);
        } else if constexpr (std::is_same_v<T, city::ChainClosed>) {
          out.mutable_chain_closed();
        } else if constexpr (std::is_same_v<T, city::GuardPlaced>) {
          auto* m = out.mutable_guard_placed();
          m->set_player(e.player);
          m->set_x(e.x);
          m->set_y(e.y);
          m->set_side(e.side);
        } else if constexpr (std::is_same_v<T, city::TowerPlaced>) {
          auto* m = out.mutable_tower_placed();
          m->set_player(e.player);
          m->set_end(e.end);
          m->set_position(e.position);
          m->set_points(e.points);
        } else if constexpr (std::is_same_v<T, city::WallCompleted>) {
          out.mutable_wall_completed()->set_sides(e.sides);
        } else if constexpr (std::is_same_v<T, city::StewardsScored>) {
          auto* m = out.mutable_stewards_scored();
          m->set_x(e.x);
          m->set_y(e.y);
          m->set_feature(e.feature);
          m->set_markets(e.markets);
          SetPoints(e.points, players, m->mutable_points());
        } else if constexpr (std::is_same_v<T, city::GuardScored>) {
          auto* m = out.mutable_guard_scored();
          m->set_player(e.player);
          m->set_x(e.x);
          m->set_y(e.y);
          m->set_side(e.side);
          m->set_public_buildings(e.public_buildings);
          m->set_historic_buildings(e.historic_buildings);
          m->set_points(e.points);
        } else if constexpr (std::is_same_v<T, city::GameOver>) {
          auto* m = out.mutable_game_over();
          m->set_condition(Shifted<city::EndCondition, citypb::EndCondition>(e.condition, 0));
          m->set_conditions(e.conditions);
          for (int p = 0; p < players; ++p) {
            std::array<int, city::kSourceCount> score{};
            for (int s = 0; s < city::kSourceCount; ++s) {
              score[static_cast<size_t>(s)] =
                  e.scores[static_cast<size_t>(p)][static_cast<size_t>(s)];
            }
            *m->add_scores() = ScoresOf(score);
          }
          m->set_winners(e.winners);
        } else if constexpr (std::is_same_v<T, city::DecisionRequested>) {
          *out.mutable_decision_requested()->mutable_decision() =
              ToProto(e.decision, e.turn_player);
        }
      },
      event);
  return out;
}

std::optional<city::Event> FromProto(const citypb::Event& in) {
  Decoder d;
  // The arguments are decoded (and range-checked) before Finish looks at the decoder.
  const auto Finish = [&d](const auto& event) -> std::optional<city::Event> {
    if (!d.ok()) return std::nullopt;
    return city::Event(event);
  };
  switch (in.kind_case()) {
    case citypb::Event::kTileDrawn:
      return Finish(city::TileDrawn{d.Get<uint8_t>(in.tile_drawn().tile()),
                                    d.Get<uint8_t>(in.tile_drawn().stack())});
    case citypb::Event::kStackStarted:
      return Finish(city::StackStarted{d.Get<uint8_t>(in.stack_started().stack())});
    case citypb::Event::kWallPhaseBegun:
      return Finish(city::WallPhaseBegun{});
    case citypb::Event::kTileDiscarded:
      return Finish(city::TileDiscarded{d.Get<uint8_t>(in.tile_discarded().tile())});
    case citypb::Event::kTilePlaced: {
      const auto& m = in.tile_placed();
      return Finish(city::TilePlaced{d.Get<uint8_t>(m.player()), d.Get<uint8_t>(m.tile()),
                                     d.Get<int8_t>(m.x()), d.Get<int8_t>(m.y()),
                                     d.Get<uint8_t>(m.rotation())});
    }
    case citypb::Event::kFollowerPlaced: {
      const auto& m = in.follower_placed();
      const auto role = FromProto(m.role());
      if (!role) return std::nullopt;
      return Finish(city::FollowerPlaced{d.Get<uint8_t>(m.player()), d.Get<int8_t>(m.x()),
                                         d.Get<int8_t>(m.y()), d.Get<uint8_t>(m.feature()), *role});
    }
    case citypb::Event::kFeatureScored: {
      const auto& m = in.feature_scored();
      const auto kind = FromProto(m.kind());
      if (!kind || m.cause() < citypb::SCORE_CAUSE_TILE ||
          m.cause() > citypb::SCORE_CAUSE_CLOSING_WALL) {
        return std::nullopt;
      }
      return Finish(city::FeatureScored{
          *kind, d.Get<int8_t>(m.x()), d.Get<int8_t>(m.y()), d.Get<uint8_t>(m.feature()),
          d.Get<uint8_t>(m.tiles()), d.Get<uint8_t>(m.market_kinds()),
          static_cast<city::ScoreCause>(m.cause() - 1), GetPoints(m.points(), d)});
    }
    case citypb::Event::kFollowerReturned: {
      const auto& m = in.follower_returned();
      return Finish(city::FollowerReturned{d.Get<uint8_t>(m.player()), d.Get<int8_t>(m.x()),
                                           d.Get<int8_t>(m.y()), d.Get<uint8_t>(m.feature()),
                                           m.scored()});
    }
    case citypb::Event::kWallRoundBegun:
      return Finish(city::WallRoundBegun{d.Get<uint8_t>(in.wall_round_begun().scorer()),
                                         d.Get<uint8_t>(in.wall_round_begun().pieces())});
    case citypb::Event::kGatePlaced: {
      const auto& m = in.gate_placed();
      return Finish(city::GatePlaced{d.Get<uint8_t>(m.player()), d.Get<int8_t>(m.x()),
                                     d.Get<int8_t>(m.y()), d.Get<uint8_t>(m.side())});
    }
    case citypb::Event::kWallBuilt: {
      const auto& m = in.wall_built();
      if (m.end() > city::kBackEnd) return std::nullopt;
      return Finish(city::WallBuilt{d.Get<uint8_t>(m.player()), d.Get<int8_t>(m.x()),
                                    d.Get<int8_t>(m.y()), d.Get<uint8_t>(m.side()),
                                    d.Get<uint8_t>(m.end())});
    }
    case citypb::Event::kChainClosed:
      return Finish(city::ChainClosed{});
    case citypb::Event::kGuardPlaced: {
      const auto& m = in.guard_placed();
      return Finish(city::GuardPlaced{d.Get<uint8_t>(m.player()), d.Get<int8_t>(m.x()),
                                      d.Get<int8_t>(m.y()), d.Get<uint8_t>(m.side())});
    }
    case citypb::Event::kTowerPlaced: {
      const auto& m = in.tower_placed();
      return Finish(city::TowerPlaced{d.Get<uint8_t>(m.player()), d.Get<uint8_t>(m.end()),
                                      d.Get<uint8_t>(m.position()), d.Get<int16_t>(m.points())});
    }
    case citypb::Event::kWallCompleted:
      return Finish(city::WallCompleted{d.Get<uint8_t>(in.wall_completed().sides())});
    case citypb::Event::kStewardsScored: {
      const auto& m = in.stewards_scored();
      return Finish(city::StewardsScored{d.Get<int8_t>(m.x()), d.Get<int8_t>(m.y()),
                                         d.Get<uint8_t>(m.feature()), d.Get<uint8_t>(m.markets()),
                                         GetPoints(m.points(), d)});
    }
    case citypb::Event::kGuardScored: {
      const auto& m = in.guard_scored();
      return Finish(
          city::GuardScored{d.Get<uint8_t>(m.player()), d.Get<int8_t>(m.x()), d.Get<int8_t>(m.y()),
                            d.Get<uint8_t>(m.side()), d.Get<uint8_t>(m.public_buildings()),
                            d.Get<uint8_t>(m.historic_buildings()), d.Get<int16_t>(m.points())});
    }
    case citypb::Event::kGameOver: {
      const auto& m = in.game_over();
      if (m.condition() < citypb::END_CONDITION_NONE ||
          m.condition() > citypb::END_CONDITION_WALL_CLOSED || m.scores_size() > kMaxPlayers) {
        return std::nullopt;
      }
      city::GameOver over{};
      over.condition = static_cast<city::EndCondition>(m.condition());
      over.conditions = d.Get<uint8_t>(m.conditions());
      for (int p = 0; p < m.scores_size(); ++p) {
        const auto score = FromScores(m.scores(p));
        for (int s = 0; s < city::kSourceCount; ++s) {
          over.scores[static_cast<size_t>(p)][static_cast<size_t>(s)] =
              d.Get<int16_t>(score[static_cast<size_t>(s)]);
        }
      }
      over.winners = d.Get<uint8_t>(m.winners());
      return Finish(over);
    }
    case citypb::Event::kDecisionRequested: {
      const auto& m = in.decision_requested().decision();
      const auto decision = FromDecision(m, d);
      if (!decision) return std::nullopt;
      return Finish(city::DecisionRequested{*decision, d.Get<uint8_t>(m.turn_player())});
    }
    case citypb::Event::KIND_NOT_SET:
      break;
  }
  return std::nullopt;
}

citypb::PublicState ToProto(const city::PublicState& s) {
  citypb::PublicState out;
  const city::Config& config = s.config;
  out.set_players(static_cast<uint32_t>(config.players));
  for (int size : config.stack_sizes) out.add_stack_sizes(static_cast<uint32_t>(size));
  out.set_walls(static_cast<uint32_t>(config.walls));
  out.set_followers_per_player(static_cast<uint32_t>(config.followers));
  out.set_towers_total(static_cast<uint32_t>(config.towers_total));
  out.set_closing_distance(static_cast<uint32_t>(config.closing_distance));
  for (const city::PublicTile& t : s.tiles) {
    auto* m = out.add_tiles();
    m->set_tile(t.tile);
    m->set_x(t.x);
    m->set_y(t.y);
    m->set_rotation(t.rotation);
  }
  for (const city::PublicFollower& f : s.followers) {
    auto* m = out.add_followers();
    m->set_player(f.player);
    m->set_x(f.x);
    m->set_y(f.y);
    m->set_feature(f.feature);
  }
  if (s.has_gate) *out.mutable_gate() = PieceOf(s.gate);
  for (const city::WallPiece& w : s.pieces[city::kFrontEnd]) *out.add_front() = PieceOf(w);
  for (const city::WallPiece& w : s.pieces[city::kBackEnd]) *out.add_back() = PieceOf(w);
  for (const city::Tower& t : s.towers) {
    auto* m = out.add_towers();
    m->set_player(t.player);
    m->set_end(t.end);
    m->set_position(t.position);
  }
  const city::Counters& c = s.counters;
  *out.mutable_decision() = ToProto(c.decision, c.turn_player);
  out.set_drawn_tile(c.drawn_tile);
  out.set_tiles_drawn(static_cast<uint32_t>(c.tiles_drawn));
  out.set_tiles_discarded(static_cast<uint32_t>(c.tiles_discarded));
  out.set_walls_left(static_cast<uint32_t>(c.walls_left));
  out.set_chain_closed(c.chain_closed);
  out.set_end(Shifted<city::EndCondition, citypb::EndCondition>(c.end, 0));
  for (int p = 0; p < c.players; ++p) {
    const city::PlayerCounters& pc = c.player[static_cast<size_t>(p)];
    auto* m = out.add_player();
    *m->mutable_scores() = ScoresOf(pc.score);
    m->set_followers(static_cast<uint32_t>(pc.followers));
    m->set_towers(static_cast<uint32_t>(pc.towers));
  }
  return out;
}

std::optional<city::PublicState> FromProto(const citypb::PublicState& in) {
  Decoder d;
  city::Config config;
  config.players = d.Get<int8_t>(in.players());
  if (in.stack_sizes_size() != 3 || in.player_size() != config.players || config.players < 1 ||
      config.players > kMaxPlayers || in.end() < citypb::END_CONDITION_NONE ||
      in.end() > citypb::END_CONDITION_WALL_CLOSED) {
    return std::nullopt;
  }
  for (int i = 0; i < 3; ++i)
    config.stack_sizes[static_cast<size_t>(i)] = d.Get<uint8_t>(in.stack_sizes(i));
  config.walls = d.Get<uint8_t>(in.walls());
  config.followers = d.Get<uint8_t>(in.followers_per_player());
  config.towers_total = d.Get<uint8_t>(in.towers_total());
  config.closing_distance = d.Get<uint8_t>(in.closing_distance());
  city::PublicState s = city::PublicState::Initial(config);
  for (const auto& t : in.tiles()) {
    s.tiles.push_back({d.Get<uint8_t>(t.tile()), d.Get<int8_t>(t.x()), d.Get<int8_t>(t.y()),
                       d.Get<uint8_t>(t.rotation())});
  }
  for (const auto& f : in.followers()) {
    s.followers.push_back({d.Get<uint8_t>(f.player()), d.Get<int8_t>(f.x()), d.Get<int8_t>(f.y()),
                           d.Get<uint8_t>(f.feature())});
  }
  s.has_gate = in.has_gate();
  if (s.has_gate) s.gate = FromPiece(in.gate(), d);
  for (const auto& w : in.front()) s.pieces[city::kFrontEnd].push_back(FromPiece(w, d));
  for (const auto& w : in.back()) s.pieces[city::kBackEnd].push_back(FromPiece(w, d));
  for (const auto& t : in.towers()) {
    s.towers.push_back(
        {d.Get<uint8_t>(t.player()), d.Get<uint8_t>(t.end()), d.Get<uint8_t>(t.position())});
  }
  city::Counters& c = s.counters;
  const auto decision = FromDecision(in.decision(), d);
  if (!decision) return std::nullopt;
  c.decision = *decision;
  c.turn_player = d.Get<uint8_t>(in.decision().turn_player());
  c.drawn_tile = d.Get<int16_t>(in.drawn_tile());
  c.tiles_drawn = d.Get<uint8_t>(in.tiles_drawn());
  c.tiles_discarded = d.Get<uint8_t>(in.tiles_discarded());
  c.walls_left = d.Get<uint8_t>(in.walls_left());
  c.chain_closed = in.chain_closed();
  c.end = static_cast<city::EndCondition>(in.end());
  for (int p = 0; p < config.players; ++p) {
    const auto& m = in.player(p);
    city::PlayerCounters& pc = c.player[static_cast<size_t>(p)];
    pc.score = FromScores(m.scores());
    pc.followers = d.Get<uint8_t>(m.followers());
    pc.towers = d.Get<uint8_t>(m.towers());
  }
  if (!d.ok()) return std::nullopt;
  return s;
}

}  // namespace carc::protocol
