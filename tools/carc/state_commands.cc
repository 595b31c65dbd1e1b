#include "state_commands.h"

#include <algorithm>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "castle/random_play.h"
#include "castle/rule_set.h"
#include "castle/transcript.h"
#include "castle_json.h"
#include "castle_render.h"
#include "city/random_play.h"
#include "core/hash.h"
#include "json.h"
#include "river/random_play.h"
#include "river/rule_set.h"
#include "river/transcript.h"
#include "river_json.h"
#include "river_render.h"

namespace carc::tool {
namespace {

using nlohmann::json;

// A new game of the chosen rule set, or null after printing why not.
std::unique_ptr<core::State> NewState(const GameChoice& choice, int players, uint64_t seed) {
  const core::GameType& type = choice.rule_set->Type();
  if (players < type.min_players || players > type.max_players) {
    const std::string range =
        type.min_players == type.max_players
            ? std::to_string(type.min_players)
            : std::to_string(type.min_players) + " to " + std::to_string(type.max_players);
    std::cerr << "carc: " << type.name << " is played by " << range << " players\n";
    return nullptr;
  }
  auto created = choice.rule_set->NewGame(players, choice.options, seed);
  if (auto* error = std::get_if<core::RuleError>(&created)) {
    std::cerr << "carc: " << error->message << "\n";
    return nullptr;
  }
  return std::get<std::unique_ptr<core::State>>(std::move(created));
}

// The generator of a self-played game's choices: each game's own, so that a seed plays here the
// game its engine's random players (and their tests and benchmarks) play with it.
core::Random ChoiceRandom(const GameChoice& choice, uint64_t seed) {
  if (choice.rule_set->Type().id == river::kRuleSetId) return river::ChoiceRandom(seed);
  if (choice.rule_set->Type().id == castle::kRuleSetId) return castle::ChoiceRandom(seed);
  return city::ChoiceRandom(seed);
}

// The index of the action a typed game's eager player (`eager_choice`) picks among its legal
// actions.
template <typename Game, typename EagerPick>
size_t EagerIndex(const Game& game, core::Random& random, EagerPick eager_choice) {
  std::vector<decltype(game.History().front().action)> legal;
  game.LegalActions(&legal);
  const auto pick = eager_choice(legal, random);
  return static_cast<size_t>(std::find(legal.begin(), legal.end(), pick) - legal.begin());
}

// Which of the `count` legal actions a seat takes. The State lists them in the engine's order,
// so an index picks the same action as the engine's typed random players would.
size_t Choose(const core::State& state, size_t count, core::Random& random, bool eager) {
  if (eager) {
    if (const river::Game* game = river::GameOf(state)) {
      return EagerIndex(*game, random, &river::EagerChoice);
    }
    if (const castle::Game* game = castle::GameOf(state)) {
      return EagerIndex(*game, random, &castle::EagerChoice);
    }
  }
  return static_cast<size_t>(random.Below(count));
}

std::string ActorText(core::Actor actor) {
  return actor == core::kChanceActor ? "chance" : "p" + std::to_string(actor);
}

// What one step did: the action as a line of an action list, and the text of its events.
struct Step {
  std::string action;
  std::vector<std::string> events;
};

// Takes one random legal step (the chance draw included); false once the game is over.
bool RandomStep(core::State& state, core::Random& random, bool eager, Step* step) {
  if (state.IsOver()) return false;
  const std::vector<std::string> legal = state.LegalActions();
  const std::string& action = legal[Choose(state, legal.size(), random, eager)];
  const core::Actor actor = state.CurrentActor();
  step->events.clear();
  if (auto error = state.Apply(actor, action, &step->events)) {
    // A listed action that does not apply is an engine bug: say so rather than loop.
    throw std::logic_error("legal action '" + action + "' refused: " + error->code);
  }
  step->action = ActorText(actor) + " " + action;
  return true;
}

json Winners(const std::vector<int>& scores) {
  const int best = scores.empty() ? 0 : *std::max_element(scores.begin(), scores.end());
  json out = json::array();
  for (size_t p = 0; p < scores.size(); ++p) {
    if (scores[p] == best) out.push_back(p);
  }
  return out;
}

json SelfplayLine(const GameChoice& choice, const core::State& state, uint64_t seed, int actions) {
  json j;
  j["rule_set"] = choice.rule_set->Type().id;
  j["options"] = choice.options;
  j["seed"] = seed;
  j["players"] = state.Players();
  j["scores"] = state.Scores();
  j["winners"] = Winners(state.Scores());
  j["actions"] = actions;
  j["hash"] = HexHash(state.Hash());
  // What only Carcassonne's typed game knows: points by source, tiles placed and discarded.
  if (const river::Game* game = river::GameOf(state)) {
    j["scores"] = RiverScoresToJson(*game);
    j["tiles_placed"] = game->TilesPlaced();
    j["tiles_discarded"] = game->TilesDiscarded();
  }
  // And The Castle's.
  if (const castle::Game* game = castle::GameOf(state)) {
    j["scores"] = CastleScoresToJson(*game);
    j["tiles_placed"] = game->TilesPlaced();
    j["tiles_discarded"] = game->TilesDiscarded();
  }
  return j;
}

// An action list parsed (`parse`: the game's ParseTranscript) and replayed (`replay`: its
// Replay); the game as far as it is legal. Prints any problem; `illegal` says whether the replay
// stopped at an action (no game: nothing to replay).
template <typename Parse, typename ReplayFn>
auto ReplayFile(Parse parse, ReplayFn replay, const GameChoice& choice, const std::string& path,
                std::string_view text, bool* illegal) {
  auto parsed = parse(text);
  using Transcript = std::variant_alternative_t<0, decltype(parsed)>;
  using Game = std::decay_t<decltype(*replay(choice.tiles, std::get<Transcript>(parsed)).game)>;
  if (auto* error = std::get_if<core::TranscriptError>(&parsed)) {
    std::cerr << "carc: " << path << ": " << error->ToString() << "\n";
    return std::optional<Game>();
  }
  auto result = replay(choice.tiles, std::get<Transcript>(parsed));
  *illegal = result.game && result.failure;
  if (result.failure) std::cerr << "carc: " << path << ": " << result.failure->ToString() << "\n";
  return std::move(result.game);
}

// The replay of a file: the final state as JSON (`to_json`), or the state before the first
// illegal action (status 1); status 2 without a game.
template <typename Game, typename ToJson>
int PrintReplay(const std::optional<Game>& game, bool illegal, ToJson to_json) {
  if (!game) return 2;
  if (illegal) {
    // The replay stops before the refused action, so the game is the state before it.
    std::cout << json{{"error", "illegal action"}, {"state_before", to_json(*game)}}.dump() << "\n";
    return 1;
  }
  std::cout << to_json(*game).dump(2) << "\n";
  return 0;
}

std::optional<river::Game> ReplayRiver(const GameChoice& choice, const std::string& path,
                                       std::string_view text, bool* illegal) {
  return ReplayFile(&river::ParseTranscript, &river::Replay, choice, path, text, illegal);
}

std::optional<castle::Game> ReplayCastle(const GameChoice& choice, const std::string& path,
                                         std::string_view text, bool* illegal) {
  return ReplayFile(&castle::ParseTranscript, &castle::Replay, choice, path, text, illegal);
}

}  // namespace

int RunStateSelfplay(const GameChoice& choice, int games, uint64_t seed, int players, bool trace,
                     bool eager) {
  Step step;
  for (int g = 0; g < games; ++g) {
    const uint64_t game_seed = seed + static_cast<uint64_t>(g);
    const auto state = NewState(choice, players, game_seed);
    if (!state) return 2;
    core::Random random = ChoiceRandom(choice, game_seed);
    int actions = 0;
    for (; RandomStep(*state, random, eager, &step); ++actions) {
      if (!trace) continue;
      std::cout << json{{"action", step.action}}.dump() << "\n";
      for (const std::string& e : step.events) std::cout << EventTextToJson(e).dump() << "\n";
    }
    std::cout << SelfplayLine(choice, *state, game_seed, actions).dump() << "\n";
  }
  return 0;
}

int RunStateRecord(const GameChoice& choice, uint64_t seed, int players) {
  const auto state = NewState(choice, players, seed);
  if (!state) return 2;
  core::Random random = ChoiceRandom(choice, seed);
  Step step;
  while (RandomStep(*state, random, false, &step)) {
  }
  std::cout << "# a random game of " << choice.rule_set->Type().name << ", recorded by carc\n"
            << state->Transcript();
  return 0;
}

int RunStateShow(const GameChoice& choice, uint64_t seed, int players, int steps) {
  const auto state = NewState(choice, players, seed);
  if (!state) return 2;
  core::Random random = ChoiceRandom(choice, seed);
  Step step;
  for (int i = 0; (steps < 0 || i < steps) && RandomStep(*state, random, false, &step); ++i) {
  }
  if (const river::Game* game = river::GameOf(*state)) {
    std::cout << RenderRiverGame(*game);
    return 0;
  }
  if (const castle::Game* game = castle::GameOf(*state)) {
    std::cout << RenderCastleGame(*game);
    return 0;
  }
  std::cerr << "carc: no picture of " << choice.rule_set->Type().name << " yet\n";
  return 2;
}

int RunRiverReplay(const GameChoice& choice, const std::string& path, std::string_view text) {
  bool illegal = false;
  const auto game = ReplayRiver(choice, path, text, &illegal);
  return PrintReplay(game, illegal, &RiverStateToJson);
}

int RunRiverShow(const GameChoice& choice, const std::string& path, std::string_view text) {
  bool illegal = false;
  const auto game = ReplayRiver(choice, path, text, &illegal);
  if (!game) return 2;
  std::cout << RenderRiverGame(*game);
  return 0;
}

int RunCastleReplay(const GameChoice& choice, const std::string& path, std::string_view text) {
  bool illegal = false;
  const auto game = ReplayCastle(choice, path, text, &illegal);
  return PrintReplay(game, illegal, &CastleStateToJson);
}

int RunCastleShow(const GameChoice& choice, const std::string& path, std::string_view text) {
  bool illegal = false;
  const auto game = ReplayCastle(choice, path, text, &illegal);
  if (!game) return 2;
  std::cout << RenderCastleGame(*game);
  return 0;
}

}  // namespace carc::tool
