// Clocks and absent players (src/match/clocks.ts): the create form's clock as CreateGame's
// time_control on the wire, its refusals in words, a clock's time as text and the running clock
// counted down from the arrival of the last Clocks message.
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";

import { AbsentPolicy, ClockKind, ClocksSchema, CreateGameSchema, TimeControlSchema } from "../src/gen/carcassonne/server/v2/server_pb";
import { createGameMessage, type CreateChoices } from "../src/match/create-game";
import {
  clockShortWords,
  DEFAULT_TIME_FORM,
  durationWords,
  formatClock,
  holdClocks,
  msUntilNextTick,
  newerClocks,
  remainingAt,
  timeControlFromForm,
  timeControlWords,
  type TimeForm,
} from "../src/match/clocks";

const BASE: CreateChoices = {
  ruleSet: "the-city",
  seats: 2,
  options: {},
  name: "",
  seed: null,
  seatChoices: [],
  onResign: "end",
  spectatorsChat: false,
};

function sent(form: Partial<TimeForm>) {
  const tc = timeControlFromForm({ ...DEFAULT_TIME_FORM, ...form });
  if (!tc.ok) throw new Error(tc.error);
  const m = create(CreateGameSchema, createGameMessage({ ...BASE, timeControl: tc.value }));
  return fromBinary(CreateGameSchema, toBinary(CreateGameSchema, m));
}

function refusal(form: Partial<TimeForm>): string {
  const tc = timeControlFromForm({ ...DEFAULT_TIME_FORM, ...form });
  if (tc.ok) throw new Error("the form was taken");
  return tc.error;
}

describe("the create form's clock as CreateGame.time_control", () => {
  it("sends no time control by default: no clock, absent players waited for", () => {
    expect(sent({}).timeControl).toBeUndefined();
    expect(fromBinary(CreateGameSchema, toBinary(CreateGameSchema, create(CreateGameSchema, createGameMessage(BASE)))).timeControl).toBeUndefined();
  });

  it("sends a live clock's bank from minutes (fractions too) and increment from seconds", () => {
    const tc = sent({ clock: "live", bankMinutes: "5", incrementSeconds: "3", onAbsent: "forfeit" }).timeControl;
    expect(tc?.kind).toBe(ClockKind.LIVE);
    expect(tc?.bankMs).toBe(300_000n);
    expect(tc?.incrementMs).toBe(3_000n);
    expect(tc?.decisionMs).toBe(0n);
    expect(tc?.graceMs).toBe(0n);
    expect(tc?.onAbsent).toBe(AbsentPolicy.FORFEIT);
    // A bank of three seconds, as a short test game has.
    expect(sent({ clock: "live", bankMinutes: "0.05", incrementSeconds: "0" }).timeControl?.bankMs).toBe(3_000n);
  });

  it("sends a correspondence clock's time per decision from hours", () => {
    const tc = sent({ clock: "correspondence", decisionHours: "48" }).timeControl;
    expect(tc?.kind).toBe(ClockKind.CORRESPONDENCE);
    expect(tc?.decisionMs).toBe(172_800_000n);
    expect(tc?.bankMs).toBe(0n);
    expect(tc?.onAbsent).toBe(AbsentPolicy.STAND_IN);
  });

  it("sends a grace period without a clock, with its policy", () => {
    const tc = sent({ clock: "none", graceSeconds: "2", onAbsent: "stand-in" }).timeControl;
    expect(tc?.kind).toBe(ClockKind.NONE);
    expect(tc?.graceMs).toBe(2_000n);
    expect(tc?.onAbsent).toBe(AbsentPolicy.STAND_IN);
  });

  it("refuses in words what the server would refuse, and sends nothing", () => {
    expect(refusal({ clock: "live", bankMinutes: "ten" })).toBe('The time bank: "ten" is not a number.');
    expect(refusal({ clock: "live", bankMinutes: "" })).toBe('The time bank: "" is not a number.');
    expect(refusal({ clock: "live", bankMinutes: "0" })).toBe("The time bank must be from 1 s to 1 day.");
    expect(refusal({ clock: "live", bankMinutes: "1441" })).toBe("The time bank must be from 1 s to 1 day.");
    expect(refusal({ clock: "live", incrementSeconds: "-1" })).toBe("The increment must be from 0 s to 1 h.");
    expect(refusal({ clock: "correspondence", decisionHours: "721" })).toBe("The time per decision must be from 1 s to 30 days.");
    expect(refusal({ graceSeconds: "0.2" })).toBe("The grace period must be 0 or from 1 s to 30 days.");
    // A field the chosen clock does not use is not looked at.
    expect(timeControlFromForm({ ...DEFAULT_TIME_FORM, clock: "correspondence", bankMinutes: "x" }).ok).toBe(true);
  });
});

describe("time in words and on a clock", () => {
  it("says a time control in words", () => {
    const live = create(TimeControlSchema, { kind: ClockKind.LIVE, bankMs: 300_000n, incrementMs: 3_000n, graceMs: 120_000n, onAbsent: AbsentPolicy.STAND_IN });
    expect(timeControlWords(live)).toBe("Live clock: 5 min + 3 s a turn. A player away for 2 min or out of time: a stand-in bot plays for them.");
    const mail = create(TimeControlSchema, { kind: ClockKind.CORRESPONDENCE, decisionMs: 172_800_000n, onAbsent: AbsentPolicy.FORFEIT });
    expect(timeControlWords(mail)).toBe("Correspondence: 2 days a decision. A player out of time: forfeits.");
    expect(timeControlWords(create(TimeControlSchema, { kind: ClockKind.NONE, onAbsent: AbsentPolicy.STAND_IN }))).toBe("No clock");
    expect(timeControlWords(undefined)).toBe("No clock");
    expect(clockShortWords(live)).toBe("live 5 min + 3 s");
    expect(clockShortWords(mail)).toBe("2 days a decision");
    expect(clockShortWords(undefined)).toBe("");
    expect(durationWords(90_000)).toBe("90 s");
    expect(durationWords(1_500)).toBe("1.5 s");
  });

  it("shows mm:ss under an hour, h:mm:ss under a day, and days beyond, rounded up to the second", () => {
    expect(formatClock(0)).toBe("00:00");
    expect(formatClock(-5)).toBe("00:00");
    expect(formatClock(1)).toBe("00:01");
    expect(formatClock(59_000)).toBe("00:59");
    expect(formatClock(299_001)).toBe("05:00");
    expect(formatClock(3_600_000)).toBe("1:00:00");
    expect(formatClock(3_599_000 + 3_600_000 * 5)).toBe("5:59:59");
    expect(formatClock(2 * 86_400_000 + 4 * 3_600_000)).toBe("2d 04h");
  });
});

describe("the clocks counted down", () => {
  const message = create(ClocksSchema, { gameId: "g1", sequence: 12n, remainingMs: [10_000n, 7_500n, 3_000n], running: 1 });

  it("counts only the running clock down from the message's arrival, never below zero", () => {
    const held = holdClocks(message, 1_000);
    expect(remainingAt(held, 1, 1_000)).toBe(7_500);
    expect(remainingAt(held, 1, 3_000)).toBe(5_500);
    expect(remainingAt(held, 0, 3_000)).toBe(10_000);
    expect(remainingAt(held, 1, 20_000)).toBe(0);
    expect(remainingAt(held, 3, 3_000)).toBeNull();
    // A message that came "after" now (clocks of different sources) counts nothing yet.
    expect(remainingAt(held, 1, 500)).toBe(7_500);
  });

  it("stands still when no clock runs", () => {
    const held = holdClocks(create(ClocksSchema, { gameId: "g1", sequence: 3n, remainingMs: [4_000n, 5_000n] }), 0);
    expect(held.running).toBeNull();
    expect(remainingAt(held, 0, 100_000)).toBe(4_000);
    expect(msUntilNextTick(held, 100_000)).toBeNull();
  });

  it("keeps the clocks of the newest state", () => {
    const held = holdClocks(message, 1_000);
    const older = create(ClocksSchema, { gameId: "g1", sequence: 11n, remainingMs: [1n, 1n, 1n], running: 0 });
    expect(newerClocks(held, older, 2_000)).toBe(held);
    const newer = create(ClocksSchema, { gameId: "g1", sequence: 13n, remainingMs: [10_000n, 9_000n, 3_000n], running: 2 });
    expect(newerClocks(held, newer, 2_000).running).toBe(2);
    expect(newerClocks(null, older, 2_000).sequence).toBe(11n);
  });

  it("redraws when the running clock's text changes next", () => {
    const held = holdClocks(message, 0);
    expect(msUntilNextTick(held, 0)).toBe(500); // 7.5 s shows 00:08 until 7 s are left
    expect(msUntilNextTick(held, 500)).toBe(1_000);
    expect(msUntilNextTick(held, 10_000)).toBeNull(); // run out
  });
});
