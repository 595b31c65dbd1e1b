// Action-list files (docs/formats.md), the part every game shares: header lines first, then one
// action per line in the game's notation (core/notation.h), each with an optional actor.
//
//   # any comment
//   game <id>
//   players 4
//   seed 42
//   tileset <tile set id> <version>     (optional: checked against the tile set in use)
//   order 12 5 33 ...                   (optional: the tiles; without it, shuffled from seed)
//   chance draw 12
//   p0 place 0 0 1
//
// A game supplies: its Transcript, a TranscriptFields with the game's own header values added;
// a TranscriptSyntax (its id, its player range for messages, the keys of its own header lines
// and how to read them); the text of its own header lines when formatting; and a Game with
// Create, CreateWithOrder, Apply, History, players, seed, config, tiles, shared_tiles and
// Order, whose namespace has ParseAction, FormatAction and ToString / Describe of its Error.
#pragma once

#include <cassert>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "core/notation.h"
#include "core/text.h"
#include "core/tileset.h"

namespace carc::core {

struct ActionLine {
  int line = 0;  // 1-based line number in the file
  std::string text;
};

// The header values every game's file has, and its action lines.
struct TranscriptFields {
  explicit TranscriptFields(int default_players) : players(default_players) {}
  int players;
  uint64_t seed = 0;
  std::string tileset_id;  // empty: not given
  int tileset_version = -1;
  std::optional<std::vector<int>> order;
  std::vector<ActionLine> actions;
};

struct TranscriptError {
  int line = 0;  // 0: not about one line
  std::string message;
  std::string ToString() const;
};

// What a game's files say in their header.
struct TranscriptSyntax {
  std::string_view game;     // the id after `game`, e.g. "the-city"
  std::string_view players;  // the player range, for messages, e.g. "<2-4>"
  // The keys of the game's own header lines, beside game, players, seed, tileset and order.
  std::span<const std::string_view> own_keys;
};

// Whether `word` starts a header line of `syntax`: a shared one, or one of the game's own.
bool IsTranscriptHeaderKey(const TranscriptSyntax& syntax, std::string_view word);
bool IsOwnHeaderKey(const TranscriptSyntax& syntax, std::string_view word);
// Reads one header line with a shared key into `t`; returns what is wrong, "" if nothing.
std::string ParseSharedHeader(const TranscriptSyntax& syntax,
                              const std::vector<std::string_view>& words, TranscriptFields* t);

// Parses a file into a game's Transcript T (a TranscriptFields). `parse_own(line, words, &t)`
// reads a line whose key is one of syntax.own_keys and returns what is wrong ("" if nothing).
template <typename T, typename ParseOwn>
std::variant<T, TranscriptError> ParseTranscriptText(std::string_view text,
                                                     const TranscriptSyntax& syntax,
                                                     ParseOwn parse_own) {
  T t;
  bool in_actions = false;
  std::optional<TranscriptError> error;
  ForEachLine(text, [&](int number, std::string_view line, const auto& w) {
    if (!IsTranscriptHeaderKey(syntax, w[0])) {
      in_actions = true;
      t.actions.push_back({number, std::string(line)});
      return true;
    }
    if (in_actions) {
      error =
          TranscriptError{number, "header line '" + std::string(w[0]) + "' after the first action"};
      return false;
    }
    const std::string message =
        IsOwnHeaderKey(syntax, w[0]) ? parse_own(line, w, &t) : ParseSharedHeader(syntax, w, &t);
    if (!message.empty()) error = TranscriptError{number, message};
    return !error;
  });
  if (error) return *error;
  return t;
}

// A game's file: `game <id>`, `players`, the game's `own_lines` (each ending in a newline),
// `seed`, `tileset`, the order when `with_order`, then each action of the game's history,
// formatted against `fresh`: a new game created like `game`, which this replays.
template <typename Game>
std::string FormatTranscriptText(const Game& game, std::string_view game_id,
                                 std::string_view own_lines, bool with_order, Game fresh) {
  std::string out = "game " + std::string(game_id) + "\nplayers " + std::to_string(game.players()) +
                    "\n" + std::string(own_lines) + "seed " + std::to_string(game.seed()) +
                    "\ntileset " + game.tiles().id() + " " +
                    std::to_string(game.tiles().version()) + "\n";
  if (with_order) {
    out += "order";
    for (int tile : game.Order()) out += " " + std::to_string(tile);
    out += "\n";
  }
  for (const auto& entry : game.History()) {
    out += FormatActor(entry.actor) + " " + FormatAction(fresh, entry.action) + "\n";
    [[maybe_unused]] const auto error = fresh.Apply(entry.actor, entry.action, nullptr);
    assert(!error);
  }
  return out;
}

// The outcome of replaying a transcript: the game as far as it got, and the first failure.
template <typename Game, typename Error>
struct ReplayResult {
  std::optional<Game> game;  // empty if the game could not even be created
  std::optional<TranscriptError> failure;
  std::optional<Error> error;  // the engine's reason, when an action was refused
  int applied = 0;
};

// Replays `t` on a game created with `config` (the transcript's own values already in it) from
// `tiles`, which must be the tile set the transcript names, if it names one.
template <typename Game, typename Error, typename Config>
ReplayResult<Game, Error> ReplayTranscript(const std::shared_ptr<const TileSet>& tiles,
                                           const Config& config, const TranscriptFields& t) {
  ReplayResult<Game, Error> result;
  if (!t.tileset_id.empty() &&
      (t.tileset_id != tiles->id() || t.tileset_version != tiles->version())) {
    result.failure = TranscriptError{0, "the game was played with tile set " + t.tileset_id + " " +
                                            std::to_string(t.tileset_version) + ", not " +
                                            tiles->id() + " " + std::to_string(tiles->version())};
    return result;
  }
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
    const auto& p = std::get<0>(parsed);
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

}  // namespace carc::core
