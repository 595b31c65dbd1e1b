// The side panel of a game: the players (marker, name, online, scores by source, supplies), whose
// decision it is, the stacks, the final result, and the log. Pure functions of what they are
// given, so the game page and the replay page share them.
import { buildingWord, typeOf, type TileCatalog } from "../../tiles/catalog";
import { h, s } from "../../ui/dom";
import { badge, playerName } from "../../ui/players";
import { archPath, turretPath } from "./board";
import { totalScore, type PublicState, type Scores } from "./model";
import { drawPanelFrame } from "../shared/panel";
import { decisionWord, endConditionWord } from "./words";

export interface PanelInput {
  readonly state: PublicState;
  readonly names: readonly string[];
  readonly online: readonly (boolean | null)[]; // null: unknown (replays)
  readonly yourSeat: number | null;
  readonly winners: number | null; // bit per seat, from GameOver; null when not seen
  readonly tiles?: TileCatalog | null; // for the buildings' names
}

const SOURCES: readonly (keyof Scores)[] = ["streets", "markets", "towers", "stewards", "guards"];
const SOURCE_WORDS: Record<keyof Scores, string> = {
  streets: "Streets",
  markets: "Markets",
  towers: "Towers",
  stewards: "Stewards",
  guards: "Guards",
};

function tilesLeft(st: PublicState): number {
  return st.stackSizes.reduce((a, b) => a + b, 0) - st.tilesDrawn;
}

// One line with every score, whose turn it is and the tiles left: on a phone it stays in sight
// at the bottom of the screen while the board and the panel scroll. Not a live region: the
// panel's turn line already announces whose turn it is.
function statusBar(inp: PanelInput): HTMLElement {
  const st = inp.state;
  const scores = st.player.map((p, seat) =>
    h("span", { class: "status-score" }, badge(seat), ` ${playerName(inp.names, seat)} ${totalScore(p.scores)}`),
  );
  const d = st.decision;
  const turn = st.end !== 0 ? "Game over" : d.actor >= 0 ? `${playerName(inp.names, d.actor)}${d.actor === inp.yourSeat ? " (you)" : ""} to play` : `${playerName(inp.names, d.turnPlayer)}'s turn`;
  return h(
    "div",
    { class: "status-bar" },
    ...scores,
    h("span", { class: "status-turn" }, turn),
    h("span", { class: "status-tiles" }, `${tilesLeft(st)} tiles left`),
  );
}

function legendSymbol(...shapes: SVGElement[]): SVGSVGElement {
  return s("svg", { width: 34, height: 22, viewBox: "-17 -11 34 22", "aria-hidden": true, class: "legend-symbol" }, ...shapes);
}

// What the wall's symbols on the board mean; shown once the gate lies.
function wallLegend(): HTMLElement {
  const line = (cls: string): SVGElement => s("line", { x1: -15, y1: 0, x2: 15, y2: 0, class: cls });
  const items: [SVGSVGElement, string][] = [
    [legendSymbol(line("gate"), s("path", { d: archPath(0, 0, 7), class: "gate-mark" })), "Gate: an arch on a striped line"],
    [legendSymbol(line("wall")), "Wall piece: a solid grey line"],
    [legendSymbol(line("wall"), s("circle", { cx: 0, cy: 0, r: 8, fill: "#fff", stroke: "#111", "stroke-width": 1.5 }), s("text", { x: 0, y: 4.5, "text-anchor": "middle", class: "role-letter" }, "G")), "Guard: the player's marker with a G"],
    [legendSymbol(s("path", { d: turretPath(0, 0, 9), class: "tower", stroke: "#111" })), "Tower: battlements at a wall end"],
    [legendSymbol(line("wall-ghost")), "Where a new piece would go (labelled front or back)"],
    [legendSymbol(line("wall-closing")), "Taken as walled at the end of the game"],
  ];
  return h(
    "div",
    { class: "wall-legend" },
    h("h3", {}, "The wall"),
    h("ul", {}, ...items.map(([symbol, words]) => h("li", {}, symbol, h("span", {}, words)))),
    h("p", { class: "hint" }, "Followers show a letter for their role: S street, M market, R residential area."),
  );
}

// The buildings on the board by name, so that they can be read without hovering.
function buildingList(inp: PanelInput): HTMLElement | null {
  const catalog = inp.tiles ?? null;
  if (catalog === null) return null;
  const names: string[] = [];
  for (const t of inp.state.tiles) {
    const type = typeOf(catalog, t.tile);
    const word = type === undefined ? null : buildingWord(type);
    if (word !== null) names.push(`${word} at (${t.x}, ${t.y})`);
  }
  if (names.length === 0) return null;
  return h("details", { class: "buildings" }, h("summary", {}, `Buildings on the board (${names.length})`), h("ul", {}, ...names.map((n) => h("li", {}, n))));
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

export function drawPanel(inp: PanelInput): HTMLElement {
  const legend = inp.state.gate === null ? null : wallLegend();
  return h("div", { class: "city-panel" }, statusBar(inp), drawFrame(inp), legend, buildingList(inp));
}

function drawFrame(inp: PanelInput): HTMLElement {
  const st = inp.state;
  const frame = { players: st.player, decision: st.decision, over: inp.state.end !== 0, names: inp.names, online: inp.online, yourSeat: inp.yourSeat, winners: inp.winners };
  return drawPanelFrame(frame, {
    sources: SOURCES,
    sourceWords: SOURCE_WORDS,
    total: (p) => totalScore(p.scores),
    supply: (p) => `followers ${p.followers} · towers ${p.towers}`,
    decisionWord,
    stacks: stackLine(inp.state),
    ending: `The game ended because ${endConditionWord(inp.state.end)}.`,
  });
}
