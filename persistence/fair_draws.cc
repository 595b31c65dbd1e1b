#include "fair_draws.h"

#include <cassert>
#include <charconv>

#include "token.h"

namespace carc::persistence {
namespace {

constexpr std::string_view kHeader = "carc-draws 1";

std::string Hex(const uint8_t* bytes, size_t size) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text;
  text.reserve(size * 2);
  for (size_t i = 0; i < size; ++i) {
    text += kDigits[bytes[i] >> 4];
    text += kDigits[bytes[i] & 0xf];
  }
  return text;
}

bool IsLowerHex(std::string_view text) {
  return text.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

// Splits the text into its lines; the text must end with a newline.
std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    if (end == std::string_view::npos) break;
    lines.push_back(text.substr(0, end));
    text.remove_prefix(end + 1);
  }
  if (!text.empty()) lines.emplace_back();  // a last line without its newline: never canonical
  return lines;
}

// The rest of `line` after "<key> ", or nullopt.
std::optional<std::string_view> After(std::string_view line, std::string_view key) {
  if (line.size() <= key.size() || line.substr(0, key.size()) != key || line[key.size()] != ' ') {
    return std::nullopt;
  }
  return line.substr(key.size() + 1);
}

template <typename Number>
std::optional<Number> ParseNumber(std::string_view text) {
  Number value{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

std::optional<std::vector<int>> ParseOrder(std::string_view text) {
  std::vector<int> order;
  while (!text.empty()) {
    const size_t end = std::min(text.find(' '), text.size());
    const auto tile = ParseNumber<int>(text.substr(0, end));
    if (!tile || *tile < 0) return std::nullopt;
    order.push_back(*tile);
    text.remove_prefix(std::min(end + 1, text.size()));
  }
  if (order.empty()) return std::nullopt;
  return order;
}

std::string JoinOrder(const std::vector<int>& order) {
  std::string text;
  for (size_t i = 0; i < order.size(); ++i) {
    if (i) text += ' ';
    text += std::to_string(order[i]);
  }
  return text;
}

// Where two orders first differ, for the message of a refused order.
size_t FirstDifference(const std::vector<int>& a, const std::vector<int>& b) {
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  return i;
}

// A state hash as 16 lowercase hex digits, most significant first.
std::string HashHex(uint64_t hash) {
  uint8_t bytes[8];
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<uint8_t>(hash >> (56 - 8 * i));
  return Hex(bytes, sizeof(bytes));
}

std::string Lower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'F') c = static_cast<char>(c - 'A' + 'a');
  }
  return lower;
}

}  // namespace

std::string Sha256Hex(std::string_view text) {
  const TokenHash hash = HashToken(text);  // SHA-256
  return Hex(hash.data(), hash.size());
}

std::string FormatDrawProof(const DrawProof& proof) {
  return std::string(kHeader) + "\nrule-set " + proof.rule_set + " " +
         std::to_string(proof.rule_set_version) + "\nseed " + std::to_string(proof.seed) +
         "\norder " + JoinOrder(proof.order) + "\nsalt " + proof.salt + "\n";
}

std::variant<DrawProof, std::string> ParseDrawProof(std::string_view text) {
  const std::vector<std::string_view> lines = Lines(text);
  if (lines.size() != 5 || lines[0] != kHeader) {
    return std::string("a proof has five lines, the first '") + std::string(kHeader) + "'";
  }
  DrawProof proof;
  const auto rule_set = After(lines[1], "rule-set");
  const size_t space = rule_set ? rule_set->rfind(' ') : std::string_view::npos;
  const auto version = space == std::string_view::npos
                           ? std::nullopt
                           : ParseNumber<int>(rule_set->substr(space + 1));
  if (!version || space == 0) return std::string("line 2 is not 'rule-set <id> <version>'");
  proof.rule_set = std::string(rule_set->substr(0, space));
  proof.rule_set_version = *version;
  const auto seed_text = After(lines[2], "seed");
  const auto seed = seed_text ? ParseNumber<uint64_t>(*seed_text) : std::nullopt;
  if (!seed) return std::string("line 3 is not 'seed <number>'");
  proof.seed = *seed;
  const auto order_text = After(lines[3], "order");
  auto order = order_text ? ParseOrder(*order_text) : std::nullopt;
  if (!order) return std::string("line 4 is not 'order <tile ids>'");
  proof.order = std::move(*order);
  const auto salt = After(lines[4], "salt");
  if (!salt || salt->size() != 32 || !IsLowerHex(*salt)) {
    return std::string("line 5 is not 'salt <32 hex digits>'");
  }
  proof.salt = std::string(*salt);
  // Only the canonical text: one proof, one commitment.
  if (FormatDrawProof(proof) != text) return std::string("the proof is not in canonical form");
  return proof;
}

DrawCommitment CommitToDraws(const core::GameType& type, uint64_t seed, std::vector<int> order,
                             const DrawSalt& salt) {
  DrawProof proof{type.id, type.version, seed, std::move(order), Hex(salt.data(), salt.size())};
  std::string text = FormatDrawProof(proof);
  return DrawCommitment{Sha256Hex(text), std::move(text)};
}

std::variant<FairDraws, std::string> VerifyDraws(const core::RuleSet& rules, int players,
                                                 const core::Options& options,
                                                 std::string_view commitment,
                                                 std::string_view proof_text, size_t actions,
                                                 const ApplyLogged& apply,
                                                 const LoggedHash& logged_hash) {
  if (commitment.empty()) {
    return std::string(
        "the game has no draw commitment (it has not started, or started before "
        "the server committed to draws)");
  }
  if (proof_text.empty()) return std::string("the proof is not revealed: the game is not over");
  const std::string hash = Sha256Hex(proof_text);
  if (hash != Lower(commitment)) {
    return "the proof does not match the commitment: its SHA-256 is " + hash +
           ", the commitment is " + std::string(commitment);
  }
  auto parsed = ParseDrawProof(proof_text);
  if (auto* why = std::get_if<std::string>(&parsed)) return "the proof is malformed: " + *why;
  const DrawProof& proof = std::get<DrawProof>(parsed);
  const core::GameType& type = rules.Type();
  if (proof.rule_set != type.id || proof.rule_set_version != type.version) {
    return "the proof names rule set " + proof.rule_set + " version " +
           std::to_string(proof.rule_set_version) + "; the game is played by " + type.id +
           " version " + std::to_string(type.version);
  }
  auto dealt = rules.NewGame(players, options, proof.seed);
  if (auto* error = std::get_if<core::RuleError>(&dealt)) {
    return "the game cannot be set up again: " + error->message;
  }
  const std::vector<int> order = std::get<std::unique_ptr<core::State>>(dealt)->Order();
  if (order != proof.order) {
    return "the committed order is not the one " + type.id + " deals from seed " +
           std::to_string(proof.seed) + " (they differ at position " +
           std::to_string(FirstDifference(order, proof.order) + 1) + ")";
  }
  auto created = rules.NewGameWithOrder(players, options, proof.seed, proof.order);
  if (auto* error = std::get_if<core::RuleError>(&created)) {
    return "the game cannot be set up again: " + error->message;
  }
  core::State& game = *std::get<std::unique_ptr<core::State>>(created);
  FairDraws fair;
  for (size_t i = 0; i < actions; ++i) {
    const bool draw = game.CurrentActor() == core::kChanceActor;
    const std::string next = draw ? game.LegalActions().front() : std::string();
    if (auto refused = apply(game, i)) {
      if (draw) {
        return "step " + std::to_string(i + 1) +
               ": the draw is not the committed order's next tile ('" + next + "'): " + *refused;
      }
      return "step " + std::to_string(i + 1) + ": " + *refused;
    }
    if (logged_hash) {
      const uint64_t logged = logged_hash(i);
      if (game.Hash() != logged) {
        return "step " + std::to_string(i + 1) + ": the state hash after it is " + HashHex(logged) +
               ", the engine's on the committed seed and order " + HashHex(game.Hash()) +
               " (the game was not played on what the seed lays, such as The Castle's wall "
               "tiles, or its record was changed)";
      }
    }
    if (draw) ++fair.draws;
  }
  return fair;
}

}  // namespace carc::persistence
