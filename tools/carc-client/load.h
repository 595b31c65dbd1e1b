// Games of bots on a server: `carc-client bots` (one game) and `carc-client load` (many at once,
// measured). Every seat is a Player on its own connection; one io_context runs them all on a
// few threads, each player on its own strand.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/tileset.h"
#include "player.h"
#include "url.h"

namespace carc::client {

struct GamesOptions {
  ServerUrl url;
  Endpoints endpoints;
  // The shards behind the proxy at `url` (PlayerConfig::shards); empty for a server alone.
  std::vector<std::string> shards;
  int games = 1;  // played at the same time
  int seats = 4;  // within the rule set's player counts, every one a bot
  std::string rule_set = "the-city";
  std::map<std::string, int32_t> options;  // CreateGame's, by name
  std::optional<uint64_t>
      seed;               // game k (0, 1, ...) is created with seed + k; absent: the server's
  uint64_t bot_seed = 1;  // the bots' choices
  Policy policy = Policy::kRandom;
  int threads = 2;                 // io_context threads
  std::chrono::seconds limit{30};  // then every bot stops, finished or not
  bool repeat = false;             // a slot whose game ended starts another, until the limit
  int max_total_games = 5000;      // with repeat: never more games than this
  bool print_moves = false;
  std::shared_ptr<const core::TileSet> tiles;  // the server's for rule_set (GetTileSet)
  std::chrono::milliseconds think{0};  // each bot waits this long before each move: the pace
  std::optional<int> server_pid;       // the server's process, measured from /proc (Linux)
  uint64_t leave_at_sequence = 0;      // PlayerConfig::leave_at_sequence
};

// A process's CPU time and memory, read from /proc/PID/stat and /proc/PID/status.
struct ProcessUsage {
  double cpu_seconds = 0;  // user + system, since the process started
  double rss_mb = 0;       // resident now (VmRSS)
  double peak_rss_mb = 0;  // the most it was resident (VmHWM)
};
// Nullopt when the process cannot be read (gone, not Linux, another user's).
std::optional<ProcessUsage> ReadProcessUsage(int pid);

// Lets this process open `connections` sockets and a few files more: raises its descriptor limit
// (RLIMIT_NOFILE) up to the hard limit when needed. Nullopt when it can; else what is short.
std::optional<std::string> RaiseDescriptorLimit(uint64_t connections);

struct GameResult {
  std::string game_id;
  bool finished = false;            // every seat saw the end
  bool seats_agree = true;          // every seat ended with the same sequence and state hash
  std::vector<std::string> errors;  // the seats' failures
  // Seat 0's view, taken while the game's io_context lived: a Player must not outlive it (its
  // strand and timer belong to the io_context's services).
  std::string
      seat0_summary;  // FinishedGameJson, as JSON text (a json member's destructor may throw)
  std::map<std::string, uint64_t> seat0_errors;  // every Error seat 0 received, by code
};

struct GamesReport {
  double wall_seconds = 0;
  bool stopped_by_limit = false;
  std::vector<GameResult> games;
  PlayerStats totals;  // summed over every player; latency_ns holds every sample
  int players = 0;
  int players_failed = 0;
  std::optional<ProcessUsage> server_before, server_after;  // with GamesOptions::server_pid
};

GamesReport PlayGames(const GamesOptions& options);

// A game as one seat saw it: id, rule set, how it ended, sequence, state hash, scores, winners.
nlohmann::json FinishedGameJson(const Player& player);

// The load test's JSON report.
nlohmann::json LoadReport(const GamesOptions& options, const GamesReport& report);

}  // namespace carc::client
