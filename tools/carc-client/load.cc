#include "load.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cmath>
#include <fstream>
#include <sstream>
#include <thread>

#include "view.h"

namespace carc::client {

namespace asio = boost::asio;
using Clock = std::chrono::steady_clock;

namespace {

struct Slot {
  int index = 0;
  std::vector<std::shared_ptr<Player>> players;
  int running = 0;  // players not yet done
};

// Runs the games; every method below runs on `strand_` except Run.
class Runner {
 public:
  explicit Runner(const GamesOptions& options)
      : options_(options),
        strand_(asio::make_strand(io_)),
        deadline_(strand_),
        hard_stop_(strand_) {}

  GamesReport Run() {
    GamesReport report;
    if (options_.server_pid) report.server_before = ReadProcessUsage(*options_.server_pid);
    const Clock::time_point start = Clock::now();
    end_ = start;
    asio::post(strand_, [this] {
      deadline_.expires_after(options_.limit);
      deadline_.async_wait([this](const boost::system::error_code& ec) {
        if (!ec) StopAll();
      });
      for (int i = 0; i < options_.games; ++i) StartSlot(i);
    });
    // The bound of last resort: whatever happens, nothing runs long past the limit.
    hard_stop_.expires_after(options_.limit + std::chrono::seconds(15));
    hard_stop_.async_wait([this](const boost::system::error_code& ec) {
      if (!ec) io_.stop();
    });
    std::vector<std::thread> pool;
    for (int i = 1; i < options_.threads; ++i) pool.emplace_back([this] { io_.run(); });
    io_.run();
    for (auto& t : pool) t.join();

    if (options_.server_pid) report.server_after = ReadProcessUsage(*options_.server_pid);
    report.wall_seconds = std::chrono::duration<double>(end_ - start).count();
    report.stopped_by_limit = stopped_;
    report.games = std::move(results_);
    for (const auto& p : all_) {
      ++report.players;
      if (!p->error().empty()) ++report.players_failed;
      const PlayerStats& s = p->stats();
      PlayerStats& t = report.totals;
      t.moves_sent += s.moves_sent;
      t.moves_accepted += s.moves_accepted;
      t.deltas += s.deltas;
      t.rate_limited += s.rate_limited;
      t.lost_way += s.lost_way;
      t.resyncs += s.resyncs;
      t.reconnects += s.reconnects;
      for (const auto& [code, n] : s.errors) t.errors[code] += n;
      t.latency_ns.insert(t.latency_ns.end(), s.latency_ns.begin(), s.latency_ns.end());
      t.broadcast_ns.insert(t.broadcast_ns.end(), s.broadcast_ns.begin(), s.broadcast_ns.end());
      t.bytes_received += s.bytes_received;
      t.turn_ns.insert(t.turn_ns.end(), s.turn_ns.begin(), s.turn_ns.end());
      if (s.first_move && (!t.first_move || *s.first_move < *t.first_move)) {
        t.first_move = s.first_move;
      }
      if (s.last_delta && (!t.last_delta || *s.last_delta > *t.last_delta)) {
        t.last_delta = s.last_delta;
      }
    }
    return report;
  }

 private:
  void StartSlot(int index) {
    const int game = created_++;
    auto slot = std::make_shared<Slot>();
    slot->index = index;
    auto moves = std::make_shared<MoveClock>();
    for (int seat = 0; seat < options_.seats; ++seat) {
      PlayerConfig config;
      config.url = options_.url;
      config.endpoints = options_.endpoints;
      config.policy = options_.policy;
      config.seed = core::Mix64(options_.bot_seed ^ core::Mix64(static_cast<uint64_t>(game) << 3 |
                                                                static_cast<uint64_t>(seat)));
      config.name = "bot-" + std::to_string(seat);
      config.print_moves = options_.print_moves;
      // A lost bot is a failure to report, not to hide; a server that says it is closing (a
      // restart, an upgrade) is waited for, as players wait for it.
      config.reconnect_unannounced = false;
      config.shards = options_.shards;
      config.rule_set = options_.rule_set;
      config.tiles = options_.tiles;
      config.moves = moves;
      config.think = options_.think;
      config.leave_at_sequence = options_.leave_at_sequence;
      auto player = Player::Create(io_, config);
      if (seat == 0) {
        wire::CreateGame create;
        create.set_rule_set(options_.rule_set);
        create.mutable_options()->insert(options_.options.begin(), options_.options.end());
        create.set_seats(static_cast<uint32_t>(options_.seats));
        if (options_.seed) create.set_seed(*options_.seed + static_cast<uint64_t>(game));
        create.set_name("bots " + std::to_string(game));
        player->CreateAndJoin(create);
      } else {
        player->Join("", static_cast<uint32_t>(seat));
      }
      slot->players.push_back(player);
      all_.push_back(player);
    }
    slot->running = options_.seats;
    ++live_slots_;
    for (const auto& player : slot->players) {
      std::weak_ptr<Slot> weak = slot;
      Player::Callbacks callbacks;
      if (player == slot->players.front()) {
        callbacks.created = [this, weak](const std::string& id) {
          asio::post(strand_, [weak, id] {
            if (auto s = weak.lock()) {
              for (const auto& p : s->players) p->SetGame(id);
            }
          });
        };
      }
      callbacks.done = [this, slot, player] {
        asio::post(strand_, [this, slot, player] { PlayerDone(slot, player); });
      };
      player->Start(std::move(callbacks));
    }
  }

  void PlayerDone(const std::shared_ptr<Slot>& slot, const std::shared_ptr<Player>& player) {
    // A seat that failed before the end leaves the others waiting for it: stop them.
    if (!player->error().empty() && !player->finished()) {
      for (const auto& p : slot->players) p->Stop();
    }
    if (--slot->running > 0) return;
    results_.push_back(Result(*slot));
    --live_slots_;
    end_ = Clock::now();
    if (options_.repeat && !stopped_ && created_ < options_.max_total_games) {
      return StartSlot(slot->index);
    }
    if (live_slots_ == 0) {
      deadline_.cancel();
      hard_stop_.cancel();
    }
  }

  void StopAll() {
    stopped_ = true;
    for (const auto& p : all_) p->Stop();
  }

  static GameResult Result(const Slot& slot) {
    GameResult result;
    const Player& first = *slot.players.front();
    result.game_id = first.game_id();
    result.finished = true;
    for (size_t seat = 0; seat < slot.players.size(); ++seat) {
      const auto& p = slot.players[seat];
      result.finished = result.finished && p->finished();
      if (!p->error().empty()) {
        result.errors.push_back("seat " + std::to_string(seat) + ": " + p->error());
      }
      if (p->follower().started() != first.follower().started() ||
          p->follower().sequence() != first.follower().sequence() ||
          (p->follower().started() && p->follower().hash() != first.follower().hash())) {
        result.seats_agree = false;
      }
    }
    result.seat0_summary = FinishedGameJson(first).dump();
    result.seat0_errors = first.stats().errors;
    return result;
  }

  const GamesOptions& options_;
  asio::io_context io_;
  Connection::Strand strand_;
  asio::steady_timer deadline_;
  asio::steady_timer hard_stop_;
  std::vector<std::shared_ptr<Player>> all_;
  std::vector<GameResult> results_;
  int created_ = 0;
  int live_slots_ = 0;
  bool stopped_ = false;
  Clock::time_point end_;
};

double Millis(int64_t ns) { return std::round(static_cast<double>(ns) / 1e3) / 1e3; }

// count, mean, p50, p90, p99 and max of samples in ns, in milliseconds (nearest-rank
// percentiles: the smallest sample with at least that share of all samples at or below it).
nlohmann::json Distribution(std::vector<int64_t> samples) {
  std::sort(samples.begin(), samples.end());
  const auto rank = [&](double q) -> double {
    if (samples.empty()) return 0;
    const auto k = static_cast<size_t>(std::ceil(q * static_cast<double>(samples.size())));
    return Millis(samples[std::clamp<size_t>(k, 1, samples.size()) - 1]);
  };
  double sum = 0;
  for (const int64_t ns : samples) sum += static_cast<double>(ns);
  return {{"samples", samples.size()},
          {"mean", samples.empty()
                       ? 0.0
                       : Millis(static_cast<int64_t>(sum / static_cast<double>(samples.size())))},
          {"p50", rank(0.50)},
          {"p90", rank(0.90)},
          {"p99", rank(0.99)},
          {"max", samples.empty() ? 0.0 : Millis(samples.back())}};
}

// The server's share of the run: its CPU time (and as a share of one core over the run), its
// memory at the end and at its most.
nlohmann::json ServerUsageJson(const GamesReport& report) {
  if (!report.server_before || !report.server_after) return nullptr;
  const double cpu = report.server_after->cpu_seconds - report.server_before->cpu_seconds;
  const auto round2 = [](double x) { return std::round(x * 100) / 100; };
  return {{"cpu_seconds", round2(cpu)},
          {"cpu_percent_of_one_core",
           report.wall_seconds > 0 ? round2(100 * cpu / report.wall_seconds) : 0.0},
          {"rss_mb", round2(report.server_after->rss_mb)},
          {"peak_rss_mb", round2(report.server_after->peak_rss_mb)}};
}

}  // namespace

std::optional<std::string> RaiseDescriptorLimit(uint64_t connections) {
  constexpr uint64_t kSpare = 64;  // standard streams, /proc reads, the resolver
  const uint64_t needed = connections + kSpare;
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return "cannot read the descriptor limit";
  if (limit.rlim_cur >= needed) return std::nullopt;
  if (limit.rlim_max < needed) {
    return std::to_string(connections) + " connections need " + std::to_string(needed) +
           " file descriptors; this process may open at most " + std::to_string(limit.rlim_max) +
           " (raise the hard limit: ulimit -Hn)";
  }
  limit.rlim_cur = needed;
  if (setrlimit(RLIMIT_NOFILE, &limit) != 0) return "cannot raise the descriptor limit";
  return std::nullopt;
}

std::optional<ProcessUsage> ReadProcessUsage(int pid) {
  const std::string dir = "/proc/" + std::to_string(pid);
  std::ifstream stat(dir + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return std::nullopt;
  // After the command name (in parentheses, which may hold spaces): the state is field 3, and
  // utime and stime are fields 14 and 15, in clock ticks.
  const size_t close = line.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream fields(line.substr(close + 2));
  std::string field;
  double ticks = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) {
    if (i >= 14) ticks += std::stod(field);
  }
  ProcessUsage usage;
  usage.cpu_seconds = ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
  std::ifstream status(dir + "/status");
  while (std::getline(status, line)) {
    const auto kilobytes = [&line](const char* key) -> std::optional<double> {
      if (!line.starts_with(key)) return std::nullopt;
      return std::stod(line.substr(std::string(key).size()));
    };
    if (const auto kb = kilobytes("VmRSS:")) usage.rss_mb = *kb / 1024;
    if (const auto kb = kilobytes("VmHWM:")) usage.peak_rss_mb = *kb / 1024;
  }
  return usage;
}

nlohmann::json FinishedGameJson(const Player& player) {
  const protocol::Follower& follower = player.follower();
  if (!follower.started()) return nullptr;
  return {{"game_id", player.game_id()},
          {"rule_set", follower.rule_set()},
          {"end", EndedBy(follower)},
          {"sequence", follower.sequence()},
          {"state_hash", HashHex(follower.hash())},
          {"scores", ScoresJson(follower)},
          {"winners", Winners(follower)}};
}

GamesReport PlayGames(const GamesOptions& options) {
  Runner runner(options);
  return runner.Run();
}

nlohmann::json LoadReport(const GamesOptions& options, const GamesReport& report) {
  const PlayerStats& t = report.totals;
  int finished = 0, agree = 0;
  nlohmann::json failures = nlohmann::json::array();
  for (const GameResult& g : report.games) {
    finished += g.finished ? 1 : 0;
    agree += g.finished && g.seats_agree ? 1 : 0;
    for (const std::string& e : g.errors) {
      if (failures.size() < 10) failures.push_back(g.game_id + " " + e);
    }
  }
  const double play_seconds =
      t.first_move && t.last_delta
          ? std::chrono::duration<double>(*t.last_delta - *t.first_move).count()
          : 0.0;
  nlohmann::json errors = nlohmann::json::object();
  for (const auto& [code, n] : t.errors) errors[code] = n;
  const auto per_second = [](double n, double seconds) {
    return seconds > 0 ? std::round(n / seconds * 10) / 10 : 0.0;
  };
  return {
      {"server", options.url.ToString()},
      {"rule_set", options.rule_set},
      {"options", options.options},
      {"games", options.games},
      {"seats", options.seats},
      {"seconds_limit", options.limit.count()},
      {"client_threads", options.threads},
      {"repeat", options.repeat},
      {"policy", options.policy == Policy::kEager ? "eager" : "random"},
      {"seed", options.seed ? nlohmann::json(*options.seed) : nlohmann::json(nullptr)},
      {"connections", report.players},
      {"connections_failed", report.players_failed},
      {"games_played", report.games.size()},
      {"games_finished", finished},
      {"games_finished_seats_agree", agree},
      {"stopped_by_time_limit", report.stopped_by_limit},
      {"wall_seconds", std::round(report.wall_seconds * 1000) / 1000},
      {"moves_sent", t.moves_sent},
      {"moves_accepted", t.moves_accepted},
      {"moves_per_second", per_second(static_cast<double>(t.moves_accepted), report.wall_seconds)},
      {"play_seconds", std::round(play_seconds * 1000) / 1000},
      {"moves_per_second_while_playing",
       per_second(static_cast<double>(t.moves_accepted), play_seconds)},
      {"deltas_received", t.deltas},
      {"rate_limited", t.rate_limited},
      {"lost_way", t.lost_way},
      {"reconnects", t.reconnects},
      {"errors", errors},
      {"failures", failures},
      {"latency_ms", Distribution(t.latency_ns)},
      {"broadcast_ms", Distribution(t.broadcast_ns)},
      {"turn_ms", Distribution(t.turn_ns)},
      {"think_ms", options.think.count()},
      {"leave_at_sequence", options.leave_at_sequence},
      {"bytes_received", t.bytes_received},
      {"bytes_received_per_move", t.moves_accepted > 0
                                      ? std::round(static_cast<double>(t.bytes_received) /
                                                   static_cast<double>(t.moves_accepted))
                                      : 0.0},
      {"server_process", ServerUsageJson(report)},
  };
}

}  // namespace carc::client
