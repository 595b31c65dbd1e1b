// The rule sets one build knows: the one place that lists the games.
//
// The server, the game log's replay and the tools find a game's rules here by the id (and the
// version) stored with it; nothing else names a game. Adding a rule set is one line in
// registry.cc (docs/engine.md, "Adding a rule set").
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/rule_set.h"

namespace carc {

class RuleSetRegistry {
 public:
  // Adds a rule set; a second one with the same id and version replaces the first (a server
  // started with a replaced tile set).
  void Add(std::shared_ptr<const core::RuleSet> rule_set);
  // The newest version of a rule set, or null.
  const core::RuleSet* Find(std::string_view id) const;
  // Exactly that version, or null (a stored game whose rules this build no longer has).
  const core::RuleSet* Find(std::string_view id, int version) const;
  // Every rule set, by id, then version.
  std::vector<const core::RuleSet*> All() const;
  // The registry's own pointer to one of its rule sets (for a holder that may outlive a lookup).
  std::shared_ptr<const core::RuleSet> Shared(const core::RuleSet& rule_set) const;

 private:
  std::vector<std::shared_ptr<const core::RuleSet>> rule_sets_;
};

// Every rule set of this build, with its compiled-in tile set.
RuleSetRegistry DefaultRuleSets();
// The newest version of rule set `id` played with another tile set (a server's --tiles); the
// reason when there is no such rule set or its games cannot be played with these tiles.
std::variant<std::shared_ptr<const core::RuleSet>, std::string> RuleSetWithTiles(
    std::string_view id, std::shared_ptr<const core::TileSet> tiles);

}  // namespace carc
