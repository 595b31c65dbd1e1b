// The text of a /metrics scrape (room/metrics.h): Prometheus' text format, every family typed
// before its samples, histograms cumulative, and the counters as reported; and the dashboard in
// deploy/ asks only for metrics that a scrape has.
#include "room/metrics.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace carc::server {
namespace {

using std::chrono::microseconds;

struct Sample {
  std::string name;
  std::string labels;
  double value = 0;
};

// Parses the scrape; fails the test on any line that is not a comment or a well-formed sample,
// or on a sample whose family had no # TYPE line before it.
std::vector<Sample> Parse(const std::string& text) {
  static const std::regex kSample(R"(^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([^}]*)\})? (\S+)$)");
  static const std::regex kType(R"(^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram)$)");
  std::map<std::string, std::string> types;
  std::vector<Sample> samples;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_match(line, m, kType)) {
      types[m[1]] = m[2];
      continue;
    }
    if (line.starts_with("# HELP ")) continue;
    if (!std::regex_match(line, m, kSample)) {
      ADD_FAILURE() << "not a sample: " << line;
      continue;
    }
    const std::string name = m[1];
    bool typed = types.contains(name);
    for (const char* suffix : {"_bucket", "_sum", "_count"}) {
      const std::string s = suffix;
      if (name.ends_with(s)) {
        typed |= types[name.substr(0, name.size() - s.size())] == "histogram";
      }
    }
    EXPECT_TRUE(typed) << "no # TYPE before " << line;
    samples.push_back({name, m[3], std::stod(m[4])});
  }
  return samples;
}

double Value(const std::vector<Sample>& samples, const std::string& name,
             const std::string& labels = "") {
  for (const Sample& s : samples) {
    if (s.name == name && s.labels == labels) return s.value;
  }
  ADD_FAILURE() << "no sample " << name << "{" << labels << "}";
  return -1;
}

TEST(Metrics, AScrapeIsWellFormedAndCountsWhatWasReported) {
  Metrics metrics;
  metrics.MoveAccepted(microseconds(40));
  metrics.MoveAccepted(microseconds(3000));
  metrics.MoveAccepted(microseconds(3000));
  metrics.MoveRefused(wire::ERROR_CODE_STALE_SEQUENCE);
  metrics.MoveRefused(wire::ERROR_CODE_STALE_SEQUENCE);
  metrics.MoveRefused(wire::ERROR_CODE_RULE_REFUSED);
  metrics.BotThought(microseconds(250000));
  MetricGauges gauges;
  gauges.connections = 7;
  gauges.games[wire::GAME_STATUS_RUNNING] = 3;
  gauges.games[wire::GAME_STATUS_OPEN] = 1;
  gauges.log.batches = 5;
  gauges.log.writes = 9;
  gauges.log.actions = 40;
  gauges.log.commit_us.Add(900);

  const std::vector<Sample> s = Parse(metrics.Render(gauges));
  EXPECT_EQ(Value(s, "carc_connections"), 7);
  EXPECT_EQ(Value(s, "carc_games", R"(status="running")"), 3);
  EXPECT_EQ(Value(s, "carc_games", R"(status="open")"), 1);
  EXPECT_EQ(Value(s, "carc_games", R"(status="resigned")"), 0) << "every status is listed";
  EXPECT_EQ(Value(s, "carc_log_commits_total"), 5);
  EXPECT_EQ(Value(s, "carc_log_writes_total", R"(result="committed")"), 9);
  EXPECT_EQ(Value(s, "carc_log_actions_total"), 40);
  EXPECT_EQ(Value(s, "carc_moves_accepted_total"), 3);
  EXPECT_EQ(Value(s, "carc_moves_refused_total", R"(code="ERROR_CODE_STALE_SEQUENCE")"), 2);
  EXPECT_EQ(Value(s, "carc_moves_refused_total", R"(code="ERROR_CODE_RULE_REFUSED")"), 1);

  // 40 us lies in (32, 64] us, 3 ms in (2.048, 4.096] ms.
  const std::string h = "carc_move_broadcast_seconds";
  EXPECT_EQ(Value(s, h + "_bucket", R"(le="0.000032")"), 0);
  EXPECT_EQ(Value(s, h + "_bucket", R"(le="0.000064")"), 1);
  EXPECT_EQ(Value(s, h + "_bucket", R"(le="0.002048")"), 1);
  EXPECT_EQ(Value(s, h + "_bucket", R"(le="0.004096")"), 3);
  EXPECT_EQ(Value(s, h + "_bucket", R"(le="+Inf")"), 3);
  EXPECT_EQ(Value(s, h + "_count"), 3);
  EXPECT_DOUBLE_EQ(Value(s, h + "_sum"), 0.00604);
  EXPECT_EQ(Value(s, "carc_bot_think_seconds_bucket", R"(le="0.262144")"), 1);
  EXPECT_EQ(Value(s, "carc_bot_think_seconds_bucket", R"(le="0.131072")"), 0);
  EXPECT_EQ(Value(s, "carc_commit_seconds_bucket", R"(le="0.001024")"), 1);

  // Every histogram's buckets only grow, and end at its count.
  std::map<std::string, double> last;
  for (const Sample& sample : s) {
    if (!sample.name.ends_with("_bucket")) continue;
    EXPECT_GE(sample.value, last[sample.name]) << sample.name << "{" << sample.labels << "}";
    last[sample.name] = sample.value;
  }
  EXPECT_EQ(last.size(), 3u) << "three histograms";
}

TEST(Metrics, AnEmptyServerScrapesZeroes) {
  const std::vector<Sample> s = Parse(Metrics().Render({}));
  EXPECT_EQ(Value(s, "carc_moves_accepted_total"), 0);
  EXPECT_EQ(Value(s, "carc_move_broadcast_seconds_count"), 0);
  EXPECT_EQ(Value(s, "carc_games", R"(status="running")"), 0);
}

// deploy/grafana-dashboard.json: every metric its queries name is one a scrape has (a histogram's
// _bucket, _sum and _count included), so a renamed metric cannot leave a panel empty.
TEST(Metrics, TheDashboardQueriesOnlyMetricsAScrapeHas) {
  std::ifstream file(std::string(CARC_SOURCE_DIR) + "/deploy/grafana-dashboard.json");
  ASSERT_TRUE(file) << "deploy/grafana-dashboard.json";
  const nlohmann::json dashboard = nlohmann::json::parse(file, nullptr, false);
  ASSERT_FALSE(dashboard.is_discarded()) << "not JSON";
  ASSERT_TRUE(dashboard.contains("panels") && dashboard["panels"].is_array());

  std::map<std::string, std::string> types;
  std::istringstream lines(Metrics().Render({}));
  static const std::regex kType(R"(^# TYPE (\S+) (\S+)$)");
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_match(line, m, kType)) types[m[1]] = m[2];
  }
  const auto known = [&types](const std::string& name) {
    if (types.contains(name)) return true;
    for (const char* suffix : {"_bucket", "_sum", "_count"}) {
      const std::string s = suffix;
      if (name.ends_with(s) && types[name.substr(0, name.size() - s.size())] == "histogram") {
        return true;
      }
    }
    return false;
  };
  static const std::regex kMetric(R"(carc_[a-z_]+)");
  int queries = 0;
  for (const auto& panel : dashboard["panels"]) {
    ASSERT_TRUE(panel.contains("targets")) << panel.value("title", "?");
    for (const auto& target : panel["targets"]) {
      const std::string expr = target.value("expr", "");
      ++queries;
      int named = 0;
      for (std::sregex_iterator it(expr.begin(), expr.end(), kMetric), end; it != end; ++it) {
        EXPECT_TRUE(known(it->str())) << it->str() << " in " << expr;
        ++named;
      }
      EXPECT_GT(named, 0) << "a query with no metric of the server: " << expr;
    }
  }
  EXPECT_GE(queries, 8);
}

}  // namespace
}  // namespace carc::server
