// Public game ids and the shard each names (room/game_ids.h).
#include "room/game_ids.h"

#include <gtest/gtest.h>

namespace carc::server {
namespace {

TEST(GameIds, AShardsIdsCarryItsName) {
  EXPECT_EQ(PublicGameId("", 12), "g12");
  EXPECT_EQ(PublicGameId("b", 12), "b-g12");
  EXPECT_EQ(PublicGameId("eu2", 7), "eu2-g7");
}

TEST(GameIds, EachServerKnowsItsOwnGamesAndWhoseTheOthersAre) {
  const auto own = [](std::string_view shard, std::string_view id) {
    const GameIdMeaning m = ParsePublicGameId(shard, id);
    const auto* game = std::get_if<OwnGame>(&m);
    return game == nullptr ? -1 : game->number;
  };
  const auto other = [](std::string_view shard, std::string_view id) {
    const GameIdMeaning m = ParsePublicGameId(shard, id);
    const auto* game = std::get_if<OtherShardsGame>(&m);
    return game == nullptr ? std::string("(none)") : game->shard;
  };
  EXPECT_EQ(own("", "g12"), 12);
  EXPECT_EQ(own("b", "b-g12"), 12);
  EXPECT_EQ(other("a", "b-g12"), "b");
  EXPECT_EQ(other("", "b-g12"), "b") << "a server alone owns no shard's game";
  // Neither its own nor a shard's: a shard is never asked for the ids of a server alone.
  EXPECT_TRUE(std::holds_alternative<NotAGameId>(ParsePublicGameId("b", "g12")));
  // One id per game: a number with a leading zero names none.
  EXPECT_TRUE(std::holds_alternative<NotAGameId>(ParsePublicGameId("", "g012")));
  for (const char* junk : {"", "g", "g0", "g-3", "b-", "b-x12", "B-g12", "-g12", "b-g12-c", "b g12",
                           "abcdefghijklmnopq-g1", "b-g012", "b-g+1"}) {
    EXPECT_TRUE(std::holds_alternative<NotAGameId>(ParsePublicGameId("b", junk))) << junk;
  }
}

TEST(GameIds, AShardNameIsALowercaseLetterThenLettersOrDigits) {
  for (const char* good : {"a", "b2", "eu", "abcdefghijklmnop"}) EXPECT_TRUE(ValidShardName(good));
  for (const char* bad : {"", "2b", "B", "a-b", "a.b", "abcdefghijklmnopq", "a b", "é"}) {
    EXPECT_FALSE(ValidShardName(bad)) << bad;
  }
}

}  // namespace
}  // namespace carc::server
