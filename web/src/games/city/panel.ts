// The side panel of a game: the players (marker, name, online, scores by source, supplies), whose
// decision it is, the stacks, the final result, and the log. Pure functions of what they are
// given, so the game page and the replay page share them.
import { totalScore, type PublicState, type Scores } from "./model";
import { h } from "../../ui/dom";
import { badge, playerName } from "../../ui/players";
import { decisionWord, endConditionWord } from "./words";

export interface PanelInput {
  readonly state: PublicState;
  readonly names: readonly string[];
  readonly online: readonly (boolean | null)[]; // null: unknown (replays)
  readonly yourSeat: number | null;
  readonly winners: number | null; // bit per seat, from GameOver; null when not seen
}

const SOURCES: readonly (keyof Scores)[] = ["streets", "markets", "towers", "stewards", "guards"];
const SOURCE_WORDS: Record<keyof Scores, string> = {
  streets: "Streets",
  markets: "Markets",
  towers: "Towers",
  stewards: "Stewards",
  guards: "Guards",
};

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

// Each stack's tiles left (they are drawn in order: the first stack empties first).
function stackLine(st: PublicState): string {
  let drawn = st.tilesDrawn;
  const left = st.stackSizes.map((size) => {
    const taken = Math.min(size, drawn);
    drawn -= taken;
    return size - taken;
  });
  const stacks = left.map((n, i) => `${i + 1}: ${n}`).join(" · ");
  const discarded = st.tilesDiscarded > 0 ? ` · ${st.tilesDiscarded} discarded` : "";
  return `Tiles left in the stacks ${stacks}${discarded} · wall pieces left ${st.wallsLeft}`;
}

// Without the GameOver event (a page opened after the end) the winners are the highest totals.
function winnerSeats(inp: PanelInput): number[] {
  const seats = inp.state.player.map((_, i) => i);
  if (inp.winners !== null) return seats.filter((i) => ((inp.winners ?? 0) >> i) & 1);
  const totals = inp.state.player.map((p) => totalScore(p.scores));
  const best = Math.max(...totals);
  return seats.filter((i) => totals[i] === best);
}

// One column per player, one row per source of points, so four players still fit the panel.
function finalTable(inp: PanelInput): HTMLElement {
  const win = winnerSeats(inp);
  const players = inp.state.player.map((p, seat) => ({ p, seat, won: win.includes(seat) }));
  const head = h(
    "tr",
    {},
    h("th", {}, "Points"),
    ...players.map(({ seat, won }) => h("th", { class: won ? "winner" : "" }, badge(seat), " ", playerName(inp.names, seat), won ? " ★" : "")),
  );
  const sourceRows = SOURCES.map((k) => h("tr", {}, h("td", {}, SOURCE_WORDS[k]), ...players.map(({ p }) => h("td", {}, String(p.scores[k])))));
  const totalRow = h("tr", { class: "total-row" }, h("td", {}, "Total"), ...players.map(({ p, won }) => h("td", { class: won ? "winner" : "" }, String(totalScore(p.scores)))));
  const names = win.map((s) => playerName(inp.names, s)).join(" and ");
  const best = Math.max(...inp.state.player.map((p) => totalScore(p.scores)));
  const verdict = win.length > 1 ? `${names} win together with ${best} points.` : `${names} wins with ${best} points.`;
  const ended = endConditionWord(inp.state.end);
  return h(
    "section",
    { class: "final-scores" },
    h("h3", {}, "Final scores"),
    h("p", { class: "verdict" }, h("strong", {}, verdict), ` The game ended because ${ended}.`),
    h("div", { class: "table-scroll" }, h("table", {}, h("thead", {}, head), h("tbody", {}, ...sourceRows, totalRow))),
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
