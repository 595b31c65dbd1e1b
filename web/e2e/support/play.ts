// Plays a whole game by clicking, as its two players would: at each step the page that shows a
// decision (at the newest sequence) makes it, with seeded random choices. With the game's seed
// fixed too (the lobby's ?seed=), every run plays the same game through the same clicks. The
// spectator's page is checked along the way.
import type { Page } from "playwright-core";
import { expect } from "vitest";

import { clickableCells, describeState, gameState, waitForNewSequence, waitForSameSequence, type GameState } from "./pages";

export interface Table {
  readonly alice: Page;
  readonly bob: Page;
  readonly spectator: Page;
}

export interface PlayOptions {
  readonly seed: number;
  readonly maxSteps: number; // decisions; the game fails beyond
  readonly reloadBobAfterTiles: number;
  readonly keyboardTile: number; // the tile (counted from 0) placed with the keyboard only
  readonly checkSpectatorEvery: number; // decisions
  readonly onWallPhase: (page: Page) => Promise<void>; // once, at the first wall decision
  readonly stopAfterSteps?: number; // decisions; return then instead of playing to the end
  readonly afterStep?: (t: Table) => Promise<void>; // after each decision, to look at the pages
  // Before the usual choice: makes the decision itself and returns true, or leaves it (false).
  readonly decide?: (turn: Turn) => Promise<boolean>;
}

export interface PlayResult {
  readonly steps: number;
  readonly tiles: number; // placed by the loop
  readonly wallPhaseSeen: boolean;
  readonly deciders: readonly string[]; // who made each decision: "Alice" or "Bob"
}

export interface Turn {
  readonly name: string;
  readonly page: Page;
  readonly kind: string;
}

const TURN_TIMEOUT_MS = 15_000;
// Labels of the "do nothing" choices; a random player picks them less often, so that followers,
// guards and towers get placed too.
const SKIP_LABEL = /^(no\b|skip|pass|don't|do not|none)/i;
const PREFER_ACTION = 0.8;
const WALL_KINDS = new Set(["place-gate", "build-wall"]);
const MAX_ZOOM_OUTS = 10;

// mulberry32: a small seeded generator, uniform in [0, 1).
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pickIndex(count: number, rng: () => number): number {
  return Math.min(count - 1, Math.floor(rng() * count));
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function seq(s: GameState): number {
  return s.sequence === null ? -1 : Number(s.sequence);
}

// The seat that must decide now, or null once the game is over. A page counts only when it
// shows the newest state of the two, so a page that lags behind is not taken for the decider.
export async function nextTurn(t: Table): Promise<Turn | null> {
  const until = Date.now() + TURN_TIMEOUT_MS;
  for (;;) {
    const [a, b] = await Promise.all([gameState(t.alice), gameState(t.bob)]);
    if (a.status === "finished" || b.status === "finished") return null;
    const seats = [
      { name: "Alice", page: t.alice, own: a, other: b },
      { name: "Bob", page: t.bob, own: b, other: a },
    ];
    for (const s of seats) {
      if (s.own.decision === "") throw new Error(`${s.name}'s section.decision has no data-decision`);
      if (s.own.decision !== null && seq(s.own) >= seq(s.other)) return { name: s.name, page: s.page, kind: s.own.decision };
    }
    if (Date.now() > until) {
      throw new Error(`nobody has a decision to make:\n${describeState("Alice", a)}\n${describeState("Bob", b)}`);
    }
    await sleep(25);
  }
}

// Zooms the board out with the mouse wheel, as a player would, until a legal cell is in view
// (the board keeps the player's view while it grows).
async function cellsInView(turn: Turn): Promise<number[]> {
  const page = turn.page;
  for (let i = 0; i < MAX_ZOOM_OUTS; i++) {
    const clickable = await clickableCells(page);
    if (clickable.length > 0) return clickable;
    const box = await page.locator("svg.board-svg").boundingBox();
    if (box === null) break;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, 400);
  }
  const all = await page.locator("svg.board-svg rect.legal-cell").count();
  throw new Error(`${turn.name}: none of the ${all} legal cells comes into the board's view`);
}

// A legal cell chosen at random and clicked, then (on some turns) turned with the "r" key or
// the Turn button, then sent with "Place tile".
export async function placeTileByMouse(turn: Turn, rng: () => number, n: number): Promise<void> {
  const page = turn.page;
  const cells = page.locator("svg.board-svg rect.legal-cell");
  await cells.first().waitFor({ state: "attached" });
  const clickable = await cellsInView(turn);
  const index = clickable[pickIndex(clickable.length, rng)] ?? 0;
  await cells.nth(index).click();
  await page.locator("svg.board-svg g.tile.ghost").waitFor();
  if (n % 5 === 1) {
    await page.keyboard.press("r");
    await page.locator("svg.board-svg g.tile.ghost").waitFor();
  } else if (n % 5 === 3) {
    const turnButton = page.locator("section.decision").getByRole("button", { name: "Turn", exact: true });
    if ((await turnButton.count()) > 0) await turnButton.click();
  }
  const before = (await gameState(page)).sequence;
  await page.locator("section.decision").getByRole("button", { name: "Place tile", exact: true }).click();
  await waitForNewSequence(page, before);
}

// The keyboard only: "n" picks the next legal cell, "r" turns the tile, Enter places it.
async function placeTileByKeyboard(turn: Turn): Promise<void> {
  const page = turn.page;
  await page.locator("svg.board-svg rect.legal-cell").first().waitFor({ state: "attached" });
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press("n");
  await page.locator("svg.board-svg g.tile.ghost").waitFor();
  await page.keyboard.press("r");
  await page.locator("svg.board-svg g.tile.ghost").waitFor();
  const before = (await gameState(page)).sequence;
  await page.keyboard.press("Enter");
  await waitForNewSequence(page, before);
}

const COORDINATES = /\(-?\d+, ?-?\d+\)/;

// One of the decision's buttons, preferring a real action to the skip.
async function chooseButton(turn: Turn, rng: () => number): Promise<void> {
  const buttons = turn.page.locator("section.decision button[data-legal]");
  const labels = (await buttons.allTextContents()).map((l) => l.trim());
  if (labels.length === 0) throw new Error(`${turn.name} must decide ${turn.kind} but has no button[data-legal]`);
  // The board shows no coordinates, so no choice may be named by them.
  const coordinates = labels.find((l) => COORDINATES.test(l));
  if (coordinates !== undefined) throw new Error(`${turn.name}'s choice "${coordinates}" names a cell by coordinates`);
  const all = labels.map((_, i) => i);
  const actions = all.filter((i) => !SKIP_LABEL.test(labels[i] ?? ""));
  const pool = actions.length > 0 && rng() < PREFER_ACTION ? actions : all;
  const index = pool[pickIndex(pool.length, rng)] ?? 0;
  const before = (await gameState(turn.page)).sequence;
  await buttons.nth(index).click();
  await waitForNewSequence(turn.page, before);
}

// Bob's page reloaded mid-game comes back to the same state with his seat, not as a spectator.
export async function reloadAndCheckSeat(t: Table): Promise<void> {
  await t.bob.reload();
  const [alice, bob] = await waitForSameSequence(t.alice, t.bob, 15_000);
  expect(bob.watching, 'Bob\'s reloaded page says "You are watching."').toBe(false);
  expect(bob.status).toBe("running");
  if (alice.decision === null) await t.bob.locator("section.decision").waitFor();
}

// The spectator reaches the players' sequence, shows the same tiles and never a decision.
export async function checkSpectator(t: Table): Promise<void> {
  const [alice, spectator] = await waitForSameSequence(t.alice, t.spectator);
  expect(spectator.tiles, "tiles on the spectator's board").toBe(alice.tiles);
  expect(spectator.decision, "the spectator has a decision").toBeNull();
  expect(spectator.watching, 'the spectator\'s page says "You are watching."').toBe(true);
}

// Plays until the game ends, or for o.stopAfterSteps decisions when given.
export async function playToEnd(t: Table, o: PlayOptions): Promise<PlayResult> {
  const rng = seededRandom(o.seed);
  let tiles = 0;
  let wallPhaseSeen = false;
  const deciders: string[] = [];
  for (let step = 0; step < o.maxSteps; step++) {
    if (step === o.stopAfterSteps) return { steps: step, tiles, wallPhaseSeen, deciders };
    const turn = await nextTurn(t);
    if (turn === null) return { steps: step, tiles, wallPhaseSeen, deciders };
    deciders.push(turn.name);
    if (!wallPhaseSeen && WALL_KINDS.has(turn.kind)) {
      wallPhaseSeen = true;
      await o.onWallPhase(turn.page);
    }
    if (o.decide !== undefined && (await o.decide(turn))) {
      if (turn.kind === "place-tile") tiles += 1;
    } else if (turn.kind === "place-tile") {
      if (tiles === o.keyboardTile) await placeTileByKeyboard(turn);
      else await placeTileByMouse(turn, rng, tiles);
      tiles += 1;
      if (tiles === o.reloadBobAfterTiles) await reloadAndCheckSeat(t);
    } else {
      await chooseButton(turn, rng);
    }
    expect(await t.spectator.locator("section.decision").count(), "the spectator has a decision").toBe(0);
    if (step % o.checkSpectatorEvery === 0) await checkSpectator(t);
    if (o.afterStep !== undefined) await o.afterStep(t);
  }
  throw new Error(`the game did not end within ${o.maxSteps} decisions`);
}

// The page's decision made with the first legal choice: the first legal cell (N, then "Place
// tile"), or the first of the decision's buttons; returns once the page shows the next sequence.
export async function decideFirst(page: Page, kind: string, timeoutMs: number): Promise<void> {
  const before = (await gameState(page)).sequence;
  if (kind === "place-tile") {
    await page.locator("svg.board-svg rect.legal-cell").first().waitFor({ state: "attached" });
    // N picks the next legal cell (the first, from none) with its first legal rotation; the keys
    // go to the board only when no field has the focus (the chat's may).
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press("n");
    await page.locator("svg.board-svg g.tile.ghost").waitFor();
    await page.locator("section.decision").getByRole("button", { name: "Place tile", exact: true }).click();
  } else {
    const buttons = page.locator("section.decision button[data-legal]");
    if ((await buttons.count()) === 0) throw new Error(`the page must decide ${kind} but has no button[data-legal]`);
    await buttons.first().click();
  }
  await waitForNewSequence(page, before, timeoutMs);
}
