// Engine benchmarks: whole random games per second, legal-action generation per decision, the
// cost of cloning, and the memory of one game state, for The City, for Carcassonne (with and
// without the River) and for The Castle; random playouts and the strong bot's decisions
// (docs/bots.md). Run:
//   ./build/release/bench/engine_bench            (docs/performance.md has the figures)
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "bots/bot.h"
#include "castle/default_data.h"
#include "castle/game.h"
#include "castle/random_play.h"
#include "city/default_tiles.h"
#include "city/game.h"
#include "city/random_play.h"
#include "core/rule_set.h"
#include "registry.h"
#include "river/default_tiles.h"
#include "river/game.h"
#include "river/random_play.h"

namespace carc::city {
namespace {

Game NewGame(uint64_t seed, int players) {
  Config config;
  config.players = players;
  return std::get<Game>(Game::Create(DefaultTileSet(), config, seed));
}

// Complete random games with 4 players (2, 3 with the argument), one after the other.
void BM_RandomGame(benchmark::State& state) {
  const int players = static_cast<int>(state.range(0));
  PlayBuffers buffers;
  uint64_t seed = 1;
  int64_t actions = 0;
  for (auto _ : state) {
    Game game = NewGame(seed, players);
    core::Random random = ChoiceRandom(seed++);
    while (RandomStep(game, random, buffers)) {
    }
    actions += static_cast<int64_t>(game.History().size());
    benchmark::DoNotOptimize(game.Hash());
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["actions_per_game"] =
      benchmark::Counter(static_cast<double>(actions), benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_RandomGame)->Arg(4)->Arg(3)->Arg(2)->Unit(benchmark::kMicrosecond);

// Positions met in random games, taken at every decision of the given kind (or all kinds).
std::vector<Game> Positions(std::optional<DecisionKind> kind, int games) {
  std::vector<Game> positions;
  PlayBuffers buffers;
  for (int g = 0; g < games; ++g) {
    Game game = NewGame(1000 + static_cast<uint64_t>(g), 4);
    core::Random random = ChoiceRandom(1000 + static_cast<uint64_t>(g));
    while (!game.IsOver()) {
      if (!kind || game.CurrentDecision().kind == *kind) positions.push_back(game);
      RandomStep(game, random, buffers);
    }
  }
  return positions;
}

void LegalActionsOver(benchmark::State& state, const std::vector<Game>& positions) {
  std::vector<Action> legal;
  legal.reserve(1024);
  size_t i = 0;
  int64_t produced = 0;
  for (auto _ : state) {
    positions[i].LegalActions(&legal);
    produced += static_cast<int64_t>(legal.size());
    benchmark::DoNotOptimize(legal.data());
    if (++i == positions.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["actions_per_decision"] =
      benchmark::Counter(static_cast<double>(produced), benchmark::Counter::kAvgIterations);
}

// Legal actions of any decision, in proportion to how often each occurs in play.
void BM_LegalActionsAnyDecision(benchmark::State& state) {
  static const std::vector<Game> positions = Positions(std::nullopt, 20);
  LegalActionsOver(state, positions);
}
BENCHMARK(BM_LegalActionsAnyDecision);

// Legal tile placements, the costliest decision (frontier x rotations, wall rules).
void BM_LegalActionsPlaceTile(benchmark::State& state) {
  static const std::vector<Game> positions = Positions(DecisionKind::kPlaceTile, 20);
  LegalActionsOver(state, positions);
}
BENCHMARK(BM_LegalActionsPlaceTile);

// Placements once the wall exists (R8 checks on every frontier cell).
void BM_LegalActionsPlaceTileWithWall(benchmark::State& state) {
  static const std::vector<Game> positions = [] {
    std::vector<Game> all = Positions(DecisionKind::kPlaceTile, 60);
    std::vector<Game> walled;
    for (Game& g : all) {
      if (g.chain().HasGate()) walled.push_back(std::move(g));
    }
    return walled;
  }();
  LegalActionsOver(state, positions);
}
BENCHMARK(BM_LegalActionsPlaceTileWithWall);

void BM_CloneGame(benchmark::State& state) {
  static const std::vector<Game> positions = Positions(DecisionKind::kPlaceTile, 2);
  const Game& game = positions[positions.size() / 2];
  for (auto _ : state) {
    Game copy = game;
    benchmark::DoNotOptimize(&copy);
  }
}
BENCHMARK(BM_CloneGame);

// The memory of one game state: the value itself plus its history's heap buffer.
void BM_GameStateMemory(benchmark::State& state) {
  Game game = NewGame(7, 4);
  PlayBuffers buffers;
  core::Random random = ChoiceRandom(7);
  while (RandomStep(game, random, buffers)) {
  }
  for (auto _ : state) benchmark::DoNotOptimize(game.Hash());
  const double history_bytes =
      static_cast<double>(game.History().capacity() * sizeof(HistoryEntry));
  state.counters["sizeof_Game_bytes"] = static_cast<double>(sizeof(Game));
  state.counters["history_heap_bytes"] = history_bytes;
  state.counters["total_bytes"] = static_cast<double>(sizeof(Game)) + history_bytes;
}
BENCHMARK(BM_GameStateMemory)->Iterations(1);

}  // namespace
}  // namespace carc::city

namespace carc::river {
namespace {

Game NewGame(uint64_t seed, int players, bool river) {
  Config config;
  config.players = players;
  config.river = river;
  return std::get<Game>(Game::Create(DefaultTileSet(), config, seed));
}

// Complete random games of Carcassonne: players, then 1 with the River (0 without).
void BM_CarcassonneRandomGame(benchmark::State& state) {
  const int players = static_cast<int>(state.range(0));
  const bool river = state.range(1) != 0;
  PlayBuffers buffers;
  uint64_t seed = 1;
  int64_t actions = 0;
  for (auto _ : state) {
    Game game = NewGame(seed, players, river);
    core::Random random = ChoiceRandom(seed++);
    while (RandomStep(game, random, buffers)) {
    }
    actions += static_cast<int64_t>(game.History().size());
    benchmark::DoNotOptimize(game.Hash());
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["actions_per_game"] =
      benchmark::Counter(static_cast<double>(actions), benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_CarcassonneRandomGame)
    ->Args({4, 1})
    ->Args({2, 1})
    ->Args({5, 1})
    ->Args({4, 0})
    ->Unit(benchmark::kMicrosecond);

// Legal tile placements of Carcassonne, at every placement of 20 random games with the River.
void BM_CarcassonneLegalActionsPlaceTile(benchmark::State& state) {
  static const std::vector<Game> positions = [] {
    std::vector<Game> out;
    PlayBuffers buffers;
    for (uint64_t g = 0; g < 20; ++g) {
      Game game = NewGame(1000 + g, 4, true);
      core::Random random = ChoiceRandom(1000 + g);
      while (!game.IsOver()) {
        if (game.CurrentDecision().kind == DecisionKind::kPlaceTile) out.push_back(game);
        RandomStep(game, random, buffers);
      }
    }
    return out;
  }();
  std::vector<Action> legal;
  legal.reserve(1024);
  size_t i = 0;
  int64_t produced = 0;
  for (auto _ : state) {
    positions[i].LegalActions(&legal);
    produced += static_cast<int64_t>(legal.size());
    benchmark::DoNotOptimize(legal.data());
    if (++i == positions.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["actions_per_decision"] =
      benchmark::Counter(static_cast<double>(produced), benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_CarcassonneLegalActionsPlaceTile);

void BM_CarcassonneGameStateMemory(benchmark::State& state) {
  Game game = NewGame(7, 4, true);
  PlayBuffers buffers;
  core::Random random = ChoiceRandom(7);
  while (RandomStep(game, random, buffers)) {
  }
  for (auto _ : state) benchmark::DoNotOptimize(game.Hash());
  const double history_bytes =
      static_cast<double>(game.History().capacity() * sizeof(HistoryEntry));
  state.counters["sizeof_Game_bytes"] = static_cast<double>(sizeof(Game));
  state.counters["history_heap_bytes"] = history_bytes;
}
BENCHMARK(BM_CarcassonneGameStateMemory)->Iterations(1);

}  // namespace
}  // namespace carc::river

namespace carc::castle {
namespace {

Game NewGame(uint64_t seed) {
  Config config;
  config.layout = DefaultLayout();
  return std::get<Game>(Game::Create(DefaultTileSet(), config, seed));
}

// Complete random games of The Castle (two players): uniform choices (0) or eager ones (1), as
// `carc selfplay --rule-set the-castle` plays them.
void BM_CastleRandomGame(benchmark::State& state) {
  const Policy policy = state.range(0) != 0 ? Policy::kEager : Policy::kUniform;
  PlayBuffers buffers;
  uint64_t seed = 1;
  int64_t actions = 0;
  for (auto _ : state) {
    Game game = NewGame(seed);
    core::Random random = ChoiceRandom(seed++);
    while (RandomStep(game, random, buffers, policy)) {
    }
    actions += static_cast<int64_t>(game.History().size());
    benchmark::DoNotOptimize(game.Hash());
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["actions_per_game"] =
      benchmark::Counter(static_cast<double>(actions), benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_CastleRandomGame)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

void BM_CastleGameStateMemory(benchmark::State& state) {
  Game game = NewGame(7);
  PlayBuffers buffers;
  core::Random random = ChoiceRandom(7);
  while (RandomStep(game, random, buffers)) {
  }
  for (auto _ : state) benchmark::DoNotOptimize(game.Hash());
  state.counters["sizeof_Game_bytes"] = static_cast<double>(sizeof(Game));
  state.counters["history_heap_bytes"] =
      static_cast<double>(game.History().capacity() * sizeof(HistoryEntry));
}
BENCHMARK(BM_CastleGameStateMemory)->Iterations(1);

}  // namespace
}  // namespace carc::castle

// ---------------------------------------------------------------------------------------------
// Bots (engine/bots/), through the rule-set boundary: random playouts from a position 20 actions
// into a 2-player game, by State::PlayOut (the typed engine) and by LegalActions/Apply (text),
// and the strong bot's decisions, whose items are playouts. Argument: 0 The City, 1 Carcassonne
// (with the River), 2 The Castle.
namespace carc::bots {
namespace {

constexpr const char* kBenchRuleSets[] = {"the-city", "carcassonne", "the-castle"};

std::unique_ptr<core::State> Position(int64_t rule_set, uint64_t seed) {
  static const RuleSetRegistry registry = DefaultRuleSets();
  auto created = registry.Find(kBenchRuleSets[rule_set])->NewGame(2, {}, seed);
  std::unique_ptr<core::State> state = std::get<std::unique_ptr<core::State>>(std::move(created));
  core::Random random(seed);
  for (int i = 0; i < 20 || state->CurrentActor() == core::kChanceActor; ++i) {
    const std::vector<std::string> legal = state->LegalActions();
    (void)state->Apply(state->CurrentActor(),
                       legal[static_cast<size_t>(random.Below(legal.size()))], nullptr);
  }
  return state;
}

void BM_PlayoutTyped(benchmark::State& state) {
  const std::unique_ptr<core::State> position = Position(state.range(0), 1);
  uint64_t seed = 1;
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        position->Clone()->PlayOut(seed++, core::Policy::kUniform, core::kToTheEnd));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_PlayoutTyped)->DenseRange(0, 2)->Unit(benchmark::kMicrosecond);

void BM_PlayoutText(benchmark::State& state) {
  const std::unique_ptr<core::State> position = Position(state.range(0), 1);
  uint64_t seed = 1;
  for (auto _ : state) {
    const std::unique_ptr<core::State> game = position->Clone();
    core::Random random(seed++);
    while (!game->IsOver()) {
      const std::vector<std::string> legal = game->LegalActions();
      (void)game->Apply(game->CurrentActor(),
                        legal[static_cast<size_t>(random.Below(legal.size()))], nullptr);
    }
    benchmark::DoNotOptimize(game->Hash());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_PlayoutText)->DenseRange(0, 2)->Unit(benchmark::kMicrosecond);

// One decision of the strong bot with 200 playouts; items: playouts (items_per_second is the
// bot's playouts per second on one core, the greedy ranking of the root included).
void BM_StrongBotDecision(benchmark::State& state) {
  constexpr int kPlayouts = 200;
  const std::unique_ptr<core::State> position = Position(state.range(0), 1);
  const std::unique_ptr<Bot> bot = MakeBot(Level::kStrong, Budget{.playouts = kPlayouts});
  uint64_t seed = 1;
  for (auto _ : state) benchmark::DoNotOptimize(bot->Choose(*position, seed++));
  state.SetItemsProcessed(state.iterations() * kPlayouts);
}
BENCHMARK(BM_StrongBotDecision)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace carc::bots

BENCHMARK_MAIN();
