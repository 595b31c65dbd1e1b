// `carc arena`: seeded games between two bot levels (engine/bots/), played in parallel, summed up
// as one row of a Markdown table (docs/bots.md).
//
// Seats: level A takes the even seats and level B the odd ones in even games, and the other way
// round in odd games (2 players: A-B, B-A; 4 players: A-B-A-B, B-A-B-A), so with an even number
// of games each level sits in each position equally often. The two games of a pair are dealt the
// same tiles (game seed = seed + game / 2). Every decision's seed follows from the game's seed
// and the decision's number, so the results do not depend on --threads (without a time budget).
#pragma once

#include <cstdint>
#include <string>

#include "bots/bot.h"
#include "rule_sets.h"

namespace carc::tool {

struct ArenaSetup {
  int players = 2;
  int games = 100;
  uint64_t seed = 1;
  bots::Level a = bots::Level::kRandom;
  bots::Level b = bots::Level::kGreedy;
  bots::Budget budget;  // for a strong bot
  int threads = 1;
};

struct ArenaResult {
  int games = 0;
  double a_wins = 0;  // games won, a tie for first split evenly between the seats in it
  double b_wins = 0;
  double a_score = 0;     // mean final score of a seat of A
  double b_score = 0;     // mean final score of a seat of B
  double margin = 0;      // mean over games of (A's mean seat score - B's)
  int64_t decisions = 0;  // bot decisions made
};

// Plays the games; a message if a game cannot be created (players out of range, ...).
std::variant<ArenaResult, std::string> RunArena(const GameChoice& choice, const ArenaSetup& setup);
// A level as a row names it: "greedy"; the strong bot with its budget, "strong/400" (playouts per
// decision), "strong/400h4" with a playout horizon of 4 actions.
std::string LevelLabel(bots::Level level, const bots::Budget& budget);
// "| rule set | players | A vs B | games | A wins | B wins | A score | B score | margin |".
std::string ArenaHeader();
std::string ArenaRow(const GameChoice& choice, const ArenaSetup& setup, const ArenaResult& result);
// `carc arena`: prints the header (if asked) and the row; status 2 on a bad setup.
int RunArenaCommand(const GameChoice& choice, const ArenaSetup& setup, bool header);

}  // namespace carc::tool
