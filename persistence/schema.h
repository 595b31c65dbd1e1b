// The schema of the game log and its migrations.
//
// Version 1 is the first layout; each later version is one step that upgrades the one before it.
// The version lives in the table `schema_version` (one row). Opening a file runs every step
// above its version in one transaction; a file newer than this build is refused, untouched.
#pragma once

#include <string>

#include "sqlite.h"

namespace carc::persistence {

// The SQL that creates version 1 from nothing, and each step n -> n + 1 (index n - 1).
const std::string& SchemaVersion1();
// Brings `db` to kSchemaVersion: reads the version, refuses a newer file, migrates an older
// one. `path` names the file in messages. Returns the version the file had.
Result<int> Migrate(Connection& db, const std::string& path);
// The version stored in a file (0 for an empty database).
Result<int> ReadSchemaVersion(Connection& db);

}  // namespace carc::persistence
