#include "castle/transcript.h"

#include "castle/default_data.h"
#include "castle/notation.h"

namespace carc::castle {
namespace {

constexpr core::TranscriptSyntax kSyntax{.game = "the-castle", .players = "<2>", .own_keys = {}};

std::string NoOwnLines(std::string_view, const std::vector<std::string_view>&, Transcript*) {
  return "The Castle has no options";
}

}  // namespace

std::variant<Transcript, TranscriptError> ParseTranscript(std::string_view text) {
  return core::ParseTranscriptText<Transcript>(text, kSyntax, NoOwnLines);
}

std::string FormatTranscript(const Game& game, bool with_order) {
  // Each action is formatted against the game as it was: a fresh copy replays the history.
  // The same wall too, which a test may have laid by hand (corner 0 holds none).
  const std::vector<int> wall = game.WallLayout();
  auto fresh = Game::CreateWithOrder(game.shared_tiles(), game.config(), game.seed(), game.Order(),
                                     std::span<const int>(wall).subspan(1));
  return core::FormatTranscriptText(game, kSyntax.game, "", with_order,
                                    std::get<Game>(std::move(fresh)));
}

ReplayResult Replay(const std::shared_ptr<const core::TileSet>& tiles, const Transcript& t) {
  Config config;
  config.players = t.players;
  config.layout = DefaultLayout();
  return core::ReplayTranscript<Game, Error>(tiles, config, t);
}

}  // namespace carc::castle
