// The side panel of a game: the players (marker, name, online, scores by source, supplies), whose
// decision it is, the stacks, the final result, and the log. Pure functions of what they are
// given, so the game page and the replay page share them.
import { totalScore, type PublicState, type Scores } from "./model";
import { drawPanelFrame } from "../shared/panel";
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
