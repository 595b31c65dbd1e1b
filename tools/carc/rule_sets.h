// Which game a command of `carc` plays: the rule set named by --rule-set, its options (--option
// name=value) and its tile set (--tiles, or the rule set's compiled-in one).
//
// The tool knows each game it can draw or replay by its id (the typed code it needs, a renderer
// and a file reader, is per game); everything else goes through core::RuleSet and core::State.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/rule_set.h"
#include "core/tileset.h"

namespace carc::tool {

inline constexpr const char* kDefaultRuleSet = "the-city";

struct GameChoice {
  std::shared_ptr<const core::TileSet> tiles;
  std::shared_ptr<const core::RuleSet> rule_set;
  core::Options options;  // complete: every option of the rule set with its value
};

// The rule sets the tool knows, for messages: "the-city, carcassonne".
std::string KnownRuleSets();
bool IsKnownRuleSet(std::string_view id);
// The rule set `id` played with `tiles` (null: its compiled-in set) and the options given as
// "name=value" words, completed with their defaults; or a message saying what is wrong: an
// unknown rule set, a malformed or unknown option, a value out of range.
std::variant<GameChoice, std::string> ChooseRuleSet(std::string_view id,
                                                    std::shared_ptr<const core::TileSet> tiles,
                                                    const std::vector<std::string>& option_words);
// The game named by an action-list file's `game` header line, if it has one.
std::optional<std::string> GameNamedIn(std::string_view action_list);

}  // namespace carc::tool
