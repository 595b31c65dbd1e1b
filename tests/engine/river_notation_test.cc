// Carcassonne's text notation (river/notation.h) and action-list files (river/transcript.h):
// every action formats and parses back, events have a stable text form, and bad lines and headers
// are refused with a message that names the problem and its line.
#include <gtest/gtest.h>

#include "river/default_tiles.h"
#include "river/notation.h"
#include "river/random_play.h"
#include "river/transcript.h"
#include "river_scenario.h"

namespace carc::river {
namespace {

std::string ErrorOf(const std::variant<ParsedAction, std::string>& parsed) {
  const auto* error = std::get_if<std::string>(&parsed);
  return error != nullptr ? *error : "";
}

TEST(RiverNotation, EveryLegalActionFormatsAndParsesBack) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    Game game = std::get<Game>(
        Game::Create(DefaultTileSet(), Config{.players = 3, .river = seed % 2 == 1}, seed));
    core::Random random = ChoiceRandom(seed);
    std::vector<Action> legal;
    while (!game.IsOver()) {
      game.LegalActions(&legal);
      for (const Action& a : legal) {
        const std::string text = FormatAction(game, a);
        const auto parsed =
            ParseAction(game, FormatActor(game.CurrentDecision().actor) + " " + text);
        ASSERT_EQ(ErrorOf(parsed), "") << text;
        EXPECT_EQ(std::get<ParsedAction>(parsed).action, a) << text;
        EXPECT_EQ(std::get<ParsedAction>(parsed).actor, game.CurrentDecision().actor);
      }
      const Action pick = legal[static_cast<size_t>(random.Below(legal.size()))];
      ASSERT_FALSE(game.Apply(game.CurrentDecision().actor, pick, nullptr));
    }
  }
}

TEST(RiverNotation, MonkIsNamedByTheMonasterysLetter) {
  Game game = test::MakeGame(DefaultTileSet(), 2, false, {"B-monastery"});
  test::Run(game, {"place 0 -1 0"});
  const auto parsed = ParseAction(game, "follower m");
  ASSERT_EQ(ErrorOf(parsed), "");
  std::vector<Event> events;
  ASSERT_FALSE(game.Apply(0, std::get<ParsedAction>(parsed).action, &events));
  EXPECT_EQ(FormatEvent(events.front()), "follower_placed player=0 x=0 y=-1 feature=1 role=monk");
}

TEST(RiverNotation, BadLinesNameTheProblem) {
  Game game = test::MakeGame(DefaultTileSet(), 2, false, {});
  EXPECT_NE(ErrorOf(ParseAction(game, "draw")).find("draw <tile id>"), std::string::npos);
  EXPECT_NE(ErrorOf(ParseAction(game, "place 1 0")).find("place <x> <y>"), std::string::npos);
  EXPECT_NE(ErrorOf(ParseAction(game, "place 1 0 x")).find("rotation"), std::string::npos);
  EXPECT_NE(ErrorOf(ParseAction(game, "follower z")).find("no feature 'z'"), std::string::npos);
  EXPECT_NE(ErrorOf(ParseAction(game, "gate 0 0 N")).find("unknown action"), std::string::npos);
  EXPECT_NE(ErrorOf(ParseAction(game, "p2 follower none")).find("unknown actor"),
            std::string::npos);  // a 2-player game
  EXPECT_NE(ErrorOf(ParseAction(game, "p1")).find("without an action"), std::string::npos);
}

TEST(RiverNotation, EventsHaveAStableTextForm) {
  FeatureScored scored{};
  scored.kind = core::FeatureKind::kCity;
  scored.x = 0;
  scored.y = 1;
  scored.tiles = 3;
  scored.pennants = 1;
  scored.complete = true;
  scored.points = {8, 0, 0, 0, 0};
  EXPECT_EQ(FormatEvent(scored),
            "feature_scored kind=city x=0 y=1 feature=0 tiles=3 pennants=1 complete=yes "
            "points=8,0,0,0,0");
  EXPECT_EQ(FormatEvent(FieldScored{1, 0, 2, 2, {6, 0, 0, 0, 0}}),
            "field_scored x=1 y=0 feature=2 cities=2 points=6,0,0,0,0");
  EXPECT_EQ(FormatEvent(DecisionRequested{{kChance, DecisionKind::kDrawTile}, 1}),
            "decision_requested actor=-1 decision=draw_tile turn=1");
}

TEST(RiverTranscript, HeaderLinesAreChecked) {
  const auto error_of = [](std::string_view text) {
    auto parsed = ParseTranscript(text);
    const auto* error = std::get_if<TranscriptError>(&parsed);
    return error != nullptr ? error->ToString() : "";
  };
  EXPECT_EQ(error_of("game the-city\n"), "line 1: expected 'game carcassonne'");
  EXPECT_EQ(error_of("game carcassonne\noptions river=2\n"),
            "line 2: expected 'options river=0|1'");
  EXPECT_EQ(error_of("game carcassonne\noptions castle=1\n"),
            "line 2: expected 'options river=0|1'");
  EXPECT_EQ(error_of("chance draw 3\nplayers 3\n"),
            "line 2: header line 'players' after the first action");
  auto parsed = ParseTranscript("game carcassonne\nplayers 4\noptions river=0\nseed 9\n");
  ASSERT_TRUE(std::holds_alternative<Transcript>(parsed));
  const Transcript& t = std::get<Transcript>(parsed);
  EXPECT_EQ(t.players, 4);
  EXPECT_FALSE(t.river);
  EXPECT_EQ(t.seed, 9u);
}

TEST(RiverTranscript, ReplayNamesTheFirstIllegalLine) {
  auto parsed =
      ParseTranscript("game carcassonne\nplayers 2\noptions river=1\nseed 5\nchance draw 999\n");
  ASSERT_TRUE(std::holds_alternative<Transcript>(parsed));
  const ReplayResult result = Replay(DefaultTileSet(), std::get<Transcript>(parsed));
  ASSERT_TRUE(result.failure.has_value());
  EXPECT_EQ(result.failure->line, 5);
  EXPECT_EQ(result.applied, 0);

  auto wrong_set = ParseTranscript("game carcassonne\ntileset the-city-reconstruction 1\n");
  const ReplayResult refused = Replay(DefaultTileSet(), std::get<Transcript>(wrong_set));
  ASSERT_TRUE(refused.failure.has_value());
  EXPECT_NE(refused.failure->message.find("tile set"), std::string::npos);
}

TEST(RiverTranscript, AGameWithoutItsOrderReplaysFromItsSeed) {
  Game game = std::get<Game>(Game::Create(DefaultTileSet(), Config{.players = 2}, 77));
  core::Random random = ChoiceRandom(77);
  PlayBuffers buffers;
  while (RandomStep(game, random, buffers)) {
  }
  auto parsed = ParseTranscript(FormatTranscript(game, false));
  ASSERT_TRUE(std::holds_alternative<Transcript>(parsed));
  EXPECT_FALSE(std::get<Transcript>(parsed).order.has_value());
  const ReplayResult result = Replay(DefaultTileSet(), std::get<Transcript>(parsed));
  ASSERT_FALSE(result.failure.has_value()) << result.failure->ToString();
  EXPECT_TRUE(*result.game == game);
}

}  // namespace
}  // namespace carc::river
