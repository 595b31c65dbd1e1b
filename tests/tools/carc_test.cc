// The carc command-line tool, run through its binary as a user would run it.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "run_command.h"

namespace {

using nlohmann::json;

using Result = carc::testing::CommandResult;

// Runs `carc <args>` through the shell, with standard error folded into the output.
Result Carc(const std::string& args, const std::string& stdin_text = "") {
  std::string command = std::string(CARC_BINARY) + " " + args;
  if (!stdin_text.empty()) {
    const std::string input_file = ::testing::TempDir() + "carc_stdin.txt";
    std::ofstream(input_file) << stdin_text;
    command += " < " + input_file;
  }
  return carc::testing::RunCommand(command);
}

std::string Golden(const std::string& name) {
  return std::string(CARC_SOURCE_DIR) + "/tests/engine/golden/" + name;
}

std::string WriteTemp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

TEST(Carc, SelfplayPrintsOneJsonLinePerGame) {
  const Result run = Carc("selfplay --games 3 --seed 5 --players 3");
  ASSERT_EQ(run.status, 0) << run.out;
  std::istringstream lines(run.out);
  std::string line;
  int games = 0;
  while (std::getline(lines, line)) {
    const json j = json::parse(line);
    EXPECT_EQ(j["seed"], 5 + games);
    EXPECT_EQ(j["players"], 3);
    EXPECT_EQ(j["scores"].size(), 3u);
    EXPECT_EQ(j["tiles_placed"].get<int>() + j["tiles_discarded"].get<int>(), 75);
    for (const char* key : {"winners", "walls_built", "towers_placed", "ended_by", "hash"}) {
      EXPECT_TRUE(j.contains(key)) << key;
    }
    int total = 0;
    for (const char* source : {"streets", "markets", "towers", "stewards", "guards"}) {
      total += j["scores"][0][source].get<int>();
    }
    EXPECT_EQ(total, j["scores"][0]["total"]);
    ++games;
  }
  EXPECT_EQ(games, 3);
}

TEST(Carc, SelfplayIsDeterministic) {
  EXPECT_EQ(Carc("selfplay --games 2 --seed 9").out, Carc("selfplay --games 2 --seed 9").out);
}

TEST(Carc, TracePrintsActionsAndEventsEndingInGameOver) {
  const Result run = Carc("selfplay --seed 3 --players 2 --trace");
  ASSERT_EQ(run.status, 0);
  std::istringstream lines(run.out);
  std::string line, last_event;
  int actions = 0;
  while (std::getline(lines, line)) {
    const json j = json::parse(line);
    if (j.contains("action")) ++actions;
    if (j.contains("event")) last_event = j["event"];
  }
  EXPECT_GT(actions, 100);
  EXPECT_EQ(last_event, "game_over");
}

TEST(Carc, ReplayOfAGoldenTranscriptReachesItsHash) {
  const Result run = Carc("replay " + Golden("seed58-4p-eager.txt"));
  ASSERT_EQ(run.status, 0) << run.out;
  const json j = json::parse(run.out);
  std::ifstream golden(Golden("seed58-4p-eager.txt"));
  std::string line, hash;
  while (std::getline(golden, line)) {
    if (line.rfind("# hash ", 0) == 0) hash = line.substr(7);
  }
  EXPECT_EQ(j["hash"], hash);
  EXPECT_TRUE(j["game_over"].get<bool>());
}

TEST(Carc, RecordThenReplayFromStandardInput) {
  const Result recorded = Carc("record --seed 11 --players 4 --order");
  ASSERT_EQ(recorded.status, 0);
  const Result replayed = Carc("replay -", recorded.out);
  ASSERT_EQ(replayed.status, 0) << replayed.out;
  const json state = json::parse(replayed.out);
  const json line = json::parse(Carc("selfplay --seed 11 --players 4").out);
  EXPECT_EQ(state["hash"], line["hash"]);
}

TEST(Carc, ReplayNamesTheFirstIllegalLineAndExitsNonZero) {
  const std::string path = WriteTemp("illegal.txt",
                                     "players 2\nseed 1\nchance draw 12\np0 place 0 0 0\n"
                                     "p0 follower none\nchance draw 49\n"
                                     "# the next tile cannot float\np1 place 5 5 0\n");
  const Result run = Carc("replay " + path);
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.out.find("line 8"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("no_neighbour"), std::string::npos) << run.out;
}

TEST(Carc, ReplayRejectsAWrongActor) {
  const std::string path = WriteTemp("actor.txt", "players 2\nseed 1\np1 draw 12\n");
  const Result run = Carc("replay " + path);
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.out.find("wrong_player"), std::string::npos) << run.out;
}

TEST(Carc, UnreadableOrMalformedInputExitsWithTwo) {
  EXPECT_EQ(Carc("replay /nonexistent/file.txt").status, 2);
  const std::string path = WriteTemp("bad_header.txt", "players five\n");
  const Result run = Carc("replay " + path);
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.out.find("line 1"), std::string::npos) << run.out;
}

TEST(Carc, ABadTileFileIsRefusedNamingItsLine) {
  const std::string path = WriteTemp("tiles.txt", "tileset t 1\ntile a 1 a1b b-b b1a a\n");
  const Result run = Carc("--tiles " + path + " selfplay");
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.out.find("line 2"), std::string::npos) << run.out;
}

TEST(Carc, ShowDrawsTheBoardAndTheScores) {
  const Result run = Carc("show --seed 4 --players 2");
  ASSERT_EQ(run.status, 0);
  EXPECT_NE(run.out.find("player 0:"), std::string::npos);
  EXPECT_NE(run.out.find("player 1:"), std::string::npos);
  EXPECT_NE(run.out.find("game over"), std::string::npos);
  EXPECT_NE(run.out.find("legend"), std::string::npos);
}

TEST(Carc, TilesReportsTheSetAndItsSimulation) {
  const Result run = Carc("tiles --games 20 --seed 1");
  ASSERT_EQ(run.status, 0) << run.out;
  const json j = json::parse(run.out);
  EXPECT_EQ(j["contents"]["tiles"], 75);
  EXPECT_EQ(j["contents"]["public_buildings"], 32);
  EXPECT_EQ(j["contents"]["historic_buildings"], 7);
  EXPECT_EQ(j["simulation"]["games"], 20);
  EXPECT_TRUE(j["simulation"].contains("ended_by"));
  EXPECT_TRUE(j["simulation"]["mean_points_per_player"].contains("guards"));
}

TEST(Carc, BadFlagsGiveAClearError) {
  const Result run = Carc("selfplay --players 7");
  EXPECT_NE(run.status, 0);
  EXPECT_NE(run.out.find("players"), std::string::npos) << run.out;
}

}  // namespace
