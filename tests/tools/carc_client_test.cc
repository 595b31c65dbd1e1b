// carc-client, run through its binary as a user would, against a real carc-server started with a
// tile set of its own for The City (--tiles the-city=FILE): the shipped set with every type
// renamed, every area and street relabelled and the types in reverse order, so that tile ids,
// names and feature letters all differ from the set compiled into the engine. The client must
// follow, draw and name everything with the server's set (GetTileSet for the game's rule set),
// never its own.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "../server/server_process.h"
#include "background.h"
#include "core/tileset.h"
#include "run_command.h"

namespace carc {
namespace {

using nlohmann::json;
using test_server::ServerProcess;
using test_server::TempDir;

// Areas a..h become h..a, streets 1..4 become 4..1.
char Relabel(char c) {
  if (c >= 'a' && c <= 'h') return static_cast<char>('h' - (c - 'a'));
  if (c >= '1' && c <= '4') return static_cast<char>('4' - (c - '1'));
  return c;
}

// The shipped tile set, renamed, relabelled and reversed (see the header comment).
std::string OtherTileSetText() {
  std::ifstream in(std::string(CARC_SOURCE_DIR) + "/data/the-city-tiles.txt");
  std::vector<std::string> tiles;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("tile ", 0) != 0) continue;
    std::istringstream words(line);
    std::string word, name, count;
    words >> word >> name >> count;
    std::string out = "tile x-" + name + " " + count;
    for (int side = 0; side < 4 && words >> word; ++side) {
      for (char& c : word) c = Relabel(c);
      out += " " + word;
    }
    while (words >> word) {
      if (word.size() > 1 && word[1] == '=') word[0] = Relabel(word[0]);
      out += " " + word;
    }
    tiles.push_back(out);
  }
  std::string text = "tileset the-city-relabelled 1\n";
  for (auto it = tiles.rbegin(); it != tiles.rend(); ++it) text += *it + "\n";
  return text;
}

class CarcClient : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string text = OtherTileSetText();
    auto parsed = core::ParseTileSet(text);
    ASSERT_TRUE(std::holds_alternative<std::shared_ptr<const core::TileSet>>(parsed))
        << std::get<core::ParseError>(parsed).ToString();
    tiles_ = std::get<std::shared_ptr<const core::TileSet>>(parsed);
    ASSERT_EQ(tiles_->TileCount(), 75);
    const std::string path = (dir_.path() / "other-tiles.txt").string();
    std::ofstream(path) << text;
    server_ =
        std::make_unique<ServerProcess>(dir_.path(), test_server::FreeLoopbackPort(),
                                        std::vector<std::string>{"--tiles", "the-city=" + path});
    ASSERT_TRUE(server_->Start());
  }

  // Runs `carc-client --server <the server> <args>`.
  testing::CommandResult Client(const std::string& args) const {
    return testing::RunCommand(std::string(CARC_CLIENT_BINARY) + " --server ws://127.0.0.1:" +
                               std::to_string(server_->port()) + " " + args);
  }

  TempDir dir_;
  std::unique_ptr<ServerProcess> server_;
  std::shared_ptr<const core::TileSet> tiles_;
};

TEST_F(CarcClient, BotsPlayAWholeGameAndItsReplayNamesFeaturesWithTheServersLetters) {
  const auto bots = Client("bots --seats 2 --seed 7");
  ASSERT_EQ(bots.status, 0) << bots.out;
  const json result = json::parse(bots.out);
  EXPECT_TRUE(result["seats_agree"].get<bool>());
  EXPECT_NE(result["end"], "none");
  const std::string game = result["game_id"];

  const auto replay = Client("replay " + game + " --json");
  ASSERT_EQ(replay.status, 0) << replay.out;
  const json steps = json::parse(replay.out)["steps"];
  int drawn = -1, placed = -1, followers = 0;
  for (const json& step : steps) {
    const std::string action = step["action"];
    std::istringstream words(action);
    std::string verb, arg;
    words >> verb >> arg;
    if (verb == "draw") drawn = std::stoi(arg);
    if (verb == "place") placed = drawn;
    if (verb != "follower" || arg == "none") continue;
    // The letter is the one the server's set gives the feature on the tile just placed.
    ASSERT_GE(placed, 0) << action;
    std::set<std::string> labels;
    for (const core::FeatureDef& f : tiles_->TypeOf(placed).features) labels.insert({f.label});
    EXPECT_TRUE(labels.count(arg)) << "seq " << step["sequence"] << ": '" << action << "' on tile "
                                   << placed << " (" << tiles_->TypeOf(placed).name << ")";
    ++followers;
  }
  EXPECT_GT(followers, 0) << "the bots placed followers";

  const auto text = Client("replay " + game);
  ASSERT_EQ(text.status, 0) << text.out;
  EXPECT_NE(text.out.find("game " + game + " is over"), std::string::npos) << text.out;
}

// The first line of a command's output (the rest may be its notes on standard error).
std::string FirstLine(const std::string& out) { return out.substr(0, out.find('\n')); }

// A person against a bot of the server's: created with the bot, resigned, rematched, and the
// rematch played to its end against the server's bot.
TEST_F(CarcClient, CreatesWithBotsResignsAndPlaysTheRematchAgainstTheServersBot) {
  const auto refused = Client("create --seats 2 --bot 2=greedy");
  EXPECT_NE(refused.status, 0);
  EXPECT_NE(refused.out.find("ERROR_CODE_BAD_BOTS"), std::string::npos) << refused.out;

  const auto created = Client("create --seats 2 --bot 1=greedy --on-resign end-game --json");
  ASSERT_EQ(created.status, 0) << created.out;
  const json game = json::parse(FirstLine(created.out));
  EXPECT_EQ(game["seat"][1]["bot"], "greedy");
  EXPECT_EQ(game["on_resign"], "end-game");
  const std::string id = game["game_id"];
  const auto shown = Client("show " + id);
  EXPECT_NE(shown.out.find("seat 1: 'Greedy bot' (bot: greedy)"), std::string::npos) << shown.out;

  const auto joined = Client("join " + id + " --name ann --json");
  ASSERT_EQ(joined.status, 0) << joined.out;
  const std::string token = json::parse(FirstLine(joined.out))["token"];
  const auto resigned = Client("resign " + id + " --token " + token);
  ASSERT_EQ(resigned.status, 0) << resigned.out;
  EXPECT_NE(resigned.out.find("you resigned; game " + id + " is resigned"), std::string::npos)
      << resigned.out;
  EXPECT_NE(resigned.out.find("seat 0: 'ann' (resigned)"), std::string::npos) << resigned.out;

  const auto rematch = Client("rematch " + id + " --token " + token + " --json");
  ASSERT_EQ(rematch.status, 0) << rematch.out;
  const json again = json::parse(FirstLine(rematch.out));
  EXPECT_EQ(again["rematch_of"], id);
  EXPECT_EQ(again["your_seat"], 0);
  EXPECT_EQ(again["seat"][1]["bot"], "greedy");
  const std::string rematch_id = again["game_id"];

  const auto played = Client("play " + rematch_id + " --token " + std::string(again["token"]) +
                             " --bot random --seed 3 --json");
  ASSERT_EQ(played.status, 0) << played.out;
  EXPECT_NE(played.out.find("\"seat\":0"), std::string::npos) << played.out;
}

TEST_F(CarcClient, CreatesWithAClockAndShowsEverySeatsClock) {
  const auto refused = Client("create --seats 2 --clock live:5m");
  EXPECT_NE(refused.status, 0);
  EXPECT_NE(refused.out.find(
                "--clock live:5m: a live clock needs a bank and an increment, e.g. live:5m+3s"),
            std::string::npos)
      << refused.out;
  const auto bad_grace = Client("create --seats 2 --grace 10");
  EXPECT_NE(bad_grace.status, 0);
  EXPECT_NE(bad_grace.out.find("--grace '10' is not a length of time"), std::string::npos)
      << bad_grace.out;
  const auto none = Client("list --json");
  ASSERT_EQ(none.status, 0) << none.out;
  EXPECT_EQ(json::parse(FirstLine(none.out)).size(), 0U) << "nothing was created: " << none.out;

  const auto created = Client(
      "create --seats 2 --bot 1=greedy --clock live:90s+2s --grace 30s --on-absent forfeit "
      "--json");
  ASSERT_EQ(created.status, 0) << created.out;
  const json game = json::parse(FirstLine(created.out));
  EXPECT_EQ(game["time_control"]["clock"], "live");
  EXPECT_EQ(game["time_control"]["bank_ms"], 90'000);
  EXPECT_EQ(game["time_control"]["increment_ms"], 2'000);
  EXPECT_EQ(game["time_control"]["grace_ms"], 30'000);
  EXPECT_EQ(game["time_control"]["on_absent"], "forfeit");
  EXPECT_EQ(game["seat"][0]["stand_in"], false);
  const std::string id = game["game_id"];

  // Ann joins: the game runs, and her clock with it; the bot's stands still.
  const auto joined = Client("join " + id + " --name ann");
  ASSERT_EQ(joined.status, 0) << joined.out;
  const auto shown = Client("show " + id);
  ASSERT_EQ(shown.status, 0) << shown.out;
  EXPECT_NE(shown.out.find("time control: live 90s+2s, grace 30s, on absent: forfeit"),
            std::string::npos)
      << shown.out;
  EXPECT_TRUE(
      std::regex_search(shown.out, std::regex("seat 0: 'ann'.* clock 01:[0-3][0-9] \\(running\\)")))
      << shown.out;
  EXPECT_NE(shown.out.find("seat 1: 'Greedy bot' (bot: greedy)  clock 01:30\n"), std::string::npos)
      << shown.out;
  const auto shown_json = Client("show " + id + " --json");
  ASSERT_EQ(shown_json.status, 0) << shown_json.out;
  const json state = json::parse(FirstLine(shown_json.out));
  EXPECT_EQ(state["clocks"]["running"], 0);
  EXPECT_EQ(state["clocks"]["remaining_ms"][1], 90'000);
  EXPECT_EQ(state["time_control"]["clock"], "live");
}

TEST_F(CarcClient, PlaySaysWhenAStandInPlaysForAPlayerWhoIsAway) {
  const auto created = Client("create --seats 2 --grace 1s --json");
  ASSERT_EQ(created.status, 0) << created.out;
  const json game = json::parse(FirstLine(created.out));
  EXPECT_EQ(game["time_control"]["clock"], "none");
  EXPECT_EQ(game["time_control"]["grace_ms"], 1'000);
  EXPECT_EQ(game["time_control"]["on_absent"], "stand-in");
  const std::string id = game["game_id"];
  const auto ann = Client("join " + id + " --name ann --json");
  ASSERT_EQ(ann.status, 0) << ann.out;
  const auto bob = Client("join " + id + " --name bob");
  ASSERT_EQ(bob.status, 0) << bob.out;

  // Bob never comes: once Ann plays and his grace period is over, a stand-in plays his seat to
  // the end.
  const std::string token = json::parse(FirstLine(ann.out))["token"];
  const auto played = Client("play " + id + " --token " + token + " --bot random --seed 5");
  ASSERT_EQ(played.status, 0) << played.out;
  EXPECT_NE(played.out.find("seat 1 ('bob') is away: a stand-in (greedy bot) plays it"),
            std::string::npos)
      << played.out;
  EXPECT_NE(played.out.find("game " + id + " is over"), std::string::npos) << played.out;
}

TEST_F(CarcClient, ShowNamesTheTileInHandFromTheServersSet) {
  const auto created = Client("create --seats 2 --seed 5");
  ASSERT_EQ(created.status, 0) << created.out;
  const std::string game = created.out.substr(0, created.out.find('\n'));
  for (const char* name : {"ada", "bo"}) {
    const auto joined = Client("join " + game + " --name " + name);
    ASSERT_EQ(joined.status, 0) << joined.out;
  }
  const auto shown = Client("show " + game);
  ASSERT_EQ(shown.status, 0) << shown.out;
  std::smatch match;
  ASSERT_TRUE(std::regex_search(shown.out, match, std::regex("tile in hand: (\\d+) \\((\\S+)\\)")))
      << shown.out;
  const int tile = std::stoi(match[1].str());
  ASSERT_LT(tile, tiles_->TileCount());
  EXPECT_EQ(match[2].str(), tiles_->TypeOf(tile).name) << shown.out;
  EXPECT_EQ(match[2].str().rfind("x-", 0), 0u) << "a name only the server's set has";
}

TEST_F(CarcClient, CreateNamesTheRuleSetAndItsOptions) {
  const auto created = Client("create --seats 2 --rule-set the-city --json");
  ASSERT_EQ(created.status, 0) << created.out;
  const json game = json::parse(created.out);
  EXPECT_EQ(game["rule_set"], "the-city");
  EXPECT_EQ(game["seats"], 2);

  const auto rule_sets = Client("rule-sets --json");
  ASSERT_EQ(rule_sets.status, 0) << rule_sets.out;
  bool city = false;
  for (const json& r : json::parse(rule_sets.out)) city = city || r["id"] == "the-city";
  EXPECT_TRUE(city) << rule_sets.out;
}

TEST_F(CarcClient, AnUnknownRuleSetOrOptionIsRefusedWithTheServersCode) {
  const auto no_rule_set = Client("create --seats 2 --rule-set no-such-game");
  EXPECT_NE(no_rule_set.status, 0) << no_rule_set.out;
  EXPECT_NE(no_rule_set.out.find("ERROR_CODE_NO_SUCH_RULE_SET"), std::string::npos)
      << no_rule_set.out;
  EXPECT_NE(no_rule_set.out.find("the-city"), std::string::npos) << "the rule sets it has";

  const auto bad_option = Client("create --seats 2 --option no-such-option=1");
  EXPECT_NE(bad_option.status, 0) << bad_option.out;
  EXPECT_NE(bad_option.out.find("ERROR_CODE_BAD_OPTIONS"), std::string::npos) << bad_option.out;

  const auto bots = Client("bots --seats 2 --rule-set no-such-game");
  EXPECT_NE(bots.status, 0) << bots.out;
  EXPECT_NE(bots.out.find("ERROR_CODE_NO_SUCH_RULE_SET"), std::string::npos) << bots.out;

  const auto malformed = Client("create --seats 2 --option river");
  EXPECT_NE(malformed.status, 0) << malformed.out;
  EXPECT_NE(malformed.out.find("name=value"), std::string::npos) << malformed.out;
}

TEST_F(CarcClient, APlayedGameShowsAndSeeksWithTheServersTiles) {
  const auto bots = Client("bots --seats 3 --bot eager");
  ASSERT_EQ(bots.status, 0) << bots.out;
  const json result = json::parse(bots.out);
  const std::string game = result["game_id"];
  EXPECT_EQ(result["rule_set"], "the-city");
  EXPECT_EQ(result["scores"].size(), 3u);
  EXPECT_FALSE(result["winners"].empty());

  const auto shown = Client("show " + game + " --json");
  ASSERT_EQ(shown.status, 0) << shown.out;
  const json state = json::parse(shown.out);
  EXPECT_TRUE(state["over"].get<bool>());
  EXPECT_EQ(state["state_hash"], result["state_hash"]);
  EXPECT_EQ(state["scores"], result["scores"]);

  const auto seek = Client("replay " + game + " --seek 3");
  ASSERT_EQ(seek.status, 0) << seek.out;
  EXPECT_NE(seek.out.find("sequence 3, state hash"), std::string::npos) << seek.out;
}

// Carcassonne with the River, the server's second rule set: played, replayed and drawn through
// the same Follower, with Carcassonne's drawing (river_view.cc).
TEST_F(CarcClient, BotsPlayAWholeGameOfCarcassonneWithTheRiver) {
  const auto bots = Client("bots --seats 3 --rule-set carcassonne --bot eager --seed 11");
  ASSERT_EQ(bots.status, 0) << bots.out;
  const json result = json::parse(bots.out);
  EXPECT_TRUE(result["seats_agree"].get<bool>());
  EXPECT_EQ(result["rule_set"], "carcassonne");
  EXPECT_EQ(result["end"], "over");
  ASSERT_EQ(result["scores"].size(), 3u);
  for (const char* source : {"roads", "cities", "monasteries", "fields", "total"}) {
    EXPECT_TRUE(result["scores"][0].contains(source)) << source << ": " << bots.out;
  }
  EXPECT_FALSE(result["winners"].empty());
  const std::string game = result["game_id"];

  const auto replay = Client("replay " + game + " --json");
  ASSERT_EQ(replay.status, 0) << replay.out;
  const json replayed = json::parse(replay.out);
  EXPECT_TRUE(replayed["over"].get<bool>());
  EXPECT_EQ(replayed["final"]["state_hash"], result["state_hash"]);
  EXPECT_EQ(replayed["final"]["rule_set"], "carcassonne");
  EXPECT_TRUE(replayed["final"]["river"].get<bool>());
  EXPECT_EQ(replayed["winners"], result["winners"]);
  int followers = 0, scored = 0;
  for (const json& step : replayed["steps"]) {
    const std::string action = step["action"];
    followers += action.rfind("follower ", 0) == 0 && action != "follower none";
    for (const json& event : step["events"]) {
      scored += event.get<std::string>().rfind("feature_scored", 0) == 0;
    }
  }
  EXPECT_GT(followers, 0) << "the eager bots placed followers";
  EXPECT_GT(scored, 0) << "and features were scored";

  const auto text = Client("replay " + game);
  ASSERT_EQ(text.status, 0) << text.out;
  EXPECT_NE(text.out.find("(carcassonne)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("game " + game + " is over"), std::string::npos) << text.out;

  const auto shown = Client("show " + game);
  ASSERT_EQ(shown.status, 0) << shown.out;
  EXPECT_NE(shown.out.find("legend:"), std::string::npos) << "the board is drawn:\n" << shown.out;
  EXPECT_NE(shown.out.find("player 2:"), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("game over: winners"), std::string::npos) << shown.out;

  const auto start = Client("replay " + game + " --seek 0");
  ASSERT_EQ(start.status, 0) << start.out;
  EXPECT_NE(start.out.find('~'), std::string::npos) << "the spring lies at (0, 0):\n" << start.out;
}

// Carcassonne: The Castle, the server's third rule set: played by eager bots (followers, doubled
// scores, extra turns, wall tiles at the end), replayed and drawn with its drawing
// (castle_view.cc): the board inside the wall, both scores and track positions, the wall tiles.
TEST_F(CarcClient, BotsPlayAWholeGameOfTheCastle) {
  const auto bots = Client("bots --seats 2 --rule-set the-castle --bot eager --seed 13");
  ASSERT_EQ(bots.status, 0) << bots.out;
  const json result = json::parse(bots.out);
  EXPECT_TRUE(result["seats_agree"].get<bool>());
  EXPECT_EQ(result["rule_set"], "the-castle");
  EXPECT_EQ(result["end"], "over");
  ASSERT_EQ(result["scores"].size(), 2u);
  for (const char* source :
       {"paths", "towers", "houses", "courts", "keep", "wall_tiles", "track", "total"}) {
    EXPECT_TRUE(result["scores"][0].contains(source)) << source << ": " << bots.out;
  }
  EXPECT_FALSE(result["winners"].empty());
  const std::string game = result["game_id"];

  const auto replay = Client("replay " + game + " --json");
  ASSERT_EQ(replay.status, 0) << replay.out;
  const json replayed = json::parse(replay.out);
  EXPECT_TRUE(replayed["over"].get<bool>());
  EXPECT_EQ(replayed["final"]["state_hash"], result["state_hash"]);
  EXPECT_EQ(replayed["final"]["rule_set"], "the-castle");
  EXPECT_EQ(replayed["final"]["start_spaces"], 7);
  EXPECT_EQ(replayed["winners"], result["winners"]);
  int followers = 0, scored = 0;
  for (const json& step : replayed["steps"]) {
    const std::string action = step["action"];
    followers += action.rfind("follower ", 0) == 0 && action != "follower none";
    for (const json& event : step["events"]) {
      scored += event.get<std::string>().rfind("feature_scored", 0) == 0;
    }
  }
  EXPECT_GT(followers, 0) << "the eager bots placed followers";
  EXPECT_GT(scored, 0) << "and features were scored";

  const auto text = Client("replay " + game);
  ASSERT_EQ(text.status, 0) << text.out;
  EXPECT_NE(text.out.find("(the-castle)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("game " + game + " is over"), std::string::npos) << text.out;

  const auto shown = Client("show " + game);
  ASSERT_EQ(shown.status, 0) << shown.out;
  EXPECT_NE(shown.out.find("legend:"), std::string::npos) << "the board is drawn:\n" << shown.out;
  EXPECT_NE(shown.out.find("####"), std::string::npos) << "the wall:\n" << shown.out;
  EXPECT_NE(shown.out.find("player 1:"), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("track space"), std::string::npos) << shown.out;

  const auto start = Client("replay " + game + " --seek 0");
  ASSERT_EQ(start.status, 0) << start.out;
  EXPECT_NE(start.out.find("[??]"), std::string::npos) << "wall tiles face down:\n" << start.out;
  EXPECT_NE(start.out.find("7 start spaces"), std::string::npos) << start.out;
  EXPECT_NE(start.out.find("13 face down on corner towers"), std::string::npos) << start.out;
}

TEST_F(CarcClient, CarcassonneWithoutTheRiverIsAnOption) {
  const auto created = Client("create --seats 2 --rule-set carcassonne --option river=0 --json");
  ASSERT_EQ(created.status, 0) << created.out;
  const json game = json::parse(created.out);
  EXPECT_EQ(game["rule_set"], "carcassonne");
  EXPECT_EQ(game["options"]["river"], 0);

  const auto bots = Client("bots --seats 2 --rule-set carcassonne --option river=0 --seed 4");
  ASSERT_EQ(bots.status, 0) << bots.out;
  const json result = json::parse(bots.out);
  EXPECT_TRUE(result["seats_agree"].get<bool>());
  const auto shown = Client("show " + result["game_id"].get<std::string>() + " --json");
  ASSERT_EQ(shown.status, 0) << shown.out;
  EXPECT_FALSE(json::parse(shown.out)["river"].get<bool>());

  const auto out_of_range = Client("create --seats 2 --rule-set carcassonne --option river=2");
  EXPECT_NE(out_of_range.status, 0) << out_of_range.out;
  EXPECT_NE(out_of_range.out.find("ERROR_CODE_BAD_OPTIONS"), std::string::npos) << out_of_range.out;
}

}  // namespace
}  // namespace carc

// ---------------------------------------------------------------------------------------------
// Chat and fair draws

namespace carc {
namespace {

TEST_F(CarcClient, AGameOfBotsPassesTheFairDrawsCheckWithTheServersTiles) {
  const auto bots = Client("bots --seats 2 --seed 7");
  ASSERT_EQ(bots.status, 0) << bots.out;
  const std::string game = json::parse(bots.out)["game_id"];
  const std::string proof = (dir_.path() / "proof.txt").string();
  const auto checked = Client("verify-draws " + game + " --proof " + proof);
  ASSERT_EQ(checked.status, 0) << checked.out;
  std::smatch match;
  ASSERT_TRUE(std::regex_search(checked.out, match,
                                std::regex("fair: (\\d+) draws match commitment ([0-9a-f]{64})")))
      << checked.out;
  EXPECT_GT(std::stoi(match[1].str()), 10);
  EXPECT_NE(checked.out.find("draw commitment: " + match[2].str()), std::string::npos);
  // The proof written out is the text whose SHA-256 the commitment is, as sha256sum computes it.
  const auto summed = testing::RunCommand("sha256sum " + proof);
  EXPECT_EQ(summed.out.substr(0, 64), match[2].str()) << summed.out;
  // A commitment noted wrongly fails, with the reason.
  const auto wrong = Client("verify-draws " + game + " --commitment " + std::string(64, '0'));
  EXPECT_EQ(wrong.status, 1) << wrong.out;
  EXPECT_NE(wrong.out.find(game + " is not fair: the proof does not match the commitment"),
            std::string::npos)
      << wrong.out;
}

TEST_F(CarcClient, SaysMutesAndShowsTheChat) {
  const auto created = Client("create --seats 3 --seed 5");
  ASSERT_EQ(created.status, 0) << created.out;
  const std::string game = created.out.substr(0, created.out.find('\n'));
  const auto joined = Client("join " + game + " --name ada --json");
  ASSERT_EQ(joined.status, 0) << joined.out;
  const std::string token = json::parse(joined.out.substr(0, joined.out.find('\n')))["token"];
  const auto said = Client("say " + game + " 'good luck' --token " + token);
  ASSERT_EQ(said.status, 0) << said.out;
  EXPECT_NE(said.out.find("chat #1 after step 0, ada (seat 0): good luck"), std::string::npos)
      << said.out;
  // Spectators of this game may not write.
  const auto spectator = Client("say " + game + " hello");
  EXPECT_EQ(spectator.status, 1) << spectator.out;
  EXPECT_NE(spectator.out.find("ERROR_CODE_CHAT_NOT_ALLOWED"), std::string::npos) << spectator.out;
  const auto muted = Client("mute " + game + " 1 --token " + token);
  ASSERT_EQ(muted.status, 0) << muted.out;
  EXPECT_NE(muted.out.find("seat 1 is muted for your seat"), std::string::npos) << muted.out;
  // Not started: no draws to check yet.
  EXPECT_EQ(Client("verify-draws " + game).status, 1);

  // A game whose spectators may write.
  const auto open = Client("create --seats 2 --spectators-chat");
  ASSERT_EQ(open.status, 0) << open.out;
  const std::string other = open.out.substr(0, open.out.find('\n'));
  const auto watcher = Client("say " + other + " hello");
  ASSERT_EQ(watcher.status, 0) << watcher.out;
  EXPECT_NE(watcher.out.find("chat #1 after step 0, spectator (spectator): hello"),
            std::string::npos)
      << watcher.out;
}

// The load test at a pace, with the server's process measured: every seat times every move's
// broadcast, and the report gives the bytes each move cost on the wire and the server's CPU time
// and memory. Its own server, which takes the load test's chosen seeds.
TEST(CarcClientLoad, ReportsTheBroadcastToEverySeatTheBytesAndTheServersProcess) {
  TempDir dir;
  ServerProcess server(dir.path(), test_server::FreeLoopbackPort(), {"--allow-chosen-seeds"});
  ASSERT_TRUE(server.Start());
  const std::string client =
      std::string(CARC_CLIENT_BINARY) + " --server ws://127.0.0.1:" + std::to_string(server.port());
  const auto load = testing::RunCommand(client +
                                        " load --games 3 --seats 4 --seconds 3 --think-ms 20 "
                                        "--server-pid " +
                                        std::to_string(server.pid()));
  ASSERT_EQ(load.status, 0) << load.out;
  const json report = json::parse(load.out);
  const uint64_t moves = report["moves_accepted"];
  ASSERT_GT(moves, 12u) << load.out;
  EXPECT_EQ(report["think_ms"], 20);
  // The mover and the three others each time the move's delta: four samples a move (the moves
  // cut off by the time limit may miss some).
  const uint64_t samples = report["broadcast_ms"]["samples"];
  EXPECT_LE(samples, 4 * moves);
  EXPECT_GE(samples, 4 * moves - 4 * 3) << load.out;
  EXPECT_GT(report["bytes_received_per_move"].get<double>(), 0) << load.out;
  const json& process = report["server_process"];
  ASSERT_TRUE(process.is_object()) << load.out;
  EXPECT_GT(process["peak_rss_mb"].get<double>(), 0) << load.out;
  EXPECT_GE(process["cpu_seconds"].get<double>(), 0) << load.out;

  // Games left unfinished at a sequence (for a restart's figures): every seat leaves, none fails,
  // and the server keeps the games running.
  const auto left = testing::RunCommand(
      client + " load --games 2 --seats 2 --seconds 60 --seed 7 --leave-at-sequence 12");
  ASSERT_EQ(left.status, 0) << left.out;
  const json left_report = json::parse(left.out);
  EXPECT_EQ(left_report["leave_at_sequence"], 12);
  EXPECT_EQ(left_report["games_played"], 2) << left.out;
  EXPECT_EQ(left_report["games_finished"], 0) << left.out;
  EXPECT_EQ(left_report["connections_failed"], 0) << left.out;
  EXPECT_FALSE(left_report["stopped_by_time_limit"].get<bool>()) << left.out;

  const auto refused =
      testing::RunCommand(client + " load --games 1 --seconds 1 --server-pid 999999999");
  EXPECT_NE(refused.status, 0) << refused.out;
  EXPECT_NE(refused.out.find("--server-pid"), std::string::npos) << refused.out;
}

}  // namespace
}  // namespace carc

// ---------------------------------------------------------------------------------------------
// A server restarted under its players, origins, long lists

namespace carc {
namespace {

using std::chrono::seconds;
using testing::Background;

// How long a game of two bots may take, waits for a restart included.
constexpr seconds kGameTimeout{60};

// A server of the test's own, and carc-client against it.
class CarcClientOwnServer : public ::testing::Test {
 protected:
  void StartServer(std::vector<std::string> flags = {}) {
    server_ = std::make_unique<ServerProcess>(dir_.path(), test_server::FreeLoopbackPort(),
                                              std::move(flags));
    ASSERT_TRUE(server_->Start());
  }

  std::string Url() const { return "ws://127.0.0.1:" + std::to_string(server_->port()); }

  testing::CommandResult Client(const std::string& args) const {
    return testing::RunCommand(std::string(CARC_CLIENT_BINARY) + " --server " + Url() + " " + args);
  }

  std::unique_ptr<Background> ClientInBackground(const std::vector<std::string>& args,
                                                 const std::string& log_name) const {
    std::vector<std::string> argv = {CARC_CLIENT_BINARY, "--server", Url()};
    argv.insert(argv.end(), args.begin(), args.end());
    return std::make_unique<Background>(argv, dir_.path() / (log_name + ".log"));
  }

  // Polls `show --json` until seat `seat` of `game` is to decide; false at the deadline.
  bool WhenSeatDecides(const std::string& game, int seat) const {
    const auto deadline = std::chrono::steady_clock::now() + kGameTimeout;
    while (std::chrono::steady_clock::now() < deadline) {
      const auto shown = Client("show " + game + " --json");
      const json state = json::parse(FirstLine(shown.out), nullptr, /*allow_exceptions=*/false);
      if (shown.status == 0 && state.is_object() && state["actor"] == seat) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }

  // Polls `list --json` until `games` games are running; false at the deadline.
  bool WhenRunning(int games) const {
    const auto deadline = std::chrono::steady_clock::now() + kGameTimeout;
    while (std::chrono::steady_clock::now() < deadline) {
      const auto listed = Client("list --json");
      const json list = json::parse(FirstLine(listed.out), nullptr, /*allow_exceptions=*/false);
      const auto running = [](const json& g) { return g["status"] == "running"; };
      if (list.is_array() && std::count_if(list.begin(), list.end(), running) == games) {
        return true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }

  // What an upgrade does to the server: SIGTERM (ServerClosing to every client, then the close),
  // and the server started again on the same game log and port.
  void Restart() {
    server_->Signal(SIGTERM);
    ASSERT_EQ(server_->WaitExit(), std::optional<int>(0)) << server_->Tail(20);
    ASSERT_TRUE(server_->Start());
  }

  TempDir dir_;
  std::unique_ptr<ServerProcess> server_;
};

TEST_F(CarcClientOwnServer, PlayResumesItsSeatAfterTheServerIsRestarted) {
  StartServer();
  const auto created = Client("create --seats 2 --seed 3");
  ASSERT_EQ(created.status, 0) << created.out;
  const std::string game = FirstLine(created.out);
  std::vector<std::string> tokens;
  for (const char* name : {"ada", "bo"}) {
    const auto joined = Client("join " + game + " --name " + name + " --json");
    ASSERT_EQ(joined.status, 0) << joined.out;
    tokens.push_back(json::parse(FirstLine(joined.out))["token"]);
  }
  // Seat 0 is played in the background; after its first turn the game waits for seat 1.
  auto seat0 = ClientInBackground(
      {"play", game, "--token", tokens[0], "--bot", "random", "--seed", "1"}, "seat0");
  ASSERT_TRUE(WhenSeatDecides(game, 1)) << seat0->Output();

  Restart();
  ASSERT_TRUE(seat0->WaitForOutput("resumed", kGameTimeout)) << seat0->Output();
  EXPECT_NE(seat0->Output().find("ServerClosing"), std::string::npos) << seat0->Output();

  const auto seat1 = Client("play " + game + " --token " + tokens[1] + " --bot random --seed 2");
  EXPECT_EQ(seat1.status, 0) << seat1.out;
  EXPECT_EQ(seat0->Wait(kGameTimeout), std::optional<int>(0)) << seat0->Output();
  EXPECT_NE(seat0->Output().find("game " + game + " is over"), std::string::npos)
      << seat0->Output();
}

TEST_F(CarcClientOwnServer, BotsCarryTheirGameToItsEndAcrossARestartOfTheServer) {
  StartServer();
  // At a pace, so that the game is still running when the server stops.
  auto bots = ClientInBackground(
      {"bots", "--seats", "2", "--seed", "9", "--think-ms", "30", "--verbose"}, "bots");
  ASSERT_TRUE(bots->WaitForOutput("seq ", kGameTimeout)) << bots->Output();

  Restart();
  ASSERT_EQ(bots->Wait(kGameTimeout), std::optional<int>(0)) << bots->Output();
  const std::string out = bots->Output();
  EXPECT_NE(out.find("ServerClosing"), std::string::npos) << out;
  const json result = json::parse(out.substr(out.rfind("\n{") + 1));
  EXPECT_TRUE(result["seats_agree"].get<bool>()) << out;
  EXPECT_NE(result["end"], "none") << out;
}

TEST_F(CarcClientOwnServer, LoadCarriesItsGamesToTheirEndAcrossARestartOfTheServer) {
  StartServer();
  auto load = ClientInBackground(
      {"load", "--games", "2", "--seats", "2", "--seconds", "60", "--think-ms", "30"}, "load");
  ASSERT_TRUE(WhenRunning(2)) << load->Output();

  Restart();
  ASSERT_EQ(load->Wait(kGameTimeout), std::optional<int>(0)) << load->Output();
  const std::string out = load->Output();
  const json report = json::parse(out.substr(out.find('{')));
  EXPECT_EQ(report["games_finished_seats_agree"], 2) << out;
  EXPECT_EQ(report["connections_failed"], 0) << out;
  EXPECT_GE(report["reconnects"].get<int>(), 4) << "every seat reconnected: " << out;
}

// Origins protect people's browsers from other sites' pages; carc-client is no browser and sends
// none, so a server that lists its origins admits it.
TEST_F(CarcClientOwnServer, AServerWithAllowedOriginsAdmitsTheClient) {
  StartServer({"--allowed-origin", "https://carc.example"});
  const auto bots = Client("bots --seats 2 --seed 4");
  ASSERT_EQ(bots.status, 0) << bots.out;
  EXPECT_TRUE(json::parse(bots.out)["seats_agree"].get<bool>());
  const auto listed = Client("list");
  EXPECT_EQ(listed.status, 0) << listed.out;
}

// More games than one page of ListGames holds (50 by default): every one is listed.
TEST_F(CarcClientOwnServer, ListShowsEveryGamePageAfterPage) {
  StartServer({"--max-open-games-per-address", "0"});
  constexpr int kGames = 205;  // more than the largest page (200)
  const auto left = Client("load --games " + std::to_string(kGames) +
                           " --seats 2 --seconds 60 --leave-at-sequence 4");
  ASSERT_EQ(left.status, 0) << left.out;

  const auto listed = Client("list --json");
  ASSERT_EQ(listed.status, 0) << listed.out;
  std::set<std::string> ids;
  for (const json& g : json::parse(listed.out)) ids.insert(g["game_id"].get<std::string>());
  EXPECT_EQ(ids.size(), static_cast<size_t>(kGames));
  const auto text = Client("list");
  ASSERT_EQ(text.status, 0) << text.out;
  EXPECT_EQ(std::count(text.out.begin(), text.out.end(), '\n'), kGames + 1) << "and a header";
}

}  // namespace
}  // namespace carc
