// The lobby's create form as a CreateGame (src/match/create-game.ts), checked on the wire, and
// seats in words.
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";

import { CreateGameSchema, GameInfoSchema, GameStatus, ResignPolicy, SeatInfoSchema } from "../src/gen/carcassonne/server/v2/server_pb";
import { createGameMessage, isOverStatus, seatName, seatNames, seatNotes, type CreateChoices } from "../src/match/create-game";

const BASE: CreateChoices = {
  ruleSet: "the-city",
  seats: 4,
  options: {},
  name: "Friday",
  seed: null,
  seatChoices: [],
  onResign: "end",
  spectatorsChat: false,
};

function onTheWire(c: CreateChoices) {
  return fromBinary(CreateGameSchema, toBinary(CreateGameSchema, create(CreateGameSchema, createGameMessage(c))));
}

describe("createGameMessage", () => {
  it("sends a bot for each seat after the creator's chosen as one, never for seat 0", () => {
    const m = onTheWire({ ...BASE, seatChoices: ["strong", "greedy", "person", "random", "strong"] });
    expect(m.bots.map((b) => [b.seat, b.level])).toEqual([
      [1, "greedy"],
      [3, "random"],
    ]);
    expect(m.seats).toBe(4);
    expect(m.ruleSet).toBe("the-city");
    expect(m.name).toBe("Friday");
  });

  it("sends no bots for people only, and no seed unless one was chosen", () => {
    const m = onTheWire(BASE);
    expect(m.bots).toEqual([]);
    expect(m.seed).toBeUndefined();
    expect(onTheWire({ ...BASE, seed: 8n }).seed).toBe(8n);
  });

  it("says what a resignation does and whether spectators chat", () => {
    expect(onTheWire(BASE).onResign).toBe(ResignPolicy.END_GAME);
    expect(onTheWire(BASE).spectatorsChat).toBe(false);
    const m = onTheWire({ ...BASE, onResign: "bot", spectatorsChat: true });
    expect(m.onResign).toBe(ResignPolicy.BOT_TAKES_SEAT);
    expect(m.spectatorsChat).toBe(true);
  });

  it("carries the rule set's options", () => {
    const m = onTheWire({ ...BASE, ruleSet: "carcassonne", seats: 2, options: { river: 1 }, seatChoices: ["person", "greedy"] });
    expect(m.options).toEqual({ river: 1 });
    expect(m.bots.map((b) => [b.seat, b.level])).toEqual([[1, "greedy"]]);
  });
});

describe("seats in words", () => {
  it("names a bot by its level, keeps a player's name, and notes a resignation", () => {
    const bot = create(SeatInfoSchema, { seat: 1, taken: true, bot: "greedy" });
    const person = create(SeatInfoSchema, { seat: 0, taken: true, playerName: "Ann", resigned: true });
    const namedBot = create(SeatInfoSchema, { seat: 2, taken: true, playerName: "Hal", bot: "strong" });
    expect(seatName(bot)).toBe("Greedy bot");
    expect(seatNotes(bot)).toEqual([]);
    expect(seatNotes(person)).toEqual(["resigned"]);
    expect(seatNotes(namedBot)).toEqual(["Strong bot"]);
    const takenOver = create(SeatInfoSchema, { seat: 1, taken: true, playerName: "Bob", bot: "greedy", resigned: true });
    expect(seatNotes(takenOver)).toEqual(["resigned", "Greedy bot plays it"]);
    // The server names a bot's seat by its level: said once.
    expect(seatNotes(create(SeatInfoSchema, { seat: 1, taken: true, playerName: "Greedy bot", bot: "greedy" }))).toEqual([]);
    const info = create(GameInfoSchema, { seat: [person, bot, namedBot, create(SeatInfoSchema, { seat: 3 })] });
    expect(seatNames(info)).toEqual(["Ann", "Greedy bot", "Hal", ""]);
  });

  it("counts a resigned game as over, like a finished or abandoned one", () => {
    expect(isOverStatus(GameStatus.RESIGNED)).toBe(true);
    expect(isOverStatus(GameStatus.FINISHED)).toBe(true);
    expect(isOverStatus(GameStatus.ABANDONED)).toBe(true);
    expect(isOverStatus(GameStatus.RUNNING)).toBe(false);
  });
});
