// Bots in seats, resigning and rematches, through the room: bots' moves enter like a person's
// and are logged like one, for every rule set; an answer that comes too late is dropped; a
// restored room's bot thinks again; a resignation under each policy; a rematch and its offer.
#include "room/bot_seats.h"

#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "core/hash.h"
#include "persistence/replay.h"
#include "room_fixture.h"

namespace carc::server {
namespace {

using namespace fixture;  // NOLINT(google-build-using-namespace): the tests' own fixture

// ---------------------------------------------------------------------------------------------
// CreateGame's bot seats

TEST(BotSeats, CreateGameBotsAreCheckedBeforeAnythingIsCreated) {
  const auto parse = [](std::vector<std::pair<uint32_t, std::string>> bots, int seats) {
    wire::CreateGame create;
    for (const auto& [seat, level] : bots) {
      wire::BotSeat* bot = create.add_bots();
      bot->set_seat(seat);
      bot->set_level(level);
    }
    return ParseBotSeats(create, seats);
  };
  const auto refusal = [&](auto bots, int seats) {
    const auto parsed = parse(bots, seats);
    return std::holds_alternative<std::string>(parsed) ? std::get<std::string>(parsed) : "";
  };
  using Bots = std::vector<std::pair<uint32_t, std::string>>;
  EXPECT_EQ(refusal(Bots{{3, "greedy"}}, 3), "bots: the game has no seat 3 (its seats are 0 to 2)");
  EXPECT_EQ(refusal(Bots{{1, "greedy"}, {1, "strong"}}, 3), "bots: seat 1 is named twice");
  EXPECT_EQ(refusal(Bots{{1, "clever"}}, 3), "bots: a bot's level is random, greedy or strong");
  EXPECT_EQ(refusal(Bots{{0, "random"}, {1, "greedy"}}, 2),
            "bots: at least one seat must be left for a person");
  const auto good = parse(Bots{{2, "strong"}, {0, "random"}}, 3);
  ASSERT_TRUE(std::holds_alternative<std::vector<BotSeatOption>>(good));
  EXPECT_EQ(std::get<std::vector<BotSeatOption>>(good),
            (std::vector<BotSeatOption>{{2, bots::Level::kStrong}, {0, bots::Level::kRandom}}));
  EXPECT_EQ(BotPlayerName(bots::Level::kGreedy), "Greedy bot");
}

// ---------------------------------------------------------------------------------------------
// A person against bots, for every rule set

class BotGame : public testing::TestWithParam<std::string> {};

TEST_P(BotGame, OnePersonAgainstBotsIsPlayedToTheEndAndLoggedLikePeople) {
  const core::GameType& type = Registry().Find(GetParam())->Type();
  const int seats = std::min(3, type.max_players);
  std::vector<BotSeatOption> bots = {{1, bots::Level::kGreedy}};
  if (seats == 3) bots.push_back({2, bots::Level::kRandom});
  Table t(GetParam(), seats, bots);
  const wire::GameInfo open = t.room.Info();
  EXPECT_EQ(open.status(), wire::GAME_STATUS_OPEN);
  EXPECT_EQ(open.seat(1).bot(), "greedy");
  EXPECT_EQ(open.seat(1).player_name(), "Greedy bot");
  EXPECT_TRUE(open.seat(1).taken());
  EXPECT_EQ(open.seat(0).bot(), "");

  auto ann = t.Join("ann");  // the people's seats are full: the game starts
  ASSERT_EQ(ann->seat, 0);
  ASSERT_EQ(t.room.Status(), wire::GAME_STATUS_RUNNING);
  ASSERT_NO_FATAL_FAILURE(t.Play({ann}, 5));
  ASSERT_EQ(t.room.Status(), wire::GAME_STATUS_FINISHED);

  // The bots' moves are in the log as the bots' seats' actions, and the log replays to the end.
  const persistence::StoredGame stored = t.Stored();
  EXPECT_EQ(stored.game.status, persistence::GameStatus::kFinished);
  ASSERT_EQ(stored.game.seat_records.size(), static_cast<size_t>(seats));
  EXPECT_EQ(stored.game.seat_records[1].bot, "greedy");
  EXPECT_EQ(stored.game.seat_records[0].bot, "");
  std::vector<int> moves_by_seat(static_cast<size_t>(seats), 0);
  for (const persistence::ActionRecord& a : stored.actions) {
    if (a.seat >= 0) ++moves_by_seat[static_cast<size_t>(a.seat)];
  }
  for (int s = 0; s < seats; ++s) EXPECT_GT(moves_by_seat[static_cast<size_t>(s)], 0) << s;
  const auto replayed = persistence::ReplayStored(stored, Registry());
  ASSERT_FALSE(replayed.damage) << *replayed.damage;
  EXPECT_EQ(replayed.state->Hash(), t.room.game()->Hash());
  EXPECT_EQ(ann->sequence, t.room.Sequence()) << "the person saw every move, the bots' too";
}

INSTANTIATE_TEST_SUITE_P(EveryRuleSet, BotGame,
                         testing::Values("the-city", "carcassonne", "the-castle"));

TEST(BotSeats, ABotsAnswerToAStateTheGameHasLeftIsDropped) {
  Table t("the-city", 2, {{1, bots::Level::kRandom}});
  auto ann = t.Join("ann");
  core::Random random(3);
  while (t.runner.jobs.empty()) {
    t.room.Move(ann, 2, t.MoveOf(*ann, ann->legal[random.Below(ann->legal.size())]));
    ASSERT_FALSE(ann->LastError());
  }
  // The same answer twice: the first is the bot's move, the second answers a state gone by.
  ManualBots::Job job = t.runner.jobs.front();
  t.runner.jobs.pop_front();
  const std::string action = ChooseEncoded(*job.request, bots::Budget{50, 0});
  const uint64_t before = t.room.Sequence();
  job.answer(action);
  const uint64_t after = t.room.Sequence();
  EXPECT_GT(after, before);
  const size_t actions = t.Stored().actions.size();
  job.answer(action);
  EXPECT_EQ(t.room.Sequence(), after);
  EXPECT_EQ(t.Stored().actions.size(), actions) << "nothing more in the log";
}

TEST(BotSeats, ARestoredRoomsBotThinksAgainAndPlaysOn) {
  Table t("carcassonne", 2, {{1, bots::Level::kGreedy}});
  auto ann = t.Join("ann");
  core::Random random(4);
  while (t.runner.jobs.empty()) {
    t.room.Move(ann, 2, t.MoveOf(*ann, ann->legal[random.Below(ann->legal.size())]));
    ASSERT_FALSE(ann->LastError());
  }
  // The server stops while the bot thinks: a new room from the log thinks again.
  auto unfinished = t.store.LoadUnfinished();
  ASSERT_TRUE(unfinished.ok());
  ASSERT_EQ(unfinished->size(), 1u);
  ManualBots runner;
  Room restored(Options(2, {}, persistence::ResignPolicy::kBotTakesSeat), GameOf("carcassonne"),
                CountingTokens(), t.log);
  restored.SetBotRunner(&runner);
  ASSERT_FALSE(restored.Restore(unfinished->front()).has_value());
  EXPECT_EQ(restored.Info().seat(1).bot(), "greedy");
  ASSERT_EQ(runner.jobs.size(), 1u) << "the bot that must decide thinks again";
  const uint64_t before = restored.Sequence();
  runner.RunOne();
  EXPECT_GT(restored.Sequence(), before);
  EXPECT_EQ(t.Stored().actions.back().sequence, restored.Sequence());
}

// ---------------------------------------------------------------------------------------------
// Resigning

TEST(Resign, EndGameEndsItAtOnceWithTheScoresAndWhoResigned) {
  Table t("the-city", 2, {}, persistence::ResignPolicy::kEndGame);
  auto ann = t.Join("ann");
  auto bob = t.Join("bob");
  ASSERT_EQ(t.room.Status(), wire::GAME_STATUS_RUNNING);
  t.room.Move(ann, 2, t.MoveOf(*ann, ann->legal.front()));

  wire::Resign resign;
  resign.set_game_id("g1");
  resign.set_seat_token(bob->token);
  t.room.Resign(bob, 7, resign);
  ASSERT_TRUE(bob->received.back().has_lobby_update());
  EXPECT_EQ(bob->received.back().request_id(), 7u);
  EXPECT_EQ(t.room.Status(), wire::GAME_STATUS_RESIGNED);
  ASSERT_TRUE(ann->received.back().has_lobby_update()) << "everyone in the game hears of it";
  EXPECT_EQ(ann->received.back().lobby_update().game().status(), wire::GAME_STATUS_RESIGNED);
  EXPECT_TRUE(ann->received.back().lobby_update().game().seat(1).resigned());

  const persistence::StoredGame stored = t.Stored();
  EXPECT_EQ(stored.game.status, persistence::GameStatus::kResigned);
  EXPECT_NE(stored.game.result.find(R"("ended_by":"resigned")"), std::string::npos);
  EXPECT_NE(stored.game.result.find(R"("resigned_seat":1)"), std::string::npos);
  EXPECT_NE(stored.game.result.find(R"("winners":[0])"), std::string::npos);
  EXPECT_TRUE(stored.game.seat_records[1].resigned);

  t.room.Resign(bob, 8, resign);
  EXPECT_EQ(bob->LastError(), wire::ERROR_CODE_SEAT_RESIGNED);
  resign.set_seat_token(ann->token);
  t.room.Resign(ann, 9, resign);
  EXPECT_EQ(ann->LastError(), wire::ERROR_CODE_GAME_NOT_RUNNING);

  // After a restart the game is resigned still.
  Room restored(Options(2, {}, persistence::ResignPolicy::kBotTakesSeat), GameOf("the-city"),
                CountingTokens(), t.log);
  ASSERT_FALSE(restored.Restore(stored).has_value());
  EXPECT_EQ(restored.Status(), wire::GAME_STATUS_RESIGNED);
  EXPECT_TRUE(restored.Info().seat(1).resigned());
  EXPECT_EQ(restored.Info().on_resign(), wire::RESIGN_POLICY_END_GAME);
}

TEST(Resign, ABotTakesTheSeatAndFinishesTheGameAndTheTokenNoLongerPlays) {
  Table t("the-city", 3, {});
  auto ann = t.Join("ann");
  auto bob = t.Join("bob");
  auto cid = t.Join("cid");
  ASSERT_EQ(t.room.Status(), wire::GAME_STATUS_RUNNING);
  ASSERT_FALSE(ann->legal.empty());
  const std::string ann_move = ann->legal.front();

  wire::Resign resign;
  resign.set_game_id("g1");
  resign.set_seat_token(ann->token);
  t.room.Resign(ann, 7, resign);
  ASSERT_TRUE(ann->received.back().has_lobby_update());
  const wire::SeatInfo seat = ann->received.back().lobby_update().game().seat(0);
  EXPECT_TRUE(seat.resigned());
  EXPECT_EQ(seat.bot(), "greedy");
  EXPECT_EQ(seat.player_name(), "ann");
  EXPECT_EQ(t.room.Status(), wire::GAME_STATUS_RUNNING);
  ASSERT_EQ(t.runner.jobs.size(), 1u) << "it was ann's decision: the bot thinks";

  t.room.Move(ann, 8, t.MoveOf(*ann, ann_move));
  EXPECT_EQ(ann->LastError(), wire::ERROR_CODE_SEAT_RESIGNED);
  const persistence::StoredGame stored = t.Stored();
  EXPECT_TRUE(stored.game.seat_records[0].resigned);
  EXPECT_EQ(stored.game.seat_records[0].bot, "greedy");

  // A restart in between: the seat is the bot's still.
  Room restored(Options(3, {}, persistence::ResignPolicy::kBotTakesSeat), GameOf("the-city"),
                CountingTokens(), t.log);
  ASSERT_FALSE(restored.Restore(stored).has_value());
  EXPECT_TRUE(restored.Info().seat(0).resigned());
  EXPECT_EQ(restored.Info().seat(0).bot(), "greedy");

  ann->legal.clear();
  ASSERT_NO_FATAL_FAILURE(t.Play({bob, cid}, 8));
  EXPECT_EQ(t.room.Status(), wire::GAME_STATUS_FINISHED);
  int after_resigning = 0;
  for (const persistence::ActionRecord& a : t.Stored().actions) after_resigning += a.seat == 0;
  EXPECT_GT(after_resigning, 0) << "the bot played ann's seat";
}

TEST(Resign, WhenNoPersonIsLeftPlayingTheGameEnds) {
  Table t("carcassonne", 3, {{2, bots::Level::kRandom}});
  auto ann = t.Join("ann");
  auto bob = t.Join("bob");
  wire::Resign resign;
  resign.set_game_id("g1");
  resign.set_seat_token(ann->token);
  t.room.Resign(ann, 1, resign);
  EXPECT_EQ(t.room.Status(), wire::GAME_STATUS_RUNNING) << "bob plays on, against two bots";
  resign.set_seat_token(bob->token);
  t.room.Resign(bob, 2, resign);
  EXPECT_EQ(t.room.Status(), wire::GAME_STATUS_RESIGNED);
  EXPECT_EQ(t.Stored().game.status, persistence::GameStatus::kResigned);
}

// ---------------------------------------------------------------------------------------------
// Rematches

TEST(Rematch, TheFirstRequestCreatesItTheOthersAreOfferedItAndJoinIt) {
  Table t("the-city", 3, {{2, bots::Level::kGreedy}});
  auto ann = t.Join("ann");
  auto bob = t.Join("bob");
  wire::Rematch rematch;
  rematch.set_game_id("g1");
  rematch.set_seat_token(bob->token);
  t.room.Rematch(bob, 3, rematch);
  EXPECT_EQ(bob->LastError(), wire::ERROR_CODE_GAME_NOT_OVER);

  ASSERT_NO_FATAL_FAILURE(t.Play({ann, bob}, 6));
  ASSERT_EQ(t.room.Status(), wire::GAME_STATUS_FINISHED);

  std::vector<RoomOptions> created;
  std::vector<std::pair<std::string, RematchSeat>> joined;
  t.room.on_rematch_create = [&](RoomOptions options, RoomGame) { created.push_back(options); };
  t.room.on_rematch_join = [&](const std::string& id, const RematchSeat& seat) {
    joined.emplace_back(id, seat);
  };
  t.room.Rematch(bob, 4, rematch);
  ASSERT_EQ(created.size(), 1u);
  EXPECT_EQ(created[0].seats, 3);
  EXPECT_EQ(created[0].bots, (std::vector<BotSeatOption>{{2, bots::Level::kGreedy}}));
  EXPECT_EQ(created[0].rematch_of, 1);
  EXPECT_EQ(created[0].on_resign, persistence::ResignPolicy::kBotTakesSeat);
  EXPECT_TRUE(joined.empty()) << "seated once the rematch exists";

  // The lobby makes it (on the same log), then tells the old room.
  RoomOptions options = created[0];
  options.number = 2;
  Room second(options, GameOf("the-city"), CountingTokens(), t.log);
  second.Create(nullptr, 0);
  t.room.RematchReady(second.Info());
  ASSERT_EQ(joined.size(), 1u);
  EXPECT_EQ(joined[0].first, "g2");
  EXPECT_EQ(joined[0].second.seat, 1);
  EXPECT_EQ(joined[0].second.player_name, "bob");
  EXPECT_EQ(joined[0].second.request_id, 4u);
  ASSERT_TRUE(ann->received.back().has_rematch_offered());
  const wire::RematchOffered& offer = ann->received.back().rematch_offered();
  EXPECT_EQ(offer.game_id(), "g1");
  EXPECT_EQ(offer.game().game_id(), "g2");
  EXPECT_EQ(offer.game().rematch_of(), "g1");
  EXPECT_EQ(offer.game().seat(2).bot(), "greedy");
  EXPECT_EQ(offer.seat(), 0u);
  EXPECT_EQ(bob->Count([](const auto& m) { return m.has_rematch_offered(); }), 0);
  EXPECT_EQ(t.room.Info().rematch(), "g2");

  // Ann asks too: she joins the same rematch.
  rematch.set_seat_token(ann->token);
  t.room.Rematch(ann, 5, rematch);
  ASSERT_EQ(created.size(), 1u);
  ASSERT_EQ(joined.size(), 2u);
  EXPECT_EQ(joined[1].first, "g2");
  EXPECT_EQ(joined[1].second.seat, 0);

  // Both links are in the log.
  EXPECT_EQ(t.Stored().game.rematch, 2);
  auto second_stored = t.store.LoadGame(2);
  ASSERT_TRUE(second_stored.ok() && second_stored->has_value());
  EXPECT_EQ((*second_stored)->game.rematch_of, 1);
  ASSERT_EQ((*second_stored)->game.seat_records.size(), 1u);
  EXPECT_EQ((*second_stored)->game.seat_records[0].bot, "greedy");
}

}  // namespace
}  // namespace carc::server
