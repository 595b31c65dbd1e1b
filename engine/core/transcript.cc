#include "core/transcript.h"

namespace carc::core {

std::string TranscriptError::ToString() const {
  if (line == 0) return message;
  return "line " + std::to_string(line) + ": " + message;
}

bool IsOwnHeaderKey(const TranscriptSyntax& syntax, std::string_view word) {
  for (std::string_view key : syntax.own_keys) {
    if (word == key) return true;
  }
  return false;
}

bool IsTranscriptHeaderKey(const TranscriptSyntax& syntax, std::string_view word) {
  return word == "game" || word == "players" || word == "seed" || word == "tileset" ||
         word == "order" || IsOwnHeaderKey(syntax, word);
}

std::string ParseSharedHeader(const TranscriptSyntax& syntax,
                              const std::vector<std::string_view>& w, TranscriptFields* t) {
  const std::string_view key = w[0];
  if (key == "game") {
    if (w.size() != 2 || w[1] != syntax.game)
      return "expected 'game " + std::string(syntax.game) + "'";
  } else if (key == "players") {
    if (w.size() != 2 || !ParseNumber(w[1], &t->players)) {
      return "expected 'players " + std::string(syntax.players) + "'";
    }
  } else if (key == "seed") {
    if (w.size() != 2 || !ParseNumber(w[1], &t->seed)) {
      return "expected 'seed <unsigned 64-bit number>'";
    }
  } else if (key == "tileset") {
    if (w.size() != 3 || !ParseNumber(w[2], &t->tileset_version)) {
      return "expected 'tileset <id> <version>'";
    }
    t->tileset_id = std::string(w[1]);
  } else if (key == "order") {
    std::vector<int> order;
    for (size_t i = 1; i < w.size(); ++i) {
      int tile = 0;
      if (!ParseNumber(w[i], &tile)) return "'order' takes tile ids";
      order.push_back(tile);
    }
    t->order = std::move(order);
  }
  return "";
}

}  // namespace carc::core
