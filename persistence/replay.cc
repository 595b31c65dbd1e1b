#include "persistence/replay.h"

#include <variant>
#include <vector>

namespace carc::persistence {

int StoredSeat(core::Actor actor) { return actor == core::kChanceActor ? -1 : actor; }

namespace {

std::string Named(const std::string& id, int version) {
  return "'" + id + "' version " + std::to_string(version);
}

std::optional<std::string> CheckSetUp(const GameRecord& game, const core::RuleSet& rules) {
  const core::GameType& type = rules.Type();
  if (game.rule_set != type.id || game.rule_set_version != type.version) {
    return "the game was played with rule set " + Named(game.rule_set, game.rule_set_version) +
           ", not " + Named(type.id, type.version);
  }
  const core::TileSet& tiles = rules.Tiles();
  if (game.tileset_id != tiles.id() || game.tileset_version != tiles.version()) {
    return "tile set " + game.tileset_id + " " + std::to_string(game.tileset_version) +
           " is not the server's (" + tiles.id() + " " + std::to_string(tiles.version()) + ")";
  }
  return std::nullopt;
}

std::string AtAction(const ActionRecord& record, const std::string& what) {
  return "action " + std::to_string(record.sequence) + " ('" + record.action + "'): " + what;
}

std::variant<std::unique_ptr<core::State>, std::string> SetUp(const GameRecord& record,
                                                              const core::RuleSet& rules) {
  const auto options = core::ParseOptions(record.options);
  if (const auto* error = std::get_if<std::string>(&options)) {
    return "the stored options do not parse: " + *error;
  }
  auto created = rules.NewGameWithOrder(record.seats, std::get<core::Options>(options), record.seed,
                                        record.order);
  if (auto* error = std::get_if<core::RuleError>(&created)) {
    return "the stored set-up does not make a game: " + error->message;
  }
  return std::get<std::unique_ptr<core::State>>(std::move(created));
}

// The first problem with applying `action` to `state`, which changes only when there is none.
std::optional<std::string> ApplyStored(core::State& state, const ActionRecord& action,
                                       std::vector<std::string>* events) {
  const core::Actor actor = state.CurrentActor();
  if (StoredSeat(actor) != action.seat) {
    return AtAction(action, "stored for seat " + std::to_string(action.seat) + ", but seat " +
                                std::to_string(StoredSeat(actor)) + " must decide");
  }
  if (auto error = state.Apply(actor, action.action, events)) {
    return AtAction(action, "refused by the engine: " + error->message);
  }
  if (state.Hash() != action.state_hash) {
    return AtAction(action, "the replayed state hash differs from the stored one");
  }
  return std::nullopt;
}

}  // namespace

ReplayedGame ReplayStored(const StoredGame& stored, const core::RuleSet& rules,
                          const ReplayStep& on_step, EventText text) {
  ReplayedGame out;
  const GameRecord& record = stored.game;
  if (NeverStarted(record)) return out;
  if (auto problem = CheckSetUp(record, rules)) {
    out.damage = *problem;
    return out;
  }
  auto created = SetUp(record, rules);
  if (auto* problem = std::get_if<std::string>(&created)) {
    out.damage = std::move(*problem);
    return out;
  }
  out.state = std::get<std::unique_ptr<core::State>>(std::move(created));
  std::vector<std::string> events;
  for (const ActionRecord& action : stored.actions) {
    if (action.sequence != out.applied + 1) {
      out.damage = AtAction(action, "expected sequence " + std::to_string(out.applied + 1));
      return out;
    }
    events.clear();
    if (auto problem =
            ApplyStored(*out.state, action, text == EventText::kFormat ? &events : nullptr)) {
      out.damage = std::move(*problem);
      return out;
    }
    ++out.applied;
    if (on_step) on_step(action, events, *out.state);
  }
  return out;
}

ReplayedGame ReplayStored(const StoredGame& stored, const RuleSetRegistry& registry,
                          const ReplayStep& on_step, EventText text) {
  const GameRecord& record = stored.game;
  if (NeverStarted(record)) return {};
  const core::RuleSet* rules = registry.Find(record.rule_set, record.rule_set_version);
  if (rules == nullptr) {
    ReplayedGame out;
    out.damage = "rule set " + Named(record.rule_set, record.rule_set_version) +
                 " is not in this build" +
                 (registry.Find(record.rule_set) != nullptr
                      ? " (it has version " +
                            std::to_string(registry.Find(record.rule_set)->Type().version) +
                            "): run the build that played it to export the game"
                      : "");
    return out;
  }
  return ReplayStored(stored, *rules, on_step, text);
}

}  // namespace carc::persistence
