// The side panel of a game of Carcassonne: the players (marker, name, online, scores by source,
// followers left), whose decision it is, the tiles left to draw, and at the end the final scores
// by source with the winner. Pure functions of what they are given, so the game page and the
// replay page share them.
import { FeatureKind, TileRole } from "../../gen/carcassonne/tiles/v1/tiles_pb";
import type { TileCatalog } from "../../tiles/catalog";
import { drawPanelFrame } from "../shared/panel";
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

export function drawPanel(inp: PanelInput): HTMLElement {
  const st = inp.state;
  const frame = { players: st.player, decision: st.decision, over: inp.state.over, names: inp.names, online: inp.online, yourSeat: inp.yourSeat, winners: inp.winners };
  return drawPanelFrame(frame, {
    sources: SOURCES,
    sourceWords: SOURCE_WORDS,
    total: (p) => totalScore(p.scores),
    supply: (p) => `followers left ${p.followers} of ${inp.state.followersPerPlayer}`,
    decisionWord,
    stacks: tilesLine(inp),
    ending: "The last tile was placed.",
  });
}
