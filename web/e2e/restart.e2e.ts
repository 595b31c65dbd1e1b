// The server crashes in the middle of a game and comes back: a two-player game is played by
// clicking for a while, the server is killed with SIGKILL (nothing flushed, no goodbye to the
// clients) and started again on the same port and database. The pages must say they are
// reconnecting, come back by themselves with the same state (every acknowledged move was in the
// log), resume their seats, and let the game go on; the spectator too. Screenshot:
// e2e/out/reconnecting.png.
import { join } from "node:path";

import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";

import { OUT_DIR } from "./support/browser";
import { startWatchedGame } from "./support/lobby";
import { describeState, gameState, waitForSequence, type GameState } from "./support/pages";
import { checkSpectator, playToEnd, type PlayResult, type Table } from "./support/play";
import { e2eSuite } from "./support/suite";

const GAME = { name: "E2E restart", seed: 7 };
const STEPS_BEFORE = 10;
const STEPS_AFTER = 6;
const SEED_BEFORE = 1101;
const SEED_AFTER = 2202;
// With the client's backoff (0.5 s doubling to 8 s) the pages are back within a few seconds of
// the restart; this only bounds a failure.
const RECONNECT_TIMEOUT_MS = 20_000;

const suite = e2eSuite();

function pages(t: Table): [string, Page][] {
  return [
    ["Alice", t.alice],
    ["Bob", t.bob],
    ["the spectator", t.spectator],
  ];
}

function play(t: Table, seed: number, steps: number): Promise<PlayResult> {
  return playToEnd(t, {
    seed,
    maxSteps: steps + 1,
    stopAfterSteps: steps,
    reloadBobAfterTiles: -1,
    keyboardTile: -1,
    checkSpectatorEvery: 5,
    onWallPhase: async () => undefined,
  });
}

async function reach(name: string, page: Page, sequence: string | null): Promise<void> {
  try {
    await waitForSequence(page, sequence, RECONNECT_TIMEOUT_MS);
  } catch (e) {
    throw new Error(`${name}: ${(e as Error).message}`);
  }
}

// Waits until the three pages show the same, newest state; returns the players' states.
async function settle(t: Table): Promise<{ alice: GameState; bob: GameState }> {
  const [a, b] = await Promise.all([gameState(t.alice), gameState(t.bob)]);
  const newest = Number(a.sequence ?? -1) >= Number(b.sequence ?? -1) ? a.sequence : b.sequence;
  for (const [name, page] of pages(t)) await reach(name, page, newest);
  return { alice: await gameState(t.alice), bob: await gameState(t.bob) };
}

// The banner of every page says it is reconnecting, and has gone again.
async function bannersShown(t: Table): Promise<void> {
  for (const [, page] of pages(t)) {
    await page.locator(".conn-status").filter({ hasText: "reconnecting" }).waitFor({ state: "visible" });
  }
}

async function bannersHidden(t: Table): Promise<void> {
  for (const [, page] of pages(t)) {
    await page.locator(".conn-status").waitFor({ state: "hidden", timeout: RECONNECT_TIMEOUT_MS });
  }
}

// While no server listens, Chromium itself logs every failed WebSocket attempt as a console error
// ("WebSocket connection to 'ws://…' failed: …"): that is the client retrying as it should, not a
// fault of the page. Exactly those are allowed, only from the kill until every page is back.
async function crashAndRestart(t: Table): Promise<void> {
  const url = suite.server.baseUrl.replace(/^http/, "ws").replace(/\./g, "\\.");
  suite.browsers.allowConsoleErrors(new RegExp(`^WebSocket connection to '${url}/' failed`));
  await suite.server.kill();
  await bannersShown(t);
  await t.alice.screenshot({ path: join(OUT_DIR, "reconnecting.png") });
  // Each page has tried the dead server at least once, so the retries after a failure are what
  // brings it back.
  await expect.poll(() => suite.browsers.allowedErrors(), { timeout: RECONNECT_TIMEOUT_MS }).toBeGreaterThanOrEqual(3);
  await suite.server.restart();
  await bannersHidden(t);
  suite.browsers.endAllowance();
}

describe("a restart of the server in the middle of a game", () => {
  it("loses nothing: the pages reconnect, resume their seats and play on", { timeout: 60_000 }, async () => {
    const table = await startWatchedGame(suite.browsers, suite.alice, GAME);
    await checkSpectator(table);
    await play(table, SEED_BEFORE, STEPS_BEFORE);
    const before = await settle(table);
    const decider =
      before.alice.decision !== null ? { name: "Alice", page: table.alice } : { name: "Bob", page: table.bob };
    const kind = before.alice.decision ?? before.bob.decision;
    const shown = `${describeState("Alice", before.alice)}\n${describeState("Bob", before.bob)}`;
    expect(kind, `someone must decide:\n${shown}`).not.toBeNull();

    await crashAndRestart(table);

    // Nothing acknowledged was lost: the same state on every page, the same seat to decide.
    for (const [name, page] of pages(table)) await reach(name, page, before.alice.sequence);
    await decider.page.locator(`section.decision[data-decision="${kind}"]`).waitFor();
    const [a, b] = await Promise.all([gameState(table.alice), gameState(table.bob)]);
    expect(a.tiles, "tiles on Alice's board after the restart").toBe(before.alice.tiles);
    expect(b.watching, "Bob's page watches instead of holding his seat").toBe(false);
    expect(a.watching, "Alice's page watches instead of holding her seat").toBe(false);
    expect([a.decision, b.decision].filter((d) => d !== null), `${decider.name} alone decides`).toEqual([kind]);
    await checkSpectator(table);

    // Moves by both seats are accepted: the server knows both pages hold their seats again.
    const { deciders } = await play(table, SEED_AFTER, STEPS_AFTER);
    expect(new Set(deciders), "the seats that moved after the restart").toEqual(new Set(["Alice", "Bob"]));
    const after = await settle(table);
    const advanced = Number(after.alice.sequence);
    expect(advanced, "the sequence after playing on").toBeGreaterThan(Number(before.alice.sequence));
    await checkSpectator(table);
  });
});
