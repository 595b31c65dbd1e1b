// The commands of `carc` for rule sets other than The City, played through the rule-set
// boundary (core::RuleSet, core::State): self-play, record and random games to show work for any
// game; reading an action list back and drawing a board need the game's typed code, which this
// tool has for Carcassonne (river/) and The Castle (castle/). The City keeps its typed commands in
// main.cc, so that its output stays exactly what it was.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "rule_sets.h"

namespace carc::tool {

// `games` random games from `seed` on: one JSON line each, or with `trace` every action and
// event first. `eager`: seats place followers (and, in The Castle, use wall tiles) whenever they
// can (Carcassonne and The Castle).
int RunStateSelfplay(const GameChoice& choice, int games, uint64_t seed, int players, bool trace,
                     bool eager);
// One random game as an action-list file: the State's transcript, its drawing order included.
int RunStateRecord(const GameChoice& choice, uint64_t seed, int players);
// A random game, stopped after `steps` actions (all if negative), drawn as text.
int RunStateShow(const GameChoice& choice, uint64_t seed, int players, int steps);
// An action list of Carcassonne (`text`, read from `path`) replayed: the final state as JSON,
// or the first illegal action (status 1); status 2 if the file cannot be parsed or set up.
int RunRiverReplay(const GameChoice& choice, const std::string& path, std::string_view text);
// The same file drawn as text (as far as it is legal).
int RunRiverShow(const GameChoice& choice, const std::string& path, std::string_view text);
// The same two for an action list of The Castle.
int RunCastleReplay(const GameChoice& choice, const std::string& path, std::string_view text);
int RunCastleShow(const GameChoice& choice, const std::string& path, std::string_view text);

}  // namespace carc::tool
