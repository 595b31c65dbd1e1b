// The browser client against a real carc-server, in headless Chromium: the lobby, a whole
// two-player game played by clicking (with a spectator and a reload in the middle), its replay,
// the lobby's list of finished games, and the game page at phone size. The tests run in order
// and share the finished game; screenshots go to e2e/out/.
import { join } from "node:path";

import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";

import { OUT_DIR, PHONE } from "./support/browser";
import { startWatchedGame } from "./support/lobby";
import { gameState, liveIntervals, replayPosition, trackIntervals, waitForSequence } from "./support/pages";
import { checkSpectator, playToEnd } from "./support/play";
import { e2eSuite } from "./support/suite";

const GAME_NAME = "E2E game";
const GAME_SEED = 7; // the game's own seed (the lobby's ?seed=), so every run plays the same game
const SEED = 20240917;

interface FinishedGame {
  readonly id: string;
  readonly tiles: number; // on the board at the end
}

const suite = e2eSuite();
let finished: FinishedGame | null = null;

function shot(name: string): string {
  return join(OUT_DIR, name);
}

function finishedGame(): FinishedGame {
  if (finished === null) throw new Error("this test needs the game that the full-game test finishes");
  return finished;
}

async function expectFinalScores(page: Page, who: string): Promise<void> {
  const scores = page.locator("section.final-scores");
  await scores.waitFor({ state: "visible" });
  await expect.poll(() => scores.textContent(), { message: `${who}'s final scores` }).toMatch(/\bwins?\b/i);
  await expect.poll(async () => (await gameState(page)).status, { message: `${who}'s data-status` }).toBe("finished");
}

describe("the browser client", () => {
  it("shows the lobby", { timeout: 30_000 }, async () => {
    const page = await suite.alice.newPage();
    await page.goto("/");
    await page.locator('input[aria-label="Your name"]').waitFor();
    await page.getByRole("button", { name: "Create game", exact: true }).waitFor();
    await page.locator(".game-list").waitFor({ state: "attached" });
    // The banner may show while the first connection opens: it must be gone once it is open.
    await expect.poll(() => page.locator(".conn-status").isVisible(), { message: "the connection banner" }).toBe(false);
    // The rule sets come from the server's Welcome: this client draws all three it hosts, The
    // City, Carcassonne (the River) and The Castle; one of them is chosen.
    const ruleSets = page.locator('select[aria-label="Rule set"]');
    await ruleSets.locator('option[value="the-city"]').waitFor({ state: "attached" });
    const options = await ruleSets.locator("option").evaluateAll((os) => os.map((o) => [(o as HTMLOptionElement).value, (o as HTMLOptionElement).disabled]));
    expect(options.filter(([, disabled]) => !disabled).map(([id]) => id).sort()).toEqual(["carcassonne", "the-castle", "the-city"]);
    expect(["carcassonne", "the-castle", "the-city"]).toContain(await ruleSets.inputValue());
    await ruleSets.selectOption("the-city");
    await expect.poll(() => page.locator('select[aria-label="Seats"] option').allTextContents()).toEqual(["2 players", "3 players", "4 players"]);
    await page.screenshot({ path: shot("lobby.png") });
    await page.close();
  });

  it("plays a whole two-player game by clicking, watched by a spectator", { timeout: 170_000 }, async () => {
    const table = await startWatchedGame(suite.browsers, suite.alice, { name: GAME_NAME, seed: GAME_SEED });
    const { alice: alicePage, bob: bobPage, spectator } = table;
    const id = decodeURIComponent(new URL(alicePage.url()).pathname.split("/").pop() ?? "");
    await checkSpectator(table);

    const result = await playToEnd(table, {
      seed: SEED,
      maxSteps: 1000,
      reloadBobAfterTiles: 40,
      keyboardTile: 10,
      checkSpectatorEvery: 10,
      onWallPhase: (page) => page.screenshot({ path: shot("wall-phase.png") }).then(() => undefined),
    });
    expect(result.tiles, "tiles placed by clicking").toBeGreaterThan(40);
    expect(result.wallPhaseSeen, "the game reached the wall phase").toBe(true);

    await expectFinalScores(alicePage, "Alice");
    await expectFinalScores(bobPage, "Bob");
    const end = await gameState(alicePage);
    await waitForSequence(spectator, end.sequence);
    await expectFinalScores(spectator, "the spectator");
    await expect.poll(async () => (await gameState(spectator)).tiles, { message: "the spectator's tiles" }).toBe(end.tiles);
    await alicePage.screenshot({ path: shot("final-scores.png") });
    // After the final scores, a new game or the lobby is one click away.
    await alicePage.getByRole("button", { name: "New game", exact: true }).waitFor();
    await bobPage.getByRole("button", { name: "Back to the lobby", exact: true }).click();
    await bobPage.locator(".game-list").waitFor({ state: "attached" });
    expect(new URL(bobPage.url()).pathname, "Back to the lobby opens the lobby").toBe("/");
    finished = { id, tiles: end.tiles };
    await bobPage.context().close();
    await spectator.context().close();
    await alicePage.close();
  });

  it("steps through the finished game's replay", { timeout: 60_000 }, async () => {
    const game = finishedGame();
    const page = await suite.alice.newPage();
    await trackIntervals(page);
    await page.goto(`/replay/${encodeURIComponent(game.id)}`);
    await expect.poll(() => replayPosition(page), { timeout: 10_000 }).not.toBeNull();
    const total = (await replayPosition(page))?.of ?? 0;
    expect(total, "steps in the replay").toBeGreaterThan(40);
    await stepButtonsAndSlider(page, total, game);
    await playAndPause(page, total);
    await page.close();
  });

  it("lists the finished game in the lobby, with a replay", { timeout: 30_000 }, async () => {
    const game = finishedGame();
    const page = await suite.alice.newPage();
    await page.goto("/");
    const row = page.locator(`.finished-list tr[data-game="${game.id}"]`);
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain(GAME_NAME);
    await page.screenshot({ path: shot("lobby-finished.png") });
    await row.getByRole("button", { name: "Replay", exact: true }).click();
    await page.waitForURL(new RegExp(`/replay/${encodeURIComponent(game.id)}$`));
    await page.locator(".replay-position").waitFor();
    await page.close();
  });

  it("fits a phone's screen", { timeout: 30_000 }, async () => {
    const game = finishedGame();
    const page = await suite.browsers.page("phone", PHONE);
    await page.goto(`/game/${encodeURIComponent(game.id)}`);
    await page.locator('.game-page[data-status="finished"]').waitFor();
    const board = page.locator("svg.board-svg");
    await board.waitFor({ state: "visible" });
    await expect.poll(async () => (await gameState(page)).tiles).toBe(game.tiles);
    const box = await board.boundingBox();
    expect(box?.width ?? 0, "the board's width").toBeGreaterThan(100);
    expect(box?.height ?? 0, "the board's height").toBeGreaterThan(100);
    const width = await page.evaluate(() => document.scrollingElement?.scrollWidth ?? 0);
    expect(width, `the page's scroll width at 390 px (${await widest(page)})`).toBeLessThanOrEqual(400);
    await page.screenshot({ path: shot("phone.png") });
    await page.context().close();
  });
});

// The outermost elements that reach past the right edge of a phone's screen, to name the culprit.
async function widest(page: Page): Promise<string> {
  const out = await page.evaluate((limit) => {
    const past = [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > limit);
    const outer = past.filter((e) => !past.includes(e.parentElement as Element));
    const name = (e: Element): string => [e.tagName.toLowerCase(), ...e.classList].join(".");
    return outer.slice(0, 5).map((e) => `${name(e)} (in ${e.parentElement === null ? "-" : name(e.parentElement)}) to ${Math.round(e.getBoundingClientRect().right)} px`);
  }, PHONE.width + 10);
  return out.length > 0 ? `past the edge: ${out.join(", ")}` : "nothing past the edge";
}

// Next and Previous step from the middle, then the slider to the last step (the whole board).
async function stepButtonsAndSlider(page: Page, total: number, game: FinishedGame): Promise<void> {
  const slider = page.locator('input[type="range"][aria-label="Step"]');
  const middle = Math.floor(total / 2);
  await slider.fill(String(middle));
  await expect.poll(() => replayPosition(page)).toEqual({ step: middle, of: total });
  await page.screenshot({ path: join(OUT_DIR, "replay.png") });
  const atMiddle = await page.locator(".replay-page").getAttribute("data-sequence");
  expect(atMiddle, "data-sequence of the replay page").not.toBeNull();

  await page.getByRole("button", { name: "Next step", exact: true }).click();
  await expect.poll(() => replayPosition(page)).toEqual({ step: middle + 1, of: total });
  await expect.poll(() => page.locator(".replay-page").getAttribute("data-sequence")).not.toBe(atMiddle);
  await page.getByRole("button", { name: "Previous step", exact: true }).click();
  await expect.poll(() => replayPosition(page)).toEqual({ step: middle, of: total });
  await expect.poll(() => page.locator(".replay-page").getAttribute("data-sequence")).toBe(atMiddle);

  await slider.fill(String(total));
  await expect.poll(() => replayPosition(page)).toEqual({ step: total, of: total });
  const tiles = () => page.locator("svg.board-svg g.tile:not(.ghost)").count();
  await expect.poll(tiles, { message: "tiles at the replay's last step" }).toBe(game.tiles);
}

// From the first step, Play advances on its own; Pause stops it. Play steps on a timer of the
// page's (an interval, counted by trackIntervals): that Pause stopped it is shown by the timer
// being cleared, after which nothing can step on by itself, and then by a step made by hand
// landing exactly one further.
async function playAndPause(page: Page, total: number): Promise<void> {
  await page.getByRole("button", { name: "First step", exact: true }).click();
  await expect.poll(async () => (await replayPosition(page))?.step).toBeLessThan(total);
  const first = (await replayPosition(page))?.step ?? 0;
  const idle = await liveIntervals(page);
  await page.getByRole("button", { name: "Play", exact: true }).click();
  await expect.poll(async () => (await replayPosition(page))?.step).toBeGreaterThan(first);
  expect(await liveIntervals(page), "Play's timer").toBe(idle + 1);
  await page.getByRole("button", { name: "Pause", exact: true }).click();
  await page.getByRole("button", { name: "Play", exact: true }).waitFor();
  await expect.poll(() => liveIntervals(page), { message: "Play's timer, cleared by Pause" }).toBe(idle);
  const paused = (await replayPosition(page))?.step ?? 0;
  expect(paused, "the step Pause stopped at").toBeLessThan(total);
  await page.getByRole("button", { name: "Next step", exact: true }).click();
  await expect.poll(async () => (await replayPosition(page))?.step, { message: "the step after Pause and Next" }).toBe(paused + 1);
}
