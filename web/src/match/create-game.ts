// The lobby's create form as a CreateGame (docs/protocol.md sections 2 and 12): the rule set,
// seats and options; per seat after the creator's, a person or a bot of a level; what a
// resignation does; whether spectators may chat; the clock and what happens to an absent player
// (src/match/clocks.ts reads the form's clock fields). And seats in words: a bot's level, a seat that
// resigned, a game that ended by a resignation.
import type { MessageInitShape } from "@bufbuild/protobuf";

import type { TimeControlInit } from "./clocks";
import { GameStatus, ResignPolicy, type CreateGameSchema, type GameInfo, type SeatInfo } from "../gen/carcassonne/server/v2/server_pb";

export type SeatChoice = "person" | "random" | "greedy" | "strong";
export const SEAT_CHOICES: readonly SeatChoice[] = ["person", "random", "greedy", "strong"];
export type ResignChoice = "end" | "bot";

export interface CreateChoices {
  readonly ruleSet: string;
  readonly seats: number;
  readonly options: Readonly<Record<string, number>>;
  readonly name: string;
  readonly seed: bigint | null;
  // By seat number; seat 0 is the creator's and never a bot; missing seats are people.
  readonly seatChoices: readonly SeatChoice[];
  readonly onResign: ResignChoice;
  readonly spectatorsChat: boolean;
  // CreateGame.time_control; null or absent: no clock, and absent players are waited for.
  readonly timeControl?: TimeControlInit | null;
}

export type CreateGameInit = MessageInitShape<typeof CreateGameSchema>;

export function createGameMessage(c: CreateChoices): CreateGameInit {
  const bots: { seat: number; level: string }[] = [];
  for (let seat = 1; seat < c.seats; seat++) {
    const choice = c.seatChoices[seat] ?? "person";
    if (choice !== "person") bots.push({ seat, level: choice });
  }
  return {
    ruleSet: c.ruleSet,
    seats: c.seats,
    options: { ...c.options },
    name: c.name,
    ...(c.seed === null ? {} : { seed: c.seed }),
    bots,
    onResign: c.onResign === "bot" ? ResignPolicy.BOT_TAKES_SEAT : ResignPolicy.END_GAME,
    spectatorsChat: c.spectatorsChat,
    ...(c.timeControl === undefined || c.timeControl === null ? {} : { timeControl: c.timeControl }),
  };
}

export function seatChoiceWord(choice: SeatChoice): string {
  return choice === "person" ? "Person" : botWord(choice);
}

// "Greedy bot"; a level this client does not know goes by its own name.
export function botWord(level: string): string {
  return `${level.charAt(0).toUpperCase()}${level.slice(1)} bot`;
}

// A seat's name as the pages show it: the player's, else a bot's level ("" when neither: the
// pages then name the seat by its colour).
export function seatName(seat: SeatInfo): string {
  if (seat.playerName !== "") return seat.playerName;
  return seat.bot !== "" ? botWord(seat.bot) : "";
}

export function seatNames(info: GameInfo): string[] {
  return info.seat.map(seatName);
}

// What a seat's name leaves unsaid: a resignation, a stand-in for an absent player, and the bot
// that plays a named seat (a bot the creator chose is named by its level already).
export function seatNotes(seat: SeatInfo): string[] {
  const notes: string[] = [];
  if (seat.resigned) notes.push("resigned");
  if (seat.standIn) {
    notes.push(seat.bot !== "" ? `stand-in: ${botWord(seat.bot)}` : "stand-in");
    return notes;
  }
  if (seat.bot !== "" && seat.playerName !== "" && seat.playerName !== botWord(seat.bot)) {
    notes.push(seat.resigned ? `${botWord(seat.bot)} plays it` : botWord(seat.bot));
  }
  return notes;
}

export function isOverStatus(status: GameStatus): boolean {
  return status === GameStatus.FINISHED || status === GameStatus.RESIGNED || status === GameStatus.ABANDONED;
}
