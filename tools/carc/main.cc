// carc: the command-line tool of the engine, for The City, Carcassonne (with the River) and
// Carcassonne: The Castle.
//
//   carc selfplay   random legal games, one JSON line per game (--trace: every action and event)
//   carc record     one random game as an action-list file
//   carc replay     re-apply an action list or an exported game (JSON); print the final state as
//                   JSON, or the first illegal action (or, for an export, differing state hash)
//   carc show       a game as a text picture (from a file, or a seeded random game)
//   carc tiles      the tile set's contents and its balance over simulated games (R30; The City)
//   carc arena      seeded games between two bot levels, in parallel: a Markdown row of win rates
//
// The game is chosen by --rule-set (the-city, the default, carcassonne or the-castle) and --option
// name=value (e.g. river=0); replay and show take both from an action list's header (`game`,
// `options`) when it has them. The City's commands use its typed game, as they always did; the
// other rule sets go through core::RuleSet and core::State (state_commands.h).
//
// Formats: docs/formats.md. The tool depends on the engine only.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "arena.h"
#include "castle/rule_set.h"
#include "city/game.h"
#include "city/notation.h"
#include "city/random_play.h"
#include "city/rule_set.h"
#include "city/transcript.h"
#include "game_json.h"
#include "json.h"
#include "render.h"
#include "rule_sets.h"
#include "state_commands.h"
#include "stats.h"

namespace {

using namespace carc;
using nlohmann::json;

struct Common {
  std::string tiles_file;
  std::string rule_set = tool::kDefaultRuleSet;
  bool rule_set_given = false;  // --rule-set on the command line, not the default
  std::vector<std::string> options;
};

using Tiles = std::shared_ptr<const core::TileSet>;

std::optional<std::string> ReadAll(const std::string& path) {
  if (path == "-") {
    std::ostringstream s;
    s << std::cin.rdbuf();
    return s.str();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The tile set of --tiles; null without one (the rule set's own), nullopt after an error.
std::optional<Tiles> LoadTiles(const Common& common) {
  if (common.tiles_file.empty()) return Tiles();
  const auto text = ReadAll(common.tiles_file);
  if (!text) {
    std::cerr << "carc: cannot read tile set " << common.tiles_file << "\n";
    return std::nullopt;
  }
  auto parsed = core::ParseTileSet(*text);
  if (auto* error = std::get_if<core::ParseError>(&parsed)) {
    std::cerr << "carc: " << common.tiles_file << ": " << error->ToString() << "\n";
    return std::nullopt;
  }
  return std::get<Tiles>(parsed);
}

std::optional<city::Game> NewGame(const std::shared_ptr<const core::TileSet>& tiles, int players,
                                  uint64_t seed) {
  city::Config config;
  config.players = players;
  auto created = city::Game::Create(tiles, config, seed);
  if (auto* message = std::get_if<std::string>(&created)) {
    std::cerr << "carc: " << *message << "\n";
    return std::nullopt;
  }
  return std::get<city::Game>(std::move(created));
}

json SelfplayLine(const city::Game& game) {
  json j;
  j["seed"] = game.seed();
  j["players"] = game.players();
  j["scores"] = tool::ScoresToJson(game);
  json winners = json::array();
  int best = -1;
  for (int p = 0; p < game.players(); ++p) best = std::max(best, game.TotalScore(p));
  for (int p = 0; p < game.players(); ++p) {
    if (game.TotalScore(p) == best) winners.push_back(p);
  }
  j["winners"] = winners;
  j["tiles_placed"] = game.TilesPlaced();
  j["tiles_discarded"] = game.TilesDiscarded();
  j["walls_built"] = game.chain().PieceCount();
  j["gate"] = game.chain().HasGate();
  j["towers_placed"] = game.chain().TowerCount();
  j["ended_by"] = city::ToString(game.EndedBy());
  json all = json::array();
  for (int c = 1; c <= 4; ++c) {
    if (game.EndConditions() & (1u << c))
      all.push_back(city::ToString(static_cast<city::EndCondition>(c)));
  }
  j["end_conditions"] = all;
  j["actions"] = game.History().size();
  j["hash"] = tool::HexHash(game.Hash());
  return j;
}

int RunSelfplay(const Tiles& tiles, int games, uint64_t seed, int players, bool trace,
                city::Policy policy) {
  city::PlayBuffers buffers;
  for (int g = 0; g < games; ++g) {
    const uint64_t game_seed = seed + static_cast<uint64_t>(g);
    auto game = NewGame(tiles, players, game_seed);
    if (!game) return 2;
    core::Random random = city::ChoiceRandom(game_seed);
    while (!game->IsOver()) {
      if (!trace) {
        city::RandomStep(*game, random, buffers, policy);
        continue;
      }
      const city::Game before = *game;  // to name the action as it was taken
      city::RandomStep(*game, random, buffers, policy);
      const city::HistoryEntry& last = game->History().back();
      const std::string text =
          city::FormatActor(last.actor) + " " + city::FormatAction(before, last.action);
      std::cout << json{{"action", text}}.dump() << "\n";
      for (const city::Event& e : buffers.events) std::cout << tool::EventToJson(e).dump() << "\n";
    }
    std::cout << SelfplayLine(*game).dump() << "\n";
  }
  return 0;
}

int RunRecord(const Tiles& tiles, uint64_t seed, int players, bool with_order) {
  auto game = NewGame(tiles, players, seed);
  if (!game) return 2;
  core::Random random = city::ChoiceRandom(seed);
  city::PlayBuffers buffers;
  while (city::RandomStep(*game, random, buffers)) {
  }
  std::cout << "# a random game of The City, recorded by carc\n"
            << city::FormatTranscript(*game, with_order);
  return 0;
}

// A file for `carc replay` and `carc show`: an action list, or an exported game (JSON) whose
// state hashes are checked as well.
struct Input {
  tool::GameJson game;    // for an action list, only its transcript
  bool exported = false;  // read from carc-game JSON
};

std::optional<Input> ReadInput(const std::string& path, std::string_view text) {
  Input input;
  if (tool::LooksLikeJson(text)) {
    auto parsed = tool::ParseGameJson(text);
    if (auto* error = std::get_if<std::string>(&parsed)) {
      std::cerr << "carc: " << path << ": " << *error << "\n";
      return std::nullopt;
    }
    input.game = std::get<tool::GameJson>(std::move(parsed));
    input.exported = true;
    return input;
  }
  auto parsed = city::ParseTranscript(text);
  if (auto* error = std::get_if<city::TranscriptError>(&parsed)) {
    std::cerr << "carc: " << path << ": " << error->ToString() << "\n";
    return std::nullopt;
  }
  input.game.transcript = std::get<city::Transcript>(std::move(parsed));
  return input;
}

// What stopped a replay.
struct Failure {
  std::string kind;  // "illegal action" or "state hash mismatch"
  std::string message;
  std::optional<uint64_t> sequence;  // an exported game's action
  std::optional<city::Game> before;  // the game before that action, if not the replayed one
};

// The first exported state hash the engine does not reach, if any.
std::optional<Failure> CheckHashes(const city::Game& game, const city::ReplayResult& result,
                                   const tool::GameJson& exported) {
  if (auto mismatch = tool::FindHashMismatch(game, exported)) {
    const size_t i = mismatch->index;
    return Failure{"state hash mismatch",
                   "sequence " + std::to_string(exported.sequences[i]) + ": '" +
                       exported.transcript.actions[i].text + "': the state hash after it is " +
                       tool::HexHash(mismatch->engine_hash) + ", the file says " +
                       tool::HexHash(exported.state_hashes[i]),
                   exported.sequences[i], std::move(mismatch->before)};
  }
  if (!result.failure && exported.final_state_hash && *exported.final_state_hash != game.Hash()) {
    return Failure{"state hash mismatch",
                   "final_state_hash is " + tool::HexHash(*exported.final_state_hash) +
                       ", the final state's hash is " + tool::HexHash(game.Hash()),
                   std::nullopt, std::nullopt};
  }
  return std::nullopt;
}

Failure IllegalAction(const city::TranscriptError& error, const Input& input) {
  if (!input.exported || error.line == 0) return {"illegal action", error.ToString(), {}, {}};
  const uint64_t sequence = input.game.sequences[static_cast<size_t>(error.line - 1)];
  return {"illegal action", "sequence " + std::to_string(sequence) + ": " + error.message, sequence,
          std::nullopt};
}

// Loads and replays an action list or an exported game; prints the failure, if any, to stderr.
// No game: the file could not be read, parsed or set up.
std::optional<city::Game> ReplayFile(const Tiles& tiles, const std::string& path,
                                     std::string_view text, std::optional<Failure>* failure) {
  const auto input = ReadInput(path, text);
  if (!input) return std::nullopt;
  city::ReplayResult result = city::Replay(tiles, city::Config{}, input->game.transcript);
  // A hash that differs comes before the illegal action, if any: only applied actions are checked.
  if (input->exported && result.game) *failure = CheckHashes(*result.game, result, input->game);
  if (!*failure && result.failure) *failure = IllegalAction(*result.failure, *input);
  if (*failure) std::cerr << "carc: " << path << ": " << (*failure)->message << "\n";
  return std::move(result.game);
}

int RunReplay(const Tiles& tiles, const std::string& path, std::string_view text) {
  std::optional<Failure> failure;
  auto game = ReplayFile(tiles, path, text, &failure);
  if (!game) return 2;
  if (failure) {
    json j{{"error", failure->kind}};
    if (failure->sequence) j["sequence"] = *failure->sequence;
    j["state_before"] = tool::StateToJson(failure->before ? *failure->before : *game);
    std::cout << j.dump() << "\n";
    return 1;
  }
  std::cout << tool::StateToJson(*game).dump(2) << "\n";
  return 0;
}

int RunShow(const Tiles& tiles, const std::string& path, std::string_view text, uint64_t seed,
            int players, int steps) {
  std::optional<city::Game> game;
  if (!path.empty()) {
    std::optional<Failure> failure;
    game = ReplayFile(tiles, path, text, &failure);
    if (!game) return 2;
  } else {
    game = NewGame(tiles, players, seed);
    if (!game) return 2;
    core::Random random = city::ChoiceRandom(seed);
    city::PlayBuffers buffers;
    for (int i = 0; (steps < 0 || i < steps) && city::RandomStep(*game, random, buffers); ++i) {
    }
  }
  std::cout << tool::RenderGame(*game);
  return 0;
}

// What a command line asked for, besides the game (Common).
enum class Command { kSelfplay, kRecord, kReplay, kShow, kTiles };
struct Args {
  Command command = Command::kSelfplay;
  int games = 1;
  uint64_t seed = 1;
  int players = 4;
  bool players_given = false;  // -p on the command line, not the default
  bool trace = false;
  std::string policy_name = "random";
  bool with_order = false;
  std::string path;  // replay's or show's file; empty: show a random game
  int steps = -1;
  int stat_games = 10000;
};

// The rule set of a command on a file: the one the file names (an action list's `game` line; an
// export is The City's), or else --rule-set. A file is refused if --rule-set names another game,
// or if options are given: the file fixes the game's options.
std::optional<std::string> RuleSetOfFile(const Common& common, const Args& args,
                                         std::string_view text) {
  if (!common.options.empty()) {
    std::cerr << "carc: --option sets up a new game; " << args.path << " gives its own options\n";
    return std::nullopt;
  }
  if (tool::LooksLikeJson(text)) {
    // game_json.h reads The City's exports only; its message names a file of another game.
    if (common.rule_set_given && common.rule_set != city::kRuleSetId) {
      std::cerr << "carc: " << args.path << ": exported games (JSON) are read for "
                << city::kRuleSetId << " only\n";
      return std::nullopt;
    }
    return city::kRuleSetId;
  }
  std::optional<std::string> named = tool::GameNamedIn(text);
  if (!named) return common.rule_set;
  if (common.rule_set_given && *named != common.rule_set) {
    std::cerr << "carc: " << args.path << " is a game of " << *named << ", not of "
              << common.rule_set << "\n";
    return std::nullopt;
  }
  return named;
}

std::optional<tool::GameChoice> Choose(const std::string& rule_set, const Tiles& tiles,
                                       const Common& common) {
  auto choice = tool::ChooseRuleSet(rule_set, tiles, common.options);
  if (auto* error = std::get_if<std::string>(&choice)) {
    std::cerr << "carc: " << *error << "\n";
    return std::nullopt;
  }
  return std::get<tool::GameChoice>(std::move(choice));
}

// Replay, or show, of a file.
int RunOnFile(const Common& common, const Args& args, const Tiles& custom_tiles) {
  const auto text = ReadAll(args.path);
  if (!text) {
    std::cerr << "carc: cannot read " << args.path << "\n";
    return 2;
  }
  const auto rule_set = RuleSetOfFile(common, args, *text);
  if (!rule_set) return 2;
  const auto choice = Choose(*rule_set, custom_tiles, common);
  if (!choice) return 2;
  const bool replay = args.command == Command::kReplay;
  if (*rule_set == city::kRuleSetId) {
    return replay ? RunReplay(choice->tiles, args.path, *text)
                  : RunShow(choice->tiles, args.path, *text, args.seed, args.players, args.steps);
  }
  if (*rule_set == castle::kRuleSetId) {
    return replay ? tool::RunCastleReplay(*choice, args.path, *text)
                  : tool::RunCastleShow(*choice, args.path, *text);
  }
  return replay ? tool::RunRiverReplay(*choice, args.path, *text)
                : tool::RunRiverShow(*choice, args.path, *text);
}

// The City, with its typed game: the commands as they always were.
int RunCity(const Args& args, const Tiles& tiles) {
  const city::Policy policy =
      args.policy_name == "eager" ? city::Policy::kEager : city::Policy::kUniform;
  switch (args.command) {
    case Command::kSelfplay:
      return RunSelfplay(tiles, args.games, args.seed, args.players, args.trace, policy);
    case Command::kRecord:
      return RunRecord(tiles, args.seed, args.players, args.with_order);
    case Command::kShow:
      return RunShow(tiles, "", "", args.seed, args.players, args.steps);
    case Command::kTiles:
      std::cout
          << tool::TileSetReport(tiles, args.stat_games, args.seed, args.players, policy).dump(2)
          << "\n";
      return 0;
    case Command::kReplay:
      break;  // a file: RunOnFile
  }
  return 2;
}

// Any other rule set, through the rule-set boundary. Without -p, the game is played by 4 or by
// as many as it allows (The Castle: 2).
int RunOther(Args args, const tool::GameChoice& choice) {
  const bool eager = args.policy_name == "eager";
  if (!args.players_given) {
    const core::GameType& type = choice.rule_set->Type();
    args.players = std::clamp(args.players, type.min_players, type.max_players);
  }
  switch (args.command) {
    case Command::kSelfplay:
      return tool::RunStateSelfplay(choice, args.games, args.seed, args.players, args.trace, eager);
    case Command::kRecord:
      return tool::RunStateRecord(choice, args.seed, args.players);
    case Command::kShow:
      return tool::RunStateShow(choice, args.seed, args.players, args.steps);
    case Command::kTiles:
      std::cerr << "carc: tiles reports on The City's tile set only\n";
      return 2;
    case Command::kReplay:
      break;  // a file: RunOnFile
  }
  return 2;
}

int Run(const Common& common, const Args& args) {
  const auto custom_tiles = LoadTiles(common);
  if (!custom_tiles) return 2;
  if (!args.path.empty()) return RunOnFile(common, args, *custom_tiles);
  const auto choice = Choose(common.rule_set, *custom_tiles, common);
  if (!choice) return 2;
  if (common.rule_set == city::kRuleSetId) return RunCity(args, choice->tiles);
  return RunOther(args, *choice);
}

}  // namespace

int Main(int argc, char** argv) {
  CLI::App app{"carc: rules engine tool for Carcassonne: The City and Carcassonne (the River)"};
  app.require_subcommand(1);
  // Options of the app may also follow the subcommand: `carc selfplay --rule-set carcassonne`.
  app.fallthrough();
  Common common;
  app.add_option("--tiles", common.tiles_file,
                 "tile-set file (default: the rule set's built-in one)")
      ->check(CLI::ExistingFile);
  auto* rule_set_option =
      app.add_option("--rule-set", common.rule_set,
                     "the game: the-city (default), carcassonne or the-castle; replay and show "
                     "take it from "
                     "the file's 'game' line");
  app.add_option("--option", common.options,
                 "an option of the rule set as name=value, e.g. river=0 (repeatable)")
      ->allow_extra_args(false);  // one pair each time, so a file may follow

  Args args;
  const auto policy_names = CLI::IsMember({"random", "eager"});
  const char* players_help =
      "players (2-4; carcassonne: 2-5; the-castle: 2; default 4, or the "
      "most the game allows)";
  auto* selfplay =
      app.add_subcommand("selfplay", "play random legal games; one JSON line per game");
  selfplay->add_option("-n,--games", args.games, "number of games (seeds seed, seed+1, ...)")
      ->check(CLI::Range(1, 100000000));
  selfplay->add_option("-s,--seed", args.seed, "seed of the first game");
  selfplay->add_option("-p,--players", args.players, players_help)->check(CLI::Range(2, 5));
  selfplay->add_flag("--trace", args.trace, "print every action and event as JSON lines");
  selfplay->add_option("--policy", args.policy_name, "how seats choose: random (uniform) or eager")
      ->check(policy_names);

  auto* record = app.add_subcommand("record", "play one random game and print its action list");
  record->add_option("-s,--seed", args.seed, "seed");
  record->add_option("-p,--players", args.players, players_help)->check(CLI::Range(2, 5));
  record->add_flag(
      "--order", args.with_order,
      "write the stacks' order into the header (always, for carcassonne and the-castle)");

  std::string replay_path = "-";
  auto* replay = app.add_subcommand("replay", "re-apply an action list and print the final state");
  replay->add_option("file", replay_path,
                     "action-list file or exported game (JSON), or - for standard input");

  auto* show = app.add_subcommand("show", "draw a game as text");
  show->add_option("file", args.path, "action-list file (or - for standard input)");
  show->add_option("-s,--seed", args.seed, "without a file: seed of a random game");
  show->add_option("-p,--players", args.players, std::string("without a file: ") + players_help)
      ->check(CLI::Range(2, 5));
  show->add_option("--steps", args.steps, "without a file: stop after this many actions");

  auto* tiles = app.add_subcommand("tiles", "the tile set's contents and R30 statistics");
  tiles->add_option("-n,--games", args.stat_games, "simulated games (0: contents only)")
      ->check(CLI::Range(0, 10000000));
  tiles->add_option("-s,--seed", args.seed, "seed of the first game");
  tiles->add_option("-p,--players", args.players, "players (2-4)")->check(CLI::Range(2, 4));
  tiles->add_option("--policy", args.policy_name, "how seats choose: random (uniform) or eager")
      ->check(policy_names);

  tool::ArenaSetup arena_setup;
  std::optional<int> arena_playout_steps;
  std::string level_a = "greedy", level_b = "strong";
  bool arena_header = false;
  const auto level_names = CLI::IsMember({"random", "greedy", "strong"});
  auto* arena = app.add_subcommand(
      "arena", "seeded games between two bot levels; prints a Markdown table row (docs/bots.md)");
  arena->add_option("-n,--games", arena_setup.games, "number of games (even: seats balance)")
      ->check(CLI::Range(1, 10000000));
  arena->add_option("-s,--seed", arena_setup.seed, "seed of the first pair of games");
  arena->add_option("-p,--players", arena_setup.players, "players (2 or 4; half the seats each)")
      ->check(CLI::IsMember({2, 4}));
  arena->add_option("-a,--a", level_a, "level A: random, greedy or strong")->check(level_names);
  arena->add_option("-b,--b", level_b, "level B: random, greedy or strong")->check(level_names);
  arena
      ->add_option("--playouts", arena_setup.budget.playouts,
                   "the strong bot's playouts per decision")
      ->check(CLI::Range(1, 100000000));
  arena
      ->add_option("--playout-steps", arena_playout_steps,
                   "the strong bot's playout horizon: actions per playout (0: to the game's end; "
                   "default: the rule set's own)")
      ->check(CLI::Range(0, 1000000));
  int64_t arena_ms = 0;
  arena->add_option("--max-ms", arena_ms, "the strong bot's time per decision in ms (0: none)")
      ->check(CLI::Range(int64_t{0}, int64_t{3600000}));
  arena->add_option("-j,--threads", arena_setup.threads, "games played at once")
      ->check(CLI::Range(1, 256));
  arena->add_flag("--header", arena_header, "print the table's header first");

  CLI11_PARSE(app, argc, argv);
  if (arena->parsed()) {
    arena_setup.a = *bots::ParseLevel(level_a);
    arena_setup.b = *bots::ParseLevel(level_b);
    arena_setup.budget.max_microseconds = arena_ms * 1000;
    const auto custom_tiles = LoadTiles(common);
    if (!custom_tiles) return 2;
    const auto choice = Choose(common.rule_set, *custom_tiles, common);
    if (!choice) return 2;
    arena_setup.budget.playout_steps =
        bots::PlayoutStepsFor(choice->rule_set->Type(), arena_playout_steps);
    return tool::RunArenaCommand(*choice, arena_setup, arena_header);
  }
  common.rule_set_given = rule_set_option->count() > 0;
  for (const CLI::App* command : {selfplay, record, show, tiles}) {
    args.players_given = args.players_given || command->count("--players") > 0;
  }
  if (record->parsed()) args.command = Command::kRecord;
  if (replay->parsed()) {
    args.command = Command::kReplay;
    args.path = replay_path;
  }
  if (show->parsed()) args.command = Command::kShow;
  if (tiles->parsed()) args.command = Command::kTiles;
  return Run(common, args);
}

int main(int argc, char** argv) {
  // The engine reports problems as values; this catches what the libraries may throw (a
  // failed allocation, an I/O stream error) so that the tool always ends with a message.
  try {
    return Main(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "carc: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "carc: unexpected error\n";
  }
  return 3;
}
