// The per-connection rate limit: a token bucket that refills continuously, with the time passed
// in by the caller so that tests can move a clock of their own instead of sleeping.
#pragma once

#include <algorithm>
#include <chrono>
#include <functional>

namespace carc::server {

// Where a session reads the time (the steady clock in the server, a hand-moved one in tests).
using Clock = std::function<std::chrono::steady_clock::time_point()>;
inline std::chrono::steady_clock::time_point SteadyNow() {
  return std::chrono::steady_clock::now();
}

class TokenBucket {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;

  // Full at first: `burst` messages at once, then `per_second` sustained.
  TokenBucket(double per_second, double burst, TimePoint now)
      : per_second_(per_second), burst_(burst), tokens_(burst), refilled_(now) {}

  // Takes one token if there is one; a refusal takes nothing.
  bool Take(TimePoint now) {
    if (now > refilled_) {
      const double elapsed = std::chrono::duration<double>(now - refilled_).count();
      tokens_ = std::min(burst_, tokens_ + elapsed * per_second_);
      refilled_ = now;
    }
    if (tokens_ < 1) return false;
    tokens_ -= 1;
    return true;
  }

 private:
  double per_second_;
  double burst_;
  double tokens_;
  TimePoint refilled_;
};

}  // namespace carc::server
