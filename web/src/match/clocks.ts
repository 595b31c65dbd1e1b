// Clocks and absent players as the client holds them (docs/protocol.md section 15), pure: the
// create form's clock choices as a TimeControl (checked against the server's limits, so a typo is
// told at once and nothing is sent), a time control in words, every seat's clock from the last
// Clocks message counted down from when it arrived, and a clock's time as text.
import type { MessageInitShape } from "@bufbuild/protobuf";

import { AbsentPolicy, ClockKind, type Clocks, type TimeControl, type TimeControlSchema } from "../gen/carcassonne/server/v2/server_pb";
import { fail, ok, type Result } from "../state/result";

export type ClockChoice = "none" | "live" | "correspondence";
export type AbsentChoice = "stand-in" | "forfeit";

// The create form's fields as typed (numbers as text), in the form's units.
export interface TimeForm {
  readonly clock: ClockChoice;
  readonly bankMinutes: string; // live: the time bank; fractions allowed ("0.5" is 30 s)
  readonly incrementSeconds: string; // live: added to the bank when a turn ends
  readonly decisionHours: string; // correspondence: the time per decision
  readonly graceSeconds: string; // how long a disconnected player is waited for; 0: always
  readonly onAbsent: AbsentChoice;
}

export const DEFAULT_TIME_FORM: TimeForm = {
  clock: "none",
  bankMinutes: "10",
  incrementSeconds: "5",
  decisionHours: "24",
  graceSeconds: "0",
  onAbsent: "stand-in",
};

export type TimeControlInit = MessageInitShape<typeof TimeControlSchema>;

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

// The server's limits (docs/protocol.md section 15), in milliseconds.
const BANK_LIMITS = { min: SECOND_MS, max: DAY_MS };
const INCREMENT_LIMITS = { min: 0, max: HOUR_MS };
const DECISION_LIMITS = { min: SECOND_MS, max: 30 * DAY_MS };
const GRACE_LIMITS = { min: SECOND_MS, max: 30 * DAY_MS };

// A field's milliseconds, or why not: a number (fractions allowed) within the limits.
function fieldMs(label: string, text: string, unitMs: number, limits: { min: number; max: number }, zeroAllowed = false): Result<number> {
  const trimmed = text.trim();
  const value = Number(trimmed);
  if (trimmed === "" || !Number.isFinite(value)) return fail(`${label}: "${text}" is not a number.`);
  const ms = Math.round(value * unitMs);
  if (zeroAllowed && ms === 0) return ok(0);
  if (ms < limits.min || ms > limits.max) {
    const zero = zeroAllowed && limits.min > 0 ? "0 or " : "";
    return fail(`${label} must be ${zero}from ${durationWords(limits.min)} to ${durationWords(limits.max)}.`);
  }
  return ok(ms);
}

// The form as CreateGame.time_control; null when it asks for nothing (no clock and no grace
// period: the server's default, waiting for everybody). A field out of the server's limits is an
// error in words.
export function timeControlFromForm(form: TimeForm): Result<TimeControlInit | null> {
  const grace = fieldMs("The grace period", form.graceSeconds, SECOND_MS, GRACE_LIMITS, true);
  if (!grace.ok) return fail(grace.error);
  const onAbsent = form.onAbsent === "forfeit" ? AbsentPolicy.FORFEIT : AbsentPolicy.STAND_IN;
  const common = { graceMs: BigInt(grace.value), onAbsent };
  switch (form.clock) {
    case "none":
      return ok(grace.value === 0 ? null : { kind: ClockKind.NONE, ...common });
    case "live": {
      const bank = fieldMs("The time bank", form.bankMinutes, MINUTE_MS, BANK_LIMITS);
      if (!bank.ok) return fail(bank.error);
      const increment = fieldMs("The increment", form.incrementSeconds, SECOND_MS, INCREMENT_LIMITS, true);
      if (!increment.ok) return fail(increment.error);
      return ok({ kind: ClockKind.LIVE, bankMs: BigInt(bank.value), incrementMs: BigInt(increment.value), ...common });
    }
    case "correspondence": {
      const decision = fieldMs("The time per decision", form.decisionHours, HOUR_MS, DECISION_LIMITS);
      if (!decision.ok) return fail(decision.error);
      return ok({ kind: ClockKind.CORRESPONDENCE, decisionMs: BigInt(decision.value), ...common });
    }
  }
}

// A length of time in words, in its largest whole unit where it has one: "3 s", "1 h", "30 days",
// "90 s".
export function durationWords(ms: number): string {
  const units: [number, string][] = [
    [DAY_MS, " days"],
    [HOUR_MS, " h"],
    [MINUTE_MS, " min"],
    [SECOND_MS, " s"],
  ];
  for (const [unit, word] of units) {
    if (ms >= unit && ms % unit === 0) return ms === DAY_MS ? "1 day" : `${ms / unit}${word}`;
  }
  return `${ms / SECOND_MS} s`;
}

// A game's time control in words: "Live clock: 5 min + 3 s a turn", "Correspondence: 2 days a
// decision", then who the policy applies to and what it does ("A player away for 2 min or out of
// time: a stand-in bot plays for them.").
export function timeControlWords(tc: TimeControl | undefined): string {
  const clocked = hasClock(tc);
  const graceMs = Number(tc?.graceMs ?? 0n);
  if (tc === undefined || (!clocked && graceMs === 0)) return "No clock";
  const clock =
    tc.kind === ClockKind.LIVE
      ? `Live clock: ${durationWords(Number(tc.bankMs))} + ${durationWords(Number(tc.incrementMs))} a turn`
      : tc.kind === ClockKind.CORRESPONDENCE
        ? `Correspondence: ${durationWords(Number(tc.decisionMs))} a decision`
        : "No clock";
  const away = graceMs > 0 ? `away for ${durationWords(graceMs)}` : "";
  const when = [away, clocked ? "out of time" : ""].filter((w) => w !== "").join(" or ");
  const policy = tc.onAbsent === AbsentPolicy.FORFEIT ? "forfeits" : "a stand-in bot plays for them";
  return `${clock}. A player ${when}: ${policy}.`;
}

// A game's clock in a few words, for game lists: "live 5 min + 3 s", "2 days a decision"; "" for
// none.
export function clockShortWords(tc: TimeControl | undefined): string {
  if (tc?.kind === ClockKind.LIVE) return `live ${durationWords(Number(tc.bankMs))} + ${durationWords(Number(tc.incrementMs))}`;
  if (tc?.kind === ClockKind.CORRESPONDENCE) return `${durationWords(Number(tc.decisionMs))} a decision`;
  return "";
}

// Whether a game's time control shows anything per seat: a clock, or a grace period after which
// stand-ins come.
export function hasClock(tc: TimeControl | undefined): boolean {
  return tc !== undefined && (tc.kind === ClockKind.LIVE || tc.kind === ClockKind.CORRESPONDENCE);
}

// Every seat's clock as the last Clocks message gave it, and when (performance.now(), ms) it came.
export interface HeldClocks {
  readonly sequence: bigint;
  readonly remainingMs: readonly number[];
  readonly running: number | null;
  readonly receivedAt: number;
}

export function holdClocks(m: Clocks, receivedAt: number): HeldClocks {
  return {
    sequence: m.sequence,
    remainingMs: m.remainingMs.map((r) => Number(r)),
    running: m.running ?? null,
    receivedAt,
  };
}

// The newer of the clocks held and a message that came: one of an older state is left out (a
// message for the state before the snapshot the page has just shown).
export function newerClocks(held: HeldClocks | null, m: Clocks, receivedAt: number): HeldClocks {
  if (held !== null && m.sequence < held.sequence) return held;
  return holdClocks(m, receivedAt);
}

// What a seat's clock shows at `now`: the running one counted down from the message's arrival,
// never below zero; null for a seat the message does not name.
export function remainingAt(clocks: HeldClocks, seat: number, now: number): number | null {
  const left = clocks.remainingMs[seat];
  if (left === undefined) return null;
  const spent = seat === clocks.running ? Math.max(0, now - clocks.receivedAt) : 0;
  return Math.max(0, left - spent);
}

function two(n: number): string {
  return String(n).padStart(2, "0");
}

// A clock's time as text, rounded up to the second (a clock shows 00:00 only once it has run out):
// "04:59" under an hour, "1:04:59" under a day, "2d 04h" from a day (a correspondence clock).
export function formatClock(ms: number): string {
  const total = Math.ceil(Math.max(0, ms) / SECOND_MS);
  const days = Math.floor(total / 86400);
  const hours = Math.floor((total % 86400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (days > 0) return `${days}d ${two(hours)}h`;
  if (hours > 0) return `${hours}:${two(minutes)}:${two(seconds)}`;
  return `${two(minutes)}:${two(seconds)}`;
}

// How long until the running clock's text changes, so a page redraws it no more often than that.
export function msUntilNextTick(clocks: HeldClocks, now: number): number | null {
  if (clocks.running === null) return null;
  const left = remainingAt(clocks, clocks.running, now);
  if (left === null || left <= 0) return null;
  const step = left >= DAY_MS ? HOUR_MS : SECOND_MS;
  const toNext = left % step;
  return toNext === 0 ? step : toNext;
}
