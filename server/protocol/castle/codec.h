// The mapping between The Castle's engine values (engine/castle/) and its wire messages
// (proto/carcassonne/castle/v1/castle.proto).
//
// The server encodes with ToProto; a C++ client (and the server, for a Move's action) decodes
// with FromProto. Decoding never trusts the input: an enum value the package does not define, a
// number that does not fit the engine's type or range (coordinates in int8, rotations 0-3, tile
// ids below core::kMaxTiles, feature indices below core::kMaxFeaturesPerTile, wall tiles 1-9), a
// seat beyond the game's players, a points list that is not one entry per seat, a field that the
// action's kind does not use: all come back as nullopt. The Castle's overloads live in their own
// namespace, so they never meet the other games' in overload resolution. Depends on the engine
// and the generated messages only.
#pragma once

#include <optional>
#include <vector>

#include "carcassonne/castle/v1/castle.pb.h"
#include "castle/action.h"
#include "castle/event.h"
#include "castle/layout.h"
#include "castle/public_state.h"

namespace carc::protocol::castle_wire {

namespace cv1 = ::carcassonne::castle::v1;

// The castle's board as a client sees it (castle.proto, Board): enough to draw it and to check
// the events that speak of its corner towers.
struct Board {
  std::vector<core::Cell> squares;     // sorted by y, then x
  std::vector<castle::WallCell> wall;  // in track order
  std::vector<int> corner_tracks;      // the corner towers' first track numbers
  int start_spaces = 0;                // how many of the public state's tiles are start spaces
  friend bool operator==(const Board&, const Board&) = default;
};

// The board of a game: its layout, and the number of start spaces the game laid.
Board BoardOf(const castle::Layout& layout, int start_spaces);

cv1::Action ToProto(const castle::Action& action);
std::optional<castle::Action> FromProto(const cv1::Action& action);

cv1::Decision ToProto(const castle::Decision& decision, int turn_player);
// The decision with its turn player (what a DecisionRequested event carries). `players`: the
// game's seats, which the actor and the turn player must fit.
std::optional<castle::DecisionRequested> FromProto(const cv1::Decision& decision, int players);

// `players`: how many seats the game has: the points lists carry one entry per seat, and
// decoding requires exactly that many and seats below it.
cv1::Event ToProto(const castle::Event& event, int players);
std::optional<castle::Event> FromProto(const cv1::Event& event, int players);

cv1::PublicState ToProto(const castle::PublicState& state, const Board& board);
// The public state (its config without a layout: a client has the Board instead) and the board.
struct DecodedState {
  castle::PublicState state;
  Board board;
};
std::optional<DecodedState> FromProto(const cv1::PublicState& state);

}  // namespace carc::protocol::castle_wire
