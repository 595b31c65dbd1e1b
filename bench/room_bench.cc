// The memory of a hosted game: the heap a Room holds once a whole 4-player game has been played
// in it (as the server keeps a finished game until its retention ends), and the same game
// restored from the log (as after a restart). Each figure is the heap in use (glibc's mallinfo2:
// bytes in allocated blocks, mmapped ones included) with the room alive, less the heap in use
// before it was made (the Room itself, with its engine Game, on the heap too). Every write is
// answered at once and nothing is stored, and connections drop what they are sent, so only the
// room's own memory counts. Run:
//   ./build/release/bench/room_bench
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "city/default_tiles.h"
#include "city/rule_set.h"
#include "core/hash.h"
#include "persistence/journal.h"
#include "room/room.h"

namespace carc::server {
namespace {

constexpr int kSeats = 4;
constexpr uint64_t kSeed = 7;

// The City, its rule set made once (outside the measures, like its tile set).
RoomGame CityGame() {
  static const auto rules = city::MakeRuleSet(city::DefaultTileSet());
  return DefaultRoomGame(rules);
}

size_t HeapInUse() {
  const struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

// A log that commits everything at once and keeps nothing.
class ForgetfulLog : public persistence::GameLog {
 public:
  void Submit(persistence::Write /*write*/, Done done) override { done(std::nullopt); }
};

// A connection that keeps only its seat's token.
class Seat : public Peer {
 public:
  void Send(Bytes message) override {
    if (!token.empty()) return;
    wire::ServerMessage decoded;
    if (decoded.ParseFromString(*message) && decoded.has_seat_joined()) {
      token = decoded.seat_joined().seat_token();
    }
  }
  std::string token;
};

// Four seats join (the game starts when the last does); then the deciding seat plays a legal
// action picked at random, until the end.
void PlayToTheEnd(Room& room, uint64_t seed) {
  std::array<std::shared_ptr<Seat>, kSeats> seats;
  for (auto& seat : seats) {
    seat = std::make_shared<Seat>();
    wire::JoinSeat join;
    join.set_game_id(room.id());
    join.set_player_name("bot");
    room.Join(seat, 1, join);
  }
  core::Random random(seed);
  uint64_t request_id = 2;
  while (!room.game()->IsOver()) {
    const core::State& game = *room.game();
    const std::vector<std::string> legal = room.hosted().codec->EncodeLegalActions(game);
    const auto& seat = seats[static_cast<size_t>(game.CurrentActor())];
    wire::Move move;
    move.set_game_id(room.id());
    move.set_seat_token(seat->token);
    move.set_sequence(room.Sequence());
    move.set_action(legal[static_cast<size_t>(random.Below(legal.size()))]);
    room.Move(seat, request_id++, move);
  }
}

std::unique_ptr<Room> NewRoom(persistence::GameLog& log) {
  auto room = std::make_unique<Room>(RoomOptions{1, "bench", kSeats, kSeed, 512}, CityGame(),
                                     OsRandomToken, log);
  room->Create(std::make_shared<Seat>(), 0);
  return room;
}

void Report(benchmark::State& state, size_t bytes, const Room& room) {
  state.counters["room_bytes"] = benchmark::Counter(
      static_cast<double>(bytes), benchmark::Counter::kDefaults, benchmark::Counter::kIs1024);
  state.counters["deltas"] = static_cast<double>(room.Sequence());
  state.counters["bytes_per_delta"] =
      static_cast<double>(bytes) / static_cast<double>(room.Sequence());
}

// A room in which a whole game was played, as the server holds it after the last move.
void BM_RoomMemoryPlayed(benchmark::State& state) {
  ForgetfulLog log;
  {
    auto warm_up = NewRoom(log);  // protobuf's and the engine's first-use tables are not the room's
    PlayToTheEnd(*warm_up, kSeed);
  }
  for (auto _ : state) {
    const size_t before = HeapInUse();
    auto room = NewRoom(log);
    PlayToTheEnd(*room, kSeed);
    const size_t bytes = HeapInUse() - before;
    Report(state, bytes, *room);
  }
}
BENCHMARK(BM_RoomMemoryPlayed)->Iterations(3)->Unit(benchmark::kMillisecond);

// The same game rebuilt from its log, as a restarted server (or a late Resume of an ended game)
// holds it. The stored game itself is read before the measure starts.
void BM_RoomMemoryRestored(benchmark::State& state) {
  persistence::StoreOptions options;
  options.path = ":memory:";
  auto store = persistence::Store::Open(options);
  if (!store) return state.SkipWithError("in-memory store");
  persistence::DirectLog direct(*store);
  PlayToTheEnd(*NewRoom(direct), kSeed);
  auto loaded = store->LoadGame(1);
  if (!loaded || !*loaded) return state.SkipWithError("the game is not in the store");
  const persistence::StoredGame stored = std::move(**loaded);
  ForgetfulLog log;
  for (auto _ : state) {
    const size_t before = HeapInUse();
    auto room =
        std::make_unique<Room>(RoomOptions{1, "", kSeats, 0, 512}, CityGame(), OsRandomToken, log);
    if (room->Restore(stored)) return state.SkipWithError("the game does not replay");
    const size_t bytes = HeapInUse() - before;
    Report(state, bytes, *room);
  }
}
BENCHMARK(BM_RoomMemoryRestored)->Iterations(3)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace carc::server

BENCHMARK_MAIN();
