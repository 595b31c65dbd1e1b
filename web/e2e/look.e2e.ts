// How the board looks: a game of The City played by clicking for a while, then the spectator's
// board saved at three zooms (about 40, 90 and 200 pixels a tile: e2e/out/look-zoom-*.png), with
// the bold market signs far away and the fine ones close up; and the tile a move puts on the board
// dropping into place (the class tile-arrived, running the tile-drop animation) on the pages the
// move reaches as a delta, but neither on a board shown from a snapshot nor with reduced motion.
import { join } from "node:path";

import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";

import { OUT_DIR } from "./support/browser";
import { startWatchedGame } from "./support/lobby";
import { waitForSameSequence } from "./support/pages";
import { playToEnd, type Table } from "./support/play";
import { e2eSuite } from "./support/suite";

const GAME_SEED = 7; // the lobby's ?seed=, so every run plays the same game
const SEED = 20251126; // the clicks' choices
const BOARD_STEPS = 24; // decisions before the screenshots: a board of a dozen tiles or more
const MAX_STEPS_TO_A_TILE = 8; // decisions, one at a time, until one of them places a tile
const BOARD = "svg.board-svg";
const PLACED = `${BOARD} g.tile:not(.ghost)`;
const ARRIVED = `${BOARD} g.tile.tile-arrived`;
const ZOOMS = [40, 90, 200]; // pixels a tile
const ZOOM_KEYS = 30; // at most this many + or − presses to reach a zoom

const suite = e2eSuite();
let table: Table | null = null;
let steps = 0;

async function play(t: Table, count: number): Promise<void> {
  await playToEnd(t, {
    seed: SEED + steps,
    maxSteps: count + 1,
    stopAfterSteps: count,
    reloadBobAfterTiles: -1,
    keyboardTile: -1,
    checkSpectatorEvery: 1_000,
    onWallPhase: async () => undefined,
  });
  steps += count;
}

function tableOrFail(): Table {
  if (table === null) throw new Error("the game of the first test did not start");
  return table;
}

// Screen pixels a board tile (100 units) takes: "meet" shows the whole viewBox.
async function pixelsPerTile(page: Page): Promise<number> {
  return page.evaluate((sel) => {
    const svg = document.querySelector<SVGSVGElement>(sel);
    const r = svg?.getBoundingClientRect();
    const v = svg?.viewBox.baseVal;
    if (r === undefined || v === undefined || v.width === 0) throw new Error("no board");
    return 100 / Math.max(v.width / r.width, v.height / r.height);
  }, BOARD);
}

// Presses + or − (each zooms by 1.25) until a tile takes about `want` pixels.
async function zoomTo(page: Page, want: number): Promise<number> {
  for (let i = 0; i < ZOOM_KEYS; i++) {
    const now = await pixelsPerTile(page);
    if (now > want / 1.12 && now < want * 1.12) return now;
    await page.keyboard.press(now < want ? "+" : "-");
  }
  throw new Error(`the board did not come to ${want} pixels a tile`);
}

// The transforms (cells) of the placed tiles on the page.
async function placedCells(page: Page): Promise<string[]> {
  return page.locator(PLACED).evaluateAll((tiles) => tiles.map((t) => t.getAttribute("transform") ?? ""));
}

// Plays single decisions until one puts a tile on the board; returns the cells from before it.
async function placeOneTile(t: Table, watcher: Page): Promise<string[]> {
  for (let i = 0; i < MAX_STEPS_TO_A_TILE; i++) {
    const before = await placedCells(watcher);
    await play(t, 1);
    await waitForSameSequence(t.alice, watcher);
    if ((await placedCells(watcher)).length > before.length) return before;
  }
  throw new Error(`no tile was placed within ${MAX_STEPS_TO_A_TILE} decisions`);
}

// The animation the arrived tile's art runs, as the browser computes it.
async function arrivedAnimation(page: Page): Promise<string> {
  return page.locator(ARRIVED).evaluate((tile) => (tile.firstElementChild === null ? "" : getComputedStyle(tile.firstElementChild).animationName));
}

describe("the look of the board", () => {
  it("shows a board of The City at three zooms, with bold signs far away and fine ones close up", async () => {
    const t = await startWatchedGame(suite.browsers, suite.alice, { name: "Look", seed: GAME_SEED });
    table = t;
    await play(t, BOARD_STEPS);
    const page = t.spectator;
    await waitForSameSequence(t.alice, page);
    await expect.poll(() => page.locator(PLACED).count(), { message: "tiles on the board" }).toBeGreaterThanOrEqual(10);
    await page.keyboard.press("f");
    for (const want of ZOOMS) {
      const got = await zoomTo(page, want);
      const detail = got < 80 ? "coarse" : "fine";
      await expect.poll(() => page.locator(BOARD).getAttribute("data-detail"), { message: `the art's detail at ${got.toFixed(0)} pixels a tile` }).toBe(detail);
      const shown = detail === "coarse" ? ".pictogram-coarse" : ".pictogram-fine";
      const hidden = detail === "coarse" ? ".pictogram-fine" : ".pictogram-coarse";
      await expect.poll(() => page.locator(`${BOARD} ${shown}`).first().isVisible(), { message: `${shown} shown` }).toBe(true);
      await expect.poll(() => page.locator(`${BOARD} ${hidden}`).first().isVisible(), { message: `${hidden} hidden` }).toBe(false);
      await page.locator(BOARD).screenshot({ path: join(OUT_DIR, `look-zoom-${want}.png`) });
    }
  });

  it("drops a placed tile into place on the pages a move reaches, not on a snapshot's board", async () => {
    const t = tableOrFail();
    const before = await placeOneTile(t, t.spectator);
    // The mark lasts until the next move's delta, and the game waits on a player after a tile.
    await expect.poll(() => t.spectator.locator(ARRIVED).count(), { message: "the tile just placed, and only it, arrived" }).toBe(1);
    const arrived = await t.spectator.locator(ARRIVED).evaluateAll((tiles) => tiles.map((x) => x.getAttribute("transform") ?? ""));
    expect(before, "the arrived tile was not on the board before").not.toContain(arrived[0]);
    expect(await arrivedAnimation(t.spectator)).toBe("tile-drop");

    await t.spectator.reload();
    await waitForSameSequence(t.alice, t.spectator);
    await expect.poll(() => t.spectator.locator(PLACED).count(), { message: "tiles on the snapshot's board" }).toBeGreaterThan(before.length);
    // Marked, they would be in the board drawn with the tiles just counted.
    expect(await t.spectator.locator(ARRIVED).count(), "tiles arrived on a snapshot's board").toBe(0);
  });

  it("leaves placed tiles still when the person asks for reduced motion", async () => {
    const t = tableOrFail();
    await t.spectator.emulateMedia({ reducedMotion: "reduce" });
    const before = await placeOneTile(t, t.spectator);
    expect((await placedCells(t.spectator)).length).toBeGreaterThan(before.length);
    expect(await t.spectator.locator(ARRIVED).count(), "tiles arrived with reduced motion").toBe(0);
    await t.spectator.emulateMedia({ reducedMotion: null });
  });
});
