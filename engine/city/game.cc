#include "city/game.h"

#include <algorithm>
#include <bit>
#include <bitset>
#include <memory>
#include <numeric>

#include "city/public_state.h"
#include "core/hash.h"

namespace carc::city {
namespace {

using core::Completed;
using core::FeatureId;
using core::FeatureInfo;
using core::FeatureKind;

size_t Z(int i) { return static_cast<size_t>(i); }

void Emit(std::vector<Event>* ev, Event e) {
  if (ev != nullptr) ev->push_back(e);
}

int StreetPoints(int tiles) { return tiles <= 3 ? tiles : 2 * tiles; }  // R13

// The groups of empty side-neighbours of a cell, joined through the empty corners between them,
// for each ring of eight (bit i: the i-th cell clockwise from north holds a tile): bit s for the
// first side s of each group, in the order north, east, south, west.
constexpr std::array<uint8_t, 256> kRingGroupStarts = [] {
  std::array<uint8_t, 256> starts{};
  for (unsigned ring = 0; ring < 256; ++ring) {
    const auto empty = [ring](unsigned i) { return ((ring >> (i % 8)) & 1u) == 0; };
    std::array<unsigned, core::kSides> group = {0, 1, 2, 3};  // each side's lowest side joined
    for (unsigned side = 0; side < 4; ++side) {
      const unsigned next = (side + 1) % 4;
      if (!empty(2 * side) || !empty(2 * side + 1) || !empty(2 * next)) continue;
      const unsigned low = std::min(group[side], group[next]);
      const unsigned high = std::max(group[side], group[next]);
      for (unsigned& g : group) g = g == high ? low : g;
    }
    for (unsigned side = 0; side < 4; ++side) {
      if (empty(2 * side) && group[side] == side) starts[ring] |= static_cast<uint8_t>(1u << side);
    }
  }
  return starts;
}();

// The local test on a ring of eight, from the groups above: whether the empty cells around a
// cell stay joined to each other without it (one group at most).
constexpr std::array<bool, 256> kRingStaysJoined = [] {
  std::array<bool, 256> joined{};
  for (size_t ring = 0; ring < 256; ++ring) {
    const unsigned starts = kRingGroupStarts[ring];
    joined[ring] = (starts & (starts - 1)) == 0;
  }
  return joined;
}();

// Checks R8 for cells once walls exist: a tile may not lie just outside a piece, nor cut a
// piece's outside off from the open land. Built once per query, then asked per cell. The board
// marks the cells that pieces look onto (Board::FacesClosedSide: the gate and every piece close
// the side they lie on).
//
// Filling a cell can only cut the open land where the empty cells around it fall apart into
// separate groups. Then each group is searched (breadth first, the cell counted as filled): a
// group that reaches beyond the placed tiles' bounding box is still open land (every cell out
// there joins the open land around a single filled cell); a group that cannot is an enclosed
// pocket, and no wall piece may look out onto it.
//
// The searches' marks are numbers that only grow, on a grid of the thread's own: a new search
// needs no clearing.
class WallRuleChecker {
 public:
  explicit WallRuleChecker(const Board& board) : board_(board), scratch_(TheScratch()) {
    // Searches stay inside the box (any cell beyond it ends them).
    x0_ = board.min_x() - 1;
    y0_ = board.min_y() - 1;
    x1_ = board.max_x() + 1;
    y1_ = board.max_y() + 1;
    // Inside the box: grid indices of the rows y0_ < y < y1_, columns x0_ < x < x1_.
    first_inside_ = GridIndex({x0_, y0_ + 1});
    rows_inside_ = GridIndex({x0_, y1_}) - first_inside_;
    const int first_column = x0_ + 1 + core::kGridRadius;
    const int columns_inside = x1_ - x0_ - 1;
    first_column_ = static_cast<size_t>(first_column);
    columns_inside_ = static_cast<size_t>(columns_inside);
  }

  // R8 for a tile at `c`.
  std::optional<Error> Check(Cell c) {
    if (board_.FacesClosedSide(c)) return Error::kBeyondWall;
    const uint8_t ring = board_.RingAt(c);
    if (RingStaysJoinedAround(ring)) return std::nullopt;
    return SearchAround(c, ring);
  }
  // The same for a frontier cell, from what the board keeps of it: of the rotations `fitting`
  // (bit r) in which the tile fits there, those R8 allows (all of them or none). Without a
  // branch but in the rare case that needs a search: a random position makes the local verdict
  // unpredictable.
  unsigned Allowed(const Board::FrontierEntry& entry, unsigned fitting) {
    const bool faces_no_wall = entry.closed_sides == 0;
    const bool joined = RingStaysJoinedAround(entry.ring);
    if (faces_no_wall && !joined && fitting != 0) [[unlikely]] {
      return SearchAround(entry.cell(), entry.ring).has_value() ? 0 : fitting;
    }
    return fitting & (0u - static_cast<unsigned>(faces_no_wall && joined));
  }

 private:
  // True if the empty cells around a cell (`ring`: Board::FrontierEntry::ring) stay joined to
  // each other without it: then filling it cannot split the open land, and no search is needed.
  static bool RingStaysJoinedAround(uint8_t ring) { return kRingStaysJoined[ring]; }

  // Searches the groups of empty cells around `c` (with its ring of eight) that filling it would
  // part. The last group needs no search when every one before it proved enclosed: then it is
  // the open land, or else `c` lies in a hole, and no piece looks out onto a hole (R8 keeps every
  // piece's outside in the open land). As all tiles are joined, filling `c` parts the groups for
  // good and at most one of them still reaches the open land, the longest to search: so the
  // group nearest the box's border, the likeliest to be it, comes last.
  std::optional<Error> SearchAround(Cell c, uint8_t ring) {
    if (scratch_.search >= kLastSearch) {  // a check makes at most four searches
      scratch_.search = 0;
      scratch_.mark.fill(0);
    }
    // Marks of earlier checks were made with another cell filled: only this check's count.
    first_search_ = scratch_.search + 1;
    const size_t filled = GridIndex(c);
    // One start per group, the one nearest the box's border last: the likeliest open land.
    std::array<Cell, core::kSides> starts{};
    int count = 0;
    for (unsigned sides = kRingGroupStarts[ring]; sides != 0; sides &= sides - 1) {
      starts[Z(count++)] = core::Neighbour(c, std::countr_zero(sides));
    }
    assert(count >= 2 && "called only where the ring splits");
    int nearest = 0;
    for (int i = 1; i < count; ++i) {
      if (BorderDistance(starts[Z(i)]) < BorderDistance(starts[Z(nearest)])) nearest = i;
    }
    std::swap(starts[Z(nearest)], starts[Z(count - 1)]);
    bool any_open = false;
    for (int i = 0; i < count; ++i) {
      if (i == count - 1 && !any_open) break;
      const Cell n = starts[Z(i)];
      if (Beyond(n)) {
        any_open = true;
        continue;
      }
      if (scratch_.mark[GridIndex(n)] >= first_search_) continue;  // joined to a group searched
      if (SearchFindsWalledPocket(n, filled)) return Error::kWallSurrounded;
      any_open |= open_[scratch_.search - first_search_];
    }
    return std::nullopt;
  }

  // Search numbers stop here, far below overflow, and start again from a cleared grid.
  static constexpr uint32_t kLastSearch = 0xF0000000u;

  // A cell in a search's queue: its grid index (Board::GridIndexOf) and its column (x plus
  // kGridRadius), so that a step needs neither to be computed again.
  struct Queued {
    uint16_t index = 0;
    uint16_t column = 0;
  };
  struct Scratch {
    uint32_t search = 0;                            // the latest search's number
    std::array<uint32_t, core::kGridCells> mark{};  // visited by that search
    std::array<Queued, core::kGridCells> queue{};
  };
  static Scratch& TheScratch() {
    static thread_local const std::unique_ptr<Scratch> scratch = std::make_unique<Scratch>();
    return *scratch;
  }

  static size_t GridIndex(Cell c) { return Board::GridIndexOf(c); }
  // Steps from `c` to the box's border (0 on it or beyond).
  int BorderDistance(Cell c) const {
    return std::max(0, std::min({c.x - x0_, x1_ - c.x, c.y - y0_, y1_ - c.y}));
  }
  // On the box's border or beyond it: open land, whatever a check fills.
  bool Beyond(Cell c) const { return c.x <= x0_ || c.x >= x1_ || c.y <= y0_ || c.y >= y1_; }

  // Breadth first from `start` over empty cells, `filled` (a grid index) counting as a tile,
  // marking the cells it visits with a new search number. True if the group is an enclosed
  // pocket that a piece looks onto; false as soon as it steps beyond the box (or onto a cell of
  // an earlier search of this check that did).
  bool SearchFindsWalledPocket(Cell start, size_t filled) {
    const uint32_t id = ++scratch_.search;
    assert(id - first_search_ < open_.size());
    open_[id - first_search_] = false;
    const size_t start_index = GridIndex(start);
    bool walled = board_.FacesClosedSideAt(start_index);
    size_t head = 0, tail = 0;
    scratch_.mark[filled] = id;  // never entered: it holds the tile
    scratch_.mark[start_index] = id;
    scratch_.queue[tail++] = {static_cast<uint16_t>(start_index),
                              static_cast<uint16_t>(start.x + core::kGridRadius)};
    while (head < tail) {
      const Queued cur = scratch_.queue[head++];
      for (size_t side = 0; side < core::kSides; ++side) {
        const auto n = static_cast<size_t>(cur.index + Board::kGridStep[side]);
        const int column = cur.column + core::kDx[side];
        uint32_t& m = scratch_.mark[n];
        if ((m == id) | board_.HasTileAt(n)) continue;
        if ((n - first_inside_ >= rows_inside_) |
            (static_cast<size_t>(column) - first_column_ >= columns_inside_)) {
          return Opened(id);
        }
        if (m >= first_search_ && open_[m - first_search_]) return Opened(id);
        m = id;
        walled |= board_.FacesClosedSideAt(n);
        scratch_.queue[tail++] = {static_cast<uint16_t>(n), static_cast<uint16_t>(column)};
      }
    }
    return walled;
  }
  bool Opened(uint32_t id) {
    open_[id - first_search_] = true;
    return false;
  }

  const Board& board_;
  Scratch& scratch_;
  int x0_ = 0, y0_ = 0, x1_ = 0, y1_ = 0;  // the box, its border included
  size_t first_inside_ = 0, rows_inside_ = 0, first_column_ = 0, columns_inside_ = 0;
  uint32_t first_search_ = 0;
  std::array<bool, core::kSides> open_{};  // per search of this check: did it reach beyond?
};

// The bits of an action's rotation, for each rotation.
constexpr std::array<uint64_t, 4> kRotationBits = {
    std::bit_cast<uint64_t>(Action{.rotation = 0}), std::bit_cast<uint64_t>(Action{.rotation = 1}),
    std::bit_cast<uint64_t>(Action{.rotation = 2}), std::bit_cast<uint64_t>(Action{.rotation = 3})};

// The frontier cells and rotations where the tile's streets continue their neighbours' (R6) and
// that `allowed(frontier entry, fitting rotations)` keeps, appended to `out` (if given) in the
// frontier's order, which is the actions' order; returns how many (at most one with
// `stop_at_first`).
template <typename Allowed>
int FittingPlacements(const Board& board, const core::TileType& type, std::vector<Action>* out,
                      bool stop_at_first, Allowed allowed) {
  const int n = board.FrontierSize();
  if (out == nullptr || stop_at_first) {
    for (int i = 0; i < n; ++i) {
      const Board::FrontierEntry& entry = board.Frontier(i);
      const unsigned fitting = type.fitting_rotations[entry.context.Key()];
      if (fitting == 0) continue;
      const unsigned kept = allowed(entry, fitting);
      if (kept == 0) continue;
      if (out != nullptr) {
        out->push_back(Action::PlaceTile(entry.x, entry.y, std::countr_zero(kept)));
      }
      return 1;
    }
    return 0;
  }
  // Room for four rotations per cell, written in place, then cut to what was found. Every cell
  // writes four actions and keeps those that fit, without a branch on whether any does: which
  // cells fit a tile is as good as random.
  const size_t first = out->size();
  out->resize(first + 4 * static_cast<size_t>(n));
  Action* const begin = out->data() + first;
  Action* next = begin;
  for (int i = 0; i < n; ++i) {
    const Board::FrontierEntry& entry = board.Frontier(i);
    const unsigned kept = allowed(entry, type.fitting_rotations[entry.context.Key()]);
    const auto cell = std::bit_cast<uint64_t>(Action::PlaceTile(entry.x, entry.y, 0));
    for (int r = 0; r < 4; ++r) {
      *next = std::bit_cast<Action>(cell | kRotationBits[Z(r)]);
      next += (kept >> r) & 1u;
    }
  }
  const auto found = static_cast<size_t>(next - begin);
  out->resize(first + found);
  return static_cast<int>(found);
}

// A gate's cell and side as one number that orders them as their actions are ordered.
constexpr uint32_t GateKey(Cell c, int side) {
  return static_cast<uint32_t>((c.x + 128) << 16 | (c.y + 128) << 8 | side);
}
constexpr Action GateOfKey(uint32_t key) {
  return Action::PlaceGate(static_cast<int>(key >> 16) - 128,
                           static_cast<int>((key >> 8) & 0xFFu) - 128,
                           static_cast<int>(key & 0xFFu));
}
static_assert(Action::PlaceGate(-3, 5, 2) < Action::PlaceGate(-3, 6, 0) &&
              GateKey({-3, 5}, 2) < GateKey({-3, 6}, 0));
static_assert(GateOfKey(GateKey({-79, 79}, 3)) == Action::PlaceGate(-79, 79, 3));

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
    case ActionKind::kPlaceGate:
      canonical.x = a.x;
      canonical.y = a.y;
      canonical.side = a.side;
      break;
    case ActionKind::kBuildWall:
    case ActionKind::kPlaceTower:
      canonical.end = a.end;
      break;
    default:
      break;
  }
  return canonical == a;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Creation

std::vector<int> Game::ShuffledOrder(int tile_count, uint64_t seed) {
  std::vector<int> order(Z(tile_count));
  std::iota(order.begin(), order.end(), 0);
  core::Random random(seed);
  core::Shuffle(std::span<int>(order), random);
  return order;
}

std::optional<std::string> Game::Validate(const core::TileSet& tiles, const Config& config) {
  if (config.players < 2 || config.players > 4) return "The City is played by 2 to 4 players";
  if (config.stack_sizes[0] < 1) return "the first stack must hold at least one tile (R5)";
  int total = 0;
  for (int size : config.stack_sizes) {
    if (size < 0) return "stack sizes must not be negative";
    total += size;
  }
  if (total != tiles.TileCount()) {
    return "the stacks hold " + std::to_string(total) + " tiles but the tile set has " +
           std::to_string(tiles.TileCount());
  }
  if (total < 1 || total > core::kMaxTiles) {
    return "a game holds 1 to " + std::to_string(core::kMaxTiles) + " tiles";
  }
  if (config.walls < 1 || config.walls > kMaxWalls) {
    return "the wall supply must be 1 to " + std::to_string(kMaxWalls);
  }
  if (config.towers_total < 0 || config.towers_total > kMaxTowers) {
    return "at most " + std::to_string(kMaxTowers) + " towers";
  }
  if (config.followers < 0 || config.followers > 8) return "0 to 8 followers per player";
  for (const core::TileType& type : tiles.types()) {
    for (const core::FeatureDef& feature : type.features) {
      const bool city_kind = feature.kind == FeatureKind::kStreet ||
                             feature.kind == FeatureKind::kResidential ||
                             feature.kind == FeatureKind::kMarket;
      if (!city_kind) {
        return "tile " + type.name + " has a " + core::ToString(feature.kind) +
               ": The City's tiles hold streets, residential areas and markets only";
      }
    }
  }
  if (config.closing_distance < 0) return "the closing distance must not be negative";
  return std::nullopt;
}

std::variant<Game, std::string> Game::Create(std::shared_ptr<const core::TileSet> tiles,
                                             const Config& config, uint64_t seed) {
  if (tiles == nullptr) return std::string("no tile set");
  const std::vector<int> order = ShuffledOrder(tiles->TileCount(), seed);
  return CreateWithOrder(std::move(tiles), config, seed, order);
}

std::optional<std::string> Game::ValidateOrder(const core::TileSet& tiles,
                                               std::span<const int> order) {
  if (static_cast<int>(order.size()) != tiles.TileCount()) {
    return "the order must name every tile once";
  }
  std::vector<bool> seen(order.size(), false);
  for (int tile : order) {
    if (tile < 0 || tile >= tiles.TileCount() || seen[Z(tile)]) {
      return "the order must name every tile once";
    }
    seen[Z(tile)] = true;
  }
  return std::nullopt;
}

std::variant<Game, std::string> Game::CreateWithOrder(std::shared_ptr<const core::TileSet> tiles,
                                                      const Config& config, uint64_t seed,
                                                      std::span<const int> order) {
  if (tiles == nullptr) return std::string("no tile set");
  if (auto error = Validate(*tiles, config)) return *error;
  if (auto error = ValidateOrder(*tiles, order)) return *error;
  return Built(std::move(tiles), config, seed, order);
}

std::variant<Game, std::string> Game::Built(std::shared_ptr<const core::TileSet> tiles,
                                            const Config& config, uint64_t seed,
                                            std::span<const int> order) {
  // Built where the caller receives it (one named result, no copy): a game is a large value.
  std::variant<Game, std::string> result(std::in_place_type<Game>, CreationKey{});
  Game& game = std::get<Game>(result);
  game.tiles_ = std::move(tiles);
  game.config_ = config;
  game.seed_ = seed;
  game.tile_total_ = static_cast<int>(order.size());
  for (size_t i = 0; i < order.size(); ++i) game.order_[i] = static_cast<uint8_t>(order[i]);
  Counters& c = game.counters_;
  c.players = config.players;
  c.walls_left = config.walls;
  c.decision = {kChance, DecisionKind::kDrawTile};
  for (int p = 0; p < config.players; ++p) {
    c.player[Z(p)].followers = config.followers;
    c.player[Z(p)].towers = config.towers_total / config.players;  // R3
  }
  game.history_.reserve(512);
  return result;
}

// ---------------------------------------------------------------------------------------------
// Queries

int Game::TotalScore(int player) const {
  const auto& s = Player(player).score;
  return std::accumulate(s.begin(), s.end(), 0);
}

int Game::StackLeft(int stack) const {
  int start = 0;
  for (int s = 0; s < stack; ++s) start += config_.stack_sizes[Z(s)];
  const int size = config_.stack_sizes[Z(stack)];
  return std::clamp(start + size - counters_.tiles_drawn, 0, size);
}

int Game::CurrentStack() const {
  int boundary = 0;
  for (int s = 0; s < 3; ++s) {
    boundary += config_.stack_sizes[Z(s)];
    if (counters_.tiles_drawn < boundary) return s + 1;
  }
  return 0;
}

int Game::UnwalledDistance() const {
  if (!chain_.HasGate()) return -1;
  return city::UnwalledDistance(board_, chain_);
}

int Game::Placements(int tile, std::vector<Action>* out, bool stop_at_first) const {
  const core::TileType& type = tiles_->TypeOf(tile);
  if (board_.TileCount() == 0) {  // R5: the first tile lies at the origin
    const int found = stop_at_first ? 1 : 4;
    for (int r = 0; out != nullptr && r < found; ++r) out->push_back(Action::PlaceTile(0, 0, r));
    return found;
  }
  if (!chain_.HasGate()) {  // R8 needs a wall
    return FittingPlacements(board_, type, out, stop_at_first,
                             [](const Board::FrontierEntry&, unsigned fitting) { return fitting; });
  }
  WallRuleChecker walls(board_);
  return FittingPlacements(board_, type, out, stop_at_first,
                           [&walls](const Board::FrontierEntry& e, unsigned fitting) {
                             return walls.Allowed(e, fitting);
                           });
}

bool Game::TileFitsSomewhere(int tile) const { return Placements(tile, nullptr, true) > 0; }

void Game::LegalActions(std::vector<Action>* out) const {
  out->clear();
  const Decision d = counters_.decision;
  switch (d.kind) {
    case DecisionKind::kDrawTile:
      out->push_back(Action::Draw(order_[Z(counters_.tiles_drawn)]));
      return;
    case DecisionKind::kPlaceTile:
      Placements(counters_.drawn_tile, out);
      return;
    case DecisionKind::kPlaceFollower: {
      const int count = tiles_->TypeOf(board_.Placed(board_.TileCount() - 1).tile).FeatureCount();
      for (int f = 0; f < count; ++f) {
        if (!CheckFollower(Action::PlaceFollower(f))) out->push_back(Action::PlaceFollower(f));
      }
      out->push_back(Action::SkipFollower());
      return;
    }
    case DecisionKind::kPlaceGate: {
      OutlineSides outline;
      FindOutlineSides(board_, &outline);
      // In the actions' order (by cell, then side), sorted as one number per side: sorting the
      // actions themselves compares them field by field.
      std::array<uint32_t, static_cast<size_t>(core::kSides) * core::kMaxTiles> keys{};
      size_t count = 0;
      for (int i = 0; i < board_.TileCount(); ++i) {
        const Cell c = board_.Placed(i).cell();
        for (int side = 0; side < core::kSides; ++side) {
          if (outline[Z(i)] & (1u << side)) keys[count++] = GateKey(c, side);
        }
      }
      std::sort(keys.begin(), keys.begin() + static_cast<ptrdiff_t>(count));
      for (size_t k = 0; k < count; ++k) out->push_back(GateOfKey(keys[k]));
      return;
    }
    case DecisionKind::kBuildWall:
      out->push_back(Action::BuildWall(kFrontEnd));
      out->push_back(Action::BuildWall(kBackEnd));
      return;
    case DecisionKind::kPlaceGuard:
      if (!CheckGuard(d.actor)) out->push_back(Action::PlaceGuard());
      out->push_back(Action::SkipGuard());
      return;
    case DecisionKind::kPlaceTower:
      for (int end = 0; end < 2; ++end) {
        if (!CheckTower(d.actor, Action::PlaceTower(end))) out->push_back(Action::PlaceTower(end));
      }
      out->push_back(Action::SkipTower());
      return;
    case DecisionKind::kNone:
      return;
  }
}

// ---------------------------------------------------------------------------------------------
// Checks

std::optional<Error> Game::CheckPlacement(Cell c, int rotation) const {
  if (!Board::InBounds(c)) return Error::kOutOfBounds;
  if (board_.HasTile(c)) return Error::kCellOccupied;
  if (board_.TileCount() == 0) {
    if (c != Cell{0, 0}) return Error::kNotAtOrigin;
    return std::nullopt;
  }
  const Board::CellContext context = board_.Context(c);
  if (context.sides == 0) return Error::kNoNeighbour;
  const core::TileType& type = tiles_->TypeOf(counters_.drawn_tile);
  if (!context.Fits(type.street_sides_rotated[Z(rotation)])) return Error::kStreetNotContinued;
  return CheckWallRules(c);
}

std::optional<Error> Game::CheckWallRules(Cell c) const {
  if (!chain_.HasGate()) return std::nullopt;
  WallRuleChecker walls(board_);
  return walls.Check(c);
}

std::optional<Error> Game::CheckFollower(const Action& a) const {
  const int index = board_.TileCount() - 1;
  const core::TileType& type = tiles_->TypeOf(board_.Placed(index).tile);
  if (a.feature >= type.FeatureCount()) return Error::kNoSuchFeature;
  if (Player(counters_.decision.actor).followers == 0) return Error::kNoFollowerLeft;
  const FeatureId root = board_.Root(board_.FeatureOf(index, a.feature));
  const FeatureInfo& info = board_.Info(root);
  if (info.FollowerCount() > 0) return Error::kFeatureOccupied;  // R10
  if (info.kind != FeatureKind::kResidential && info.Complete()) {
    return Error::kFeatureJustCompleted;  // R11
  }
  return std::nullopt;
}

std::optional<Error> Game::CheckGate(const Action& a) const {
  if (a.side >= core::kSides) return Error::kMalformed;
  const Cell c{a.x, a.y};
  if (!Board::InBounds(c) || !board_.HasTile(c)) return Error::kNotOnOutline;
  OutlineSides outline;
  FindOutlineSides(board_, &outline);
  if (!(outline[Z(board_.IndexAt(c))] & (1u << a.side))) return Error::kNotOnOutline;  // R19
  return std::nullopt;
}

std::optional<Error> Game::CheckGuard(Actor actor) const {
  if (Player(actor).followers == 0) return Error::kNoFollowerLeft;
  if (GuardBlocked(LastPiece())) return Error::kGuardOpposite;  // R22
  return std::nullopt;
}

std::optional<Error> Game::CheckTower(Actor actor, const Action& a) const {
  if (a.end > kBackEnd) return Error::kNotAWallEnd;
  if (Player(actor).towers == 0) return Error::kNoTowerLeft;
  // R23; once the chain is closed both ends are the meeting point (R25).
  const bool taken = chain_.Closed() ? chain_.EndHasTower(kFrontEnd) || chain_.EndHasTower(kBackEnd)
                                     : chain_.EndHasTower(a.end);
  if (taken) return Error::kTowerEndTaken;
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// Apply

std::optional<Error> Game::Apply(Actor actor, const Action& a, std::vector<Event>* ev) {
  const Decision d = counters_.decision;
  if (d.kind == DecisionKind::kNone) return Error::kGameOver;
  if (actor != d.actor) return Error::kWrongPlayer;
  const auto wrong_phase = [&](std::initializer_list<ActionKind> kinds) {
    unsigned allowed = 0;
    for (ActionKind kind : kinds) allowed |= 1u << static_cast<unsigned>(kind);
    return ((allowed >> static_cast<unsigned>(a.kind)) & 1u) == 0;
  };
  std::optional<Error> error;
  if (static_cast<int>(a.kind) > static_cast<int>(ActionKind::kSkipTower)) return Error::kMalformed;
  switch (d.kind) {
    case DecisionKind::kDrawTile:
      if (wrong_phase({ActionKind::kDraw})) return Error::kWrongPhase;
      if (a.tile >= tile_total_) return Error::kMalformed;
      if (a.tile != order_[Z(counters_.tiles_drawn)]) return Error::kNotNextTile;
      break;
    case DecisionKind::kPlaceTile:
      if (wrong_phase({ActionKind::kPlaceTile})) return Error::kWrongPhase;
      if (a.rotation > 3) return Error::kMalformed;
      error = CheckPlacement({a.x, a.y}, a.rotation);
      break;
    case DecisionKind::kPlaceFollower:
      if (wrong_phase({ActionKind::kPlaceFollower, ActionKind::kSkipFollower})) {
        return Error::kWrongPhase;
      }
      if (a.kind == ActionKind::kPlaceFollower) error = CheckFollower(a);
      break;
    case DecisionKind::kPlaceGate:
      if (wrong_phase({ActionKind::kPlaceGate})) return Error::kWrongPhase;
      error = CheckGate(a);
      break;
    case DecisionKind::kBuildWall:
      if (wrong_phase({ActionKind::kBuildWall})) return Error::kWrongPhase;
      if (a.end > kBackEnd) return Error::kNotAWallEnd;
      break;
    case DecisionKind::kPlaceGuard:
      if (wrong_phase({ActionKind::kPlaceGuard, ActionKind::kSkipGuard})) return Error::kWrongPhase;
      if (a.kind == ActionKind::kPlaceGuard) error = CheckGuard(actor);
      break;
    case DecisionKind::kPlaceTower:
      if (wrong_phase({ActionKind::kPlaceTower, ActionKind::kSkipTower})) return Error::kWrongPhase;
      if (a.kind == ActionKind::kPlaceTower) error = CheckTower(actor, a);
      break;
    case DecisionKind::kNone:
      return Error::kGameOver;
  }
  if (error) return error;
  if (!OnlyItsOwnFields(a)) return Error::kMalformed;

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
      ScoreTurnCompletions(ev);
      break;
    case ActionKind::kPlaceGate:
      DoPlaceGate({{a.x, a.y}, a.side}, ev);
      break;
    case ActionKind::kBuildWall:
      DoBuildWall(a.end, ev);
      break;
    case ActionKind::kPlaceGuard:
      DoPlaceGuard(ev);
      break;
    case ActionKind::kSkipGuard:
      ++round_pos_;
      NextWallStep(ev);
      break;
    case ActionKind::kPlaceTower:
      DoPlaceTower(a.end, ev);
      break;
    case ActionKind::kSkipTower:
      EndTurn(ev);
      break;
  }
  return std::nullopt;
}

void Game::Request(Actor actor, DecisionKind kind, std::vector<Event>* ev) {
  counters_.decision = {actor, kind};
  Emit(ev, DecisionRequested{counters_.decision, static_cast<uint8_t>(counters_.turn_player)});
}

void Game::DoDraw(int tile, std::vector<Event>* ev) {
  const int previous_stack =
      counters_.tiles_drawn == 0 ? 1 : CurrentStackOfDraw(counters_.tiles_drawn - 1);
  const int stack = CurrentStack();
  ++counters_.tiles_drawn;
  if (stack != previous_stack) {
    Emit(ev, StackStarted{static_cast<uint8_t>(stack)});
    if (previous_stack < 2) Emit(ev, WallPhaseBegun{});  // R16
  }
  Emit(ev, TileDrawn{static_cast<uint8_t>(tile), static_cast<uint8_t>(stack)});
  counters_.drawn_tile = tile;
  if (!TileFitsSomewhere(tile)) {  // R7
    Emit(ev, TileDiscarded{static_cast<uint8_t>(tile)});
    ++counters_.tiles_discarded;
    counters_.drawn_tile = -1;
    if (TilesLeft() == 0) {
      EndTurn(ev);
    } else {
      Request(kChance, DecisionKind::kDrawTile, ev);
    }
    return;
  }
  turn_stack_ = stack;
  Request(counters_.turn_player, DecisionKind::kPlaceTile, ev);
}

int Game::CurrentStackOfDraw(int draw_index) const {
  int boundary = 0;
  for (int s = 0; s < 3; ++s) {
    boundary += config_.stack_sizes[Z(s)];
    if (draw_index < boundary) return s + 1;
  }
  return 3;
}

void Game::DoPlaceTile(Cell c, int rotation, std::vector<Event>* ev) {
  const int tile = counters_.drawn_tile;
  turn_completed_ = Completed{};
  board_.Place(*tiles_, tile, c, rotation, &turn_completed_);
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
  ScoreTurnCompletions(ev);
}

void Game::ScoreTurnCompletions(std::vector<Event>* ev) {
  bool scored = false;
  for (int i = 0; i < turn_completed_.count; ++i) {
    scored |= ScoreFeature(turn_completed_.roots[Z(i)], ScoreCause::kTile, ev);
  }
  // R16, R17: from stack 2 on, a scoring tile starts a wall round.
  if (turn_stack_ >= 2 && scored && counters_.walls_left > 0 && !chain_.Closed()) {
    BeginWallRound(ev);
  } else {
    EndTurn(ev);
  }
}

void Game::BeginWallRound(std::vector<Event>* ev) {
  const int players = config_.players;
  const int each = (players == 2 ? 2 : 1) * (turn_stack_ >= 3 ? 2 : 1);  // R18
  round_size_ = each * players;
  round_pos_ = 0;
  for (int i = 0; i < round_size_; ++i) {
    round_builders_[Z(i)] = static_cast<uint8_t>((counters_.turn_player + i) % players);
  }
  const int available = counters_.walls_left + (chain_.HasGate() ? 0 : 1);
  Emit(ev, WallRoundBegun{static_cast<uint8_t>(counters_.turn_player),
                          static_cast<uint8_t>(std::min(round_size_, available))});
  NextWallStep(ev);
}

void Game::NextWallStep(std::vector<Event>* ev) {
  const bool round_over = round_pos_ >= round_size_ || chain_.Closed() ||
                          (chain_.HasGate() && counters_.walls_left == 0);
  if (round_over) {
    Request(counters_.turn_player, DecisionKind::kPlaceTower, ev);  // R23
    return;
  }
  const int builder = round_builders_[Z(round_pos_)];
  // R18: the very first piece of the first round is the gate, in the scorer's first place.
  Request(builder, chain_.HasGate() ? DecisionKind::kBuildWall : DecisionKind::kPlaceGate, ev);
}

void Game::DoPlaceGate(CellSide edge, std::vector<Event>* ev) {
  const int player = counters_.decision.actor;
  chain_.SetGate(edge);
  board_hash_ ^= WallFact(0, edge.cell.x, edge.cell.y, edge.side);
  Emit(ev, GatePlaced{static_cast<uint8_t>(player), static_cast<int8_t>(edge.cell.x),
                      static_cast<int8_t>(edge.cell.y), static_cast<uint8_t>(edge.side)});
  CloseEdge(edge, ScoreCause::kWall, ev);  // R20, R21: the gate acts as a wall
  ++round_pos_;
  NextWallStep(ev);
}

void Game::DoBuildWall(int end, std::vector<Event>* ev) {
  const int player = counters_.decision.actor;
  const CellSide edge = end == kFrontEnd
                            ? NextOutlineEdge(board_, chain_.Last(kFrontEnd).edge())
                            : PreviousOutlineEdge(board_, chain_.Last(kBackEnd).edge());
  assert(chain_.Find(edge) == nullptr);
  chain_.Add(end, edge);
  --counters_.walls_left;
  last_end_ = end;
  board_hash_ ^=
      WallFact(PiecePosition(end, chain_.Count(end) - 1), edge.cell.x, edge.cell.y, edge.side);
  Emit(ev, WallBuilt{static_cast<uint8_t>(player), static_cast<int8_t>(edge.cell.x),
                     static_cast<int8_t>(edge.cell.y), static_cast<uint8_t>(edge.side),
                     static_cast<uint8_t>(end)});
  if (chain_.Closed()) {
    counters_.chain_closed = true;
    Emit(ev, ChainClosed{});
  }
  CloseEdge(edge, ScoreCause::kWall, ev);          // R21
  Request(player, DecisionKind::kPlaceGuard, ev);  // R15: a returned follower may guard here
}

WallPiece& Game::MutableLastPiece() {
  return chain_.MutablePiece(last_end_, chain_.Count(last_end_) - 1);
}

void Game::DoPlaceGuard(std::vector<Event>* ev) {
  const int player = counters_.decision.actor;
  WallPiece& piece = MutableLastPiece();
  piece.guard = static_cast<int8_t>(player);
  --Player(player).followers;
  board_hash_ ^= GuardFact(player, piece.x, piece.y, piece.side);
  Emit(ev, GuardPlaced{static_cast<uint8_t>(player), piece.x, piece.y, piece.side});
  ++round_pos_;
  NextWallStep(ev);
}

void Game::DoPlaceTower(int end, std::vector<Event>* ev) {
  const int player = counters_.decision.actor;
  const int points = chain_.PiecesToPreviousTower(end);  // R23, R25
  const int position = chain_.Count(end);
  chain_.AddTower(
      {static_cast<uint8_t>(player), static_cast<uint8_t>(end), static_cast<uint8_t>(position)});
  --Player(player).towers;
  AddPoints(player, kTowers, points);
  board_hash_ ^= TowerFact(player, end, position);
  Emit(ev, TowerPlaced{static_cast<uint8_t>(player), static_cast<uint8_t>(end),
                       static_cast<uint8_t>(position), static_cast<int16_t>(points)});
  EndTurn(ev);
}

void Game::EndTurn(std::vector<Event>* ev) {
  uint8_t conditions = 0;
  const auto hold = [&](EndCondition c) {
    conditions |= static_cast<uint8_t>(1u << static_cast<int>(c));
  };
  if (counters_.walls_left == 0) hold(EndCondition::kLastWallBuilt);
  if (TilesLeft() == 0) hold(EndCondition::kLastTilePlaced);
  if (chain_.Closed()) {
    hold(EndCondition::kWallClosed);
  } else if (chain_.HasGate() &&
             city::UnwalledDistance(board_, chain_, config_.closing_distance + 1) <=
                 config_.closing_distance) {
    hold(EndCondition::kWallNearlyClosed);
  }
  if (conditions != 0) {  // R24
    end_conditions_ = conditions;
    for (EndCondition c : {EndCondition::kWallClosed, EndCondition::kLastWallBuilt,
                           EndCondition::kWallNearlyClosed, EndCondition::kLastTilePlaced}) {
      if (conditions & (1u << static_cast<int>(c))) {
        counters_.end = c;
        break;
      }
    }
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

bool Game::ScoreFeature(FeatureId root, ScoreCause cause, std::vector<Event>* ev) {
  const FeatureInfo& info = board_.Info(root);
  const int tiles = info.TileCount();
  const int kinds = core::CountBits(info.market_kinds);
  const bool street = info.kind == FeatureKind::kStreet;
  const int points = street ? StreetPoints(tiles) : tiles * kinds;        // R13
  const uint32_t holders = core::MajorityHolders(info, config_.players);  // R14
  FeatureScored scored{};
  scored.kind = info.kind;
  const auto anchor = FeatureAnchor(root, &scored.feature);
  scored.x = anchor[0];
  scored.y = anchor[1];
  scored.tiles = static_cast<uint8_t>(tiles);
  scored.market_kinds = static_cast<uint8_t>(kinds);
  scored.cause = cause;
  for (int p = 0; p < config_.players; ++p) {
    if (!(holders & (1u << p))) continue;
    scored.points[Z(p)] = static_cast<int16_t>(points);
    AddPoints(p, street ? kStreets : kMarkets, points);
  }
  Emit(ev, scored);
  ReturnFollowers(root, true, ev);
  return holders != 0;
}

void Game::ScoreCompleted(const Completed& completed, ScoreCause cause, std::vector<Event>* ev) {
  for (int i = 0; i < completed.count; ++i) ScoreFeature(completed.roots[Z(i)], cause, ev);
}

void Game::ReturnFollowers(FeatureId root, bool scored, std::vector<Event>* ev) {
  if (board_.Info(root).FollowerCount() == 0) return;  // no spot to look for
  spots_.Return(board_, root, [&](const FollowerSpot& spot, FeatureId f) {
    const core::PlacedTile& placed = board_.Placed(spot.index);
    board_.RemoveFollower(f, spot.player);
    ++Player(spot.player).followers;  // R15: back in the supply at once
    board_hash_ ^= FollowerFact(spot.player, placed.x, placed.y, spot.feature);
    Emit(ev, FollowerReturned{spot.player, placed.x, placed.y, spot.feature, scored});
  });
}

void Game::CloseEdge(CellSide edge, ScoreCause cause, std::vector<Event>* ev,
                     Board::FrontierUpkeep upkeep) {
  Completed completed;
  board_.CloseSide(*tiles_, board_.IndexAt(edge.cell), edge.side, &completed, upkeep);
  ScoreCompleted(completed, cause, ev);
}

void Game::EndGame(std::vector<Event>* ev) {
  CloseRestOfOutline(ev);
  // R26: followers still on streets and markets stand on incomplete ones; they go back unscored.
  for (int i = 0; i < spots_.Count();) {
    const FollowerSpot spot = spots_[i];
    const FeatureId root = board_.Root(board_.FeatureOf(spot.index, spot.feature));
    if (board_.Info(root).kind == FeatureKind::kResidential) {
      ++i;
    } else {
      ReturnFollowers(root, false, ev);
    }
  }
  ScoreStewards(ev);
  ScoreGuards(ev);
  GameOver over{};
  over.condition = counters_.end;
  over.conditions = end_conditions_;
  int best = 0;
  for (int p = 0; p < config_.players; ++p) {
    for (int s = 0; s < kSourceCount; ++s) {
      over.scores[Z(p)][Z(s)] = static_cast<int16_t>(Player(p).score[Z(s)]);
    }
    best = std::max(best, TotalScore(p));
  }
  for (int p = 0; p < config_.players; ++p) {
    if (TotalScore(p) == best) over.winners |= static_cast<uint8_t>(1u << p);  // R29
  }
  counters_.decision = {kNobody, DecisionKind::kNone};
  counters_.drawn_tile = -1;
  Emit(ev, over);
}

void Game::CloseRestOfOutline(std::vector<Event>* ev) {
  // R26: the rest of the outline counts as walled (all of it if no wall was ever built). Its
  // sides are closed tile by tile in placement order.
  OutlineSides outline;
  FindOutlineSides(board_, &outline);
  int open_count = 0;
  for (int i = 0; i < board_.TileCount(); ++i) {
    uint8_t& sides = outline[Z(i)];
    sides &= static_cast<uint8_t>(~board_.Placed(i).closed_sides);
    open_count += core::CountBits(sides);
  }
  Emit(ev, WallCompleted{static_cast<uint8_t>(std::min(open_count, 255))});
  for (int i = 0; i < board_.TileCount(); ++i) {
    // The tile's open sides in order, lowest first.
    for (unsigned sides = outline[Z(i)]; sides != 0; sides &= sides - 1) {
      CloseEdge({board_.Placed(i).cell(), std::countr_zero(sides)}, ScoreCause::kClosingWall, ev,
                Board::FrontierUpkeep::kLater);
    }
  }
  board_.CatchUpFrontier();
}

void Game::ScoreStewards(std::vector<Event>* ev) {
  // R27: each residential area that holds followers scores for the markets it touches, inside
  // a tile or across a side; the areas in the order of their roots.
  std::array<FeatureId, kMaxSpots> areas{};
  int area_count = 0;
  for (int i = 0; i < spots_.Count(); ++i) {
    const FeatureId root = board_.Root(board_.FeatureOf(spots_[i].index, spots_[i].feature));
    if (board_.Info(root).kind != FeatureKind::kResidential) continue;
    if (std::find(areas.begin(), areas.begin() + area_count, root) != areas.begin() + area_count)
      continue;
    areas[Z(area_count++)] = root;
  }
  if (area_count == 0) return;
  std::sort(areas.begin(), areas.begin() + area_count);
  // The markets each area touches, as sets of market roots.
  std::array<std::bitset<core::kMaxFeatures>, kMaxSpots> markets;
  std::array<int8_t, core::kMaxFeatures> area_of;
  area_of.fill(-1);
  for (int a = 0; a < area_count; ++a) area_of[Z(areas[Z(a)])] = static_cast<int8_t>(a);
  const auto record = [&](FeatureId area, FeatureId market) {
    const int a = area_of[Z(board_.Root(area))];
    if (a >= 0) markets[Z(a)].set(Z(board_.Root(market)));
  };
  // Features of a tile or of two tiles that touch, by their kinds on the tile.
  const auto record_pair = [&](const core::TileType& type, int index, int f,
                               const core::TileType& other_type, int other, int g) {
    if (f == core::kNoFeature || g == core::kNoFeature) return;  // a port without an area
    const FeatureKind kf = type.features[Z(f)].kind;
    const FeatureKind kg = other_type.features[Z(g)].kind;
    if (kf == FeatureKind::kResidential && kg == FeatureKind::kMarket)
      record(board_.FeatureOf(index, f), board_.FeatureOf(other, g));
    if (kg == FeatureKind::kResidential && kf == FeatureKind::kMarket)
      record(board_.FeatureOf(other, g), board_.FeatureOf(index, f));
  };
  for (int i = 0; i < board_.TileCount(); ++i) {
    const core::PlacedTile& placed = board_.Placed(i);
    const core::TileType& type = tiles_->TypeOf(placed.tile);
    for (const auto& pair : type.touching_areas) record_pair(type, i, pair[0], type, i, pair[1]);
    for (int side : {core::kNorth, core::kEast}) {  // each shared side once
      const int n = board_.IndexAt(core::Neighbour(placed.cell(), side));
      if (n < 0) continue;
      const core::PlacedTile& other = board_.Placed(n);
      const core::TileType& other_type = tiles_->TypeOf(other.tile);
      for (int k : {0, 2}) {
        const int port = core::PortOf(side, k);
        record_pair(type, i, type.FeatureAt(port, placed.rotation), other_type, n,
                    other_type.FeatureAt(core::FacingPort(port), other.rotation));
      }
    }
  }
  for (int a = 0; a < area_count; ++a) {
    const FeatureId area = areas[Z(a)];
    const int count = static_cast<int>(markets[Z(a)].count());
    StewardsScored scored{};
    const auto anchor = FeatureAnchor(area, &scored.feature);
    scored.x = anchor[0];
    scored.y = anchor[1];
    scored.markets = static_cast<uint8_t>(count);
    const uint32_t owners = core::MajorityHolders(board_.Info(area), config_.players);
    for (int p = 0; p < config_.players; ++p) {
      if (!(owners & (1u << p))) continue;
      scored.points[Z(p)] = static_cast<int16_t>(2 * count);
      AddPoints(p, kStewards, 2 * count);
    }
    Emit(ev, scored);
  }
}

void Game::BuildingsInView(const WallPiece& piece, int* public_count, int* historic_count) const {
  // R28: from the piece straight into the city, over consecutive tiles, to the first empty cell.
  const int inward = core::Opposite(piece.side);
  *public_count = 0;
  *historic_count = 0;
  for (Cell c = piece.cell(); board_.HasTile(c); c = core::Neighbour(c, inward)) {
    const core::Building b = tiles_->TypeOf(board_.Placed(board_.IndexAt(c)).tile).building;
    if (b == core::Building::kPublic) ++*public_count;
    if (b == core::Building::kHistoric) ++*historic_count;
  }
}

bool Game::GuardBlocked(const WallPiece& piece) const {
  // R22: walk across the city; the first wall met, with no empty cell on the way, is opposite.
  const int inward = core::Opposite(piece.side);
  Cell c = piece.cell();
  while (board_.HasTile(core::Neighbour(c, inward))) c = core::Neighbour(c, inward);
  const WallPiece* opposite = chain_.Find({c, inward});
  return opposite != nullptr && opposite->guard != kNoGuard;
}

void Game::ScoreGuards(std::vector<Event>* ev) {
  for (int end = 0; end < 2; ++end) {
    for (int i = 0; i < chain_.Count(end); ++i) {
      const WallPiece& piece = chain_.Piece(end, i);
      if (piece.guard == kNoGuard) continue;
      int public_count = 0;
      int historic_count = 0;
      BuildingsInView(piece, &public_count, &historic_count);
      const int points = 2 * public_count + 3 * historic_count;
      AddPoints(piece.guard, kGuards, points);
      Emit(ev, GuardScored{static_cast<uint8_t>(piece.guard), piece.x, piece.y, piece.side,
                           static_cast<uint8_t>(public_count), static_cast<uint8_t>(historic_count),
                           static_cast<int16_t>(points)});
    }
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
  if (chain_.HasGate()) {
    const WallPiece& g = chain_.Gate();
    h ^= WallFact(0, g.x, g.y, g.side);
  }
  for (int end = 0; end < 2; ++end) {
    for (int i = 0; i < chain_.Count(end); ++i) {
      const WallPiece& w = chain_.Piece(end, i);
      h ^= WallFact(PiecePosition(end, i), w.x, w.y, w.side);
      if (w.guard != kNoGuard) h ^= GuardFact(w.guard, w.x, w.y, w.side);
    }
  }
  for (int i = 0; i < chain_.TowerCount(); ++i) {
    const Tower& t = chain_.TowerAt(i);
    h ^= TowerFact(t.player, t.end, t.position);
  }
  return h ^ CountersHash(counters_);
}

PublicState Game::Public() const {
  PublicState s = PublicState::Initial(config_);
  core::ShowBoard(board_, spots_, &s.tiles, &s.followers);
  s.has_gate = chain_.HasGate();
  if (s.has_gate) s.gate = chain_.Gate();
  for (int end = 0; end < 2; ++end) {
    for (int i = 0; i < chain_.Count(end); ++i) s.pieces[Z(end)].push_back(chain_.Piece(end, i));
  }
  for (int i = 0; i < chain_.TowerCount(); ++i) s.towers.push_back(chain_.TowerAt(i));
  s.counters = counters_;
  return s;
}

}  // namespace carc::city
