#include "schema.h"

#include <vector>

#include "store.h"

namespace carc::persistence {
namespace {

// Version 1. `actions` is keyed by `position`, a log position that only grows: many games
// writing at once all append at the right edge of one B-tree instead of touching one page per
// game (docs/persistence.md has the measurement). The unique index finds a game's actions in
// order and refuses a sequence number stored twice.
constexpr const char* kVersion1 = R"sql(
CREATE TABLE schema_version (version INTEGER NOT NULL);
INSERT INTO schema_version (version) VALUES (1);
CREATE TABLE games (
  number          INTEGER PRIMARY KEY AUTOINCREMENT,
  name            TEXT    NOT NULL,
  rule_set        TEXT    NOT NULL,
  tileset_id      TEXT    NOT NULL,
  tileset_version INTEGER NOT NULL,
  seats           INTEGER NOT NULL,
  seed            INTEGER NOT NULL,
  draw_order      TEXT    NOT NULL DEFAULT '',
  status          TEXT    NOT NULL,
  created_ms      INTEGER NOT NULL,
  updated_ms      INTEGER NOT NULL,
  result          TEXT    NOT NULL DEFAULT ''
);
CREATE TABLE seats (
  game        INTEGER NOT NULL REFERENCES games (number) ON DELETE CASCADE,
  seat        INTEGER NOT NULL,
  player_name TEXT    NOT NULL,
  token_hash  BLOB    NOT NULL,
  PRIMARY KEY (game, seat)
) WITHOUT ROWID;
CREATE TABLE actions (
  position   INTEGER PRIMARY KEY,
  game       INTEGER NOT NULL REFERENCES games (number) ON DELETE CASCADE,
  sequence   INTEGER NOT NULL,
  seat       INTEGER NOT NULL,
  action     TEXT    NOT NULL,
  state_hash INTEGER NOT NULL,
  time_ms    INTEGER NOT NULL
);
CREATE UNIQUE INDEX actions_by_game ON actions (game, sequence);
)sql";

// Version 2: when a game finished (housekeeping expires games by it), why a game is damaged,
// and an index to list games by status.
constexpr const char* kVersion2 = R"sql(
ALTER TABLE games ADD COLUMN finished_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN damage TEXT NOT NULL DEFAULT '';
UPDATE games SET finished_ms = updated_ms WHERE status = 'finished';
CREATE INDEX games_by_status ON games (status, finished_ms);
UPDATE schema_version SET version = 2;
)sql";

// Version 3: the version of each game's rule set and its options, so a game is always replayed by
// the rules it was played with. Every game stored before was played with version 1 of the only
// rule set there was, without options.
constexpr const char* kVersion3 = R"sql(
ALTER TABLE games ADD COLUMN rule_set_version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE games ADD COLUMN options TEXT NOT NULL DEFAULT '';
UPDATE schema_version SET version = 3;
)sql";

// Version 4, its part for bots, resigning and rematches: each seat's bot (its level; empty for a
// person) and whether its player resigned; each game's resign policy and its rematch links (game
// numbers; 0: none). A game resigned is status 'resigned'. Games stored before had no bots, and
// take the policy new games take by default.
constexpr const char* kVersion4Seats = R"sql(
ALTER TABLE seats ADD COLUMN bot TEXT NOT NULL DEFAULT '';
ALTER TABLE seats ADD COLUMN resigned INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN on_resign TEXT NOT NULL DEFAULT 'bot_takes_seat';
ALTER TABLE games ADD COLUMN rematch_of INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN rematch INTEGER NOT NULL DEFAULT 0;
)sql";

Status UpgradeV4Seats(Connection& db) { return db.Exec(kVersion4Seats); }

// Version 4, the chat and fair-draws part: each game's commitment to its drawing order and the
// proof that opens it (docs/fairness.md), whether its spectators may chat, and its chat lines.
Status UpgradeV4Chat(Connection& db) {
  return db.Exec(R"sql(
ALTER TABLE games ADD COLUMN draw_commitment TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN draw_proof TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN spectators_chat INTEGER NOT NULL DEFAULT 0;
CREATE TABLE chat (
  game           INTEGER NOT NULL REFERENCES games (number) ON DELETE CASCADE,
  number         INTEGER NOT NULL,
  seat           INTEGER NOT NULL,
  name           TEXT    NOT NULL,
  text           TEXT    NOT NULL,
  time_ms        INTEGER NOT NULL,
  after_sequence INTEGER NOT NULL,
  PRIMARY KEY (game, number)
) WITHOUT ROWID;
)sql");
}

// Version 4 is made of the parts of the features that came with it, each its own function.
Status UpgradeV4(Connection& db) {
  if (auto error = UpgradeV4Seats(db)) return error;
  if (auto error = UpgradeV4Chat(db)) return error;
  return db.Exec("UPDATE schema_version SET version = 4;");
}

// Version 5, clocks and absent players (docs/protocol.md, section 15): each game's time control
// (its kind, the times in milliseconds that kind uses, 0 for the others) and what happens to an
// absent player; whether a seat's bot stands in for its player, who may take the seat back (a
// stand-in seat has a bot and has not resigned); and the acting player's clock just after each
// action (NULL: no clock). Games stored before had no clock, and take the default policy.
Status UpgradeV5Clocks(Connection& db) {
  return db.Exec(R"sql(
ALTER TABLE games ADD COLUMN clock_kind TEXT NOT NULL DEFAULT 'none'
  CHECK (clock_kind IN ('none', 'live', 'correspondence'));
ALTER TABLE games ADD COLUMN clock_bank_ms INTEGER NOT NULL DEFAULT 0 CHECK (clock_bank_ms >= 0);
ALTER TABLE games ADD COLUMN clock_increment_ms INTEGER NOT NULL DEFAULT 0
  CHECK (clock_increment_ms >= 0);
ALTER TABLE games ADD COLUMN clock_decision_ms INTEGER NOT NULL DEFAULT 0
  CHECK (clock_decision_ms >= 0);
ALTER TABLE games ADD COLUMN grace_ms INTEGER NOT NULL DEFAULT 0 CHECK (grace_ms >= 0);
ALTER TABLE games ADD COLUMN on_absent TEXT NOT NULL DEFAULT 'stand_in'
  CHECK (on_absent IN ('stand_in', 'forfeit'));
ALTER TABLE seats ADD COLUMN stand_in INTEGER NOT NULL DEFAULT 0
  CHECK (stand_in = 0 OR (stand_in = 1 AND bot <> '' AND resigned = 0));
ALTER TABLE actions ADD COLUMN clock_ms INTEGER CHECK (clock_ms >= 0);
)sql");
}

Status UpgradeV5(Connection& db) {
  if (auto error = UpgradeV5Clocks(db)) return error;
  return db.Exec("UPDATE schema_version SET version = 5;");
}

// Version 6: mutes kept (docs/protocol.md, section 13), the seats whose chat lines each seat's
// player muted, one bit per seat (bit i: seat i); and a take-back's live bank (section 15), with
// the game's sequence then (NULL: none). Seats stored before muted nobody and were not taken back.
Status UpgradeV6(Connection& db) {
  return db.Exec(R"sql(
ALTER TABLE seats ADD COLUMN muted INTEGER NOT NULL DEFAULT 0 CHECK (muted >= 0);
ALTER TABLE seats ADD COLUMN taken_back_clock_ms INTEGER CHECK (taken_back_clock_ms >= 0);
ALTER TABLE seats ADD COLUMN taken_back_after INTEGER NOT NULL DEFAULT 0
  CHECK (taken_back_after >= 0);
UPDATE schema_version SET version = 6;
)sql");
}

// Version 7: the file's settings, a row each (docs/persistence.md): `shard`, the name of the shard
// whose games the file holds ('' for a server alone), written by the first server started on it;
// and `next_game_number`, the lowest number a new game may take, which a restore carries over
// from the file it replaces so that no game id is issued twice. A file stored before has neither.
Status UpgradeV7(Connection& db) {
  return db.Exec(R"sql(
CREATE TABLE settings (
  name  TEXT PRIMARY KEY,
  value NOT NULL
) WITHOUT ROWID;
UPDATE schema_version SET version = 7;
)sql");
}

// Step i upgrades version i to version i + 1 (step 0 creates a new file at version 1).
using Step = Status (*)(Connection&);
const std::vector<Step>& Steps() {
  static const std::vector<Step> steps = {
      [](Connection& db) { return db.Exec(kVersion1); },
      [](Connection& db) { return db.Exec(kVersion2); },
      [](Connection& db) { return db.Exec(kVersion3); },
      UpgradeV4,
      UpgradeV5,
      UpgradeV6,
      UpgradeV7,
  };
  return steps;
}

}  // namespace

const std::string& SchemaVersion1() {
  static const std::string text = kVersion1;
  return text;
}

Result<int> ReadSchemaVersion(Connection& db) {
  auto exists = db.Prepare(
      "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'schema_version'");
  if (!exists) return exists.error();
  exists->Step();
  if (auto error = exists->error()) return *error;
  if (exists->Int(0) == 0) {
    // No version table: an empty file is new; anything else is not a game log.
    auto tables = db.Prepare("SELECT count(*) FROM sqlite_schema");
    if (!tables) return tables.error();
    tables->Step();
    if (auto error = tables->error()) return *error;
    if (tables->Int(0) != 0) {
      return StoreError{SQLITE_ERROR,
                        "the file holds tables but no schema_version: not a game log"};
    }
    return 0;
  }
  auto version = db.Prepare("SELECT version FROM schema_version");
  if (!version) return version.error();
  if (!version->Step()) {
    if (auto error = version->error()) return *error;
    return StoreError{SQLITE_CORRUPT, "schema_version is empty"};
  }
  return static_cast<int>(version->Int(0));
}

Result<int> Migrate(Connection& db, const std::string& path) {
  // The version is read and the steps run inside one write transaction, so two processes that
  // open the same old file do not both migrate it.
  if (auto error = db.Exec("BEGIN IMMEDIATE")) {
    return StoreError{error->code, path + ": " + error->message};
  }
  auto rollback = [&](StoreError error) {
    db.Exec("ROLLBACK");
    error.message = path + ": " + error.message;
    return error;
  };
  const auto found = ReadSchemaVersion(db);
  if (!found) return rollback(found.error());
  const int version = *found;
  if (version > kSchemaVersion) {
    return rollback(StoreError{
        SQLITE_ERROR, "schema version " + std::to_string(version) + " is newer than this build (" +
                          std::to_string(kSchemaVersion) +
                          "); run a newer carc-server, or restore a backup"});
  }
  for (int step = version; step < kSchemaVersion; ++step) {
    if (auto error = Steps()[static_cast<size_t>(step)](db)) {
      error->message =
          "migrating to schema version " + std::to_string(step + 1) + ": " + error->message;
      return rollback(*error);
    }
  }
  if (auto error = db.Exec("COMMIT")) return rollback(*error);
  return version;
}

}  // namespace carc::persistence
