// One game's side of the wire protocol: the only code outside engine/<game>/ that knows a game.
//
// The envelope (carcassonne/server/v2/server.proto) carries a game's actions, events and public
// state as encoded messages of that game's own package (carcassonne/<game>/v1/). A GameCodec
// turns the engine's values into those bytes for the server, and those bytes back into something
// a client can follow. The room, the lobby, the transport and the game log hold a GameCodec and a
// core::State and never look inside either; each game has its codec in server/protocol/<game>/,
// and GameCodecs() lists them all.
//
// Decoding never trusts its input: bytes that do not decode as the game's message, or decode to
// values the engine's types cannot hold, come back as nullopt (or null).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/rule_set.h"
#include "core/tileset.h"

namespace carc::protocol {

// A game's public state as a client follows it: decoded from a Snapshot, then each Delta's
// events reduced on it in order. Its hash is the engine's public-state hash (core::State::Hash),
// which the server sends with every Snapshot and Delta.
class PublicView {
 public:
  virtual ~PublicView() = default;
  virtual std::unique_ptr<PublicView> Clone() const = 0;
  // Reduces one event (the game package's Event, encoded). False when it does not decode; the
  // view may then be partly changed (the Follower reduces on a copy).
  virtual bool ApplyEvent(std::string_view event) = 0;
  virtual uint64_t Hash() const = 0;
  // Who must decide: a seat, core::kChanceActor for the server's draw, core::kNoActor once the
  // game is over.
  virtual core::Actor Actor() const = 0;
  // Each seat's points so far.
  virtual std::vector<int> Scores() const = 0;
};

// What one action applied to a State looks like on the wire.
struct EncodedStep {
  std::string action;               // the game package's Action
  std::vector<std::string> events;  // its Events, in order
};

class GameCodec {
 public:
  virtual ~GameCodec() = default;
  // The rule set whose games this codec carries (core::GameType::id).
  virtual std::string_view RuleSetId() const = 0;

  // --- The server's side: from a core::State of this rule set. ---

  // The public state, as the game package's PublicState.
  virtual std::string EncodeState(const core::State& state) const = 0;
  // The legal actions of the current decision, in the engine's order, as the game's Actions.
  virtual std::vector<std::string> EncodeLegalActions(const core::State& state) const = 0;
  // A client's action (the game package's Action, encoded) applied to `state` by `actor`: the
  // action in the game's notation (what the game log stores), or the engine's refusal, with
  // nothing changed. Bytes that do not decode are refused with the code "malformed".
  virtual std::variant<std::string, core::RuleError> ApplyEncoded(
      core::State& state, core::Actor actor, std::string_view action) const = 0;
  // The last action applied to `state` (through either Apply) and the events it caused.
  virtual EncodedStep EncodeLastStep(const core::State& state) const = 0;
  // A game that is over, as the game log stores its result: a JSON object with at least
  // "scores" (one number per seat) and "winners" (seats).
  virtual std::string ResultJson(const core::State& state) const = 0;

  // --- The client's side. ---

  // A Snapshot's state, of a game played with `tiles` (the server's GetTileSet); null when it
  // does not decode or does not fit the tiles.
  virtual std::unique_ptr<PublicView> DecodeState(
      std::string_view state, std::shared_ptr<const core::TileSet> tiles) const = 0;
  // An encoded Action in the game's notation, as it reads in `view` (a follower names a feature
  // of the tile just placed); nullopt when it does not decode.
  virtual std::optional<std::string> DescribeAction(const PublicView& view,
                                                    std::string_view action) const = 0;
  // An encoded Event in the game's notation for events (docs/formats.md); nullopt when it does
  // not decode.
  virtual std::optional<std::string> DescribeEvent(std::string_view event) const = 0;
};

// Every game the protocol carries, one codec per rule set id.
std::span<const GameCodec* const> GameCodecs();
// The codec of a rule set; null when the protocol carries no such game.
const GameCodec* FindGameCodec(std::string_view rule_set_id);

}  // namespace carc::protocol
