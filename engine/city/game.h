// A game of Carcassonne: The City.
//
// A Game is a value: copy it to clone it, compare copies with ==, or compare their hashes. It is
// created from a tile set, the rule parameters and a seed (or an explicit order of the tiles),
// and then only changes through Apply. At every moment it says who must decide what
// (CurrentDecision), lists every legal action for that decision in a fixed sorted order
// (LegalActions), and either applies an action and reports the events it caused, or refuses it
// with an Error and stays exactly as it was. The draw of a tile is an action of the chance
// actor, so the list of applied actions (History) rebuilds the game.
//
// Lifetime: a Game shares its TileSet (immutable) and owns everything else. No allocation
// happens on Apply or LegalActions beyond the caller's vectors and the history's growth (and,
// once per thread, the scratch grids of the wall rule's searches).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "city/action.h"
#include "city/event.h"
#include "city/rules.h"
#include "city/state_hash.h"
#include "city/walls.h"
#include "core/board.h"
#include "core/follower_spots.h"
#include "core/tileset.h"

namespace carc::city {

struct HistoryEntry {
  Actor actor;
  Action action;
  friend bool operator==(const HistoryEntry&, const HistoryEntry&) = default;
};

// A follower on a street, market or residential area (guards live on wall pieces).
using core::FollowerSpot;

class PublicState;

class Game {
 public:
  // Shuffles the tiles with `seed` (docs/rules.md, R4) into the stacks. Returns an error message
  // if the configuration does not fit the tile set (player count, stack sizes, limits).
  static std::variant<Game, std::string> Create(std::shared_ptr<const core::TileSet> tiles,
                                                const Config& config, uint64_t seed);
  // The stacks in the given order (every tile id once; the first config.stack_sizes[0] form
  // stack 1, and so on). Used to replay a stored game without the shuffle, and by tests.
  static std::variant<Game, std::string> CreateWithOrder(std::shared_ptr<const core::TileSet> tiles,
                                                         const Config& config, uint64_t seed,
                                                         std::span<const int> order);
  // The order that Create uses for a seed.
  static std::vector<int> ShuffledOrder(int tile_count, uint64_t seed);

  // Draws anew what players cannot see, from `seed`: the order of the tiles not yet drawn. The
  // public state (and Hash()) stays as it was; the result depends only on the public state and
  // `seed` (core::State::Redetermined).
  void RedrawHidden(uint64_t seed);

  Decision CurrentDecision() const { return counters_.decision; }
  bool IsOver() const { return counters_.decision.kind == DecisionKind::kNone; }
  // Every legal action of the current decision, sorted; empty once the game is over.
  void LegalActions(std::vector<Action>* out) const;
  // Applies `action` for `actor`, appending the events it causes to `events` (may be null).
  // On error nothing changes and nothing is appended.
  std::optional<Error> Apply(Actor actor, const Action& action, std::vector<Event>* events);

  uint64_t Hash() const { return board_hash_ ^ CountersHash(counters_); }
  // The hash computed from scratch; equal to Hash() unless the engine has a bug.
  uint64_t RecomputeHash() const;
  PublicState Public() const;

  // Read access for tools, clients and tests.
  const core::TileSet& tiles() const { return *tiles_; }
  std::shared_ptr<const core::TileSet> shared_tiles() const { return tiles_; }
  const Config& config() const { return config_; }
  uint64_t seed() const { return seed_; }
  int players() const { return config_.players; }
  const core::Board& board() const { return board_; }
  const WallChain& chain() const { return chain_; }
  const Counters& counters() const { return counters_; }
  int Score(int player, Source source) const { return Player(player).score[source]; }
  int TotalScore(int player) const;
  int FollowersInSupply(int player) const { return Player(player).followers; }
  int TowersLeft(int player) const { return Player(player).towers; }
  int WallsLeft() const { return counters_.walls_left; }
  int TilesDrawn() const { return counters_.tiles_drawn; }
  int TilesDiscarded() const { return counters_.tiles_discarded; }
  int TilesLeft() const { return tile_total_ - counters_.tiles_drawn; }
  int TilesPlaced() const { return board_.TileCount(); }
  // Tiles left in stack s (0, 1, 2).
  int StackLeft(int stack) const;
  // The stack (1-3) the next draw comes from, 0 when none is left.
  int CurrentStack() const;
  EndCondition EndedBy() const { return counters_.end; }
  uint8_t EndConditions() const { return end_conditions_; }
  // The stacks' order (secret from players): the tile ids in drawing order.
  std::vector<int> Order() const { return {order_.begin(), order_.begin() + tile_total_}; }
  const std::vector<HistoryEntry>& History() const { return history_; }
  int FollowerSpotCount() const { return spots_.Count(); }
  const FollowerSpot& Spot(int i) const { return spots_[i]; }
  // R24's measure, or -1 before the gate exists.
  int UnwalledDistance() const;
  // Whether a tile could be placed anywhere now (R7).
  bool TileFitsSomewhere(int tile) const;
  // Legal cells and rotations for a tile, appended to `out` (if given) as kPlaceTile actions,
  // sorted; returns how many (at most one with `stop_at_first`).
  int Placements(int tile, std::vector<Action>* out, bool stop_at_first = false) const;

  friend bool operator==(const Game&, const Game&) = default;

 private:
  // Only Create and CreateWithOrder make a game, in place in their result (the constructor is
  // public for std::variant, the key private to the game).
  class CreationKey {
    explicit CreationKey() = default;
    friend class Game;
  };

 public:
  explicit Game(CreationKey /*key*/) {}

 private:
  PlayerCounters& Player(int p) { return counters_.player[static_cast<size_t>(p)]; }
  const PlayerCounters& Player(int p) const { return counters_.player[static_cast<size_t>(p)]; }
  static std::optional<std::string> Validate(const core::TileSet& tiles, const Config& config);
  static std::optional<std::string> ValidateOrder(const core::TileSet& tiles,
                                                  std::span<const int> order);
  // A valid game's start.
  static std::variant<Game, std::string> Built(std::shared_ptr<const core::TileSet> tiles,
                                               const Config& config, uint64_t seed,
                                               std::span<const int> order);

  // Actions, each after its checks.
  std::optional<Error> CheckPlacement(Cell c, int rotation) const;
  std::optional<Error> CheckWallRules(Cell c) const;
  std::optional<Error> CheckFollower(const Action& a) const;
  std::optional<Error> CheckGate(const Action& a) const;
  std::optional<Error> CheckGuard(Actor actor) const;
  std::optional<Error> CheckTower(Actor actor, const Action& a) const;
  void DoDraw(int tile, std::vector<Event>* ev);
  void DoPlaceTile(Cell c, int rotation, std::vector<Event>* ev);
  void DoPlaceFollower(int feature, std::vector<Event>* ev);
  void DoPlaceGate(CellSide edge, std::vector<Event>* ev);
  void DoBuildWall(int end, std::vector<Event>* ev);
  void DoPlaceGuard(std::vector<Event>* ev);
  void DoPlaceTower(int end, std::vector<Event>* ev);

  // Flow of a turn.
  void ScoreTurnCompletions(std::vector<Event>* ev);
  void BeginWallRound(std::vector<Event>* ev);
  void NextWallStep(std::vector<Event>* ev);
  void EndTurn(std::vector<Event>* ev);
  void StartDraw(std::vector<Event>* ev);
  void Request(Actor actor, DecisionKind kind, std::vector<Event>* ev);
  void EndGame(std::vector<Event>* ev);

  // Scoring.
  bool ScoreFeature(core::FeatureId root, ScoreCause cause, std::vector<Event>* ev);
  void ScoreCompleted(const core::Completed& completed, ScoreCause cause, std::vector<Event>* ev);
  void ReturnFollowers(core::FeatureId root, bool scored, std::vector<Event>* ev);
  void CloseRestOfOutline(std::vector<Event>* ev);
  void ScoreStewards(std::vector<Event>* ev);
  void ScoreGuards(std::vector<Event>* ev);
  void AddPoints(int player, Source source, int points);

  // Geometry helpers.
  void CloseEdge(CellSide edge, ScoreCause cause, std::vector<Event>* ev,
                 Board::FrontierUpkeep upkeep = Board::FrontierUpkeep::kNow);
  bool GuardBlocked(const WallPiece& piece) const;
  void BuildingsInView(const WallPiece& piece, int* public_count, int* historic_count) const;
  const WallPiece& LastPiece() const { return chain_.Last(last_end_); }
  WallPiece& MutableLastPiece();
  int CurrentStackOfDraw(int draw_index) const;
  int PiecePosition(int end, int i) const { return end == kFrontEnd ? i + 1 : -(i + 1); }
  std::array<int8_t, 2> FeatureAnchor(core::FeatureId root, uint8_t* feature) const;

  std::shared_ptr<const core::TileSet> tiles_;
  Config config_;
  uint64_t seed_ = 0;
  core::Board board_;
  WallChain chain_;
  Counters counters_;
  std::array<uint8_t, core::kMaxTiles> order_{};
  int tile_total_ = 0;
  int turn_stack_ = 0;                        // stack of the turn's tile (1-3)
  core::Completed turn_completed_;            // streets and markets the turn's tile completed
  std::array<uint8_t, 16> round_builders_{};  // the wall round's builders, in order
  int round_size_ = 0;
  int round_pos_ = 0;
  int last_end_ = kFrontEnd;  // end of the last wall piece built (for its guard)
  static constexpr size_t kMaxSpots = static_cast<size_t>(core::kMaxPlayers) * 8;
  core::FollowerSpots<kMaxSpots> spots_;
  uint8_t end_conditions_ = 0;
  uint64_t board_hash_ = 0;
  std::vector<HistoryEntry> history_;
};

}  // namespace carc::city
