#include "arena.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <thread>
#include <variant>
#include <vector>

#include "core/hash.h"

namespace carc::tool {
namespace {

struct GameOutcome {
  std::vector<int> scores;
  std::vector<bool> seat_is_a;
  int64_t decisions = 0;
  std::string error;
};

bool SeatIsA(int game, int seat) { return (seat + game) % 2 == 0; }

GameOutcome PlayOne(const GameChoice& choice, const ArenaSetup& setup, int game) {
  GameOutcome outcome;
  const uint64_t game_seed = setup.seed + static_cast<uint64_t>(game / 2);
  auto created = choice.rule_set->NewGame(setup.players, choice.options, game_seed);
  if (auto* error = std::get_if<core::RuleError>(&created)) {
    outcome.error = error->message;
    return outcome;
  }
  std::unique_ptr<core::State> state = std::get<std::unique_ptr<core::State>>(std::move(created));
  const std::unique_ptr<bots::Bot> a = bots::MakeBot(setup.a, setup.budget);
  const std::unique_ptr<bots::Bot> b = bots::MakeBot(setup.b, setup.budget);
  for (int seat = 0; seat < setup.players; ++seat) outcome.seat_is_a.push_back(SeatIsA(game, seat));
  uint64_t step = 0;
  while (!state->IsOver()) {
    const core::Actor actor = state->CurrentActor();
    ++step;
    std::string action;
    if (actor == core::kChanceActor) {
      action = state->LegalActions().front();
    } else {
      const bots::Bot& bot = SeatIsA(game, actor) ? *a : *b;
      action = bot.Choose(*state, core::Mix64(core::Mix64(game_seed) ^ step));
      ++outcome.decisions;
    }
    if (auto error = state->Apply(actor, action, nullptr)) {
      outcome.error = "a bot's action was refused: " + action + ": " + error->message;
      return outcome;
    }
  }
  outcome.scores = state->Scores();
  return outcome;
}

std::string Percent(double part, int whole) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", whole > 0 ? 100.0 * part / whole : 0.0);
  return text;
}

std::string Fixed(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

}  // namespace

std::variant<ArenaResult, std::string> RunArena(const GameChoice& choice, const ArenaSetup& setup) {
  auto trial = choice.rule_set->NewGame(setup.players, choice.options, setup.seed);
  if (auto* error = std::get_if<core::RuleError>(&trial)) return error->message;
  std::vector<GameOutcome> outcomes(static_cast<size_t>(setup.games));
  std::atomic<int> next{0};
  const auto work = [&] {
    for (int g = next++; g < setup.games; g = next++) {
      outcomes[static_cast<size_t>(g)] = PlayOne(choice, setup, g);
    }
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < setup.threads; ++t) threads.emplace_back(work);
  work();
  for (std::thread& t : threads) t.join();

  ArenaResult result;
  double a_seat_scores = 0, b_seat_scores = 0;
  int a_seats = 0, b_seats = 0;
  for (const GameOutcome& o : outcomes) {
    if (!o.error.empty()) return o.error;
    int best = o.scores.front();
    for (int s : o.scores) best = std::max(best, s);
    int at_top = 0;
    for (int s : o.scores) at_top += s == best ? 1 : 0;
    double a_sum = 0, b_sum = 0;
    int a_count = 0, b_count = 0;
    for (size_t seat = 0; seat < o.scores.size(); ++seat) {
      const double share = o.scores[seat] == best ? 1.0 / at_top : 0.0;
      if (o.seat_is_a[seat]) {
        result.a_wins += share;
        a_sum += o.scores[seat];
        ++a_count;
      } else {
        result.b_wins += share;
        b_sum += o.scores[seat];
        ++b_count;
      }
    }
    a_seat_scores += a_sum;
    b_seat_scores += b_sum;
    a_seats += a_count;
    b_seats += b_count;
    result.margin += a_sum / a_count - b_sum / b_count;
    result.decisions += o.decisions;
    ++result.games;
  }
  if (result.games > 0) {
    result.a_score = a_seat_scores / a_seats;
    result.b_score = b_seat_scores / b_seats;
    result.margin /= result.games;
  }
  return result;
}

std::string LevelLabel(bots::Level level, const bots::Budget& budget) {
  std::string label(bots::ToString(level));
  if (level != bots::Level::kStrong) return label;
  label += "/" + std::to_string(budget.playouts);
  if (budget.playout_steps > 0) label += "h" + std::to_string(budget.playout_steps);
  return label;
}

std::string ArenaHeader() {
  return "| rule set | players | A vs B | games | A wins | B wins | A score | B score | margin "
         "(A-B) |\n"
         "|---|---|---|---|---|---|---|---|---|";
}

std::string ArenaRow(const GameChoice& choice, const ArenaSetup& setup, const ArenaResult& result) {
  std::string game = choice.rule_set->Type().id;
  const std::string options = core::FormatOptions(choice.options);
  if (!options.empty()) game += " (" + options + ")";
  const std::string a = LevelLabel(setup.a, setup.budget);
  const std::string b = LevelLabel(setup.b, setup.budget);
  return "| " + game + " | " + std::to_string(setup.players) + " | " + a + " vs " + b + " | " +
         std::to_string(result.games) + " | " + Percent(result.a_wins, result.games) + " | " +
         Percent(result.b_wins, result.games) + " | " + Fixed(result.a_score) + " | " +
         Fixed(result.b_score) + " | " + Fixed(result.margin) + " |";
}

int RunArenaCommand(const GameChoice& choice, const ArenaSetup& setup, bool header) {
  const auto result = RunArena(choice, setup);
  if (const auto* error = std::get_if<std::string>(&result)) {
    std::cerr << "carc: " << *error << "\n";
    return 2;
  }
  if (header) std::cout << ArenaHeader() << "\n";
  std::cout << ArenaRow(choice, setup, std::get<ArenaResult>(result)) << "\n";
  return 0;
}

}  // namespace carc::tool
