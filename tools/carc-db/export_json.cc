#include "export_json.h"

#include <cstdio>
#include <ctime>

#include "core/notation.h"

namespace carc::db {

using json = nlohmann::ordered_json;

std::string IsoTime(int64_t ms, bool with_ms) {
  // Floor division, so that times before 1970 still print their own second.
  int64_t seconds = ms / 1000;
  int64_t millis = ms % 1000;
  if (millis < 0) {
    millis += 1000;
    --seconds;
  }
  const std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[64];
  const size_t n = std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%S", &tm);
  std::string out(text, n);
  if (with_ms) {
    std::snprintf(text, sizeof(text), ".%03d", static_cast<int>(millis));
    out += text;
  }
  return out + "Z";
}

std::string HexHash(uint64_t hash) {
  char text[19];
  std::snprintf(text, sizeof(text), "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

json SeatsToJson(const persistence::GameRecord& game) {
  json seats = json::array();
  for (const persistence::SeatRecord& seat : game.seat_records) {
    seats.push_back({{"seat", seat.seat}, {"player_name", seat.player_name}});
  }
  return seats;
}

json ResultToJson(const std::string& result) {
  if (result.empty()) return nullptr;
  json parsed = json::parse(result, nullptr, /*allow_exceptions=*/false);
  return parsed.is_discarded() ? json(result) : parsed;
}

namespace {

json ActionToJson(const persistence::ActionRecord& action) {
  return {{"sequence", action.sequence},
          {"seat", action.seat},
          {"actor", core::FormatActor(static_cast<core::Actor>(action.seat))},
          {"action", action.action},
          {"state_hash", HexHash(action.state_hash)},
          {"time", IsoTime(action.time_ms, true)}};
}

}  // namespace

json GameToJson(const persistence::StoredGame& stored) {
  const persistence::GameRecord& g = stored.game;
  json j = {{"format", "carc-game"},
            {"version", 1},
            {"game_id", persistence::GameId(g.number)},
            {"name", g.name},
            {"rule_set", g.rule_set},
            {"rule_set_version", g.rule_set_version},
            {"options", g.options},
            {"tileset", {{"id", g.tileset_id}, {"version", g.tileset_version}}},
            {"players", g.seats},
            // A decimal string: JSON readers that hold numbers as doubles would round a u64.
            {"seed", std::to_string(g.seed)},
            {"order", g.order},
            {"status", persistence::ToString(g.status)},
            {"created", IsoTime(g.created_ms, true)},
            {"finished", g.finished_ms ? json(IsoTime(g.finished_ms, true)) : json(nullptr)},
            {"seats", SeatsToJson(g)},
            {"result", ResultToJson(g.result)}};
  if (g.status == persistence::GameStatus::kDamaged) j["damage"] = g.damage;
  json actions = json::array();
  for (const persistence::ActionRecord& action : stored.actions) {
    actions.push_back(ActionToJson(action));
  }
  j["actions"] = std::move(actions);
  j["final_state_hash"] =
      stored.actions.empty() ? json(nullptr) : json(HexHash(stored.actions.back().state_hash));
  return j;
}

std::string Dump(const json& value, int indent) {
  return value.dump(indent, ' ', false, json::error_handler_t::replace);
}

std::string ExportText(const json& game) {
  std::string out = "{";
  const char* separator = "\n";
  for (const auto& [key, value] : game.items()) {
    out += separator + std::string("  ") + Dump(json(key), -1) + ": ";
    separator = ",\n";
    if (key != "actions" || value.empty()) {
      out += Dump(value, -1);
      continue;
    }
    out += "[";
    for (size_t i = 0; i < value.size(); ++i)
      out += (i ? ",\n    " : "\n    ") + Dump(value[i], -1);
    out += "\n  ]";
  }
  return out + "\n}\n";
}

}  // namespace carc::db
