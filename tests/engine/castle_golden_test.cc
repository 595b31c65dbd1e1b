// Golden transcripts of The Castle: a few seeded random games, move by move with every event,
// under version control in tests/engine/golden/. Any change of rules, scoring or events shows in
// review as a diff of these files. They are also valid action lists (events are comments).
//
// To accept an intended change, run
//   CARC_UPDATE_GOLDEN=1 ./build/test/tests/engine_tests --gtest_filter='*CastleGolden*'
// then review `git diff tests/engine/golden`.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "castle/default_data.h"
#include "castle/game.h"
#include "castle/notation.h"
#include "castle/random_play.h"
#include "castle/transcript.h"

namespace carc::castle {
namespace {

struct GoldenGame {
  uint64_t seed;
  bool eager;  // EagerChoice instead of uniform choices: more followers, wall tiles used
};

std::string HashText(uint64_t hash) {
  char text[32];
  std::snprintf(text, sizeof(text), "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

std::string GoldenTranscript(const GoldenGame& g) {
  Config config;
  config.layout = DefaultLayout();
  Game game = std::get<Game>(Game::Create(DefaultTileSet(), config, g.seed));
  std::string out =
      "# golden transcript: a random game of The Castle (tests/engine/castle_golden_test.cc)\n";
  out += "game the-castle\nplayers 2\nseed " + std::to_string(g.seed) + "\ntileset " +
         game.tiles().id() + " " + std::to_string(game.tiles().version()) + "\n";
  core::Random random = ChoiceRandom(g.seed);
  std::vector<Action> legal;
  std::vector<Event> events;
  while (!game.IsOver()) {
    game.LegalActions(&legal);
    const Action action = g.eager ? EagerChoice(legal, random)
                                  : legal[static_cast<size_t>(random.Below(legal.size()))];
    const Actor actor = game.CurrentDecision().actor;
    out += FormatActor(actor) + " " + FormatAction(game, action) + "\n";
    events.clear();
    EXPECT_FALSE(game.Apply(actor, action, &events).has_value());
    for (const Event& e : events) out += "#   " + FormatEvent(e) + "\n";
  }
  for (int p = 0; p < game.players(); ++p) {
    out += "# final p" + std::to_string(p) + ":";
    for (int s = 0; s < kSourceCount; ++s) {
      out += std::string(" ") + ToString(static_cast<Source>(s)) + "=" +
             std::to_string(game.Score(p, static_cast<Source>(s)));
    }
    out += " total=" + std::to_string(game.TotalScore(p)) + "\n";
  }
  out += "# hash " + HashText(game.Hash()) + "\n";
  return out;
}

std::string Name(const GoldenGame& g) {
  return "the-castle-seed" + std::to_string(g.seed) + (g.eager ? "-eager" : "");
}

std::string GoldenPath(const GoldenGame& g) {
  return std::string(CARC_SOURCE_DIR) + "/tests/engine/golden/" + Name(g) + ".txt";
}

class CastleGolden : public ::testing::TestWithParam<GoldenGame> {};

TEST_P(CastleGolden, TranscriptIsUnchanged) {
  const GoldenGame g = GetParam();
  const std::string actual = GoldenTranscript(g);
  const std::string path = GoldenPath(g);
  if (std::getenv("CARC_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(path, std::ios::binary) << actual;
    GTEST_SKIP() << "rewrote " << path;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << "missing " << path << " (run with CARC_UPDATE_GOLDEN=1 to create it)";
  std::ostringstream expected;
  expected << in.rdbuf();
  std::istringstream a(actual), e(expected.str());
  std::string la, le;
  for (int line = 1;; ++line) {
    const bool more_a = static_cast<bool>(std::getline(a, la));
    const bool more_e = static_cast<bool>(std::getline(e, le));
    if (!more_a && !more_e) break;
    ASSERT_EQ(le, la) << path << ":" << line;
  }
}

// A golden file is an action list: replaying it reaches the final hash it records.
TEST_P(CastleGolden, TranscriptReplays) {
  const GoldenGame g = GetParam();
  std::ifstream in(GoldenPath(g), std::ios::binary);
  if (!in) GTEST_SKIP() << "no golden file yet";
  std::ostringstream text;
  text << in.rdbuf();
  auto parsed = ParseTranscript(text.str());
  ASSERT_TRUE(std::holds_alternative<castle::Transcript>(parsed));
  const ReplayResult result = Replay(DefaultTileSet(), std::get<castle::Transcript>(parsed));
  ASSERT_FALSE(result.failure.has_value()) << result.failure->ToString();
  ASSERT_TRUE(result.game->IsOver());
  EXPECT_NE(text.str().find("# hash " + HashText(result.game->Hash())), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Seeds, CastleGolden,
                         ::testing::Values(GoldenGame{1, false}, GoldenGame{5, true}),
                         [](const ::testing::TestParamInfo<GoldenGame>& param_info) {
                           std::string name = Name(param_info.param);
                           for (char& c : name) {
                             if (c == '-') c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace carc::castle
