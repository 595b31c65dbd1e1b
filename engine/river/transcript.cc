#include "river/transcript.h"

#include <cassert>

#include "core/rule_set.h"
#include "core/text.h"
#include "river/notation.h"

namespace carc::river {
namespace {

std::string ParseOptionsLine(std::string_view line, Transcript* t) {
  const size_t space = line.find(' ');
  const std::string_view pairs =
      space == std::string_view::npos ? std::string_view() : line.substr(space + 1);
  auto parsed = core::ParseOptions(pairs);
  if (auto* error = std::get_if<std::string>(&parsed)) return *error;
  for (const auto& [name, value] : std::get<core::Options>(parsed)) {
    if (name != "river" || value < 0 || value > 1) return "expected 'options river=0|1'";
    t->river = value == 1;
  }
  return "";
}

// Returns an error message, or "" if the header line was understood.
std::string ParseHeader(std::string_view line, const std::vector<std::string_view>& w,
                        Transcript* t) {
  const std::string_view key = w[0];
  if (key == "game") {
    if (w.size() != 2 || w[1] != "carcassonne") return "expected 'game carcassonne'";
  } else if (key == "players") {
    if (w.size() != 2 || !core::ParseNumber(w[1], &t->players)) return "expected 'players <2-5>'";
  } else if (key == "options") {
    return ParseOptionsLine(line, t);
  } else if (key == "seed") {
    if (w.size() != 2 || !core::ParseNumber(w[1], &t->seed)) {
      return "expected 'seed <unsigned 64-bit number>'";
    }
  } else if (key == "tileset") {
    if (w.size() != 3 || !core::ParseNumber(w[2], &t->tileset_version)) {
      return "expected 'tileset <id> <version>'";
    }
    t->tileset_id = std::string(w[1]);
  } else if (key == "order") {
    std::vector<int> order;
    for (size_t i = 1; i < w.size(); ++i) {
      int tile = 0;
      if (!core::ParseNumber(w[i], &tile)) return "'order' takes tile ids";
      order.push_back(tile);
    }
    t->order = std::move(order);
  }
  return "";
}

bool IsHeaderKey(std::string_view word) {
  return word == "game" || word == "players" || word == "options" || word == "seed" ||
         word == "tileset" || word == "order";
}

}  // namespace

std::string TranscriptError::ToString() const {
  if (line == 0) return message;
  return "line " + std::to_string(line) + ": " + message;
}

std::variant<Transcript, TranscriptError> ParseTranscript(std::string_view text) {
  Transcript t;
  bool in_actions = false;
  std::optional<TranscriptError> error;
  core::ForEachLine(text, [&](int number, std::string_view line, const auto& w) {
    if (!IsHeaderKey(w[0])) {
      in_actions = true;
      t.actions.push_back({number, std::string(line)});
      return true;
    }
    if (in_actions) {
      error =
          TranscriptError{number, "header line '" + std::string(w[0]) + "' after the first action"};
    } else if (std::string message = ParseHeader(line, w, &t); !message.empty()) {
      error = TranscriptError{number, message};
    }
    return !error;
  });
  if (error) return *error;
  return t;
}

std::string FormatTranscript(const Game& game, bool with_order) {
  std::string out = "game carcassonne\nplayers " + std::to_string(game.players()) +
                    "\noptions river=" + (game.config().river ? "1" : "0") + "\nseed " +
                    std::to_string(game.seed()) + "\ntileset " + game.tiles().id() + " " +
                    std::to_string(game.tiles().version()) + "\n";
  if (with_order) {
    out += "order";
    for (int tile : game.Order()) out += " " + std::to_string(tile);
    out += "\n";
  }
  // Format each action against the game as it was: replay the history on a fresh copy.
  auto fresh = Game::CreateWithOrder(game.shared_tiles(), game.config(), game.seed(), game.Order());
  Game* replay = std::get_if<Game>(&fresh);
  assert(replay != nullptr);
  for (const HistoryEntry& entry : game.History()) {
    out += FormatActor(entry.actor) + " " + FormatAction(*replay, entry.action) + "\n";
    [[maybe_unused]] const auto error = replay->Apply(entry.actor, entry.action, nullptr);
    assert(!error);
  }
  return out;
}

ReplayResult Replay(const std::shared_ptr<const core::TileSet>& tiles, const Transcript& t) {
  ReplayResult result;
  if (!t.tileset_id.empty() &&
      (t.tileset_id != tiles->id() || t.tileset_version != tiles->version())) {
    result.failure = TranscriptError{0, "the game was played with tile set " + t.tileset_id + " " +
                                            std::to_string(t.tileset_version) + ", not " +
                                            tiles->id() + " " + std::to_string(tiles->version())};
    return result;
  }
  Config config;
  config.players = t.players;
  config.river = t.river;
  auto created = t.order ? Game::CreateWithOrder(tiles, config, t.seed, *t.order)
                         : Game::Create(tiles, config, t.seed);
  if (auto* message = std::get_if<std::string>(&created)) {
    result.failure = TranscriptError{0, *message};
    return result;
  }
  result.game = std::get<Game>(std::move(created));
  Game& game = *result.game;
  for (const ActionLine& line : t.actions) {
    auto parsed = ParseAction(game, line.text);
    if (auto* message = std::get_if<std::string>(&parsed)) {
      result.failure = TranscriptError{line.line, *message};
      return result;
    }
    const ParsedAction& p = std::get<ParsedAction>(parsed);
    const Actor actor = p.has_actor ? p.actor : game.CurrentDecision().actor;
    if (auto error = game.Apply(actor, p.action, nullptr)) {
      result.error = error;
      result.failure =
          TranscriptError{line.line, "'" + line.text + "' is illegal: " + ToString(*error) + " (" +
                                         Describe(*error) + ")"};
      return result;
    }
    ++result.applied;
  }
  return result;
}

}  // namespace carc::river
