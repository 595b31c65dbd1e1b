// Carcassonne with the River in the browser client, against a real carc-server in headless
// Chromium: Alice creates a two-seat game of rule set "carcassonne" with the option river=1 from
// the lobby, Bob joins by the invite link, a spectator watches, and both seats play the whole
// game by clicking (tiles on the board, followers with the decision's buttons), with Bob's page
// reloaded in the middle and resuming his seat; then the final scores, and the game's replay.
// The game's seed is fixed (the lobby's ?seed=) and every choice comes from a seeded generator.
import { join } from "node:path";

import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";

import { OUT_DIR } from "./support/browser";
import { startWatchedGame } from "./support/lobby";
import { gameState, replayPosition, waitForSequence } from "./support/pages";
import { checkSpectator, playToEnd, type Table } from "./support/play";
import { e2eSuite } from "./support/suite";

const GAME_NAME = "E2E river";
const GAME_SEED = 11;
const SEED = 20251123;

interface FinishedGame {
  readonly id: string;
  readonly tiles: number;
}

const suite = e2eSuite();
let finished: FinishedGame | null = null;

function shot(name: string): string {
  return join(OUT_DIR, name);
}

// What the board has shown at least once over the game.
interface Seen {
  farmers: number;
  standing: number;
  pennants: number;
  rivers: number;
  monasteries: number;
}

async function lookAtBoard(page: Page, seen: Seen): Promise<void> {
  const counts = await page.evaluate(() => {
    const board = document.querySelector("svg.board-svg");
    const n = (sel: string): number => board?.querySelectorAll(sel).length ?? 0;
    return {
      farmers: n("g.follower.farmer"),
      standing: n(".follower:not(.farmer)"),
      pennants: n("g.tile:not(.ghost) .pennant"),
      rivers: n("g.tile:not(.ghost) path.river"),
      monasteries: n("g.tile:not(.ghost) .monastery"),
    };
  });
  for (const k of Object.keys(counts) as (keyof Seen)[]) seen[k] = Math.max(seen[k], counts[k]);
}

describe("Carcassonne with the River", () => {
  it("is offered by the lobby with its river option", { timeout: 30_000 }, async () => {
    const page = await suite.alice.newPage();
    await page.goto("/");
    const ruleSets = page.locator('select[aria-label="Rule set"]');
    await ruleSets.locator('option[value="carcassonne"]:not([disabled])').waitFor({ state: "attached" });
    await ruleSets.selectOption("carcassonne");
    const river = page.locator('.rule-options input[data-option="river"]');
    await river.waitFor();
    await expect.poll(() => river.getAttribute("min")).toBe("0");
    await expect.poll(() => river.getAttribute("max")).toBe("1");
    await expect.poll(() => river.inputValue()).toBe("1");
    await expect.poll(async () => (await page.locator('select[aria-label="Seats"] option').allTextContents())[0]).toBe("2 players");
    await page.close();
  });

  it("plays a whole two-player game by clicking, watched by a spectator", { timeout: 240_000 }, async () => {
    const table: Table = await startWatchedGame(suite.browsers, suite.alice, { name: GAME_NAME, seed: GAME_SEED, ruleSet: "carcassonne", options: { river: 1 } });
    const { alice: alicePage, bob: bobPage, spectator } = table;
    const id = decodeURIComponent(new URL(alicePage.url()).pathname.split("/").pop() ?? "");
    await checkSpectator(table);
    // The spring lies at (0, 0) before the first draw, and the River's tiles come first.
    await expect.poll(() => alicePage.locator("svg.board-svg g.tile:not(.ghost) .river-pool").count(), { message: "the spring" }).toBe(1);
    await expect.poll(() => alicePage.locator(".stacks").textContent()).toMatch(/With the River · tiles left \d+/);

    const seen: Seen = { farmers: 0, standing: 0, pennants: 0, rivers: 0, monasteries: 0 };
    let farmerShot = false;
    const result = await playToEnd(table, {
      seed: SEED,
      maxSteps: 400,
      reloadBobAfterTiles: 30,
      keyboardTile: 14,
      checkSpectatorEvery: 10,
      onWallPhase: () => Promise.resolve(),
      afterStep: async (t) => {
        await lookAtBoard(t.alice, seen);
        if (!farmerShot && seen.farmers > 0) {
          farmerShot = true;
          await t.alice.screenshot({ path: shot("river-farmer.png") });
        }
      },
    });
    expect(result.tiles, "tiles placed by clicking").toBeGreaterThan(60);
    expect(result.wallPhaseSeen).toBe(false);
    expect(seen.rivers, "river tiles on the board").toBeGreaterThanOrEqual(12);
    expect(seen.pennants, "pennants on the board").toBeGreaterThan(0);
    expect(seen.monasteries, "monasteries on the board").toBeGreaterThan(0);
    expect(seen.standing, "standing followers").toBeGreaterThan(0);
    expect(seen.farmers, "farmers lying in fields").toBeGreaterThan(0);

    for (const [who, page] of [
      ["Alice", alicePage],
      ["Bob", bobPage],
    ] as const) {
      const scores = page.locator("section.final-scores");
      await scores.waitFor({ state: "visible" });
      const text = (await scores.textContent()) ?? "";
      expect(text, `${who}'s final scores`).toMatch(/\bwins?\b/);
      for (const source of ["Roads", "Cities", "Monasteries", "Fields", "Total"]) expect(text).toContain(source);
      expect((await gameState(page)).status).toBe("finished");
    }
    const end = await gameState(alicePage);
    await waitForSequence(spectator, end.sequence);
    await spectator.locator("section.final-scores").waitFor({ state: "visible" });
    expect((await gameState(spectator)).tiles).toBe(end.tiles);
    await alicePage.screenshot({ path: shot("river-final-scores.png") });
    finished = { id, tiles: end.tiles };
    await bobPage.context().close();
    await spectator.context().close();
    await alicePage.close();
  });

  it("plays without the River (river=0): the start tile, and land tiles only", { timeout: 60_000 }, async () => {
    const context = await suite.browsers.person("alice-no-river");
    const table = await startWatchedGame(suite.browsers, context, { name: "E2E no river", seed: GAME_SEED, ruleSet: "carcassonne", options: { river: 0 } });
    const alice = table.alice;
    await expect.poll(() => alice.locator("svg.board-svg g.tile:not(.ghost)").count(), { message: "the start tile" }).toBe(1);
    await expect.poll(() => alice.locator("svg.board-svg g.tile:not(.ghost) .city").count(), { message: "the start tile's city" }).toBeGreaterThan(0);
    expect(await alice.locator("svg.board-svg g.tile:not(.ghost) path.river").count(), "river on the start tile").toBe(0);
    await expect.poll(() => alice.locator(".stacks").textContent()).toMatch(/Without the River · tiles left 7[01]/);
    const result = await playToEnd(table, { seed: SEED + 1, maxSteps: 40, reloadBobAfterTiles: -1, keyboardTile: -1, checkSpectatorEvery: 5, onWallPhase: () => Promise.resolve(), stopAfterSteps: 12 });
    expect(result.tiles).toBeGreaterThan(4);
    await checkSpectator(table);
    expect(await alice.locator("svg.board-svg g.tile:not(.ghost) path.river").count(), "river tiles without the River").toBe(0);
    await alice.screenshot({ path: shot("no-river.png") });
    await table.bob.context().close();
    await table.spectator.context().close();
    await context.close();
  });

  it("replays the finished game, checking every step", { timeout: 60_000 }, async () => {
    if (finished === null) throw new Error("this test needs the game that the full-game test finishes");
    const game = finished;
    const page = await suite.alice.newPage();
    await page.goto(`/replay/${encodeURIComponent(game.id)}`);
    await expect.poll(() => replayPosition(page), { timeout: 10_000 }).not.toBeNull();
    const total = (await replayPosition(page))?.of ?? 0;
    expect(total, "steps in the replay").toBeGreaterThan(100);
    const slider = page.locator('input[type="range"][aria-label="Step"]');
    const middle = Math.floor(total / 2);
    await slider.fill(String(middle));
    await expect.poll(() => replayPosition(page)).toEqual({ step: middle, of: total });
    await page.screenshot({ path: shot("river-replay.png") });
    await page.getByRole("button", { name: "Next step", exact: true }).click();
    await expect.poll(() => replayPosition(page)).toEqual({ step: middle + 1, of: total });
    await page.getByRole("button", { name: "Previous step", exact: true }).click();
    await expect.poll(() => replayPosition(page)).toEqual({ step: middle, of: total });
    await slider.fill(String(total));
    await expect.poll(() => replayPosition(page)).toEqual({ step: total, of: total });
    const tiles = () => page.locator("svg.board-svg g.tile:not(.ghost)").count();
    await expect.poll(tiles, { message: "tiles at the replay's last step" }).toBe(game.tiles);
    await page.locator("section.final-scores").waitFor({ state: "visible" });
    await page.close();
  });
});
