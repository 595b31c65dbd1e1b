// The boundary between the games and everything that hosts them.
//
// A RuleSet is one game's rules (The City, Carcassonne with the River, ...): a GameType that
// says what it is (id, version, player counts, options), and a factory for its States. A State
// is one game in progress behind an interface that knows no game: who must decide, the legal
// actions, apply, clone, the state hash, the events an action caused. Actions and events cross
// this boundary as text, in the game's own notation (docs/formats.md): that is what the game
// log stores, so a stored game is replayed by its rule set alone, and a tool or a test can play
// any game without knowing it. Each game also has typed values of its own (engine/<game>/) for
// code that is written for that game: the server's per-game protocol package, its clients.
//
// Versions: a rule set's version changes when a rule changes what a stored list of actions
// means. A game is stored with the id and version of its rule set (and of its tile set), and is
// only replayed by that version.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/random_play.h"
#include "core/tileset.h"

namespace carc::core {

// Who acts: a player 0 .. players - 1, the chance actor (the draw of a tile), or nobody once the
// game is over. Every game uses these values.
using Actor = int;
inline constexpr Actor kChanceActor = -1;
inline constexpr Actor kNoActor = -2;

// State::PlayOut's `max_steps` for a playout to the end of the game.
inline constexpr int kToTheEnd = 0;

// One option of a rule set. Every option is an integer; a yes/no option is 0 or 1.
struct OptionSpec {
  std::string name;  // lower case, digits and '-', e.g. "river"
  std::string description;
  int default_value = 0;
  int min = 0;
  int max = 1;
};

// The options of one game, by name. Options a game leaves out take their defaults.
using Options = std::map<std::string, int, std::less<>>;

// "name=value" pairs, sorted by name, separated by spaces; "" for no options. The text the game
// log stores, and the one ParseOptions reads back.
std::string FormatOptions(const Options& options);
std::variant<Options, std::string> ParseOptions(std::string_view text);

struct GameType {
  std::string id;  // e.g. "the-city"; what CreateGame names and the game log stores
  int version = 1;
  std::string name;  // for people, e.g. "Carcassonne: The City"
  int min_players = 2;
  int max_players = 4;
  std::vector<OptionSpec> options;
  // The horizon at which the strong bot (engine/bots/) cuts its random playouts in this game,
  // in actions (State::PlayOut's max_steps), unless its host chooses another; kToTheEnd plays
  // them out. A game whose end scores much that random play decides badly (The Castle) is
  // judged better by its nearer future (docs/bots.md).
  int playout_horizon = kToTheEnd;
};

// An action refused, or a game that cannot be created: a sentence for people.
struct RuleError {
  std::string code;     // stable, e.g. "cell_occupied" (the engine's error name)
  std::string message;  // e.g. "A tile lies there already."
};

class State {
 public:
  virtual ~State() = default;

  virtual std::unique_ptr<State> Clone() const = 0;
  virtual int Players() const = 0;
  // The player whose turn it is: the one who places the tile a draw brings.
  virtual int TurnPlayer() const = 0;
  // The player who must decide, kChanceActor for a draw, kNoActor once the game is over.
  virtual Actor CurrentActor() const = 0;
  bool IsOver() const { return CurrentActor() == kNoActor; }
  // Every legal action of the current decision, in the game's notation and in the engine's
  // fixed order; the chance actor has exactly one: the next tile of the stacks.
  virtual std::vector<std::string> LegalActions() const = 0;
  // Applies an action written in the game's notation (without its actor). On success the text
  // of every event it caused is appended to `events` (if given); on error nothing changes.
  virtual std::optional<RuleError> Apply(Actor actor, std::string_view action,
                                         std::vector<std::string>* events) = 0;
  // The hash of the public state, kept up to date by each action; RecomputeHash computes it from
  // scratch and differs only if the engine has a bug. The game log stores it after each action.
  virtual uint64_t Hash() const = 0;
  virtual uint64_t RecomputeHash() const = 0;
  // Each player's points so far (final once the game is over).
  virtual std::vector<int> Scores() const = 0;
  // The tiles in drawing order (secret from players): what the game log stores to replay it.
  virtual std::vector<int> Order() const = 0;
  // The game's action-list file so far (docs/formats.md), with its drawing order.
  virtual std::string Transcript() const = 0;

  // For players that look ahead (engine/bots/), who must not see what is hidden.
  //
  // A copy with the same public state (same Hash(), same legal actions now) whose hidden
  // information is drawn anew from `seed`: the order of the tiles not yet drawn (within the
  // game's structure, e.g. the River's tiles before the land tiles, the lake last) and whatever
  // else lies face down (The Castle's wall tiles on the corner towers). The result depends only
  // on the public state and `seed`, never on the hidden information of this state.
  virtual std::unique_ptr<State> Redetermined(uint64_t seed) const = 0;
  // Plays random legal actions (core::RandomStep with `policy`) with the game's typed engine,
  // far faster than LegalActions/Apply through text, and returns the scores where it stopped: at
  // the end of the game, or after `max_steps` actions when that comes first (every action
  // applied counts, a chance draw included; kToTheEnd: no limit). Scores at a cut are the
  // points so far (Scores()), without the end's scoring of unfinished features. Its last action
  // and events are left as they were.
  virtual std::vector<int> PlayOut(uint64_t seed, Policy policy, int max_steps) = 0;
};

class RuleSet {
 public:
  virtual ~RuleSet() = default;
  virtual const GameType& Type() const = 0;
  // The tile set its games are played with.
  virtual const TileSet& Tiles() const = 0;
  // A new game: the tiles shuffled with `seed`. Refused when the players or options do not fit.
  virtual std::variant<std::unique_ptr<State>, RuleError> NewGame(int players,
                                                                  const Options& options,
                                                                  uint64_t seed) const = 0;
  // A game with the tiles in a given order (every tile id once): a stored game replayed.
  virtual std::variant<std::unique_ptr<State>, RuleError> NewGameWithOrder(
      int players, const Options& options, uint64_t seed, std::span<const int> order) const = 0;

  // Checks the options against the type (names known, values in range); the defaults filled in.
  std::variant<Options, RuleError> CompleteOptions(const Options& options) const;
};

}  // namespace carc::core
