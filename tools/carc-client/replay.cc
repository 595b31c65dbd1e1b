#include "replay.h"

#include <cstdio>
#include <ctime>
#include <thread>

namespace carc::client {
namespace {

std::string FormatUtc(int64_t time_ms, const char* format) {
  // Floor division, so that times before 1970 still land on the right second.
  const int64_t seconds = time_ms >= 0 ? time_ms / 1000 : -((-time_ms + 999) / 1000);
  const auto t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  if (gmtime_r(&t, &tm) == nullptr) return "?";
  char text[32];
  if (std::strftime(text, sizeof text, format, &tm) == 0) return "?";
  return text;
}

// Applies one step to `follower` and describes it; the error says why it does not follow.
std::variant<ReplayStep, std::string> ApplyStep(const wire::Delta& delta, int64_t time_ms,
                                                protocol::Follower& follower) {
  if (auto error = follower.Apply(delta)) return *error;
  ReplayStep step;
  step.sequence = delta.sequence();
  step.seat = delta.seat();
  // Named before the step was applied: that is the state the action was chosen in.
  step.action = follower.last_action().value_or("?");
  step.time_ms = time_ms;
  step.state_hash = delta.state_hash();
  step.events = NotableEvents(follower);
  return step;
}

// "game g1 "Friday": 2 seats (seat 0 'ada', seat 1 'bot'), finished; 284 steps, ...".
std::string Heading(const wire::Replay& replay) {
  const wire::GameInfo& game = replay.game();
  std::string text = "game " + game.game_id();
  if (!game.name().empty()) text += " \"" + game.name() + "\"";
  text += " (" + game.rule_set() + ")";
  text += ": " + std::to_string(game.seats()) + " seats (";
  for (int i = 0; i < game.seat_size(); ++i) {
    const wire::SeatInfo& s = game.seat(i);
    text += (i > 0 ? ", seat " : "seat ") + std::to_string(s.seat()) + " " +
            (!s.taken()                ? std::string("free")
             : s.player_name().empty() ? std::string("(no name)")
                                       : "'" + s.player_name() + "'");
  }
  text += "), " + StatusName(game.status()) + "; " + std::to_string(replay.steps_size()) +
          (replay.steps_size() == 1 ? " step" : " steps");
  if (!replay.time_ms().empty()) {
    text += ", " + UtcDateTime(replay.time_ms(0)) + " to " +
            UtcDateTime(replay.time_ms(replay.time_ms_size() - 1)) + " UTC";
  }
  return text;
}

// `width`: the digits of the last sequence, so that the columns line up.
std::string StepText(const ReplayStep& step, int width) {
  char line[128];
  std::snprintf(line, sizeof line, "seq %*llu  seat %u  %-15s  %s UTC", width,
                static_cast<unsigned long long>(step.sequence), step.seat, step.action.c_str(),
                UtcTime(step.time_ms).c_str());
  std::string text = line;
  for (const std::string& event : step.events) text += "\n    " + event;
  return text;
}

// The last line: the result, or where a game still running has got to.
std::string Ending(const wire::Replay& replay, const protocol::Follower& follower) {
  const std::string& id = replay.game().game_id();
  if (follower.over()) return GameOverText(id, follower, -1);
  return "game " + id + " is not over: after step " + std::to_string(follower.sequence()) + ", " +
         DescribeDecision(follower) + "; scores so far: " + ScoresText(follower, -1);
}

}  // namespace

std::optional<std::string> FollowReplay(const wire::Replay& replay,
                                        std::shared_ptr<const core::TileSet> tiles,
                                        protocol::Follower& follower,
                                        const std::function<void(const ReplayStep&)>& on_step) {
  if (replay.start().sequence() != 0) {
    return "the replay starts at sequence " + std::to_string(replay.start().sequence()) + ", not 0";
  }
  if (replay.time_ms_size() != replay.steps_size()) {
    return "the replay has " + std::to_string(replay.steps_size()) + " steps but " +
           std::to_string(replay.time_ms_size()) + " times";
  }
  if (auto error = follower.Start(replay.start(), std::move(tiles))) return error;
  for (int i = 0; i < replay.steps_size(); ++i) {
    auto step = ApplyStep(replay.steps(i), replay.time_ms(i), follower);
    if (auto* error = std::get_if<std::string>(&step)) return *error;
    on_step(std::get<ReplayStep>(step));
  }
  return std::nullopt;
}

std::string UtcTime(int64_t time_ms) { return FormatUtc(time_ms, "%H:%M:%S"); }

std::string UtcDateTime(int64_t time_ms) { return FormatUtc(time_ms, "%Y-%m-%d %H:%M:%S"); }

std::optional<std::string> WriteReplayText(const wire::Replay& replay,
                                           std::shared_ptr<const core::TileSet> tiles,
                                           std::chrono::milliseconds step_delay,
                                           std::ostream& out) {
  out << Heading(replay) << std::endl;
  const int width = static_cast<int>(std::to_string(replay.steps_size()).size());
  protocol::Follower follower;
  auto error = FollowReplay(replay, std::move(tiles), follower, [&](const ReplayStep& step) {
    out << StepText(step, width) << std::endl;
    const bool last = step.sequence >= static_cast<uint64_t>(replay.steps_size());
    if (step_delay.count() > 0 && !last) std::this_thread::sleep_for(step_delay);
  });
  if (error) return error;
  out << Ending(replay, follower) << std::endl;
  return std::nullopt;
}

std::variant<nlohmann::json, std::string> ReplayJson(const wire::Replay& replay,
                                                     std::shared_ptr<const core::TileSet> tiles) {
  protocol::Follower follower;
  nlohmann::json steps = nlohmann::json::array();
  const auto error = FollowReplay(replay, std::move(tiles), follower, [&](const ReplayStep& step) {
    steps.push_back({{"sequence", step.sequence},
                     {"seat", step.seat},
                     {"action", step.action},
                     {"time_ms", step.time_ms},
                     {"state_hash", HashHex(step.state_hash)},
                     {"events", step.events}});
  });
  if (error) return *error;
  return nlohmann::json{{"steps", std::move(steps)},
                        {"final", StateJson(follower)},
                        {"over", follower.over()},
                        {"winners", Winners(follower)}};
}

}  // namespace carc::client
