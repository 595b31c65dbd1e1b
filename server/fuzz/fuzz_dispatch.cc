// libFuzzer target: arbitrary bytes as client messages, dispatched into a game room.
//
// One input is one Room (in process, no sockets) with four fake connections and a hidden
// observer that spectates from the start. The input is a setup byte and then records:
//
//   setup   bits 0-1 seats (0: 2, 1: 3, 2: 4, 3: 2)   bit 2 connections 0.. join every seat first
//           bit 3 connection 3 spectates first        bits 4-5 the seed (7, 8, 11, 42)
//   record  control [argument] length bytes...
//     control bits 0-1 which connection sends   bit 2 T: seat_token := the token of seat arg & 3
//             bit 3 S: Move.sequence := the room's; Resume.last_seen_sequence := the sender's
//             bit 4 A: Move.action := legal action (arg >> 2) mod n
//             bit 5 D: the connection goes away after this message (a new one takes its place)
//             bit 6 an argument byte follows (else 0)
//             bit 7 P: autopilot; Move gets the deciding seat's token, the sequence and legal
//                   action arg mod n
//     length  0-254 bytes; 255: two more bytes give it (little-endian)
//
// The room hosts a game of The City (its messages through The City's GameCodec). The bytes are
// parsed as a ClientMessage and, if they parse and their text keeps the rule the session
// enforces (protocol/client_text.h), handed to Room::Handle as the lobby hands them (the room
// requests of room/request.h, JoinSeat to Move, reach their handlers; the rest are left alone);
// the fix-up bits let moves reach the engine and whole games be played. The same bytes are also
// parsed as a ServerMessage, and every game payload in it (state, actions, events) goes through
// The City's decoders and its GameCodec, and a TileSet through protocol::FromProto, as a client
// would decode them; a Move's action bytes go through the City's decoder too.
//
// Invariants (a broken one aborts): every message the room sends parses and decodes, with legal
// actions equal to the codec's encoding of the engine's; every connection follows snapshots and
// deltas with protocol::Follower, which checks the room's hash at each step; the observer holds
// exactly the game's public state and sequence; the sequence grows only by an accepted move or
// the start of the game, and a refused move changes nothing; a move is accepted exactly when it
// carries the deciding seat's token, the current sequence and a legal action, and its delta
// comes first, then only draws; State::Hash() equals RecomputeHash(); a decoded value re-encodes
// to itself; LogSafe of any bytes is valid UTF-8 without control characters.
#include <google/protobuf/stubs/logging.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "city/default_tiles.h"
#include "city/public_state.h"
#include "city/rule_set.h"
#include "protocol/city/codec.h"
#include "protocol/city/game_codec.h"
#include "protocol/client_text.h"
#include "protocol/follower.h"
#include "protocol/tileset_message.h"
#include "room/room.h"
#include "text/log_safe.h"

namespace carc::server {
namespace {

[[noreturn]] void Broken(const char* what, int line) {
  std::fprintf(stderr, "fuzz_dispatch.cc:%d: invariant broken: %s\n", line, what);
  std::abort();
}

#define FUZZ_CHECK(condition)                       \
  do {                                              \
    if (!(condition)) Broken(#condition, __LINE__); \
  } while (false)

namespace citypb = protocol::citypb;

constexpr int kConnections = 4;
constexpr std::array<uint64_t, 4> kSeeds = {7, 8, 11, 42};

enum Control : uint8_t {
  kTokenFix = 1 << 2,
  kSequenceFix = 1 << 3,
  kLegalFix = 1 << 4,
  kDisconnect = 1 << 5,
  kArgument = 1 << 6,
  kAutopilot = 1 << 7,
};

// ---------------------------------------------------------------------------------------------
// Untrusted decoding: what a client does with bytes from the network.

// What the log would show of these bytes: one line of valid UTF-8, no control character.
void CheckLogSafe(std::string_view bytes) {
  const std::string safe = LogSafe(bytes, 1 + bytes.size() % 97);
  for (size_t at = 0; at < safe.size();) {
    const size_t length = Utf8SequenceLength(std::string_view(safe).substr(at));
    FUZZ_CHECK(length > 0);
    const char32_t c = DecodeUtf8(std::string_view(safe).substr(at), length);
    FUZZ_CHECK(c >= 0x20 && c != 0x7F && (c < 0x80 || c > 0x9F));
    at += length;
  }
}

std::shared_ptr<const core::RuleSet> CityRules() {
  static const auto rules = city::MakeRuleSet(city::DefaultTileSet());
  return rules;
}

const protocol::GameCodec& Codec() { return protocol::CityCodec(); }

// An Action of The City from bytes, as the codec decodes a Move's.
std::optional<city::Action> CityAction(const std::string& bytes) {
  citypb::Action message;
  if (!message.ParseFromString(bytes)) return std::nullopt;
  return protocol::FromProto(message);
}

bool IsDraw(const std::string& action) {
  const auto decoded = CityAction(action);
  return decoded && decoded->kind == city::ActionKind::kDraw;
}

void DecodeUntrustedAction(const std::string& bytes) {
  const auto action = CityAction(bytes);
  if (!action) return;
  const auto again = CityAction(protocol::ToProto(*action).SerializeAsString());
  FUZZ_CHECK(again.has_value() && *again == *action);
}

void DecodeUntrustedEvent(const std::string& bytes) {
  (void)Codec().DescribeEvent(bytes);
  citypb::Event in;
  if (!in.ParseFromString(bytes)) return;
  const auto event = protocol::FromProto(in);
  FUZZ_CHECK(event.has_value() == Codec().DescribeEvent(bytes).has_value());
  if (!event) return;
  const citypb::Event encoded = protocol::ToProto(*event, city::kMaxPlayers);
  const auto again = protocol::FromProto(encoded);
  FUZZ_CHECK(again.has_value());
  FUZZ_CHECK(protocol::ToProto(*again, city::kMaxPlayers).SerializeAsString() ==
             encoded.SerializeAsString());
}

// A state, and the actions that come with it, through the codec's view as well.
void DecodeUntrustedState(const std::string& bytes,
                          const google::protobuf::RepeatedPtrField<std::string>& actions) {
  citypb::PublicState in;
  if (in.ParseFromString(bytes)) {
    if (const auto state = protocol::FromProto(in)) {
      (void)state->Hash();
      const auto again = protocol::FromProto(protocol::ToProto(*state));
      FUZZ_CHECK(again.has_value() && *again == *state);
    }
  }
  const auto view = Codec().DecodeState(bytes, city::DefaultTileSet());
  if (!view) return;
  FUZZ_CHECK(view->Hash() == protocol::CityStateOf(*view)->Hash());
  (void)view->Actor();
  (void)view->Scores();
  for (const std::string& a : actions) (void)Codec().DescribeAction(*view, a);
}

void DecodeUntrusted(const wire::ServerMessage& m) {
  if (m.has_snapshot()) {
    DecodeUntrustedState(m.snapshot().state(), m.snapshot().legal_actions());
    for (const std::string& a : m.snapshot().legal_actions()) DecodeUntrustedAction(a);
  }
  if (m.has_delta()) {
    DecodeUntrustedAction(m.delta().action());
    for (const std::string& e : m.delta().events()) DecodeUntrustedEvent(e);
    for (const std::string& a : m.delta().legal_actions()) DecodeUntrustedAction(a);
  }
  if (m.has_tile_set()) {
    const auto tiles = protocol::FromProto(m.tile_set());
    if (const auto* set = std::get_if<std::shared_ptr<const core::TileSet>>(&tiles)) {
      // A set from the wire is one a file could hold: it comes back from the wire unchanged.
      const auto again = protocol::FromProto(protocol::ToProto(**set));
      FUZZ_CHECK(std::holds_alternative<std::shared_ptr<const core::TileSet>>(again));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Fake connections

// A connection as the room sees it: checks every message the room sends and follows the game
// with protocol::Follower, as every C++ client does.
class FakePeer : public Peer {
 public:
  FakePeer(const Room& room, bool strict) : room_(room), strict_(strict) {}

  void Send(Bytes bytes) override {
    wire::ServerMessage m;
    FUZZ_CHECK(m.ParseFromString(*bytes));
    CheckLegalActions(m);
    FUZZ_CHECK(!strict_ || (m.snapshot().legal_actions().empty() &&
                            m.delta().legal_actions().empty()));  // a spectator
    if (m.has_snapshot()) {
      // The follower checks that the state decodes and hashes to the room's hash.
      FUZZ_CHECK(follower.Start(m.snapshot(), city::DefaultTileSet()) == std::nullopt);
      FUZZ_CHECK(follower.sequence() == m.snapshot().sequence());
      synced = true;
    } else if (m.has_delta()) {
      Follow(m.delta());
    }
    received.push_back(std::move(m));
  }

  const city::PublicState& state() const { return *protocol::CityStateOf(follower.view()); }
  uint64_t sequence() const { return follower.sequence(); }

  std::vector<wire::ServerMessage> received;  // during the current record
  protocol::Follower follower;
  bool synced = false;

 private:
  // Legal actions go only with the current state, and are exactly the engine's, encoded.
  void CheckLegalActions(const wire::ServerMessage& m) const {
    const auto& legal = m.has_snapshot() ? m.snapshot().legal_actions() : m.delta().legal_actions();
    if (legal.empty()) return;
    const core::State* game = room_.game();
    FUZZ_CHECK(game != nullptr && !game->IsOver() && game->CurrentActor() >= 0);
    const std::vector<std::string> expected = Codec().EncodeLegalActions(*game);
    FUZZ_CHECK(static_cast<size_t>(legal.size()) == expected.size());
    for (int i = 0; i < legal.size(); ++i) {
      FUZZ_CHECK(legal.Get(i) == expected[static_cast<size_t>(i)]);
      FUZZ_CHECK(CityAction(legal.Get(i)).has_value());
    }
  }

  void Follow(const wire::Delta& d) {
    // Every part of every delta decodes, whoever gets it.
    FUZZ_CHECK(CityAction(d.action()).has_value());
    for (const std::string& e : d.events()) FUZZ_CHECK(Codec().DescribeEvent(e).has_value());
    // A connection that spectates twice, or resumes with a made-up number, may see a delta
    // again or miss some; only the observer must see each exactly once.
    FUZZ_CHECK(!strict_ || (synced && d.sequence() == follower.sequence() + 1));
    if (!synced || d.sequence() <= follower.sequence()) return;
    if (d.sequence() != follower.sequence() + 1) {
      synced = false;
      return;
    }
    // The next delta: its events lead to the room's hash.
    FUZZ_CHECK(follower.Apply(d) == std::nullopt);
  }

  const Room& room_;
  const bool strict_;
};

// Seat tokens 1, 2, 3 ... in the first byte, as in tests/server/room_test.cc.
TokenSource CountingTokens() {
  auto next = std::make_shared<uint8_t>(0);
  return [next] {
    SeatToken t{};
    t[0] = ++*next;
    return t;
  };
}

// ---------------------------------------------------------------------------------------------
// One input

// Receives the GameCreated reply, which the harness does not check.
class NullPeer : public Peer {
 public:
  void Send(Bytes /*message*/) override {}
};

// One game log in memory for the whole run (opening one per input would cost more than the
// input): each input's room writes a game of its own to it, as in the server, so the log's
// constraints (one sequence number once, seats of a created game) hold too; the game is deleted
// when the input is done.
persistence::Store& SharedStore() {
  static persistence::Store* store = [] {
    persistence::StoreOptions options;
    options.path = ":memory:";
    auto opened = persistence::Store::Open(options);
    if (!opened) {
      std::fprintf(stderr, "in-memory store: %s\n", opened.error().message.c_str());
      std::abort();
    }
    return new persistence::Store(std::move(*opened));
  }();
  return *store;
}

int64_t NextGameNumber() {
  static int64_t next = 0;
  return ++next;
}

class Harness {
 public:
  ~Harness() { (void)SharedStore().DeleteGame(number_); }
  explicit Harness(uint8_t setup)
      : seats_(std::array<int, 4>{2, 3, 4, 2}[setup & 3]),
        number_(NextGameNumber()),
        log_(SharedStore()),
        room_(RoomOptions{number_, "fuzz", seats_, kSeeds[(setup >> 4) & 3], 512},
              DefaultRoomGame(CityRules()), CountingTokens(), log_) {
    room_.Create(std::make_shared<NullPeer>(), 0);
    observer_ = std::make_shared<FakePeer>(room_, /*strict=*/true);
    room_.Spectate(observer_, 0);
    for (auto& peer : peers_) peer = std::make_shared<FakePeer>(room_, false);
    if (setup & 4) {
      for (int i = 0; i < seats_; ++i) {
        wire::ClientMessage join;
        join.set_request_id(1);
        join.mutable_join_seat()->set_game_id("g1");
        join.mutable_join_seat()->set_player_name("p" + std::to_string(i));
        Dispatch(i % kConnections, 0, 0, join);
      }
    }
    if (setup & 8) {
      wire::ClientMessage spectate;
      spectate.mutable_spectate()->set_game_id("g1");
      Dispatch(3, 0, 0, spectate);
    }
  }

  void Dispatch(int from, uint8_t control, uint8_t arg, wire::ClientMessage message);

 private:
  // The room as it was before a message.
  struct Before {
    uint64_t sequence = 0;
    std::optional<uint64_t> hash;  // with a game
    int decider = core::kNoActor;
    size_t observer_received = 0;
    bool valid_move = false;  // the deciding seat's token, the sequence, a legal action
    bool sender_synced = false;
    uint64_t sender_sequence = 0;
  };

  void FixUp(int from, uint8_t control, uint8_t arg, wire::ClientMessage& message,
             bool* valid_move) const;
  void CheckAfter(int from, const wire::ClientMessage& message, const Before& before);
  void LearnSeats(int from, const wire::ClientMessage& message, const wire::GameInfo& before);
  void Disconnect(int from);
  void Trace(int from, const wire::ClientMessage& message) const;

  const bool trace_ = std::getenv("CARC_FUZZ_TRACE") != nullptr;
  const int seats_;
  const int64_t number_;
  persistence::DirectLog log_;
  Room room_;
  std::shared_ptr<FakePeer> observer_;
  std::array<std::shared_ptr<FakePeer>, kConnections> peers_;
  // By seat, as the replies tell: the seat's token and the connection that holds it (or -1).
  std::array<std::optional<std::string>, 4> tokens_;
  std::array<int, 4> holder_ = {-1, -1, -1, -1};
};

// Whether the connection's request was answered with an Error.
bool Refused(const FakePeer& peer, uint64_t request_id) {
  return std::any_of(peer.received.begin(), peer.received.end(), [request_id](const auto& m) {
    return m.has_error() && m.request_id() == request_id;
  });
}

void Harness::FixUp(int from, uint8_t control, uint8_t arg, wire::ClientMessage& message,
                    bool* valid_move) const {
  const core::State* game = room_.game();
  const bool running = game != nullptr && !game->IsOver();
  const auto token = [this](size_t seat) { return tokens_[seat].value_or(std::string()); };
  std::vector<std::string> legal;
  if (running && message.has_move()) legal = Codec().EncodeLegalActions(*game);
  const auto pick = [&legal](size_t i) { return legal[i % legal.size()]; };
  if (control & kTokenFix) {
    const std::string t = token(arg & 3);
    if (message.has_leave_seat()) message.mutable_leave_seat()->set_seat_token(t);
    if (message.has_start_game()) message.mutable_start_game()->set_seat_token(t);
    if (message.has_resume()) message.mutable_resume()->set_seat_token(t);
    if (message.has_move()) message.mutable_move()->set_seat_token(t);
  }
  if (control & kSequenceFix) {
    if (message.has_move()) message.mutable_move()->set_sequence(room_.Sequence());
    if (message.has_resume()) {
      const FakePeer& peer = *peers_[static_cast<size_t>(from)];
      message.mutable_resume()->set_last_seen_sequence(peer.synced ? peer.sequence() : 0);
    }
  }
  if (!message.has_move()) return;
  wire::Move& move = *message.mutable_move();
  if ((control & kLegalFix) && !legal.empty()) move.set_action(pick(arg >> 2));
  if ((control & kAutopilot) && !legal.empty()) {
    move.set_seat_token(token(static_cast<size_t>(game->CurrentActor())));
    move.set_sequence(room_.Sequence());
    move.set_action(pick(arg));
  }
  // The deciding seat's token, the current sequence and a legal action: it must be accepted.
  if (legal.empty() || move.seat_token().empty() || move.sequence() != room_.Sequence()) return;
  if (move.seat_token() != token(static_cast<size_t>(game->CurrentActor()))) return;
  // Any encoding of a legal action is that action (the codec decodes it).
  const auto action = CityAction(move.action());
  for (const std::string& a : legal)
    *valid_move = *valid_move || (action && *action == CityAction(a));
}

void Harness::Dispatch(int from, uint8_t control, uint8_t arg, wire::ClientMessage message) {
  Before before;
  FixUp(from, control, arg, message, &before.valid_move);
  const std::shared_ptr<FakePeer>& peer = peers_[static_cast<size_t>(from)];
  for (const auto& p : peers_) p->received.clear();
  before.sequence = room_.Sequence();
  if (const core::State* game = room_.game()) {
    before.hash = game->Hash();
    before.decider = game->CurrentActor();
  }
  const wire::GameInfo info_before = room_.Info();
  before.observer_received = observer_->received.size();
  before.sender_synced = peer->synced;
  before.sender_sequence = peer->sequence();
  if (message.has_move()) DecodeUntrustedAction(message.move().action());
  // The lobby's route: Hello, CreateGame, ListGames, Ping and the like are left alone.
  room_.Handle(peer, message);
  LearnSeats(from, message, info_before);
  if (trace_) Trace(from, message);
  CheckAfter(from, message, before);
  if (control & kDisconnect) Disconnect(from);
}

// The room's rules for which connection holds a seat (room.cc): a join takes a seat; a Resume,
// a StartGame and any Move in a running game with a seat's token move that seat to the
// connection that sent it; a leave frees it. An early start also drops the free seats and
// renumbers the others.
void Harness::LearnSeats(int from, const wire::ClientMessage& message,
                         const wire::GameInfo& before) {
  const FakePeer& sender = *peers_[static_cast<size_t>(from)];
  for (const wire::ServerMessage& m : sender.received) {
    if (!m.has_seat_joined()) continue;
    const uint32_t seat = m.seat_joined().seat();
    FUZZ_CHECK(seat < tokens_.size());
    FUZZ_CHECK(m.seat_joined().seat_token().size() == sizeof(SeatToken));
    tokens_[seat] = m.seat_joined().seat_token();
    holder_[seat] = from;
  }
  const auto find = [this](const std::string& token) {
    return static_cast<size_t>(std::find(tokens_.begin(), tokens_.end(), token) - tokens_.begin());
  };
  const auto seat_of = [&](const std::string& token) {
    FUZZ_CHECK(find(token) < tokens_.size());  // the room accepted it: it is a seat's
    return find(token);
  };
  if (message.has_move() && before.status() == wire::GAME_STATUS_RUNNING &&
      find(message.move().seat_token()) < tokens_.size()) {
    holder_[find(message.move().seat_token())] = from;
  }
  if (!Refused(sender, message.request_id())) {
    if (message.has_resume()) holder_[seat_of(message.resume().seat_token())] = from;
    if (message.has_start_game()) holder_[seat_of(message.start_game().seat_token())] = from;
    if (message.has_leave_seat()) {
      const size_t seat = seat_of(message.leave_seat().seat_token());
      tokens_[seat].reset();
      holder_[seat] = -1;
    }
  }
  const core::State* game = room_.game();
  if (before.status() != wire::GAME_STATUS_OPEN || game == nullptr) return;
  if (game->Players() == static_cast<int>(before.seats())) return;
  std::array<std::optional<std::string>, 4> tokens;
  std::array<int, 4> holders = {-1, -1, -1, -1};
  size_t next = 0;
  for (const wire::SeatInfo& s : before.seat()) {
    if (!s.taken()) continue;
    tokens[next] = tokens_[s.seat()];
    holders[next++] = holder_[s.seat()];
  }
  FUZZ_CHECK(static_cast<int>(next) == game->Players());
  tokens_ = tokens;
  holder_ = holders;
}

void Harness::CheckAfter(int from, const wire::ClientMessage& message, const Before& before) {
  const FakePeer& sender = *peers_[static_cast<size_t>(from)];
  const uint64_t sequence = room_.Sequence();
  const core::State* game = room_.game();
  FUZZ_CHECK(sequence >= before.sequence);
  // What the observer got during this message: every delta, each exactly once.
  std::vector<const wire::Delta*> deltas;
  for (size_t i = before.observer_received; i < observer_->received.size(); ++i) {
    if (observer_->received[i].has_delta()) deltas.push_back(&observer_->received[i].delta());
  }
  FUZZ_CHECK(deltas.size() == sequence - before.sequence);
  const bool refused = Refused(sender, message.request_id());
  if (message.has_move() && before.hash) {
    FUZZ_CHECK(refused != before.valid_move);
    if (refused) {
      FUZZ_CHECK(sequence == before.sequence && game->Hash() == *before.hash);
    } else {
      // Accepted: the move's own delta first, then only the server's draws.
      FUZZ_CHECK(!deltas.empty());
      FUZZ_CHECK(static_cast<int>(deltas.front()->seat()) == before.decider);
      FUZZ_CHECK(CityAction(deltas.front()->action()) == CityAction(message.move().action()));
      for (size_t i = 1; i < deltas.size(); ++i) FUZZ_CHECK(IsDraw(deltas[i]->action()));
      // The mover's own copy answers the request, if it holds the seat it moved for.
      if (holder_[static_cast<size_t>(before.decider)] == from) {
        FUZZ_CHECK(std::any_of(sender.received.begin(), sender.received.end(), [&](const auto& m) {
          return m.has_delta() && m.request_id() == message.request_id();
        }));
      }
    }
  } else if (before.hash) {
    FUZZ_CHECK(sequence == before.sequence && game->Hash() == *before.hash);
  } else {
    // Before the start only the start itself adds deltas: the server's first draws.
    for (const wire::Delta* d : deltas) FUZZ_CHECK(IsDraw(d->action()));
    FUZZ_CHECK(game != nullptr || sequence == 0);
  }
  if (game == nullptr) return;
  FUZZ_CHECK(game->Hash() == game->RecomputeHash());
  const city::PublicState public_state = city::GameOf(*game)->Public();
  FUZZ_CHECK(observer_->synced && observer_->sequence() == sequence);
  FUZZ_CHECK(observer_->state() == public_state);
  FUZZ_CHECK(observer_->follower.hash() == game->Hash());
  const wire::GameInfo info = room_.Info();
  FUZZ_CHECK(info.seat_size() == game->Players() &&
             static_cast<int>(info.seats()) == info.seat_size());
  // A snapshot, or the deltas a Resume asked for from where the connection was, bring it to the
  // room's state.
  for (int i = 0; i < kConnections; ++i) {
    const FakePeer& peer = *peers_[static_cast<size_t>(i)];
    bool caught_up = std::any_of(peer.received.begin(), peer.received.end(),
                                 [](const auto& m) { return m.has_snapshot(); });
    if (i == from && message.has_resume() && !refused && before.sender_synced) {
      caught_up = caught_up || message.resume().last_seen_sequence() <= before.sender_sequence;
    }
    if (!caught_up) continue;
    FUZZ_CHECK(peer.synced && peer.sequence() == sequence);
    FUZZ_CHECK(peer.state() == public_state);
  }
  // Legal actions reach the connection of the deciding seat, nobody else: after every new
  // delta, and in the answer to its Resume.
  const int decider = game->CurrentActor();
  const int holder = decider >= 0 ? holder_[static_cast<size_t>(decider)] : -1;
  const bool resumed_decider =
      message.has_resume() && !refused && decider >= 0 &&
      tokens_[static_cast<size_t>(decider)] == message.resume().seat_token();
  for (int i = 0; i < kConnections; ++i) {
    const auto& received = peers_[static_cast<size_t>(i)]->received;
    const bool got_legal = std::any_of(received.begin(), received.end(), [](const auto& m) {
      return m.snapshot().legal_actions_size() > 0 || m.delta().legal_actions_size() > 0;
    });
    FUZZ_CHECK(!got_legal || i == holder);
    if (i == holder && (sequence > before.sequence || resumed_decider)) FUZZ_CHECK(got_legal);
  }
}

// CARC_FUZZ_TRACE=1: one line per message, to read what an input does.
void Harness::Trace(int from, const wire::ClientMessage& message) const {
  std::string body = message.ShortDebugString();
  if (body.size() > 100) body.resize(100);
  std::string line = "[" + std::to_string(from) + "] " + body + " -> sequence " +
                     std::to_string(room_.Sequence()) + ";";
  for (int i = 0; i < kConnections; ++i) {
    const auto& received = peers_[static_cast<size_t>(i)]->received;
    if (received.empty()) continue;
    line += " c" + std::to_string(i) + ":";
    for (const wire::ServerMessage& m : received) {
      const auto* field = m.GetDescriptor()->FindFieldByNumber(static_cast<int>(m.body_case()));
      line += " " + (field ? field->name() : std::string("?"));
      if (m.has_error()) line += "(" + wire::ErrorCode_Name(m.error().code()) + ")";
      if (m.snapshot().legal_actions_size() + m.delta().legal_actions_size() > 0) line += "+legal";
    }
    line += ";";
  }
  line += " seats held by";
  for (int holder : holder_) line += " " + (holder >= 0 ? std::to_string(holder) : "-");
  std::fprintf(stderr, "%s\n", line.c_str());
}

// As the server does: the session is gone first, then the room hears of it.
void Harness::Disconnect(int from) {
  auto& peer = peers_[static_cast<size_t>(from)];
  const Peer* raw = peer.get();
  peer.reset();
  for (int& holder : holder_) holder = holder == from ? -1 : holder;
  room_.Disconnected(raw);
  peer = std::make_shared<FakePeer>(room_, false);
}

// ---------------------------------------------------------------------------------------------

class Input {
 public:
  Input(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool Empty() const { return pos_ >= size_; }
  uint8_t Byte() { return Empty() ? 0 : data_[pos_++]; }
  std::string Take(size_t n) {
    n = std::min(n, size_ - pos_);
    std::string out(reinterpret_cast<const char*>(data_ + pos_), n);
    pos_ += n;
    return out;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

void Run(const uint8_t* data, size_t size) {
  Input in(data, size);
  if (in.Empty()) return;
  Harness harness(in.Byte());
  while (!in.Empty()) {
    const uint8_t control = in.Byte();
    const uint8_t arg = (control & kArgument) ? in.Byte() : 0;
    size_t length = in.Byte();
    if (length == 255) length = in.Byte() | static_cast<size_t>(in.Byte()) << 8;
    const std::string bytes = in.Take(length);
    wire::ServerMessage as_server;
    if (as_server.ParseFromString(bytes)) DecodeUntrusted(as_server);
    CheckLogSafe(bytes);
    wire::ClientMessage message;
    if (!message.ParseFromString(bytes)) {
      (void)protocol::FindBadTextInFrame(bytes);  // as the session does with such a frame
      continue;
    }
    if (protocol::CheckClientText(message)) continue;  // the session refuses it
    harness.Dispatch(control & 3, control, arg, std::move(message));
  }
}

}  // namespace
}  // namespace carc::server

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  spdlog::set_level(spdlog::level::off);     // the room logs every refused move
  google::protobuf::SetLogHandler(nullptr);  // and protobuf every string that is not UTF-8
  (void)carc::city::DefaultTileSet();
  (void)carc::server::CityRules();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  carc::server::Run(data, size);
  return 0;
}
