// The side panel of a game of The Castle: the players (marker, name, online, scores by source,
// followers left, keep), each player's wall tiles held face up with what they do (the fresh ones,
// taken this turn, marked: they can be used from the next turn) and those used, whose decision it is, the tiles
// left to draw and the wall tiles still on the corner towers, and at the end the final scores by
// source (paths, towers, houses, courts, keep, wall tiles) with the winner. Pure functions of what
// they are given, so the game page and the replay page share them.
import { TileRole } from "../../gen/carcassonne/tiles/v1/tiles_pb";
import type { TileCatalog } from "../../tiles/catalog";
import { h } from "../../ui/dom";
import { badge, playerName } from "../../ui/players";
import { drawPanelFrame } from "../shared/panel";
import { SOURCES, totalScore, type PlayerState, type PublicState, type Scores } from "./model";
import { decisionWord, wallTileEffect } from "./words";

export interface PanelInput {
  readonly state: PublicState;
  readonly catalog: TileCatalog | null;
  readonly names: readonly string[];
  readonly online: readonly (boolean | null)[]; // null: unknown (replays)
  readonly yourSeat: number | null;
  readonly winners: number | null; // bit per seat, from GameOver; null when not seen
}

const SOURCE_WORDS: Record<keyof Scores, string> = {
  paths: "Paths",
  towers: "Towers",
  houses: "Houses",
  courts: "Courts",
  keep: "Keep",
  wallTiles: "Wall tiles",
};

// The castle tiles a game draws: every tile but the start spaces.
export function tilesToDraw(catalog: TileCatalog): number {
  return catalog.types.filter((t) => t.role !== TileRole.START_SPACE).reduce((n, t) => n + t.count, 0);
}

function bits(n: number): number {
  let count = 0;
  for (let v = n; v > 0; v >>= 1) count += v & 1;
  return count;
}

function stacksLine(inp: PanelInput): string {
  const st = inp.state;
  const discarded = st.tilesDiscarded > 0 ? ` · ${st.tilesDiscarded} discarded` : "";
  const corners = bits(st.wallCorners);
  const wall = st.over ? "" : ` · wall tiles on corner towers ${corners}`;
  if (inp.catalog === null) return `Tiles drawn ${st.tilesDrawn}${discarded}${wall}`;
  return `Tiles left ${Math.max(0, tilesToDraw(inp.catalog) - st.tilesDrawn)}${discarded}${wall}`;
}

function supplyWord(p: PlayerState, followersPerPlayer: number): string {
  const keep = p.keep.size === 0 ? "no keep yet" : `keep on a house of ${p.keep.size} ${p.keep.size === 1 ? "tile" : "tiles"}`;
  return `followers left ${p.followers} of ${followersPerPlayer} · ${keep}`;
}

// One entry per wall tile held (two of a number: two entries), fresh ones first marked.
function heldTiles(p: PlayerState): { wall: number; fresh: boolean }[] {
  const out: { wall: number; fresh: boolean }[] = [];
  p.wallTiles.forEach((count, wall) => {
    const fresh = p.fresh[wall] ?? 0;
    for (let i = 0; i < count; i++) out.push({ wall, fresh: i < fresh });
  });
  return out;
}

// The wall tiles a player has used (gone from the game), or nothing when none.
function usedLine(p: PlayerState): HTMLElement | null {
  const used: HTMLElement[] = [];
  p.used.forEach((count, wall) => {
    for (let i = 0; i < count; i++) {
      used.push(h("span", { class: "wall-tile-used", "data-wall": wall, title: wallTileEffect(wall) }, String(wall)));
    }
  });
  if (used.length === 0) return null;
  return h("div", { class: "wall-tiles-used" }, "used: ", ...used);
}

function wallTilesSection(inp: PanelInput): HTMLElement {
  const rows = inp.state.player.map((p, seat) => {
    const held = heldTiles(p);
    const items = held.map(({ wall, fresh }) =>
      h(
        "li",
        { class: fresh ? "wall-tile-held fresh" : "wall-tile-held", "data-wall": wall, title: wallTileEffect(wall) },
        h("span", { class: "wall-tile-face" }, String(wall)),
        ` ${wallTileEffect(wall)}`,
        fresh ? h("em", {}, " (taken this turn: usable from the next)") : null,
      ),
    );
    return h(
      "div",
      { class: "wall-tiles-of", "data-player": seat },
      h("div", {}, badge(seat), " ", h("strong", {}, playerName(inp.names, seat)), held.length === 0 ? " holds no wall tile" : ""),
      held.length === 0 ? null : h("ul", { class: "wall-tiles-held" }, ...items),
      usedLine(p),
    );
  });
  return h("section", { class: "wall-tiles-panel" }, h("h3", {}, "Wall tiles held"), ...rows);
}

export function drawPanel(inp: PanelInput): HTMLElement {
  const st = inp.state;
  const frame = { players: st.player, decision: st.decision, over: st.over, names: inp.names, online: inp.online, yourSeat: inp.yourSeat, winners: inp.winners };
  const panel = drawPanelFrame(frame, {
    sources: SOURCES,
    sourceWords: SOURCE_WORDS,
    total: (p) => totalScore(p.scores),
    supply: (p) => supplyWord(p, st.followersPerPlayer),
    decisionWord,
    stacks: stacksLine(inp),
    ending: "The last castle tile was placed.",
  });
  panel.append(wallTilesSection(inp));
  return panel;
}
