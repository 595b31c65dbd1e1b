// A game that has not started: its seats, a way to join a free one, and for the creator (seat 0)
// the button that starts it early with the seats taken so far (docs/protocol.md 2.1), offered
// once as many seats are taken as the rule set's fewest players.
import type { GameInfo } from "../gen/carcassonne/server/v2/server_pb";
import { seatNames, seatNotes } from "../match/create-game";
import { button, h } from "./dom";
import { badge, playerName } from "./players";

export interface OpenGameHandlers {
  readonly join: (playerName: string) => void;
  readonly start: () => void;
}

export function playersWord(n: number): string {
  return n === 1 ? "1 player" : `${n} players`;
}

// Whether the creator may start now: never with fewer than the rule set's fewest players, nor
// (as the server requires) fewer than two.
export function mayStartEarly(taken: number, minPlayers: number): boolean {
  return taken >= Math.max(2, minPlayers);
}

function seatRow(info: GameInfo, i: number, yourSeat: number | null): HTMLElement {
  const seat = info.seat[i];
  const taken = seat?.taken ?? false;
  const who = taken ? playerName(seatNames(info), i) : "free";
  const notes = seat === undefined ? [] : seatNotes(seat);
  return h(
    "li",
    {},
    badge(i),
    ` Seat ${i + 1}: ${who}`,
    notes.length > 0 ? ` (${notes.join(", ")})` : "",
    yourSeat === i ? " (you)" : "",
    taken && seat?.bot === "" ? (seat.online ? " · online" : " · offline") : "",
  );
}

// `nameBox` belongs to the page and outlives redraws, so what is typed in it is kept; null
// offers no way to join (a game of a rule set this client cannot draw).
export function drawOpenGame(
  info: GameInfo,
  yourSeat: number | null,
  nameBox: HTMLInputElement | null,
  minPlayers: number,
  on: OpenGameHandlers,
): HTMLElement {
  const seats = info.seat.map((_, i) => seatRow(info, i, yourSeat));
  const taken = info.seat.filter((s) => s.taken).length;
  const free = info.seats - taken;
  const parts: (HTMLElement | null)[] = [
    h("p", {}, `Waiting for players: ${taken} of ${info.seats} seats taken. The game starts when every seat is taken.`),
    h("ul", { class: "seats" }, ...seats),
  ];
  if (yourSeat === null && free > 0 && nameBox !== null) {
    parts.push(h("div", { class: "join" }, nameBox, button("Join", () => on.join(nameBox.value.trim()), { class: "primary" })));
  }
  if (yourSeat === 0 && free > 0 && mayStartEarly(taken, minPlayers)) {
    parts.push(h("div", {}, button(`Start now with ${playersWord(taken)}`, on.start)));
  }
  return h("section", { class: "open-game" }, ...parts);
}
