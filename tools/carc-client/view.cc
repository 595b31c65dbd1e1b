#include "view.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <utility>

#include "games.h"

namespace carc::client {
namespace {

const GameDrawing* DrawingOf(const protocol::Follower& follower) {
  return follower.started() ? FindGameDrawing(follower.rule_set()) : nullptr;
}

std::string GenericDecision(const protocol::Follower& follower) {
  const core::Actor actor = follower.actor();
  if (actor == core::kNoActor) return "the game is over";
  if (actor == core::kChanceActor) return "the server draws";
  return "seat " + std::to_string(actor) + " must decide";
}

// Whose decision, the scores and the legal actions: all a client can say of any game.
std::string GenericRender(const protocol::Follower& follower) {
  std::ostringstream out;
  const std::vector<int> scores = follower.view().Scores();
  out << "rule set " << follower.rule_set() << " (carc-client has no drawing of it); "
      << scores.size() << " players\n";
  out << "decision: " << GenericDecision(follower) << "\n";
  out << "\nseat  score\n";
  for (size_t p = 0; p < scores.size(); ++p) {
    char line[64];
    std::snprintf(line, sizeof line, "%4zu  %5d%s\n", p, scores[p],
                  std::cmp_equal(follower.actor(), p) ? "  <- to decide" : "");
    out << line;
  }
  const std::vector<std::string>& legal = follower.legal();
  if (!legal.empty()) {
    out << "\nlegal actions (" << legal.size() << "):";
    constexpr size_t kShown = 40;
    for (size_t i = 0; i < legal.size() && i < kShown; ++i) out << " " << legal[i] << ";";
    if (legal.size() > kShown) out << " ...";
    out << "\n";
  }
  return out.str();
}

}  // namespace

std::string RenderState(const protocol::Follower& follower, const core::TileSet& tiles) {
  std::string text = "sequence " + std::to_string(follower.sequence()) + ", state hash " +
                     HashHex(follower.hash()) + "\n";
  const GameDrawing* drawing = DrawingOf(follower);
  std::string picture;
  if (drawing != nullptr && drawing->render != nullptr) {
    picture = drawing->render(follower.view(), tiles);
  }
  return text + (picture.empty() ? GenericRender(follower) : picture);
}

nlohmann::json StateJson(const protocol::Follower& follower) {
  nlohmann::json out;
  const GameDrawing* drawing = DrawingOf(follower);
  if (drawing != nullptr && drawing->state_json != nullptr) {
    out = drawing->state_json(follower.view());
  }
  if (!out.is_object()) out = nlohmann::json::object();
  out["rule_set"] = follower.rule_set();
  out["sequence"] = follower.sequence();
  out["state_hash"] = HashHex(follower.hash());
  out["actor"] = follower.actor();
  out["over"] = follower.over();
  out["scores"] = ScoresJson(follower);
  if (!out.contains("decision")) out["decision"] = {{"text", DescribeDecision(follower)}};
  return out;
}

nlohmann::json ScoresJson(const protocol::Follower& follower) {
  const GameDrawing* drawing = DrawingOf(follower);
  if (drawing != nullptr && drawing->scores_json != nullptr) {
    nlohmann::json scores = drawing->scores_json(follower.view());
    if (scores.is_array()) return scores;
  }
  nlohmann::json scores = nlohmann::json::array();
  const std::vector<int> totals = follower.view().Scores();
  for (size_t p = 0; p < totals.size(); ++p) scores.push_back({{"seat", p}, {"total", totals[p]}});
  return scores;
}

std::string DescribeDecision(const protocol::Follower& follower) {
  const GameDrawing* drawing = DrawingOf(follower);
  if (drawing != nullptr && drawing->decision != nullptr) {
    std::string text = drawing->decision(follower.view());
    if (!text.empty()) return text;
  }
  return GenericDecision(follower);
}

std::string EndedBy(const protocol::Follower& follower) {
  if (!follower.over()) return "none";
  const GameDrawing* drawing = DrawingOf(follower);
  if (drawing != nullptr && drawing->ended_by != nullptr) {
    std::string text = drawing->ended_by(follower.view());
    if (!text.empty()) return text;
  }
  return "over";
}

std::string ActionText(std::string_view action, const core::TileSet& tiles) {
  std::string text(action);
  constexpr std::string_view kDraw = "draw ";
  if (!action.starts_with(kDraw)) return text;
  int tile = 0;
  const std::string_view number = action.substr(kDraw.size());
  if (number.empty() || number.size() > 6 ||
      !std::all_of(number.begin(), number.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return text;
  }
  for (const char c : number) tile = tile * 10 + (c - '0');
  if (tile < tiles.TileCount()) text += " (" + tiles.TypeOf(tile).name + ")";
  return text;
}

std::string ActionHint(const protocol::Follower& follower, const core::TileSet& tiles,
                       size_t index) {
  const GameDrawing* drawing = DrawingOf(follower);
  if (drawing == nullptr || drawing->hint == nullptr || index >= follower.legal().size()) return "";
  return drawing->hint(follower.view(), tiles, follower.legal()[index]);
}

std::vector<std::string> NotableEvents(const protocol::Follower& follower) {
  std::vector<std::string> lines;
  if (!follower.started()) return lines;
  const GameDrawing* drawing = DrawingOf(follower);
  for (const std::string& bytes : follower.events()) {
    auto text = follower.codec().DescribeEvent(bytes);
    if (!text) continue;  // the follower applied it: it decodes
    if (drawing != nullptr && drawing->notable != nullptr && !drawing->notable(*text)) continue;
    lines.push_back(*std::move(text));
  }
  return lines;
}

std::vector<int> Winners(const protocol::Follower& follower) {
  std::vector<int> winners;
  if (!follower.started() || !follower.over()) return winners;
  const std::vector<int> scores = follower.view().Scores();
  if (scores.empty()) return winners;
  const int best = *std::max_element(scores.begin(), scores.end());
  for (size_t p = 0; p < scores.size(); ++p) {
    if (scores[p] == best) winners.push_back(static_cast<int>(p));
  }
  return winners;
}

std::string ScoresText(const protocol::Follower& follower, int own_seat) {
  const std::vector<int> scores = follower.view().Scores();
  std::string text;
  for (size_t p = 0; p < scores.size(); ++p) {
    text += (p > 0 ? ", seat " : "seat ") + std::to_string(p) + " " + std::to_string(scores[p]) +
            (std::cmp_equal(p, own_seat) ? " (you)" : "");
  }
  return text;
}

std::string GameOverText(const std::string& game_id, const protocol::Follower& follower,
                         int own_seat) {
  const std::string ended_by = EndedBy(follower);
  std::string line = "game " + game_id + " is over" +
                     (ended_by == "over" ? std::string() : " (" + ended_by + ")") +
                     "; scores: " + ScoresText(follower, own_seat) + "; winners:";
  for (const int p : Winners(follower)) line += " seat " + std::to_string(p);
  return line;
}

size_t ChooseAction(const protocol::Follower& follower, bool eager, core::Random& random) {
  const std::vector<std::string>& legal = follower.legal();
  if (legal.empty()) return 0;
  const GameDrawing* drawing = DrawingOf(follower);
  size_t placing = 0;
  if (eager && drawing != nullptr && drawing->placing != nullptr) {
    for (const std::string& a : legal) placing += drawing->placing(a) ? 1 : 0;
  }
  // As the engine's EagerChoice: a piece nine times in ten when one can be placed.
  if (placing == 0 || random.Below(10) == 0) return static_cast<size_t>(random.Below(legal.size()));
  auto pick = static_cast<size_t>(random.Below(placing));
  for (size_t i = 0; i < legal.size(); ++i) {
    if (drawing->placing(legal[i]) && pick-- == 0) return i;
  }
  return 0;
}

std::string StatusName(wire::GameStatus status) {
  switch (status) {
    case wire::GAME_STATUS_OPEN:
      return "open";
    case wire::GAME_STATUS_RUNNING:
      return "running";
    case wire::GAME_STATUS_FINISHED:
      return "finished";
    case wire::GAME_STATUS_DAMAGED:
      return "damaged";
    case wire::GAME_STATUS_ABANDONED:
      return "abandoned";
    case wire::GAME_STATUS_RESIGNED:
      return "resigned";
    default:
      return "unknown";
  }
}

std::string ChatLineText(const wire::ChatMessage& line) {
  return "chat #" + std::to_string(line.number()) + " after step " +
         std::to_string(line.after_sequence()) + ", " + line.name() + " (" +
         (line.has_seat() ? "seat " + std::to_string(line.seat()) : std::string("spectator")) +
         "): " + line.text();
}

}  // namespace carc::client
