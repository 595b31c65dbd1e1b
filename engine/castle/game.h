// A game of Carcassonne: The Castle.
//
// A Game is a value: copy it to clone it, compare copies with ==, or compare their hashes. It is
// created from a tile set, the rule parameters with the castle's board (layout.h) and a seed (or an
// explicit order of the tiles), and then only changes through Apply. At every moment it says who
// must decide what (CurrentDecision), lists every legal action for that decision in a fixed
// sorted order (LegalActions), and either applies an action and reports the events it caused, or
// refuses it with an Error and stays exactly as it was. The draw of a tile is an action of the
// chance actor, so the list of applied actions (History) rebuilds the game.
//
// Set-up lays the start spaces on the wall (as tiles of their own, placed before anyone acts)
// and one wall tile face down on every corner tower but the first, shuffled with the seed. The
// castle tiles are drawn in Order(); the wall tiles' order follows from the seed alone.
//
// Lifetime: a Game shares its TileSet and Layout (immutable) and owns everything else.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "castle/action.h"
#include "castle/event.h"
#include "castle/layout.h"
#include "castle/rules.h"
#include "castle/state_hash.h"
#include "core/board.h"
#include "core/follower_spots.h"
#include "core/public_board.h"
#include "core/tileset.h"

namespace carc::castle {

struct HistoryEntry {
  Actor actor;
  Action action;
  friend bool operator==(const HistoryEntry&, const HistoryEntry&) = default;
};

using core::FollowerSpot;
using core::PublicTile;

class PublicState;

class Game {
 public:
  // Shuffles the castle tiles and the wall tiles with `seed`. Returns an error message if the
  // tile set or the board does not fit the configuration.
  static std::variant<Game, std::string> Create(std::shared_ptr<const core::TileSet> tiles,
                                                const Config& config, uint64_t seed);
  // The castle tiles in the given order (each once; no start space). Used to replay a stored
  // game, and by tests. The wall tiles still follow from `seed`, or from `wall_tiles` when given
  // (one number per corner tower but the first, in track order: tests set the wall that way).
  static std::variant<Game, std::string> CreateWithOrder(std::shared_ptr<const core::TileSet> tiles,
                                                         const Config& config, uint64_t seed,
                                                         std::span<const int> order,
                                                         std::span<const int> wall_tiles = {});
  // The order that Create uses for a seed, or why the tile set does not fit the configuration.
  static std::variant<std::vector<int>, std::string> ShuffledOrder(const core::TileSet& tiles,
                                                                   const Config& config,
                                                                   uint64_t seed);

  // Draws anew what players cannot see, from `seed`: the order of the castle tiles not yet drawn,
  // and the wall tiles still face down on the corner towers (from the wall tiles not yet seen). The
  // public state (and Hash()) stays as it was; the result depends only on the public state and
  // `seed` (core::State::Redetermined).
  void RedrawHidden(uint64_t seed);

  Decision CurrentDecision() const { return counters_.decision; }
  bool IsOver() const { return counters_.over; }
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
  const Layout& layout() const { return *config_.layout; }
  const Config& config() const { return config_; }
  uint64_t seed() const { return seed_; }
  int players() const { return config_.players; }
  const core::Board& board() const { return board_; }
  const Counters& counters() const { return counters_; }
  int Score(int player, Source source) const { return Player(player).score[source]; }
  int TotalScore(int player) const { return Player(player).Total(); }
  int FollowersInSupply(int player) const { return Player(player).followers; }
  const Keep& KeepOf(int player) const { return Player(player).keep; }
  // Wall tiles of that number the player holds face up (used ones are gone).
  int WallTilesHeld(int player, WallTile tile) const {
    return Player(player).wall_tiles[static_cast<size_t>(tile)];
  }
  int TilesDrawn() const { return counters_.tiles_drawn; }
  int TilesDiscarded() const { return counters_.tiles_discarded; }
  int TilesLeft() const { return tile_total_ - counters_.tiles_drawn; }
  // Castle tiles on the board (start spaces not counted).
  int TilesPlaced() const { return board_.TileCount() - start_count_; }
  int TileTotal() const { return tile_total_; }
  // The start spaces as the board shows them (they lie on the board before the first turn).
  std::vector<PublicTile> StartTiles() const;
  // Every castle tile of the game in drawing order (secret from players).
  std::vector<int> Order() const { return {order_.begin(), order_.begin() + tile_total_}; }
  // The wall tile face down on each corner tower (0: none), in track order. Secret.
  std::vector<int> WallLayout() const;
  const std::vector<HistoryEntry>& History() const { return history_; }
  int FollowerSpotCount() const { return spots_.Count(); }
  const FollowerSpot& Spot(int i) const { return spots_[i]; }
  // Whether a tile could be placed anywhere now.
  bool TileFitsSomewhere(int tile) const;
  // Legal cells and rotations for a tile, appended to `out` (if given) as kPlaceTile actions,
  // sorted; returns how many (at most one with `stop_at_first`).
  int Placements(int tile, std::vector<Action>* out, bool stop_at_first = false) const;
  // Why `tile` may not lie at `c` turned `rotation` (nullopt: it may).
  std::optional<Error> CheckPlacement(int tile, Cell c, int rotation) const;
  // The largest connected area of empty squares inside the wall: what the largest keep scores.
  int LargestEmptyArea() const;
  // The player with more followers on a feature than every other, or -1 (a tie scores nothing).
  int MajorityHolder(core::FeatureId root) const;

  friend bool operator==(const Game&, const Game&) = default;

 private:
  // A wall tile 4-7 chosen for the final scoring.
  struct FinalChoice {
    uint8_t player = 0;
    uint8_t wall = 0;
    core::FeatureId root = 0;
    friend bool operator==(const FinalChoice&, const FinalChoice&) = default;
  };
  struct WallTileToDecide {
    uint8_t player = 0;
    uint8_t wall = 0;
    friend bool operator==(const WallTileToDecide&, const WallTileToDecide&) = default;
  };

  Game() = default;
  PlayerCounters& Player(int p) { return counters_.player[static_cast<size_t>(p)]; }
  const PlayerCounters& Player(int p) const { return counters_.player[static_cast<size_t>(p)]; }
  static std::optional<std::string> Validate(const core::TileSet& tiles, const Config& config);
  void PlaceStartSpaces();
  void LayWallTiles(std::span<const int> wall_tiles);

  // Actions, each after its checks.
  std::optional<Error> CheckAction(Actor actor, const Action& action) const;
  std::optional<Error> CheckFollower(int feature) const;
  std::optional<Error> CheckScore(const Action& action) const;
  std::optional<Error> CheckWallTile(const Action& action) const;
  void DoDraw(int tile, std::vector<Event>* ev);
  void DoPlaceTile(Cell c, int rotation, std::vector<Event>* ev);
  void DoPlaceFollower(int feature, std::vector<Event>* ev);

  // Flow of a turn.
  void Request(Actor actor, DecisionKind kind, std::vector<Event>* ev, int wall = 0);
  void BeginScoring(std::vector<Event>* ev);
  void ContinueScoring(std::vector<Event>* ev);
  std::vector<core::FeatureId> ScoringGroup() const;
  bool CanDouble(core::FeatureId root) const;
  void EndTurn(std::vector<Event>* ev);
  void StartTurn(int player, std::vector<Event>* ev);

  // Scoring.
  void ScoreCompleted(core::FeatureId root, bool doubled, std::vector<Event>* ev);
  void UseWallTile(int player, WallTile tile, int points, std::vector<Event>* ev);
  void AddPoints(int player, Source source, int points);
  void TakeWallTile(int player, std::vector<Event>* ev);
  void ReturnFollowers(core::FeatureId root, std::vector<Event>* ev);
  FeatureScored ScoredEvent(core::FeatureId root, bool complete) const;
  core::FeatureId RootAt(int x, int y, int feature) const;  // -1 if no such feature

  // The end of the game.
  void StartFinalScoring(std::vector<Event>* ev);
  void AskNextWallTile(std::vector<Event>* ev);
  std::vector<core::FeatureId> EligibleFeatures(int player, WallTile tile) const;
  void FinishGame(std::vector<Event>* ev);
  void ScoreKeeps(std::vector<Event>* ev);
  void ScoreCourts(std::vector<Event>* ev);
  void ScoreUnfinished(std::vector<Event>* ev);

  std::shared_ptr<const core::TileSet> tiles_;
  Config config_;
  uint64_t seed_ = 0;
  core::Board board_;
  Counters counters_;
  std::array<uint8_t, core::kMaxTiles> order_{};
  int tile_total_ = 0;
  int start_count_ = 0;
  std::array<uint8_t, 16> corner_wall_{};    // the face-down wall tile on each corner (0: none)
  core::Completed turn_completed_;           // paths, towers and houses the turn's tile completed
  std::vector<core::FeatureId> pending_;     // completed features still to score this turn
  std::vector<WallTileToDecide> to_decide_;  // the game's end: wall tiles 4-7 still to decide
  std::vector<FinalChoice> final_choices_;
  static constexpr size_t kMaxSpots = static_cast<size_t>(core::kMaxPlayers) * 8;
  core::FollowerSpots<kMaxSpots> spots_;
  uint64_t board_hash_ = 0;
  std::vector<HistoryEntry> history_;
};

}  // namespace carc::castle
