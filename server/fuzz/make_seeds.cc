// Writes the seed corpus of fuzz_dispatch (server/fuzz/corpus/) in the input format that
// fuzz_dispatch.cc describes: a setup byte, then records of control, argument, length, bytes.
//   fuzz_dispatch_seeds DIR
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "city/default_tiles.h"
#include "city/game.h"
#include "city/random_play.h"
#include "protocol/city/codec.h"
#include "protocol/envelope.h"
#include "protocol/tileset_message.h"

namespace {

namespace wire = ::carc::protocol::wire;
namespace city = ::carc::city;

// The control bits of fuzz_dispatch.cc.
constexpr uint8_t kTokenFix = 1 << 2;
constexpr uint8_t kSequenceFix = 1 << 3;
constexpr uint8_t kDisconnect = 1 << 5;
constexpr uint8_t kArgument = 1 << 6;
constexpr uint8_t kAutopilot = 1 << 7;

class Seed {
 public:
  explicit Seed(uint8_t setup) { bytes_.push_back(static_cast<char>(setup)); }

  Seed& Add(int from, uint8_t control, uint8_t arg, const std::string& message) {
    control = static_cast<uint8_t>((control & ~3) | from | kArgument);
    bytes_.push_back(static_cast<char>(control));
    bytes_.push_back(static_cast<char>(arg));
    if (message.size() >= 255) {  // 255, then the length in two bytes
      bytes_.push_back(static_cast<char>(255));
      bytes_.push_back(static_cast<char>(message.size() & 0xff));
      bytes_.push_back(static_cast<char>(message.size() >> 8 & 0xff));
    } else {
      bytes_.push_back(static_cast<char>(message.size()));
    }
    bytes_ += message;
    return *this;
  }
  Seed& Add(int from, uint8_t control, uint8_t arg, const wire::ClientMessage& message) {
    return Add(from, control, arg, message.SerializeAsString());
  }
  // Moves chosen by the autopilot: the deciding seat, the current sequence, a legal action.
  Seed& Autopilot(int count, uint32_t salt) {
    for (int i = 0; i < count; ++i) {
      const uint32_t arg = (static_cast<uint32_t>(i) * 2654435761U + salt) >> 24;
      Add(i % 4, kAutopilot, static_cast<uint8_t>(arg), Move(""));
    }
    return *this;
  }

  static wire::ClientMessage Move(const std::string& token, uint64_t sequence = 0) {
    wire::ClientMessage m;
    m.set_request_id(next_id_++);
    m.mutable_move()->set_game_id("g1");
    if (!token.empty()) m.mutable_move()->set_seat_token(token);
    m.mutable_move()->set_sequence(sequence);
    return m;
  }
  static wire::ClientMessage Join(const std::string& name, int seat = -1) {
    wire::ClientMessage m;
    m.set_request_id(next_id_++);
    m.mutable_join_seat()->set_game_id("g1");
    m.mutable_join_seat()->set_player_name(name);
    if (seat >= 0) m.mutable_join_seat()->set_seat(static_cast<uint32_t>(seat));
    return m;
  }
  template <typename Body>
  static wire::ClientMessage With(Body* (wire::ClientMessage::*mutable_body)()) {
    wire::ClientMessage m;
    m.set_request_id(next_id_++);
    (m.*mutable_body)();
    return m;
  }

  bool Write(const std::string& path) const {
    std::ofstream out(path, std::ios::binary);
    out << bytes_;
    return static_cast<bool>(out);
  }

 private:
  static inline uint64_t next_id_ = 1;
  std::string bytes_;
};

// A snapshot and a delta of a real game, for the client-side decoders.
std::string ServerMessages(Seed& seed) {
  auto created = city::Game::Create(city::DefaultTileSet(), city::Config{.players = 3}, 5);
  city::Game game = std::get<city::Game>(std::move(created));
  carc::core::Random random(5);
  city::PlayBuffers buffers;
  for (int i = 0; i < 180 && city::RandomStep(game, random, buffers); ++i) {
  }
  wire::ServerMessage snapshot;
  snapshot.mutable_snapshot()->set_rule_set("the-city");
  snapshot.mutable_snapshot()->set_state(
      carc::protocol::ToProto(game.Public()).SerializeAsString());
  snapshot.mutable_snapshot()->set_state_hash(game.Hash());
  game.LegalActions(&buffers.legal);
  for (const city::Action& a : buffers.legal) {
    snapshot.mutable_snapshot()->add_legal_actions(carc::protocol::ToProto(a).SerializeAsString());
  }
  seed.Add(0, 0, 0, snapshot.SerializeAsString());
  wire::ServerMessage delta;
  while (!game.IsOver()) {
    game.LegalActions(&buffers.legal);
    const city::Action action = buffers.legal.back();
    buffers.events.clear();
    if (game.Apply(game.CurrentDecision().actor, action, &buffers.events)) break;
    delta.mutable_delta()->set_action(carc::protocol::ToProto(action).SerializeAsString());
    for (const city::Event& e : buffers.events) {
      delta.mutable_delta()->add_events(
          carc::protocol::ToProto(e, game.players()).SerializeAsString());
    }
  }
  return delta.SerializeAsString();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fputs("usage: fuzz_dispatch_seeds DIR\n", stderr);
    return 2;
  }
  const std::string dir = argv[1];
  std::vector<std::pair<std::string, Seed>> seeds;

  // Session messages, which the room never sees.
  Seed hello(0x00);
  wire::ClientMessage m = Seed::With(&wire::ClientMessage::mutable_hello);
  m.mutable_hello()->set_protocol_version(carc::protocol::kProtocolVersion);
  m.mutable_hello()->set_client("seed");
  hello.Add(0, 0, 0, m).Add(1, 0, 0, Seed::With(&wire::ClientMessage::mutable_ping));
  hello.Add(2, 0, 0, Seed::With(&wire::ClientMessage::mutable_list_games));
  wire::ClientMessage tiles = Seed::With(&wire::ClientMessage::mutable_get_tile_set);
  tiles.mutable_get_tile_set()->set_rule_set("the-city");
  hello.Add(3, 0, 0, tiles);
  seeds.emplace_back("hello", hello);

  // The lobby of a 3-seat game: joins, a refused join, a leave, an early start by seat 0.
  Seed lobby(0x01);
  lobby.Add(0, 0, 0, Seed::Join("ada", 0))
      .Add(2, 0, 0, Seed::With(&wire::ClientMessage::mutable_spectate));
  lobby.Add(1, 0, 0, Seed::Join("bo")).Add(3, 0, 0, Seed::Join("cy", 0));
  wire::ClientMessage leave = Seed::With(&wire::ClientMessage::mutable_leave_seat);
  lobby.Add(1, kTokenFix, 1, leave).Add(1, 0, 0, Seed::Join("bo", 2));
  lobby.Add(1, kTokenFix, 1, Seed::With(&wire::ClientMessage::mutable_start_game));
  lobby.Add(0, kTokenFix, 0, Seed::With(&wire::ClientMessage::mutable_start_game));
  lobby.Autopilot(30, 1);
  lobby.Add(1, kTokenFix | kSequenceFix, 1, Seed::With(&wire::ClientMessage::mutable_resume));
  seeds.emplace_back("lobby", lobby);

  // A whole 2-player game (seed 8), then a move on the finished game.
  Seed game2(0x04 | 0x10);
  game2.Autopilot(260, 2).Add(0, kTokenFix | kSequenceFix, 0, Seed::Move(""));
  seeds.emplace_back("game2", game2);

  // Four seats and a second spectator (seed 11): refusals, a lost connection and its Resume.
  Seed game4(0x02 | 0x04 | 0x08 | 0x20);
  game4.Autopilot(60, 3);
  game4.Add(0, 0, 0, Seed::Move(std::string(16, '\x7f'), 1));  // bad token
  game4.Add(3, 0, 0, Seed::Move(""));                          // spectator
  game4.Add(1, kTokenFix, 1, Seed::Move("", 2));               // stale
  game4.Add(1, kDisconnect, 0, Seed::With(&wire::ClientMessage::mutable_ping));
  game4.Autopilot(20, 4);
  wire::ClientMessage resume = Seed::With(&wire::ClientMessage::mutable_resume);
  resume.mutable_resume()->set_last_seen_sequence(100);
  game4.Add(1, kTokenFix, 1, resume).Autopilot(40, 5);
  // Seat 2 moves to connection 0, falls behind on connection 2, which resumes with its number.
  const wire::ClientMessage take = Seed::With(&wire::ClientMessage::mutable_resume);
  game4.Add(0, kTokenFix, 2, take).Autopilot(12, 6);
  game4.Add(2, kTokenFix | kSequenceFix, 2, Seed::With(&wire::ClientMessage::mutable_resume));
  game4.Autopilot(8, 7);
  seeds.emplace_back("game4", game4);

  // Server messages for the client-side decoders, and bytes that parse as nothing.
  Seed decode(0x04);
  const std::string delta = ServerMessages(decode);
  wire::ServerMessage tile_set;
  *tile_set.mutable_tile_set() = carc::protocol::ToProto(*city::DefaultTileSet());
  decode.Add(1, 0, 0, "\x92\x01\x05\x0a\x02g1\x18")
      .Add(2, 0, 0, "\xff\xff\xff")
      .Add(3, 0, 0, delta)
      .Add(0, 0, 0, tile_set.SerializeAsString());
  seeds.emplace_back("decode", decode);

  for (const auto& [name, seed] : seeds) {
    if (!seed.Write(dir + "/" + name)) {
      std::fprintf(stderr, "cannot write %s/%s\n", dir.c_str(), name.c_str());
      return 1;
    }
  }
  return 0;
}
