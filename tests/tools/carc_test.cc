// The carc command-line tool, run through its binary as a user would run it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "run_command.h"

namespace {

using nlohmann::json;

using Result = carc::testing::CommandResult;

// A file in the temporary folder that no other test process writes: ctest runs tests in
// parallel, each in a process of its own, and they share the folder.
std::string TempPath(const std::string& name) {
  return ::testing::TempDir() + "carc_test_" + std::to_string(::getpid()) + "_" + name;
}

// Runs `carc <args>` through the shell, with standard error folded into the output.
Result Carc(const std::string& args, const std::string& stdin_text = "") {
  std::string command = std::string(CARC_BINARY) + " " + args;
  if (!stdin_text.empty()) {
    const std::string input_file = TempPath("stdin.txt");
    std::ofstream(input_file) << stdin_text;
    command += " < " + input_file;
  }
  return carc::testing::RunCommand(command);
}

std::string Golden(const std::string& name) {
  return std::string(CARC_SOURCE_DIR) + "/tests/engine/golden/" + name;
}

std::string WriteTemp(const std::string& name, const std::string& text) {
  const std::string path = TempPath(name);
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

// --- Carcassonne (with the River), chosen by --rule-set -----------------------------------------

// Every line of a command's output as JSON.
std::vector<json> JsonLines(const std::string& out) {
  std::vector<json> lines;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) lines.push_back(json::parse(line));
  return lines;
}

struct RiverSetUp {
  int river;
  int players;
  int tiles;  // tiles placed or discarded: every tile but the start tile the spring replaces
};

TEST(CarcRiver, SelfplayPrintsOneJsonLinePerGameWithAndWithoutTheRiver) {
  for (const RiverSetUp setup :
       {RiverSetUp{1, 2, 83}, RiverSetUp{1, 5, 83}, RiverSetUp{0, 2, 72}, RiverSetUp{0, 5, 72}}) {
    SCOPED_TRACE("river=" + std::to_string(setup.river) + " players " +
                 std::to_string(setup.players));
    const Result run =
        Carc("selfplay --rule-set carcassonne --option river=" + std::to_string(setup.river) +
             " --games 3 --seed 20 --players " + std::to_string(setup.players));
    ASSERT_EQ(run.status, 0) << run.out;
    const std::vector<json> lines = JsonLines(run.out);
    ASSERT_EQ(lines.size(), 3u);
    for (size_t g = 0; g < lines.size(); ++g) {
      const json& j = lines[g];
      EXPECT_EQ(j["rule_set"], "carcassonne");
      EXPECT_EQ(j["options"]["river"], setup.river);
      EXPECT_EQ(j["seed"], 20 + g);
      EXPECT_EQ(j["players"], setup.players);
      EXPECT_EQ(j["tiles_placed"].get<int>() + j["tiles_discarded"].get<int>(), setup.tiles);
      EXPECT_EQ(j["hash"].get<std::string>().size(), 16u);
      // Each tile is a draw and a placement; most placements are followed by a follower decision.
      EXPECT_GT(j["actions"].get<int>(), 2 * (setup.tiles - 1));
      ASSERT_EQ(j["scores"].size(), static_cast<size_t>(setup.players));
      int best = 0;
      for (const json& score : j["scores"]) {
        int total = 0;
        for (const char* source : {"roads", "cities", "monasteries", "fields"}) {
          total += score[source].get<int>();
        }
        EXPECT_EQ(total, score["total"]);
        best = std::max(best, total);
      }
      ASSERT_FALSE(j["winners"].empty());
      for (const json& winner : j["winners"])
        EXPECT_EQ(j["scores"][winner.get<int>()]["total"], best);
    }
  }
}

TEST(CarcRiver, TheRiverIsTheDefaultAndGamesDifferFromTheCity) {
  const Result river = Carc("selfplay --rule-set carcassonne --seed 4 --players 3");
  const Result explicit_river =
      Carc("--rule-set carcassonne selfplay --option river=1 --seed 4 -p 3");
  ASSERT_EQ(river.status, 0) << river.out;
  EXPECT_EQ(river.out, explicit_river.out);
  EXPECT_NE(river.out, Carc("selfplay --rule-set carcassonne --option river=0 --seed 4 -p 3").out);
  EXPECT_EQ(Carc("selfplay --rule-set the-city --seed 4 -p 3").out,
            Carc("selfplay --seed 4 -p 3").out);
}

TEST(CarcRiver, TraceEndsInGameOverAndAgreesWithTheSummaryLine) {
  const Result run = Carc("selfplay --rule-set carcassonne --seed 6 --players 2 --trace");
  ASSERT_EQ(run.status, 0) << run.out;
  const std::vector<json> lines = JsonLines(run.out);
  ASSERT_GT(lines.size(), 2u);
  int actions = 0;
  std::string last_event;
  for (size_t i = 0; i + 1 < lines.size(); ++i) {
    if (lines[i].contains("action")) ++actions;
    if (lines[i].contains("event")) last_event = lines[i]["event"];
  }
  EXPECT_EQ(lines[0]["action"].get<std::string>().rfind("chance draw ", 0), 0u);
  EXPECT_EQ(lines[1]["event"], "tile_drawn");
  EXPECT_EQ(last_event, "game_over");
  EXPECT_EQ(actions, lines.back()["actions"]);
}

TEST(CarcRiver, RecordThenReplayReachesSelfplaysFinalState) {
  for (const char* setup : {"--option river=1 --players 3", "--option river=0 --players 5"}) {
    SCOPED_TRACE(setup);
    const std::string args = std::string(" --rule-set carcassonne --seed 17 ") + setup;
    const Result recorded = Carc("record" + args);
    ASSERT_EQ(recorded.status, 0) << recorded.out;
    EXPECT_NE(recorded.out.find("\ngame carcassonne\n"), std::string::npos);
    // No --rule-set: the file's `game` line chooses the rule set, its `options` line the River.
    const Result replayed = Carc("replay -", recorded.out);
    ASSERT_EQ(replayed.status, 0) << replayed.out;
    const json state = json::parse(replayed.out);
    const json line = json::parse(Carc("selfplay" + args).out);
    EXPECT_EQ(state["game"], "carcassonne");
    EXPECT_EQ(state["options"], line["options"]);
    EXPECT_EQ(state["hash"], line["hash"]);
    EXPECT_EQ(state["actions"], line["actions"]);
    EXPECT_TRUE(state["game_over"].get<bool>());
    for (size_t p = 0; p < line["scores"].size(); ++p) {
      EXPECT_EQ(state["scores"][p], line["scores"][p]);
    }
  }
}

TEST(CarcRiver, ReplayNamesTheFirstIllegalLine) {
  const Result recorded = Carc("record --rule-set carcassonne --seed 3 --players 2");
  ASSERT_EQ(recorded.status, 0);
  // The spring lies at (0, 0); the first River tile cannot float far away from it.
  const std::string head = recorded.out.substr(0, recorded.out.find("\np0 place") + 1);
  const std::string path = WriteTemp("river_illegal.txt", head + "p0 place 9 9 0\n");
  const Result run = Carc("replay " + path);
  EXPECT_EQ(run.status, 1) << run.out;
  const int line = static_cast<int>(std::count(head.begin(), head.end(), '\n')) + 1;
  EXPECT_NE(run.out.find("line " + std::to_string(line) + ": 'p0 place 9 9 0' is illegal"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("\"error\":\"illegal action\""), std::string::npos) << run.out;
}

// The last "# hash" comment of a golden transcript: the state hash at its end.
std::string GoldenHash(const std::string& name) {
  std::ifstream golden(Golden(name));
  std::string line, hash;
  while (std::getline(golden, line)) {
    if (line.rfind("# hash ", 0) == 0) hash = line.substr(7);
  }
  return hash;
}

TEST(CarcRiver, SelfplayAndReplayReachTheGoldenGames) {
  struct GoldenGame {
    const char* file;
    const char* selfplay;
  };
  // The golden games were played by the engine's random players (river/random_play.h).
  for (const GoldenGame g : {
           GoldenGame{"carcassonne-seed1-2p-river.txt", "--seed 1 -p 2"},
           GoldenGame{"carcassonne-seed2-3p.txt", "--seed 2 -p 3 --option river=0"},
           GoldenGame{"carcassonne-seed3-5p-river.txt", "--seed 3 -p 5"},
           GoldenGame{"carcassonne-seed4-4p-river-eager.txt", "--seed 4 -p 4 --policy eager"},
       }) {
    SCOPED_TRACE(g.file);
    const std::string hash = GoldenHash(g.file);
    ASSERT_EQ(hash.size(), 16u);
    const Result replayed = Carc("replay " + Golden(g.file));
    ASSERT_EQ(replayed.status, 0) << replayed.out;
    EXPECT_EQ(json::parse(replayed.out)["hash"], hash);
    const Result played = Carc(std::string("selfplay --rule-set carcassonne ") + g.selfplay);
    ASSERT_EQ(played.status, 0) << played.out;
    EXPECT_EQ(json::parse(played.out)["hash"], hash);
  }
}

// The board part of `carc show`'s output (before its legend, which names every glyph).
std::string Board(const std::string& picture) { return picture.substr(0, picture.find("legend:")); }

TEST(CarcRiver, ShowDrawsTheRiverRoadsCitiesAndTheScores) {
  const Result run = Carc("show --rule-set carcassonne --seed 4 --players 2");
  ASSERT_EQ(run.status, 0) << run.out;
  const std::string board = Board(run.out);
  for (const char glyph : {'~', '|', '-', 'C', 'P', 'M', '.'}) {
    EXPECT_NE(board.find(glyph), std::string::npos) << glyph << "\n" << run.out;
  }
  EXPECT_NE(board.find_first_of("01"), std::string::npos) << "followers\n" << run.out;
  EXPECT_NE(run.out.find("player 1:"), std::string::npos);
  EXPECT_NE(run.out.find("game over"), std::string::npos);
  EXPECT_NE(run.out.find("the River closed"), std::string::npos);
  // Without the River, the board shows no river at all.
  const Result base = Carc("show --rule-set carcassonne --option river=0 --seed 4 --players 2");
  ASSERT_EQ(base.status, 0) << base.out;
  EXPECT_EQ(Board(base.out).find('~'), std::string::npos) << base.out;
  EXPECT_NE(Board(base.out).find('C'), std::string::npos) << base.out;
}

TEST(CarcRiver, ShowOfARecordedFileDrawsTheSameGame) {
  const Result recorded = Carc("record --rule-set carcassonne --seed 8 --players 4");
  ASSERT_EQ(recorded.status, 0);
  const Result from_file = Carc("show " + WriteTemp("river_show.txt", recorded.out));
  ASSERT_EQ(from_file.status, 0) << from_file.out;
  EXPECT_EQ(from_file.out, Carc("show --rule-set carcassonne --seed 8 --players 4").out);
  // Stopped early: the spring, the next tiles, and whose turn it is.
  const Result early = Carc("show --rule-set carcassonne --seed 8 --steps 1");
  EXPECT_NE(early.out.find("next: place_tile by player 0"), std::string::npos) << early.out;
  EXPECT_NE(early.out.find("the River still open"), std::string::npos) << early.out;
}

// --- Carcassonne: The Castle, chosen by --rule-set ----------------------------------------------

TEST(CarcCastle, SelfplayPlaysTwoPlayerGamesWithEitherPolicy) {
  for (const char* policy : {"random", "eager"}) {
    SCOPED_TRACE(policy);
    // No --players: The Castle is played by two.
    const Result run =
        Carc(std::string("selfplay --rule-set the-castle --games 3 --seed 30 --policy ") + policy);
    ASSERT_EQ(run.status, 0) << run.out;
    const std::vector<json> lines = JsonLines(run.out);
    ASSERT_EQ(lines.size(), 3u);
    for (size_t g = 0; g < lines.size(); ++g) {
      const json& j = lines[g];
      EXPECT_EQ(j["rule_set"], "the-castle");
      EXPECT_EQ(j["options"], json::object());
      EXPECT_EQ(j["seed"], 30 + g);
      EXPECT_EQ(j["players"], 2);
      // Every castle tile is drawn: placed, or discarded when it fits nowhere.
      EXPECT_EQ(j["tiles_placed"].get<int>() + j["tiles_discarded"].get<int>(), 60);
      ASSERT_EQ(j["scores"].size(), 2u);
      int best = 0;
      for (const json& score : j["scores"]) {
        int total = 0;
        for (const char* source : {"paths", "towers", "houses", "courts", "keep", "wall_tiles"}) {
          total += score[source].get<int>();
        }
        EXPECT_EQ(total, score["total"]);
        best = std::max(best, total);
      }
      for (const json& winner : j["winners"]) {
        EXPECT_EQ(j["scores"][winner.get<int>()]["total"], best);
      }
    }
  }
  EXPECT_NE(Carc("selfplay --rule-set the-castle --seed 30").out,
            Carc("selfplay --rule-set the-castle --seed 30 --policy eager").out);
}

TEST(CarcCastle, TraceEndsInGameOverAndAgreesWithTheSummaryLine) {
  const Result run = Carc("selfplay --rule-set the-castle --seed 5 --policy eager --trace");
  ASSERT_EQ(run.status, 0) << run.out;
  const std::vector<json> lines = JsonLines(run.out);
  ASSERT_GT(lines.size(), 2u);
  int actions = 0;
  int wall_tiles_used = 0;
  std::string last_event;
  for (size_t i = 0; i + 1 < lines.size(); ++i) {
    if (lines[i].contains("action")) ++actions;
    if (!lines[i].contains("event")) continue;
    last_event = lines[i]["event"];
    if (last_event == "wall_tile_used") ++wall_tiles_used;
  }
  EXPECT_EQ(lines[0]["action"].get<std::string>().rfind("chance draw ", 0), 0u);
  EXPECT_EQ(lines[1]["event"], "tile_drawn");
  EXPECT_EQ(last_event, "game_over");
  EXPECT_EQ(actions, lines.back()["actions"]);
  EXPECT_GT(wall_tiles_used, 0);  // this seed's eager players use wall tiles (its golden game)
}

TEST(CarcCastle, OnlyTwoPlayersAndNoOptions) {
  const Result three = Carc("selfplay --rule-set the-castle --players 3");
  EXPECT_EQ(three.status, 2);
  EXPECT_NE(three.out.find("carc: Carcassonne: The Castle is played by 2 players\n"),
            std::string::npos)
      << three.out;
  const Result option = Carc("record --rule-set the-castle --option river=1");
  EXPECT_EQ(option.status, 2);
  EXPECT_NE(option.out.find("has no option 'river'"), std::string::npos) << option.out;
}

TEST(CarcCastle, RecordThenReplayReachesSelfplaysFinalState) {
  const Result recorded = Carc("record --rule-set the-castle --seed 12");
  ASSERT_EQ(recorded.status, 0) << recorded.out;
  EXPECT_NE(recorded.out.find("\ngame the-castle\nplayers 2\nseed 12\n"), std::string::npos)
      << recorded.out;
  // No --rule-set: the file's `game` line chooses the rule set.
  const Result replayed = Carc("replay " + WriteTemp("castle_game.txt", recorded.out));
  ASSERT_EQ(replayed.status, 0) << replayed.out;
  const json state = json::parse(replayed.out);
  const json line = json::parse(Carc("selfplay --rule-set the-castle --seed 12").out);
  EXPECT_EQ(state["game"], "the-castle");
  EXPECT_EQ(state["hash"], line["hash"]);
  EXPECT_EQ(state["actions"], line["actions"]);
  EXPECT_EQ(state["scores"], line["scores"]);
  EXPECT_TRUE(state["game_over"].get<bool>());
  EXPECT_EQ(state["tiles_left"], 0);
  EXPECT_EQ(state["wall_tiles_on_wall"], json::array());  // the end takes every one off
  // The seven start spaces lie on the board with the 60 castle tiles (or fewer, if discarded).
  EXPECT_EQ(state["board"].size(), 7u + state["tiles_placed"].get<size_t>());
  EXPECT_EQ(state["board"][0]["name"], "start-6");
  ASSERT_EQ(state["supplies"].size(), 2u);
  for (const json& supply : state["supplies"]) {
    EXPECT_TRUE(supply["followers"].is_number());
    EXPECT_TRUE(supply["wall_tiles"].is_array());
    EXPECT_TRUE(supply["keep"].is_null() || supply["keep"]["size"].get<int>() > 0);
  }
  for (const json& follower : state["followers"]) {
    const std::string role = follower["role"];
    EXPECT_TRUE(role == "herald" || role == "knight" || role == "squire" || role == "merchant")
        << role;
  }
}

TEST(CarcCastle, ReplayOfAnUnfinishedFileShowsTheWallTilesStillOnTheWall) {
  const Result recorded = Carc("record --rule-set the-castle --seed 12");
  ASSERT_EQ(recorded.status, 0);
  // The header and the first draw: 13 corner towers (all but the first) hold their wall tile.
  const size_t first_place = recorded.out.find("\np0 place");
  const Result run = Carc("replay -", recorded.out.substr(0, first_place + 1));
  ASSERT_EQ(run.status, 0) << run.out;
  const json state = json::parse(run.out);
  EXPECT_FALSE(state["game_over"].get<bool>());
  EXPECT_EQ(state["decision"]["kind"], "place_tile");
  EXPECT_EQ(state["decision"]["actor"], 0);
  ASSERT_EQ(state["wall_tiles_on_wall"].size(), 13u);
  EXPECT_EQ(state["wall_tiles_on_wall"][0]["track"], 12);  // the first corner tower after 0
  EXPECT_EQ(state["tiles_left"], 59);
}

TEST(CarcCastle, ReplayNamesTheFirstIllegalLine) {
  const Result recorded = Carc("record --rule-set the-castle --seed 3");
  ASSERT_EQ(recorded.status, 0);
  // (0, 0) is a corner tower of the wall, not a square inside it.
  const std::string head = recorded.out.substr(0, recorded.out.find("\np0 place") + 1);
  const Result run = Carc("replay " + WriteTemp("castle_illegal.txt", head + "p0 place 0 0 0\n"));
  EXPECT_EQ(run.status, 1) << run.out;
  const int line = static_cast<int>(std::count(head.begin(), head.end(), '\n')) + 1;
  EXPECT_NE(run.out.find("line " + std::to_string(line) + ": 'p0 place 0 0 0' is illegal"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("\"error\":\"illegal action\""), std::string::npos) << run.out;
  const Result wrong_game = Carc("replay --rule-set carcassonne " + WriteTemp("castle.txt", head));
  EXPECT_EQ(wrong_game.status, 2);
  EXPECT_NE(wrong_game.out.find("is a game of the-castle, not of carcassonne"), std::string::npos)
      << wrong_game.out;
}

TEST(CarcCastle, SelfplayAndReplayReachTheGoldenGames) {
  struct GoldenGame {
    const char* file;
    const char* selfplay;
  };
  // The golden games were played by the engine's random players (castle/random_play.h).
  for (const GoldenGame g : {GoldenGame{"the-castle-seed1.txt", "--seed 1"},
                             GoldenGame{"the-castle-seed5-eager.txt", "--seed 5 --policy eager"}}) {
    SCOPED_TRACE(g.file);
    const std::string hash = GoldenHash(g.file);
    ASSERT_EQ(hash.size(), 16u);
    const Result replayed = Carc("replay " + Golden(g.file));
    ASSERT_EQ(replayed.status, 0) << replayed.out;
    EXPECT_EQ(json::parse(replayed.out)["hash"], hash);
    const Result played = Carc(std::string("selfplay --rule-set the-castle ") + g.selfplay);
    ASSERT_EQ(played.status, 0) << played.out;
    EXPECT_EQ(json::parse(played.out)["hash"], hash);
  }
}

TEST(CarcCastle, ShowDrawsTheWallTheTilesAndTheScores) {
  const Result run = Carc("show --rule-set the-castle --seed 4");
  ASSERT_EQ(run.status, 0) << run.out;
  const std::string board = Board(run.out);
  // The wall and its corner towers, paths, towers, houses, courts, markets, fountains.
  for (const char glyph : {'=', '#', '|', '-', 'T', 'H', 'c', 'm', 'f'}) {
    EXPECT_NE(board.find(glyph), std::string::npos) << glyph << "\n" << run.out;
  }
  // Track numbers on the wall: the first corner tower, a wall cell, and start space 94.
  EXPECT_NE(board.find("#0#"), std::string::npos) << run.out;
  EXPECT_NE(board.find("=98="), std::string::npos) << run.out;
  EXPECT_NE(board.find("94"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("player 1:"), std::string::npos);
  EXPECT_NE(run.out.find("wall_tiles"), std::string::npos);
  EXPECT_NE(run.out.find("game over"), std::string::npos);
  EXPECT_NE(run.out.find("wall tiles still on the wall 0"), std::string::npos);
}

TEST(CarcCastle, ShowOfARecordedFileDrawsTheSameGame) {
  const Result recorded = Carc("record --rule-set the-castle --seed 8");
  ASSERT_EQ(recorded.status, 0);
  const Result from_file = Carc("show " + WriteTemp("castle_show.txt", recorded.out));
  ASSERT_EQ(from_file.status, 0) << from_file.out;
  EXPECT_EQ(from_file.out, Carc("show --rule-set the-castle --seed 8").out);
  // Before the first draw: an empty castle, a wall tile on every corner tower but the first.
  const Result start = Carc("show --rule-set the-castle --seed 8 --steps 0");
  ASSERT_EQ(start.status, 0) << start.out;
  const std::string board = Board(start.out);
  EXPECT_EQ(std::count(board.begin(), board.end(), 'W'), 13) << start.out;
  EXPECT_NE(start.out.find("next: draw_tile by chance"), std::string::npos) << start.out;
  EXPECT_NE(start.out.find("tiles left: 60"), std::string::npos) << start.out;
}

TEST(CarcRiver, ABadRuleSetOrOptionIsRefusedAndNothingIsWritten) {
  struct Case {
    const char* args;
    const char* message;
  };
  for (const Case c : {
           Case{"selfplay --rule-set chess",
                "carc: unknown rule set 'chess' (known: the-city, carcassonne, the-castle)\n"},
           Case{"record --rule-set chess", "carc: unknown rule set 'chess'"},
           Case{"selfplay --rule-set carcassonne --option river=2",
                "carc: --option: option 'river' must be 0 to 1\n"},
           Case{"record --rule-set carcassonne --option rivers=1",
                "carc: --option: Carcassonne (with the River) has no option 'rivers'\n"},
           Case{"show --rule-set carcassonne --option river", "option 'river' has no value"},
           Case{"selfplay --option river=0", "Carcassonne: The City has no option 'river'"},
           Case{"selfplay --players 5", "carc: The City is played by 2 to 4 players"},
           Case{"tiles --rule-set carcassonne", "The City's tile set only"},
       }) {
    SCOPED_TRACE(c.args);
    const Result run = Carc(c.args);
    EXPECT_NE(run.status, 0);
    // One line on standard error, and nothing else.
    EXPECT_EQ(run.out.rfind("carc: ", 0), 0u) << run.out;
    EXPECT_NE(run.out.find(c.message), std::string::npos) << run.out;
    EXPECT_EQ(std::count(run.out.begin(), run.out.end(), '\n'), 1) << run.out;
  }
}

TEST(CarcRiver, AFileDecidesItsGameAndOptions) {
  const Result recorded = Carc("record --rule-set carcassonne --seed 2");
  ASSERT_EQ(recorded.status, 0);
  const std::string path = WriteTemp("river_game.txt", recorded.out);
  const Result wrong_game = Carc("replay --rule-set the-city " + path);
  EXPECT_EQ(wrong_game.status, 2);
  EXPECT_NE(wrong_game.out.find("is a game of carcassonne, not of the-city"), std::string::npos)
      << wrong_game.out;
  const Result options = Carc("show --option river=0 " + path);
  EXPECT_EQ(options.status, 2);
  EXPECT_NE(options.out.find("gives its own options"), std::string::npos) << options.out;
  EXPECT_EQ(Carc("replay --rule-set carcassonne " + path).status, 0);
  const Result json_export =
      Carc("replay --rule-set carcassonne " + WriteTemp("export.json", "{}"));
  EXPECT_EQ(json_export.status, 2);
  EXPECT_NE(json_export.out.find("exported games (JSON) are read for the-city only"),
            std::string::npos)
      << json_export.out;
}

// `carc arena`: bots against bots, one Markdown row.
TEST(CarcArena, PrintsAMarkdownRowWhoseWinRatesSumToAHundred) {
  const Result run = Carc("arena --rule-set the-castle -p 2 -n 4 -a random -b greedy --header");
  ASSERT_EQ(run.status, 0) << run.out;
  std::istringstream lines(run.out);
  std::string header, rule, row;
  std::getline(lines, header);
  std::getline(lines, rule);
  std::getline(lines, row);
  EXPECT_EQ(header.rfind("| rule set | players | A vs B | games | A wins | B wins |", 0), 0u);
  EXPECT_EQ(row.rfind("| the-castle | 2 | random vs greedy | 4 | ", 0), 0u) << row;
  double a = 0, b = 0;
  ASSERT_EQ(
      std::sscanf(row.c_str(), "| the-castle | 2 | random vs greedy | 4 | %lf%% | %lf%%", &a, &b),
      2)
      << row;
  EXPECT_DOUBLE_EQ(a + b, 100.0);
  EXPECT_GT(b, a) << "greedy beats random";
}

TEST(CarcArena, TheRowDoesNotDependOnTheThreads) {
  const std::string args =
      "arena --rule-set carcassonne -p 4 -n 4 -s 3 -a greedy -b strong "
      "--playouts 3";
  const Result one = Carc(args + " -j 1");
  ASSERT_EQ(one.status, 0) << one.out;
  EXPECT_NE(one.out.find("| carcassonne (river=1) | 4 | greedy vs strong/3 | 4 |"),
            std::string::npos)
      << one.out;
  EXPECT_EQ(Carc(args + " -j 3").out, one.out);
}

TEST(CarcArena, TheRowNamesTheStrongBotsPlayoutHorizon) {
  const Result run = Carc(
      "arena --rule-set the-castle -p 2 -n 2 -a random -b strong --playouts 3 "
      "--playout-steps 7");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("| the-castle | 2 | random vs strong/3h7 | 2 |"), std::string::npos)
      << run.out;
  const Result to_the_end = Carc(
      "arena --rule-set the-castle -p 2 -n 2 -a random -b strong --playouts 3 "
      "--playout-steps 0");
  ASSERT_EQ(to_the_end.status, 0) << to_the_end.out;
  EXPECT_NE(to_the_end.out.find("| random vs strong/3 | 2 |"), std::string::npos) << to_the_end.out;
  // Without the flag, the rule set's own horizon: 4 in The Castle, none in The City.
  const Result castle =
      Carc("arena --rule-set the-castle -p 2 -n 2 -a greedy -b strong --playouts 3");
  EXPECT_NE(castle.out.find("| greedy vs strong/3h4 | 2 |"), std::string::npos) << castle.out;
  const Result city = Carc("arena --rule-set the-city -p 2 -n 2 -a greedy -b strong --playouts 3");
  EXPECT_NE(city.out.find("| greedy vs strong/3 | 2 |"), std::string::npos) << city.out;
  EXPECT_NE(Carc("arena --playout-steps -1").status, 0);
  EXPECT_NE(Carc("arena --playout-steps twelve").status, 0);
}

TEST(CarcArena, RefusesASetupTheGameDoesNotAllow) {
  const Result castle = Carc("arena --rule-set the-castle -p 4 -n 2");
  EXPECT_EQ(castle.status, 2);
  EXPECT_NE(castle.out.find("The Castle is played by 2 players"), std::string::npos) << castle.out;
  EXPECT_NE(Carc("arena -p 3").status, 0);
  EXPECT_NE(Carc("arena -a grandmaster").status, 0);
}

}  // namespace
