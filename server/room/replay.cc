#include "room/replay.h"

#include "persistence/replay.h"
#include "room/chat.h"
#include "room/clocks.h"
#include "room/draw_commitment.h"
#include "room/game_ids.h"
#include "room/room.h"

namespace carc::server {
namespace {

wire::ServerMessage ErrorMessage(wire::ErrorCode code, const std::string& reason) {
  wire::ServerMessage message;
  message.mutable_error()->set_code(code);
  message.mutable_error()->set_reason(reason);
  return message;
}

wire::GameStatus ToProto(persistence::GameStatus status) {
  switch (status) {
    case persistence::GameStatus::kOpen:
      return wire::GAME_STATUS_OPEN;
    case persistence::GameStatus::kRunning:
      return wire::GAME_STATUS_RUNNING;
    case persistence::GameStatus::kFinished:
      return wire::GAME_STATUS_FINISHED;
    case persistence::GameStatus::kDamaged:
      return wire::GAME_STATUS_DAMAGED;
    case persistence::GameStatus::kAbandoned:
      return wire::GAME_STATUS_ABANDONED;
    case persistence::GameStatus::kResigned:
      return wire::GAME_STATUS_RESIGNED;
  }
  return wire::GAME_STATUS_DAMAGED;
}

// Why a stored game cannot be replayed, if it cannot.
std::optional<wire::ServerMessage> NotReplayable(const persistence::GameRecord& game) {
  // An abandoned game that never started has no drawing order.
  if (game.status == persistence::GameStatus::kOpen || game.order.empty()) {
    return ErrorMessage(wire::ERROR_CODE_GAME_NOT_RUNNING, "the game has not started");
  }
  if (game.status == persistence::GameStatus::kDamaged) {
    return ErrorMessage(wire::ERROR_CODE_GAME_DAMAGED, "the game's log is damaged: " + game.damage);
  }
  return std::nullopt;
}

// What a stored game is replayed by: its rule set and that rule set's codec, or why not.
struct Replayer {
  const core::RuleSet* rules = nullptr;
  const protocol::GameCodec* codec = nullptr;
};
std::variant<Replayer, wire::ServerMessage> ReplayerOf(const persistence::GameRecord& game,
                                                       const RuleSetRegistry& rule_sets) {
  const core::RuleSet* rules = rule_sets.Find(game.rule_set, game.rule_set_version);
  const protocol::GameCodec* codec = protocol::FindGameCodec(game.rule_set);
  if (rules == nullptr || codec == nullptr) {
    return ErrorMessage(wire::ERROR_CODE_NO_SUCH_RULE_SET,
                        "this server does not play rule set '" + game.rule_set + "' version " +
                            std::to_string(game.rule_set_version) + " any more");
  }
  return Replayer{rules, codec};
}

wire::Snapshot SnapshotOf(const persistence::GameRecord& record, const Replayer& replayer,
                          const core::State& game, uint64_t sequence, std::string_view shard) {
  wire::Snapshot snapshot;
  snapshot.set_game_id(PublicGameId(shard, record.number));
  snapshot.set_sequence(sequence);
  snapshot.set_state(replayer.codec->EncodeState(game));
  snapshot.set_state_hash(game.Hash());
  snapshot.set_rule_set(record.rule_set);
  return snapshot;
}

// The game at `sequence`: its first `sequence` actions replayed; the message says why not.
std::variant<std::unique_ptr<core::State>, wire::ServerMessage> StateAt(
    persistence::StoredGame stored, const Replayer& replayer, uint64_t sequence) {
  stored.actions.resize(sequence);
  auto replayed = persistence::ReplayStored(stored, *replayer.rules);
  if (replayed.damage || !replayed.state) {
    return ErrorMessage(wire::ERROR_CODE_GAME_DAMAGED,
                        "the game's log is damaged: " + replayed.damage.value_or("no game"));
  }
  return std::move(replayed.state);
}

}  // namespace

wire::GameInfo InfoFromRecord(const persistence::GameRecord& game, std::string_view shard) {
  wire::GameInfo info;
  info.set_game_id(PublicGameId(shard, game.number));
  info.set_name(game.name);
  info.set_rule_set(game.rule_set);
  info.set_rule_set_version(static_cast<uint32_t>(game.rule_set_version));
  if (const auto options = core::ParseOptions(game.options);
      const auto* parsed = std::get_if<core::Options>(&options)) {
    for (const auto& [name, value] : *parsed) (*info.mutable_options())[name] = value;
  }
  info.set_seats(static_cast<uint32_t>(game.seats));
  for (int i = 0; i < game.seats; ++i) {
    wire::SeatInfo* seat = info.add_seat();
    seat->set_seat(static_cast<uint32_t>(i));
    for (const persistence::SeatRecord& s : game.seat_records) {
      if (s.seat != i) continue;
      seat->set_taken(true);
      seat->set_player_name(s.player_name);
      seat->set_bot(s.bot);
      seat->set_resigned(s.resigned);
      seat->set_stand_in(s.stand_in);
    }
  }
  info.set_status(ToProto(game.status));
  if (game.rematch_of > 0) info.set_rematch_of(PublicGameId(shard, game.rematch_of));
  if (game.rematch > 0) info.set_rematch(PublicGameId(shard, game.rematch));
  info.set_on_resign(ToProto(game.on_resign));
  AddDrawFields(game.draw_commitment, game.draw_proof, info.status(), &info);
  info.set_spectators_chat(game.spectators_chat);
  *info.mutable_time_control() = ToProto(game.time_control);
  return info;
}

wire::ServerMessage ReplayMessage(const persistence::StoredGame& stored,
                                  const RuleSetRegistry& rule_sets, std::string_view shard) {
  if (auto refusal = NotReplayable(stored.game)) return *refusal;
  auto replayer = ReplayerOf(stored.game, rule_sets);
  if (auto* refusal = std::get_if<wire::ServerMessage>(&replayer)) return *refusal;
  const Replayer& by = std::get<Replayer>(replayer);
  auto start = StateAt(stored, by, 0);
  if (auto* refusal = std::get_if<wire::ServerMessage>(&start)) return *refusal;
  wire::ServerMessage message;
  wire::Replay* replay = message.mutable_replay();
  *replay->mutable_game() = InfoFromRecord(stored.game, shard);
  *replay->mutable_start() =
      SnapshotOf(stored.game, by, *std::get<std::unique_ptr<core::State>>(start), 0, shard);
  const std::string id = PublicGameId(shard, stored.game.number);
  const auto replayed = persistence::ReplayStored(
      stored, *by.rules,
      [&](const persistence::ActionRecord& r, std::span<const std::string>,
          const core::State& state) {
        const int seat = r.seat >= 0 ? r.seat : state.TurnPlayer();
        *replay->add_steps() =
            MakeDelta(id, r.sequence, seat, by.codec->EncodeLastStep(state), r.state_hash);
        replay->add_time_ms(r.time_ms);
      });
  if (replayed.damage) {
    return ErrorMessage(wire::ERROR_CODE_GAME_DAMAGED,
                        "the game's log is damaged: " + *replayed.damage);
  }
  // The whole chat: each line's after_sequence places it between the steps.
  for (const persistence::ChatRecord& line : stored.chat) {
    *replay->add_chat() = ChatLineMessage(id, line);
  }
  return message;
}

wire::ServerMessage SeekMessage(const persistence::StoredGame& stored,
                                const RuleSetRegistry& rule_sets, uint64_t sequence,
                                std::string_view shard) {
  if (auto refusal = NotReplayable(stored.game)) return *refusal;
  if (sequence > stored.actions.size()) {
    return ErrorMessage(wire::ERROR_CODE_MALFORMED_MESSAGE,
                        "the game has " + std::to_string(stored.actions.size()) + " steps");
  }
  auto replayer = ReplayerOf(stored.game, rule_sets);
  if (auto* refusal = std::get_if<wire::ServerMessage>(&replayer)) return *refusal;
  const Replayer& by = std::get<Replayer>(replayer);
  auto state = StateAt(stored, by, sequence);
  if (auto* refusal = std::get_if<wire::ServerMessage>(&state)) return *refusal;
  wire::ServerMessage message;
  *message.mutable_snapshot() =
      SnapshotOf(stored.game, by, *std::get<std::unique_ptr<core::State>>(state), sequence, shard);
  return message;
}

}  // namespace carc::server
