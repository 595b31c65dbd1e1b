// The requests of protocol 2 as the tests that talk to a server send them, what they read in its
// replies, and the tile sets a protocol::Follower needs: shared by every test with a client of
// its own (net_test, crash_test, process_test, session_test), so none builds them by hand.
//
// The servers these tests start host the build's rule sets with their compiled-in tile sets
// (DefaultRuleSets), so DefaultTiles is what GetTileSet answers there; net_test checks that.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "protocol/city/codec.h"
#include "protocol/envelope.h"
#include "registry.h"

namespace carc::msg {

namespace wire = protocol::wire;
namespace citypb = protocol::citypb;

inline constexpr const char* kCity = "the-city";

// A message for a failure report: its text form, cut short.
inline std::string Show(const wire::ServerMessage& m) {
  return m.ShortDebugString().substr(0, 300);
}

// The error code of a reply; ERROR_CODE_UNSPECIFIED when it is no error.
inline wire::ErrorCode CodeOf(const wire::ServerMessage& m) {
  return m.has_error() ? m.error().code() : wire::ERROR_CODE_UNSPECIFIED;
}

// What a move refused by the engine says: its rule error, or "" when it is not such a refusal.
inline std::string RuleErrorOf(const wire::ServerMessage& m) {
  return CodeOf(m) == wire::ERROR_CODE_RULE_REFUSED ? m.error().rule_error() : "";
}

inline wire::ClientMessage Hello(uint64_t id = 0, uint32_t version = protocol::kProtocolVersion,
                                 const std::string& client = "test") {
  wire::ClientMessage m;
  m.set_request_id(id);
  m.mutable_hello()->set_protocol_version(version);
  m.mutable_hello()->set_client(client);
  return m;
}

inline wire::ClientMessage CreateGame(const std::string& rule_set, uint32_t seats,
                                      std::optional<uint64_t> seed, const std::string& name = "",
                                      const std::map<std::string, int32_t>& options = {}) {
  wire::ClientMessage m;
  wire::CreateGame& create = *m.mutable_create_game();
  create.set_rule_set(rule_set);
  create.set_seats(seats);
  if (seed) create.set_seed(*seed);
  create.set_name(name);
  for (const auto& [option, value] : options) (*create.mutable_options())[option] = value;
  return m;
}

inline wire::ClientMessage JoinSeat(const std::string& game, std::optional<uint32_t> seat,
                                    const std::string& player_name = "player") {
  wire::ClientMessage m;
  m.mutable_join_seat()->set_game_id(game);
  if (seat) m.mutable_join_seat()->set_seat(*seat);
  m.mutable_join_seat()->set_player_name(player_name);
  return m;
}

inline wire::ClientMessage StartGame(const std::string& game, const std::string& token) {
  wire::ClientMessage m;
  m.mutable_start_game()->set_game_id(game);
  m.mutable_start_game()->set_seat_token(token);
  return m;
}

inline wire::ClientMessage Spectate(const std::string& game) {
  wire::ClientMessage m;
  m.mutable_spectate()->set_game_id(game);
  return m;
}

inline wire::ClientMessage Resume(const std::string& game, const std::string& token,
                                  uint64_t last_seen) {
  wire::ClientMessage m;
  m.mutable_resume()->set_game_id(game);
  m.mutable_resume()->set_seat_token(token);
  m.mutable_resume()->set_last_seen_sequence(last_seen);
  return m;
}

// `action`: the game package's Action, encoded (as a Follower's legal_actions hold it).
inline wire::ClientMessage Move(const std::string& game, const std::string& token,
                                uint64_t sequence, const std::string& action) {
  wire::ClientMessage m;
  m.mutable_move()->set_game_id(game);
  m.mutable_move()->set_seat_token(token);
  m.mutable_move()->set_sequence(sequence);
  m.mutable_move()->set_action(action);
  return m;
}

inline wire::ClientMessage Ping(uint64_t nonce) {
  wire::ClientMessage m;
  m.mutable_ping()->set_nonce(nonce);
  return m;
}

inline wire::ClientMessage ListGames() {
  wire::ClientMessage m;
  m.mutable_list_games();
  return m;
}

inline wire::ClientMessage GetReplay(const std::string& game) {
  wire::ClientMessage m;
  m.mutable_get_replay()->set_game_id(game);
  return m;
}

inline wire::ClientMessage Seek(const std::string& game, uint64_t sequence) {
  wire::ClientMessage m;
  m.mutable_seek()->set_game_id(game);
  m.mutable_seek()->set_sequence(sequence);
  return m;
}

inline wire::ClientMessage GetTileSet(const std::string& rule_set) {
  wire::ClientMessage m;
  m.mutable_get_tile_set()->set_rule_set(rule_set);
  return m;
}

// The build's rule sets, as the tests' servers host them.
inline const RuleSetRegistry& DefaultRegistry() {
  static const RuleSetRegistry registry = DefaultRuleSets();
  return registry;
}

// The tiles a game of `rule_set` is played with on those servers (GetTileSet's answer), for
// protocol::Follower::Start; null for a rule set the build does not have.
inline std::shared_ptr<const core::TileSet> DefaultTiles(std::string_view rule_set) {
  const core::RuleSet* rules = DefaultRegistry().Find(rule_set);
  if (rules == nullptr) return nullptr;
  return {DefaultRegistry().Shared(*rules), &rules->Tiles()};
}

// --- The City's payloads (carcassonne.city.v1), encoded as the envelope carries them. ---

inline std::string CityAction(citypb::ActionKind kind) {
  citypb::Action action;
  action.set_kind(kind);
  return action.SerializeAsString();
}

// An encoded Action of The City; an empty Action when the bytes do not decode.
inline citypb::Action DecodeCityAction(std::string_view bytes) {
  citypb::Action action;
  if (!action.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) action.Clear();
  return action;
}

// The GameOver event among a delta's encoded events, if there is one.
template <typename Events>
std::optional<citypb::GameOver> CityGameOver(const Events& events) {
  for (const std::string& bytes : events) {
    citypb::Event event;
    if (event.ParseFromString(bytes) && event.has_game_over()) return event.game_over();
  }
  return std::nullopt;
}

// A Snapshot's state as The City's PublicState; empty when it does not decode.
inline citypb::PublicState CityStateOf(const wire::Snapshot& snapshot) {
  citypb::PublicState state;
  if (!state.ParseFromString(snapshot.state())) state.Clear();
  return state;
}

}  // namespace carc::msg
