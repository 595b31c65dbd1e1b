// A whole two-player game of The City played on touch phones (390×844, `hasTouch`, `isMobile`) by
// tapping, as people on phones would: a legal cell on the board and "Place tile", a follower's
// spot on the board (the view zooms on the tile just placed), or one of the decision's buttons. Before every tap the element tapped must be at least 44×44 CSS px, and the
// status bar (every score, whose turn it is, the tiles left) must be on the first screen.
import { join } from "node:path";

import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";

import { OUT_DIR, PHONE, TOUCH_PHONE } from "./support/browser";
import { startWatchedGame } from "./support/lobby";
import { clickableCells, gameState, waitForNewSequence } from "./support/pages";
import { nextTurn, seededRandom, type Turn } from "./support/play";
import { e2eSuite } from "./support/suite";

const GAME_SEED = 7;
const SEED = 4242;
const MAX_STEPS = 1000;
const TOUCH_TARGET_PX = 44;
const SKIP_LABEL = /^(no\b|skip|pass|don't|do not|none)/i;
const PREFER_ACTION = 0.8;

const suite = e2eSuite();

function pick<T>(items: readonly T[], rng: () => number): T {
  const item = items[Math.min(items.length - 1, Math.floor(rng() * items.length))];
  if (item === undefined) throw new Error("nothing to pick from");
  return item;
}

async function expectTappable(target: Locator, what: string): Promise<void> {
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  if (box === null) throw new Error(`${what} has no box on the page`);
  expect(box.width, `${what}'s width`).toBeGreaterThanOrEqual(TOUCH_TARGET_PX);
  expect(box.height, `${what}'s height`).toBeGreaterThanOrEqual(TOUCH_TARGET_PX);
}

async function tap(target: Locator, what: string): Promise<void> {
  await expectTappable(target, what);
  await target.tap();
}

// The status bar is on the first screen, with both players' scores, whose turn and tiles left.
async function expectStatusBar(page: Page, who: string): Promise<void> {
  const bar = page.locator(".status-bar");
  await bar.waitFor({ state: "visible" });
  const box = await bar.boundingBox();
  if (box === null) throw new Error(`${who}'s status bar has no box`);
  expect(box.y, `${who}'s status bar top`).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height, `${who}'s status bar bottom`).toBeLessThanOrEqual(PHONE.height);
  for (const part of [/Alice \d+/, /Bob \d+/, /to play|turn|Game over/, /\d+ tiles left/]) {
    await expect.poll(() => bar.textContent(), { message: `${who}'s status bar` }).toMatch(part);
  }
}

async function placeTile(turn: Turn, rng: () => number, screenshot: boolean): Promise<void> {
  const page = turn.page;
  const cells = page.locator("svg.board-svg rect.legal-cell");
  await cells.first().waitFor({ state: "attached" });
  await expect.poll(() => page.locator(".hint.keys").isVisible(), { message: "the keys' hint on a touch screen" }).toBe(false);
  const inView = await clickableCells(page);
  expect(inView.length, `${turn.name}: legal cells in the board's view`).toBeGreaterThan(0);
  await tap(cells.nth(pick(inView, rng)), "a legal cell");
  await page.locator("svg.board-svg g.tile.ghost").waitFor();
  await expect.poll(async () => (await page.locator("section.decision .hand p").textContent())?.trim() ?? "", { message: "the tile in hand in words" }).not.toBe("");
  if (screenshot) await page.screenshot({ path: join(OUT_DIR, "phone-game.png") });
  const before = (await gameState(page)).sequence;
  await tap(page.locator("section.decision").getByRole("button", { name: "Place tile", exact: true }), '"Place tile"');
  await waitForNewSequence(page, before);
}

// A follower's spot on the board: the view has zoomed on the tile just placed, so each spot is
// big enough to tap.
async function tapFollowerSpot(turn: Turn, rng: () => number): Promise<boolean> {
  const spots = turn.page.locator("svg.board-svg circle.follower-spot");
  const n = await spots.count();
  if (n === 0) return false;
  const before = (await gameState(turn.page)).sequence;
  await tap(spots.nth(pick([...Array(n).keys()], rng)), "a follower's spot");
  await waitForNewSequence(turn.page, before);
  return true;
}

async function chooseButton(turn: Turn, rng: () => number): Promise<void> {
  const buttons = turn.page.locator("section.decision button[data-legal]");
  const labels = (await buttons.allTextContents()).map((l) => l.trim());
  if (labels.length === 0) throw new Error(`${turn.name} must decide ${turn.kind} but has no button[data-legal]`);
  const all = labels.map((_, i) => i);
  const actions = all.filter((i) => !SKIP_LABEL.test(labels[i] ?? ""));
  const index = pick(actions.length > 0 && rng() < PREFER_ACTION ? actions : all, rng);
  const before = (await gameState(turn.page)).sequence;
  await tap(buttons.nth(index), `the button "${labels[index] ?? ""}"`);
  await waitForNewSequence(turn.page, before);
}

describe("The City on a phone", () => {
  it("plays a whole two-player game by tapping", { timeout: 420_000 }, async () => {
    const alice = await suite.browsers.person("alice-phone", PHONE, TOUCH_PHONE);
    const table = await startWatchedGame(suite.browsers, alice, { name: "Phone game", seed: GAME_SEED }, PHONE, TOUCH_PHONE);
    expect(await table.alice.evaluate(() => matchMedia("(pointer: coarse)").matches), "a touch screen").toBe(true);
    const rng = seededRandom(SEED);
    let tiles = 0;
    let spotsTapped = 0;
    let kinds = new Set<string>();
    for (let step = 0; ; step++) {
      if (step >= MAX_STEPS) throw new Error(`the game did not end within ${MAX_STEPS} decisions`);
      const turn = await nextTurn(table);
      if (turn === null) break;
      kinds.add(turn.kind);
      await expectStatusBar(turn.page, turn.name);
      if (turn.kind === "place-tile") {
        await placeTile(turn, rng, tiles === 30);
        tiles += 1;
      } else if (turn.kind === "place-follower" && rng() < 0.5 && (await tapFollowerSpot(turn, rng))) {
        spotsTapped += 1;
      } else {
        await chooseButton(turn, rng);
      }
    }
    kinds = new Set([...kinds].sort());
    expect(tiles, "tiles placed by tapping").toBeGreaterThan(40);
    expect(spotsTapped, "followers placed by tapping their spot on the board").toBeGreaterThan(0);
    expect([...kinds], "decisions made by tapping").toEqual(expect.arrayContaining(["place-follower", "place-tile"]));
    for (const [who, page] of [["Alice", table.alice], ["Bob", table.bob]] as const) {
      await page.locator("section.final-scores").waitFor();
      await expect.poll(async () => (await gameState(page)).status, { message: `${who}'s data-status` }).toBe("finished");
      await expectStatusBar(page, who);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${who}'s page width`).toBeLessThanOrEqual(PHONE.width);
    }
    await table.alice.screenshot({ path: join(OUT_DIR, "phone-final.png") });
  });
});
