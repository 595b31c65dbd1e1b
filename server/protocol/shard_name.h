// A shard's name, and the shard a game id names (docs/protocol.md, section 1): one rule for the
// server, which makes and checks the ids, and for its clients, which route a game by its id.
#pragma once

#include <string_view>

namespace carc::protocol {

// A lowercase letter, then at most 15 lowercase letters or digits.
inline bool ValidShardName(std::string_view name) {
  if (name.empty() || name.size() > 16 || name.front() < 'a' || name.front() > 'z') return false;
  for (const char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return false;
  }
  return true;
}

// The shard `id` names: what stands before its first dash, if that is a valid shard name ("b"
// for "b-g12"); empty for an id that names none ("g12", a server alone's) or that no shard made.
inline std::string_view ShardNamedBy(std::string_view id) {
  const size_t dash = id.find('-');
  if (dash == std::string_view::npos) return {};
  const std::string_view shard = id.substr(0, dash);
  return ValidShardName(shard) ? shard : std::string_view{};
}

}  // namespace carc::protocol
