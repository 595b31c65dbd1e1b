// Seat tokens at rest: only a SHA-256 hash of a token is stored (in memory and in the log), so a
// copy of the database or of the server's memory does not hand out seats. A token is 128 random
// bits, so a plain hash is enough: nobody can search that space to find a token from its hash.
#pragma once

#include <string_view>

#include "store.h"

namespace carc::persistence {

TokenHash HashToken(std::string_view token);
// Compares every byte whatever they hold, so the time taken says nothing about the hash.
bool SameHash(const TokenHash& a, const TokenHash& b);

}  // namespace carc::persistence
