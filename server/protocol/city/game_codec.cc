#include "protocol/city/game_codec.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <utility>

#include "city/notation.h"
#include "city/rule_set.h"
#include "protocol/city/codec.h"
#include "protocol/view_checks.h"

namespace carc::protocol {
namespace {

template <typename Message>
std::optional<Message> Parsed(std::string_view bytes) {
  Message message;
  if (!message.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return std::nullopt;
  return message;
}

const city::CityState& Typed(const core::State& state) {
  const city::CityState* typed = city::StateOf(state);
  assert(typed != nullptr && "a State of another rule set given to The City's codec");
  return *typed;
}

std::optional<city::Action> DecodeAction(std::string_view bytes) {
  const auto message = Parsed<citypb::Action>(bytes);
  return message ? FromProto(*message) : std::nullopt;
}

class CityView final : public PublicView {
 public:
  CityView(city::PublicState state, std::shared_ptr<const core::TileSet> tiles)
      : state_(std::move(state)), tiles_(std::move(tiles)) {}

  std::unique_ptr<PublicView> Clone() const override { return std::make_unique<CityView>(*this); }
  bool ApplyEvent(std::string_view bytes) override {
    const auto message = Parsed<citypb::Event>(bytes);
    const auto event = message ? FromProto(*message) : std::nullopt;
    if (!event || !Fits(*event)) return false;
    state_.Apply(*event);
    return true;
  }
  uint64_t Hash() const override { return state_.Hash(); }
  core::Actor Actor() const override {
    const city::Decision& decision = state_.counters.decision;
    return decision.kind == city::DecisionKind::kNone ? core::kNoActor : decision.actor;
  }
  std::vector<int> Scores() const override {
    std::vector<int> out;
    for (int p = 0; p < state_.config.players; ++p) {
      int total = 0;
      for (const int points : state_.counters.player[static_cast<size_t>(p)].score) total += points;
      out.push_back(total);
    }
    return out;
  }

  const city::PublicState& state() const { return state_; }
  // Whether PublicState::Apply may reduce `event` on this state: its tiles and seats are the
  // game's, a returned follower stands where it says, a guard goes on a piece that is built.
  bool Fits(const city::Event& event) const {
    if (!EventFitsTiles(event, *tiles_) || !EventFitsSeats(event, state_.config.players)) {
      return false;
    }
    if (const auto* returned = std::get_if<city::FollowerReturned>(&event)) {
      const city::PublicFollower f{returned->player, returned->x, returned->y, returned->feature};
      return std::binary_search(state_.followers.begin(), state_.followers.end(), f);
    }
    if (const auto* guard = std::get_if<city::GuardPlaced>(&event)) return IsBuilt(*guard);
    return true;
  }
  const core::TileType* LastPlaced() const {
    if (state_.tiles.empty()) return nullptr;
    return &tiles_->TypeOf(state_.tiles.back().tile);
  }

 private:
  bool IsBuilt(const city::GuardPlaced& guard) const {
    const auto here = [&guard](const city::WallPiece& piece) {
      return piece.x == guard.x && piece.y == guard.y && piece.side == guard.side;
    };
    if (state_.has_gate && here(state_.gate)) return true;
    return std::ranges::any_of(
        state_.pieces, [&here](const auto& side) { return std::ranges::any_of(side, here); });
  }

  city::PublicState state_;
  std::shared_ptr<const core::TileSet> tiles_;
};

class Codec final : public GameCodec {
 public:
  std::string_view RuleSetId() const override { return city::kRuleSetId; }

  std::string EncodeState(const core::State& state) const override {
    return ToProto(Typed(state).game().Public()).SerializeAsString();
  }
  std::vector<std::string> EncodeLegalActions(const core::State& state) const override {
    std::vector<city::Action> legal;
    Typed(state).game().LegalActions(&legal);
    std::vector<std::string> out;
    out.reserve(legal.size());
    for (const city::Action& a : legal) out.push_back(ToProto(a).SerializeAsString());
    return out;
  }
  std::variant<std::string, core::RuleError> ApplyEncoded(core::State& state, core::Actor actor,
                                                          std::string_view bytes) const override {
    city::CityState* typed = city::StateOf(state);
    assert(typed != nullptr && "a State of another rule set given to The City's codec");
    const auto action = DecodeAction(bytes);
    if (!action) return core::RuleError{"malformed", "The action does not decode."};
    std::string text = city::FormatAction(typed->game(), *action);
    if (auto error = typed->ApplyAction(actor, *action, nullptr)) return *std::move(error);
    return text;
  }
  EncodedStep EncodeLastStep(const core::State& state) const override {
    const city::CityState& typed = Typed(state);
    EncodedStep step;
    if (typed.last_action()) step.action = ToProto(*typed.last_action()).SerializeAsString();
    for (const city::Event& e : typed.last_events()) {
      step.events.push_back(ToProto(e, typed.Players()).SerializeAsString());
    }
    return step;
  }
  std::string ResultJson(const core::State& state) const override;

  std::unique_ptr<PublicView> DecodeState(
      std::string_view bytes, std::shared_ptr<const core::TileSet> tiles) const override {
    const auto message = Parsed<citypb::PublicState>(bytes);
    auto state = message ? FromProto(*message) : std::nullopt;
    if (!state || tiles == nullptr) return nullptr;
    if (!StateFitsTiles(*state, *tiles)) return nullptr;
    return std::make_unique<CityView>(*std::move(state), std::move(tiles));
  }
  std::optional<std::string> DescribeAction(const PublicView& view,
                                            std::string_view bytes) const override {
    const auto* city_view = dynamic_cast<const CityView*>(&view);
    const auto action = DecodeAction(bytes);
    if (city_view == nullptr || !action) return std::nullopt;
    return city::FormatAction(city_view->LastPlaced(), *action);
  }
  std::optional<std::string> DescribeEvent(std::string_view bytes) const override {
    const auto message = Parsed<citypb::Event>(bytes);
    const auto event = message ? FromProto(*message) : std::nullopt;
    if (!event) return std::nullopt;
    return city::FormatEvent(*event);
  }
};

// Scores by source, winners, how it ended: what `carc-db show` and exports print.
std::string Codec::ResultJson(const core::State& state) const {
  const city::Game& game = Typed(state).game();
  nlohmann::json result;
  result["ended_by"] = city::ToString(game.EndedBy());
  nlohmann::json scores = nlohmann::json::array();
  int best = 0;
  for (int p = 0; p < game.players(); ++p) {
    nlohmann::json s;
    s["seat"] = p;
    for (int src = 0; src < city::kSourceCount; ++src) {
      const auto source = static_cast<city::Source>(src);
      s[city::ToString(source)] = game.Score(p, source);
    }
    s["total"] = game.TotalScore(p);
    best = std::max(best, game.TotalScore(p));
    scores.push_back(s);
  }
  result["scores"] = scores;
  nlohmann::json winners = nlohmann::json::array();
  for (int p = 0; p < game.players(); ++p) {
    if (game.TotalScore(p) == best) winners.push_back(p);
  }
  result["winners"] = winners;
  result["state_hash"] = game.Hash();
  return result.dump();
}

}  // namespace

const GameCodec& CityCodec() {
  static const Codec codec;
  return codec;
}

const city::PublicState* CityStateOf(const PublicView& view) {
  const auto* city_view = dynamic_cast<const CityView*>(&view);
  return city_view != nullptr ? &city_view->state() : nullptr;
}

}  // namespace carc::protocol
