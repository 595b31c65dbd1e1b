#include "room/replay.h"

#include "city/public_state.h"
#include "city/rule_set.h"
#include "persistence/replay.h"
#include "room/room.h"

namespace carc::server {
namespace {

v1::ServerMessage ErrorMessage(v1::ErrorCode code, const std::string& reason) {
  v1::ServerMessage message;
  message.mutable_error()->set_code(code);
  message.mutable_error()->set_reason(reason);
  return message;
}

v1::GameStatus ToProto(persistence::GameStatus status) {
  switch (status) {
    case persistence::GameStatus::kOpen:
      return v1::GAME_STATUS_OPEN;
    case persistence::GameStatus::kRunning:
      return v1::GAME_STATUS_RUNNING;
    case persistence::GameStatus::kFinished:
      return v1::GAME_STATUS_FINISHED;
    case persistence::GameStatus::kDamaged:
      return v1::GAME_STATUS_DAMAGED;
    case persistence::GameStatus::kAbandoned:
      return v1::GAME_STATUS_ABANDONED;
  }
  return v1::GAME_STATUS_DAMAGED;
}

// Why a stored game cannot be replayed, if it cannot.
std::optional<v1::ServerMessage> NotReplayable(const persistence::GameRecord& game) {
  // An abandoned game that never started has no drawing order.
  if (game.status == persistence::GameStatus::kOpen || game.order.empty()) {
    return ErrorMessage(v1::ERROR_CODE_GAME_NOT_RUNNING, "the game has not started");
  }
  if (game.status == persistence::GameStatus::kDamaged) {
    return ErrorMessage(v1::ERROR_CODE_GAME_DAMAGED, "the game's log is damaged: " + game.damage);
  }
  return std::nullopt;
}

v1::Snapshot SnapshotOf(const persistence::GameRecord& record, const city::Game& game,
                        uint64_t sequence) {
  v1::Snapshot snapshot;
  snapshot.set_game_id(persistence::GameId(record.number));
  snapshot.set_sequence(sequence);
  *snapshot.mutable_state() = protocol::ToProto(game.Public());
  snapshot.set_state_hash(game.Hash());
  return snapshot;
}

}  // namespace

v1::GameInfo InfoFromRecord(const persistence::GameRecord& game) {
  v1::GameInfo info;
  info.set_game_id(persistence::GameId(game.number));
  info.set_name(game.name);
  info.set_rule_set(game.rule_set);
  info.set_seats(static_cast<uint32_t>(game.seats));
  for (int i = 0; i < game.seats; ++i) {
    v1::SeatInfo* seat = info.add_seat();
    seat->set_seat(static_cast<uint32_t>(i));
    for (const persistence::SeatRecord& s : game.seat_records) {
      if (s.seat != i) continue;
      seat->set_taken(true);
      seat->set_player_name(s.player_name);
    }
  }
  info.set_status(ToProto(game.status));
  return info;
}

v1::ServerMessage ReplayMessage(const persistence::StoredGame& stored,
                                const std::shared_ptr<const core::TileSet>& tiles) {
  if (auto refusal = NotReplayable(stored.game)) return *refusal;
  v1::ServerMessage message;
  v1::Replay* replay = message.mutable_replay();
  *replay->mutable_game() = InfoFromRecord(stored.game);
  const std::string id = persistence::GameId(stored.game.number);
  bool first = true;
  const auto replayed = persistence::ReplayStored(
      stored, *city::MakeRuleSet(tiles),
      [&](const persistence::ActionRecord& r, std::span<const std::string>,
          const core::State& state) {
        const city::Game& game = *city::GameOf(state);
        const city::Action& action = game.History().back().action;
        const std::span<const city::Event> events = city::LastEvents(state);
        if (first) {
          // The state before the first action: the same set-up, nothing applied.
          first = false;
          auto start = city::Game::CreateWithOrder(tiles, game.config(), stored.game.seed,
                                                   stored.game.order);
          *replay->mutable_start() = SnapshotOf(stored.game, std::get<city::Game>(start), 0);
        }
        const int seat = r.seat >= 0 ? r.seat : game.counters().turn_player;
        *replay->add_steps() =
            MakeDelta(id, r.sequence, seat, action, events, r.state_hash, game.players());
        replay->add_time_ms(r.time_ms);
      });
  if (replayed.damage) {
    return ErrorMessage(v1::ERROR_CODE_GAME_DAMAGED,
                        "the game's log is damaged: " + *replayed.damage);
  }
  if (first && replayed.state) {
    *replay->mutable_start() = SnapshotOf(stored.game, *city::GameOf(*replayed.state), 0);
  }
  return message;
}

v1::ServerMessage SeekMessage(persistence::StoredGame stored,
                              const std::shared_ptr<const core::TileSet>& tiles,
                              uint64_t sequence) {
  if (auto refusal = NotReplayable(stored.game)) return *refusal;
  if (sequence > stored.actions.size()) {
    return ErrorMessage(v1::ERROR_CODE_MALFORMED_MESSAGE,
                        "the game has " + std::to_string(stored.actions.size()) + " steps");
  }
  stored.actions.resize(sequence);
  const auto replayed = persistence::ReplayStored(stored, *city::MakeRuleSet(tiles));
  if (replayed.damage || !replayed.state) {
    return ErrorMessage(v1::ERROR_CODE_GAME_DAMAGED,
                        "the game's log is damaged: " + replayed.damage.value_or("no game"));
  }
  v1::ServerMessage message;
  *message.mutable_snapshot() = SnapshotOf(stored.game, *city::GameOf(*replayed.state), sequence);
  return message;
}

}  // namespace carc::server
