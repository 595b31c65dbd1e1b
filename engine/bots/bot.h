// Bots: players that choose an action for any rule set, through core::State alone.
//
// A bot sees what a player at the table sees. It is given the game as a core::State (which holds
// the secret drawing order, because the engine needs it to play on), and must never let its
// choice depend on anything hidden: a bot that looks ahead does so on copies whose hidden
// information has been redrawn (core::State::Redetermined), so two games with the same public
// history but different drawing orders get the same answer from the same bot and seed.
//
// Levels, from the weakest: random (a uniform legal action), greedy (the action with the best
// immediate gain in points), strong (Monte Carlo tree search within a budget). docs/bots.md has
// their strength.
//
// Pure: no threads, no I/O. A caller that must not wait (the server) runs Choose on a worker
// thread, on its own copy of the state.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/rule_set.h"

namespace carc::bots {

enum class Level : uint8_t { kRandom, kGreedy, kStrong };

std::string_view ToString(Level level);  // "random", "greedy", "strong"
std::optional<Level> ParseLevel(std::string_view text);
// Every level, weakest first.
const std::vector<Level>& AllLevels();

// How long a bot may think about one decision. The playout budget makes a choice reproducible
// (same state, same seed, same action); the time budget, when set, stops it earlier. The horizon
// cuts each of the strong bot's random playouts after `playout_steps` actions (every action its
// playout applies, a tile's draw included), and the playout is scored where it stopped (the
// points so far); 0 plays every playout to the end of the game.
struct Budget {
  int playouts = 2000;
  int64_t max_microseconds = 0;  // 0: no time limit
  int playout_steps = 0;         // 0: to the end (core::kToTheEnd)
};

// The playout horizon for a game of `type`: `chosen` when the host chose one (0: to the end),
// else the rule set's own (core::GameType::playout_horizon).
int PlayoutStepsFor(const core::GameType& type, std::optional<int> chosen);

class Bot {
 public:
  virtual ~Bot() = default;
  virtual Level level() const = 0;
  // One of `state.LegalActions()`, for the player who must decide (never the chance actor).
  // The same state and seed give the same action (with no time limit in the budget).
  virtual std::string Choose(const core::State& state, uint64_t seed) const = 0;
};

std::unique_ptr<Bot> MakeBot(Level level, Budget budget = {});

// What the strong bot's search maximizes for `player` at the end of a playout, in [0, 1]: half
// its share of the win (1 alone at the top, 1/k in a k-way tie, else 0), half its margin over the
// best other player squashed by a logistic of scale kRewardMarginScale points. The win is the
// goal; the margin tells a close game from a lost one when playouts are few.
inline constexpr double kRewardMarginScale = 10.0;
// The strong bot searches the best max(2, playouts / kPlayoutsPerCandidate) of a decision's
// actions, ranked by the greedy bot's gain.
inline constexpr int kPlayoutsPerCandidate = 8;
double Reward(std::span<const int> scores, int player);

}  // namespace carc::bots
