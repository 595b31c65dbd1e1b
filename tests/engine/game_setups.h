// The games the rule-set-wide engine tests play (the bots', the redrawing of hidden
// information): each rule set of the build, with 2 and 4 players where it has them.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/rule_set.h"
#include "registry.h"

namespace carc::engine_tests {

struct GameSetup {
  const char* rule_set;
  int players;
  core::Options options;
  int order_offset;  // tiles of Order() placed before the first draw (the start tile, the spring)
};

inline const std::vector<GameSetup>& GameSetups() {
  static const std::vector<GameSetup> setups = {
      {"the-city", 2, {}, 0},
      {"the-city", 4, {}, 0},
      {"carcassonne", 2, {{"river", 1}}, 1},
      {"carcassonne", 4, {{"river", 0}}, 1},
      {"the-castle", 2, {}, 0},
  };
  return setups;
}

inline const RuleSetRegistry& Registry() {
  static const RuleSetRegistry registry = DefaultRuleSets();
  return registry;
}

// "carcassonne 2p river=1": for test messages.
inline std::string Name(const GameSetup& setup) {
  return std::string(setup.rule_set) + " " + std::to_string(setup.players) + "p " +
         core::FormatOptions(setup.options);
}

inline std::unique_ptr<core::State> NewGame(const GameSetup& setup, uint64_t seed) {
  auto created = Registry().Find(setup.rule_set)->NewGame(setup.players, setup.options, seed);
  return std::get<std::unique_ptr<core::State>>(std::move(created));
}

}  // namespace carc::engine_tests
