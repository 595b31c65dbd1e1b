#include "castle/game.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <initializer_list>

#include "castle/public_state.h"
#include "core/hash.h"

namespace carc::castle {
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

bool IsCastleKind(FeatureKind kind) {
  return kind == FeatureKind::kStreet || kind == FeatureKind::kTower ||
         kind == FeatureKind::kHouse || kind == FeatureKind::kCourt;
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
    case ActionKind::kScore:
    case ActionKind::kScoreDoubled:
      canonical.x = a.x;
      canonical.y = a.y;
      canonical.feature = a.feature;
      break;
    case ActionKind::kUseWallTile:
      canonical.x = a.x;
      canonical.y = a.y;
      canonical.feature = a.feature;
      canonical.wall = a.wall;
      break;
    case ActionKind::kSkipWallTile:
      canonical.wall = a.wall;
      break;
    case ActionKind::kSkipFollower:
    case ActionKind::kExtraTurn:
    case ActionKind::kEndTurn:
      break;
  }
  return canonical == a;
}

Source SourceOf(FeatureKind kind) {
  switch (kind) {
    case FeatureKind::kTower:
      return kTowers;
    case FeatureKind::kHouse:
      return kHouses;
    case FeatureKind::kCourt:
      return kCourts;
    default:
      return kPaths;
  }
}

// Points for a path, tower or house of `tiles` tiles (start spaces counted): a path 1 per tile,
// 2 with a fountain; a tower 2 per tile; a house 1 per tile. A wall tile 2 or 3 doubles a tower
// or a house.
int FeaturePoints(const FeatureInfo& info, bool doubled) {
  const int tiles = info.TileCount();
  switch (info.kind) {
    case FeatureKind::kTower:
      return (doubled ? 4 : 2) * tiles;
    case FeatureKind::kHouse:
      return (doubled ? 2 : 1) * tiles;
    default:
      return (info.symbols > 0 ? 2 : 1) * tiles;
  }
}

constexpr int kPointsPerMarket = 3;
constexpr int kPointsPerMarketWithWallTile = 4;
constexpr int kKeepBonusTiles = 2;
constexpr int kFivePoints = 5;
constexpr uint64_t kWallShuffleSalt = 0xCA57'1E00'0A11ULL;

// The castle tiles of a set: every tile that is not a start space, by id.
std::vector<int> CastleTiles(const core::TileSet& tiles) {
  std::vector<int> out;
  for (int id = 0; id < tiles.TileCount(); ++id) {
    if (tiles.TypeOf(id).role != TileRole::kStartSpace) out.push_back(id);
  }
  return out;
}

int TileByName(const core::TileSet& tiles, const std::string& name) {
  for (const TileType& type : tiles.types()) {
    if (type.name == name) return type.first_id;
  }
  return -1;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Creation

std::optional<std::string> Game::Validate(const core::TileSet& tiles, const Config& config) {
  if (config.layout == nullptr) return "no castle board";
  const Layout& layout = *config.layout;
  if (config.players != 2) return "The Castle is played by 2 players";
  if (config.followers < 0 || config.followers > 7) return "0 to 7 followers per player";
  for (const TileType& type : tiles.types()) {
    for (const core::FeatureDef& def : type.features) {
      if (!IsCastleKind(def.kind)) {
        return "tile '" + type.name + "' shows a " + core::ToString(def.kind) +
               ", which The Castle does not have";
      }
    }
    if (type.role != TileRole::kNone && type.role != TileRole::kStartSpace) {
      return "tile '" + type.name + "' has a role The Castle does not have";
    }
  }
  int starts = 0;
  for (const StartSpace& start : layout.StartSpaces()) {
    const int id = TileByName(tiles, start.tile_name);
    if (id < 0 || tiles.TypeOf(id).role != TileRole::kStartSpace) {
      return "the tile set has no start space '" + start.tile_name + "' (role=start-space)";
    }
    ++starts;
  }
  const int castle_tiles = static_cast<int>(CastleTiles(tiles).size());
  if (tiles.TileCount() - castle_tiles != starts) {
    return "the tile set has start spaces that the board does not place";
  }
  if (castle_tiles + starts > core::kMaxTiles) {
    return "a game holds at most " + std::to_string(core::kMaxTiles) + " tiles";
  }
  return std::nullopt;
}

std::variant<std::vector<int>, std::string> Game::ShuffledOrder(const core::TileSet& tiles,
                                                                const Config& config,
                                                                uint64_t seed) {
  if (auto error = Validate(tiles, config)) return *error;
  std::vector<int> order = CastleTiles(tiles);
  core::Random random(seed);
  core::Shuffle(std::span<int>(order), random);
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
                                                      std::span<const int> order,
                                                      std::span<const int> wall_tiles) {
  if (tiles == nullptr) return std::string("no tile set");
  if (auto error = Validate(*tiles, config)) return *error;
  const Layout* layout = config.layout.get();
  std::vector<int> sorted(order.begin(), order.end());
  std::sort(sorted.begin(), sorted.end());
  if (sorted != CastleTiles(*tiles)) {
    return std::string("the order must list every castle tile once (no start space)");
  }
  if (!wall_tiles.empty()) {
    if (static_cast<int>(wall_tiles.size()) != layout->CornerCount() - 1) {
      return "a wall of " + std::to_string(layout->CornerCount() - 1) + " wall tiles";
    }
    for (int w : wall_tiles) {
      if (w < 1 || w >= kWallTileKinds) return std::string("wall tiles are numbered 1 to 9");
    }
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
  game.PlaceStartSpaces();
  game.LayWallTiles(wall_tiles);
  game.history_.reserve(256);
  if (game.TilesLeft() == 0) game.StartFinalScoring(nullptr);
  return game;
}

// The start spaces lie on their wall cells before the first turn, facing the castle.
void Game::PlaceStartSpaces() {
  for (const StartSpace& start : config_.layout->StartSpaces()) {
    const int tile = TileByName(*tiles_, start.tile_name);
    Completed ignored;
    board_.Place(*tiles_, tile, start.cell, start.rotation, &ignored);
    board_hash_ ^= TileFact(tile, start.cell.x, start.cell.y, start.rotation);
    ++start_count_;
  }
}

// One wall tile face down on every corner tower but the first: given, or shuffled from the seed
// (the rest stay in the box unseen).
void Game::LayWallTiles(std::span<const int> wall_tiles) {
  std::vector<int> box = config_.layout->WallTiles();
  if (!wall_tiles.empty()) {
    box.assign(wall_tiles.begin(), wall_tiles.end());
  } else {
    core::Random random(core::Mix64(seed_ ^ kWallShuffleSalt));
    core::Shuffle(std::span<int>(box), random);
  }
  for (int corner = 1; corner < config_.layout->CornerCount(); ++corner) {
    corner_wall_[Z(corner)] = static_cast<uint8_t>(box[Z(corner - 1)]);
    counters_.wall_corners |= static_cast<uint16_t>(1u << corner);
  }
}

std::vector<PublicTile> Game::StartTiles() const {
  std::vector<PublicTile> out;
  for (int i = 0; i < start_count_; ++i) {
    const core::PlacedTile& p = board_.Placed(i);
    out.push_back({p.tile, p.x, p.y, p.rotation});
  }
  return out;
}

std::vector<int> Game::WallLayout() const {
  std::vector<int> out;
  out.reserve(static_cast<size_t>(config_.layout->CornerCount()));
  for (int corner = 0; corner < config_.layout->CornerCount(); ++corner) {
    out.push_back(corner_wall_[Z(corner)]);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Queries

std::optional<Error> Game::CheckPlacement(int tile, Cell c, int rotation) const {
  if (!config_.layout->IsInterior(c)) return Error::kOutsideCastle;
  if (board_.HasTile(c)) return Error::kCellOccupied;
  const Board::CellContext context = board_.Context(c);
  if (context.sides == 0) return Error::kNoNeighbour;
  const TileType& type = tiles_->TypeOf(tile);
  if (!(type.fitting_rotations[context.Key()] & (1u << rotation))) return Error::kPathNotContinued;
  return std::nullopt;
}

// Any side may meet any side, but a path must meet a path: one lookup per frontier cell.
int Game::Placements(int tile, std::vector<Action>* out, bool stop_at_first) const {
  int found = 0;
  const TileType& type = tiles_->TypeOf(tile);
  const size_t first_out = out != nullptr ? out->size() : 0;
  for (int i = 0; i < board_.FrontierSize(); ++i) {
    const Board::FrontierEntry& entry = board_.Frontier(i);
    const uint8_t fitting = type.fitting_rotations[entry.context.Key()];
    if (fitting == 0 || !config_.layout->IsInterior(entry.cell())) continue;
    for (int r = 0; r < 4; ++r) {
      if (!(fitting & (1u << r))) continue;
      if (out != nullptr) out->push_back(Action::PlaceTile(entry.x, entry.y, r));
      ++found;
      if (stop_at_first) return found;
    }
  }
  if (out != nullptr) std::sort(out->begin() + static_cast<std::ptrdiff_t>(first_out), out->end());
  return found;
}

bool Game::TileFitsSomewhere(int tile) const { return Placements(tile, nullptr, true) > 0; }

int Game::LargestEmptyArea() const {
  std::vector<Cell> empty;
  for (const Cell c : config_.layout->Interior()) {
    if (!board_.HasTile(c)) empty.push_back(c);
  }
  std::vector<bool> seen(empty.size(), false);
  const auto index_of = [&](Cell c) {
    const auto it = std::find(empty.begin(), empty.end(), c);
    return it == empty.end() ? -1 : static_cast<int>(it - empty.begin());
  };
  int largest = 0;
  for (size_t start = 0; start < empty.size(); ++start) {
    if (seen[start]) continue;
    seen[start] = true;
    std::vector<size_t> stack = {start};
    int area = 0;
    while (!stack.empty()) {
      const Cell c = empty[stack.back()];
      stack.pop_back();
      ++area;
      for (int side = 0; side < core::kSides; ++side) {
        const int n = index_of(core::Neighbour(c, side));
        if (n >= 0 && !seen[Z(n)]) {
          seen[Z(n)] = true;
          stack.push_back(Z(n));
        }
      }
    }
    largest = std::max(largest, area);
  }
  return largest;
}

int Game::MajorityHolder(FeatureId root) const {
  const uint32_t holders = core::MajorityHolders(board_.Info(root), config_.players);
  return std::popcount(holders) == 1 ? std::countr_zero(holders) : -1;
}

FeatureId Game::RootAt(int x, int y, int feature) const {
  const int index = board_.IndexAt({x, y});
  if (index < 0) return -1;
  if (feature >= tiles_->TypeOf(board_.Placed(index).tile).FeatureCount()) return -1;
  return board_.Root(board_.FeatureOf(index, feature));
}

void Game::LegalActions(std::vector<Action>* out) const {
  out->clear();
  const auto anchor = [&](FeatureId root, auto make) {
    const core::PlacedTile& placed = board_.Placed(root / core::kMaxFeaturesPerTile);
    out->push_back(make(placed.x, placed.y, root % core::kMaxFeaturesPerTile));
  };
  switch (counters_.decision.kind) {
    case DecisionKind::kDrawTile:
      out->push_back(Action::Draw(order_[Z(counters_.tiles_drawn)]));
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
    case DecisionKind::kScoreNext:
      for (const FeatureId root : ScoringGroup()) {
        anchor(root, [](int x, int y, int f) { return Action::Score(x, y, f, false); });
        if (CanDouble(root)) {
          anchor(root, [](int x, int y, int f) { return Action::Score(x, y, f, true); });
        }
      }
      std::sort(out->begin(), out->end());
      return;
    case DecisionKind::kExtraTurn:
      out->push_back(Action::ExtraTurn());
      out->push_back(Action::EndTurn());
      return;
    case DecisionKind::kWallTile: {
      const int wall = counters_.decision.wall;
      for (const FeatureId root :
           EligibleFeatures(counters_.decision.actor, static_cast<WallTile>(wall))) {
        anchor(root, [wall](int x, int y, int f) { return Action::UseWallTile(wall, x, y, f); });
      }
      out->push_back(Action::SkipWallTile(wall));
      std::sort(out->begin(), out->end());
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
  if (Player(counters_.decision.actor).followers == 0) return Error::kNoFollowerLeft;
  const FeatureId root = board_.Root(board_.FeatureOf(index, feature));
  if (board_.Info(root).FollowerCount() > 0) return Error::kFeatureOccupied;
  return std::nullopt;
}

std::optional<Error> Game::CheckScore(const Action& a) const {
  const FeatureId root = RootAt(a.x, a.y, a.feature);
  if (root < 0 || root != board_.FeatureOf(board_.IndexAt({a.x, a.y}), a.feature)) {
    return Error::kNotPending;
  }
  const std::vector<FeatureId> group = ScoringGroup();
  if (std::find(group.begin(), group.end(), root) == group.end()) return Error::kNotPending;
  if (a.kind == ActionKind::kScoreDoubled && !CanDouble(root)) return Error::kNoWallTile;
  return std::nullopt;
}

std::optional<Error> Game::CheckWallTile(const Action& a) const {
  if (a.wall != counters_.decision.wall) return Error::kNoWallTile;
  if (a.kind == ActionKind::kSkipWallTile) return std::nullopt;
  const FeatureId root = RootAt(a.x, a.y, a.feature);
  if (root < 0 || root != board_.FeatureOf(board_.IndexAt({a.x, a.y}), a.feature)) {
    return Error::kNotEligible;
  }
  const auto eligible =
      EligibleFeatures(counters_.decision.actor, static_cast<WallTile>(counters_.decision.wall));
  if (std::find(eligible.begin(), eligible.end(), root) == eligible.end()) {
    return Error::kNotEligible;
  }
  return std::nullopt;
}

std::optional<Error> Game::CheckAction(Actor actor, const Action& a) const {
  const Decision d = counters_.decision;
  if (d.kind == DecisionKind::kNone) return Error::kGameOver;
  if (actor != d.actor) return Error::kWrongPlayer;
  if (static_cast<int>(a.kind) > static_cast<int>(ActionKind::kSkipWallTile)) {
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
      if (a.tile != order_[Z(counters_.tiles_drawn)]) return Error::kNotNextTile;
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
    case DecisionKind::kScoreNext:
      if (!answers({ActionKind::kScore, ActionKind::kScoreDoubled})) return Error::kWrongPhase;
      error = CheckScore(a);
      break;
    case DecisionKind::kExtraTurn:
      if (!answers({ActionKind::kExtraTurn, ActionKind::kEndTurn})) return Error::kWrongPhase;
      break;
    case DecisionKind::kWallTile:
      if (!answers({ActionKind::kUseWallTile, ActionKind::kSkipWallTile})) {
        return Error::kWrongPhase;
      }
      error = CheckWallTile(a);
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
      BeginScoring(ev);
      break;
    case ActionKind::kScore:
    case ActionKind::kScoreDoubled: {
      const FeatureId root = RootAt(a.x, a.y, a.feature);
      pending_.erase(std::find(pending_.begin(), pending_.end(), root));
      ScoreCompleted(root, a.kind == ActionKind::kScoreDoubled, ev);
      ContinueScoring(ev);
      break;
    }
    case ActionKind::kExtraTurn:
      UseWallTile(counters_.turn_player, WallTile::kExtraTurn, 0, ev);
      StartTurn(counters_.turn_player, ev);
      break;
    case ActionKind::kEndTurn:
      StartTurn((counters_.turn_player + 1) % config_.players, ev);
      break;
    case ActionKind::kUseWallTile:
      final_choices_.push_back({static_cast<uint8_t>(actor), a.wall, RootAt(a.x, a.y, a.feature)});
      to_decide_.erase(to_decide_.begin());
      AskNextWallTile(ev);
      break;
    case ActionKind::kSkipWallTile:
      to_decide_.erase(to_decide_.begin());
      AskNextWallTile(ev);
      break;
  }
  return std::nullopt;
}

void Game::Request(Actor actor, DecisionKind kind, std::vector<Event>* ev, int wall) {
  counters_.decision = {actor, kind, static_cast<uint8_t>(wall)};
  Emit(ev, DecisionRequested{counters_.decision, static_cast<uint8_t>(counters_.turn_player)});
}

void Game::DoDraw(int tile, std::vector<Event>* ev) {
  ++counters_.tiles_drawn;
  Emit(ev, TileDrawn{static_cast<uint8_t>(tile)});
  counters_.drawn_tile = tile;
  if (!TileFitsSomewhere(tile)) {  // out of the game; the same player draws again
    Emit(ev, TileDiscarded{static_cast<uint8_t>(tile)});
    ++counters_.tiles_discarded;
    counters_.drawn_tile = -1;
    if (TilesLeft() == 0) {
      StartFinalScoring(ev);
    } else {
      Request(kChance, DecisionKind::kDrawTile, ev);
    }
    return;
  }
  Request(counters_.turn_player, DecisionKind::kPlaceTile, ev);
}

// The tile joins its neighbours' features; its sides against the plain wall close them (a path
// ends there, a tower or a house is walled in).
void Game::DoPlaceTile(Cell c, int rotation, std::vector<Event>* ev) {
  const int tile = counters_.drawn_tile;
  turn_completed_ = Completed{};
  board_.Place(*tiles_, tile, c, rotation, &turn_completed_);
  const int index = board_.TileCount() - 1;
  for (int side = 0; side < core::kSides; ++side) {
    const Cell n = core::Neighbour(c, side);
    if (!config_.layout->IsInterior(n) && !board_.HasTile(n)) {
      board_.CloseSide(*tiles_, index, side, &turn_completed_);
    }
  }
  board_hash_ ^= TileFact(tile, c.x, c.y, rotation);
  counters_.drawn_tile = -1;
  Emit(ev, TilePlaced{static_cast<uint8_t>(counters_.turn_player), static_cast<uint8_t>(tile),
                      static_cast<int8_t>(c.x), static_cast<int8_t>(c.y),
                      static_cast<uint8_t>(rotation)});
  Request(counters_.turn_player, DecisionKind::kPlaceFollower, ev);
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
  BeginScoring(ev);
}

// The paths, towers and houses the tile completed score after the follower decision. Those that
// score for nobody (no followers, or a tie) go first: their order changes nothing.
void Game::BeginScoring(std::vector<Event>* ev) {
  pending_.assign(turn_completed_.roots.begin(),
                  turn_completed_.roots.begin() + turn_completed_.count);
  turn_completed_ = Completed{};
  std::sort(pending_.begin(), pending_.end());
  for (auto it = pending_.begin(); it != pending_.end();) {
    if (MajorityHolder(*it) < 0) {
      ScoreCompleted(*it, false, ev);
      it = pending_.erase(it);
    } else {
      ++it;
    }
  }
  ContinueScoring(ev);
}

// The placing player's features score first, then the next player's; where one player has
// several, or could double one with a wall tile, the placing player decides.
void Game::ContinueScoring(std::vector<Event>* ev) {
  while (!pending_.empty()) {
    const std::vector<FeatureId> group = ScoringGroup();
    assert(!group.empty() && "every feature left to score has a majority holder");
    if (group.size() > 1 || CanDouble(group.front())) {
      Request(counters_.turn_player, DecisionKind::kScoreNext, ev);
      return;
    }
    pending_.erase(std::find(pending_.begin(), pending_.end(), group.front()));
    ScoreCompleted(group.front(), false, ev);
  }
  EndTurn(ev);
}

std::vector<FeatureId> Game::ScoringGroup() const {
  for (int step = 0; step < config_.players; ++step) {
    const int player = (counters_.turn_player + step) % config_.players;
    std::vector<FeatureId> group;
    for (const FeatureId root : pending_) {
      if (MajorityHolder(root) == player) group.push_back(root);
    }
    if (!group.empty()) return group;
  }
  return {};
}

// A wall tile is used on its holder's own turn, from the turn after it was taken: a 2 on a tower
// or a 3 on a house that the placing player scores.
bool Game::CanDouble(FeatureId root) const {
  const int player = counters_.turn_player;
  if (MajorityHolder(root) != player) return false;
  const FeatureKind kind = board_.Info(root).kind;
  const WallTile tile = kind == FeatureKind::kTower   ? WallTile::kDoubleTower
                        : kind == FeatureKind::kHouse ? WallTile::kDoubleHouse
                                                      : WallTile::kNone;
  if (tile == WallTile::kNone) return false;
  const PlayerCounters& pc = Player(player);
  return pc.wall_tiles[Z(static_cast<int>(tile))] > pc.fresh[Z(static_cast<int>(tile))];
}

void Game::EndTurn(std::vector<Event>* ev) {
  if (TilesLeft() == 0) {  // the last tile was placed: the game ends after this turn
    StartFinalScoring(ev);
    return;
  }
  const PlayerCounters& pc = Player(counters_.turn_player);
  const auto extra = Z(static_cast<int>(WallTile::kExtraTurn));
  if (pc.wall_tiles[extra] > pc.fresh[extra]) {
    Request(counters_.turn_player, DecisionKind::kExtraTurn, ev);
    return;
  }
  StartTurn((counters_.turn_player + 1) % config_.players, ev);
}

// A new turn: wall tiles taken before it may be used from now on.
void Game::StartTurn(int player, std::vector<Event>* ev) {
  for (int p = 0; p < config_.players; ++p) Player(p).fresh = {};
  counters_.turn_player = player;
  Request(kChance, DecisionKind::kDrawTile, ev);
}

// ---------------------------------------------------------------------------------------------
// Scoring

void Game::AddPoints(int player, Source source, int points) {
  Player(player).score[source] += points;
}

FeatureScored Game::ScoredEvent(FeatureId root, bool complete) const {
  const FeatureInfo& info = board_.Info(root);
  const core::PlacedTile& placed = board_.Placed(root / core::kMaxFeaturesPerTile);
  FeatureScored scored{};
  scored.kind = info.kind;
  scored.x = placed.x;
  scored.y = placed.y;
  scored.feature = static_cast<uint8_t>(root % core::kMaxFeaturesPerTile);
  scored.tiles = static_cast<uint8_t>(info.TileCount());
  scored.symbols = info.symbols;
  scored.complete = complete;
  return scored;
}

// A completed path, tower or house scores for the player with the most followers on it (nobody
// when tied); a scored house may carry its scorer's keep; its followers go back.
void Game::ScoreCompleted(FeatureId root, bool doubled, std::vector<Event>* ev) {
  const FeatureInfo& info = board_.Info(root);
  const int scorer = MajorityHolder(root);
  FeatureScored scored = ScoredEvent(root, true);
  if (scorer >= 0) {
    const int points = FeaturePoints(info, doubled);
    if (doubled) {
      const WallTile tile =
          info.kind == FeatureKind::kTower ? WallTile::kDoubleTower : WallTile::kDoubleHouse;
      UseWallTile(scorer, tile, 0, ev);
      scored.wall = static_cast<uint8_t>(tile);
    }
    scored.points[Z(scorer)] = static_cast<int16_t>(points);
    AddPoints(scorer, SourceOf(info.kind), points);
    Emit(ev, scored);
    TakeWallTile(scorer, ev);
    Keep& keep = Player(scorer).keep;
    if (info.kind == FeatureKind::kHouse && info.TileCount() > keep.size) {
      keep = {info.TileCount(), scored.x, scored.y, scored.feature};
      Emit(ev, KeepPlaced{static_cast<uint8_t>(scorer), scored.x, scored.y, scored.feature,
                          static_cast<uint8_t>(keep.size)});
    }
  } else {
    Emit(ev, scored);
  }
  ReturnFollowers(root, ev);
}

void Game::UseWallTile(int player, WallTile tile, int points, std::vector<Event>* ev) {
  uint8_t& held = Player(player).wall_tiles[Z(static_cast<int>(tile))];
  assert(held > 0);
  --held;
  ++Player(player).used[Z(static_cast<int>(tile))];
  // Only the final scoring uses a tile taken in the same turn.
  uint8_t& fresh = Player(player).fresh[Z(static_cast<int>(tile))];
  fresh = std::min(fresh, held);
  Emit(ev, WallTileUsed{static_cast<uint8_t>(player), static_cast<uint8_t>(tile),
                        static_cast<int16_t>(points)});
}

// A marker that ends exactly on a corner tower takes the wall tile lying there, if any.
void Game::TakeWallTile(int player, std::vector<Event>* ev) {
  const int corner = config_.layout->CornerAt(Player(player).Position());
  if (corner < 0 || !(counters_.wall_corners & (1u << corner))) return;
  counters_.wall_corners = static_cast<uint16_t>(counters_.wall_corners & ~(1u << corner));
  const int tile = corner_wall_[Z(corner)];
  ++Player(player).wall_tiles[Z(tile)];
  ++Player(player).fresh[Z(tile)];
  Emit(ev, WallTileTaken{static_cast<uint8_t>(player), static_cast<uint8_t>(corner),
                         static_cast<uint8_t>(tile)});
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

// ---------------------------------------------------------------------------------------------
// The end of the game

// After the last tile: each player in turn decides where each wall tile 4-7 they hold applies
// (only where they have more followers than the other), then everything scores.
void Game::StartFinalScoring(std::vector<Event>* ev) {
  to_decide_.clear();
  for (int p = 0; p < config_.players; ++p) {
    for (int w = static_cast<int>(WallTile::kUnfinishedPath);
         w <= static_cast<int>(WallTile::kMarkets); ++w) {
      for (int copy = 0; copy < Player(p).wall_tiles[Z(w)]; ++copy) {
        to_decide_.push_back({static_cast<uint8_t>(p), static_cast<uint8_t>(w)});
      }
    }
  }
  counters_.drawn_tile = -1;
  AskNextWallTile(ev);
}

void Game::AskNextWallTile(std::vector<Event>* ev) {
  while (!to_decide_.empty()) {
    const WallTileToDecide next = to_decide_.front();
    if (!EligibleFeatures(next.player, static_cast<WallTile>(next.wall)).empty()) {
      Request(next.player, DecisionKind::kWallTile, ev, next.wall);
      return;
    }
    to_decide_.erase(to_decide_.begin());  // nowhere to use it
  }
  FinishGame(ev);
}

// The features a wall tile 4-7 may apply to for `player`: unfinished paths, towers or houses, or
// courts, where the player has more followers than the other, and no other tile of the same
// number of theirs applies already.
std::vector<FeatureId> Game::EligibleFeatures(int player, WallTile tile) const {
  FeatureKind kind = FeatureKind::kStreet;
  switch (tile) {
    case WallTile::kUnfinishedTower:
      kind = FeatureKind::kTower;
      break;
    case WallTile::kUnfinishedHouse:
      kind = FeatureKind::kHouse;
      break;
    case WallTile::kMarkets:
      kind = FeatureKind::kCourt;
      break;
    default:
      break;
  }
  std::vector<FeatureId> out;
  for (int i = 0; i < spots_.Count(); ++i) {
    const FeatureId root = board_.Root(board_.FeatureOf(spots_[i].index, spots_[i].feature));
    const FeatureInfo& info = board_.Info(root);
    if (info.kind != kind || MajorityHolder(root) != player) continue;
    if (kind != FeatureKind::kCourt && info.Complete()) continue;
    const bool taken = std::any_of(final_choices_.begin(), final_choices_.end(), [&](auto& c) {
      return c.root == root && c.wall == static_cast<uint8_t>(tile);
    });
    if (!taken) out.push_back(root);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void Game::FinishGame(std::vector<Event>* ev) {
  ScoreKeeps(ev);
  ScoreCourts(ev);
  ScoreUnfinished(ev);
  for (int p = 0; p < config_.players; ++p) {
    while (Player(p).wall_tiles[Z(static_cast<int>(WallTile::kFivePoints))] > 0) {
      UseWallTile(p, WallTile::kFivePoints, kFivePoints, ev);
      AddPoints(p, kWallTiles, kFivePoints);
    }
  }
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
  counters_.wall_corners = 0;  // the wall tiles left on the wall go back to the box
  Emit(ev, over);
}

// The largest keep (wall tile 8 adds 2 tiles to a keep) scores the largest empty area.
void Game::ScoreKeeps(std::vector<Event>* ev) {
  KeepScored scored{};
  scored.area = static_cast<uint8_t>(LargestEmptyArea());
  const auto larger = Z(static_cast<int>(WallTile::kLargerKeep));
  for (int p = 0; p < config_.players; ++p) {
    int size = Player(p).keep.size;
    if (size > 0) {
      while (Player(p).wall_tiles[larger] > 0) {
        UseWallTile(p, WallTile::kLargerKeep, 0, ev);
        size += kKeepBonusTiles;
      }
    }
    scored.sizes[Z(p)] = static_cast<uint8_t>(size);
  }
  int best = 0, holders = 0, winner = -1;
  for (int p = 0; p < config_.players; ++p) {
    if (scored.sizes[Z(p)] > best) {
      best = scored.sizes[Z(p)];
      holders = 1;
      winner = p;
    } else if (scored.sizes[Z(p)] == best && best > 0) {
      ++holders;
    }
  }
  if (holders == 1) {
    scored.points[Z(winner)] = scored.area;
    AddPoints(winner, kKeep, scored.area);
  }
  Emit(ev, scored);
}

// Each court with merchants scores 3 points per market (4 with a wall tile 7) for the player with
// the most merchants on it.
void Game::ScoreCourts(std::vector<Event>* ev) {
  std::vector<FeatureId> courts;
  for (int i = 0; i < spots_.Count(); ++i) {
    const FeatureId root = board_.Root(board_.FeatureOf(spots_[i].index, spots_[i].feature));
    if (board_.Info(root).kind == FeatureKind::kCourt) courts.push_back(root);
  }
  std::sort(courts.begin(), courts.end());
  courts.erase(std::unique(courts.begin(), courts.end()), courts.end());
  for (const FeatureId court : courts) {
    FeatureScored scored = ScoredEvent(court, false);
    const int scorer = MajorityHolder(court);
    if (scorer >= 0) {
      const bool markets = std::any_of(final_choices_.begin(), final_choices_.end(), [&](auto& c) {
        return c.root == court && c.wall == static_cast<uint8_t>(WallTile::kMarkets);
      });
      if (markets) {
        UseWallTile(scorer, WallTile::kMarkets, 0, ev);
        scored.wall = static_cast<uint8_t>(WallTile::kMarkets);
      }
      const int points =
          (markets ? kPointsPerMarketWithWallTile : kPointsPerMarket) * board_.Info(court).symbols;
      scored.points[Z(scorer)] = static_cast<int16_t>(points);
      AddPoints(scorer, kCourts, points);
    }
    Emit(ev, scored);
  }
}

// Wall tiles 4, 5 and 6 score an unfinished path, tower or house as the players chose them.
void Game::ScoreUnfinished(std::vector<Event>* ev) {
  for (const FinalChoice& choice : final_choices_) {
    if (choice.wall == static_cast<uint8_t>(WallTile::kMarkets)) continue;
    const FeatureInfo& info = board_.Info(choice.root);
    FeatureScored scored = ScoredEvent(choice.root, false);
    scored.wall = choice.wall;
    const int points = FeaturePoints(info, false);
    UseWallTile(choice.player, static_cast<WallTile>(choice.wall), 0, ev);
    scored.points[Z(choice.player)] = static_cast<int16_t>(points);
    AddPoints(choice.player, kWallTiles, points);
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
  PublicState s = PublicState::Initial(config_, StartTiles(), *config_.layout);
  s.tiles.clear();
  core::ShowBoard(board_, spots_, &s.tiles, &s.followers);
  s.counters = counters_;
  return s;
}

}  // namespace carc::castle
