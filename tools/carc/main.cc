// carc: the command-line tool of the Carcassonne: The City engine.
//
//   carc selfplay   random legal games, one JSON line per game (--trace: every action and event)
//   carc record     one random game as an action-list file
//   carc replay     re-apply an action list or an exported game (JSON); print the final state as
//                   JSON, or the first illegal action (or, for an export, differing state hash)
//   carc show       a game as a text picture (from a file, or a seeded random game)
//   carc tiles      the tile set's contents and its balance over simulated games (R30)
//
// Formats: docs/formats.md. The tool depends on the engine only.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "city/default_tiles.h"
#include "city/game.h"
#include "city/notation.h"
#include "city/random_play.h"
#include "city/transcript.h"
#include "game_json.h"
#include "json.h"
#include "render.h"
#include "stats.h"

namespace {

using namespace carc;
using nlohmann::json;

struct Common {
  std::string tiles_file;
};

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

std::shared_ptr<const core::TileSet> LoadTiles(const Common& common) {
  if (common.tiles_file.empty()) return city::DefaultTileSet();
  const auto text = ReadAll(common.tiles_file);
  if (!text) {
    std::cerr << "carc: cannot read tile set " << common.tiles_file << "\n";
    return nullptr;
  }
  auto parsed = core::ParseTileSet(*text);
  if (auto* error = std::get_if<core::ParseError>(&parsed)) {
    std::cerr << "carc: " << common.tiles_file << ": " << error->ToString() << "\n";
    return nullptr;
  }
  return std::get<std::shared_ptr<const core::TileSet>>(parsed);
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

int RunSelfplay(const Common& common, int games, uint64_t seed, int players, bool trace,
                city::Policy policy) {
  auto tiles = LoadTiles(common);
  if (!tiles) return 2;
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

int RunRecord(const Common& common, uint64_t seed, int players, bool with_order) {
  auto tiles = LoadTiles(common);
  if (!tiles) return 2;
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

std::optional<Input> ReadInput(const std::string& path) {
  const auto text = ReadAll(path);
  if (!text) {
    std::cerr << "carc: cannot read " << path << "\n";
    return std::nullopt;
  }
  Input input;
  if (tool::LooksLikeJson(*text)) {
    auto parsed = tool::ParseGameJson(*text);
    if (auto* error = std::get_if<std::string>(&parsed)) {
      std::cerr << "carc: " << path << ": " << *error << "\n";
      return std::nullopt;
    }
    input.game = std::get<tool::GameJson>(std::move(parsed));
    input.exported = true;
    return input;
  }
  auto parsed = city::ParseTranscript(*text);
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
std::optional<city::Game> ReplayFile(const Common& common, const std::string& path,
                                     std::optional<Failure>* failure) {
  auto tiles = LoadTiles(common);
  if (!tiles) return std::nullopt;
  const auto input = ReadInput(path);
  if (!input) return std::nullopt;
  city::ReplayResult result = city::Replay(tiles, city::Config{}, input->game.transcript);
  // A hash that differs comes before the illegal action, if any: only applied actions are checked.
  if (input->exported && result.game) *failure = CheckHashes(*result.game, result, input->game);
  if (!*failure && result.failure) *failure = IllegalAction(*result.failure, *input);
  if (*failure) std::cerr << "carc: " << path << ": " << (*failure)->message << "\n";
  return std::move(result.game);
}

int RunReplay(const Common& common, const std::string& path) {
  std::optional<Failure> failure;
  auto game = ReplayFile(common, path, &failure);
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

int RunShow(const Common& common, const std::string& path, uint64_t seed, int players, int steps) {
  std::optional<city::Game> game;
  if (!path.empty()) {
    std::optional<Failure> failure;
    game = ReplayFile(common, path, &failure);
    if (!game) return 2;
  } else {
    auto tiles = LoadTiles(common);
    if (!tiles) return 2;
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

}  // namespace

int Main(int argc, char** argv) {
  CLI::App app{"carc: rules engine tool for Carcassonne: The City"};
  app.require_subcommand(1);
  Common common;
  app.add_option("--tiles", common.tiles_file,
                 "tile-set file (default: the built-in reconstruction)")
      ->check(CLI::ExistingFile);

  int games = 1;
  uint64_t seed = 1;
  int players = 4;
  bool trace = false;
  std::string policy_name = "random";
  const auto policy_names = CLI::IsMember({"random", "eager"});
  auto* selfplay =
      app.add_subcommand("selfplay", "play random legal games; one JSON line per game");
  selfplay->add_option("-n,--games", games, "number of games (seeds seed, seed+1, ...)")
      ->check(CLI::Range(1, 100000000));
  selfplay->add_option("-s,--seed", seed, "seed of the first game");
  selfplay->add_option("-p,--players", players, "players (2-4)")->check(CLI::Range(2, 4));
  selfplay->add_flag("--trace", trace, "print every action and event as JSON lines");
  selfplay->add_option("--policy", policy_name, "how seats choose: random (uniform) or eager")
      ->check(policy_names);

  bool with_order = false;
  auto* record = app.add_subcommand("record", "play one random game and print its action list");
  record->add_option("-s,--seed", seed, "seed");
  record->add_option("-p,--players", players, "players (2-4)")->check(CLI::Range(2, 4));
  record->add_flag("--order", with_order, "write the stacks' order into the header");

  std::string path = "-";
  auto* replay = app.add_subcommand("replay", "re-apply an action list and print the final state");
  replay->add_option("file", path,
                     "action-list file or exported game (JSON), or - for standard input");

  std::string show_path;
  int steps = -1;
  auto* show = app.add_subcommand("show", "draw a game as text");
  show->add_option("file", show_path, "action-list file (or - for standard input)");
  show->add_option("-s,--seed", seed, "without a file: seed of a random game");
  show->add_option("-p,--players", players, "without a file: players (2-4)")
      ->check(CLI::Range(2, 4));
  show->add_option("--steps", steps, "without a file: stop after this many actions");

  int stat_games = 10000;
  auto* tiles = app.add_subcommand("tiles", "the tile set's contents and R30 statistics");
  tiles->add_option("-n,--games", stat_games, "simulated games (0: contents only)")
      ->check(CLI::Range(0, 10000000));
  tiles->add_option("-s,--seed", seed, "seed of the first game");
  tiles->add_option("-p,--players", players, "players (2-4)")->check(CLI::Range(2, 4));
  tiles->add_option("--policy", policy_name, "how seats choose: random (uniform) or eager")
      ->check(policy_names);

  CLI11_PARSE(app, argc, argv);
  const city::Policy policy =
      policy_name == "eager" ? city::Policy::kEager : city::Policy::kUniform;
  if (selfplay->parsed()) return RunSelfplay(common, games, seed, players, trace, policy);
  if (record->parsed()) return RunRecord(common, seed, players, with_order);
  if (replay->parsed()) return RunReplay(common, path);
  if (show->parsed()) return RunShow(common, show_path, seed, players, steps);
  if (tiles->parsed()) {
    auto set = LoadTiles(common);
    if (!set) return 2;
    std::cout << tool::TileSetReport(set, stat_games, seed, players, policy).dump(2) << "\n";
    return 0;
  }
  return 0;
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
