// The side panel of a game of Carcassonne: the players (marker, name, online, scores by source,
// followers left), whose decision it is, the tiles left to draw, and at the end the final scores
// by source with the winner. Pure functions of what they are given, so the game page and the
// replay page share them.
import { FeatureKind, TileRole } from "../../gen/carcassonne/tiles/v1/tiles_pb";
import type { TileCatalog } from "../../tiles/catalog";
import { h } from "../../ui/dom";
import { badge, playerName } from "../../ui/players";
import { SOURCES, totalScore, type PublicState, type Scores } from "./model";
import { decisionWord } from "./words";

export interface PanelInput {
  readonly state: PublicState;
  readonly catalog: TileCatalog | null;
  readonly names: readonly string[];
  readonly online: readonly (boolean | null)[]; // null: unknown (replays)
  readonly yourSeat: number | null;
  readonly winners: number | null; // bit per seat, from GameOver; null when not seen
}

const SOURCE_WORDS: Record<keyof Scores, string> = {
  roads: "Roads",
  cities: "Cities",
  monasteries: "Monasteries",
  fields: "Fields",
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
    h("div", { class: "supply" }, `followers left ${p.followers} of ${inp.state.followersPerPlayer}`),
  );
}

function turnLine(inp: PanelInput): string {
  const d = inp.state.decision;
  if (d.actor === -2) return "The game is over.";
  if (d.actor === -1) return `${playerName(inp.names, d.turnPlayer)}'s turn: the server draws a tile.`;
  const who = d.actor === inp.yourSeat ? "You" : playerName(inp.names, d.actor);
  return `${who}: ${decisionWord(d.kind)} (turn of ${playerName(inp.names, d.turnPlayer)}).`;
}

// The tiles a game draws (the set-up tile lies on the board from the start): with the River,
// every tile but the start tile and the spring; without it, the land tiles but the start tile.
export function tilesToDraw(catalog: TileCatalog, river: boolean): number {
  let n = 0;
  for (const t of catalog.types) {
    if (t.role === TileRole.START || t.role === TileRole.SPRING) continue;
    const riverTile = t.role === TileRole.LAKE || t.features.some((f) => f.kind === FeatureKind.RIVER);
    if (river || !riverTile) n += t.count;
  }
  return n;
}

function tilesLine(inp: PanelInput): string {
  const st = inp.state;
  const discarded = st.tilesDiscarded > 0 ? ` · ${st.tilesDiscarded} discarded` : "";
  const river = st.river ? "With the River" : "Without the River";
  if (inp.catalog === null) return `${river} · tiles drawn ${st.tilesDrawn}${discarded}`;
  const left = Math.max(0, tilesToDraw(inp.catalog, st.river) - st.tilesDrawn);
  return `${river} · tiles left ${left}${discarded}`;
}

// Without the GameOver event (a page opened after the end) the winners are the highest totals.
function winnerSeats(inp: PanelInput): number[] {
  const seats = inp.state.player.map((_, i) => i);
  if (inp.winners !== null) return seats.filter((i) => ((inp.winners ?? 0) >> i) & 1);
  const totals = inp.state.player.map((p) => totalScore(p.scores));
  const best = Math.max(...totals);
  return seats.filter((i) => totals[i] === best);
}

// One column per player, one row per source of points.
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
  return h(
    "section",
    { class: "final-scores" },
    h("h3", {}, "Final scores"),
    h("p", { class: "verdict" }, h("strong", {}, verdict), " The last tile was placed."),
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
    h("p", { class: "stacks" }, tilesLine(inp)),
    inp.state.over ? finalTable(inp) : null,
  );
}
