// What every game's codec (server/protocol/<game>/codec.cc) uses to read a message from the
// wire: a Decoder collects what is wrong while a message is decoded, so each decoder reads
// straight through its fields and answers once at the end.
#pragma once

#include <utility>

namespace carc::protocol {

class Decoder {
 public:
  // `value` narrowed to the engine's type T; out of T's range marks the message malformed.
  template <typename T, typename V>
  T Get(V value) {
    if (!std::in_range<T>(value)) ok_ = false;  // compares across signedness correctly
    return static_cast<T>(value);
  }
  // `value` below `limit` (a count of tiles, seats, features, rotations).
  template <typename T, typename V>
  T Below(V value, int limit) {
    Require(std::cmp_less(value, limit));
    return Get<T>(value);
  }
  void Require(bool condition) { ok_ = ok_ && condition; }
  bool ok() const { return ok_; }

 private:
  bool ok_ = true;
};

}  // namespace carc::protocol
