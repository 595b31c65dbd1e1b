// carc-client's --clock, --grace and --on-absent (tools/carc-client/clock_options.h): what they
// put in CreateGame.time_control, the errors for bad text, and clocks as text.
#include "clock_options.h"

#include <gtest/gtest.h>

#include <string>
#include <variant>

namespace carc::client {
namespace {

uint64_t Duration(const std::string& text) {
  const auto parsed = ParseDuration(text);
  EXPECT_TRUE(std::holds_alternative<uint64_t>(parsed))
      << text << ": " << std::get<std::string>(parsed);
  return std::holds_alternative<uint64_t>(parsed) ? std::get<uint64_t>(parsed) : 0;
}

std::string DurationError(const std::string& text) {
  const auto parsed = ParseDuration(text);
  return std::holds_alternative<std::string>(parsed) ? std::get<std::string>(parsed) : "(taken)";
}

wire::TimeControl Clock(const std::string& clock, const std::string& grace = "0s",
                        const std::string& on_absent = "") {
  auto parsed = TimeControlFromOptions(clock, grace, on_absent);
  EXPECT_TRUE(std::holds_alternative<std::optional<wire::TimeControl>>(parsed))
      << clock << ": " << std::get<std::string>(parsed);
  const auto* time_control = std::get_if<std::optional<wire::TimeControl>>(&parsed);
  EXPECT_TRUE(time_control != nullptr && time_control->has_value()) << clock;
  return time_control != nullptr && time_control->has_value() ? **time_control
                                                              : wire::TimeControl();
}

std::string ClockError(const std::string& clock, const std::string& grace = "0s",
                       const std::string& on_absent = "") {
  const auto parsed = TimeControlFromOptions(clock, grace, on_absent);
  return std::holds_alternative<std::string>(parsed) ? std::get<std::string>(parsed) : "(taken)";
}

TEST(ClockOptions, DurationsTakeAWholeNumberAndAUnit) {
  EXPECT_EQ(Duration("1500ms"), 1500U);
  EXPECT_EQ(Duration("90s"), 90'000U);
  EXPECT_EQ(Duration("5m"), 300'000U);
  EXPECT_EQ(Duration("2h"), 7'200'000U);
  EXPECT_EQ(Duration("3d"), 259'200'000U);
  EXPECT_EQ(Duration("0s"), 0U);
  EXPECT_EQ(DurationError("90"),
            "'90' is not a length of time: expected a whole number and a unit: ms, s, m, h or d "
            "(e.g. 90s, 5m, 2h, 3d)");
  EXPECT_NE(DurationError("s").find("is not a length of time"), std::string::npos);
  EXPECT_NE(DurationError("1.5m").find("is not a length of time"), std::string::npos);
  EXPECT_NE(DurationError("-5s").find("is not a length of time"), std::string::npos);
  EXPECT_NE(DurationError("5w").find("unknown unit 'w'"), std::string::npos);
  EXPECT_NE(DurationError("99999999999999999999s").find("too long"), std::string::npos);
  EXPECT_NE(DurationError("99999999999999999d").find("too long"), std::string::npos);
}

TEST(ClockOptions, ALiveClockHasABankAndAnIncrement) {
  const wire::TimeControl live = Clock("live:5m+3s", "30s", "forfeit");
  EXPECT_EQ(live.kind(), wire::CLOCK_KIND_LIVE);
  EXPECT_EQ(live.bank_ms(), 300'000U);
  EXPECT_EQ(live.increment_ms(), 3'000U);
  EXPECT_EQ(live.decision_ms(), 0U);
  EXPECT_EQ(live.grace_ms(), 30'000U);
  EXPECT_EQ(live.on_absent(), wire::ABSENT_POLICY_FORFEIT);
  EXPECT_EQ(TimeControlText(live), "live 5m+3s, grace 30s, on absent: forfeit");
}

TEST(ClockOptions, ACorrespondenceClockHasATimePerDecision) {
  const wire::TimeControl mail = Clock("correspondence:2d");
  EXPECT_EQ(mail.kind(), wire::CLOCK_KIND_CORRESPONDENCE);
  EXPECT_EQ(mail.decision_ms(), 172'800'000U);
  EXPECT_EQ(mail.grace_ms(), 0U);
  EXPECT_EQ(mail.on_absent(), wire::ABSENT_POLICY_STAND_IN);
  EXPECT_EQ(TimeControlText(mail), "correspondence 2d a decision, on absent: stand-in");
}

TEST(ClockOptions, NoClockAndNoGraceAsksForNothing) {
  const auto nothing = TimeControlFromOptions("none", "0s", "");
  ASSERT_TRUE(std::holds_alternative<std::optional<wire::TimeControl>>(nothing));
  EXPECT_FALSE(std::get<std::optional<wire::TimeControl>>(nothing).has_value());
  // A grace period alone is a time control without a clock.
  const wire::TimeControl grace = Clock("none", "2m", "stand-in");
  EXPECT_EQ(grace.kind(), wire::CLOCK_KIND_NONE);
  EXPECT_EQ(grace.grace_ms(), 120'000U);
  EXPECT_EQ(TimeControlText(grace), "no clock, grace 2m, on absent: stand-in");
}

TEST(ClockOptions, BadTextGetsAnErrorThatSaysWhatWasExpected) {
  EXPECT_EQ(ClockError("blitz"),
            "--clock blitz: expected none, live:<bank>+<increment> (e.g. live:5m+3s) or "
            "correspondence:<time per decision> (e.g. correspondence:2d)");
  EXPECT_NE(ClockError("live").find("--clock live: expected none, live:"), std::string::npos);
  EXPECT_EQ(ClockError("live:5m"),
            "--clock live:5m: a live clock needs a bank and an increment, e.g. live:5m+3s");
  EXPECT_NE(ClockError("live:5+3s").find("--clock live:5+3s: the bank '5' is not a length of time"),
            std::string::npos);
  EXPECT_NE(ClockError("live:5m+3x").find("the increment '3x' has an unknown unit 'x'"),
            std::string::npos);
  EXPECT_NE(ClockError("correspondence:").find("the time per decision '' is not a length"),
            std::string::npos);
  EXPECT_NE(ClockError("none", "soon").find("--grace 'soon' is not a length of time"),
            std::string::npos);
  EXPECT_EQ(ClockError("live:5m+0s", "0s", "resign"),
            "--on-absent resign: expected stand-in or forfeit");
  EXPECT_EQ(ClockError("none", "0s", "forfeit"),
            "--on-absent forfeit: nothing to apply it to without a --clock or a --grace period");
}

TEST(ClockOptions, ClocksShowMinutesHoursOrDays) {
  EXPECT_EQ(ClockText(0), "00:00");
  EXPECT_EQ(ClockText(-20), "00:00");
  EXPECT_EQ(ClockText(1), "00:01");
  EXPECT_EQ(ClockText(299'001), "05:00");
  EXPECT_EQ(ClockText(3'600'000), "1:00:00");
  EXPECT_EQ(ClockText(2 * 86'400'000 + 4 * 3'600'000), "2d 04h");
  EXPECT_EQ(DurationText(90'000), "90s");
  EXPECT_EQ(DurationText(1'500), "1500ms");
  EXPECT_EQ(DurationText(0), "0s");

  wire::Clocks clocks;
  clocks.set_game_id("g1");
  clocks.add_remaining_ms(61'000);
  clocks.add_remaining_ms(3'000);
  clocks.set_running(1);
  EXPECT_EQ(ClocksText(clocks), "clocks: seat 0 01:01, seat 1 00:03 (running)");
  clocks.clear_running();
  EXPECT_EQ(ClocksText(clocks), "clocks: seat 0 01:01, seat 1 00:03");
  EXPECT_TRUE(ClocksJson(clocks)["running"].is_null());
}

}  // namespace
}  // namespace carc::client
