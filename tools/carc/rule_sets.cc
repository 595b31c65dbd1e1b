#include "rule_sets.h"

#include <optional>

#include "castle/default_data.h"
#include "castle/rule_set.h"
#include "city/default_tiles.h"
#include "city/rule_set.h"
#include "core/text.h"
#include "river/default_tiles.h"
#include "river/rule_set.h"

namespace carc::tool {
namespace {

using MakeRuleSet = std::shared_ptr<const core::RuleSet> (*)(std::shared_ptr<const core::TileSet>);
using DefaultTiles = std::shared_ptr<const core::TileSet> (*)();

struct KnownGame {
  const char* id;
  MakeRuleSet make;
  DefaultTiles default_tiles;
};

// The tool's own list rather than the registry's: a game needs a renderer and a file reader
// here (per-game code) before `carc` can offer it, and the tool takes its tile set from --tiles.
const KnownGame kGames[] = {
    {city::kRuleSetId, &city::MakeRuleSet, &city::DefaultTileSet},
    {river::kRuleSetId, &river::MakeRuleSet, &river::DefaultTileSet},
    {castle::kRuleSetId, &castle::MakeRuleSet, &castle::DefaultTileSet},
};

const KnownGame* Find(std::string_view id) {
  for (const KnownGame& game : kGames) {
    if (id == game.id) return &game;
  }
  return nullptr;
}

// Every header key of the action-list files the tool reads (city/, river/ and castle/transcript.h).
bool IsHeaderKey(std::string_view word) {
  return word == "game" || word == "players" || word == "options" || word == "seed" ||
         word == "tileset" || word == "order";
}

}  // namespace

std::string KnownRuleSets() {
  std::string out;
  for (const KnownGame& game : kGames) out += std::string(out.empty() ? "" : ", ") + game.id;
  return out;
}

bool IsKnownRuleSet(std::string_view id) { return Find(id) != nullptr; }

std::variant<GameChoice, std::string> ChooseRuleSet(std::string_view id,
                                                    std::shared_ptr<const core::TileSet> tiles,
                                                    const std::vector<std::string>& option_words) {
  const KnownGame* game = Find(id);
  if (game == nullptr) {
    return "unknown rule set '" + std::string(id) + "' (known: " + KnownRuleSets() + ")";
  }
  std::string text;
  for (const std::string& word : option_words) text += (text.empty() ? "" : " ") + word;
  auto parsed = core::ParseOptions(text);
  if (auto* error = std::get_if<std::string>(&parsed)) return "--option: " + *error;
  GameChoice choice;
  choice.tiles = tiles ? std::move(tiles) : game->default_tiles();
  choice.rule_set = game->make(choice.tiles);
  auto complete = choice.rule_set->CompleteOptions(std::get<core::Options>(parsed));
  if (auto* error = std::get_if<core::RuleError>(&complete)) return "--option: " + error->message;
  choice.options = std::get<core::Options>(std::move(complete));
  return choice;
}

std::optional<std::string> GameNamedIn(std::string_view action_list) {
  std::optional<std::string> named;
  core::ForEachLine(action_list, [&](int /*number*/, std::string_view /*line*/, const auto& words) {
    if (!IsHeaderKey(words[0])) return false;  // the actions begin: the header is over
    if (words[0] == "game" && words.size() == 2) named = std::string(words[1]);
    return !named;
  });
  return named;
}

}  // namespace carc::tool
