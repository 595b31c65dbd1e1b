// A room's chat and fair draws, driven by fake connections: a line is stored before anybody
// hears it, the limits refuse with nothing stored, spectators write only where the game allows,
// mutes, the chat in snapshots, replays and after a restart; the draw commitment from the start,
// its proof only at the end, and nothing before the end that tells the order, seed or salt.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>

#include "city/default_tiles.h"
#include "city/rule_set.h"
#include "core/hash.h"
#include "persistence/fair_draws.h"
#include "protocol/client_text.h"
#include "protocol/follower.h"
#include "registry.h"
#include "room/replay.h"
#include "room/room.h"

namespace carc::server {
namespace {

std::shared_ptr<const core::RuleSet> CityRules() {
  static const auto rules = city::MakeRuleSet(city::DefaultTileSet());
  return rules;
}

class FakePeer : public Peer {
 public:
  void Send(Bytes message) override {
    wire::ServerMessage decoded;
    ASSERT_TRUE(decoded.ParseFromString(*message));
    received.push_back(decoded);
    if (decoded.has_snapshot()) {
      ASSERT_EQ(follower.Start(decoded.snapshot(), city::DefaultTileSet()), std::nullopt);
    } else if (decoded.has_delta()) {
      ASSERT_EQ(follower.Apply(decoded.delta()), std::nullopt);
    }
    legal = follower.legal_actions();
  }
  std::optional<wire::ErrorCode> LastError() const {
    if (received.empty() || !received.back().has_error()) return std::nullopt;
    return received.back().error().code();
  }
  std::vector<wire::ChatMessage> Chat() const {
    std::vector<wire::ChatMessage> lines;
    for (const auto& m : received) {
      if (m.has_chat_message()) lines.push_back(m.chat_message());
    }
    return lines;
  }
  std::vector<wire::ServerMessage> received;
  protocol::Follower follower;
  std::vector<std::string> legal;
  std::string token;
  int seat = -1;
};

TokenSource CountingTokens() {
  auto next = std::make_shared<uint8_t>(0);
  return [next] {
    SeatToken t{};
    t[0] = ++*next;
    return t;
  };
}

persistence::Store MemoryStore() {
  persistence::StoreOptions options;
  options.path = ":memory:";
  auto store = persistence::Store::Open(options);
  assert(store.ok());
  return std::move(*store);
}

class HeldLog : public persistence::GameLog {
 public:
  explicit HeldLog(persistence::Store& store) : store_(store) {}
  void Submit(persistence::Write write, Done done) override {
    if (hold) {
      held_.emplace_back(std::move(write), std::move(done));
      return;
    }
    done(store_.Apply(write));
  }
  void Release() {
    hold = false;
    auto held = std::move(held_);
    for (auto& [write, done] : held) done(store_.Apply(write));
  }
  bool hold = false;

 private:
  persistence::Store& store_;
  std::vector<std::pair<persistence::Write, Done>> held_;
};

RoomOptions Options(int seats, bool spectators_chat, int64_t* clock) {
  RoomOptions options;
  options.number = 1;
  options.name = "chat";
  options.seats = seats;
  options.seed = 7;
  options.spectators_chat = spectators_chat;
  options.clock = [clock] { return *clock; };
  return options;
}

struct Table {
  explicit Table(int seats, bool spectators_chat = false)
      : store(MemoryStore()),
        log(store),
        room(Options(seats, spectators_chat, &now), DefaultRoomGame(CityRules()), CountingTokens(),
             log) {
    room.Create(std::make_shared<FakePeer>(), 0);
  }
  std::shared_ptr<FakePeer> Join(const std::string& name) {
    auto peer = std::make_shared<FakePeer>();
    wire::JoinSeat join;
    join.set_game_id("g1");
    join.set_player_name(name);
    room.Join(peer, 1, join);
    for (const auto& m : peer->received) {
      if (m.has_seat_joined()) {
        peer->token = m.seat_joined().seat_token();
        peer->seat = static_cast<int>(m.seat_joined().seat());
      }
    }
    return peer;
  }
  std::shared_ptr<FakePeer> Spectator() {
    auto peer = std::make_shared<FakePeer>();
    room.Spectate(peer, 2);
    return peer;
  }
  void Say(const std::shared_ptr<FakePeer>& peer, const std::string& text, uint64_t id = 50) {
    wire::SendChat send;
    send.set_game_id("g1");
    send.set_seat_token(peer->token);
    send.set_text(text);
    room.SendChat(peer, id, send);
  }
  void Mute(const std::shared_ptr<FakePeer>& peer, int seat, bool muted) {
    wire::MuteSeat mute;
    mute.set_game_id("g1");
    mute.set_seat_token(peer->token);
    mute.set_seat(static_cast<uint32_t>(seat));
    mute.set_muted(muted);
    room.MuteSeat(peer, 60, mute);
  }
  void Play(const std::vector<std::shared_ptr<FakePeer>>& peers, uint64_t seed, int moves) {
    core::Random random(seed);
    for (int i = 0; i < moves && room.Status() == wire::GAME_STATUS_RUNNING; ++i) {
      auto decider =
          std::find_if(peers.begin(), peers.end(), [](const auto& p) { return !p->legal.empty(); });
      ASSERT_NE(decider, peers.end());
      FakePeer& p = **decider;
      wire::Move move;
      move.set_game_id("g1");
      move.set_seat_token(p.token);
      move.set_sequence(p.follower.sequence());
      move.set_action(p.legal[static_cast<size_t>(random.Below(p.legal.size()))]);
      p.legal.clear();
      room.Move(*decider, 100, move);
      ASSERT_FALSE(p.LastError().has_value()) << p.received.back().error().reason();
    }
  }
  persistence::StoredGame Stored() {
    auto loaded = store.LoadGame(1);
    EXPECT_TRUE(loaded.ok() && loaded->has_value());
    return std::move(**loaded);
  }

  int64_t now = 1'000'000;
  persistence::Store store;
  HeldLog log;
  Room room;
};

TEST(RoomChat, ALineIsStoredBeforeAnybodyHearsIt) {
  Table t(3);
  auto a = t.Join("ann");
  auto b = t.Join("bob");
  const size_t before = b->received.size();
  t.log.hold = true;
  t.Say(a, "hello bob", 41);
  EXPECT_EQ(b->received.size(), before) << "nothing before the write commits";
  EXPECT_TRUE(t.Stored().chat.empty());
  t.log.Release();
  const auto stored = t.Stored().chat;
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_EQ(stored[0].text, "hello bob");
  EXPECT_EQ(stored[0].seat, 0);
  EXPECT_EQ(stored[0].name, "ann");
  ASSERT_EQ(b->Chat().size(), 1u);
  const wire::ChatMessage heard = b->Chat()[0];
  EXPECT_EQ(heard.game_id(), "g1");
  EXPECT_EQ(heard.seat(), 0u);
  EXPECT_EQ(heard.name(), "ann");
  EXPECT_EQ(heard.text(), "hello bob");
  EXPECT_EQ(heard.number(), 1u);
  EXPECT_EQ(heard.after_sequence(), 0u);
  // The sender's answer is the same line, with its request id.
  ASSERT_TRUE(a->received.back().has_chat_message());
  EXPECT_EQ(a->received.back().request_id(), 41u);
  EXPECT_EQ(a->received.back().chat_message().number(), 1u);
  EXPECT_EQ(a->Chat().size(), 1u) << "the sender gets its line once";
}

TEST(RoomChat, LinesTooLongEmptyOrTooFastAreRefusedAndNotStored) {
  Table t(2);
  auto a = t.Join("ann");
  t.Say(a, std::string(protocol::kChatTextBytes + 1, 'x'));
  EXPECT_EQ(a->LastError(), wire::ERROR_CODE_BAD_TEXT);
  t.Say(a, "   ");
  EXPECT_EQ(a->LastError(), wire::ERROR_CODE_CHAT_EMPTY);
  t.Say(a, "bell\a");
  EXPECT_EQ(a->LastError(), wire::ERROR_CODE_BAD_TEXT);
  for (size_t i = 0; i < kChatBurst; ++i) {
    t.Say(a, std::string(protocol::kChatTextBytes, 'y'));
    EXPECT_FALSE(a->LastError().has_value());
    t.now += 1000;
  }
  t.Say(a, "one too many");
  EXPECT_EQ(a->LastError(), wire::ERROR_CODE_CHAT_RATE_LIMITED);
  EXPECT_EQ(t.Stored().chat.size(), kChatBurst);
  // Once the first line is older than the window, one more may come.
  t.now += kChatWindowMs - 5000;
  t.Say(a, "now again");
  EXPECT_FALSE(a->LastError().has_value());
  EXPECT_EQ(t.Stored().chat.size(), kChatBurst + 1);
  EXPECT_EQ(t.Stored().chat.back().number, kChatBurst + 1);
}

TEST(RoomChat, SpectatorsReadAndWriteOnlyWhereTheGameAllows) {
  for (const bool allowed : {false, true}) {
    Table t(2, allowed);
    EXPECT_EQ(t.room.Info().spectators_chat(), allowed);
    auto a = t.Join("ann");
    auto watcher = t.Spectator();
    auto stranger = std::make_shared<FakePeer>();
    t.Say(stranger, "hi");
    EXPECT_EQ(stranger->LastError(), wire::ERROR_CODE_CHAT_NOT_ALLOWED);
    t.Say(watcher, "hi from the stands");
    if (!allowed) {
      EXPECT_EQ(watcher->LastError(), wire::ERROR_CODE_CHAT_NOT_ALLOWED);
      EXPECT_TRUE(t.Stored().chat.empty());
      EXPECT_TRUE(a->Chat().empty());
    } else {
      ASSERT_EQ(a->Chat().size(), 1u);
      EXPECT_FALSE(a->Chat()[0].has_seat());
      EXPECT_EQ(a->Chat()[0].name(), kSpectatorName);
      EXPECT_EQ(t.Stored().chat.at(0).seat, -1);
    }
    t.Say(a, "players always may");
    EXPECT_EQ(watcher->Chat().back().text(), "players always may");
  }
}

TEST(RoomChat, AMutedSeatIsNotHeardEvenAfterAReconnection) {
  Table t(3);
  auto a = t.Join("ann");
  auto b = t.Join("bob");
  t.Mute(a, b->seat, true);
  ASSERT_TRUE(a->received.back().has_seat_muted());
  EXPECT_TRUE(a->received.back().seat_muted().muted());
  t.Say(b, "spam");
  EXPECT_TRUE(a->Chat().empty());
  EXPECT_EQ(b->Chat().size(), 1u);
  auto c = t.Join("cy");  // the game starts
  ASSERT_EQ(t.room.Status(), wire::GAME_STATUS_RUNNING);
  // Back with the token on a new connection: still muted, in the snapshot and live.
  auto a2 = std::make_shared<FakePeer>();
  a2->token = a->token;
  wire::Resume resume;
  resume.set_game_id("g1");
  resume.set_seat_token(a->token);
  t.room.Resume(a2, 3, resume);
  ASSERT_TRUE(a2->received.back().has_snapshot());
  EXPECT_EQ(a2->received.back().snapshot().recent_chat_size(), 0);
  t.Say(b, "more spam");
  EXPECT_TRUE(a2->Chat().empty());
  EXPECT_EQ(c->Chat().size(), 1u);
  t.Mute(a2, b->seat, false);
  t.Say(b, "heard again");
  ASSERT_EQ(a2->Chat().size(), 1u);
  EXPECT_EQ(a2->Chat()[0].text(), "heard again");
  // Spectators cannot mute; a seat that does not exist cannot be muted.
  auto watcher = t.Spectator();
  t.Mute(watcher, 0, true);
  EXPECT_EQ(watcher->LastError(), wire::ERROR_CODE_SPECTATOR);
  t.Mute(a2, 7, true);
  EXPECT_EQ(a2->LastError(), wire::ERROR_CODE_BAD_SEAT_COUNT);
}

TEST(RoomChat, AMuteIsStoredBeforeItIsAnsweredAndHoldsAfterARestart) {
  Table t(3);
  auto a = t.Join("ann");
  auto b = t.Join("bob");
  t.Mute(a, b->seat, true);
  ASSERT_TRUE(a->received.back().has_seat_muted());
  EXPECT_EQ(t.Stored().game.seat_records[0].muted, 0b010u);
  auto c = t.Join("cy");  // the game starts, every seat kept: so are the mutes
  ASSERT_EQ(t.room.Status(), wire::GAME_STATUS_RUNNING);
  t.Mute(a, c->seat, true);
  t.Mute(c, a->seat, true);
  EXPECT_EQ(t.Stored().game.seat_records[0].muted, 0b110u);
  EXPECT_EQ(t.Stored().game.seat_records[1].muted, 0u);
  EXPECT_EQ(t.Stored().game.seat_records[2].muted, 0b001u);
  t.Mute(a, c->seat, false);
  EXPECT_EQ(t.Stored().game.seat_records[0].muted, 0b010u);
  t.Say(b, "before the restart");

  auto unfinished = t.store.LoadUnfinished();
  ASSERT_TRUE(unfinished.ok() && unfinished->size() == 1);
  int64_t now = 0;
  Room restored(Options(3, false, &now), DefaultRoomGame(CityRules()), CountingTokens(), t.log);
  ASSERT_EQ(restored.Restore(unfinished->front()), std::nullopt);
  auto a2 = std::make_shared<FakePeer>();
  wire::Resume resume;
  resume.set_game_id("g1");
  resume.set_seat_token(a->token);
  restored.Resume(a2, 4, resume);
  ASSERT_TRUE(a2->received.back().has_snapshot());
  EXPECT_EQ(a2->received.back().snapshot().recent_chat_size(), 0);
  auto b2 = std::make_shared<FakePeer>();
  resume.set_seat_token(b->token);
  restored.Resume(b2, 5, resume);
  wire::SendChat send;
  send.set_game_id("g1");
  send.set_seat_token(b->token);
  send.set_text("after the restart");
  restored.SendChat(b2, 6, send);
  ASSERT_TRUE(b2->received.back().has_chat_message());
  EXPECT_TRUE(a2->Chat().empty());
}

TEST(RoomChat, MutesEndWithTheSeatThatSetThemAndWithAnEarlyStart) {
  Table t(4);
  const auto leave = [&](const std::shared_ptr<FakePeer>& peer) {
    wire::LeaveSeat request;
    request.set_game_id("g1");
    request.set_seat_token(peer->token);
    t.room.Leave(peer, 7, request);
    ASSERT_FALSE(peer->LastError().has_value());
  };
  auto a = t.Join("ann");
  auto b = t.Join("bob");
  t.Mute(b, a->seat, true);
  EXPECT_EQ(t.Stored().game.seat_records[1].muted, 0b001u);
  // Bob leaves: whoever takes his seat has muted nobody.
  ASSERT_NO_FATAL_FAILURE(leave(b));
  auto d = t.Join("dee");
  ASSERT_EQ(d->seat, 1);
  t.Say(a, "heard by dee");
  EXPECT_EQ(d->Chat().size(), 1u);
  EXPECT_EQ(t.Stored().game.seat_records[1].muted, 0u);

  // Seats 0 and 2 taken, 1 empty: an early start numbers the seats again, and the mutes set
  // before it are gone, in the room and in the log.
  auto c = t.Join("cy");
  ASSERT_EQ(c->seat, 2);
  ASSERT_NO_FATAL_FAILURE(leave(d));
  t.Mute(a, c->seat, true);
  EXPECT_EQ(t.Stored().game.seat_records[0].muted, 0b100u);
  wire::StartGame start;
  start.set_game_id("g1");
  start.set_seat_token(a->token);
  t.room.Start(a, 8, start);
  ASSERT_EQ(t.room.Status(), wire::GAME_STATUS_RUNNING);
  ASSERT_EQ(t.Stored().game.seat_records.size(), 2u);
  EXPECT_EQ(t.Stored().game.seat_records[0].muted, 0u);
  t.Say(c, "heard by ann");
  EXPECT_EQ(a->Chat().back().text(), "heard by ann");
}

TEST(RoomChat, AResumeByDeltasRepeatsTheLinesSaidSinceTheLastDeltaSeen) {
  Table t(3);
  auto a = t.Join("ann");
  auto b = t.Join("bob");
  auto c = t.Join("cy");
  ASSERT_EQ(t.room.Status(), wire::GAME_STATUS_RUNNING);
  t.Mute(a, c->seat, true);
  t.Say(b, "before ann left");
  // Ann's connection drops here; she comes back on a new one that knows what the old one saw.
  const uint64_t seen = t.room.Sequence();
  auto a2 = std::make_shared<FakePeer>();
  a2->token = a->token;
  a2->follower = a->follower;
  t.Say(b, "just after");
  t.Say(c, "muted by ann");
  ASSERT_NO_FATAL_FAILURE(t.Play({a, b, c}, 3, 2));  // on the old connection, still attached
  ASSERT_LT(seen, t.room.Sequence());
  t.Say(b, "while ann was away");

  wire::Resume resume;
  resume.set_game_id("g1");
  resume.set_seat_token(a->token);
  resume.set_last_seen_sequence(seen);
  t.room.Resume(a2, 9, resume);
  ASSERT_TRUE(a2->received.back().has_delta()) << "answered with deltas, not a snapshot";
  std::vector<std::string> heard;
  for (const wire::ChatMessage& line : a2->Chat()) heard.push_back(line.text());
  // Every line said at or after the last sequence seen but the muted seat's, before the deltas.
  EXPECT_EQ(heard,
            (std::vector<std::string>{"before ann left", "just after", "while ann was away"}));
  const auto first_delta = std::find_if(a2->received.begin(), a2->received.end(),
                                        [](const auto& m) { return m.has_delta(); });
  EXPECT_TRUE(std::none_of(first_delta, a2->received.end(),
                           [](const auto& m) { return m.has_chat_message(); }));
}

TEST(RoomChat, ChatComesInSnapshotsInTheReplayAndAfterARestart) {
  Table t(2);
  auto a = t.Join("ann");
  t.Say(a, "before the start");
  auto b = t.Join("bob");
  ASSERT_NO_FATAL_FAILURE(t.Play({a, b}, 5, 6));
  const uint64_t said_at = t.room.Sequence();
  t.Say(b, "in the middle");
  auto watcher = t.Spectator();
  ASSERT_TRUE(watcher->received.back().has_snapshot());
  const auto& recent = watcher->received.back().snapshot().recent_chat();
  ASSERT_EQ(recent.size(), 2);
  EXPECT_EQ(recent[0].text(), "before the start");
  EXPECT_EQ(recent[0].after_sequence(), 0u);
  EXPECT_EQ(recent[1].text(), "in the middle");
  EXPECT_EQ(recent[1].after_sequence(), said_at);

  // The replay carries the whole chat, each line at the sequence it was said.
  const wire::ServerMessage replay = ReplayMessage(t.Stored(), DefaultRuleSets());
  ASSERT_TRUE(replay.has_replay()) << replay.DebugString();
  ASSERT_EQ(replay.replay().chat_size(), 2);
  EXPECT_EQ(replay.replay().chat(1).after_sequence(), said_at);
  EXPECT_EQ(replay.replay().chat(1).seat(), 1u);
  EXPECT_EQ(replay.replay().chat(1).number(), 2u);

  // A restart: the room comes back from the log with its chat, and numbering goes on.
  auto unfinished = t.store.LoadUnfinished();
  ASSERT_TRUE(unfinished.ok() && unfinished->size() == 1);
  int64_t now = 0;
  Room restored(Options(2, false, &now), DefaultRoomGame(CityRules()), CountingTokens(), t.log);
  ASSERT_EQ(restored.Restore(unfinished->front()), std::nullopt);
  auto back = std::make_shared<FakePeer>();
  wire::Resume resume;
  resume.set_game_id("g1");
  resume.set_seat_token(a->token);
  restored.Resume(back, 4, resume);
  ASSERT_TRUE(back->received.back().has_snapshot());
  EXPECT_EQ(back->received.back().snapshot().recent_chat_size(), 2);
  wire::SendChat send;
  send.set_game_id("g1");
  send.set_seat_token(a->token);
  send.set_text("after the restart");
  restored.SendChat(back, 5, send);
  ASSERT_TRUE(back->received.back().has_chat_message());
  EXPECT_EQ(back->received.back().chat_message().number(), 3u);
  EXPECT_EQ(t.Stored().chat.size(), 3u);
}

// ---------------------------------------------------------------------------------------------
// Fair draws

TEST(RoomDraws, TheCommitmentIsPublicFromTheStartAndTheProofOnlyAtTheEnd) {
  Table t(2);
  auto a = t.Join("ann");
  auto watcher = t.Spectator();
  EXPECT_EQ(t.room.Info().draw_commitment(), "") << "nothing to commit to before the start";
  auto b = t.Join("bob");
  const persistence::StoredGame started = t.Stored();
  const std::string commitment = t.room.Info().draw_commitment();
  EXPECT_EQ(commitment.size(), 64u);
  EXPECT_EQ(commitment, started.game.draw_commitment);
  EXPECT_EQ(persistence::Sha256Hex(started.game.draw_proof), commitment);
  EXPECT_EQ(t.room.Info().draw_proof(), "");
  EXPECT_EQ(InfoFromRecord(started.game).draw_proof(), "") << "the lists from the log neither";
  const auto proof =
      std::get<persistence::DrawProof>(persistence::ParseDrawProof(started.game.draw_proof));

  ASSERT_NO_FATAL_FAILURE(t.Play({a, b}, 9, 10000));
  ASSERT_EQ(t.room.Status(), wire::GAME_STATUS_FINISHED);
  const std::string seed_line = "seed " + std::to_string(proof.seed);
  // Every message a seat and a spectator got during the game: no proof, salt, seed or order.
  for (const auto* peer : {a.get(), b.get(), watcher.get()}) {
    for (const wire::ServerMessage& m : peer->received) {
      const std::string text = m.DebugString() + m.SerializeAsString();
      EXPECT_EQ(text.find(proof.salt), std::string::npos) << m.DebugString();
      EXPECT_EQ(text.find(seed_line), std::string::npos) << m.DebugString();
      EXPECT_EQ(text.find("carc-draws"), std::string::npos) << m.DebugString();
    }
  }
  // Over: the proof is shown, by the room and by the log's lists and replays.
  EXPECT_EQ(t.room.Info().draw_proof(), started.game.draw_proof);
  EXPECT_EQ(t.room.Info().draw_commitment(), commitment);
  const persistence::StoredGame finished = t.Stored();
  EXPECT_EQ(InfoFromRecord(finished.game).draw_proof(), started.game.draw_proof);
  const wire::ServerMessage replay = ReplayMessage(finished, DefaultRuleSets());
  EXPECT_EQ(replay.replay().game().draw_proof(), started.game.draw_proof);
  EXPECT_EQ(replay.replay().game().draw_commitment(), commitment);
  // And the draws check out.
  const auto fair = persistence::VerifyDraws(
      *CityRules(), 2, t.room.hosted().options, commitment, finished.game.draw_proof,
      finished.actions.size(), [&](core::State& game, size_t i) -> std::optional<std::string> {
        const persistence::ActionRecord& r = finished.actions[i];
        auto error = game.Apply(r.seat < 0 ? core::kChanceActor : r.seat, r.action, nullptr);
        return error ? std::optional<std::string>(error->message) : std::nullopt;
      });
  ASSERT_TRUE(std::holds_alternative<persistence::FairDraws>(fair)) << std::get<std::string>(fair);
  EXPECT_GT(std::get<persistence::FairDraws>(fair).draws, 10u);
}

TEST(RoomDraws, AnAbandonedGameRevealsItsProof) {
  Table t(2);
  t.Join("ann");
  t.Join("bob");
  EXPECT_EQ(t.room.Info().draw_proof(), "");
  t.room.Abandon();
  ASSERT_EQ(t.room.Status(), wire::GAME_STATUS_ABANDONED);
  EXPECT_EQ(t.room.Info().draw_proof(), t.Stored().game.draw_proof);
  EXPECT_FALSE(t.room.Info().draw_proof().empty());
}

}  // namespace
}  // namespace carc::server
