// Fair draws (persistence/fair_draws.h): the proof's text, its commitment, and the check of a
// whole game's draws against them, for every rule set, honest and tampered.
#include "persistence/fair_draws.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "castle/default_data.h"
#include "castle/game.h"
#include "castle/rule_set.h"
#include "core/rule_set.h"
#include "persistence/replay.h"
#include "registry.h"

namespace carc::persistence {
namespace {

// A whole game of `rules` played by random choices (seeded), as the log would hold it.
struct PlayedGame {
  int players = 2;
  core::Options options;
  uint64_t seed = 0;
  std::vector<int> order;
  std::vector<ActionRecord> actions;
};

// The game is `game` when given (a game set up otherwise than `rules` would from `seed`).
PlayedGame PlayRandomGame(const core::RuleSet& rules, int players, uint64_t seed,
                          std::unique_ptr<core::State> game = nullptr) {
  PlayedGame played;
  played.players = players;
  played.options = std::get<core::Options>(rules.CompleteOptions({}));
  played.seed = seed;
  if (game == nullptr) {
    auto created = rules.NewGame(players, played.options, seed);
    game = std::get<std::unique_ptr<core::State>>(std::move(created));
  }
  played.order = game->Order();
  std::mt19937_64 random(seed);
  while (!game->IsOver()) {
    const core::Actor actor = game->CurrentActor();
    const std::vector<std::string> legal = game->LegalActions();
    const std::string action = legal[random() % legal.size()];
    EXPECT_FALSE(game->Apply(actor, action, nullptr));
    played.actions.push_back(
        ActionRecord{played.actions.size() + 1, StoredSeat(actor), action, game->Hash(), 0});
  }
  return played;
}

constexpr DrawSalt kSalt = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

std::variant<FairDraws, std::string> Verify(const core::RuleSet& rules, const PlayedGame& played,
                                            const std::string& commitment,
                                            const std::string& proof) {
  return VerifyDraws(
      rules, played.players, played.options, commitment, proof, played.actions.size(),
      [&](core::State& game, size_t i) -> std::optional<std::string> {
        const ActionRecord& a = played.actions[i];
        const core::Actor actor = a.seat < 0 ? core::kChanceActor : a.seat;
        if (auto error = game.Apply(actor, a.action, nullptr)) {
          return error->message;
        }
        return std::nullopt;
      },
      [&](size_t i) { return played.actions[i].state_hash; });
}

std::string Reason(const std::variant<FairDraws, std::string>& result) {
  const auto* reason = std::get_if<std::string>(&result);
  return reason ? *reason : "fair";
}

size_t Draws(const PlayedGame& played) {
  size_t draws = 0;
  for (const ActionRecord& a : played.actions) draws += a.seat < 0 ? 1 : 0;
  return draws;
}

TEST(FairDrawsTest, TheProofIsCanonicalTextAndItsCommitmentItsSha256) {
  const DrawProof proof{"the-city", 1, 42, {3, 1, 2}, "0102030405060708090a0b0c0d0e0f10"};
  const std::string text = FormatDrawProof(proof);
  EXPECT_EQ(text,
            "carc-draws 1\nrule-set the-city 1\nseed 42\norder 3 1 2\n"
            "salt 0102030405060708090a0b0c0d0e0f10\n");
  EXPECT_EQ(std::get<DrawProof>(ParseDrawProof(text)), proof);
  // What `printf 'abc' | sha256sum` prints.
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  for (const std::string& bad :
       {std::string("carc-draws 2\n") + text.substr(13), text.substr(0, text.size() - 1),
        text + "\n",
        std::string("carc-draws 1\nrule-set the-city 1\nseed 042\norder 3 1 2\n"
                    "salt 0102030405060708090a0b0c0d0e0f10\n"),
        std::string("carc-draws 1\nrule-set the-city 1\nseed 42\norder 3 1 2\nsalt 0102\n")}) {
    EXPECT_TRUE(std::holds_alternative<std::string>(ParseDrawProof(bad))) << bad;
  }
}

TEST(FairDrawsTest, AnHonestGameOfEveryRuleSetPasses) {
  const RuleSetRegistry registry = DefaultRuleSets();
  for (const core::RuleSet* rules : registry.All()) {
    const PlayedGame played = PlayRandomGame(*rules, rules->Type().min_players, 7);
    const DrawCommitment c = CommitToDraws(rules->Type(), played.seed, played.order, kSalt);
    const auto result = Verify(*rules, played, c.commitment, c.proof);
    ASSERT_TRUE(std::holds_alternative<FairDraws>(result))
        << rules->Type().id << ": " << Reason(result);
    EXPECT_EQ(std::get<FairDraws>(result).draws, Draws(played)) << rules->Type().id;
    EXPECT_GT(Draws(played), 0u);
    // The commitment may be given in capitals (as some sha256 tools print it).
    std::string upper = c.commitment;
    for (char& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    EXPECT_EQ(Reason(Verify(*rules, played, upper, c.proof)), "fair");
  }
}

class TamperedTest : public ::testing::Test {
 protected:
  RuleSetRegistry registry_ = DefaultRuleSets();
  const core::RuleSet& rules_ = *registry_.Find("the-city");
  PlayedGame played_ = PlayRandomGame(rules_, 2, 11);
  DrawCommitment honest_ = CommitToDraws(rules_.Type(), played_.seed, played_.order, kSalt);
};

TEST_F(TamperedTest, ATamperedCommitmentFails) {
  std::string commitment = honest_.commitment;
  commitment[0] = commitment[0] == '0' ? '1' : '0';
  EXPECT_EQ(Reason(Verify(rules_, played_, commitment, honest_.proof)),
            "the proof does not match the commitment: its SHA-256 is " + honest_.commitment +
                ", the commitment is " + commitment);
}

TEST_F(TamperedTest, AProofChangedAfterTheCommitmentFails) {
  std::vector<int> order = played_.order;
  std::swap(order[0], order[1]);
  const DrawCommitment other = CommitToDraws(rules_.Type(), played_.seed, order, kSalt);
  EXPECT_EQ(Reason(Verify(rules_, played_, honest_.commitment, other.proof)).substr(0, 42),
            "the proof does not match the commitment: i");
}

TEST_F(TamperedTest, ATamperedOrderFails) {
  // A server that committed to an order of its own choosing, not the one the seed deals.
  std::vector<int> order = played_.order;
  std::swap(order[2], order[5]);
  const DrawCommitment c = CommitToDraws(rules_.Type(), played_.seed, order, kSalt);
  EXPECT_EQ(Reason(Verify(rules_, played_, c.commitment, c.proof)),
            "the committed order is not the one the-city deals from seed 11 (they differ at "
            "position 3)");
}

TEST_F(TamperedTest, ATamperedSeedFails) {
  const DrawCommitment c = CommitToDraws(rules_.Type(), played_.seed + 1, played_.order, kSalt);
  EXPECT_EQ(Reason(Verify(rules_, played_, c.commitment, c.proof)).substr(0, 66),
            "the committed order is not the one the-city deals from seed 12 (th");
}

TEST_F(TamperedTest, ATamperedDrawFails) {
  // The fourth draw of the log names another tile than the order's next one.
  size_t draws = 0;
  size_t step = 0;
  for (size_t i = 0; i < played_.actions.size(); ++i) {
    if (played_.actions[i].seat < 0 && ++draws == 4) step = i;
  }
  const std::string honest = played_.actions[step].action;
  const std::string other =
      played_.actions[step].action == "draw " + std::to_string(played_.order[0])
          ? "draw " + std::to_string(played_.order[1])
          : "draw " + std::to_string(played_.order[0]);
  played_.actions[step].action = other;
  const std::string reason = Reason(Verify(rules_, played_, honest_.commitment, honest_.proof));
  EXPECT_EQ(reason.substr(0, reason.find(": ", reason.find("('")) + 1),
            "step " + std::to_string(step + 1) +
                ": the draw is not the committed order's next "
                "tile ('" +
                honest + "'):");
}

TEST(FairDrawsTest, TheCastlesWallFollowsFromTheSeedAsDocumented) {
  // docs/fairness.md, "The Castle's wall tiles": the 18 wall tiles 1 1 2 2 ... 9 9 shuffled by
  // SplitMix64 seeded with Mix64(seed ^ 0xCA571E000A11), the first 13 on corner towers 1-13.
  castle::Config config;
  config.players = 2;
  config.layout = castle::DefaultLayout();
  const std::vector<std::pair<uint64_t, std::vector<int>>> vectors = {
      {0, {0, 6, 9, 8, 4, 4, 9, 6, 2, 7, 3, 1, 7, 1}},
      {42, {0, 1, 9, 3, 7, 1, 5, 3, 6, 4, 9, 2, 7, 5}},
  };
  for (const auto& [seed, wall] : vectors) {
    auto game = castle::Game::Create(castle::DefaultTileSet(), config, seed);
    EXPECT_EQ(std::get<castle::Game>(game).WallLayout(), wall) << "seed " << seed;
  }
}

TEST(FairDrawsTest, AGameOfTheCastleOnAnotherWallThanTheSeedsFails) {
  // The Castle's face-down wall tiles follow from the seed in the proof; a game drawn in the
  // committed order but played on other wall tiles fails at the first wall tile taken, whose
  // number the state hash holds.
  const RuleSetRegistry registry = DefaultRuleSets();
  const core::RuleSet& rules = *registry.Find(castle::kRuleSetId);
  castle::Config config;
  config.players = 2;
  config.layout = castle::DefaultLayout();
  for (uint64_t seed = 1; seed < 50; ++seed) {
    const std::vector<int> order = std::get<std::vector<int>>(
        castle::Game::ShuffledOrder(*castle::DefaultTileSet(), config, seed));
    auto honest = castle::Game::Create(castle::DefaultTileSet(), config, seed);
    std::vector<int> wall = std::get<castle::Game>(honest).WallLayout();
    wall.erase(wall.begin());                    // corner 0 holds none
    for (int& tile : wall) tile = tile % 9 + 1;  // another number on every corner tower
    auto other = castle::Game::CreateWithOrder(castle::DefaultTileSet(), config, seed, order, wall);
    PlayedGame played =
        PlayRandomGame(rules, 2, seed, castle::WrapGame(std::get<castle::Game>(std::move(other))));
    // The step that took the first wall tile, replayed on the seed's own wall.
    auto replayed = rules.NewGameWithOrder(2, played.options, seed, played.order);
    auto& game = *std::get<std::unique_ptr<core::State>>(std::move(replayed));
    size_t taken = 0;
    for (; taken < played.actions.size(); ++taken) {
      const ActionRecord& a = played.actions[taken];
      ASSERT_FALSE(game.Apply(a.seat < 0 ? core::kChanceActor : a.seat, a.action, nullptr));
      if (game.Hash() != a.state_hash) break;
    }
    if (taken == played.actions.size()) continue;  // no wall tile was taken: another seed
    const DrawCommitment c = CommitToDraws(rules.Type(), seed, played.order, kSalt);
    const std::string reason = Reason(Verify(rules, played, c.commitment, c.proof));
    EXPECT_EQ(reason.substr(0, reason.find(" is ")),
              "step " + std::to_string(taken + 1) + ": the state hash after it")
        << reason;
    return;
  }
  FAIL() << "no game of seeds 1-49 took a wall tile";
}

TEST_F(TamperedTest, AStateHashNotTheEnginesFails) {
  played_.actions[6].state_hash ^= 1;
  const std::string reason = Reason(Verify(rules_, played_, honest_.commitment, honest_.proof));
  EXPECT_EQ(reason.substr(0, reason.find(" is ")), "step 7: the state hash after it") << reason;
}

TEST_F(TamperedTest, AGameNotOverOrWithoutCommitmentSaysSo) {
  EXPECT_EQ(Reason(Verify(rules_, played_, honest_.commitment, "")),
            "the proof is not revealed: the game is not over");
  EXPECT_EQ(Reason(Verify(rules_, played_, "", "")).substr(0, 34),
            "the game has no draw commitment (i");
}

}  // namespace
}  // namespace carc::persistence
