#include "protocol/follower.h"

#include <cstdio>
#include <utility>

namespace carc::protocol {
namespace {

// Every legal action in the game's notation, as it reads in `view`; nullopt at the first that
// does not decode.
std::optional<std::vector<std::string>> DescribeLegal(
    const GameCodec& codec, const PublicView& view,
    const google::protobuf::RepeatedPtrField<std::string>& legal) {
  std::vector<std::string> out;
  out.reserve(static_cast<size_t>(legal.size()));
  for (const std::string& bytes : legal) {
    auto text = codec.DescribeAction(view, bytes);
    if (!text) return std::nullopt;
    out.push_back(*std::move(text));
  }
  return out;
}

}  // namespace

Follower::Follower(const Follower& other)
    : codec_(other.codec_),
      view_(other.view_ ? other.view_->Clone() : nullptr),
      game_id_(other.game_id_),
      rule_set_(other.rule_set_),
      sequence_(other.sequence_),
      hash_(other.hash_),
      your_seat_(other.your_seat_),
      legal_wire_(other.legal_wire_),
      legal_(other.legal_),
      action_(other.action_),
      events_(other.events_) {}

Follower& Follower::operator=(const Follower& other) {
  if (this != &other) *this = Follower(other);
  return *this;
}

std::optional<std::string> Follower::Start(const wire::Snapshot& snapshot,
                                           std::shared_ptr<const core::TileSet> tiles) {
  const std::string where = "the snapshot of game '" + snapshot.game_id() + "' at sequence " +
                            std::to_string(snapshot.sequence());
  const GameCodec* codec = FindGameCodec(snapshot.rule_set());
  if (codec == nullptr) return where + ": no client knows rule set '" + snapshot.rule_set() + "'";
  auto view = codec->DecodeState(snapshot.state(), std::move(tiles));
  if (!view) return where + ": its state does not decode";
  auto legal = DescribeLegal(*codec, *view, snapshot.legal_actions());
  if (!legal) return where + ": a legal action does not decode";
  const uint64_t hash = view->Hash();
  if (hash != snapshot.state_hash()) {
    return where + ": its state hashes to " + HashHex(hash) + ", the server says " +
           HashHex(snapshot.state_hash());
  }
  codec_ = codec;
  view_ = std::move(view);
  game_id_ = snapshot.game_id();
  rule_set_ = snapshot.rule_set();
  sequence_ = snapshot.sequence();
  hash_ = hash;
  your_seat_.reset();
  if (snapshot.has_your_seat()) your_seat_ = static_cast<int>(snapshot.your_seat());
  legal_wire_.assign(snapshot.legal_actions().begin(), snapshot.legal_actions().end());
  legal_ = *std::move(legal);
  action_.reset();
  events_.clear();
  return std::nullopt;
}

std::optional<std::string> Follower::Apply(const wire::Delta& delta) {
  const std::string where = "delta " + std::to_string(delta.sequence());
  if (!view_) return where + " of game '" + delta.game_id() + "' before any snapshot";
  if (delta.game_id() != game_id_) {
    return where + " is of game '" + delta.game_id() + "', not '" + game_id_ + "'";
  }
  if (delta.sequence() <= sequence_) {
    return where + " again: the state is at sequence " + std::to_string(sequence_) + " already";
  }
  if (delta.sequence() != sequence_ + 1) {
    return "a gap: " + where + " after sequence " + std::to_string(sequence_);
  }
  // The action reads as it did before it was applied (a follower names a feature of the tile
  // placed before it).
  auto action = codec_->DescribeAction(*view_, delta.action());
  if (!action) return where + ": its action does not decode";
  std::unique_ptr<PublicView> next = view_->Clone();
  for (int i = 0; i < delta.events_size(); ++i) {
    if (!next->ApplyEvent(delta.events(i))) {
      return where + ": event " + std::to_string(i) + " does not decode";
    }
  }
  auto legal = DescribeLegal(*codec_, *next, delta.legal_actions());
  if (!legal) return where + ": a legal action does not decode";
  const uint64_t hash = next->Hash();
  if (hash != delta.state_hash()) {
    return "the state after " + where + " hashes to " + HashHex(hash) + ", the server says " +
           HashHex(delta.state_hash());
  }
  view_ = std::move(next);
  sequence_ = delta.sequence();
  hash_ = hash;
  legal_wire_.assign(delta.legal_actions().begin(), delta.legal_actions().end());
  legal_ = *std::move(legal);
  action_ = *std::move(action);
  events_.assign(delta.events().begin(), delta.events().end());
  return std::nullopt;
}

std::string HashHex(uint64_t hash) {
  char text[20];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

}  // namespace carc::protocol
