#include "game_json.h"

#include <cassert>
#include <cctype>
#include <charconv>
#include <nlohmann/json.hpp>

#include "city/notation.h"

namespace carc::tool {
namespace {

using nlohmann::json;

// Reads members of the document, remembering the first problem; every reader returns a
// harmless default once something is wrong, so callers check `error` once at the end of a step.
class Reader {
 public:
  std::string error;

  const json* Member(const json& object, const std::string& where, const char* key) {
    const std::string name = where.empty() ? key : where + "." + key;
    if (!error.empty()) return nullptr;
    const auto it = object.find(key);
    if (it == object.end()) {
      error = name + ": missing";
      return nullptr;
    }
    return &*it;
  }

  std::string String(const json& object, const std::string& where, const char* key) {
    const json* value = Member(object, where, key);
    if (value && !value->is_string()) Fail(where, key, "expected a string");
    return value && error.empty() ? value->get<std::string>() : std::string();
  }

  int64_t Integer(const json& object, const std::string& where, const char* key) {
    const json* value = Member(object, where, key);
    if (value && !value->is_number_integer()) Fail(where, key, "expected an integer");
    return value && error.empty() ? value->get<int64_t>() : 0;
  }

  const json& Array(const json& object, const std::string& where, const char* key) {
    static const json empty = json::array();
    const json* value = Member(object, where, key);
    if (value && !value->is_array()) Fail(where, key, "expected an array");
    return value && error.empty() ? *value : empty;
  }

  void Fail(const std::string& where, const char* key, const std::string& what) {
    if (error.empty()) error = (where.empty() ? key : where + "." + key) + ": " + what;
  }
};

std::optional<uint64_t> ParseHex16(const std::string& text) {
  uint64_t value = 0;
  if (text.size() != 16) return std::nullopt;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, 16);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

void ReadHeader(const json& doc, Reader& r, GameJson* out) {
  if (r.String(doc, "", "format") != "carc-game") r.Fail("", "format", "expected \"carc-game\"");
  if (r.Integer(doc, "", "version") != 1) r.Fail("", "version", "expected 1 (the only version)");
  if (r.String(doc, "", "rule_set") != "the-city") r.Fail("", "rule_set", "expected \"the-city\"");
  city::Transcript& t = out->transcript;
  const int64_t players = r.Integer(doc, "", "players");
  if (players < 2 || players > 4) r.Fail("", "players", "expected 2 to 4");
  t.players = static_cast<int>(players);
  const std::string seed = r.String(doc, "", "seed");
  const auto [end, ec] = std::from_chars(seed.data(), seed.data() + seed.size(), t.seed);
  if (ec != std::errc() || end != seed.data() + seed.size()) {
    r.Fail("", "seed", "expected an unsigned 64-bit number as a decimal string");
  }
  const json* tileset = r.Member(doc, "", "tileset");
  if (tileset && !tileset->is_object()) r.Fail("", "tileset", "expected an object");
  if (r.error.empty()) {
    t.tileset_id = r.String(*tileset, "tileset", "id");
    t.tileset_version = static_cast<int>(r.Integer(*tileset, "tileset", "version"));
  }
  std::vector<int> order;
  for (const json& tile : r.Array(doc, "", "order")) {
    if (!tile.is_number_integer()) r.Fail("", "order", "expected tile ids");
    if (r.error.empty()) order.push_back(tile.get<int>());
  }
  // A game that never started has no order: its set-up comes from the seed alone.
  if (!order.empty()) t.order = std::move(order);
}

void ReadAction(const json& action, size_t index, Reader& r, GameJson* out) {
  const std::string where = "actions[" + std::to_string(index) + "]";
  if (!action.is_object()) {
    r.Fail("", where.c_str(), "expected an object");
    return;
  }
  if (r.Integer(action, where, "sequence") != static_cast<int64_t>(index + 1)) {
    r.Fail(where, "sequence", "expected " + std::to_string(index + 1) + " (no gaps)");
  }
  const int64_t seat = r.Integer(action, where, "seat");
  if (seat < -1 || seat > 3) r.Fail(where, "seat", "expected -1 (chance) or a player 0 to 3");
  const std::string actor = city::FormatActor(static_cast<city::Actor>(seat));
  if (action.contains("actor") && action["actor"] != actor) {
    r.Fail(where, "actor", "expected \"" + actor + "\" for seat " + std::to_string(seat));
  }
  const std::string text = r.String(action, where, "action");
  if (r.error.empty() && text.empty()) r.Fail(where, "action", "empty");
  const auto hash = ParseHex16(r.String(action, where, "state_hash"));
  if (!hash) r.Fail(where, "state_hash", "expected 16 hex digits");
  if (!r.error.empty()) return;
  out->transcript.actions.push_back({static_cast<int>(index + 1), actor + " " + text});
  out->sequences.push_back(index + 1);
  out->state_hashes.push_back(*hash);
}

}  // namespace

bool LooksLikeJson(std::string_view text) {
  for (const char c : text) {
    if (!std::isspace(static_cast<unsigned char>(c))) return c == '{';
  }
  return false;
}

std::variant<GameJson, std::string> ParseGameJson(std::string_view text) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    // "[json.exception.parse_error.101] parse error at line 1, column 11: ..." without the tag.
    const std::string what = e.what();
    return "not valid JSON: " + what.substr(what.find(']') + 2);
  }
  if (!doc.is_object()) return std::string("expected a JSON object");
  Reader r;
  GameJson out;
  ReadHeader(doc, r, &out);
  const json& actions = r.Array(doc, "", "actions");
  for (size_t i = 0; i < actions.size() && r.error.empty(); ++i) {
    ReadAction(actions[i], i, r, &out);
  }
  const json* final_hash = r.Member(doc, "", "final_state_hash");
  if (final_hash && !final_hash->is_null()) {
    out.final_state_hash =
        ParseHex16(final_hash->is_string() ? final_hash->get<std::string>() : "");
    if (!out.final_state_hash) r.Fail("", "final_state_hash", "expected 16 hex digits or null");
  }
  if (!r.error.empty()) return r.error;
  return out;
}

std::optional<HashMismatch> FindHashMismatch(const city::Game& replayed, const GameJson& exported) {
  auto created = city::Game::CreateWithOrder(replayed.shared_tiles(), replayed.config(),
                                             replayed.seed(), replayed.Order());
  // The replayed game was created from this very set-up, so it creates again.
  city::Game game = std::get<city::Game>(std::move(created));
  const auto& history = replayed.History();
  for (size_t i = 0; i < history.size() && i < exported.state_hashes.size(); ++i) {
    city::Game before = game;
    [[maybe_unused]] const auto error = game.Apply(history[i].actor, history[i].action, nullptr);
    assert(!error && "the history of a game applies again");
    if (game.Hash() != exported.state_hashes[i]) {
      return HashMismatch{i, std::move(before), game.Hash()};
    }
  }
  return std::nullopt;
}

}  // namespace carc::tool
