#include "persistence/replay.h"

#include <vector>

#include "city/notation.h"

namespace carc::persistence {

int StoredSeat(city::Actor actor) { return actor == city::kChance ? -1 : actor; }

namespace {

std::optional<std::string> CheckSetUp(const GameRecord& game, const core::TileSet& tiles) {
  if (game.rule_set != "the-city") return "rule set '" + game.rule_set + "' is not known";
  if (game.tileset_id != tiles.id() || game.tileset_version != tiles.version()) {
    return "tile set " + game.tileset_id + " " + std::to_string(game.tileset_version) +
           " is not the server's (" + tiles.id() + " " + std::to_string(tiles.version()) + ")";
  }
  return std::nullopt;
}

std::string AtAction(const ActionRecord& record, const std::string& what) {
  return "action " + std::to_string(record.sequence) + " ('" + record.action + "'): " + what;
}

}  // namespace

ReplayedGame ReplayStored(const StoredGame& stored,
                          const std::shared_ptr<const core::TileSet>& tiles,
                          const ReplayStep& on_step) {
  ReplayedGame out;
  const GameRecord& record = stored.game;
  if (record.status == GameStatus::kOpen) return out;
  if (auto problem = CheckSetUp(record, *tiles)) {
    out.damage = *problem;
    return out;
  }
  city::Config config;
  config.players = record.seats;
  auto created = city::Game::CreateWithOrder(tiles, config, record.seed, record.order);
  if (auto* error = std::get_if<std::string>(&created)) {
    out.damage = "the stored set-up does not make a game: " + *error;
    return out;
  }
  out.game = std::get<city::Game>(std::move(created));
  city::Game& game = *out.game;
  std::vector<city::Event> events;
  for (const ActionRecord& action : stored.actions) {
    if (action.sequence != out.applied + 1) {
      out.damage = AtAction(action, "expected sequence " + std::to_string(out.applied + 1));
      return out;
    }
    const auto parsed = city::ParseAction(game, action.action);
    if (const auto* error = std::get_if<std::string>(&parsed)) {
      out.damage = AtAction(action, *error);
      return out;
    }
    const city::Actor actor = game.CurrentDecision().actor;
    if (StoredSeat(actor) != action.seat) {
      out.damage =
          AtAction(action, "stored for seat " + std::to_string(action.seat) + ", but seat " +
                               std::to_string(StoredSeat(actor)) + " must decide");
      return out;
    }
    events.clear();
    const city::Action& a = std::get<city::ParsedAction>(parsed).action;
    if (auto error = game.Apply(actor, a, &events)) {
      out.damage =
          AtAction(action, std::string("refused by the engine: ") + city::Describe(*error));
      return out;
    }
    if (game.Hash() != action.state_hash) {
      out.damage = AtAction(action, "the replayed state hash differs from the stored one");
      return out;
    }
    ++out.applied;
    if (on_step) on_step(action, a, events, game);
  }
  return out;
}

}  // namespace carc::persistence
