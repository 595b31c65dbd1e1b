// What the tests of a room's bots, clocks and absent players share: a connection that keeps what
// it gets, bots and an alarm that act only when the test says so, and a Table: a room of a rule
// set on an in-memory log, its game created, with a clock the test moves.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cassert>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/hash.h"
#include "persistence/journal.h"
#include "registry.h"
#include "room/bot_seats.h"
#include "room/room.h"

namespace carc::server::fixture {

// A connection that keeps what it receives, and the legal actions and sequence of the last
// snapshot or delta.
class Player : public Peer {
 public:
  void Send(Bytes message) override {
    wire::ServerMessage decoded;
    ASSERT_TRUE(decoded.ParseFromString(*message));
    if (decoded.has_seat_joined()) {
      token = decoded.seat_joined().seat_token();
      seat = static_cast<int>(decoded.seat_joined().seat());
    }
    if (decoded.has_snapshot()) {
      sequence = decoded.snapshot().sequence();
      legal.assign(decoded.snapshot().legal_actions().begin(),
                   decoded.snapshot().legal_actions().end());
    }
    if (decoded.has_delta()) {
      sequence = decoded.delta().sequence();
      legal.assign(decoded.delta().legal_actions().begin(), decoded.delta().legal_actions().end());
    }
    received.push_back(std::move(decoded));
  }
  std::optional<wire::ErrorCode> LastError() const {
    if (received.empty() || !received.back().has_error()) return std::nullopt;
    return received.back().error().code();
  }
  template <typename Pred>
  int Count(Pred pred) const {
    return static_cast<int>(std::count_if(received.begin(), received.end(), pred));
  }

  std::vector<wire::ServerMessage> received;
  std::vector<std::string> legal;
  uint64_t sequence = 0;
  std::string token;
  int seat = -1;
};

// Bots that think only when the test says so, on the test's thread.
class ManualBots : public BotRunner {
 public:
  struct Job {
    std::shared_ptr<BotRequest> request;
    Answer answer;
  };
  void Think(BotRequest request, Answer answer) override {
    jobs.push_back({std::make_shared<BotRequest>(std::move(request)), std::move(answer)});
  }
  // Thinks about the oldest decision and hands the answer back.
  void RunOne() {
    Job job = std::move(jobs.front());
    jobs.pop_front();
    job.answer(ChooseEncoded(*job.request, bots::Budget{50, 0}));
  }
  std::deque<Job> jobs;
};

// An alarm that rings when the test's clock passes its time (Table::Advance).
class ManualAlarm : public Alarm {
 public:
  explicit ManualAlarm(std::shared_ptr<int64_t> now) : now_(std::move(now)) {}
  void Set(int64_t delay_ms, std::function<void()> then) override {
    at = *now_ + delay_ms;
    ring = std::move(then);
  }
  void Clear() override { ring = nullptr; }
  int64_t at = 0;
  std::function<void()> ring;

 private:
  std::shared_ptr<int64_t> now_;
};

inline TokenSource CountingTokens() {
  auto next = std::make_shared<uint8_t>(0);
  return [next] {
    SeatToken t{};
    t[0] = ++*next;
    t[1] = 0x5a;
    return t;
  };
}

inline persistence::Store MemoryStore() {
  persistence::StoreOptions options;
  options.path = ":memory:";
  auto store = persistence::Store::Open(options);
  assert(store.ok());
  return std::move(*store);
}

inline const RuleSetRegistry& Registry() {
  static const RuleSetRegistry registry = DefaultRuleSets();
  return registry;
}

inline RoomGame GameOf(const std::string& rule_set) {
  return DefaultRoomGame(Registry().Shared(*Registry().Find(rule_set)));
}

inline RoomOptions Options(int seats, std::vector<BotSeatOption> bots,
                           persistence::ResignPolicy on_resign, int64_t number = 1) {
  RoomOptions options;
  options.number = number;
  options.name = "bots";
  options.seats = seats;
  options.seed = 41;
  options.bots = std::move(bots);
  options.on_resign = on_resign;
  return options;
}

// A room on an in-memory log, with manual bots, its game created.
struct Table {
  Table(const std::string& rule_set, int seats, std::vector<BotSeatOption> bots,
        persistence::ResignPolicy on_resign = persistence::ResignPolicy::kBotTakesSeat)
      : Table(rule_set, Options(seats, std::move(bots), on_resign)) {}
  // The room's clock is the table's `now`, and its alarm rings when Advance passes its time.
  Table(const std::string& rule_set, RoomOptions options)
      : store(MemoryStore()),
        log(store),
        room(WithClock(std::move(options), now), GameOf(rule_set), CountingTokens(), log) {
    room.SetBotRunner(&runner);
    room.SetAlarm(&alarm);
    room.Create(std::make_shared<Player>(), 0);
  }
  static RoomOptions WithClock(RoomOptions options, const std::shared_ptr<int64_t>& now) {
    options.clock = [now] { return *now; };
    return options;
  }
  // Time passes: the alarm rings as often as it is due.
  void Advance(int64_t ms) {
    *now += ms;
    while (alarm.ring && alarm.at <= *now) {
      auto ring = std::move(alarm.ring);
      alarm.ring = nullptr;
      ring();
    }
  }
  std::shared_ptr<Player> Join(const std::string& name) {
    auto player = std::make_shared<Player>();
    wire::JoinSeat join;
    join.set_game_id("g1");
    join.set_player_name(name);
    room.Join(player, 1, join);
    return player;
  }
  wire::Move MoveOf(const Player& p, const std::string& action) const {
    wire::Move move;
    move.set_game_id("g1");
    move.set_seat_token(p.token);
    move.set_sequence(p.sequence);
    move.set_action(action);
    return move;
  }
  // Plays on: the people with legal actions choose (seeded), the bots think, until the game is
  // over or nobody can go on.
  void Play(const std::vector<std::shared_ptr<Player>>& people, uint64_t seed) {
    core::Random random(seed);
    for (int guard = 0; guard < 20000 && room.Status() == wire::GAME_STATUS_RUNNING; ++guard) {
      if (!runner.jobs.empty()) {
        runner.RunOne();
        continue;
      }
      const auto decider = std::find_if(people.begin(), people.end(),
                                        [](const auto& p) { return !p->legal.empty(); });
      ASSERT_NE(decider, people.end()) << "a person or a bot must decide";
      Player& p = **decider;
      const std::string action = p.legal[static_cast<size_t>(random.Below(p.legal.size()))];
      p.legal.clear();
      room.Move(*decider, 2, MoveOf(p, action));
      ASSERT_FALSE(p.LastError()) << p.received.back().error().reason();
    }
  }
  persistence::StoredGame Stored() {
    auto loaded = store.LoadGame(1);
    EXPECT_TRUE(loaded.ok() && loaded->has_value());
    return loaded.ok() && loaded->has_value() ? **loaded : persistence::StoredGame{};
  }

  persistence::Store store;
  persistence::DirectLog log{store};
  ManualBots runner;
  std::shared_ptr<int64_t> now = std::make_shared<int64_t>(0);
  ManualAlarm alarm{now};
  Room room;
};

}  // namespace carc::server::fixture
