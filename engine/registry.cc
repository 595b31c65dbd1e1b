#include "registry.h"

#include <algorithm>
#include <cassert>

#include "castle/default_data.h"
#include "castle/rule_set.h"
#include "city/default_tiles.h"
#include "city/rule_set.h"
#include "river/default_tiles.h"
#include "river/rule_set.h"

namespace carc {

void RuleSetRegistry::Add(std::shared_ptr<const core::RuleSet> rule_set) {
  const core::GameType& type = rule_set->Type();
  const auto same = std::find_if(rule_sets_.begin(), rule_sets_.end(), [&](const auto& r) {
    return r->Type().id == type.id && r->Type().version == type.version;
  });
  if (same != rule_sets_.end()) {
    *same = std::move(rule_set);
    return;
  }
  rule_sets_.push_back(std::move(rule_set));
  std::sort(rule_sets_.begin(), rule_sets_.end(), [](const auto& a, const auto& b) {
    if (a->Type().id != b->Type().id) return a->Type().id < b->Type().id;
    return a->Type().version < b->Type().version;
  });
}

const core::RuleSet* RuleSetRegistry::Find(std::string_view id) const {
  const core::RuleSet* newest = nullptr;
  for (const auto& r : rule_sets_) {
    if (r->Type().id == id) newest = r.get();  // sorted: the last one is the newest
  }
  return newest;
}

const core::RuleSet* RuleSetRegistry::Find(std::string_view id, int version) const {
  for (const auto& r : rule_sets_) {
    if (r->Type().id == id && r->Type().version == version) return r.get();
  }
  return nullptr;
}

std::vector<const core::RuleSet*> RuleSetRegistry::All() const {
  std::vector<const core::RuleSet*> out;
  out.reserve(rule_sets_.size());
  for (const auto& r : rule_sets_) out.push_back(r.get());
  return out;
}

std::variant<std::shared_ptr<const core::RuleSet>, std::string> RuleSetWithTiles(
    std::string_view id, std::shared_ptr<const core::TileSet> tiles) {
  std::shared_ptr<const core::RuleSet> rules;
  if (id == city::kRuleSetId) rules = city::MakeRuleSet(std::move(tiles));
  if (id == river::kRuleSetId) rules = river::MakeRuleSet(std::move(tiles));
  if (id == castle::kRuleSetId) rules = castle::MakeRuleSet(std::move(tiles));
  if (!rules) return "no rule set '" + std::string(id) + "'";
  // A set its games cannot be played with is refused now rather than at the first game.
  auto game = rules->NewGame(rules->Type().min_players, {}, 1);
  if (auto* error = std::get_if<core::RuleError>(&game)) {
    return "not a tile set of " + rules->Type().name + ": " + error->message;
  }
  return rules;
}

RuleSetRegistry DefaultRuleSets() {
  RuleSetRegistry registry;
  registry.Add(city::MakeRuleSet(city::DefaultTileSet()));
  registry.Add(river::MakeRuleSet(river::DefaultTileSet()));
  registry.Add(castle::MakeRuleSet(castle::DefaultTileSet()));
  return registry;
}

std::shared_ptr<const core::RuleSet> RuleSetRegistry::Shared(const core::RuleSet& rule_set) const {
  for (const auto& held : rule_sets_) {
    if (held.get() == &rule_set) return held;
  }
  assert(false && "a rule set of this registry");
  return nullptr;
}

}  // namespace carc
