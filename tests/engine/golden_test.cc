// Golden transcripts: a few seeded random games, move by move with every event, under version
// control in tests/engine/golden/. Any change of rules, scoring or events shows in review as a
// diff of these files. They are also valid action lists (events are comments): `carc replay`
// reads them.
//
// To accept an intended change, run
//   CARC_UPDATE_GOLDEN=1 ./build/test/tests/engine_tests --gtest_filter='*Golden*'
// then review `git diff tests/engine/golden`.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "city/default_tiles.h"
#include "city/game.h"
#include "city/notation.h"
#include "city/random_play.h"

namespace carc::city {
namespace {

std::string Transcript(uint64_t seed, int players, bool eager) {
  Config config;
  config.players = players;
  Game game = std::get<Game>(Game::Create(DefaultTileSet(), config, seed));
  std::string out =
      "# golden transcript: a random game of The City (tests/engine/golden_test.cc)\n";
  out += "game the-city\nplayers " + std::to_string(players) + "\nseed " + std::to_string(seed) +
         "\ntileset " + game.tiles().id() + " " + std::to_string(game.tiles().version()) + "\n";
  core::Random random = ChoiceRandom(seed);
  std::vector<Action> legal;
  std::vector<Event> events;
  while (!game.IsOver()) {
    game.LegalActions(&legal);
    const Action action =
        eager ? EagerChoice(legal, random) : legal[static_cast<size_t>(random.Below(legal.size()))];
    const Actor actor = game.CurrentDecision().actor;
    out += FormatActor(actor) + " " + FormatAction(game, action) + "\n";
    events.clear();
    EXPECT_FALSE(game.Apply(actor, action, &events).has_value());
    for (const Event& e : events) out += "#   " + FormatEvent(e) + "\n";
  }
  for (int p = 0; p < players; ++p) {
    out += "# final p" + std::to_string(p) + ":";
    for (int s = 0; s < kSourceCount; ++s) {
      out += std::string(" ") + ToString(static_cast<Source>(s)) + "=" +
             std::to_string(game.Score(p, static_cast<Source>(s)));
    }
    out += " total=" + std::to_string(game.TotalScore(p)) + "\n";
  }
  char hash[32];
  std::snprintf(hash, sizeof(hash), "%016llx", static_cast<unsigned long long>(game.Hash()));
  out += std::string("# hash ") + hash + "\n";
  return out;
}

struct GoldenGame {
  uint64_t seed;
  int players;
  bool eager;  // EagerChoice instead of uniform choices: more wall, guards and towers
};

std::string GoldenPath(const GoldenGame& g) {
  return std::string(CARC_SOURCE_DIR) + "/tests/engine/golden/seed" + std::to_string(g.seed) + "-" +
         std::to_string(g.players) + "p" + (g.eager ? "-eager" : "") + ".txt";
}

class Golden : public ::testing::TestWithParam<GoldenGame> {};

TEST_P(Golden, TranscriptIsUnchanged) {
  const GoldenGame g = GetParam();
  const std::string actual = Transcript(g.seed, g.players, g.eager);
  const std::string path = GoldenPath(g);
  if (std::getenv("CARC_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(path, std::ios::binary) << actual;
    GTEST_SKIP() << "rewrote " << path;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << "missing " << path << " (run with CARC_UPDATE_GOLDEN=1 to create it)";
  std::ostringstream expected;
  expected << in.rdbuf();
  // Compare line by line so a failure names the first line that changed.
  std::istringstream a(actual), e(expected.str());
  std::string la, le;
  for (int line = 1;; ++line) {
    const bool more_a = static_cast<bool>(std::getline(a, la));
    const bool more_e = static_cast<bool>(std::getline(e, le));
    if (!more_a && !more_e) break;
    ASSERT_EQ(le, la) << path << ":" << line;
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, Golden,
                         ::testing::Values(GoldenGame{1, 4, false}, GoldenGame{2, 3, false},
                                           GoldenGame{3, 2, false}, GoldenGame{58, 4, true}),
                         [](const ::testing::TestParamInfo<GoldenGame>& param_info) {
                           const GoldenGame& g = param_info.param;
                           return "seed" + std::to_string(g.seed) + "_" +
                                  std::to_string(g.players) + "p" + (g.eager ? "_eager" : "");
                         });

}  // namespace
}  // namespace carc::city
