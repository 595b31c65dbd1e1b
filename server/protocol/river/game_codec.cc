#include "protocol/river/game_codec.h"

#include <algorithm>
#include <cassert>
#include <memory>
#include <nlohmann/json.hpp>
#include <numeric>
#include <utility>

#include "protocol/river/codec.h"
#include "protocol/view_checks.h"
#include "river/notation.h"
#include "river/rule_set.h"

namespace carc::protocol {
namespace {

namespace rv1 = ::carcassonne::river::v1;
using river_wire::FromProto;
using river_wire::ToProto;

// A message from bytes that are read whole; nullopt when they are not one.
template <typename Message>
std::optional<Message> Parse(std::string_view bytes) {
  Message message;
  if (!message.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return std::nullopt;
  return message;
}

// The game behind a State of this rule set. The server hands a codec only the States of its own
// rule set (the room picks the codec by the game's rule set id), so another is a bug.
const river::Game& GameIn(const core::State& state) {
  const river::Game* game = river::GameOf(state);
  assert(game != nullptr && "a State of another rule set");
  return *game;
}

// A client's copy of the public state, kept up to date by the events of each Delta.
class RiverView final : public PublicView {
 public:
  RiverView(river::PublicState state, std::shared_ptr<const core::TileSet> tiles)
      : state_(std::move(state)), tiles_(std::move(tiles)) {}

  const river::PublicState& state() const { return state_; }
  // The type of the tile placed last (a follower's notation names a feature of it); null
  // before the first.
  const core::TileType* LastPlaced() const {
    if (state_.tiles.empty()) return nullptr;
    return &tiles_->TypeOf(state_.tiles.back().tile);
  }

  std::unique_ptr<PublicView> Clone() const override { return std::make_unique<RiverView>(*this); }
  bool ApplyEvent(std::string_view bytes) override {
    const auto message = Parse<rv1::Event>(bytes);
    if (!message) return false;
    const std::optional<river::Event> event = FromProto(*message, state_.config.players);
    if (!event || !Fits(*event)) return false;
    state_.Apply(*event);
    return true;
  }
  uint64_t Hash() const override { return state_.Hash(); }
  core::Actor Actor() const override {
    if (state_.counters.over) return core::kNoActor;
    const river::Actor actor = state_.counters.decision.actor;
    return actor == river::kChance ? core::kChanceActor : actor;
  }
  std::vector<int> Scores() const override {
    std::vector<int> scores;
    for (int p = 0; p < state_.config.players; ++p) {
      const auto& score = state_.counters.player[static_cast<size_t>(p)].score;
      scores.push_back(std::accumulate(score.begin(), score.end(), 0));
    }
    return scores;
  }

 private:
  // Whether PublicState::Apply may reduce `event` on this state: its tiles and seats are the
  // game's, and a returned follower stands where the event says.
  bool Fits(const river::Event& event) const {
    if (!EventFitsTiles(event, *tiles_) || !EventFitsSeats(event, state_.config.players)) {
      return false;
    }
    const auto* returned = std::get_if<river::FollowerReturned>(&event);
    if (returned == nullptr) return true;
    const river::PublicFollower f{returned->player, returned->x, returned->y, returned->feature};
    return std::binary_search(state_.followers.begin(), state_.followers.end(), f);
  }

  river::PublicState state_;
  std::shared_ptr<const core::TileSet> tiles_;
};

class Codec final : public GameCodec {
 public:
  std::string_view RuleSetId() const override { return river::kRuleSetId; }

  std::string EncodeState(const core::State& state) const override {
    return ToProto(GameIn(state).Public()).SerializeAsString();
  }
  std::vector<std::string> EncodeLegalActions(const core::State& state) const override {
    std::vector<river::Action> legal;
    GameIn(state).LegalActions(&legal);
    std::vector<std::string> out;
    out.reserve(legal.size());
    for (const river::Action& a : legal) out.push_back(ToProto(a).SerializeAsString());
    return out;
  }
  std::variant<std::string, core::RuleError> ApplyEncoded(core::State& state, core::Actor actor,
                                                          std::string_view bytes) const override {
    river::RiverState* typed = river::StateOf(state);
    assert(typed != nullptr && "a State of another rule set");
    const auto message = Parse<rv1::Action>(bytes);
    const std::optional<river::Action> action = message ? FromProto(*message) : std::nullopt;
    if (!action) return core::RuleError{"malformed", "The action does not decode."};
    std::string text = river::FormatAction(typed->game(), *action);
    if (auto error = typed->ApplyAction(actor, *action, nullptr)) return *std::move(error);
    return text;
  }
  EncodedStep EncodeLastStep(const core::State& state) const override {
    const river::RiverState* typed = river::StateOf(state);
    assert(typed != nullptr && "a State of another rule set");
    EncodedStep step;
    if (typed->last_action()) step.action = ToProto(*typed->last_action()).SerializeAsString();
    for (const river::Event& e : typed->last_events()) {
      step.events.push_back(ToProto(e, state.Players()).SerializeAsString());
    }
    return step;
  }
  std::string ResultJson(const core::State& state) const override;

  std::unique_ptr<PublicView> DecodeState(
      std::string_view bytes, std::shared_ptr<const core::TileSet> tiles) const override {
    const auto message = Parse<rv1::PublicState>(bytes);
    if (!message || tiles == nullptr) return nullptr;
    std::optional<river::PublicState> state = FromProto(*message);
    if (!state) return nullptr;
    if (!StateFitsTiles(*state, *tiles)) return nullptr;
    return std::make_unique<RiverView>(std::move(*state), std::move(tiles));
  }
  std::optional<std::string> DescribeAction(const PublicView& view,
                                            std::string_view bytes) const override {
    const auto* river_view = dynamic_cast<const RiverView*>(&view);
    const auto message = Parse<rv1::Action>(bytes);
    const std::optional<river::Action> action = message ? FromProto(*message) : std::nullopt;
    if (river_view == nullptr || !action) return std::nullopt;
    return river::FormatAction(river_view->LastPlaced(), *action);
  }
  std::optional<std::string> DescribeEvent(std::string_view bytes) const override;
};

// The seats an event's points lists speak of; an event without points fits any game, so it is
// read with the most seats the engine knows.
int SeatsOf(const rv1::Event& event) {
  switch (event.kind_case()) {
    case rv1::Event::kFeatureScored:
      return event.feature_scored().points_size();
    case rv1::Event::kFieldScored:
      return event.field_scored().points_size();
    case rv1::Event::kGameOver:
      return event.game_over().scores_size();
    default:
      return core::kMaxPlayers;
  }
}

std::optional<std::string> Codec::DescribeEvent(std::string_view bytes) const {
  const auto message = Parse<rv1::Event>(bytes);
  if (!message) return std::nullopt;
  const std::optional<river::Event> event = FromProto(*message, SeatsOf(*message));
  if (!event) return std::nullopt;
  return river::FormatEvent(*event);
}

// In the spirit of The City's result (server/room/room.cc): each seat's total, the winners (every
// seat with the best total, as the rulebook shares a tie), and the totals by source.
std::string Codec::ResultJson(const core::State& state) const {
  const river::Game& game = GameIn(state);
  nlohmann::json scores = nlohmann::json::array();
  nlohmann::json by_source = nlohmann::json::array();
  int best = 0;
  for (int p = 0; p < game.players(); ++p) {
    scores.push_back(game.TotalScore(p));
    best = std::max(best, game.TotalScore(p));
    nlohmann::json sources = nlohmann::json::array();
    for (int s = 0; s < river::kSourceCount; ++s) {
      sources.push_back(game.Score(p, static_cast<river::Source>(s)));
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

const GameCodec& RiverCodec() {
  static const Codec codec;
  return codec;
}

const river::PublicState* RiverStateOf(const PublicView& view) {
  const auto* river = dynamic_cast<const RiverView*>(&view);
  return river != nullptr ? &river->state() : nullptr;
}

}  // namespace carc::protocol
