// carc-client's addresses (tools/carc-client/url.h, shards.h): which URL a game is played at when
// --server is a proxy in front of shards (BASE/shard/NAME/) or a server alone (BASE), and what
// counts as the proxy's list of shards; which shards a full shard's creates go to.
#include "url.h"

#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "shards.h"

namespace carc::client {
namespace {

ServerUrl Url(const std::string& text) {
  auto parsed = ParseServerUrl(text);
  EXPECT_TRUE(std::holds_alternative<ServerUrl>(parsed)) << text;
  return std::holds_alternative<ServerUrl>(parsed) ? std::get<ServerUrl>(parsed) : ServerUrl{};
}

std::string GameAt(const std::string& base, const std::string& game_id) {
  return GameUrl(Url(base), game_id).ToString();
}

TEST(GameUrl, AGameOfAShardIsPlayedAtItsShardsPathBehindTheBase) {
  EXPECT_EQ(GameAt("ws://127.0.0.1:8080", "b-g12"), "ws://127.0.0.1:8080/shard/b/");
  EXPECT_EQ(GameAt("ws://127.0.0.1:8080/", "b-g12"), "ws://127.0.0.1:8080/shard/b/");
  EXPECT_EQ(GameAt("ws://games.example:80/carc", "eu2-g1"),
            "ws://games.example:80/carc/shard/eu2/");
  EXPECT_EQ(GameAt("ws://games.example/carc/", "eu2-g1"), "ws://games.example:80/carc/shard/eu2/");
  EXPECT_EQ(GameAt("ws://[::1]:9000", "a-g3"), "ws://[::1]:9000/shard/a/");
  // Only the path changes: the host and port (the proxy) stay.
  const ServerUrl url = GameUrl(Url("ws://localhost:18080"), "abcdefghijklmnop-g7");
  EXPECT_EQ(url.host, "localhost");
  EXPECT_EQ(url.port, "18080");
  EXPECT_EQ(url.path, "/shard/abcdefghijklmnop/");
}

TEST(GameUrl, AGameOfAServerAloneAndAnythingElseGoesToTheBaseItself) {
  for (const std::string base : {"ws://127.0.0.1:8080", "ws://127.0.0.1:8080/carc/"}) {
    const std::string itself = Url(base).ToString();
    EXPECT_EQ(GameAt(base, "g12"), itself);
    EXPECT_EQ(GameAt(base, ""), itself);
    // Not a shard's name before the dash: no shard is named; the server answers the id.
    EXPECT_EQ(GameAt(base, "B-g1"), itself);
    EXPECT_EQ(GameAt(base, "1a-g1"), itself);
    EXPECT_EQ(GameAt(base, "-g1"), itself);
    EXPECT_EQ(GameAt(base, "abcdefghijklmnopq-g1"), itself) << "17 characters";
    EXPECT_EQ(GameAt(base, "a.b-g1"), itself);
    EXPECT_EQ(GameAt(base, "../x-g1"), itself);
  }
}

TEST(GameUrl, TheShardOfAGameIsTheNameBeforeItsFirstDash) {
  EXPECT_EQ(ShardOfGame("b-g12"), "b");
  EXPECT_EQ(ShardOfGame("eu2-g1"), "eu2");
  EXPECT_EQ(ShardOfGame("g12"), "");
  EXPECT_EQ(ShardOfGame("Eu-g1"), "");
}

TEST(ShardList, TheProxysAnswerListsTheShardsInItsOrder) {
  EXPECT_EQ(ParseShardList(200, R"({"shards":["a","b","c"]})"),
            (std::optional<std::vector<std::string>>{{"a", "b", "c"}}));
  EXPECT_EQ(ShardListPath(Url("ws://h:1")), "/shards");
  EXPECT_EQ(ShardListPath(Url("ws://h:1/carc/")), "/carc/shards");
}

TEST(ShardList, AnythingElseMeansOneServerAlone) {
  EXPECT_EQ(ParseShardList(404, R"({"error":"not found"})"), std::nullopt) << "a server alone";
  EXPECT_EQ(ParseShardList(404, R"({"shards":["a"]})"), std::nullopt);
  EXPECT_EQ(ParseShardList(200, "<!doctype html><title>carc</title>"), std::nullopt);
  EXPECT_EQ(ParseShardList(200, ""), std::nullopt);
  EXPECT_EQ(ParseShardList(200, R"(["a","b"])"), std::nullopt);
  EXPECT_EQ(ParseShardList(200, R"({"shards":[]})"), std::nullopt);
  EXPECT_EQ(ParseShardList(200, R"({"shards":"a"})"), std::nullopt);
  EXPECT_EQ(ParseShardList(200, R"({"shards":["a",2]})"), std::nullopt);
  EXPECT_EQ(ParseShardList(200, R"({"shards":["a","../admin"]})"), std::nullopt)
      << "a name goes into a URL: only shard names";
}

TEST(ShardsToTryAfter, AFullShardsCreatesGoToTheOthersStartingAfterIt) {
  const std::vector<std::string> shards = {"a", "b", "c", "d"};
  EXPECT_EQ(ShardsToTryAfter(shards, "b"), (std::vector<std::string>{"c", "d", "a"}));
  EXPECT_EQ(ShardsToTryAfter(shards, "d"), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(ShardsToTryAfter(shards, "a"), (std::vector<std::string>{"b", "c", "d"}));
  EXPECT_EQ(ShardsToTryAfter({"a"}, "a"), std::vector<std::string>{}) << "no other shard";
}

TEST(ShardsToTryAfter, EveryShardWhenTheRefusingServerIsNotInTheList) {
  const std::vector<std::string> shards = {"a", "b"};
  EXPECT_EQ(ShardsToTryAfter(shards, ""), shards) << "a server that did not say its name";
  EXPECT_EQ(ShardsToTryAfter(shards, "z"), shards);
  EXPECT_EQ(ShardsToTryAfter({}, "a"), std::vector<std::string>{});
}

}  // namespace
}  // namespace carc::client
