#include "protocol/castle/game_codec.h"

#include <algorithm>
#include <cassert>
#include <memory>
#include <nlohmann/json.hpp>
#include <utility>

#include "castle/notation.h"
#include "castle/rule_set.h"
#include "protocol/castle/codec.h"
#include "protocol/view_checks.h"

namespace carc::protocol {
namespace {

namespace cv1 = ::carcassonne::castle::v1;
using castle_wire::FromProto;
using castle_wire::ToProto;

// A message from bytes that are read whole; nullopt when they are not one.
template <typename Message>
std::optional<Message> Parse(std::string_view bytes) {
  Message message;
  if (!message.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return std::nullopt;
  return message;
}

// The game behind a State of this rule set. The server hands a codec only the States of its own
// rule set (the room picks the codec by the game's rule set id), so another is a bug.
const castle::Game& GameIn(const core::State& state) {
  const castle::Game* game = castle::GameOf(state);
  assert(game != nullptr && "a State of another rule set");
  return *game;
}

// A client's copy of the public state and the castle's board, kept up to date by the events of
// each Delta.
class CastleView final : public PublicView {
 public:
  CastleView(castle_wire::DecodedState decoded, std::shared_ptr<const core::TileSet> tiles)
      : state_(std::move(decoded.state)),
        board_(std::move(decoded.board)),
        tiles_(std::move(tiles)) {}

  const castle::PublicState& state() const { return state_; }
  const castle_wire::Board& board() const { return board_; }
  // The type of the tile placed last (a follower's notation names a feature of it); null
  // before the first castle tile.
  const core::TileType* LastPlaced() const {
    if (state_.tiles.size() <= static_cast<size_t>(board_.start_spaces)) return nullptr;
    return &tiles_->TypeOf(state_.tiles.back().tile);
  }
  // The type of the tile at (x, y) (a score's or a wall tile's notation names a feature of it);
  // null when none lies there.
  const core::TileType* TileAt(int x, int y) const {
    for (const castle::PublicTile& t : state_.tiles) {
      if (t.x == x && t.y == y) return &tiles_->TypeOf(t.tile);
    }
    return nullptr;
  }

  std::unique_ptr<PublicView> Clone() const override { return std::make_unique<CastleView>(*this); }
  bool ApplyEvent(std::string_view bytes) override {
    const auto message = Parse<cv1::Event>(bytes);
    if (!message) return false;
    const std::optional<castle::Event> event = FromProto(*message, state_.config.players);
    if (!event || !Fits(*event)) return false;
    state_.Apply(*event);
    return true;
  }
  uint64_t Hash() const override { return state_.Hash(); }
  core::Actor Actor() const override {
    if (state_.counters.over) return core::kNoActor;
    const castle::Actor actor = state_.counters.decision.actor;
    return actor == castle::kChance ? core::kChanceActor : actor;
  }
  std::vector<int> Scores() const override {
    std::vector<int> scores;
    for (int p = 0; p < state_.config.players; ++p) {
      scores.push_back(state_.counters.player[static_cast<size_t>(p)].Total());
    }
    return scores;
  }

 private:
  // Whether PublicState::Apply may reduce `event` on this state: its tiles and seats are the
  // game's, a returned follower stands where the event says, a used wall tile is held, and a
  // taken one lay on a corner tower of this board.
  bool Fits(const castle::Event& event) const {
    if (!EventFitsTiles(event, *tiles_) || !EventFitsSeats(event, state_.config.players)) {
      return false;
    }
    if (const auto* returned = std::get_if<castle::FollowerReturned>(&event)) {
      const castle::PublicFollower f{returned->player, returned->x, returned->y, returned->feature};
      return std::binary_search(state_.followers.begin(), state_.followers.end(), f);
    }
    if (const auto* placed = std::get_if<castle::FollowerPlaced>(&event)) {
      return state_.counters.player[placed->player].followers > 0;
    }
    if (const auto* used = std::get_if<castle::WallTileUsed>(&event)) {
      return state_.counters.player[used->player].wall_tiles[used->wall] > 0;
    }
    if (const auto* taken = std::get_if<castle::WallTileTaken>(&event)) {
      return std::cmp_less(taken->corner, board_.corner_tracks.size());
    }
    return true;
  }

  castle::PublicState state_;
  castle_wire::Board board_;
  std::shared_ptr<const core::TileSet> tiles_;
};

class Codec final : public GameCodec {
 public:
  std::string_view RuleSetId() const override { return castle::kRuleSetId; }

  std::string EncodeState(const core::State& state) const override {
    const castle::Game& game = GameIn(state);
    const castle_wire::Board board =
        castle_wire::BoardOf(game.layout(), static_cast<int>(game.StartTiles().size()));
    return ToProto(game.Public(), board).SerializeAsString();
  }
  std::vector<std::string> EncodeLegalActions(const core::State& state) const override {
    std::vector<castle::Action> legal;
    GameIn(state).LegalActions(&legal);
    std::vector<std::string> out;
    out.reserve(legal.size());
    for (const castle::Action& a : legal) out.push_back(ToProto(a).SerializeAsString());
    return out;
  }
  std::variant<std::string, core::RuleError> ApplyEncoded(core::State& state, core::Actor actor,
                                                          std::string_view bytes) const override {
    castle::CastleState* typed = castle::StateOf(state);
    assert(typed != nullptr && "a State of another rule set");
    const auto message = Parse<cv1::Action>(bytes);
    const std::optional<castle::Action> action = message ? FromProto(*message) : std::nullopt;
    if (!action) return core::RuleError{"malformed", "The action does not decode."};
    std::string text = castle::FormatAction(typed->game(), *action);
    if (auto error = typed->ApplyAction(actor, *action, nullptr)) return *std::move(error);
    return text;
  }
  EncodedStep EncodeLastStep(const core::State& state) const override {
    const castle::CastleState* typed = castle::StateOf(state);
    assert(typed != nullptr && "a State of another rule set");
    EncodedStep step;
    if (typed->last_action()) step.action = ToProto(*typed->last_action()).SerializeAsString();
    for (const castle::Event& e : typed->last_events()) {
      step.events.push_back(ToProto(e, state.Players()).SerializeAsString());
    }
    return step;
  }
  std::string ResultJson(const core::State& state) const override;

  std::unique_ptr<PublicView> DecodeState(
      std::string_view bytes, std::shared_ptr<const core::TileSet> tiles) const override {
    const auto message = Parse<cv1::PublicState>(bytes);
    if (!message || tiles == nullptr) return nullptr;
    std::optional<castle_wire::DecodedState> decoded = FromProto(*message);
    if (!decoded || !StateFitsTiles(decoded->state, *tiles)) return nullptr;
    return std::make_unique<CastleView>(*std::move(decoded), std::move(tiles));
  }
  std::optional<std::string> DescribeAction(const PublicView& view,
                                            std::string_view bytes) const override {
    const auto* castle_view = dynamic_cast<const CastleView*>(&view);
    const auto message = Parse<cv1::Action>(bytes);
    const std::optional<castle::Action> action = message ? FromProto(*message) : std::nullopt;
    if (castle_view == nullptr || !action) return std::nullopt;
    return castle::FormatAction(castle_view->LastPlaced(),
                                castle_view->TileAt(action->x, action->y), *action);
  }
  std::optional<std::string> DescribeEvent(std::string_view bytes) const override;
};

// The seats an event's per-seat lists speak of; an event without them fits any game, so it is
// read with the most seats the engine knows.
int SeatsOf(const cv1::Event& event) {
  switch (event.kind_case()) {
    case cv1::Event::kFeatureScored:
      return event.feature_scored().points_size();
    case cv1::Event::kKeepScored:
      return event.keep_scored().points_size();
    case cv1::Event::kGameOver:
      return event.game_over().scores_size();
    default:
      return core::kMaxPlayers;
  }
}

std::optional<std::string> Codec::DescribeEvent(std::string_view bytes) const {
  const auto message = Parse<cv1::Event>(bytes);
  if (!message) return std::nullopt;
  const std::optional<castle::Event> event = FromProto(*message, SeatsOf(*message));
  if (!event) return std::nullopt;
  return castle::FormatEvent(*event);
}

// Like the other games' results: each seat's total, the winners (every seat with the best
// total, as the rule book shares a tie), and the totals by source (castle::Source's order).
std::string Codec::ResultJson(const core::State& state) const {
  const castle::Game& game = GameIn(state);
  nlohmann::json scores = nlohmann::json::array();
  nlohmann::json by_source = nlohmann::json::array();
  int best = 0;
  for (int p = 0; p < game.players(); ++p) {
    scores.push_back(game.TotalScore(p));
    best = std::max(best, game.TotalScore(p));
    nlohmann::json sources = nlohmann::json::array();
    for (int s = 0; s < castle::kSourceCount; ++s) {
      sources.push_back(game.Score(p, static_cast<castle::Source>(s)));
    }
    by_source.push_back(std::move(sources));
  }
  nlohmann::json winners = nlohmann::json::array();
  for (int p = 0; p < game.players(); ++p) {
    if (game.TotalScore(p) == best) winners.push_back(p);
  }
  nlohmann::json result;
  result["scores"] = std::move(scores);
  result["winners"] = std::move(winners);
  result["by_source"] = std::move(by_source);
  result["state_hash"] = game.Hash();
  return result.dump();
}

}  // namespace

const GameCodec& CastleCodec() {
  static const Codec codec;
  return codec;
}

const castle::PublicState* CastleStateOf(const PublicView& view) {
  const auto* castle = dynamic_cast<const CastleView*>(&view);
  return castle != nullptr ? &castle->state() : nullptr;
}

const castle_wire::Board* CastleBoardOf(const PublicView& view) {
  const auto* castle = dynamic_cast<const CastleView*>(&view);
  return castle != nullptr ? &castle->board() : nullptr;
}

}  // namespace carc::protocol
