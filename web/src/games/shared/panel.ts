// The frame of a game's side panel: the players (marker, name, online, total, score by source and
// the game's own supply line), whose decision it is, the game's line of what is left, and at the
// end the final scores by source with the winner. A game gives its sources of points, its words
// and its own lines. Pure functions of what they are given, so the game page and the replay page
// share them.
import { h } from "../../ui/dom";
import { badge, playerName } from "../../ui/players";

export interface PanelPlayer<K extends string> {
  readonly scores: Readonly<Record<K, number>>;
}

// Whose decision it is: the actor (−1 the server draws, −2 the game is over), the turn's player
// and the kind of decision.
export interface PanelDecision {
  readonly actor: number;
  readonly turnPlayer: number;
  readonly kind: number;
}

export interface PanelFrame<P extends PanelPlayer<K>, K extends string> {
  readonly players: readonly P[];
  readonly decision: PanelDecision;
  readonly over: boolean;
  readonly names: readonly string[];
  readonly online: readonly (boolean | null)[]; // null: unknown (replays)
  readonly yourSeat: number | null;
  readonly winners: number | null; // bit per seat, from the game's end event; null when not seen
}

// What a game puts in the frame.
export interface PanelGame<P extends PanelPlayer<K>, K extends string> {
  readonly sources: readonly K[]; // the sources of points, in the order shown
  readonly sourceWords: Readonly<Record<K, string>>; // their names in the final table (and, lower case, in each player's row)
  readonly total: (p: P) => number;
  readonly supply: (p: P) => string; // what the player has left
  readonly decisionWord: (kind: number) => string;
  readonly stacks: string; // the line of what is left to draw
  readonly ending: string; // after the verdict: why the game ended
}

function playerRow<P extends PanelPlayer<K>, K extends string>(inp: PanelFrame<P, K>, g: PanelGame<P, K>, seat: number): HTMLElement {
  const p = inp.players[seat];
  if (p === undefined) return h("li");
  const on = inp.online[seat];
  const deciding = inp.decision.actor === seat;
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
      h("span", { class: "total" }, String(g.total(p))),
    ),
    h("div", { class: "score-line" }, g.sources.map((k) => `${g.sourceWords[k].toLowerCase()} ${p.scores[k]}`).join(" · ")),
    h("div", { class: "supply" }, g.supply(p)),
  );
}

function turnLine<P extends PanelPlayer<K>, K extends string>(inp: PanelFrame<P, K>, g: PanelGame<P, K>): string {
  const d = inp.decision;
  if (d.actor === -2) return "The game is over.";
  if (d.actor === -1) return `${playerName(inp.names, d.turnPlayer)}'s turn: the server draws a tile.`;
  const who = d.actor === inp.yourSeat ? "You" : playerName(inp.names, d.actor);
  return `${who}: ${g.decisionWord(d.kind)} (turn of ${playerName(inp.names, d.turnPlayer)}).`;
}

// Without the end event (a page opened after the end) the winners are the highest totals.
function winnerSeats<P extends PanelPlayer<K>, K extends string>(inp: PanelFrame<P, K>, g: PanelGame<P, K>): number[] {
  const seats = inp.players.map((_, i) => i);
  if (inp.winners !== null) return seats.filter((i) => ((inp.winners ?? 0) >> i) & 1);
  const totals = inp.players.map(g.total);
  const best = Math.max(...totals);
  return seats.filter((i) => totals[i] === best);
}

// One column per player, one row per source of points, so four players still fit the panel.
function finalTable<P extends PanelPlayer<K>, K extends string>(inp: PanelFrame<P, K>, g: PanelGame<P, K>): HTMLElement {
  const win = winnerSeats(inp, g);
  const players = inp.players.map((p, seat) => ({ p, seat, won: win.includes(seat) }));
  const head = h(
    "tr",
    {},
    h("th", {}, "Points"),
    ...players.map(({ seat, won }) => h("th", { class: won ? "winner" : "" }, badge(seat), " ", playerName(inp.names, seat), won ? " ★" : "")),
  );
  const sourceRows = g.sources.map((k) => h("tr", {}, h("td", {}, g.sourceWords[k]), ...players.map(({ p }) => h("td", {}, String(p.scores[k])))));
  const totalRow = h("tr", { class: "total-row" }, h("td", {}, "Total"), ...players.map(({ p, won }) => h("td", { class: won ? "winner" : "" }, String(g.total(p)))));
  const names = win.map((s) => playerName(inp.names, s)).join(" and ");
  const best = Math.max(...inp.players.map((p) => g.total(p)));
  const verdict = win.length > 1 ? `${names} win together with ${best} points.` : `${names} wins with ${best} points.`;
  return h(
    "section",
    { class: "final-scores" },
    h("h3", {}, "Final scores"),
    h("p", { class: "verdict" }, h("strong", {}, verdict), ` ${g.ending}`),
    h("div", { class: "table-scroll" }, h("table", {}, h("thead", {}, head), h("tbody", {}, ...sourceRows, totalRow))),
  );
}

export function drawPanelFrame<P extends PanelPlayer<K>, K extends string>(inp: PanelFrame<P, K>, g: PanelGame<P, K>): HTMLElement {
  const players = inp.players.map((_, seat) => playerRow(inp, g, seat));
  return h(
    "div",
    { class: "panel-state" },
    h("ul", { class: "players" }, ...players),
    h("p", { class: "turn", "aria-live": "polite" }, turnLine(inp, g)),
    h("p", { class: "stacks" }, g.stacks),
    inp.over ? finalTable(inp, g) : null,
  );
}
