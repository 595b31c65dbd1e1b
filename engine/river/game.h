// A game of Carcassonne (the 2012 base game), with or without the River.
//
// A Game is a value: copy it to clone it, compare copies with ==, or compare their hashes. It is
// created from a tile set, the rule parameters and a seed (or an explicit order of the tiles),
// and then only changes through Apply. At every moment it says who must decide what
// (CurrentDecision), lists every legal action for that decision in a fixed sorted order
// (LegalActions), and either applies an action and reports the events it caused, or refuses it
// with an Error and stays exactly as it was. The draw of a tile is an action of the chance actor,
// so the list of applied actions (History) rebuilds the game.
//
// Set-up places the first tile at (0, 0) before anyone acts: the start tile, or the River's
// spring when the River is played. Then the River's tiles are drawn (the lake last), then the
// land tiles. Order() lists every tile of the game in that order, the set-up tile first.
//
// Lifetime: a Game shares its TileSet (immutable) and owns everything else. No allocation
// happens on Apply or LegalActions beyond the caller's vectors and the history's growth.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "core/board.h"
#include "core/follower_spots.h"
#include "core/tileset.h"
#include "river/action.h"
#include "river/event.h"
#include "river/rules.h"
#include "river/state_hash.h"

namespace carc::river {

using core::Cell;

struct HistoryEntry {
  Actor actor;
  Action action;
  friend bool operator==(const HistoryEntry&, const HistoryEntry&) = default;
};

// A follower on a road, city, monastery or field.
using core::FollowerSpot;

class PublicState;

class Game {
 public:
  // Shuffles the tiles with `seed` (River tiles and land tiles separately). Returns an error
  // message if the configuration does not fit the tile set.
  static std::variant<Game, std::string> Create(std::shared_ptr<const core::TileSet> tiles,
                                                const Config& config, uint64_t seed);
  // The tiles in the given order: the set-up tile, then (with the River) the River's tiles with
  // the lake last, then the land tiles. Used to replay a stored game, and by tests.
  static std::variant<Game, std::string> CreateWithOrder(std::shared_ptr<const core::TileSet> tiles,
                                                         const Config& config, uint64_t seed,
                                                         std::span<const int> order);
  // The order that Create uses for a seed, or why the tile set does not fit the configuration.
  static std::variant<std::vector<int>, std::string> ShuffledOrder(const core::TileSet& tiles,
                                                                   const Config& config,
                                                                   uint64_t seed);

  // Draws anew what players cannot see, from `seed`: the order of the tiles not yet drawn, each in
  // its group (the River's tiles before the lake, the land tiles after it). The public state (and
  // Hash()) stays as it was; the result depends only on the public state and `seed`
  // (core::State::Redetermined).
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
  const Config& config() const { return config_; }
  uint64_t seed() const { return seed_; }
  int players() const { return config_.players; }
  const core::Board& board() const { return board_; }
  const Counters& counters() const { return counters_; }
  int Score(int player, Source source) const { return Player(player).score[source]; }
  int TotalScore(int player) const;
  int FollowersInSupply(int player) const { return Player(player).followers; }
  int TilesDrawn() const { return counters_.tiles_drawn; }
  int TilesDiscarded() const { return counters_.tiles_discarded; }
  // Tiles still to be drawn (the set-up tile is never drawn).
  int TilesLeft() const { return tile_total_ - 1 - counters_.tiles_drawn; }
  int TilesPlaced() const { return board_.TileCount(); }
  int TileTotal() const { return tile_total_; }
  // The set-up tile: the start tile, or the spring.
  int SetupTile() const { return order_[0]; }
  // Every tile of the game in order (secret from players), the set-up tile first.
  std::vector<int> Order() const { return {order_.begin(), order_.begin() + tile_total_}; }
  const std::vector<HistoryEntry>& History() const { return history_; }
  int FollowerSpotCount() const { return spots_.Count(); }
  const FollowerSpot& Spot(int i) const { return spots_[i]; }
  // Whether the river still has an open end (from the spring until the lake is placed).
  bool RiverOpen() const { return river_heading_ >= 0; }
  // Whether a tile could be placed anywhere now.
  bool TileFitsSomewhere(int tile) const;
  // Legal cells and rotations for a tile, appended to `out` (if given) as kPlaceTile actions,
  // sorted; returns how many (at most one with `stop_at_first`).
  int Placements(int tile, std::vector<Action>* out, bool stop_at_first = false) const;
  // Why `tile` may not lie at `c` turned `rotation` (nullopt: it may).
  std::optional<Error> CheckPlacement(int tile, Cell c, int rotation) const;

  friend bool operator==(const Game&, const Game&) = default;

 private:
  Game() = default;
  PlayerCounters& Player(int p) { return counters_.player[static_cast<size_t>(p)]; }
  const PlayerCounters& Player(int p) const { return counters_.player[static_cast<size_t>(p)]; }
  static std::optional<std::string> Validate(const core::TileSet& tiles, const Config& config);
  void PlaceSetupTile();

  // Placement rules.
  std::optional<Error> CheckSides(const core::TileType& type, Cell c, int rotation) const;
  std::array<uint16_t, core::kSides> FacingSideKinds(Cell c) const;
  static bool SidesMatch(const core::TileType& type, int rotation, uint8_t sides,
                         const std::array<uint16_t, core::kSides>& facing);
  std::optional<Error> CheckRiver(const core::TileType& type, Cell c, int rotation) const;
  int RiverExit(const core::TileType& type, int rotation) const;
  void FollowRiver(const core::TileType& type, int rotation);

  // Actions, each after its checks.
  std::optional<Error> CheckAction(Actor actor, const Action& action) const;
  std::optional<Error> CheckFollower(int feature) const;
  void DoDraw(int tile, std::vector<Event>* ev);
  void DoPlaceTile(Cell c, int rotation, std::vector<Event>* ev);
  void DoPlaceFollower(int feature, std::vector<Event>* ev);

  // Flow of a turn.
  void FindCompletedMonasteries(Cell c);
  void ScoreTurn(std::vector<Event>* ev);
  void EndTurn(std::vector<Event>* ev);
  void Request(Actor actor, DecisionKind kind, std::vector<Event>* ev);
  void EndGame(std::vector<Event>* ev);

  // Scoring.
  void ScoreFeature(core::FeatureId root, bool complete, std::vector<Event>* ev);
  int FeaturePoints(core::FeatureId root, bool complete, int* tiles) const;
  int MonasteryTiles(int index) const;
  void ReturnFollowers(core::FeatureId root, std::vector<Event>* ev);
  void ScoreFields(std::vector<Event>* ev);
  void AddPoints(int player, Source source, int points);
  std::array<int8_t, 2> FeatureAnchor(core::FeatureId root, uint8_t* feature) const;

  std::shared_ptr<const core::TileSet> tiles_;
  Config config_;
  uint64_t seed_ = 0;
  core::Board board_;
  Counters counters_;
  std::array<uint8_t, core::kMaxTiles> order_{};
  int tile_total_ = 0;
  // The river: the empty cell at its open end, the direction it flows into that cell (a side,
  // -1 once the lake closes it or without the River), and its last bend (+1 right, -1 left, 0
  // none yet).
  Cell river_end_{};
  int river_heading_ = -1;
  int last_bend_ = 0;
  core::Completed turn_completed_;             // roads and cities the turn's tile completed
  std::array<uint8_t, 9> turn_monasteries_{};  // monasteries it completed (placement indices)
  int turn_monastery_count_ = 0;
  static constexpr size_t kMaxSpots = static_cast<size_t>(core::kMaxPlayers) * 8;
  core::FollowerSpots<kMaxSpots> spots_;
  uint64_t board_hash_ = 0;
  std::vector<HistoryEntry> history_;
};

}  // namespace carc::river
