// The text notation of actions (city/notation.h) and action-list transcripts (city/transcript.h).
//
// Every action kind formats and parses back to itself; bad lines come back as messages that say
// what is wrong; recorded random games format to transcripts that replay to the same state, and a
// transcript that cannot be replayed says which line failed and why.
#include "city/notation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "city/default_tiles.h"
#include "city/game.h"
#include "city/random_play.h"
#include "city/transcript.h"

namespace carc::city {
namespace {

Game NewGame(uint64_t seed, int players) {
  Config config;
  config.players = players;
  auto created = Game::Create(DefaultTileSet(), config, seed);
  return std::get<Game>(std::move(created));
}

// A game played by the random player for `steps` steps (all of it if negative).
Game Played(uint64_t seed, int players, int steps = -1) {
  Game game = NewGame(seed, players);
  core::Random random = ChoiceRandom(seed);
  PlayBuffers buffers;
  for (int i = 0; steps < 0 || i < steps; ++i) {
    if (!RandomStep(game, random, buffers)) break;
  }
  return game;
}

// A fresh default game whose first tile is the first copy of `type_name`, drawn and placed at
// the origin: it waits for p0's follower decision on that tile.
Game FollowerDecisionOn(std::string_view type_name) {
  auto tiles = DefaultTileSet();
  int first = -1;
  for (const core::TileType& type : tiles->types()) {
    if (type.name == type_name) first = type.first_id;
  }
  EXPECT_GE(first, 0) << type_name;
  std::vector<int> order = {first};
  for (int t = 0; t < tiles->TileCount(); ++t) {
    if (t != first) order.push_back(t);
  }
  Game game = std::get<Game>(Game::CreateWithOrder(tiles, Config{}, 0, order));
  EXPECT_FALSE(game.Apply(kChance, Action::Draw(first), nullptr).has_value());
  EXPECT_FALSE(game.Apply(0, Action::PlaceTile(0, 0, 0), nullptr).has_value());
  EXPECT_EQ(game.CurrentDecision(), (Decision{0, DecisionKind::kPlaceFollower}));
  return game;
}

ParsedAction ParseOk(const Game& game, std::string_view line) {
  auto parsed = ParseAction(game, line);
  if (auto* message = std::get_if<std::string>(&parsed)) {
    ADD_FAILURE() << "'" << line << "': " << *message;
    return {};
  }
  return std::get<ParsedAction>(parsed);
}

std::string ParseFailure(const Game& game, std::string_view line) {
  auto parsed = ParseAction(game, line);
  if (std::holds_alternative<ParsedAction>(parsed)) {
    ADD_FAILURE() << "'" << line << "' was accepted";
    return {};
  }
  return std::get<std::string>(parsed);
}

// Formats `action`, checks the text, and parses it back, with and without an actor.
void ExpectRoundTrip(const Game& game, const Action& action, std::string_view text) {
  EXPECT_EQ(FormatAction(game, action), text);
  const ParsedAction plain = ParseOk(game, text);
  EXPECT_FALSE(plain.has_actor);
  EXPECT_EQ(plain.action, action) << text;
  for (Actor actor : {kChance, 0, 1, 2, 3}) {
    const std::string line = FormatActor(actor) + " " + std::string(text);
    const ParsedAction with_actor = ParseOk(game, line);
    EXPECT_TRUE(with_actor.has_actor) << line;
    EXPECT_EQ(with_actor.actor, actor) << line;
    EXPECT_EQ(with_actor.action, action) << line;
  }
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string Join(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

Transcript ParseTranscriptOk(std::string_view text) {
  auto parsed = ParseTranscript(text);
  if (auto* error = std::get_if<TranscriptError>(&parsed)) {
    ADD_FAILURE() << error->ToString();
    return {};
  }
  return std::get<Transcript>(parsed);
}

TranscriptError TranscriptRefused(std::string_view text) {
  auto parsed = ParseTranscript(text);
  if (std::holds_alternative<Transcript>(parsed)) {
    ADD_FAILURE() << "accepted:\n" << text;
    return {};
  }
  return std::get<TranscriptError>(parsed);
}

bool Contains(const std::string& haystack, std::string_view needle) {
  return haystack.find(needle) != std::string::npos;
}

// ---------------------------------------------------------------------------------------------
// Actions

TEST(Notation, FormatActor) {
  EXPECT_EQ(FormatActor(kChance), "chance");
  EXPECT_EQ(FormatActor(0), "p0");
  EXPECT_EQ(FormatActor(3), "p3");
}

TEST(Notation, RoundTripOfEveryKind) {
  const Game game = NewGame(1, 4);
  ExpectRoundTrip(game, Action::Draw(0), "draw 0");
  ExpectRoundTrip(game, Action::Draw(17), "draw 17");
  ExpectRoundTrip(game, Action::Draw(74), "draw 74");
  ExpectRoundTrip(game, Action::PlaceTile(0, 0, 0), "place 0 0 0");
  ExpectRoundTrip(game, Action::PlaceTile(0, -1, 3), "place 0 -1 3");
  ExpectRoundTrip(game, Action::PlaceTile(-12, 7, 1), "place -12 7 1");
  ExpectRoundTrip(game, Action::SkipFollower(), "follower none");
  ExpectRoundTrip(game, Action::PlaceGate(0, -1, core::kNorth), "gate 0 -1 N");
  ExpectRoundTrip(game, Action::PlaceGate(3, 2, core::kEast), "gate 3 2 E");
  ExpectRoundTrip(game, Action::PlaceGate(-4, 0, core::kSouth), "gate -4 0 S");
  ExpectRoundTrip(game, Action::PlaceGate(1, 1, core::kWest), "gate 1 1 W");
  ExpectRoundTrip(game, Action::BuildWall(kFrontEnd), "wall front");
  ExpectRoundTrip(game, Action::BuildWall(kBackEnd), "wall back");
  ExpectRoundTrip(game, Action::PlaceGuard(), "guard yes");
  ExpectRoundTrip(game, Action::SkipGuard(), "guard no");
  ExpectRoundTrip(game, Action::PlaceTower(kFrontEnd), "tower front");
  ExpectRoundTrip(game, Action::PlaceTower(kBackEnd), "tower back");
  ExpectRoundTrip(game, Action::SkipTower(), "tower none");
}

TEST(Notation, FollowerNamesTheFeatureByItsLabel) {
  // cross4-res: a1b b2c c3d d4a, features in order a 1 b 2 c 3 d 4.
  const Game game = FollowerDecisionOn("cross4-res");
  const core::TileType& type = game.tiles().TypeOf(game.board().Placed(0).tile);
  ASSERT_EQ(type.FeatureCount(), 8);
  for (int f = 0; f < type.FeatureCount(); ++f) {
    const std::string text = std::string("follower ") + type.features[static_cast<size_t>(f)].label;
    ExpectRoundTrip(game, Action::PlaceFollower(f), text);
  }
  EXPECT_EQ(FormatAction(game, Action::PlaceFollower(0)), "follower a");
  EXPECT_EQ(FormatAction(game, Action::PlaceFollower(1)), "follower 1");
  EXPECT_EQ(ParseOk(game, "follower d").action, Action::PlaceFollower(6));
  EXPECT_EQ(ParseOk(game, "p0 follower 4").action, Action::PlaceFollower(7));
}

// Every legal action met in random games formats and parses back to itself, and the games
// offer every kind of action.
TEST(Notation, RoundTripOfEveryLegalActionInRandomGames) {
  std::set<ActionKind> kinds;
  std::vector<Action> legal;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    Game game = NewGame(seed, 2 + static_cast<int>(seed % 3));
    core::Random random = ChoiceRandom(seed);
    PlayBuffers buffers;
    do {
      game.LegalActions(&legal);
      for (const Action& action : legal) {
        kinds.insert(action.kind);
        const std::string text = FormatAction(game, action);
        const std::string line = FormatActor(game.CurrentDecision().actor) + " " + text;
        const ParsedAction parsed = ParseOk(game, line);
        ASSERT_EQ(parsed.action, action) << line << " (seed " << seed << ")";
        ASSERT_TRUE(parsed.has_actor);
        ASSERT_EQ(parsed.actor, game.CurrentDecision().actor);
      }
    } while (RandomStep(game, random, buffers));
  }
  EXPECT_EQ(kinds.size(), 10u) << "the random games did not offer every kind of action";
}

TEST(Notation, ActorPrefixes) {
  const Game game = NewGame(1, 4);
  ParsedAction p = ParseOk(game, "p0 place 0 0 1");
  EXPECT_TRUE(p.has_actor);
  EXPECT_EQ(p.actor, 0);
  EXPECT_EQ(p.action, Action::PlaceTile(0, 0, 1));
  p = ParseOk(game, "chance draw 5");
  EXPECT_TRUE(p.has_actor);
  EXPECT_EQ(p.actor, kChance);
  EXPECT_EQ(p.action, Action::Draw(5));
  p = ParseOk(game, "p3 tower none");
  EXPECT_TRUE(p.has_actor);
  EXPECT_EQ(p.actor, 3);
  p = ParseOk(game, "  p2\twall   back  ");
  EXPECT_TRUE(p.has_actor);
  EXPECT_EQ(p.actor, 2);
  EXPECT_EQ(p.action, Action::BuildWall(kBackEnd));
  p = ParseOk(game, "draw 5");
  EXPECT_FALSE(p.has_actor);
  EXPECT_EQ(p.action, Action::Draw(5));
}

TEST(Notation, PlaceIsNotMistakenForAnActor) {
  const Game game = NewGame(1, 4);
  ParsedAction p = ParseOk(game, "place 1 2 3");
  EXPECT_FALSE(p.has_actor);
  EXPECT_EQ(p.action, Action::PlaceTile(1, 2, 3));
  p = ParseOk(game, "p1 place 1 2 3");
  EXPECT_TRUE(p.has_actor);
  EXPECT_EQ(p.actor, 1);
  EXPECT_EQ(p.action, Action::PlaceTile(1, 2, 3));
}

TEST(Notation, UnknownVerb) {
  const Game game = NewGame(1, 4);
  EXPECT_EQ(ParseFailure(game, "jump 1 2"), "unknown action 'jump'");
  EXPECT_EQ(ParseFailure(game, "p0 fly"), "unknown action 'fly'");
  EXPECT_EQ(ParseFailure(game, "Place 0 0 0"), "unknown action 'Place'");
  EXPECT_EQ(ParseFailure(game, "px draw 1"), "unknown action 'px'");
  EXPECT_EQ(ParseFailure(game, ""), "empty action");
  EXPECT_EQ(ParseFailure(game, "   "), "empty action");
}

TEST(Notation, WrongArity) {
  const Game game = NewGame(1, 4);
  EXPECT_EQ(ParseFailure(game, "draw"), "expected 'draw <tile id>'");
  EXPECT_EQ(ParseFailure(game, "draw 1 2"), "expected 'draw <tile id>'");
  EXPECT_EQ(ParseFailure(game, "place 1 2"), "expected 'place <x> <y> <rotation 0-3>'");
  EXPECT_EQ(ParseFailure(game, "place 1 2 3 4"), "expected 'place <x> <y> <rotation 0-3>'");
  EXPECT_TRUE(Contains(ParseFailure(game, "follower"), "expected 'follower"));
  EXPECT_TRUE(Contains(ParseFailure(game, "follower a b"), "expected 'follower"));
  EXPECT_EQ(ParseFailure(game, "gate 0 0"), "expected 'gate <x> <y> <N|E|S|W>'");
  EXPECT_EQ(ParseFailure(game, "wall"), "expected 'wall front|back'");
  EXPECT_EQ(ParseFailure(game, "wall front back"), "expected 'wall front|back'");
  EXPECT_EQ(ParseFailure(game, "guard"), "expected 'guard yes|no'");
  EXPECT_EQ(ParseFailure(game, "tower"), "expected 'tower front|back|none'");
  EXPECT_TRUE(Contains(ParseFailure(game, "p1"), "without an action"));
  EXPECT_TRUE(Contains(ParseFailure(game, "chance"), "without an action"));
}

TEST(Notation, BadArguments) {
  const Game game = NewGame(1, 4);
  EXPECT_EQ(ParseFailure(game, "draw x"), "expected 'draw <tile id>'");
  EXPECT_EQ(ParseFailure(game, "draw -1"), "expected 'draw <tile id>'");
  EXPECT_EQ(ParseFailure(game, "draw 256"), "expected 'draw <tile id>'");
  EXPECT_EQ(ParseFailure(game, "place a 0 0"), "expected 'place <x> <y> <rotation 0-3>'");
  EXPECT_EQ(ParseFailure(game, "place 0 200 0"), "expected 'place <x> <y> <rotation 0-3>'");
  EXPECT_EQ(ParseFailure(game, "place 0 0 -1"), "expected 'place <x> <y> <rotation 0-3>'");
  EXPECT_EQ(ParseFailure(game, "place 0 0 1.5"), "expected 'place <x> <y> <rotation 0-3>'");
  EXPECT_EQ(ParseFailure(game, "wall middle"), "expected 'wall front|back'");
  EXPECT_EQ(ParseFailure(game, "wall none"), "expected 'wall front|back'");
  EXPECT_EQ(ParseFailure(game, "tower up"), "expected 'tower front|back|none'");
  EXPECT_EQ(ParseFailure(game, "guard maybe"), "expected 'guard yes|no'");
  // The notation reads numbers; the engine judges them (a rotation of 4 parses, Apply refuses it).
  EXPECT_EQ(ParseOk(game, "place 0 0 4").action, Action::PlaceTile(0, 0, 4));
}

TEST(Notation, BadSideLetter) {
  const Game game = NewGame(1, 4);
  for (std::string_view line :
       {"gate 0 0 X", "gate 0 0 n", "gate 0 0 NE", "gate 0 0 0", "gate 0 0 north"}) {
    EXPECT_EQ(ParseFailure(game, line), "expected 'gate <x> <y> <N|E|S|W>'") << line;
  }
}

TEST(Notation, UnknownFollowerLabel) {
  const Game game = FollowerDecisionOn("straight-res");  // a1b b-b b1a a-a: a, 1, b
  EXPECT_EQ(ParseFailure(game, "follower z"), "the tile just placed has no feature 'z'");
  EXPECT_EQ(ParseFailure(game, "follower c"), "the tile just placed has no feature 'c'");
  EXPECT_EQ(ParseFailure(game, "follower 2"), "the tile just placed has no feature '2'");
  EXPECT_EQ(ParseFailure(game, "follower ab"), "the tile just placed has no feature 'ab'");
  EXPECT_EQ(ParseOk(game, "follower b").action, Action::PlaceFollower(2));
  // Before any tile is placed no feature can be named.
  EXPECT_EQ(ParseFailure(NewGame(1, 4), "follower a"), "the tile just placed has no feature 'a'");
}

TEST(Notation, UnknownActor) {
  const Game game = NewGame(1, 4);
  EXPECT_EQ(ParseFailure(game, "p4 draw 1"), "unknown actor 'p4'");  // seats are p0..p3
  EXPECT_EQ(ParseFailure(NewGame(1, 2), "p2 draw 1"), "unknown actor 'p2'");
  EXPECT_EQ(ParseFailure(game, "p5 draw 1"), "unknown actor 'p5'");
  EXPECT_EQ(ParseFailure(game, "p12 place 0 0 0"), "unknown actor 'p12'");
  EXPECT_EQ(ParseFailure(game, "p1x guard yes"), "unknown actor 'p1x'");
}

// ---------------------------------------------------------------------------------------------
// Transcripts

void ExpectReplaysTo(const Game& game, bool with_order) {
  const std::string text = FormatTranscript(game, with_order);
  const std::vector<std::string> lines = Lines(text);
  ASSERT_GE(lines.size(), 4u);
  EXPECT_EQ(lines[0], "game the-city");
  EXPECT_EQ(lines[1], "players " + std::to_string(game.players()));
  EXPECT_EQ(lines[2], "seed " + std::to_string(game.seed()));
  EXPECT_EQ(lines[3],
            "tileset " + game.tiles().id() + " " + std::to_string(game.tiles().version()));
  EXPECT_EQ(Contains(text, "\norder "), with_order);

  const Transcript t = ParseTranscriptOk(text);
  EXPECT_EQ(t.players, game.players());
  EXPECT_EQ(t.seed, game.seed());
  EXPECT_EQ(t.tileset_id, game.tiles().id());
  EXPECT_EQ(t.tileset_version, game.tiles().version());
  ASSERT_EQ(t.order.has_value(), with_order);
  if (with_order) {
    EXPECT_EQ(*t.order, game.Order());
  }
  ASSERT_EQ(t.actions.size(), game.History().size());
  const int first_action_line = with_order ? 6 : 5;
  for (size_t i = 0; i < t.actions.size(); ++i) {
    EXPECT_EQ(t.actions[i].line, first_action_line + static_cast<int>(i));
  }

  const ReplayResult result = Replay(game.shared_tiles(), Config{}, t);
  ASSERT_FALSE(result.failure.has_value()) << result.failure->ToString();
  EXPECT_FALSE(result.error.has_value());
  ASSERT_TRUE(result.game.has_value());
  EXPECT_EQ(result.applied, static_cast<int>(game.History().size()));
  EXPECT_EQ(result.game->Hash(), game.Hash());
  EXPECT_TRUE(*result.game == game);
  // Formatting the replayed game gives the same text again.
  EXPECT_EQ(FormatTranscript(*result.game, with_order), text);
}

TEST(Notation, RecordedGamesReplayWithAndWithoutOrder) {
  for (uint64_t seed : {3u, 17u, 2024u}) {
    const int players = 2 + static_cast<int>(seed % 3);
    SCOPED_TRACE("seed " + std::to_string(seed));
    const Game game = Played(seed, players);
    ASSERT_TRUE(game.IsOver());
    ExpectReplaysTo(game, true);
    ExpectReplaysTo(game, false);
  }
}

TEST(Notation, UnfinishedGameReplays) {
  const Game game = Played(99, 3, 140);
  ASSERT_FALSE(game.IsOver());
  ExpectReplaysTo(game, true);
  ExpectReplaysTo(game, false);
  ExpectReplaysTo(NewGame(5, 2), false);  // no action at all
}

TEST(Notation, OrderHeaderReplaysAGameWithAChosenOrder) {
  auto tiles = DefaultTileSet();
  std::vector<int> order(static_cast<size_t>(tiles->TileCount()));
  for (int i = 0; i < tiles->TileCount(); ++i)
    order[static_cast<size_t>(i)] = tiles->TileCount() - 1 - i;
  Config config;
  config.players = 3;
  Game game = std::get<Game>(Game::CreateWithOrder(tiles, config, 8, order));
  core::Random random = ChoiceRandom(8);
  PlayBuffers buffers;
  while (RandomStep(game, random, buffers)) {
  }
  ExpectReplaysTo(game, true);
  // Without the order the seed's shuffle is used, and the first draw is refused.
  const Transcript t = ParseTranscriptOk(FormatTranscript(game, true));
  Transcript no_order = t;
  no_order.order.reset();
  const ReplayResult result = Replay(tiles, Config{}, no_order);
  ASSERT_TRUE(result.failure.has_value());
  EXPECT_EQ(result.error, Error::kNotNextTile);
  EXPECT_EQ(result.failure->line, t.actions[0].line);
}

TEST(Notation, ActionsWithoutActorsReplay) {
  const Game game = Played(41, 4);
  std::vector<std::string> lines = Lines(FormatTranscript(game, false));
  for (std::string& line : lines) {
    const size_t space = line.find(' ');
    if (line.rfind("chance ", 0) == 0 || (line[0] == 'p' && line[1] >= '0' && line[1] <= '9')) {
      line = line.substr(space + 1);
    }
  }
  const ReplayResult result = Replay(DefaultTileSet(), Config{}, ParseTranscriptOk(Join(lines)));
  ASSERT_FALSE(result.failure.has_value()) << result.failure->ToString();
  ASSERT_TRUE(result.game.has_value());
  EXPECT_EQ(result.game->Hash(), game.Hash());
}

TEST(Notation, TranscriptCommentsBlankLinesAndCrlf) {
  const Game game = Played(6, 2, 30);
  std::string text = "# a saved game\r\n\r\n";
  for (const std::string& line : Lines(FormatTranscript(game, false))) {
    text += line + "   # comment\r\n";
  }
  const Transcript t = ParseTranscriptOk(text);
  EXPECT_EQ(t.actions.size(), game.History().size());
  EXPECT_EQ(t.actions[0].line, 7);
  const ReplayResult result = Replay(DefaultTileSet(), Config{}, t);
  ASSERT_FALSE(result.failure.has_value()) << result.failure->ToString();
  EXPECT_EQ(result.game->Hash(), game.Hash());
}

TEST(Notation, HeaderAfterAnActionIsAnError) {
  const TranscriptError error =
      TranscriptRefused("game the-city\nplayers 2\nseed 7\nchance draw 3\n\n# comment\nseed 8\n");
  EXPECT_EQ(error.line, 7);
  EXPECT_TRUE(Contains(error.message, "'seed'")) << error.message;
  EXPECT_TRUE(Contains(error.message, "after the first action")) << error.message;
  EXPECT_EQ(error.ToString(), "line 7: " + error.message);
  EXPECT_EQ(TranscriptRefused("seed 1\np0 place 0 0 0\norder 1 2 3\n").line, 3);
  EXPECT_EQ(TranscriptRefused("seed 1\np0 place 0 0 0\ntileset x 1\n").line, 3);
}

TEST(Notation, BadHeaderLines) {
  struct Case {
    const char* text;
    int line;
    const char* words;
  };
  for (const Case& c : std::vector<Case>{
           {"game carcassonne\n", 1, "game the-city"},
           {"game the-city\nplayers two\n", 2, "players"},
           {"game the-city\nplayers\n", 2, "players"},
           {"seed -1\n", 1, "seed"},
           {"seed 12x\n", 1, "seed"},
           {"\ntileset the-city-reconstruction\n", 2, "tileset <id> <version>"},
           {"tileset a b\n", 1, "tileset <id> <version>"},
           {"order 1 2 x\n", 1, "order"},
       }) {
    const TranscriptError error = TranscriptRefused(c.text);
    EXPECT_EQ(error.line, c.line) << c.text;
    EXPECT_TRUE(Contains(error.message, c.words)) << c.text << " -> " << error.message;
  }
}

TEST(Notation, OtherTileSetIsRefused) {
  const Game game = Played(12, 2, 20);
  const std::string text = FormatTranscript(game, false);
  const std::string header =
      "tileset " + game.tiles().id() + " " + std::to_string(game.tiles().version());
  ASSERT_TRUE(Contains(text, header));
  for (const std::string& other :
       {std::string("tileset another-set 1"),
        "tileset " + game.tiles().id() + " " + std::to_string(game.tiles().version() + 1)}) {
    std::string changed = text;
    changed.replace(changed.find(header), header.size(), other);
    const Transcript t = ParseTranscriptOk(changed);
    const ReplayResult result = Replay(DefaultTileSet(), Config{}, t);
    ASSERT_TRUE(result.failure.has_value()) << other;
    EXPECT_EQ(result.failure->line, 0);
    EXPECT_TRUE(Contains(result.failure->message, other.substr(8))) << result.failure->message;
    EXPECT_FALSE(result.game.has_value());
    EXPECT_FALSE(result.error.has_value());
    EXPECT_EQ(result.applied, 0);
  }
  // Without a tileset line the set in use is taken on trust.
  std::string untagged = text;
  untagged.replace(untagged.find(header + "\n"), header.size() + 1, "");
  const ReplayResult result = Replay(DefaultTileSet(), Config{}, ParseTranscriptOk(untagged));
  EXPECT_FALSE(result.failure.has_value());
  ASSERT_TRUE(result.game.has_value());
  EXPECT_EQ(result.game->Hash(), game.Hash());
}

TEST(Notation, GameThatCannotBeCreatedIsReported) {
  const ReplayResult result =
      Replay(DefaultTileSet(), Config{}, ParseTranscriptOk("game the-city\nplayers 9\nseed 1\n"));
  ASSERT_TRUE(result.failure.has_value());
  EXPECT_EQ(result.failure->line, 0);
  EXPECT_TRUE(Contains(result.failure->message, "2 to 4 players")) << result.failure->message;
  EXPECT_FALSE(result.game.has_value());
}

// Replaces the `n`-th line (0-based) that starts with `prefix` and returns its 1-based number.
int ReplaceLine(std::vector<std::string>* lines, std::string_view prefix, int n,
                const std::string& replacement) {
  for (size_t i = 0; i < lines->size(); ++i) {
    if ((*lines)[i].rfind(prefix, 0) != 0) continue;
    if (n-- > 0) continue;
    (*lines)[i] = replacement;
    return static_cast<int>(i) + 1;
  }
  ADD_FAILURE() << "no such line";
  return 0;
}

// Actions before line `line` in a transcript whose header has `header_lines` lines.
int ActionsBefore(int line, int header_lines) { return line - header_lines - 1; }

TEST(Notation, IllegalActionIsReportedWithItsLine) {
  const Game game = Played(77, 2);
  const std::vector<std::string> lines = Lines(FormatTranscript(game, false));
  constexpr int kHeaderLines = 4;

  // The first tile away from the origin.
  std::vector<std::string> changed = lines;
  const int place_line = ReplaceLine(&changed, "p0 place ", 0, "p0 place 5 5 0");
  ASSERT_EQ(place_line, 6);
  ReplayResult result = Replay(DefaultTileSet(), Config{}, ParseTranscriptOk(Join(changed)));
  ASSERT_TRUE(result.failure.has_value());
  EXPECT_EQ(result.error, Error::kNotAtOrigin);
  EXPECT_EQ(result.failure->line, place_line);
  EXPECT_TRUE(Contains(result.failure->message, "'p0 place 5 5 0' is illegal"))
      << result.failure->message;
  EXPECT_TRUE(Contains(result.failure->message, ToString(Error::kNotAtOrigin)));
  EXPECT_TRUE(Contains(result.failure->message, Describe(Error::kNotAtOrigin)));
  EXPECT_TRUE(Contains(result.failure->ToString(), "line 6: "));
  EXPECT_EQ(result.applied, 1);
  ASSERT_TRUE(result.game.has_value());
  EXPECT_EQ(result.game->History().size(), 1u);  // the game as far as it got

  // A later draw of the wrong tile.
  changed = lines;
  const std::vector<int> order = game.Order();
  const int tenth_draw = order[9];
  const int other = order[10];
  const int draw_line =
      ReplaceLine(&changed, "chance draw ", 9, "chance draw " + std::to_string(other));
  ASSERT_EQ(lines[static_cast<size_t>(draw_line - 1)], "chance draw " + std::to_string(tenth_draw));
  result = Replay(DefaultTileSet(), Config{}, ParseTranscriptOk(Join(changed)));
  ASSERT_TRUE(result.failure.has_value());
  EXPECT_EQ(result.error, Error::kNotNextTile);
  EXPECT_EQ(result.failure->line, draw_line);
  EXPECT_EQ(result.applied, ActionsBefore(draw_line, kHeaderLines));
  ASSERT_TRUE(result.game.has_value());
  EXPECT_EQ(result.game->TilesDrawn(), 9);

  // The wrong player.
  changed = lines;
  const int wrong_line = ReplaceLine(&changed, "p1 place ", 0, "");
  const std::string& original = lines[static_cast<size_t>(wrong_line - 1)];
  changed[static_cast<size_t>(wrong_line - 1)] = "p0" + original.substr(2);
  result = Replay(DefaultTileSet(), Config{}, ParseTranscriptOk(Join(changed)));
  ASSERT_TRUE(result.failure.has_value());
  EXPECT_EQ(result.error, Error::kWrongPlayer);
  EXPECT_EQ(result.failure->line, wrong_line);
  EXPECT_EQ(result.applied, ActionsBefore(wrong_line, kHeaderLines));

  // A line that does not parse: reported with its line, but it is no engine error.
  changed = lines;
  const int bad_line = ReplaceLine(&changed, "p1 place ", 0, "p1 jump 3");
  result = Replay(DefaultTileSet(), Config{}, ParseTranscriptOk(Join(changed)));
  ASSERT_TRUE(result.failure.has_value());
  EXPECT_FALSE(result.error.has_value());
  EXPECT_EQ(result.failure->line, bad_line);
  EXPECT_TRUE(Contains(result.failure->message, "unknown action 'jump'"))
      << result.failure->message;
  EXPECT_EQ(result.applied, ActionsBefore(bad_line, kHeaderLines));

  // An action after the end of the game.
  changed = lines;
  changed.emplace_back("chance draw 0");
  result = Replay(DefaultTileSet(), Config{}, ParseTranscriptOk(Join(changed)));
  ASSERT_TRUE(result.failure.has_value());
  EXPECT_EQ(result.error, Error::kGameOver);
  EXPECT_EQ(result.failure->line, static_cast<int>(changed.size()));
  EXPECT_EQ(result.applied, static_cast<int>(game.History().size()));
  EXPECT_EQ(result.game->Hash(), game.Hash());
}

}  // namespace
}  // namespace carc::city
