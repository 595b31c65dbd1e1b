#include "clock_options.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <limits>

namespace carc::client {
namespace {

using nlohmann::json;

constexpr uint64_t kSecondMs = 1000;
constexpr uint64_t kMinuteMs = 60 * kSecondMs;
constexpr uint64_t kHourMs = 60 * kMinuteMs;
constexpr uint64_t kDayMs = 24 * kHourMs;

struct Unit {
  std::string_view suffix;
  uint64_t ms;
};

// Largest first, so that DurationText picks the largest whole unit; "ms" before "m" would not
// matter for parsing, which matches whole suffixes.
constexpr std::array<Unit, 5> kUnits{{
    {"d", kDayMs},
    {"h", kHourMs},
    {"m", kMinuteMs},
    {"s", kSecondMs},
    {"ms", 1},
}};

constexpr std::string_view kDurationForm =
    "a whole number and a unit: ms, s, m, h or d (e.g. 90s, 5m, 2h, 3d)";

std::string TwoDigits(int64_t n) { return (n < 10 ? "0" : "") + std::to_string(n); }

std::string PolicyName(wire::AbsentPolicy policy) {
  return policy == wire::ABSENT_POLICY_FORFEIT ? "forfeit" : "stand-in";
}

std::string KindName(wire::ClockKind kind) {
  switch (kind) {
    case wire::CLOCK_KIND_LIVE:
      return "live";
    case wire::CLOCK_KIND_CORRESPONDENCE:
      return "correspondence";
    default:
      return "none";
  }
}

}  // namespace

std::variant<uint64_t, std::string> ParseDuration(std::string_view text) {
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  const std::string_view suffix = text.substr(digits);
  const bool letters =
      std::all_of(suffix.begin(), suffix.end(), [](char c) { return c >= 'a' && c <= 'z'; });
  if (digits == 0 || suffix.empty() || !letters) {
    return "'" + std::string(text) + "' is not a length of time: expected " +
           std::string(kDurationForm);
  }
  uint64_t number = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + digits, number);
  if (ec != std::errc() || end != text.data() + digits) {
    return "'" + std::string(text) + "' is too long a time";
  }
  for (const Unit& unit : kUnits) {
    if (suffix != unit.suffix) continue;
    if (number > std::numeric_limits<uint64_t>::max() / unit.ms) {
      return "'" + std::string(text) + "' is too long a time";
    }
    return number * unit.ms;
  }
  return "'" + std::string(text) + "' has an unknown unit '" + std::string(suffix) +
         "': expected " + std::string(kDurationForm);
}

std::variant<wire::TimeControl, std::string> ParseClock(std::string_view text) {
  constexpr std::string_view kForm =
      "expected none, live:<bank>+<increment> (e.g. live:5m+3s) or correspondence:<time per "
      "decision> (e.g. correspondence:2d)";
  wire::TimeControl time_control;
  if (text == "none") {
    time_control.set_kind(wire::CLOCK_KIND_NONE);
    return time_control;
  }
  const size_t colon = text.find(':');
  const std::string_view kind = text.substr(0, colon);
  const std::string_view times = colon == std::string_view::npos ? "" : text.substr(colon + 1);
  const std::string prefix = "--clock " + std::string(text) + ": ";
  if (kind == "live" && colon != std::string_view::npos) {
    const size_t plus = times.find('+');
    if (plus == std::string_view::npos)
      return prefix + "a live clock needs a bank and an increment, e.g. live:5m+3s";
    const auto bank = ParseDuration(times.substr(0, plus));
    if (const auto* error = std::get_if<std::string>(&bank)) return prefix + "the bank " + *error;
    const auto increment = ParseDuration(times.substr(plus + 1));
    if (const auto* error = std::get_if<std::string>(&increment)) {
      return prefix + "the increment " + *error;
    }
    time_control.set_kind(wire::CLOCK_KIND_LIVE);
    time_control.set_bank_ms(std::get<uint64_t>(bank));
    time_control.set_increment_ms(std::get<uint64_t>(increment));
    return time_control;
  }
  if (kind == "correspondence" && colon != std::string_view::npos) {
    const auto decision = ParseDuration(times);
    if (const auto* error = std::get_if<std::string>(&decision)) {
      return prefix + "the time per decision " + *error;
    }
    time_control.set_kind(wire::CLOCK_KIND_CORRESPONDENCE);
    time_control.set_decision_ms(std::get<uint64_t>(decision));
    return time_control;
  }
  return prefix + std::string(kForm);
}

std::variant<wire::AbsentPolicy, std::string> ParseAbsentPolicy(std::string_view text) {
  if (text == "stand-in") return wire::ABSENT_POLICY_STAND_IN;
  if (text == "forfeit") return wire::ABSENT_POLICY_FORFEIT;
  return "--on-absent " + std::string(text) + ": expected stand-in or forfeit";
}

std::variant<std::optional<wire::TimeControl>, std::string> TimeControlFromOptions(
    std::string_view clock, std::string_view grace, std::string_view on_absent) {
  auto parsed = ParseClock(clock);
  if (auto* error = std::get_if<std::string>(&parsed)) return std::move(*error);
  wire::TimeControl time_control = std::get<wire::TimeControl>(std::move(parsed));
  const auto grace_ms = ParseDuration(grace);
  if (const auto* error = std::get_if<std::string>(&grace_ms)) return "--grace " + *error;
  time_control.set_grace_ms(std::get<uint64_t>(grace_ms));
  wire::AbsentPolicy policy = wire::ABSENT_POLICY_STAND_IN;
  if (!on_absent.empty()) {
    const auto chosen = ParseAbsentPolicy(on_absent);
    if (const auto* error = std::get_if<std::string>(&chosen)) return *error;
    policy = std::get<wire::AbsentPolicy>(chosen);
  }
  time_control.set_on_absent(policy);
  const bool asks_nothing =
      time_control.kind() == wire::CLOCK_KIND_NONE && time_control.grace_ms() == 0;
  if (asks_nothing && !on_absent.empty()) {
    return "--on-absent " + std::string(on_absent) +
           ": nothing to apply it to without a --clock or a --grace period";
  }
  if (asks_nothing) return std::optional<wire::TimeControl>();
  return std::optional<wire::TimeControl>(std::move(time_control));
}

std::string DurationText(uint64_t ms) {
  for (const Unit& unit : kUnits) {
    if (ms >= unit.ms && ms % unit.ms == 0)
      return std::to_string(ms / unit.ms) + std::string(unit.suffix);
  }
  return "0s";
}

std::string ClockText(int64_t ms) {
  const int64_t total = ms <= 0 ? 0 : (ms + 999) / 1000;
  const int64_t days = total / 86400;
  const int64_t hours = total % 86400 / 3600;
  const int64_t minutes = total % 3600 / 60;
  const int64_t seconds = total % 60;
  if (days > 0) return std::to_string(days) + "d " + TwoDigits(hours) + "h";
  if (hours > 0) return std::to_string(hours) + ":" + TwoDigits(minutes) + ":" + TwoDigits(seconds);
  return TwoDigits(minutes) + ":" + TwoDigits(seconds);
}

std::string TimeControlText(const wire::TimeControl& time_control) {
  std::string text;
  switch (time_control.kind()) {
    case wire::CLOCK_KIND_LIVE:
      text = "live " + DurationText(time_control.bank_ms()) + "+" +
             DurationText(time_control.increment_ms());
      break;
    case wire::CLOCK_KIND_CORRESPONDENCE:
      text = "correspondence " + DurationText(time_control.decision_ms()) + " a decision";
      break;
    default:
      text = "no clock";
      break;
  }
  const bool clocked = time_control.kind() == wire::CLOCK_KIND_LIVE ||
                       time_control.kind() == wire::CLOCK_KIND_CORRESPONDENCE;
  if (time_control.grace_ms() > 0) text += ", grace " + DurationText(time_control.grace_ms());
  if (clocked || time_control.grace_ms() > 0) {
    text += ", on absent: " + PolicyName(time_control.on_absent());
  }
  return text;
}

json TimeControlJson(const wire::TimeControl& time_control) {
  return {{"clock", KindName(time_control.kind())},
          {"bank_ms", time_control.bank_ms()},
          {"increment_ms", time_control.increment_ms()},
          {"decision_ms", time_control.decision_ms()},
          {"grace_ms", time_control.grace_ms()},
          {"on_absent", PolicyName(time_control.on_absent())}};
}

std::string ClocksText(const wire::Clocks& clocks) {
  std::string text = "clocks:";
  for (int seat = 0; seat < clocks.remaining_ms_size(); ++seat) {
    text += (seat == 0 ? " seat " : ", seat ") + std::to_string(seat) + " " +
            ClockText(clocks.remaining_ms(seat));
    if (clocks.has_running() && static_cast<int>(clocks.running()) == seat) text += " (running)";
  }
  return text;
}

json ClocksJson(const wire::Clocks& clocks) {
  json remaining = json::array();
  for (const int64_t ms : clocks.remaining_ms()) remaining.push_back(ms);
  return {{"sequence", clocks.sequence()},
          {"remaining_ms", remaining},
          {"running", clocks.has_running() ? json(clocks.running()) : json(nullptr)}};
}

}  // namespace carc::client
