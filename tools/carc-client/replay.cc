#include "replay.h"

#include <cstdio>
#include <ctime>
#include <thread>

#include "protocol/codec.h"

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
std::variant<ReplayStep, std::string> ApplyStep(const v1::Delta& delta, int64_t time_ms,
                                                const core::TileSet& tiles,
                                                protocol::Follower& follower) {
  const auto action = protocol::FromProto(delta.action());
  if (!action) return "the action of step " + std::to_string(delta.sequence()) + " does not decode";
  ReplayStep step;
  step.sequence = delta.sequence();
  step.seat = delta.seat();
  // Named before the step is applied: that is the state the action was chosen in.
  step.action = FormatAction(follower.state(), tiles, *action);
  step.time_ms = time_ms;
  step.state_hash = delta.state_hash();
  if (auto error = follower.Apply(delta)) return *error;
  step.events = NotableEvents(follower.events());
  return step;
}

// "game g1 "Friday": 2 seats (seat 0 'ada', seat 1 'bot'), finished; 284 steps, ...".
std::string Heading(const v1::Replay& replay) {
  const v1::GameInfo& game = replay.game();
  std::string text = "game " + game.game_id();
  if (!game.name().empty()) text += " \"" + game.name() + "\"";
  text += ": " + std::to_string(game.seats()) + " seats (";
  for (int i = 0; i < game.seat_size(); ++i) {
    const v1::SeatInfo& s = game.seat(i);
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
std::string Ending(const v1::Replay& replay, const protocol::Follower& follower,
                   const std::optional<city::GameOver>& over) {
  const std::string& id = replay.game().game_id();
  if (follower.over()) return GameOverText(id, follower.state(), over, -1);
  return "game " + id + " is not over: after step " + std::to_string(follower.sequence()) + ", " +
         DescribeDecision(follower.state()) +
         "; scores so far: " + ScoresText(follower.state(), -1);
}

}  // namespace

std::optional<std::string> FollowReplay(const v1::Replay& replay, const core::TileSet& tiles,
                                        protocol::Follower& follower,
                                        const std::function<void(const ReplayStep&)>& on_step) {
  if (replay.start().sequence() != 0) {
    return "the replay starts at sequence " + std::to_string(replay.start().sequence()) + ", not 0";
  }
  if (replay.time_ms_size() != replay.steps_size()) {
    return "the replay has " + std::to_string(replay.steps_size()) + " steps but " +
           std::to_string(replay.time_ms_size()) + " times";
  }
  if (auto error = follower.Start(replay.start())) return error;
  for (int i = 0; i < replay.steps_size(); ++i) {
    auto step = ApplyStep(replay.steps(i), replay.time_ms(i), tiles, follower);
    if (auto* error = std::get_if<std::string>(&step)) return *error;
    on_step(std::get<ReplayStep>(step));
  }
  return std::nullopt;
}

std::string UtcTime(int64_t time_ms) { return FormatUtc(time_ms, "%H:%M:%S"); }

std::string UtcDateTime(int64_t time_ms) { return FormatUtc(time_ms, "%Y-%m-%d %H:%M:%S"); }

std::optional<std::string> WriteReplayText(const v1::Replay& replay, const core::TileSet& tiles,
                                           std::chrono::milliseconds step_delay,
                                           std::ostream& out) {
  out << Heading(replay) << std::endl;
  const int width = static_cast<int>(std::to_string(replay.steps_size()).size());
  protocol::Follower follower;
  std::optional<city::GameOver> over;
  auto error = FollowReplay(replay, tiles, follower, [&](const ReplayStep& step) {
    out << StepText(step, width) << std::endl;
    if (auto found = FindGameOver(follower.events())) over = found;
    const bool last = step.sequence >= static_cast<uint64_t>(replay.steps_size());
    if (step_delay.count() > 0 && !last) std::this_thread::sleep_for(step_delay);
  });
  if (error) return error;
  out << Ending(replay, follower, over) << std::endl;
  return std::nullopt;
}

std::variant<nlohmann::json, std::string> ReplayJson(const v1::Replay& replay,
                                                     const core::TileSet& tiles) {
  protocol::Follower follower;
  std::optional<city::GameOver> over;
  nlohmann::json steps = nlohmann::json::array();
  const auto error = FollowReplay(replay, tiles, follower, [&](const ReplayStep& step) {
    steps.push_back({{"sequence", step.sequence},
                     {"seat", step.seat},
                     {"action", step.action},
                     {"time_ms", step.time_ms},
                     {"state_hash", HashHex(step.state_hash)},
                     {"events", step.events}});
    if (auto found = FindGameOver(follower.events())) over = found;
  });
  if (error) return *error;
  nlohmann::json winners = nlohmann::json::array();
  for (int p = 0; over && p < follower.state().counters.players; ++p) {
    if (over->winners >> p & 1) winners.push_back(p);
  }
  return nlohmann::json{{"steps", std::move(steps)},
                        {"final", StateJson(follower.state(), follower.sequence())},
                        {"over", follower.over()},
                        {"winners", std::move(winners)}};
}

}  // namespace carc::client
