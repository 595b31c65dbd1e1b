#include "room/metrics.h"

#include <cctype>
#include <cmath>

namespace carc::server {
namespace {

// Histogram bounds: 2^k microseconds for k from 5 to 24, from 32 us to about 16.8 s. They are
// bounds of LatencyHistogram's own buckets, so every count below a bound is exact.
constexpr int kFirstBound = 5;
constexpr int kLastBound = 24;

void Header(std::string& out, const std::string& name, const char* type, const char* help) {
  out += "# HELP " + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
}

// One sample: `name{labels} value`.
void Sample(std::string& out, const std::string& name, const std::string& labels,
            const std::string& value) {
  out += name + (labels.empty() ? "" : "{" + labels + "}") + " " + value + "\n";
}
void Sample(std::string& out, const std::string& name, const std::string& labels, uint64_t value) {
  Sample(out, name, labels, std::to_string(value));
}

// Microseconds as seconds: six decimals hold them exactly.
std::string Seconds(double microseconds) { return std::to_string(microseconds / 1e6); }

void Histogram(std::string& out, const std::string& name, const char* help,
               const persistence::LatencyHistogram& h) {
  Header(out, name, "histogram", help);
  for (int k = kFirstBound; k <= kLastBound; ++k) {
    Sample(out, name + "_bucket", "le=\"" + Seconds(std::ldexp(1.0, k)) + "\"",
           h.CountAtMostPowerOfTwo(k));
  }
  Sample(out, name + "_bucket", "le=\"+Inf\"", h.count());
  Sample(out, name + "_sum", "", Seconds(h.sum()));
  Sample(out, name + "_count", "", h.count());
}

// "GAME_STATUS_RUNNING" -> "running".
std::string StatusLabel(wire::GameStatus status) {
  std::string name = wire::GameStatus_Name(status);
  constexpr std::string_view kPrefix = "GAME_STATUS_";
  if (name.starts_with(kPrefix)) name.erase(0, kPrefix.size());
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name;
}

}  // namespace

void Metrics::MoveAccepted(std::chrono::microseconds to_broadcast) {
  std::lock_guard lock(mutex_);
  ++moves_accepted_;
  move_to_broadcast_us_.Add(static_cast<double>(to_broadcast.count()));
}

void Metrics::MoveRefused(wire::ErrorCode code) {
  std::lock_guard lock(mutex_);
  ++moves_refused_[code];
}

void Metrics::BotThought(std::chrono::microseconds think) {
  std::lock_guard lock(mutex_);
  bot_think_us_.Add(static_cast<double>(think.count()));
}

std::string Metrics::Render(const MetricGauges& gauges) const {
  std::string out;
  Header(out, "carc_connections", "gauge", "Open WebSocket connections.");
  Sample(out, "carc_connections", "", gauges.connections);

  // Every status is listed, 0 included, so that a dashboard's series never disappear.
  Header(out, "carc_games", "gauge", "Games this server hosts, by status.");
  for (int s = wire::GameStatus_MIN + 1; s <= wire::GameStatus_MAX; ++s) {
    const auto status = static_cast<wire::GameStatus>(s);
    if (!wire::GameStatus_IsValid(s)) continue;
    const auto it = gauges.games.find(status);
    Sample(out, "carc_games", "status=\"" + StatusLabel(status) + "\"",
           it == gauges.games.end() ? 0 : it->second);
  }

  const persistence::JournalStats& log = gauges.log;
  Header(out, "carc_log_commits_total", "counter", "Transactions committed to the game log.");
  Sample(out, "carc_log_commits_total", "", log.batches);
  Header(out, "carc_log_writes_total", "counter", "Writes to the game log, by outcome.");
  Sample(out, "carc_log_writes_total", "result=\"committed\"", log.writes);
  Sample(out, "carc_log_writes_total", "result=\"failed\"", log.failed_writes);
  Header(out, "carc_log_actions_total", "counter", "Actions appended to the game log.");
  Sample(out, "carc_log_actions_total", "", log.actions);
  Histogram(out, "carc_commit_seconds",
            "Time of one game log transaction, from BEGIN to the end of COMMIT.", log.commit_us);

  std::lock_guard lock(mutex_);
  Header(out, "carc_moves_accepted_total", "counter",
         "Moves that passed every check and were broadcast (bots' included).");
  Sample(out, "carc_moves_accepted_total", "", moves_accepted_);
  Header(out, "carc_moves_refused_total", "counter", "Moves refused, by error code.");
  for (const auto& [code, count] : moves_refused_) {
    Sample(out, "carc_moves_refused_total", "code=\"" + wire::ErrorCode_Name(code) + "\"", count);
  }
  Histogram(out, "carc_move_broadcast_seconds",
            "Time from a move's arrival in its game to its delta's broadcast, commit included.",
            move_to_broadcast_us_);
  Histogram(out, "carc_bot_think_seconds", "Time a bot took to decide one move.", bot_think_us_);
  return out;
}

}  // namespace carc::server
