// The reading commands: list, show, verify, export.
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>

#include "commands.h"
#include "export_json.h"
#include "persistence/replay.h"

namespace carc::db {
namespace {

using json = nlohmann::ordered_json;
using persistence::GameRecord;
using persistence::GameStatus;
using persistence::StoredGame;

// The rule sets of this build, each with its compiled-in tile set: a game stored with another
// version of its rules (or of its tiles) is reported, never replayed by these.
const RuleSetRegistry& RuleSets() {
  static const RuleSetRegistry registry = DefaultRuleSets();
  return registry;
}

// ---------------------------------------------------------------------------------------------
// list

// Actions per game, in one query (ListGames does not count them).
persistence::Result<std::map<int64_t, int64_t>> CountActions(persistence::Store& store) {
  auto q = store.connection().Prepare("SELECT game, count(*) FROM actions GROUP BY game");
  if (!q) return q.error();
  std::map<int64_t, int64_t> counts;
  while (q->Step()) counts[q->Int(0)] = q->Int(1);
  if (auto error = q->error()) return *error;
  return counts;
}

std::string SeatsTaken(const GameRecord& g) {
  return std::to_string(g.seat_records.size()) + "/" + std::to_string(g.seats);
}

json ListEntry(const GameRecord& g, int64_t actions) {
  json j = {{"game_id", persistence::GameId(g.number)},
            {"status", persistence::ToString(g.status)},
            {"name", g.name},
            {"players", g.seats},
            {"seats", SeatsToJson(g)},
            {"created", IsoTime(g.created_ms, true)},
            {"finished", g.finished_ms ? json(IsoTime(g.finished_ms, true)) : json(nullptr)},
            {"actions", actions}};
  if (g.status == GameStatus::kDamaged) j["damage"] = g.damage;
  return j;
}

void PrintListLine(const GameRecord& g, int64_t actions) {
  std::cout << std::left << std::setw(8) << persistence::GameId(g.number) << std::setw(10)
            << persistence::ToString(g.status) << std::setw(7) << SeatsTaken(g) << std::setw(9)
            << actions << std::setw(22) << IsoTime(g.created_ms, false) << std::setw(22)
            << (g.finished_ms ? IsoTime(g.finished_ms, false) : "-") << g.name << "\n";
}

// ---------------------------------------------------------------------------------------------
// show

std::string Ms(int64_t ms) { return std::to_string(ms) + " ms"; }

// What `carc-db show` says after a seat's player: its stand-in and the seats it muted.
std::string SeatNotes(const persistence::SeatRecord& seat) {
  std::string notes;
  if (seat.stand_in) notes += " (stand-in: " + seat.bot + ")";
  std::string muted;
  for (int other = 0; other < 32; ++other) {
    if ((seat.muted >> other & 1U) == 0) continue;
    muted += (muted.empty() ? "" : ", ") + std::to_string(other);
  }
  if (!muted.empty()) notes += " (mutes seats " + muted + ")";
  return notes;
}

// The game's clock, as its kind uses it; empty for a game without one.
std::string ClockText(const persistence::TimeControl& clock) {
  switch (clock.kind) {
    case persistence::ClockKind::kNone:
      return "";
    case persistence::ClockKind::kLive:
      return "live, bank " + Ms(clock.bank_ms) + ", increment " + Ms(clock.increment_ms);
    case persistence::ClockKind::kCorrespondence:
      return "correspondence, " + Ms(clock.decision_ms) + " per decision";
  }
  return "";
}

// When and how the absent-player policy applies; empty when it never does (no clock to run out,
// and a disconnected player is waited for).
std::string AbsentText(const persistence::TimeControl& clock) {
  std::string when;
  if (clock.grace_ms > 0) when = "after " + Ms(clock.grace_ms) + " away";
  if (clock.kind != persistence::ClockKind::kNone) {
    when += (when.empty() ? "" : " or ") + std::string("when the clock runs out");
  }
  if (when.empty()) return "";
  return std::string(persistence::ToString(clock.on_absent)) + " " + when;
}

void PrintHeader(const GameRecord& g) {
  const auto row = [](const char* key, const std::string& value) {
    std::cout << "  " << std::left << std::setw(10) << key << value << "\n";
  };
  std::cout << persistence::GameId(g.number) << " " << Dump(json(g.name), -1) << "\n";
  row("status", std::string(persistence::ToString(g.status)));
  row("rule set", g.rule_set + " " + std::to_string(g.rule_set_version));
  if (!g.options.empty()) row("options", g.options);
  row("tile set", g.tileset_id + " " + std::to_string(g.tileset_version));
  row("players", std::to_string(g.seats));
  row("seed", std::to_string(g.seed));
  row("created", IsoTime(g.created_ms, true));
  if (g.finished_ms) row("finished", IsoTime(g.finished_ms, true));
  for (const persistence::SeatRecord& seat : g.seat_records) {
    row(("seat " + std::to_string(seat.seat)).c_str(), seat.player_name + SeatNotes(seat));
  }
  if (!g.result.empty()) row("result", Dump(ResultToJson(g.result), -1));
  if (g.status == GameStatus::kDamaged) row("damage", g.damage);
  if (!g.draw_commitment.empty()) row("draws", "commitment " + g.draw_commitment);
  if (g.spectators_chat) row("chat", "spectators may write");
  if (const std::string clock = ClockText(g.time_control); !clock.empty()) row("clock", clock);
  if (const std::string absent = AbsentText(g.time_control); !absent.empty()) {
    row("absent", absent);
  }
}

// A chat line, where it was said among the actions.
void PrintChat(const persistence::ChatRecord& line) {
  std::cout << "      chat " << (line.seat >= 0 ? "seat " + std::to_string(line.seat) : "spectator")
            << " " << Dump(json(line.name), -1) << ": " << Dump(json(line.text), -1) << "\n";
}

void PrintAction(const persistence::ActionRecord& a) {
  std::cout << std::right << std::setw(5) << a.sequence << " " << std::setw(3) << a.seat << "  "
            << IsoTime(a.time_ms, true) << "  " << a.action;
  if (a.clock_ms >= 0) std::cout << "  (clock " << Ms(a.clock_ms) << ")";
  std::cout << "\n";
}

// ---------------------------------------------------------------------------------------------
// verify

// One game's verdict: "ok (...)" or the reason it is damaged.
struct Verdict {
  std::optional<std::string> damage;
  std::string summary;  // when not damaged
};

// A game that never started (open, or abandoned before its start) is sound when it has no
// actions: abandoning is how it ended, not damage.
Verdict CheckNeverStarted(const StoredGame& stored) {
  const bool open = stored.game.status == GameStatus::kOpen;
  if (!stored.actions.empty()) {
    return {std::string(open ? "an open game" : "a game abandoned before it started") + " has " +
                std::to_string(stored.actions.size()) + " stored actions",
            ""};
  }
  return {std::nullopt, open ? "open, no actions" : "abandoned before it started, no actions"};
}

Verdict Check(const StoredGame& stored) {
  if (persistence::NeverStarted(stored.game)) return CheckNeverStarted(stored);
  const persistence::ReplayedGame replayed = persistence::ReplayStored(stored, RuleSets());
  if (replayed.damage) return {replayed.damage, ""};
  if (stored.game.status == GameStatus::kFinished && !replayed.state->IsOver()) {
    return {"stored as finished, but the replayed game is not over", ""};
  }
  return {std::nullopt,
          std::to_string(replayed.applied) + " actions, hash " + HexHash(replayed.state->Hash())};
}

// Prints the game's line; true when it is sound.
bool VerifyOne(const StoredGame& stored) {
  const std::string id = persistence::GameId(stored.game.number);
  const Verdict verdict = Check(stored);
  if (stored.game.status == GameStatus::kDamaged) {
    // Marked damaged when it was stored; the replay says whether the log itself is still bad.
    std::cout << id << " DAMAGED: " << stored.game.damage << " (stored as damaged; replay: "
              << (verdict.damage ? *verdict.damage : "ok, " + verdict.summary) << ")\n";
    return false;
  }
  if (verdict.damage) {
    std::cout << id << " DAMAGED: " << *verdict.damage << "\n";
    return false;
  }
  std::cout << id << " ok (" << verdict.summary << ")\n";
  return true;
}

}  // namespace

int RunList(persistence::Store& store, const ListOptions& options) {
  auto games = store.ListGames(persistence::ListFilter{options.status, std::nullopt});
  if (!games) return Fail(kUsage, games.error().message);
  auto counts = CountActions(store);
  if (!counts) return Fail(kUsage, counts.error().message);
  const auto actions = [&](const GameRecord& g) {
    const auto it = counts->find(g.number);
    return it == counts->end() ? int64_t{0} : it->second;
  };
  if (options.json) {
    json all = json::array();
    for (const GameRecord& g : *games) all.push_back(ListEntry(g, actions(g)));
    std::cout << Dump(all, 2) << "\n";
    return kOk;
  }
  std::cout << std::left << std::setw(8) << "id" << std::setw(10) << "status" << std::setw(7)
            << "seats" << std::setw(9) << "actions" << std::setw(22) << "created" << std::setw(22)
            << "finished"
            << "name\n";
  for (const GameRecord& g : *games) PrintListLine(g, actions(g));
  return kOk;
}

int RunShow(persistence::Store& store, const std::string& game) {
  std::optional<StoredGame> stored;
  if (const int status = LoadOne(store, game, &stored)) return status;
  PrintHeader(stored->game);
  // The events of each action, from the engine, as far as the log replays.
  std::map<uint64_t, std::vector<std::string>> events;
  const persistence::ReplayedGame replayed = persistence::ReplayStored(
      *stored, RuleSets(),
      [&](const persistence::ActionRecord& record, std::span<const std::string> applied,
          const core::State&) { events[record.sequence].assign(applied.begin(), applied.end()); },
      persistence::EventText::kFormat);
  std::cout << "actions (" << stored->actions.size() << "):\n";
  // Each chat line follows the action it was said after (after_sequence).
  auto chat = stored->chat.begin();
  const auto chat_until = [&](uint64_t sequence) {
    for (; chat != stored->chat.end() && chat->after_sequence <= sequence; ++chat) PrintChat(*chat);
  };
  chat_until(0);
  for (const persistence::ActionRecord& a : stored->actions) {
    PrintAction(a);
    for (const std::string& e : events[a.sequence]) std::cout << "             " << e << "\n";
    chat_until(a.sequence);
  }
  chat_until(UINT64_MAX);
  if (replayed.damage) std::cout << "the replay stopped: " << *replayed.damage << "\n";
  return kOk;
}

int RunVerify(persistence::Store& store, const std::vector<std::string>& games) {
  int status = kOk;
  if (auto error = store.CheckIntegrity()) {
    std::cout << "integrity check FAILED: " << error->message << "\n";
    status = kFailed;
  } else {
    std::cout << "integrity check ok\n";
  }
  std::vector<std::string> names = games;
  if (names.empty()) {
    auto all = store.ListGames({});
    if (!all) return Fail(kUsage, all.error().message);
    for (const GameRecord& g : *all) names.push_back(persistence::GameId(g.number));
  }
  for (const std::string& name : names) {
    std::optional<StoredGame> stored;
    if (const int problem = LoadOne(store, name, &stored)) {
      if (problem == kUsage) return problem;
      status = kFailed;
      continue;
    }
    if (!VerifyOne(*stored)) status = kFailed;
  }
  return status;
}

int RunExport(persistence::Store& store, const std::string& game, const std::string& output) {
  std::optional<StoredGame> stored;
  if (const int status = LoadOne(store, game, &stored)) return status;
  const std::string text = ExportText(GameToJson(*stored));
  if (output.empty() || output == "-") {
    std::cout << text;
    return kOk;
  }
  std::ofstream out(output, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return Fail(kUsage, "cannot write " + output);
  return kOk;
}

}  // namespace carc::db
