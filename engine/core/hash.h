// Hashing and seeded randomness that give the same numbers on every compiler and platform.
//
// The engine never uses <random> distributions or std::shuffle: their results differ between
// standard libraries, and a game's seed must give the same stacks everywhere (docs/rules.md).
#pragma once

#include <cstdint>
#include <span>

namespace carc::core {

// SplitMix64's output function: a fixed bijection of 64-bit words with good avalanche.
constexpr uint64_t Mix64(uint64_t z) {
  z += 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// The key of one fact of a state, for XOR (Zobrist-style) hashing: order-free, so a state hash
// can be kept up to date by toggling facts in and out.
constexpr uint64_t FactKey(uint64_t domain, uint64_t a, uint64_t b = 0, uint64_t c = 0,
                           uint64_t d = 0) {
  uint64_t h = Mix64(domain);
  h = Mix64(h ^ a);
  h = Mix64(h ^ b);
  h = Mix64(h ^ c);
  return Mix64(h ^ d);
}

// A small, fast, portable generator: SplitMix64 (Steele, Lea, Flood 2014). Its whole state is
// one 64-bit word, so it is trivially copyable with the game.
class Random {
 public:
  explicit constexpr Random(uint64_t seed) : state_(seed) {}

  constexpr uint64_t Next() {
    state_ += 0x9E3779B97F4A7C15ULL;
    uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

  // A uniform integer in [0, bound), bound >= 1, by rejection: draws below 2^64 mod bound are
  // thrown away so that every value is equally likely.
  constexpr uint64_t Below(uint64_t bound) {
    const uint64_t threshold = (0 - bound) % bound;
    for (;;) {
      const uint64_t r = Next();
      if (r >= threshold) return r % bound;
    }
  }

 private:
  uint64_t state_;
};

// Fisher-Yates from the last position down: for i = n-1 .. 1, swap item i with item Below(i+1).
template <typename T>
constexpr void Shuffle(std::span<T> items, Random& random) {
  for (size_t i = items.size(); i > 1; --i) {
    const size_t j = static_cast<size_t>(random.Below(i));
    T tmp = items[i - 1];
    items[i - 1] = items[j];
    items[j] = tmp;
  }
}

}  // namespace carc::core
