#include "city/transcript.h"

#include <charconv>

#include "city/notation.h"

namespace carc::city {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

template <typename T>
bool Number(std::string_view word, T* out) {
  const char* end = word.data() + word.size();
  const auto r = std::from_chars(word.data(), end, *out);
  return r.ec == std::errc() && r.ptr == end;
}

std::vector<std::string_view> Words(std::string_view line) {
  std::vector<std::string_view> words;
  while (!(line = Trim(line)).empty()) {
    const size_t cut = std::min(line.find(' '), line.find('\t'));
    words.push_back(line.substr(0, cut));
    if (cut == std::string_view::npos) break;
    line.remove_prefix(cut);
  }
  return words;
}

// Returns an error message, or "" if the header line was understood.
std::string ParseHeader(const std::vector<std::string_view>& w, Transcript* t) {
  const std::string_view key = w[0];
  if (key == "game") {
    if (w.size() != 2 || w[1] != "the-city") return "expected 'game the-city'";
  } else if (key == "players") {
    if (w.size() != 2 || !Number(w[1], &t->players)) return "expected 'players <2-4>'";
  } else if (key == "seed") {
    if (w.size() != 2 || !Number(w[1], &t->seed)) return "expected 'seed <unsigned 64-bit number>'";
  } else if (key == "tileset") {
    if (w.size() != 3 || !Number(w[2], &t->tileset_version))
      return "expected 'tileset <id> <version>'";
    t->tileset_id = std::string(w[1]);
  } else if (key == "order") {
    std::vector<int> order;
    for (size_t i = 1; i < w.size(); ++i) {
      int tile = 0;
      if (!Number(w[i], &tile)) return "'order' takes tile ids";
      order.push_back(tile);
    }
    t->order = std::move(order);
  }
  return "";
}

bool IsHeaderKey(std::string_view word) {
  return word == "game" || word == "players" || word == "seed" || word == "tileset" ||
         word == "order";
}

}  // namespace

std::string TranscriptError::ToString() const {
  if (line == 0) return message;
  return "line " + std::to_string(line) + ": " + message;
}

std::variant<Transcript, TranscriptError> ParseTranscript(std::string_view text) {
  Transcript t;
  int number = 0;
  bool in_actions = false;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++number;
    if (const size_t hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    line = Trim(line);
    if (line.empty()) continue;
    const auto w = Words(line);
    if (IsHeaderKey(w[0])) {
      if (in_actions)
        return TranscriptError{number,
                               "header line '" + std::string(w[0]) + "' after the first action"};
      if (std::string error = ParseHeader(w, &t); !error.empty())
        return TranscriptError{number, error};
      continue;
    }
    in_actions = true;
    t.actions.push_back({number, std::string(line)});
  }
  return t;
}

std::string FormatTranscript(const Game& game, bool with_order) {
  std::string out = "game the-city\nplayers " + std::to_string(game.players()) + "\nseed " +
                    std::to_string(game.seed()) + "\ntileset " + game.tiles().id() + " " +
                    std::to_string(game.tiles().version()) + "\n";
  if (with_order) {
    out += "order";
    for (int tile : game.Order()) out += " " + std::to_string(tile);
    out += "\n";
  }
  // Format each action against the game as it was: replay the history on a fresh copy.
  auto fresh = with_order ? Game::CreateWithOrder(game.shared_tiles(), game.config(), game.seed(),
                                                  game.Order())
                          : Game::Create(game.shared_tiles(), game.config(), game.seed());
  Game* replay = std::get_if<Game>(&fresh);
  for (const HistoryEntry& entry : game.History()) {
    out += FormatActor(entry.actor) + " " + FormatAction(*replay, entry.action) + "\n";
    [[maybe_unused]] const auto error = replay->Apply(entry.actor, entry.action, nullptr);
    assert(!error);
  }
  return out;
}

ReplayResult Replay(const std::shared_ptr<const core::TileSet>& tiles, const Config& base,
                    const Transcript& t) {
  ReplayResult result;
  if (!t.tileset_id.empty() &&
      (t.tileset_id != tiles->id() || t.tileset_version != tiles->version())) {
    result.failure = TranscriptError{0, "the game was played with tile set " + t.tileset_id + " " +
                                            std::to_string(t.tileset_version) + ", not " +
                                            tiles->id() + " " + std::to_string(tiles->version())};
    return result;
  }
  Config config = base;
  config.players = t.players;
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

}  // namespace carc::city
