// The side panel of a game: the players (marker, name, online, scores by source, supplies), whose
// decision it is, the stacks, the final result, and the log. Pure functions of what they are
// given, so the game page and the replay page share them.
import { totalScore, type PublicState, type Scores } from "../state";
import { h } from "./dom";
import { badge, playerName } from "./players";
import { decisionWord, endConditionWord } from "./words";

export interface PanelInput {
  readonly state: PublicState;
  readonly names: readonly string[];
  readonly online: readonly (boolean | null)[]; // null: unknown (replays)
  readonly yourSeat: number | null;
  readonly winners: number | null; // bit per seat, from GameOver; null when not seen
}

const SOURCES: readonly (keyof Scores)[] = ["streets", "markets", "towers", "stewards", "guards"];

function scoreLine(sc: Scores): string {
  return SOURCES.map((k) => `${k} ${sc[k]}`).join(" · ");
}

function playerRow(inp: PanelInput, seat: number): HTMLElement {
  const p = inp.state.player[seat];
  if (p === undefined) return h("li");
  const on = inp.online[seat];
  const deciding = inp.state.decision.actor === seat;
  return h(
    "li",
    { class: deciding ? "player deciding" : "player" },
    h(
      "div",
      { class: "player-head" },
      badge(seat),
      h("strong", {}, playerName(inp.names, seat)),
      inp.yourSeat === seat ? h("span", { class: "you" }, " (you)") : null,
      on === null || on === undefined ? null : h("span", { class: on ? "online" : "offline" }, on ? " online" : " offline"),
      h("span", { class: "total" }, String(totalScore(p.scores))),
    ),
    h("div", { class: "score-line" }, scoreLine(p.scores)),
    h("div", { class: "supply" }, `followers ${p.followers} · towers ${p.towers}`),
  );
}

function turnLine(inp: PanelInput): string {
  const d = inp.state.decision;
  if (d.actor === -2) return "The game is over.";
  if (d.actor === -1) return `${playerName(inp.names, d.turnPlayer)}'s turn: the server draws a tile.`;
  const who = d.actor === inp.yourSeat ? "You" : playerName(inp.names, d.actor);
  return `${who}: ${decisionWord(d.kind)} (turn of ${playerName(inp.names, d.turnPlayer)}).`;
}

function stackLine(st: PublicState): string {
  const total = st.stackSizes.reduce((a, b) => a + b, 0);
  let before = 0;
  let current = st.stackSizes.length;
  for (const [i, size] of st.stackSizes.entries()) {
    if (st.tilesDrawn < before + size) {
      current = i + 1;
      break;
    }
    before += size;
  }
  const hand = st.drawnTile >= 0 ? ` · in hand: tile ${st.drawnTile}` : "";
  return `Tiles drawn ${st.tilesDrawn} of ${total} (stack ${current}) · left ${total - st.tilesDrawn} · discarded ${st.tilesDiscarded} · walls left ${st.wallsLeft}${hand}`;
}

// Without the GameOver event (a page opened after the end) the winners are the highest totals.
function winnerSeats(inp: PanelInput): number[] {
  const seats = inp.state.player.map((_, i) => i);
  if (inp.winners !== null) return seats.filter((i) => ((inp.winners ?? 0) >> i) & 1);
  const totals = inp.state.player.map((p) => totalScore(p.scores));
  const best = Math.max(...totals);
  return seats.filter((i) => totals[i] === best);
}

function finalTable(inp: PanelInput): HTMLElement {
  const win = winnerSeats(inp);
  const head = h("tr", {}, h("th", {}, "Player"), ...SOURCES.map((k) => h("th", {}, k)), h("th", {}, "total"));
  const rows = inp.state.player.map((p, seat) =>
    h(
      "tr",
      { class: win.includes(seat) ? "winner" : "" },
      h("td", {}, badge(seat), " ", playerName(inp.names, seat), win.includes(seat) ? " ★" : ""),
      ...SOURCES.map((k) => h("td", {}, String(p.scores[k]))),
      h("td", {}, String(totalScore(p.scores))),
    ),
  );
  const names = win.map((s) => playerName(inp.names, s)).join(" and ");
  return h(
    "section",
    { class: "final" },
    h("h3", {}, "Final scores"),
    h("p", {}, `${endConditionWord(inp.state.end)}. Winner${win.length > 1 ? "s" : ""}: ${names}.`),
    h("table", {}, h("thead", {}, head), h("tbody", {}, ...rows)),
  );
}

export function drawPanel(inp: PanelInput): HTMLElement {
  const players = inp.state.player.map((_, seat) => playerRow(inp, seat));
  return h(
    "div",
    { class: "panel-state" },
    h("ul", { class: "players" }, ...players),
    h("p", { class: "turn", "aria-live": "polite" }, turnLine(inp)),
    h("p", { class: "stacks" }, stackLine(inp.state)),
    inp.state.end !== 0 ? finalTable(inp) : null,
  );
}

export function drawLog(lines: readonly string[]): HTMLElement {
  const items = [...lines].reverse().map((l) => h("li", {}, l));
  return h("section", { class: "log" }, h("h3", {}, "Events"), h("ol", { reversed: true }, ...items));
}
