// Clocks and absent players as carc-client takes and shows them (docs/protocol.md, section 15):
// create's --clock, --grace and --on-absent read into CreateGame.time_control (bad text gets an
// error that says what was expected, and nothing is sent), a time control and every seat's clock
// as text and JSON.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "protocol/envelope.h"

namespace carc::client {

namespace wire = protocol::wire;

// A length of time: a whole number and its unit, "1500ms", "90s", "5m", "2h" or "3d"; in
// milliseconds, or why not.
std::variant<uint64_t, std::string> ParseDuration(std::string_view text);

// --clock: "none", "live:<bank>+<increment>" (e.g. live:5m+3s) or "correspondence:<per decision>"
// (e.g. correspondence:2d); the kind and its times, or why not.
std::variant<wire::TimeControl, std::string> ParseClock(std::string_view text);

// --on-absent: "stand-in" or "forfeit".
std::variant<wire::AbsentPolicy, std::string> ParseAbsentPolicy(std::string_view text);

// The three options together as CreateGame.time_control: nullopt when they ask for nothing (no
// clock, no grace period: absent players are waited for). `on_absent` empty: the default
// (stand-in); given where nothing could apply it (no clock, no grace period), it is an error.
std::variant<std::optional<wire::TimeControl>, std::string> TimeControlFromOptions(
    std::string_view clock, std::string_view grace, std::string_view on_absent);

// A duration the way --clock takes it, in its largest whole unit: "90s", "5m", "2d", "1500ms".
std::string DurationText(uint64_t ms);

// A clock's time, rounded up to the second: "04:59", "1:04:59", "2d 04h"; 0 or less: "00:00".
std::string ClockText(int64_t ms);

// "live 5m+3s, grace 2m, on absent: stand-in"; "no clock" (and the grace and policy if any).
std::string TimeControlText(const wire::TimeControl& time_control);
nlohmann::json TimeControlJson(const wire::TimeControl& time_control);

// "clocks: seat 0 04:59 (running), seat 1 05:00" from a Clocks message.
std::string ClocksText(const wire::Clocks& clocks);
nlohmann::json ClocksJson(const wire::Clocks& clocks);

}  // namespace carc::client
