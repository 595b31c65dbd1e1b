#include "city/transcript.h"

#include "city/notation.h"

namespace carc::city {
namespace {

constexpr core::TranscriptSyntax kSyntax{.game = "the-city", .players = "<2-4>", .own_keys = {}};

}  // namespace

std::variant<Transcript, TranscriptError> ParseTranscript(std::string_view text) {
  return core::ParseTranscriptText<Transcript>(
      text, kSyntax, [](std::string_view, const std::vector<std::string_view>&, Transcript*) {
        return std::string();
      });
}

std::string FormatTranscript(const Game& game, bool with_order) {
  // Each action is formatted against the game as it was: a fresh copy replays the history.
  auto fresh = with_order ? Game::CreateWithOrder(game.shared_tiles(), game.config(), game.seed(),
                                                  game.Order())
                          : Game::Create(game.shared_tiles(), game.config(), game.seed());
  return core::FormatTranscriptText(game, kSyntax.game, "", with_order,
                                    std::get<Game>(std::move(fresh)));
}

ReplayResult Replay(const std::shared_ptr<const core::TileSet>& tiles, const Config& base,
                    const Transcript& t) {
  Config config = base;
  config.players = t.players;
  return core::ReplayTranscript<Game, Error>(tiles, config, t);
}

}  // namespace carc::city
