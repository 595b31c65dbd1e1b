// The server's counters and latency histograms, and their text for a Prometheus scrape
// (GET /metrics; docs/operations.md lists every metric).
//
// One Metrics object per server. Rooms report each move they judge (accepted, with the time from
// its arrival to its broadcast; or refused, with the error code), the bot pool each bot's time
// to think; all from any thread. A scrape renders the counters together with the gauges read at
// that moment (connections, hosted games by status) and the game log's commit figures.
//
// Debian 12 packages no Prometheus client library for C++; the text format is small and fixed
// (https://prometheus.io/docs/instrumenting/exposition_formats/), so it is written here.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "persistence/journal.h"
#include "protocol/envelope.h"

namespace carc::server {

namespace wire = protocol::wire;

// What a scrape reads besides the counters.
struct MetricGauges {
  size_t connections = 0;
  std::map<wire::GameStatus, size_t> games;  // hosted games by status
  persistence::JournalStats log;             // the game log's writer
};

class Metrics {
 public:
  // A move went through every check and its delta went out, `to_broadcast` after it arrived.
  void MoveAccepted(std::chrono::microseconds to_broadcast);
  // A move was refused with `code` (ERROR_CODE_RULE_REFUSED when the engine refused it).
  void MoveRefused(wire::ErrorCode code);
  // A bot decided in `think`.
  void BotThought(std::chrono::microseconds think);

  // The whole scrape, in Prometheus' text format (version 0.0.4).
  std::string Render(const MetricGauges& gauges) const;

 private:
  mutable std::mutex mutex_;  // guards everything below
  uint64_t moves_accepted_ = 0;
  std::map<wire::ErrorCode, uint64_t> moves_refused_;
  persistence::LatencyHistogram move_to_broadcast_us_;
  persistence::LatencyHistogram bot_think_us_;
};

// The content type of Metrics::Render's text.
inline constexpr const char* kMetricsContentType = "text/plain; version=0.0.4; charset=utf-8";

}  // namespace carc::server
