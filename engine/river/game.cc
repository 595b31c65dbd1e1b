#include "river/game.h"

#include <algorithm>
#include <cassert>
#include <initializer_list>
#include <numeric>

#include "core/hash.h"
#include "river/public_state.h"

namespace carc::river {
namespace {

using core::Board;
using core::Completed;
using core::FeatureId;
using core::FeatureInfo;
using core::FeatureKind;
using core::TileRole;
using core::TileType;

size_t Z(int i) { return static_cast<size_t>(i); }

void Emit(std::vector<Event>* ev, Event e) {
  if (ev != nullptr) ev->push_back(e);
}

bool IsRiverTile(const TileType& type) { return type.HasFeature(FeatureKind::kRiver); }

// The tiles of a game, by their part in it (docs/rules.md, "Carcassonne with the River").
struct TileGroups {
  int setup = -1;  // the start tile, or the spring
  int lake = -1;
  std::vector<int> river;  // the River's tiles between the spring and the lake
  std::vector<int> land;   // every other tile but the start tile
};

TileGroups GroupTiles(const core::TileSet& tiles, bool with_river) {
  TileGroups groups;
  for (int id = 0; id < tiles.TileCount(); ++id) {
    const TileType& type = tiles.TypeOf(id);
    if (type.role == TileRole::kStart) {
      if (!with_river) groups.setup = id;
    } else if (type.role == TileRole::kSpring) {
      if (with_river) groups.setup = id;
    } else if (type.role == TileRole::kLake) {
      if (with_river) groups.lake = id;
    } else if (IsRiverTile(type)) {
      if (with_river) groups.river.push_back(id);
    } else {
      groups.land.push_back(id);
    }
  }
  return groups;
}

// True if every field that the action's kind does not use is zero: then an accepted action is
// always one of LegalActions(), field for field.
bool OnlyItsOwnFields(const Action& a) {
  Action canonical{.kind = a.kind};
  switch (a.kind) {
    case ActionKind::kDraw:
      canonical.tile = a.tile;
      break;
    case ActionKind::kPlaceTile:
      canonical.x = a.x;
      canonical.y = a.y;
      canonical.rotation = a.rotation;
      break;
    case ActionKind::kPlaceFollower:
      canonical.feature = a.feature;
      break;
    case ActionKind::kSkipFollower:
      break;
  }
  return canonical == a;
}

int RoadPoints(int tiles) { return tiles; }
int CityPoints(int tiles, int pennants, bool complete) {
  return complete ? 2 * (tiles + pennants) : tiles + pennants;
}
constexpr int kCompletedMonasteryPoints = 9;
constexpr int kPointsPerCityForFarmers = 3;

Source SourceOf(FeatureKind kind) {
  switch (kind) {
    case FeatureKind::kCity:
      return kCities;
    case FeatureKind::kMonastery:
      return kMonasteries;
    case FeatureKind::kField:
      return kFields;
    default:
      return kRoads;
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Creation

std::optional<std::string> Game::Validate(const core::TileSet& tiles, const Config& config) {
  if (config.players < 2 || config.players > 5) return "Carcassonne is played by 2 to 5 players";
  if (config.followers < 0 || config.followers > 8) return "0 to 8 followers per player";
  for (const TileType& type : tiles.types()) {
    for (const core::FeatureDef& def : type.features) {
      if (def.kind == FeatureKind::kResidential || def.kind == FeatureKind::kMarket) {
        return "tile '" + type.name + "' belongs to The City, not to Carcassonne";
      }
    }
  }
  const TileGroups groups = GroupTiles(tiles, config.river);
  if (groups.setup < 0) {
    return config.river ? "the tile set has no spring (role=spring)"
                        : "the tile set has no start tile (role=start)";
  }
  if (config.river && groups.lake < 0) return "the tile set has no lake (role=lake)";
  const size_t total = 1 + groups.river.size() + (config.river ? 1 : 0) + groups.land.size();
  if (total > static_cast<size_t>(core::kMaxTiles)) {
    return "a game holds at most " + std::to_string(core::kMaxTiles) + " tiles";
  }
  return std::nullopt;
}

std::variant<std::vector<int>, std::string> Game::ShuffledOrder(const core::TileSet& tiles,
                                                                const Config& config,
                                                                uint64_t seed) {
  if (auto error = Validate(tiles, config)) return *error;
  TileGroups groups = GroupTiles(tiles, config.river);
  core::Random random(seed);
  core::Shuffle(std::span<int>(groups.river), random);
  core::Shuffle(std::span<int>(groups.land), random);
  std::vector<int> order = {groups.setup};
  order.insert(order.end(), groups.river.begin(), groups.river.end());
  if (config.river) order.push_back(groups.lake);
  order.insert(order.end(), groups.land.begin(), groups.land.end());
  return order;
}

std::variant<Game, std::string> Game::Create(std::shared_ptr<const core::TileSet> tiles,
                                             const Config& config, uint64_t seed) {
  if (tiles == nullptr) return std::string("no tile set");
  auto order = ShuffledOrder(*tiles, config, seed);
  if (auto* error = std::get_if<std::string>(&order)) return *error;
  return CreateWithOrder(std::move(tiles), config, seed, std::get<std::vector<int>>(order));
}

std::variant<Game, std::string> Game::CreateWithOrder(std::shared_ptr<const core::TileSet> tiles,
                                                      const Config& config, uint64_t seed,
                                                      std::span<const int> order) {
  if (tiles == nullptr) return std::string("no tile set");
  if (auto error = Validate(*tiles, config)) return *error;
  // The order must be the game's tiles in their groups: set-up tile, River (lake last), land.
  const TileGroups groups = GroupTiles(*tiles, config.river);
  std::vector<int> expected = {groups.setup};
  expected.insert(expected.end(), groups.river.begin(), groups.river.end());
  if (config.river) expected.push_back(groups.lake);
  expected.insert(expected.end(), groups.land.begin(), groups.land.end());
  const std::string wrong_order =
      config.river ? "the order must be the spring, the River's tiles, the lake, then every land "
                     "tile but the start tile, each once"
                   : "the order must be the start tile, then every other land tile, each once";
  if (order.size() != expected.size()) return wrong_order;
  const auto same_group = [&](size_t from, size_t to) {
    std::vector<int> a(order.begin() + static_cast<std::ptrdiff_t>(from),
                       order.begin() + static_cast<std::ptrdiff_t>(to));
    std::vector<int> b(expected.begin() + static_cast<std::ptrdiff_t>(from),
                       expected.begin() + static_cast<std::ptrdiff_t>(to));
    std::sort(a.begin(), a.end());
    return a == b;  // `expected` lists each group in id order
  };
  const size_t river_end = 1 + groups.river.size() + (config.river ? 1 : 0);
  if (order[0] != groups.setup || !same_group(1, 1 + groups.river.size()) ||
      (config.river && order[river_end - 1] != groups.lake) ||
      !same_group(river_end, order.size())) {
    return wrong_order;
  }
  Game game;
  game.tiles_ = std::move(tiles);
  game.config_ = config;
  game.seed_ = seed;
  game.tile_total_ = static_cast<int>(order.size());
  for (size_t i = 0; i < order.size(); ++i) game.order_[i] = static_cast<uint8_t>(order[i]);
  Counters& c = game.counters_;
  c.players = config.players;
  c.decision = {kChance, DecisionKind::kDrawTile};
  for (int p = 0; p < config.players; ++p) c.player[Z(p)].followers = config.followers;
  game.PlaceSetupTile();
  if (game.TilesLeft() == 0) game.EndGame(nullptr);
  game.history_.reserve(256);
  return game;
}

// The start tile (or the spring) lies face up at (0, 0) before the first turn, as printed.
void Game::PlaceSetupTile() {
  const int tile = order_[0];
  Completed ignored;
  board_.Place(*tiles_, tile, {0, 0}, 0, &ignored);
  board_hash_ ^= TileFact(tile, 0, 0, 0);
  const TileType& type = tiles_->TypeOf(tile);
  if (type.role == TileRole::kSpring) {
    river_end_ = {0, 0};
    river_heading_ = -1;
    FollowRiver(type, 0);
  }
}

// ---------------------------------------------------------------------------------------------
// Queries

int Game::TotalScore(int player) const {
  const auto& s = Player(player).score;
  return std::accumulate(s.begin(), s.end(), 0);
}

std::optional<Error> Game::CheckPlacement(int tile, Cell c, int rotation) const {
  if (!Board::InBounds(c)) return Error::kOutOfBounds;
  if (board_.HasTile(c)) return Error::kCellOccupied;
  if (board_.Context(c).sides == 0) return Error::kNoNeighbour;
  const TileType& type = tiles_->TypeOf(tile);
  if (IsRiverTile(type) || RiverOpen()) {
    if (auto error = CheckRiver(type, c, rotation)) return error;
  }
  return CheckSides(type, c, rotation);
}

// Every side that meets a placed tile shows the same thing as that tile's side: city halves meet
// city halves, fields fields, roads roads, the river the river.
std::optional<Error> Game::CheckSides(const TileType& type, Cell c, int rotation) const {
  if (!SidesMatch(type, rotation, board_.Context(c).sides, FacingSideKinds(c))) {
    return Error::kSidesDoNotMatch;
  }
  return std::nullopt;
}

// While the river is open, only River tiles are drawn, and each continues it: it lies at the
// river's open end with its river flowing on from there, and turns, if it turns, the other way
// from the river's last bend.
std::optional<Error> Game::CheckRiver(const TileType& type, Cell c, int rotation) const {
  if (!RiverOpen() || !IsRiverTile(type) || c != river_end_) return Error::kRiverNotContinued;
  const int entry = core::Opposite(river_heading_);
  const int port = core::PortOf(entry, core::kMidPort);
  const int f = type.FeatureAt(port, rotation);
  if (f == core::kNoFeature || type.features[Z(f)].kind != FeatureKind::kRiver) {
    return Error::kRiverNotContinued;
  }
  const int exit = RiverExit(type, rotation);
  if (exit >= 0) {
    const int turn = (exit - river_heading_ + 4) % 4;  // 0 straight, 1 right, 3 left
    const int bend = turn == 1 ? 1 : turn == 3 ? -1 : 0;
    if (bend != 0 && bend == last_bend_) return Error::kRiverUTurn;
  }
  return std::nullopt;
}

// The side through which a River tile's river leaves when it enters against the current heading
// (-1 for the lake, whose river ends on it, and for the spring's first placement).
int Game::RiverExit(const TileType& type, int rotation) const {
  const int entry = river_heading_ < 0 ? -1 : core::Opposite(river_heading_);
  for (int side = 0; side < core::kSides; ++side) {
    if (side == entry) continue;
    const int f = type.FeatureAt(core::PortOf(side, core::kMidPort), rotation);
    if (f != core::kNoFeature && type.features[Z(f)].kind == FeatureKind::kRiver) return side;
  }
  return -1;
}

// Moves the river's open end past a River tile just placed at river_end_.
void Game::FollowRiver(const TileType& type, int rotation) {
  const int exit = RiverExit(type, rotation);
  if (exit < 0) {  // the lake
    river_heading_ = -1;
    return;
  }
  if (river_heading_ >= 0) {
    const int turn = (exit - river_heading_ + 4) % 4;
    if (turn == 1) last_bend_ = 1;
    if (turn == 3) last_bend_ = -1;
  }
  river_heading_ = exit;
  river_end_ = core::Neighbour(river_end_, exit);
}

int Game::Placements(int tile, std::vector<Action>* out, bool stop_at_first) const {
  int found = 0;
  const TileType& type = tiles_->TypeOf(tile);
  std::array<core::Board::FrontierEntry, core::kMaxFrontier> cells;
  int n = 0;
  if (RiverOpen()) {  // a River tile continues the river: one cell
    cells[Z(n++)] = {static_cast<int8_t>(river_end_.x), static_cast<int8_t>(river_end_.y),
                     board_.Context(river_end_)};
  } else {
    n = board_.FrontierSize();
    for (int i = 0; i < n; ++i) cells[Z(i)] = board_.Frontier(i);
  }
  const size_t first_out = out != nullptr ? out->size() : 0;
  const bool river_tile = IsRiverTile(type);
  for (int i = 0; i < n; ++i) {
    const core::Board::CellContext context = cells[Z(i)].context;
    const uint8_t fitting = type.fitting_rotations[context.Key()];  // midpoints agree
    if (fitting == 0) continue;
    const Cell c = cells[Z(i)].cell();
    const std::array<uint16_t, core::kSides> facing = FacingSideKinds(c);
    for (int r = 0; r < 4; ++r) {
      if (!(fitting & (1u << r)) || !SidesMatch(type, r, context.sides, facing)) continue;
      if ((river_tile || RiverOpen()) && CheckRiver(type, c, r).has_value()) continue;
      if (out != nullptr) out->push_back(Action::PlaceTile(c.x, c.y, r));
      ++found;
      if (stop_at_first) return found;
    }
  }
  // The output's order; sorting the placements found is cheaper than sorting the frontier.
  if (out != nullptr) std::sort(out->begin() + static_cast<std::ptrdiff_t>(first_out), out->end());
  return found;
}

// What each placed neighbour of `c` shows towards it, read from `c`'s side (0 where none).
std::array<uint16_t, core::kSides> Game::FacingSideKinds(Cell c) const {
  std::array<uint16_t, core::kSides> facing{};
  for (int side = 0; side < core::kSides; ++side) {
    const int n = board_.IndexAt(core::Neighbour(c, side));
    if (n < 0) continue;
    const core::PlacedTile& other = board_.Placed(n);
    facing[Z(side)] =
        tiles_->TypeOf(other.tile).SideKindsFacing(core::Opposite(side), other.rotation);
  }
  return facing;
}

bool Game::SidesMatch(const TileType& type, int rotation, uint8_t sides,
                      const std::array<uint16_t, core::kSides>& facing) {
  for (int side = 0; side < core::kSides; ++side) {
    if ((sides & (1u << side)) && type.SideKinds(side, rotation) != facing[Z(side)]) return false;
  }
  return true;
}

bool Game::TileFitsSomewhere(int tile) const { return Placements(tile, nullptr, true) > 0; }

void Game::LegalActions(std::vector<Action>* out) const {
  out->clear();
  switch (counters_.decision.kind) {
    case DecisionKind::kDrawTile:
      out->push_back(Action::Draw(order_[Z(1 + counters_.tiles_drawn)]));
      return;
    case DecisionKind::kPlaceTile:
      Placements(counters_.drawn_tile, out);
      return;
    case DecisionKind::kPlaceFollower: {
      const int count = tiles_->TypeOf(board_.Placed(board_.TileCount() - 1).tile).FeatureCount();
      for (int f = 0; f < count; ++f) {
        if (!CheckFollower(f)) out->push_back(Action::PlaceFollower(f));
      }
      out->push_back(Action::SkipFollower());
      return;
    }
    case DecisionKind::kNone:
      return;
  }
}

// ---------------------------------------------------------------------------------------------
// Checks

std::optional<Error> Game::CheckFollower(int feature) const {
  const int index = board_.TileCount() - 1;
  const TileType& type = tiles_->TypeOf(board_.Placed(index).tile);
  if (feature >= type.FeatureCount()) return Error::kNoSuchFeature;
  if (type.features[Z(feature)].kind == FeatureKind::kRiver) return Error::kOnTheRiver;
  if (Player(counters_.decision.actor).followers == 0) return Error::kNoFollowerLeft;
  const FeatureId root = board_.Root(board_.FeatureOf(index, feature));
  if (board_.Info(root).FollowerCount() > 0) return Error::kFeatureOccupied;
  return std::nullopt;
}

std::optional<Error> Game::CheckAction(Actor actor, const Action& a) const {
  const Decision d = counters_.decision;
  if (d.kind == DecisionKind::kNone) return Error::kGameOver;
  if (actor != d.actor) return Error::kWrongPlayer;
  if (static_cast<int>(a.kind) > static_cast<int>(ActionKind::kSkipFollower)) {
    return Error::kMalformed;
  }
  const auto answers = [&](std::initializer_list<ActionKind> kinds) {
    return std::find(kinds.begin(), kinds.end(), a.kind) != kinds.end();
  };
  std::optional<Error> error;
  switch (d.kind) {
    case DecisionKind::kDrawTile:
      if (!answers({ActionKind::kDraw})) return Error::kWrongPhase;
      if (a.tile >= tiles_->TileCount()) return Error::kMalformed;
      if (a.tile != order_[Z(1 + counters_.tiles_drawn)]) return Error::kNotNextTile;
      break;
    case DecisionKind::kPlaceTile:
      if (!answers({ActionKind::kPlaceTile})) return Error::kWrongPhase;
      if (a.rotation > 3) return Error::kMalformed;
      error = CheckPlacement(counters_.drawn_tile, {a.x, a.y}, a.rotation);
      break;
    case DecisionKind::kPlaceFollower:
      if (!answers({ActionKind::kPlaceFollower, ActionKind::kSkipFollower})) {
        return Error::kWrongPhase;
      }
      if (a.kind == ActionKind::kPlaceFollower) error = CheckFollower(a.feature);
      break;
    case DecisionKind::kNone:
      return Error::kGameOver;
  }
  if (error) return error;
  if (!OnlyItsOwnFields(a)) return Error::kMalformed;
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// Apply

std::optional<Error> Game::Apply(Actor actor, const Action& a, std::vector<Event>* ev) {
  if (auto error = CheckAction(actor, a)) return error;
  history_.push_back({actor, a});
  switch (a.kind) {
    case ActionKind::kDraw:
      DoDraw(a.tile, ev);
      break;
    case ActionKind::kPlaceTile:
      DoPlaceTile({a.x, a.y}, a.rotation, ev);
      break;
    case ActionKind::kPlaceFollower:
      DoPlaceFollower(a.feature, ev);
      break;
    case ActionKind::kSkipFollower:
      ScoreTurn(ev);
      break;
  }
  return std::nullopt;
}

void Game::Request(Actor actor, DecisionKind kind, std::vector<Event>* ev) {
  counters_.decision = {actor, kind};
  Emit(ev, DecisionRequested{counters_.decision, static_cast<uint8_t>(counters_.turn_player)});
}

void Game::DoDraw(int tile, std::vector<Event>* ev) {
  ++counters_.tiles_drawn;
  Emit(ev, TileDrawn{static_cast<uint8_t>(tile)});
  counters_.drawn_tile = tile;
  if (!TileFitsSomewhere(tile)) {  // back to the box; the same player draws again
    Emit(ev, TileDiscarded{static_cast<uint8_t>(tile)});
    ++counters_.tiles_discarded;
    counters_.drawn_tile = -1;
    if (TilesLeft() == 0) {
      EndGame(ev);
    } else {
      Request(kChance, DecisionKind::kDrawTile, ev);
    }
    return;
  }
  Request(counters_.turn_player, DecisionKind::kPlaceTile, ev);
}

void Game::DoPlaceTile(Cell c, int rotation, std::vector<Event>* ev) {
  const int tile = counters_.drawn_tile;
  turn_completed_ = Completed{};
  board_.Place(*tiles_, tile, c, rotation, &turn_completed_);
  board_hash_ ^= TileFact(tile, c.x, c.y, rotation);
  counters_.drawn_tile = -1;
  const TileType& type = tiles_->TypeOf(tile);
  if (RiverOpen() && IsRiverTile(type)) FollowRiver(type, rotation);
  FindCompletedMonasteries(c);
  Emit(ev, TilePlaced{static_cast<uint8_t>(counters_.turn_player), static_cast<uint8_t>(tile),
                      static_cast<int8_t>(c.x), static_cast<int8_t>(c.y),
                      static_cast<uint8_t>(rotation)});
  Request(counters_.turn_player, DecisionKind::kPlaceFollower, ev);
}

// A monastery is complete once the eight cells around it hold tiles: the placement at `c` can
// complete only monasteries within one cell of it, itself included.
void Game::FindCompletedMonasteries(Cell c) {
  turn_monastery_count_ = 0;
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      const int index = board_.IndexAt({c.x + dx, c.y + dy});
      if (index < 0 ||
          !tiles_->TypeOf(board_.Placed(index).tile).HasFeature(FeatureKind::kMonastery))
        continue;
      if (MonasteryTiles(index) == 9)
        turn_monasteries_[Z(turn_monastery_count_++)] = static_cast<uint8_t>(index);
    }
  }
  // Placement order, so that the scoring's order does not depend on where the tile lies.
  std::sort(turn_monasteries_.begin(), turn_monasteries_.begin() + turn_monastery_count_);
}

void Game::DoPlaceFollower(int feature, std::vector<Event>* ev) {
  const int player = counters_.turn_player;
  const int index = board_.TileCount() - 1;
  const core::PlacedTile& placed = board_.Placed(index);
  board_.AddFollower(board_.FeatureOf(index, feature), player);
  spots_.Add(player, index, feature);
  --Player(player).followers;
  board_hash_ ^= FollowerFact(player, placed.x, placed.y, feature);
  const FeatureKind role = tiles_->TypeOf(placed.tile).features[Z(feature)].kind;
  Emit(ev, FollowerPlaced{static_cast<uint8_t>(player), placed.x, placed.y,
                          static_cast<uint8_t>(feature), role});
  ScoreTurn(ev);
}

// Roads, cities and monasteries the tile completed score now, after the follower decision: a
// follower placed on one of them scores at once and comes back in the same turn.
void Game::ScoreTurn(std::vector<Event>* ev) {
  for (int i = 0; i < turn_completed_.count; ++i) {
    ScoreFeature(turn_completed_.roots[Z(i)], true, ev);
  }
  for (int i = 0; i < turn_monastery_count_; ++i) {
    const int index = turn_monasteries_[Z(i)];
    const TileType& type = tiles_->TypeOf(board_.Placed(index).tile);
    for (int f = 0; f < type.FeatureCount(); ++f) {
      if (type.features[Z(f)].kind == FeatureKind::kMonastery) {
        ScoreFeature(board_.FeatureOf(index, f), true, ev);
      }
    }
  }
  turn_completed_ = Completed{};
  turn_monastery_count_ = 0;
  EndTurn(ev);
}

void Game::EndTurn(std::vector<Event>* ev) {
  if (TilesLeft() == 0) {  // the last tile was placed: the game ends after this turn
    EndGame(ev);
    return;
  }
  counters_.turn_player = (counters_.turn_player + 1) % config_.players;
  Request(kChance, DecisionKind::kDrawTile, ev);
}

// ---------------------------------------------------------------------------------------------
// Scoring

void Game::AddPoints(int player, Source source, int points) {
  Player(player).score[source] += points;
}

std::array<int8_t, 2> Game::FeatureAnchor(FeatureId root, uint8_t* feature) const {
  const int index = root / core::kMaxFeaturesPerTile;
  *feature = static_cast<uint8_t>(root % core::kMaxFeaturesPerTile);
  const core::PlacedTile& placed = board_.Placed(index);
  return {placed.x, placed.y};
}

// The monastery's tile and the tiles around it.
int Game::MonasteryTiles(int index) const {
  const Cell c = board_.Placed(index).cell();
  int n = 0;
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) n += board_.HasTile({c.x + dx, c.y + dy});
  }
  return n;
}

int Game::FeaturePoints(FeatureId root, bool complete, int* tiles) const {
  const FeatureInfo& info = board_.Info(root);
  switch (info.kind) {
    case FeatureKind::kMonastery:
      *tiles = MonasteryTiles(root / core::kMaxFeaturesPerTile);
      return complete ? kCompletedMonasteryPoints : *tiles;
    case FeatureKind::kCity:
      *tiles = info.TileCount();
      return CityPoints(*tiles, info.pennants, complete);
    default:
      *tiles = info.TileCount();
      return RoadPoints(*tiles);
  }
}

// Scores one road, city or monastery for the players with the most followers on it (all of them
// when tied), then returns its followers.
void Game::ScoreFeature(FeatureId root, bool complete, std::vector<Event>* ev) {
  const FeatureInfo& info = board_.Info(root);
  int tiles = 0;
  const int points = FeaturePoints(root, complete, &tiles);
  const uint32_t holders = core::MajorityHolders(info, config_.players);
  FeatureScored scored{};
  scored.kind = info.kind;
  const auto anchor = FeatureAnchor(root, &scored.feature);
  scored.x = anchor[0];
  scored.y = anchor[1];
  scored.tiles = static_cast<uint8_t>(tiles);
  scored.pennants = info.pennants;
  scored.complete = complete;
  for (int p = 0; p < config_.players; ++p) {
    if (!(holders & (1u << p))) continue;
    scored.points[Z(p)] = static_cast<int16_t>(points);
    AddPoints(p, SourceOf(info.kind), points);
  }
  Emit(ev, scored);
  ReturnFollowers(root, ev);
}

void Game::ReturnFollowers(FeatureId root, std::vector<Event>* ev) {
  spots_.Return(board_, root, [&](const FollowerSpot& spot, FeatureId f) {
    const core::PlacedTile& placed = board_.Placed(spot.index);
    board_.RemoveFollower(f, spot.player);
    ++Player(spot.player).followers;
    board_hash_ ^= FollowerFact(spot.player, placed.x, placed.y, spot.feature);
    Emit(ev, FollowerReturned{spot.player, placed.x, placed.y, spot.feature});
  });
}

void Game::EndGame(std::vector<Event>* ev) {
  // Incomplete roads, cities and monasteries score, in the order their followers were placed.
  for (int i = 0; i < spots_.Count();) {
    const FollowerSpot spot = spots_[i];
    const FeatureId root = board_.Root(board_.FeatureOf(spot.index, spot.feature));
    if (board_.Info(root).kind == FeatureKind::kField) {
      ++i;
    } else {
      ScoreFeature(root, false, ev);
    }
  }
  ScoreFields(ev);
  GameOver over{};
  int best = 0;
  for (int p = 0; p < config_.players; ++p) {
    for (int s = 0; s < kSourceCount; ++s) {
      over.scores[Z(p)][Z(s)] = static_cast<int16_t>(Player(p).score[Z(s)]);
    }
    best = std::max(best, TotalScore(p));
  }
  for (int p = 0; p < config_.players; ++p) {
    if (TotalScore(p) == best) over.winners |= static_cast<uint8_t>(1u << p);
  }
  counters_.decision = {kNobody, DecisionKind::kNone};
  counters_.drawn_tile = -1;
  counters_.over = true;
  Emit(ev, over);
}

// Farmers: each field with farmers scores 3 points per completed city it touches, for the players
// with the most farmers in it. Farmers stay where they are.
void Game::ScoreFields(std::vector<Event>* ev) {
  std::vector<std::pair<FeatureId, FeatureId>> touching;  // (field, completed city), as roots
  for (int i = 0; i < board_.TileCount(); ++i) {
    const TileType& type = tiles_->TypeOf(board_.Placed(i).tile);
    for (const auto& pair : type.touching_areas) {
      FeatureId a = board_.Root(board_.FeatureOf(i, pair[0]));
      FeatureId b = board_.Root(board_.FeatureOf(i, pair[1]));
      if (board_.Info(a).kind != FeatureKind::kField) std::swap(a, b);
      const FeatureInfo& city = board_.Info(b);
      if (board_.Info(a).kind == FeatureKind::kField && city.kind == FeatureKind::kCity &&
          city.Complete()) {
        touching.emplace_back(a, b);
      }
    }
  }
  std::sort(touching.begin(), touching.end());
  touching.erase(std::unique(touching.begin(), touching.end()), touching.end());

  std::vector<FeatureId> fields;
  for (int i = 0; i < spots_.Count(); ++i) {
    const FeatureId root = board_.Root(board_.FeatureOf(spots_[i].index, spots_[i].feature));
    if (board_.Info(root).kind == FeatureKind::kField) fields.push_back(root);
  }
  std::sort(fields.begin(), fields.end());
  fields.erase(std::unique(fields.begin(), fields.end()), fields.end());
  for (FeatureId field : fields) {
    const auto [first, last] = std::equal_range(
        touching.begin(), touching.end(), std::pair<FeatureId, FeatureId>{field, 0},
        [](const auto& a, const auto& b) { return a.first < b.first; });
    const int cities = static_cast<int>(last - first);
    FieldScored scored{};
    const auto anchor = FeatureAnchor(field, &scored.feature);
    scored.x = anchor[0];
    scored.y = anchor[1];
    scored.cities = static_cast<uint8_t>(cities);
    const uint32_t owners = core::MajorityHolders(board_.Info(field), config_.players);
    for (int p = 0; p < config_.players; ++p) {
      if (!(owners & (1u << p))) continue;
      scored.points[Z(p)] = static_cast<int16_t>(kPointsPerCityForFarmers * cities);
      AddPoints(p, kFields, kPointsPerCityForFarmers * cities);
    }
    Emit(ev, scored);
  }
}

// ---------------------------------------------------------------------------------------------
// Hash and public view

uint64_t Game::RecomputeHash() const {
  uint64_t h = 0;
  for (int i = 0; i < board_.TileCount(); ++i) {
    const core::PlacedTile& p = board_.Placed(i);
    h ^= TileFact(p.tile, p.x, p.y, p.rotation);
  }
  for (int i = 0; i < spots_.Count(); ++i) {
    const FollowerSpot& s = spots_[i];
    const core::PlacedTile& p = board_.Placed(s.index);
    h ^= FollowerFact(s.player, p.x, p.y, s.feature);
  }
  return h ^ CountersHash(counters_);
}

PublicState Game::Public() const {
  PublicState s = PublicState::Initial(config_, SetupTile());
  s.tiles.clear();
  core::ShowBoard(board_, spots_, &s.tiles, &s.followers);
  s.counters = counters_;
  return s;
}

}  // namespace carc::river
