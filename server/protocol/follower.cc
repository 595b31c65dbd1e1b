#include "protocol/follower.h"

#include <cstdio>
#include <utility>

#include "protocol/codec.h"

namespace carc::protocol {
namespace {

// Decodes every legal action into `decoded`; false at the first that does not decode.
bool DecodeLegal(const google::protobuf::RepeatedPtrField<v1::Action>& legal,
                 std::vector<city::Action>* decoded) {
  decoded->reserve(static_cast<size_t>(legal.size()));
  for (const v1::Action& a : legal) {
    const auto action = FromProto(a);
    if (!action) return false;
    decoded->push_back(*action);
  }
  return true;
}

}  // namespace

std::optional<std::string> Follower::Start(const v1::Snapshot& snapshot) {
  const std::string where = "the snapshot of game '" + snapshot.game_id() + "' at sequence " +
                            std::to_string(snapshot.sequence());
  auto state = FromProto(snapshot.state());
  if (!state) return where + ": its state does not decode";
  std::vector<city::Action> legal;
  if (!DecodeLegal(snapshot.legal_actions(), &legal)) {
    return where + ": a legal action does not decode";
  }
  const uint64_t hash = state->Hash();
  if (hash != snapshot.state_hash()) {
    return where + ": its state hashes to " + HashHex(hash) + ", the server says " +
           HashHex(snapshot.state_hash());
  }
  state_ = std::move(state);
  game_id_ = snapshot.game_id();
  sequence_ = snapshot.sequence();
  hash_ = hash;
  your_seat_.reset();
  if (snapshot.has_your_seat()) your_seat_ = static_cast<int>(snapshot.your_seat());
  legal_wire_.assign(snapshot.legal_actions().begin(), snapshot.legal_actions().end());
  legal_ = std::move(legal);
  action_.reset();
  events_.clear();
  return std::nullopt;
}

std::optional<std::string> Follower::Apply(const v1::Delta& delta) {
  const std::string where = "delta " + std::to_string(delta.sequence());
  if (!state_) return where + " of game '" + delta.game_id() + "' before any snapshot";
  if (delta.game_id() != game_id_) {
    return where + " is of game '" + delta.game_id() + "', not '" + game_id_ + "'";
  }
  if (delta.sequence() <= sequence_) {
    return where + " again: the state is at sequence " + std::to_string(sequence_) + " already";
  }
  if (delta.sequence() != sequence_ + 1) {
    return "a gap: " + where + " after sequence " + std::to_string(sequence_);
  }
  auto action = FromProto(delta.action());
  if (!action) return where + ": its action does not decode";
  std::vector<city::Event> events;
  events.reserve(static_cast<size_t>(delta.events_size()));
  for (int i = 0; i < delta.events_size(); ++i) {
    auto event = FromProto(delta.events(i));
    if (!event) return where + ": event " + std::to_string(i) + " does not decode";
    events.push_back(*event);
  }
  std::vector<city::Action> legal;
  if (!DecodeLegal(delta.legal_actions(), &legal)) {
    return where + ": a legal action does not decode";
  }
  city::PublicState next = *state_;
  for (const city::Event& e : events) next.Apply(e);
  const uint64_t hash = next.Hash();
  if (hash != delta.state_hash()) {
    return "the state after " + where + " hashes to " + HashHex(hash) + ", the server says " +
           HashHex(delta.state_hash());
  }
  *state_ = std::move(next);
  sequence_ = delta.sequence();
  hash_ = hash;
  legal_wire_.assign(delta.legal_actions().begin(), delta.legal_actions().end());
  legal_ = std::move(legal);
  action_ = action;
  events_ = std::move(events);
  return std::nullopt;
}

std::string HashHex(uint64_t hash) {
  char text[20];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

}  // namespace carc::protocol
