#include "bots/bot.h"

#include <array>
#include <cassert>

#include "core/hash.h"

namespace carc::bots {
namespace {

constexpr std::array<std::string_view, 3> kNames = {"random", "greedy", "strong"};

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

}  // namespace

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

// Until the greedy and strong bots exist, every level plays at random.
std::unique_ptr<Bot> MakeBot(Level /*level*/, Budget /*budget*/) {
  return std::make_unique<RandomBot>();
}

}  // namespace carc::bots
