// A stored game as "carc-game" JSON, version 1 (docs/formats.md): its set-up, seats (names
// only, never token hashes), status, result and every action with its state hash.
//
// The export is what is stored, as it is stored: it does not replay the game, so a damaged game
// exports too (`carc replay` then finds where it goes wrong). Times are ISO 8601 UTC.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "persistence/store.h"

namespace carc::db {

// "2024-05-01T12:00:00.123Z" (with_ms) or "2024-05-01T12:00:00Z", from Unix milliseconds.
std::string IsoTime(int64_t ms, bool with_ms);
// A state hash as 16 hex digits, as the engine's tools print it.
std::string HexHash(uint64_t hash);
// The seats of a game: [{"seat":0,"player_name":"..."}, ...].
nlohmann::ordered_json SeatsToJson(const persistence::GameRecord& game);
// The stored result JSON as a value; null when there is none, the text itself if it is not JSON.
nlohmann::ordered_json ResultToJson(const std::string& result);

nlohmann::ordered_json GameToJson(const persistence::StoredGame& stored);

// JSON as text; bytes that are not UTF-8 (a player name stored by another program) are replaced
// rather than failing the whole output.
std::string Dump(const nlohmann::ordered_json& value, int indent);
// An export as text: one member per line, the order on one line, one line per action.
std::string ExportText(const nlohmann::ordered_json& game);

}  // namespace carc::db
