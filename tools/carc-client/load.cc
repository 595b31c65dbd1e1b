#include "load.h"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cmath>
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

    GamesReport report;
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
    auto last_move_sent = std::make_shared<std::atomic<int64_t>>(0);
    for (int seat = 0; seat < options_.seats; ++seat) {
      PlayerConfig config;
      config.url = options_.url;
      config.endpoints = options_.endpoints;
      config.policy = options_.policy;
      config.seed = core::Mix64(options_.bot_seed ^ core::Mix64(static_cast<uint64_t>(game) << 3 |
                                                                static_cast<uint64_t>(seat)));
      config.name = "bot-" + std::to_string(seat);
      config.print_moves = options_.print_moves;
      config.max_reconnects = 0;  // a lost bot is a failure to report, not to hide
      config.rule_set = options_.rule_set;
      config.tiles = options_.tiles;
      config.last_move_sent = last_move_sent;
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
    result.seat0 = slot.players.front();
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

}  // namespace

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
      {"turn_ms", Distribution(t.turn_ns)},
  };
}

}  // namespace carc::client
