#include "river/transcript.h"

#include "core/rule_set.h"
#include "river/notation.h"

namespace carc::river {
namespace {

constexpr std::string_view kOwnKeys[] = {"options"};
constexpr core::TranscriptSyntax kSyntax{
    .game = "carcassonne", .players = "<2-5>", .own_keys = kOwnKeys};

// "options river=0|1".
std::string ParseOptionsLine(std::string_view line, const std::vector<std::string_view>&,
                             Transcript* t) {
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

}  // namespace

std::variant<Transcript, TranscriptError> ParseTranscript(std::string_view text) {
  return core::ParseTranscriptText<Transcript>(text, kSyntax, ParseOptionsLine);
}

std::string FormatTranscript(const Game& game, bool with_order) {
  // Each action is formatted against the game as it was: a fresh copy replays the history.
  auto fresh = Game::CreateWithOrder(game.shared_tiles(), game.config(), game.seed(), game.Order());
  const std::string options =
      std::string("options river=") + (game.config().river ? "1" : "0") + "\n";
  return core::FormatTranscriptText(game, kSyntax.game, options, with_order,
                                    std::get<Game>(std::move(fresh)));
}

ReplayResult Replay(const std::shared_ptr<const core::TileSet>& tiles, const Transcript& t) {
  Config config;
  config.players = t.players;
  config.river = t.river;
  return core::ReplayTranscript<Game, Error>(tiles, config, t);
}

}  // namespace carc::river
