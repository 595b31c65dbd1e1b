// The fair-draws check of a finished game (docs/fairness.md), in the browser. At the start the
// server published a commitment, the SHA-256 of a short text, the proof, that it reveals once the
// game is over:
//
//   carc-draws 1\nrule-set <id> <version>\nseed <n>\norder <tile ids>\nsalt <32 hex digits>\n
//
// The check: the proof hashes to the commitment, it names the game's rule set, and every tile the
// game drew (the draw actions of its log, in order) is the order's next tile, after the tiles the
// game lays at set-up. That the order is the one the rule set deals from the seed needs the
// engine: `carc-db` checks that part too.
import type { Delta } from "../gen/carcassonne/server/v2/server_pb";
import type { GameModule } from "../games/module";
import { fail, ok, type Result } from "../state/result";

export interface DrawProof {
  readonly ruleSet: string;
  readonly ruleSetVersion: number;
  readonly seed: bigint;
  readonly order: readonly number[];
  readonly salt: string;
}

export type FairnessVerdict = { readonly fair: true; readonly draws: number } | { readonly fair: false; readonly reason: string };

const HEADER = "carc-draws 1";

// Lowercase hex of the SHA-256 of `text`'s UTF-8 bytes (the browser's own digest).
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

function after(line: string | undefined, key: string): string | null {
  return line !== undefined && line.startsWith(`${key} `) ? line.slice(key.length + 1) : null;
}

function readOrder(text: string | null): number[] | null {
  if (text === null || !/^\d+( \d+)*$/.test(text)) return null;
  return text.split(" ").map(Number);
}

export function formatDrawProof(p: DrawProof): string {
  return `${HEADER}\nrule-set ${p.ruleSet} ${p.ruleSetVersion}\nseed ${p.seed}\norder ${p.order.join(" ")}\nsalt ${p.salt}\n`;
}

// The proof's text read back; only the canonical text (one proof, one commitment) is accepted.
export function parseDrawProof(text: string): Result<DrawProof> {
  const lines = text.split("\n");
  if (lines.length !== 6 || lines[5] !== "" || lines[0] !== HEADER) return fail(`a proof has five lines, the first "${HEADER}"`);
  const ruleSet = /^(\S+) (\d+)$/.exec(after(lines[1], "rule-set") ?? "");
  if (ruleSet?.[1] === undefined || ruleSet[2] === undefined) return fail("line 2 is not \"rule-set <id> <version>\"");
  const seed = after(lines[2], "seed");
  if (seed === null || !/^\d{1,20}$/.test(seed) || BigInt(seed) >= 1n << 64n) return fail("line 3 is not \"seed <number>\"");
  const order = readOrder(after(lines[3], "order"));
  if (order === null) return fail("line 4 is not \"order <tile ids>\"");
  const salt = after(lines[4], "salt");
  if (salt === null || !/^[0-9a-f]{32}$/.test(salt)) return fail("line 5 is not \"salt <32 hex digits>\"");
  const proof: DrawProof = { ruleSet: ruleSet[1], ruleSetVersion: Number(ruleSet[2]), seed: BigInt(seed), order, salt };
  if (formatDrawProof(proof) !== text) return fail("the proof is not in its canonical form");
  return ok(proof);
}

// The tiles a game's log drew, in order, through its module; an action that does not decode is a
// failure (a log that cannot be read proves nothing).
export function drawsOfLog(game: GameModule, steps: readonly Delta[]): Result<number[]> {
  const draws: number[] = [];
  for (const step of steps) {
    const action = game.decodeAction(step.action);
    if (!action.ok) return fail(`step ${step.sequence}'s action could not be read: ${action.error}`);
    const tile = game.drawnTile(action.value);
    if (tile !== null) draws.push(tile);
  }
  return ok(draws);
}

export interface FairnessInput {
  readonly commitment: string; // GameInfo.draw_commitment, published at the start
  readonly proof: string; // GameInfo.draw_proof, revealed at the end
  readonly ruleSet: string; // the game's rule set and its version (0: not known)
  readonly ruleSetVersion: number;
  readonly draws: readonly number[]; // the tiles the log drew, in order (drawsOfLog)
  readonly laidAtSetUp: number; // GameModule.tilesLaidAtSetUp
}

// The draws against the order, once the proof is known to be the committed one.
function followOrder(order: readonly number[], draws: readonly number[], skip: number): FairnessVerdict {
  if (draws.length === 0) return { fair: false, reason: "the game's log holds no draws" };
  if (skip + draws.length > order.length) {
    return { fair: false, reason: `the game drew ${draws.length} tiles, more than the ${order.length - skip} the order holds` };
  }
  for (const [i, tile] of draws.entries()) {
    const expected = order[skip + i];
    if (tile !== expected) return { fair: false, reason: `draw ${i + 1} took tile ${tile}, where the committed order has tile ${expected}` };
  }
  return { fair: true, draws: draws.length };
}

export async function checkFairDraws(input: FairnessInput): Promise<FairnessVerdict> {
  if (input.commitment === "") return { fair: false, reason: "the game has no draw commitment" };
  if (input.proof === "") return { fair: false, reason: "the server has not revealed the proof (it does so once the game is over)" };
  const hash = await sha256Hex(input.proof);
  if (hash !== input.commitment.toLowerCase()) {
    return { fair: false, reason: `the proof does not hash to the commitment published at the start (it hashes to ${hash})` };
  }
  const proof = parseDrawProof(input.proof);
  if (!proof.ok) return { fair: false, reason: `the proof cannot be read: ${proof.error}` };
  if (proof.value.ruleSet !== input.ruleSet) return { fair: false, reason: `the proof is for the rule set ${proof.value.ruleSet}, the game is ${input.ruleSet}` };
  if (input.ruleSetVersion !== 0 && proof.value.ruleSetVersion !== input.ruleSetVersion) {
    return { fair: false, reason: `the proof is for version ${proof.value.ruleSetVersion} of the rules, the game was played by version ${input.ruleSetVersion}` };
  }
  return followOrder(proof.value.order, input.draws, input.laidAtSetUp);
}

export function verdictWords(v: FairnessVerdict): string {
  return v.fair ? `Fair: ${v.draws} draws match the commitment` : `Not shown fair: ${v.reason}`;
}
