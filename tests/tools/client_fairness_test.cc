// carc-client's verify-draws check of a Replay (tools/carc-client/fairness.h), on replays made
// here from The Castle's engine as the server makes them (the codec's steps, the state hashes):
// an honest game passes; a game played on face-down wall tiles that the committed seed does not
// lay fails, and so does a replay whose revealed wall tile or state hash was changed.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "carcassonne/castle/v1/castle.pb.h"
#include "castle/default_data.h"
#include "castle/game.h"
#include "castle/rule_set.h"
#include "core/hash.h"
#include "fairness.h"
#include "persistence/fair_draws.h"
#include "protocol/game_codec.h"

namespace carc::client {
namespace {

namespace cv1 = ::carcassonne::castle::v1;

constexpr persistence::DrawSalt kSalt = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

castle::Config CastleConfig() {
  castle::Config config;
  config.players = 2;
  config.layout = castle::DefaultLayout();
  return config;
}

// The wall tile the seed lays on each corner tower (index 0, which holds none, left out).
std::vector<int> SeedsWall(uint64_t seed) {
  auto game = castle::Game::Create(castle::DefaultTileSet(), CastleConfig(), seed);
  const std::vector<int> wall = std::get<castle::Game>(game).WallLayout();
  return {wall.begin() + 1, wall.end()};
}

// A whole game of The Castle committed to `seed` (its order and its wall), but played on `wall`
// when given, by seeded random choices, as the server's replay shows it.
struct Played {
  wire::Replay replay;
  int wall_tiles_taken = 0;
  int first_taken_step = -1;  // 0-based step whose events hold the first wall tile taken
  size_t draws = 0;
};

Played PlayCastle(uint64_t seed, const std::vector<int>& wall = {}) {
  const protocol::GameCodec& codec = *protocol::FindGameCodec(castle::kRuleSetId);
  auto order = castle::Game::ShuffledOrder(*castle::DefaultTileSet(), CastleConfig(), seed);
  const std::vector<int> committed = std::get<std::vector<int>>(order);
  auto created = castle::Game::CreateWithOrder(castle::DefaultTileSet(), CastleConfig(), seed,
                                               committed, wall);
  std::unique_ptr<core::State> state = castle::WrapGame(std::get<castle::Game>(std::move(created)));
  Played played;
  wire::GameInfo& info = *played.replay.mutable_game();
  info.set_rule_set(castle::kRuleSetId);
  info.set_rule_set_version(castle::kRuleSetVersion);
  info.set_seats(2);
  const persistence::DrawCommitment draws =
      persistence::CommitToDraws(castle::Type(), seed, committed, kSalt);
  info.set_draw_commitment(draws.commitment);
  info.set_draw_proof(draws.proof);
  core::Random random(seed);
  while (!state->IsOver()) {
    const core::Actor actor = state->CurrentActor();
    const std::vector<std::string> legal = state->LegalActions();
    EXPECT_FALSE(state->Apply(actor, legal[random.Below(legal.size())], nullptr));
    if (actor == core::kChanceActor) ++played.draws;
    const protocol::EncodedStep step = codec.EncodeLastStep(*state);
    wire::Delta& delta = *played.replay.add_steps();
    delta.set_sequence(static_cast<uint64_t>(played.replay.steps_size()));
    delta.set_action(step.action);
    for (const std::string& event : step.events) {
      cv1::Event decoded;
      EXPECT_TRUE(decoded.ParseFromString(event));
      if (decoded.has_wall_tile_taken()) {
        if (played.first_taken_step < 0) played.first_taken_step = played.replay.steps_size() - 1;
        ++played.wall_tiles_taken;
      }
      delta.add_events(event);
    }
    delta.set_state_hash(state->Hash());
  }
  return played;
}

// A seed whose random game takes at least one wall tile from a corner tower.
uint64_t SeedTakingAWallTile() {
  for (uint64_t seed = 1; seed < 50; ++seed) {
    if (PlayCastle(seed).wall_tiles_taken > 0) return seed;
  }
  ADD_FAILURE() << "no game of seeds 1-49 took a wall tile";
  return 1;
}

std::string Check(const wire::Replay& replay) {
  const auto checked = CheckReplayDraws(replay, castle::DefaultTileSet(), "");
  if (const auto* why = std::get_if<std::string>(&checked)) return *why;
  return "fair: " + std::to_string(std::get<CheckedDraws>(checked).draws) + " draws";
}

TEST(ClientFairness, AnHonestGameOfTheCastlePasses) {
  const Played played = PlayCastle(SeedTakingAWallTile());
  ASSERT_GT(played.wall_tiles_taken, 0);
  EXPECT_EQ(Check(played.replay), "fair: " + std::to_string(played.draws) + " draws");
}

TEST(ClientFairness, AGamePlayedOnAnotherWallThanTheSeedsFails) {
  // Every corner tower holds another wall tile than the one the committed seed lays there; the
  // tiles are drawn in the committed order all the same.
  const uint64_t seed = SeedTakingAWallTile();
  std::vector<int> wall = SeedsWall(seed);
  for (int& tile : wall) tile = tile % 9 + 1;
  const Played played = PlayCastle(seed, wall);
  ASSERT_GT(played.wall_tiles_taken, 0);
  const std::string why = Check(played.replay);
  EXPECT_EQ(
      why.find("step " + std::to_string(played.first_taken_step + 1) + ": the replay's event "), 0u)
      << why;
  EXPECT_NE(why.find("wall_tile_taken"), std::string::npos) << why;
}

TEST(ClientFairness, AReplayWhoseRevealedWallTileWasChangedFails) {
  Played played = PlayCastle(SeedTakingAWallTile());
  wire::Delta& step = *played.replay.mutable_steps(played.first_taken_step);
  for (std::string& event : *step.mutable_events()) {
    cv1::Event decoded;
    ASSERT_TRUE(decoded.ParseFromString(event));
    if (!decoded.has_wall_tile_taken()) continue;
    decoded.mutable_wall_tile_taken()->set_wall(decoded.wall_tile_taken().wall() % 9 + 1);
    event = decoded.SerializeAsString();
  }
  const std::string why = Check(played.replay);
  EXPECT_EQ(
      why.find("step " + std::to_string(played.first_taken_step + 1) + ": the replay's event "), 0u)
      << why;
  EXPECT_NE(why.find("wall_tile_taken"), std::string::npos) << why;
}

TEST(ClientFairness, AReplayWhoseStateHashWasChangedFails) {
  Played played = PlayCastle(SeedTakingAWallTile());
  wire::Delta& step = *played.replay.mutable_steps(played.first_taken_step);
  step.set_state_hash(step.state_hash() ^ 1);
  const std::string why = Check(played.replay);
  EXPECT_EQ(why.find("step " + std::to_string(played.first_taken_step + 1) +
                     ": the state hash after it is "),
            0u)
      << why;
}

}  // namespace
}  // namespace carc::client
