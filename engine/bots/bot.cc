#include "bots/bot.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <chrono>
#include <cmath>
#include <limits>
#include <unordered_map>
#include <utility>

#include "core/hash.h"

namespace carc::bots {
namespace {

constexpr std::array<std::string_view, 3> kNames = {"random", "greedy", "strong"};

size_t Z(int i) { return static_cast<size_t>(i); }

class RandomBot final : public Bot {
 public:
  Level level() const override { return Level::kRandom; }
  std::string Choose(const core::State& state, uint64_t seed) const override {
    assert(!state.IsOver() && state.CurrentActor() != core::kChanceActor);
    const std::vector<std::string> legal = state.LegalActions();
    assert(!legal.empty());
    core::Random random(seed);
    return legal[static_cast<size_t>(random.Below(legal.size()))];
  }
};

// ---------------------------------------------------------------------------------------------
// Greedy

// A turn is often several decisions of one player (a tile, then a follower, ...) and its points
// come at its end, so the gain of an action counts up to the moment the decision passes to
// someone else (another player, or the draw of a tile), with the player's best continuation.
constexpr int kGreedyDepth = 4;  // a turn's own decisions followed at most this deep

int BestGainFrom(const core::State& state, int player, int depth);

int GainOf(const core::State& state, int player, const std::string& action, int depth) {
  const int before = state.Scores()[Z(player)];
  std::unique_ptr<core::State> next = state.Clone();
  [[maybe_unused]] const auto error = next->Apply(player, action, nullptr);
  assert(!error && "a legal action must apply");
  int gain = next->Scores()[Z(player)] - before;
  if (depth > 1 && !next->IsOver() && next->CurrentActor() == player) {
    gain += BestGainFrom(*next, player, depth - 1);
  }
  return gain;
}

int BestGainFrom(const core::State& state, int player, int depth) {
  int best = std::numeric_limits<int>::min();
  for (const std::string& action : state.LegalActions()) {
    best = std::max(best, GainOf(state, player, action, depth));
  }
  return best;
}

// The legal actions with their gains, best first, ties in an order drawn from `seed`. They are
// measured on a copy whose hidden information is redrawn: a turn's own decisions can reveal a
// face-down tile (The Castle's wall tiles), and the real one must not count.
std::vector<std::string> RankedByGain(const core::State& state, uint64_t seed,
                                      std::vector<int>* gains = nullptr) {
  const int player = state.CurrentActor();
  core::Random random(seed);
  const std::unique_ptr<core::State> seen = state.Redetermined(random.Next());
  std::vector<std::string> legal = seen->LegalActions();
  std::vector<std::pair<int, uint64_t>> keys;  // gain, tie-break
  keys.reserve(legal.size());
  for (const std::string& action : legal) {
    keys.emplace_back(GainOf(*seen, player, action, kGreedyDepth), random.Next());
  }
  std::vector<size_t> index(legal.size());
  for (size_t i = 0; i < index.size(); ++i) index[i] = i;
  std::sort(index.begin(), index.end(), [&](size_t x, size_t y) {
    return keys[x].first != keys[y].first ? keys[x].first > keys[y].first
                                          : keys[x].second < keys[y].second;
  });
  std::vector<std::string> ranked;
  ranked.reserve(legal.size());
  for (size_t i : index) {
    ranked.push_back(std::move(legal[i]));
    if (gains != nullptr) gains->push_back(keys[i].first);
  }
  return ranked;
}

class GreedyBot final : public Bot {
 public:
  Level level() const override { return Level::kGreedy; }
  std::string Choose(const core::State& state, uint64_t seed) const override {
    assert(!state.IsOver() && state.CurrentActor() != core::kChanceActor);
    std::vector<std::string> legal = state.LegalActions();
    assert(!legal.empty());
    if (legal.size() == 1) return std::move(legal.front());
    return RankedByGain(state, seed).front();
  }
};

// ---------------------------------------------------------------------------------------------
// Strong: Monte Carlo tree search (UCT) over determinizations.
//
// Every playout starts from the state with its hidden information redrawn (Redetermined), so the
// search never sees the real drawing order. A node is a public state: the actions from the root,
// with the tiles drawn on the way. A draw is a chance node whose outcomes are the tiles the
// determinizations happened to draw, so they are sampled in their true proportions. The
// statistics of an action are the rewards of the player who chose it. A player's action can
// reveal something too (The Castle's wall tile taken from a corner tower), so the child of an
// action is found by the public state it led to (its hash), not by the action alone.

constexpr uint64_t kChildDomain = 0x6368696c64;  // "child"
constexpr double kExploration = 0.7;             // UCT's constant, for rewards in [0, 1]

// How many of the root's actions, best greedy gain first, the search considers: enough playouts
// for each to be tried several times (progressive widening with the greedy gain as the prior).
size_t Width(Budget budget) {
  return static_cast<size_t>(std::max(2, budget.playouts / kPlayoutsPerCandidate));
}

struct Node {
  core::Actor actor = core::kNoActor;
  std::vector<std::string> actions;  // a decision: its legal actions; a draw: the outcomes seen
  std::vector<int> visits;
  std::vector<double> reward;  // summed over the visits, for `actor`
  int total_visits = 0;
  int untried = 0;
};

class Search {
 public:
  // The root's actions are `candidates` (some of its legal actions).
  Search(const core::State& root, std::vector<std::string> candidates, Budget budget, uint64_t seed)
      : root_(root), budget_(budget), random_(seed) {
    nodes_.reserve(static_cast<size_t>(std::max(budget.playouts, 1)) + 1);
    NewNode(root);
    Node& top = nodes_.front();
    top.actions = std::move(candidates);
    top.visits.assign(top.actions.size(), 0);
    top.reward.assign(top.actions.size(), 0.0);
    top.untried = static_cast<int>(top.actions.size());
  }

  std::string Run() {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    const int playouts = std::max(budget_.playouts, 1);
    for (int i = 0; i < playouts; ++i) {
      Iterate();
      if (budget_.max_microseconds > 0 && i % 8 == 7 &&
          std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start).count() >=
              budget_.max_microseconds) {
        break;
      }
    }
    return Best();
  }

 private:
  int NewNode(const core::State& state) {
    Node node;
    node.actor = state.CurrentActor();
    if (node.actor >= 0) {
      node.actions = state.LegalActions();
      node.visits.assign(node.actions.size(), 0);
      node.reward.assign(node.actions.size(), 0.0);
      node.untried = static_cast<int>(node.actions.size());
    }
    nodes_.push_back(std::move(node));
    return static_cast<int>(nodes_.size()) - 1;
  }

  // One determinization: down the tree, one new node, a random playout, the rewards back up.
  void Iterate() {
    std::unique_ptr<core::State> state = root_.Redetermined(random_.Next());
    path_.clear();
    int node = 0;
    bool expanded = false;
    while (!state->IsOver() && !expanded) {
      const size_t edge =
          nodes_[Z(node)].actor == core::kChanceActor ? Outcome(node, *state) : Select(node);
      Node& at = nodes_[Z(node)];
      [[maybe_unused]] const auto error = state->Apply(at.actor, at.actions[edge], nullptr);
      assert(!error && "a tree action must apply");
      path_.emplace_back(node, edge);
      const uint64_t key = core::FactKey(kChildDomain, Z(node), edge, state->Hash());
      const auto child = children_.find(key);
      if (child == children_.end()) {
        expanded = true;
        node = NewNode(*state);
        children_.emplace(key, node);
      } else {
        node = child->second;
      }
    }
    const std::vector<int> scores =
        state->IsOver()
            ? state->Scores()
            : state->PlayOut(random_.Next(), core::Policy::kEager, budget_.playout_steps);
    for (const auto& [n, edge] : path_) {
      Node& at = nodes_[Z(n)];
      ++at.total_visits;
      ++at.visits[edge];
      if (at.actor >= 0) at.reward[edge] += Reward(scores, at.actor);
    }
  }

  // A decision: an untried action at random, else the best by UCT.
  size_t Select(int node) {
    Node& at = nodes_[Z(node)];
    if (at.untried > 0) {
      size_t pick = static_cast<size_t>(random_.Below(static_cast<uint64_t>(at.untried)));
      --at.untried;
      for (size_t i = 0; i < at.visits.size(); ++i) {
        if (at.visits[i] == 0 && pick-- == 0) return i;
      }
    }
    const double log_total = std::log(static_cast<double>(std::max(at.total_visits, 1)));
    size_t best = 0;
    double best_value = -1;
    for (size_t i = 0; i < at.actions.size(); ++i) {
      const double n = std::max(at.visits[i], 1);
      const double value = at.reward[i] / n + kExploration * std::sqrt(log_total / n);
      if (value > best_value) {
        best_value = value;
        best = i;
      }
    }
    return best;
  }

  // A draw: the tile this determinization draws, as an outcome of the chance node.
  size_t Outcome(int node, const core::State& state) {
    std::string draw = state.LegalActions().front();
    Node& at = nodes_[Z(node)];
    for (size_t i = 0; i < at.actions.size(); ++i) {
      if (at.actions[i] == draw) return i;
    }
    at.actions.push_back(std::move(draw));
    at.visits.push_back(0);
    at.reward.push_back(0.0);
    return at.actions.size() - 1;
  }

  // The root's most visited action; ties to the better mean, then to the first.
  std::string Best() const {
    const Node& root = nodes_.front();
    size_t best = 0;
    for (size_t i = 1; i < root.actions.size(); ++i) {
      const auto mean = [&](size_t k) { return root.reward[k] / std::max(root.visits[k], 1); };
      if (root.visits[i] > root.visits[best] ||
          (root.visits[i] == root.visits[best] && mean(i) > mean(best))) {
        best = i;
      }
    }
    return root.actions[best];
  }

  const core::State& root_;
  Budget budget_;
  core::Random random_;
  std::vector<Node> nodes_;
  std::unordered_map<uint64_t, int> children_;  // (node, action, public state after it): child
  std::vector<std::pair<int, size_t>> path_;
};

class StrongBot final : public Bot {
 public:
  explicit StrongBot(Budget budget) : budget_(budget) {}
  Level level() const override { return Level::kStrong; }
  std::string Choose(const core::State& state, uint64_t seed) const override {
    assert(!state.IsOver() && state.CurrentActor() != core::kChanceActor);
    std::vector<std::string> legal = state.LegalActions();
    assert(!legal.empty());
    if (legal.size() == 1) return std::move(legal.front());
    core::Random random(seed);
    std::vector<std::string> candidates = RankedByGain(state, random.Next());
    candidates.resize(std::min(candidates.size(), Width(budget_)));
    return Search(state, std::move(candidates), budget_, random.Next()).Run();
  }

 private:
  Budget budget_;
};

}  // namespace

double Reward(std::span<const int> scores, int player) {
  int best_other = std::numeric_limits<int>::min();
  int tied_at_top = 1;
  for (size_t p = 0; p < scores.size(); ++p) {
    if (static_cast<int>(p) == player) continue;
    if (scores[p] > best_other) best_other = scores[p];
  }
  const int mine = scores[Z(player)];
  for (size_t p = 0; p < scores.size(); ++p) {
    if (static_cast<int>(p) != player && scores[p] == mine) ++tied_at_top;
  }
  const double win_share = mine > best_other ? 1.0 : mine == best_other ? 1.0 / tied_at_top : 0.0;
  const double margin = static_cast<double>(mine - best_other) / kRewardMarginScale;
  return 0.5 * win_share + 0.5 / (1.0 + std::exp(-margin));
}

int PlayoutStepsFor(const core::GameType& type, std::optional<int> chosen) {
  return chosen.value_or(type.playout_horizon);
}

std::string_view ToString(Level level) { return kNames.at(static_cast<size_t>(level)); }

std::optional<Level> ParseLevel(std::string_view text) {
  for (const Level level : AllLevels()) {
    if (ToString(level) == text) return level;
  }
  return std::nullopt;
}

const std::vector<Level>& AllLevels() {
  static const std::vector<Level> levels = {Level::kRandom, Level::kGreedy, Level::kStrong};
  return levels;
}

std::unique_ptr<Bot> MakeBot(Level level, Budget budget) {
  switch (level) {
    case Level::kRandom:
      return std::make_unique<RandomBot>();
    case Level::kGreedy:
      return std::make_unique<GreedyBot>();
    case Level::kStrong:
      return std::make_unique<StrongBot>(budget);
  }
  return std::make_unique<RandomBot>();
}

}  // namespace carc::bots
