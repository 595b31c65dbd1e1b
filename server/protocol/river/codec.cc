#include "protocol/river/codec.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "protocol/decoder.h"

namespace carc::protocol::river_wire {
namespace {

using google::protobuf::RepeatedField;
using google::protobuf::RepeatedPtrField;
using river::kMaxPlayers;

size_t Z(int i) { return static_cast<size_t>(i); }

// The engine's feature kinds that Carcassonne scores and puts followers on; the River's, The
// City's and The Castle's kinds never reach the wire in this game.
rv1::FeatureKind ToProto(core::FeatureKind kind) {
  switch (kind) {
    case core::FeatureKind::kStreet:
      return rv1::FEATURE_KIND_ROAD;
    case core::FeatureKind::kCity:
      return rv1::FEATURE_KIND_CITY;
    case core::FeatureKind::kMonastery:
      return rv1::FEATURE_KIND_MONASTERY;
    case core::FeatureKind::kField:
      return rv1::FEATURE_KIND_FIELD;
    case core::FeatureKind::kResidential:
    case core::FeatureKind::kMarket:
    case core::FeatureKind::kRiver:
    case core::FeatureKind::kTower:
    case core::FeatureKind::kHouse:
    case core::FeatureKind::kCourt:
      return rv1::FEATURE_KIND_UNSPECIFIED;
  }
  return rv1::FEATURE_KIND_UNSPECIFIED;
}

core::FeatureKind FromKind(rv1::FeatureKind kind, Decoder& d) {
  switch (kind) {
    case rv1::FEATURE_KIND_ROAD:
      return core::FeatureKind::kStreet;
    case rv1::FEATURE_KIND_CITY:
      return core::FeatureKind::kCity;
    case rv1::FEATURE_KIND_MONASTERY:
      return core::FeatureKind::kMonastery;
    case rv1::FEATURE_KIND_FIELD:
      return core::FeatureKind::kField;
    default:
      d.Require(false);
      return core::FeatureKind::kStreet;
  }
}

// The wire's enumerations are the engine's shifted by one: 0 is UNSPECIFIED on the wire.
template <typename Wire, typename Engine>
Wire Shifted(Engine value) {
  return static_cast<Wire>(static_cast<int>(value) + 1);
}

int8_t Coordinate(int32_t value, Decoder& d) { return d.Get<int8_t>(value); }
uint8_t Tile(uint32_t value, Decoder& d) { return d.Below<uint8_t>(value, core::kMaxTiles); }
uint8_t Feature(uint32_t value, Decoder& d) {
  return d.Below<uint8_t>(value, core::kMaxFeaturesPerTile);
}
uint8_t Rotation(uint32_t value, Decoder& d) { return d.Below<uint8_t>(value, core::kSides); }
uint8_t Seat(uint32_t value, int players, Decoder& d) { return d.Below<uint8_t>(value, players); }

void SetPoints(const river::Points& points, int players, RepeatedField<int32_t>* out) {
  for (int p = 0; p < players; ++p) out->Add(points[Z(p)]);
}

// Exactly one entry per seat; the engine's array is zero beyond the game's seats.
river::Points GetPoints(const RepeatedField<int32_t>& in, int players, Decoder& d) {
  river::Points points{};
  d.Require(in.size() == players);
  for (int p = 0; p < in.size() && p < kMaxPlayers; ++p) points[Z(p)] = d.Get<int16_t>(in.Get(p));
  return points;
}

rv1::Scores ScoresOf(const std::array<int, river::kSourceCount>& score) {
  rv1::Scores s;
  s.set_roads(score[river::kRoads]);
  s.set_cities(score[river::kCities]);
  s.set_monasteries(score[river::kMonasteries]);
  s.set_fields(score[river::kFields]);
  return s;
}

// Into the engine's type for scores: int in a player's counters, int16 in a GameOver event.
template <typename T>
std::array<T, river::kSourceCount> FromScores(const rv1::Scores& s, Decoder& d) {
  std::array<T, river::kSourceCount> score{};
  score[river::kRoads] = d.Get<T>(s.roads());
  score[river::kCities] = d.Get<T>(s.cities());
  score[river::kMonasteries] = d.Get<T>(s.monasteries());
  score[river::kFields] = d.Get<T>(s.fields());
  return score;
}

river::DecisionRequested FromDecision(const rv1::Decision& in, int players, Decoder& d) {
  d.Require(in.kind() >= rv1::DECISION_KIND_DRAW_TILE && in.kind() <= rv1::DECISION_KIND_NONE);
  d.Require(in.actor() >= river::kNobody && in.actor() < players);
  river::DecisionRequested out{};
  out.decision.actor = in.actor();
  out.decision.kind = static_cast<river::DecisionKind>(in.kind() - 1);
  out.turn_player = Seat(in.turn_player(), players, d);
  return out;
}

}  // namespace

// --- Actions ---

rv1::Action ToProto(const river::Action& a) {
  rv1::Action out;
  out.set_kind(Shifted<rv1::ActionKind>(a.kind));
  out.set_x(a.x);
  out.set_y(a.y);
  out.set_rotation(a.rotation);
  out.set_feature(a.feature);
  out.set_tile(a.tile);
  return out;
}

std::optional<river::Action> FromProto(const rv1::Action& in) {
  if (in.kind() < rv1::ACTION_KIND_DRAW || in.kind() > rv1::ACTION_KIND_SKIP_FOLLOWER) {
    return std::nullopt;
  }
  Decoder d;
  river::Action a;
  a.kind = static_cast<river::ActionKind>(in.kind() - 1);
  const bool draw = a.kind == river::ActionKind::kDraw;
  const bool place = a.kind == river::ActionKind::kPlaceTile;
  const bool follower = a.kind == river::ActionKind::kPlaceFollower;
  // Only the fields the kind uses may be set (river.proto): the engine would refuse the others.
  d.Require((place || (in.x() == 0 && in.y() == 0 && in.rotation() == 0)) &&
            (follower || in.feature() == 0) && (draw || in.tile() == 0));
  a.x = Coordinate(in.x(), d);
  a.y = Coordinate(in.y(), d);
  a.rotation = Rotation(in.rotation(), d);
  a.feature = Feature(in.feature(), d);
  a.tile = Tile(in.tile(), d);
  if (!d.ok()) return std::nullopt;
  return a;
}

// --- Decisions ---

rv1::Decision ToProto(const river::Decision& decision, int turn_player) {
  rv1::Decision out;
  out.set_actor(decision.actor);
  out.set_kind(Shifted<rv1::DecisionKind>(decision.kind));
  out.set_turn_player(static_cast<uint32_t>(turn_player));
  return out;
}

std::optional<river::DecisionRequested> FromProto(const rv1::Decision& in, int players) {
  Decoder d;
  const river::DecisionRequested out = FromDecision(in, players, d);
  if (!d.ok()) return std::nullopt;
  return out;
}

// --- Events ---

namespace {

// One alternative of the engine's Event into its message (a field of the wire's oneof).
class EventWriter {
 public:
  EventWriter(rv1::Event& out, int players) : out_(out), players_(players) {}

  void operator()(const river::TileDrawn& e) { out_.mutable_tile_drawn()->set_tile(e.tile); }
  void operator()(const river::TileDiscarded& e) {
    out_.mutable_tile_discarded()->set_tile(e.tile);
  }
  void operator()(const river::TilePlaced& e) {
    auto* m = out_.mutable_tile_placed();
    m->set_player(e.player);
    m->set_tile(e.tile);
    m->set_x(e.x);
    m->set_y(e.y);
    m->set_rotation(e.rotation);
  }
  void operator()(const river::FollowerPlaced& e) {
    auto* m = out_.mutable_follower_placed();
    m->set_player(e.player);
    m->set_x(e.x);
    m->set_y(e.y);
    m->set_feature(e.feature);
    m->set_role(ToProto(e.role));
  }
  void operator()(const river::FeatureScored& e) {
    auto* m = out_.mutable_feature_scored();
    m->set_kind(ToProto(e.kind));
    m->set_x(e.x);
    m->set_y(e.y);
    m->set_feature(e.feature);
    m->set_tiles(e.tiles);
    m->set_pennants(e.pennants);
    m->set_complete(e.complete);
    SetPoints(e.points, players_, m->mutable_points());
  }
  void operator()(const river::FollowerReturned& e) {
    auto* m = out_.mutable_follower_returned();
    m->set_player(e.player);
    m->set_x(e.x);
    m->set_y(e.y);
    m->set_feature(e.feature);
  }
  void operator()(const river::FieldScored& e) {
    auto* m = out_.mutable_field_scored();
    m->set_x(e.x);
    m->set_y(e.y);
    m->set_feature(e.feature);
    m->set_cities(e.cities);
    SetPoints(e.points, players_, m->mutable_points());
  }
  void operator()(const river::GameOver& e) {
    auto* m = out_.mutable_game_over();
    for (int p = 0; p < players_; ++p) {
      std::array<int, river::kSourceCount> score{};
      std::copy(e.scores[Z(p)].begin(), e.scores[Z(p)].end(), score.begin());
      *m->add_scores() = ScoresOf(score);
    }
    m->set_winners(e.winners);
  }
  void operator()(const river::DecisionRequested& e) {
    // Qualified: the anonymous namespace's ToProto would hide it.
    *out_.mutable_decision_requested()->mutable_decision() =
        river_wire::ToProto(e.decision, e.turn_player);
  }

 private:
  rv1::Event& out_;
  int players_;
};

river::TilePlaced FromTilePlaced(const rv1::TilePlaced& m, int players, Decoder& d) {
  return {.player = Seat(m.player(), players, d),
          .tile = Tile(m.tile(), d),
          .x = Coordinate(m.x(), d),
          .y = Coordinate(m.y(), d),
          .rotation = Rotation(m.rotation(), d)};
}

river::FollowerPlaced FromFollowerPlaced(const rv1::FollowerPlaced& m, int players, Decoder& d) {
  return {.player = Seat(m.player(), players, d),
          .x = Coordinate(m.x(), d),
          .y = Coordinate(m.y(), d),
          .feature = Feature(m.feature(), d),
          .role = FromKind(m.role(), d)};
}

river::FeatureScored FromFeatureScored(const rv1::FeatureScored& m, int players, Decoder& d) {
  return {.kind = FromKind(m.kind(), d),
          .x = Coordinate(m.x(), d),
          .y = Coordinate(m.y(), d),
          .feature = Feature(m.feature(), d),
          .tiles = d.Get<uint8_t>(m.tiles()),
          .pennants = d.Get<uint8_t>(m.pennants()),
          .complete = m.complete(),
          .points = GetPoints(m.points(), players, d)};
}

river::FollowerReturned FromFollowerReturned(const rv1::FollowerReturned& m, int players,
                                             Decoder& d) {
  return {.player = Seat(m.player(), players, d),
          .x = Coordinate(m.x(), d),
          .y = Coordinate(m.y(), d),
          .feature = Feature(m.feature(), d)};
}

river::FieldScored FromFieldScored(const rv1::FieldScored& m, int players, Decoder& d) {
  return {.x = Coordinate(m.x(), d),
          .y = Coordinate(m.y(), d),
          .feature = Feature(m.feature(), d),
          .cities = d.Get<uint8_t>(m.cities()),
          .points = GetPoints(m.points(), players, d)};
}

river::GameOver FromGameOver(const rv1::GameOver& m, int players, Decoder& d) {
  river::GameOver out{};
  d.Require(m.scores_size() == players);
  for (int p = 0; p < m.scores_size() && p < kMaxPlayers; ++p) {
    out.scores[Z(p)] = FromScores<int16_t>(m.scores(p), d);
  }
  d.Require(m.winners() < (1u << players));  // a bit per seat, none beyond the game's
  out.winners = static_cast<uint8_t>(m.winners());
  return out;
}

// The decoded alternative of the wire's oneof; nullopt when none is set.
std::optional<river::Event> FromKindCase(const rv1::Event& in, int players, Decoder& d) {
  switch (in.kind_case()) {
    case rv1::Event::kTileDrawn:
      return river::TileDrawn{Tile(in.tile_drawn().tile(), d)};
    case rv1::Event::kTileDiscarded:
      return river::TileDiscarded{Tile(in.tile_discarded().tile(), d)};
    case rv1::Event::kTilePlaced:
      return FromTilePlaced(in.tile_placed(), players, d);
    case rv1::Event::kFollowerPlaced:
      return FromFollowerPlaced(in.follower_placed(), players, d);
    case rv1::Event::kFeatureScored:
      return FromFeatureScored(in.feature_scored(), players, d);
    case rv1::Event::kFollowerReturned:
      return FromFollowerReturned(in.follower_returned(), players, d);
    case rv1::Event::kFieldScored:
      return FromFieldScored(in.field_scored(), players, d);
    case rv1::Event::kGameOver:
      return FromGameOver(in.game_over(), players, d);
    case rv1::Event::kDecisionRequested:
      return FromDecision(in.decision_requested().decision(), players, d);
    case rv1::Event::KIND_NOT_SET:
      break;
  }
  return std::nullopt;
}

}  // namespace

rv1::Event ToProto(const river::Event& event, int players) {
  rv1::Event out;
  std::visit(EventWriter(out, players), event);
  return out;
}

std::optional<river::Event> FromProto(const rv1::Event& in, int players) {
  if (players < 2 || players > kMaxPlayers) return std::nullopt;
  Decoder d;
  std::optional<river::Event> event = FromKindCase(in, players, d);
  if (!d.ok()) return std::nullopt;
  return event;
}

// --- The public state ---

rv1::PublicState ToProto(const river::PublicState& s) {
  rv1::PublicState out;
  out.set_players(static_cast<uint32_t>(s.config.players));
  out.set_river(s.config.river);
  out.set_followers_per_player(static_cast<uint32_t>(s.config.followers));
  for (const river::PublicTile& t : s.tiles) {
    auto* m = out.add_tiles();
    m->set_tile(t.tile);
    m->set_x(t.x);
    m->set_y(t.y);
    m->set_rotation(t.rotation);
  }
  for (const river::PublicFollower& f : s.followers) {
    auto* m = out.add_followers();
    m->set_player(f.player);
    m->set_x(f.x);
    m->set_y(f.y);
    m->set_feature(f.feature);
  }
  *out.mutable_decision() = ToProto(s.counters.decision, s.counters.turn_player);
  out.set_drawn_tile(s.counters.drawn_tile);
  out.set_tiles_drawn(static_cast<uint32_t>(s.counters.tiles_drawn));
  out.set_tiles_discarded(static_cast<uint32_t>(s.counters.tiles_discarded));
  out.set_over(s.counters.over);
  for (int p = 0; p < s.config.players; ++p) {
    const river::PlayerCounters& pc = s.counters.player[Z(p)];
    auto* m = out.add_player();
    *m->mutable_scores() = ScoresOf(pc.score);
    m->set_followers(static_cast<uint32_t>(pc.followers));
  }
  return out;
}

namespace {

// The placed tiles, the set-up tile first: at least that one, never more than a tile set holds.
std::vector<river::PublicTile> FromTiles(const RepeatedPtrField<rv1::PlacedTile>& in, Decoder& d) {
  d.Require(!in.empty() && in.size() <= core::kMaxTiles);
  std::vector<river::PublicTile> tiles;
  tiles.reserve(Z(std::min(in.size(), core::kMaxTiles)));
  for (int i = 0; i < in.size() && i < core::kMaxTiles; ++i) {
    const rv1::PlacedTile& m = in.Get(i);
    tiles.push_back(
        {Tile(m.tile(), d), Coordinate(m.x(), d), Coordinate(m.y(), d), Rotation(m.rotation(), d)});
  }
  return tiles;
}

// Sorted strictly, as PublicState::Apply needs them to find a returned follower.
std::vector<river::PublicFollower> FromFollowers(const RepeatedPtrField<rv1::Follower>& in,
                                                 int players, int per_player, Decoder& d) {
  d.Require(in.size() <= players * per_player);
  std::vector<river::PublicFollower> followers;
  for (int i = 0; i < in.size() && d.ok(); ++i) {
    const rv1::Follower& m = in.Get(i);
    followers.push_back({Seat(m.player(), players, d), Coordinate(m.x(), d), Coordinate(m.y(), d),
                         Feature(m.feature(), d)});
  }
  d.Require(std::adjacent_find(followers.begin(), followers.end(),
                               [](const auto& a, const auto& b) { return !(a < b); }) ==
            followers.end());
  return followers;
}

river::PlayerCounters FromPlayer(const rv1::PlayerState& m, int per_player, Decoder& d) {
  river::PlayerCounters pc;
  pc.score = FromScores<int>(m.scores(), d);
  pc.followers = d.Get<int>(m.followers());
  d.Require(pc.followers <= per_player);
  return pc;
}

void FromCounters(const rv1::PublicState& in, river::PublicState& s, Decoder& d) {
  const int players = s.config.players;
  river::Counters& c = s.counters;
  const river::DecisionRequested decision = FromDecision(in.decision(), players, d);
  c.decision = decision.decision;
  c.turn_player = decision.turn_player;
  c.drawn_tile = in.drawn_tile() == -1 ? -1 : Tile(static_cast<uint32_t>(in.drawn_tile()), d);
  d.Require(in.drawn_tile() >= -1);
  c.tiles_drawn = d.Get<int>(in.tiles_drawn());
  c.tiles_discarded = d.Get<int>(in.tiles_discarded());
  d.Require(c.tiles_drawn <= core::kMaxTiles && c.tiles_discarded <= c.tiles_drawn);
  c.over = in.over();
  d.Require(c.over == (c.decision.kind == river::DecisionKind::kNone));
  c.players = players;
  d.Require(in.player_size() == players);
  for (int p = 0; p < in.player_size() && p < players; ++p) {
    c.player[Z(p)] = FromPlayer(in.player(p), s.config.followers, d);
  }
}

}  // namespace

std::optional<river::PublicState> FromProto(const rv1::PublicState& in) {
  Decoder d;
  river::PublicState s;
  s.config.players = d.Get<int>(in.players());
  if (s.config.players < 2 || s.config.players > kMaxPlayers) return std::nullopt;
  s.config.river = in.river();
  s.config.followers = d.Get<uint8_t>(in.followers_per_player());
  s.tiles = FromTiles(in.tiles(), d);
  s.followers = FromFollowers(in.followers(), s.config.players, s.config.followers, d);
  FromCounters(in, s, d);
  if (!d.ok()) return std::nullopt;
  return s;
}

}  // namespace carc::protocol::river_wire
