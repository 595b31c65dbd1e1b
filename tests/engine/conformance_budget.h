// How many seeded random games each shard of a conformance test plays. The plain build plays
// them all (10 shards of 1,000 per rule set); a build with AddressSanitizer, where a game costs
// about ten times as much, plays the first tenth of each shard (1,000 games per rule set), enough
// for the sanitizers to see every path the games take (the eager tests make every end condition
// occur), and keeps CI's run short: at a fifth, these shards took 290 s of the sanitizer tests'
// 536 s.
#pragma once

namespace carc::test {

#if defined(__SANITIZE_ADDRESS__)
#define CARC_TEST_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CARC_TEST_UNDER_ASAN 1
#endif
#endif

#ifdef CARC_TEST_UNDER_ASAN
inline constexpr int kConformanceGamesPlayed = 100;
#else
inline constexpr int kConformanceGamesPlayed = 1000;
#endif

}  // namespace carc::test
