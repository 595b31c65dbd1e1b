#include "protocol/castle/codec.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "protocol/decoder.h"

namespace carc::protocol::castle_wire {
namespace {

using castle::kMaxPlayers;
using castle::kWallTileKinds;
using google::protobuf::RepeatedField;
using google::protobuf::RepeatedPtrField;

size_t Z(int i) { return static_cast<size_t>(i); }

// The engine's feature kinds that The Castle scores and puts followers on; the other games'
// kinds never reach the wire in this game.
cv1::FeatureKind ToProto(core::FeatureKind kind) {
  switch (kind) {
    case core::FeatureKind::kStreet:
      return cv1::FEATURE_KIND_PATH;
    case core::FeatureKind::kTower:
      return cv1::FEATURE_KIND_TOWER;
    case core::FeatureKind::kHouse:
      return cv1::FEATURE_KIND_HOUSE;
    case core::FeatureKind::kCourt:
      return cv1::FEATURE_KIND_COURT;
    case core::FeatureKind::kResidential:
    case core::FeatureKind::kMarket:
    case core::FeatureKind::kCity:
    case core::FeatureKind::kField:
    case core::FeatureKind::kMonastery:
    case core::FeatureKind::kRiver:
      return cv1::FEATURE_KIND_UNSPECIFIED;
  }
  return cv1::FEATURE_KIND_UNSPECIFIED;
}

core::FeatureKind FromKind(cv1::FeatureKind kind, Decoder& d) {
  switch (kind) {
    case cv1::FEATURE_KIND_PATH:
      return core::FeatureKind::kStreet;
    case cv1::FEATURE_KIND_TOWER:
      return core::FeatureKind::kTower;
    case cv1::FEATURE_KIND_HOUSE:
      return core::FeatureKind::kHouse;
    case cv1::FEATURE_KIND_COURT:
      return core::FeatureKind::kCourt;
    default:
      d.Require(false);
      return core::FeatureKind::kStreet;
  }
}

cv1::WallKind ToProto(castle::WallKind kind) {
  switch (kind) {
    case castle::WallKind::kWall:
      return cv1::WALL_KIND_WALL;
    case castle::WallKind::kTower:
      return cv1::WALL_KIND_TOWER;
    case castle::WallKind::kStart:
      return cv1::WALL_KIND_START;
  }
  return cv1::WALL_KIND_UNSPECIFIED;
}

castle::WallKind FromWallKind(cv1::WallKind kind, Decoder& d) {
  switch (kind) {
    case cv1::WALL_KIND_WALL:
      return castle::WallKind::kWall;
    case cv1::WALL_KIND_TOWER:
      return castle::WallKind::kTower;
    case cv1::WALL_KIND_START:
      return castle::WallKind::kStart;
    default:
      d.Require(false);
      return castle::WallKind::kWall;
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
// A wall tile's number, 1-9.
uint8_t WallTile(uint32_t value, Decoder& d) {
  d.Require(value >= 1);
  return d.Below<uint8_t>(value, kWallTileKinds);
}

void SetPoints(const castle::Points& points, int players, RepeatedField<int32_t>* out) {
  for (int p = 0; p < players; ++p) out->Add(points[Z(p)]);
}

// Exactly one entry per seat; the engine's array is zero beyond the game's seats.
castle::Points GetPoints(const RepeatedField<int32_t>& in, int players, Decoder& d) {
  castle::Points points{};
  d.Require(in.size() == players);
  for (int p = 0; p < in.size() && p < kMaxPlayers; ++p) points[Z(p)] = d.Get<int16_t>(in.Get(p));
  return points;
}

template <typename T>
cv1::Scores ScoresOf(const std::array<T, castle::kSourceCount>& score) {
  cv1::Scores s;
  s.set_paths(score[castle::kPaths]);
  s.set_towers(score[castle::kTowers]);
  s.set_houses(score[castle::kHouses]);
  s.set_courts(score[castle::kCourts]);
  s.set_keep(score[castle::kKeep]);
  s.set_wall_tiles(score[castle::kWallTiles]);
  return s;
}

// Into the engine's type for scores: int in a player's counters, int16 in a GameOver event.
template <typename T>
std::array<T, castle::kSourceCount> FromScores(const cv1::Scores& s, Decoder& d) {
  std::array<T, castle::kSourceCount> score{};
  score[castle::kPaths] = d.Get<T>(s.paths());
  score[castle::kTowers] = d.Get<T>(s.towers());
  score[castle::kHouses] = d.Get<T>(s.houses());
  score[castle::kCourts] = d.Get<T>(s.courts());
  score[castle::kKeep] = d.Get<T>(s.keep());
  score[castle::kWallTiles] = d.Get<T>(s.wall_tiles());
  return score;
}

castle::DecisionRequested FromDecision(const cv1::Decision& in, int players, Decoder& d) {
  d.Require(in.kind() >= cv1::DECISION_KIND_DRAW_TILE && in.kind() <= cv1::DECISION_KIND_NONE);
  d.Require(in.actor() >= castle::kNobody && in.actor() < players);
  castle::DecisionRequested out{};
  out.decision.actor = in.actor();
  out.decision.kind = static_cast<castle::DecisionKind>(in.kind() - 1);
  // Only a wall-tile decision names a wall tile, and it always does.
  if (out.decision.kind == castle::DecisionKind::kWallTile) {
    out.decision.wall = WallTile(in.wall(), d);
  } else {
    d.Require(in.wall() == 0);
  }
  out.turn_player = Seat(in.turn_player(), players, d);
  return out;
}

}  // namespace

Board BoardOf(const castle::Layout& layout, int start_spaces) {
  Board board;
  board.squares = layout.Interior();
  board.wall = layout.Wall();
  for (int c = 0; c < layout.CornerCount(); ++c)
    board.corner_tracks.push_back(layout.CornerTrack(c));
  board.start_spaces = start_spaces;
  return board;
}

// --- Actions ---

cv1::Action ToProto(const castle::Action& a) {
  cv1::Action out;
  out.set_kind(Shifted<cv1::ActionKind>(a.kind));
  out.set_x(a.x);
  out.set_y(a.y);
  out.set_rotation(a.rotation);
  out.set_feature(a.feature);
  out.set_tile(a.tile);
  out.set_wall(a.wall);
  return out;
}

std::optional<castle::Action> FromProto(const cv1::Action& in) {
  if (in.kind() < cv1::ACTION_KIND_DRAW || in.kind() > cv1::ACTION_KIND_SKIP_WALL_TILE) {
    return std::nullopt;
  }
  using K = castle::ActionKind;
  Decoder d;
  castle::Action a;
  a.kind = static_cast<K>(in.kind() - 1);
  const bool draw = a.kind == K::kDraw;
  const bool place = a.kind == K::kPlaceTile;
  const bool scores = a.kind == K::kScore || a.kind == K::kScoreDoubled;
  const bool use_wall = a.kind == K::kUseWallTile;
  const bool names_wall = use_wall || a.kind == K::kSkipWallTile;
  const bool has_cell = place || scores || use_wall;
  const bool has_feature = a.kind == K::kPlaceFollower || scores || use_wall;
  // Only the fields the kind uses may be set (castle.proto): the engine would refuse the others.
  d.Require((has_cell || (in.x() == 0 && in.y() == 0)) && (place || in.rotation() == 0) &&
            (has_feature || in.feature() == 0) && (draw || in.tile() == 0) &&
            (names_wall || in.wall() == 0));
  a.x = Coordinate(in.x(), d);
  a.y = Coordinate(in.y(), d);
  a.rotation = Rotation(in.rotation(), d);
  a.feature = Feature(in.feature(), d);
  a.tile = Tile(in.tile(), d);
  a.wall = names_wall ? WallTile(in.wall(), d) : 0;
  if (!d.ok()) return std::nullopt;
  return a;
}

// --- Decisions ---

cv1::Decision ToProto(const castle::Decision& decision, int turn_player) {
  cv1::Decision out;
  out.set_actor(decision.actor);
  out.set_kind(Shifted<cv1::DecisionKind>(decision.kind));
  out.set_turn_player(static_cast<uint32_t>(turn_player));
  out.set_wall(decision.wall);
  return out;
}

std::optional<castle::DecisionRequested> FromProto(const cv1::Decision& in, int players) {
  Decoder d;
  const castle::DecisionRequested out = FromDecision(in, players, d);
  if (!d.ok()) return std::nullopt;
  return out;
}

// --- Events ---

namespace {

// One alternative of the engine's Event into its message (a field of the wire's oneof).
class EventWriter {
 public:
  EventWriter(cv1::Event& out, int players) : out_(out), players_(players) {}

  void operator()(const castle::TileDrawn& e) { out_.mutable_tile_drawn()->set_tile(e.tile); }
  void operator()(const castle::TileDiscarded& e) {
    out_.mutable_tile_discarded()->set_tile(e.tile);
  }
  void operator()(const castle::TilePlaced& e) {
    auto* m = out_.mutable_tile_placed();
    m->set_player(e.player);
    m->set_tile(e.tile);
    m->set_x(e.x);
    m->set_y(e.y);
    m->set_rotation(e.rotation);
  }
  void operator()(const castle::FollowerPlaced& e) {
    auto* m = out_.mutable_follower_placed();
    m->set_player(e.player);
    m->set_x(e.x);
    m->set_y(e.y);
    m->set_feature(e.feature);
    m->set_role(ToProto(e.role));
  }
  void operator()(const castle::FeatureScored& e) {
    auto* m = out_.mutable_feature_scored();
    m->set_kind(ToProto(e.kind));
    m->set_x(e.x);
    m->set_y(e.y);
    m->set_feature(e.feature);
    m->set_tiles(e.tiles);
    m->set_symbols(e.symbols);
    m->set_complete(e.complete);
    m->set_wall(e.wall);
    SetPoints(e.points, players_, m->mutable_points());
  }
  void operator()(const castle::FollowerReturned& e) {
    auto* m = out_.mutable_follower_returned();
    m->set_player(e.player);
    m->set_x(e.x);
    m->set_y(e.y);
    m->set_feature(e.feature);
  }
  void operator()(const castle::KeepPlaced& e) {
    auto* m = out_.mutable_keep_placed();
    m->set_player(e.player);
    m->set_x(e.x);
    m->set_y(e.y);
    m->set_feature(e.feature);
    m->set_size(e.size);
  }
  void operator()(const castle::WallTileTaken& e) {
    auto* m = out_.mutable_wall_tile_taken();
    m->set_player(e.player);
    m->set_corner(e.corner);
    m->set_wall(e.wall);
  }
  void operator()(const castle::WallTileUsed& e) {
    auto* m = out_.mutable_wall_tile_used();
    m->set_player(e.player);
    m->set_wall(e.wall);
    m->set_points(e.points);
  }
  void operator()(const castle::KeepScored& e) {
    auto* m = out_.mutable_keep_scored();
    m->set_area(e.area);
    for (int p = 0; p < players_; ++p) m->add_sizes(e.sizes[Z(p)]);
    SetPoints(e.points, players_, m->mutable_points());
  }
  void operator()(const castle::GameOver& e) {
    auto* m = out_.mutable_game_over();
    for (int p = 0; p < players_; ++p) *m->add_scores() = ScoresOf(e.scores[Z(p)]);
    m->set_winners(e.winners);
  }
  void operator()(const castle::DecisionRequested& e) {
    // Qualified: the anonymous namespace's ToProto would hide it.
    *out_.mutable_decision_requested()->mutable_decision() =
        castle_wire::ToProto(e.decision, e.turn_player);
  }

 private:
  cv1::Event& out_;
  int players_;
};

castle::TilePlaced FromTilePlaced(const cv1::TilePlaced& m, int players, Decoder& d) {
  return {.player = Seat(m.player(), players, d),
          .tile = Tile(m.tile(), d),
          .x = Coordinate(m.x(), d),
          .y = Coordinate(m.y(), d),
          .rotation = Rotation(m.rotation(), d)};
}

castle::FollowerPlaced FromFollowerPlaced(const cv1::FollowerPlaced& m, int players, Decoder& d) {
  return {.player = Seat(m.player(), players, d),
          .x = Coordinate(m.x(), d),
          .y = Coordinate(m.y(), d),
          .feature = Feature(m.feature(), d),
          .role = FromKind(m.role(), d)};
}

castle::FeatureScored FromFeatureScored(const cv1::FeatureScored& m, int players, Decoder& d) {
  return {.kind = FromKind(m.kind(), d),
          .x = Coordinate(m.x(), d),
          .y = Coordinate(m.y(), d),
          .feature = Feature(m.feature(), d),
          .tiles = d.Get<uint8_t>(m.tiles()),
          .symbols = d.Get<uint8_t>(m.symbols()),
          .complete = m.complete(),
          .wall = m.wall() == 0 ? uint8_t{0} : WallTile(m.wall(), d),
          .points = GetPoints(m.points(), players, d)};
}

castle::FollowerReturned FromFollowerReturned(const cv1::FollowerReturned& m, int players,
                                              Decoder& d) {
  return {.player = Seat(m.player(), players, d),
          .x = Coordinate(m.x(), d),
          .y = Coordinate(m.y(), d),
          .feature = Feature(m.feature(), d)};
}

castle::KeepPlaced FromKeepPlaced(const cv1::KeepPlaced& m, int players, Decoder& d) {
  return {.player = Seat(m.player(), players, d),
          .x = Coordinate(m.x(), d),
          .y = Coordinate(m.y(), d),
          .feature = Feature(m.feature(), d),
          .size = d.Get<uint8_t>(m.size())};
}

castle::WallTileTaken FromWallTileTaken(const cv1::WallTileTaken& m, int players, Decoder& d) {
  // A corner's bit lives in a 16-bit mask (Counters::wall_corners).
  return {.player = Seat(m.player(), players, d),
          .corner = d.Below<uint8_t>(m.corner(), 16),
          .wall = WallTile(m.wall(), d)};
}

castle::WallTileUsed FromWallTileUsed(const cv1::WallTileUsed& m, int players, Decoder& d) {
  return {.player = Seat(m.player(), players, d),
          .wall = WallTile(m.wall(), d),
          .points = d.Get<int16_t>(m.points())};
}

castle::KeepScored FromKeepScored(const cv1::KeepScored& m, int players, Decoder& d) {
  castle::KeepScored out{};
  out.area = d.Get<uint8_t>(m.area());
  d.Require(m.sizes_size() == players);
  for (int p = 0; p < m.sizes_size() && p < kMaxPlayers; ++p) {
    out.sizes[Z(p)] = d.Get<uint8_t>(m.sizes(p));
  }
  out.points = GetPoints(m.points(), players, d);
  return out;
}

castle::GameOver FromGameOver(const cv1::GameOver& m, int players, Decoder& d) {
  castle::GameOver out{};
  d.Require(m.scores_size() == players);
  for (int p = 0; p < m.scores_size() && p < kMaxPlayers; ++p) {
    out.scores[Z(p)] = FromScores<int16_t>(m.scores(p), d);
  }
  d.Require(m.winners() < (1u << players));  // a bit per seat, none beyond the game's
  out.winners = static_cast<uint8_t>(m.winners());
  return out;
}

// The decoded alternative of the wire's oneof; nullopt when none is set.
std::optional<castle::Event> FromKindCase(const cv1::Event& in, int players, Decoder& d) {
  switch (in.kind_case()) {
    case cv1::Event::kTileDrawn:
      return castle::TileDrawn{Tile(in.tile_drawn().tile(), d)};
    case cv1::Event::kTileDiscarded:
      return castle::TileDiscarded{Tile(in.tile_discarded().tile(), d)};
    case cv1::Event::kTilePlaced:
      return FromTilePlaced(in.tile_placed(), players, d);
    case cv1::Event::kFollowerPlaced:
      return FromFollowerPlaced(in.follower_placed(), players, d);
    case cv1::Event::kFeatureScored:
      return FromFeatureScored(in.feature_scored(), players, d);
    case cv1::Event::kFollowerReturned:
      return FromFollowerReturned(in.follower_returned(), players, d);
    case cv1::Event::kKeepPlaced:
      return FromKeepPlaced(in.keep_placed(), players, d);
    case cv1::Event::kWallTileTaken:
      return FromWallTileTaken(in.wall_tile_taken(), players, d);
    case cv1::Event::kWallTileUsed:
      return FromWallTileUsed(in.wall_tile_used(), players, d);
    case cv1::Event::kKeepScored:
      return FromKeepScored(in.keep_scored(), players, d);
    case cv1::Event::kGameOver:
      return FromGameOver(in.game_over(), players, d);
    case cv1::Event::kDecisionRequested:
      return FromDecision(in.decision_requested().decision(), players, d);
    case cv1::Event::KIND_NOT_SET:
      break;
  }
  return std::nullopt;
}

}  // namespace

cv1::Event ToProto(const castle::Event& event, int players) {
  cv1::Event out;
  std::visit(EventWriter(out, players), event);
  return out;
}

std::optional<castle::Event> FromProto(const cv1::Event& in, int players) {
  if (players < 2 || players > kMaxPlayers) return std::nullopt;
  Decoder d;
  std::optional<castle::Event> event = FromKindCase(in, players, d);
  if (!d.ok()) return std::nullopt;
  return event;
}

// --- The public state ---

namespace {

void SetBoard(const Board& board, cv1::Board* out) {
  for (const core::Cell& c : board.squares) {
    auto* m = out->add_squares();
    m->set_x(c.x);
    m->set_y(c.y);
  }
  for (const castle::WallCell& w : board.wall) {
    auto* m = out->add_wall();
    m->set_track(static_cast<uint32_t>(w.track));
    m->set_x(w.cell.x);
    m->set_y(w.cell.y);
    m->set_kind(ToProto(w.kind));
  }
  for (int track : board.corner_tracks) out->add_corner_tracks(static_cast<uint32_t>(track));
}

void SetPlayer(const castle::PlayerCounters& pc, cv1::PlayerState* m) {
  *m->mutable_scores() = ScoresOf(pc.score);
  m->set_followers(static_cast<uint32_t>(pc.followers));
  auto* keep = m->mutable_keep();
  keep->set_size(static_cast<uint32_t>(pc.keep.size));
  keep->set_x(pc.keep.x);
  keep->set_y(pc.keep.y);
  keep->set_feature(static_cast<uint32_t>(pc.keep.feature));
  for (int k = 0; k < kWallTileKinds; ++k) {
    m->add_wall_tiles(pc.wall_tiles[Z(k)]);
    m->add_fresh(pc.fresh[Z(k)]);
    m->add_used(pc.used[Z(k)]);
  }
}

}  // namespace

cv1::PublicState ToProto(const castle::PublicState& s, const Board& board) {
  cv1::PublicState out;
  out.set_players(static_cast<uint32_t>(s.config.players));
  out.set_followers_per_player(static_cast<uint32_t>(s.config.followers));
  for (const castle::PublicTile& t : s.tiles) {
    auto* m = out.add_tiles();
    m->set_tile(t.tile);
    m->set_x(t.x);
    m->set_y(t.y);
    m->set_rotation(t.rotation);
  }
  for (const castle::PublicFollower& f : s.followers) {
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
  out.set_wall_corners(s.counters.wall_corners);
  for (int p = 0; p < s.config.players; ++p) SetPlayer(s.counters.player[Z(p)], out.add_player());
  out.set_start_spaces(static_cast<uint32_t>(board.start_spaces));
  SetBoard(board, out.mutable_board());
  return out;
}

namespace {

// A cell of the board: on the grid a board file may use.
core::Cell BoardCell(int32_t x, int32_t y, Decoder& d) {
  d.Require(x >= 0 && y >= 0 && x <= castle::Layout::kMaxCoordinate &&
            y <= castle::Layout::kMaxCoordinate);
  return {Coordinate(x, d), Coordinate(y, d)};
}

// The squares sorted strictly by y, then x; the wall in track order, two track spaces a cell,
// from 0 and inside the track; each corner track a tower of the wall, in track order, at most as
// many as the mask of corners holds.
Board FromBoard(const cv1::Board& in, Decoder& d) {
  Board board;
  const int grid = (castle::Layout::kMaxCoordinate + 1) * (castle::Layout::kMaxCoordinate + 1);
  d.Require(in.squares_size() <= grid && in.wall_size() <= castle::kTrackLength / 2 &&
            in.corner_tracks_size() <= 16);
  if (!d.ok()) return board;
  for (const cv1::Square& m : in.squares()) board.squares.push_back(BoardCell(m.x(), m.y(), d));
  d.Require(std::adjacent_find(board.squares.begin(), board.squares.end(),
                               [](core::Cell a, core::Cell b) {
                                 return std::pair(a.y, a.x) >= std::pair(b.y, b.x);
                               }) == board.squares.end());
  for (int i = 0; i < in.wall_size(); ++i) {
    const cv1::WallCell& m = in.wall(i);
    d.Require(m.track() == static_cast<uint32_t>(2 * i));
    board.wall.push_back({2 * i, BoardCell(m.x(), m.y(), d), FromWallKind(m.kind(), d)});
  }
  int previous = -1;
  for (uint32_t track : in.corner_tracks()) {
    const size_t cell = track / 2;
    d.Require(static_cast<int>(track) > previous && track % 2 == 0 && cell < board.wall.size() &&
              board.wall[cell].kind == castle::WallKind::kTower);
    if (!d.ok()) return board;
    previous = static_cast<int>(track);
    board.corner_tracks.push_back(static_cast<int>(track));
  }
  return board;
}

// The placed tiles, the start spaces first: never more than a tile set holds.
std::vector<castle::PublicTile> FromTiles(const RepeatedPtrField<cv1::PlacedTile>& in, Decoder& d) {
  d.Require(in.size() <= core::kMaxTiles);
  std::vector<castle::PublicTile> tiles;
  for (int i = 0; i < in.size() && i < core::kMaxTiles; ++i) {
    const cv1::PlacedTile& m = in.Get(i);
    tiles.push_back(
        {Tile(m.tile(), d), Coordinate(m.x(), d), Coordinate(m.y(), d), Rotation(m.rotation(), d)});
  }
  return tiles;
}

// Sorted strictly, as PublicState::Apply needs them to find a returned follower.
std::vector<castle::PublicFollower> FromFollowers(const RepeatedPtrField<cv1::Follower>& in,
                                                  int players, int per_player, Decoder& d) {
  d.Require(in.size() <= players * per_player);
  std::vector<castle::PublicFollower> followers;
  for (int i = 0; i < in.size() && d.ok(); ++i) {
    const cv1::Follower& m = in.Get(i);
    followers.push_back({Seat(m.player(), players, d), Coordinate(m.x(), d), Coordinate(m.y(), d),
                         Feature(m.feature(), d)});
  }
  d.Require(std::adjacent_find(followers.begin(), followers.end(),
                               [](const auto& a, const auto& b) { return !(a < b); }) ==
            followers.end());
  return followers;
}

// Wall tiles by number: one count for each number 0-9, none of number 0.
std::array<uint8_t, kWallTileKinds> FromWallTiles(const RepeatedField<uint32_t>& in, Decoder& d) {
  std::array<uint8_t, kWallTileKinds> counts{};
  d.Require(in.size() == kWallTileKinds && (in.empty() || in.Get(0) == 0));
  for (int k = 0; k < in.size() && k < kWallTileKinds; ++k)
    counts[Z(k)] = d.Get<uint8_t>(in.Get(k));
  return counts;
}

castle::PlayerCounters FromPlayer(const cv1::PlayerState& m, int per_player, Decoder& d) {
  castle::PlayerCounters pc;
  pc.score = FromScores<int>(m.scores(), d);
  pc.followers = d.Get<int>(m.followers());
  d.Require(pc.followers <= per_player);
  pc.keep = {d.Get<uint8_t>(m.keep().size()), Coordinate(m.keep().x(), d),
             Coordinate(m.keep().y(), d), Feature(m.keep().feature(), d)};
  pc.wall_tiles = FromWallTiles(m.wall_tiles(), d);
  pc.fresh = FromWallTiles(m.fresh(), d);
  pc.used = FromWallTiles(m.used(), d);
  for (int k = 0; k < kWallTileKinds; ++k) d.Require(pc.fresh[Z(k)] <= pc.wall_tiles[Z(k)]);
  return pc;
}

void FromCounters(const cv1::PublicState& in, int corners, castle::PublicState& s, Decoder& d) {
  const int players = s.config.players;
  castle::Counters& c = s.counters;
  const castle::DecisionRequested decision = FromDecision(in.decision(), players, d);
  c.decision = decision.decision;
  c.turn_player = decision.turn_player;
  c.drawn_tile = in.drawn_tile() == -1 ? -1 : Tile(static_cast<uint32_t>(in.drawn_tile()), d);
  d.Require(in.drawn_tile() >= -1);
  c.tiles_drawn = d.Get<int>(in.tiles_drawn());
  c.tiles_discarded = d.Get<int>(in.tiles_discarded());
  d.Require(c.tiles_drawn <= core::kMaxTiles && c.tiles_discarded <= c.tiles_drawn);
  c.over = in.over();
  d.Require(c.over == (c.decision.kind == castle::DecisionKind::kNone));
  d.Require(in.wall_corners() < (1u << corners));  // a bit per corner tower of the board
  c.wall_corners = static_cast<uint16_t>(in.wall_corners());
  c.players = players;
  d.Require(in.player_size() == players);
  for (int p = 0; p < in.player_size() && p < players; ++p) {
    c.player[Z(p)] = FromPlayer(in.player(p), s.config.followers, d);
  }
}

}  // namespace

std::optional<DecodedState> FromProto(const cv1::PublicState& in) {
  Decoder d;
  DecodedState out;
  castle::PublicState& s = out.state;
  s.config.players = d.Get<int>(in.players());
  if (s.config.players < 2 || s.config.players > kMaxPlayers) return std::nullopt;
  s.config.followers = d.Get<uint8_t>(in.followers_per_player());
  out.board = FromBoard(in.board(), d);
  s.tiles = FromTiles(in.tiles(), d);
  out.board.start_spaces = d.Get<int>(in.start_spaces());
  d.Require(std::cmp_less_equal(in.start_spaces(), s.tiles.size()));
  s.followers = FromFollowers(in.followers(), s.config.players, s.config.followers, d);
  FromCounters(in, static_cast<int>(out.board.corner_tracks.size()), s, d);
  if (!d.ok()) return std::nullopt;
  return out;
}

}  // namespace carc::protocol::castle_wire
