// What carc-client knows of each game beyond the protocol: how to draw it. One GameDrawing per
// rule set, found by its id; a game without one is still followed and played (protocol::Follower
// knows every game the protocol carries) and shown as plain text: whose decision, the scores, the
// legal actions (view.h).
//
// A drawing reads the typed public state behind a follower's view through its game's codec
// (protocol::CityStateOf, ...). Every entry may be null: the generic text takes its place.
// Adding a game: a <game>_view.cc with its GameDrawing, and one line in games.cc.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/tileset.h"
#include "protocol/game_codec.h"

namespace carc::client {

struct GameDrawing {
  std::string_view rule_set;  // core::GameType::id, e.g. "the-city"
  // A text picture of the state: counters, scores, whose decision, the board. Empty when the view
  // is not of this game.
  std::string (*render)(const protocol::PublicView& view, const core::TileSet& tiles) = nullptr;
  // The state as JSON (show --json, replay --json), merged into the generic object; null when the
  // view is not of this game.
  nlohmann::json (*state_json)(const protocol::PublicView& view) = nullptr;
  // Every seat's points, by source: [{"seat": 0, "total": 67, "streets": 13, ...}, ...]; null
  // when the view is not of this game.
  nlohmann::json (*scores_json)(const protocol::PublicView& view) = nullptr;
  // Whose decision, in words: "seat 2 must place_follower"; empty when the view is not of this
  // game.
  std::string (*decision)(const protocol::PublicView& view) = nullptr;
  // How a game that is over ended, in the game's words ("last_tile_placed"); empty when the view
  // is not of this game.
  std::string (*ended_by)(const protocol::PublicView& view) = nullptr;
  // What a legal action (in the game's notation) would do, for a person choosing it:
  // "street: a citizen"; empty when there is nothing to add.
  std::string (*hint)(const protocol::PublicView& view, const core::TileSet& tiles,
                      std::string_view action) = nullptr;
  // Whether an action places a piece (a follower, a tower...): the eager bots prefer those.
  bool (*placing)(std::string_view action) = nullptr;
  // Whether an event (in the game's notation for events) deserves a line under its step: scores
  // and the like, not every tile drawn.
  bool (*notable)(std::string_view event) = nullptr;
};

// The drawing of a rule set; null when carc-client has none.
const GameDrawing* FindGameDrawing(std::string_view rule_set);

// The City's (city_view.cc), Carcassonne's, with or without the River (river_view.cc), and The
// Castle's (castle_view.cc).
const GameDrawing& CityDrawing();
const GameDrawing& RiverDrawing();
const GameDrawing& CastleDrawing();

}  // namespace carc::client
