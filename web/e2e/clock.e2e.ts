// Clocks and absent players in the browser client, against a real carc-server in headless
// Chromium (docs/protocol.md section 15). A clock that runs out: Alice plays a greedy bot with a
// live clock of a 3-second bank, no increment, "they forfeit" and "the game ends"; she does not
// move, her clock runs down, and the page shows the game ended as resigned. A player who leaves:
// Alice and Bob, no clock, a grace period of 2 seconds and stand-ins; Bob closes his page, Alice
// sees the stand-in badge on Bob's seat and the game moving on while she plays; Bob opens the game
// again (his token is in his browser's storage) and the badge goes: the seat is his again. A clock
// that runs out while its player is connected: a correspondence clock of 4 seconds a decision with
// stand-ins; Alice does not decide, a stand-in takes her seat, her page shows the banner, and
// "Take my seat back" gives it back. The seeds are fixed (the lobby's ?seed=) and every choice is
// the first one; nothing asserts how long anything took.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";

import { DESKTOP } from "./support/browser";
import { describeState, gameState } from "./support/pages";
import { decideFirst } from "./support/play";
import { e2eSuite } from "./support/suite";

const SEED = 21;
const TURN_TIMEOUT_MS = 30_000; // a bot's move, a clock of seconds, a grace period of seconds

interface ClockGame {
  readonly name: string;
  readonly bot?: "greedy"; // seat 1, else a person
  readonly clock: "none" | "live" | "correspondence";
  readonly bankMinutes?: string;
  readonly incrementSeconds?: string;
  readonly decisionHours?: string;
  readonly graceSeconds: string;
  readonly onAbsent: "stand-in" | "forfeit";
  readonly onResign: "end" | "bot";
}

const suite = e2eSuite();

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function gameIdOf(page: Page): string {
  return decodeURIComponent(new URL(page.url()).pathname.split("/").pop() ?? "");
}

// Alice fills in the lobby's form, clock included, and creates a two-seat game of The City.
async function createClockGame(page: Page, game: ClockGame, seed: number): Promise<string> {
  await page.goto(`/?seed=${seed}`);
  await page.locator('input[aria-label="Your name"]').fill("Alice");
  await page.locator('input[aria-label="Game name"]').fill(game.name);
  await page.locator('select[aria-label="Rule set"] option[value="the-city"]').waitFor({ state: "attached" });
  await page.locator('select[aria-label="Rule set"]').selectOption("the-city");
  await page.locator('select[aria-label="Seats"]').selectOption("2");
  if (game.bot !== undefined) await page.locator('fieldset.seat-choices select[data-seat="1"]').selectOption(game.bot);
  await page.locator('select[aria-label="If a player resigns"]').selectOption(game.onResign);
  // No clock and no grace period at first: the policy has nothing to apply to and is not shown.
  await expect.poll(() => page.locator('select[aria-label="Clock"]').inputValue()).toBe("none");
  await expect.poll(() => page.locator('select[aria-label="If a player is away or out of time"]').isVisible(), { message: "the policy's menu" }).toBe(false);
  await page.locator('select[aria-label="Clock"]').selectOption(game.clock);
  if (game.bankMinutes !== undefined) await page.locator('input[aria-label="Time bank (minutes)"]').fill(game.bankMinutes);
  if (game.incrementSeconds !== undefined) await page.locator('input[aria-label="Increment (seconds)"]').fill(game.incrementSeconds);
  if (game.decisionHours !== undefined) await page.locator('input[aria-label="Time per decision (hours)"]').fill(game.decisionHours);
  await page.locator('input[aria-label="Grace period (seconds)"]').fill(game.graceSeconds);
  await page.locator('select[aria-label="If a player is away or out of time"]').selectOption(game.onAbsent);
  await page.getByRole("button", { name: "Create game", exact: true }).click();
  await page.waitForURL(/\/game\/[^/]+$/);
  const id = gameIdOf(page);
  expect(id).not.toBe("");
  return id;
}

// Bob opens the game and joins its free seat; two seats taken start the game.
async function bobJoins(page: Page, id: string): Promise<void> {
  await page.goto(`/game/${encodeURIComponent(id)}`);
  const open = page.locator("section.open-game");
  await open.locator('input[aria-label="Your name"]').fill("Bob");
  await open.getByRole("button", { name: "Join", exact: true }).click();
}

async function running(page: Page): Promise<void> {
  await page.locator('.game-page[data-status="running"][data-sequence]').waitFor({ timeout: TURN_TIMEOUT_MS });
}

// A seat's row in the page's clocks and seats.
function seatRow(page: Page, seat: number) {
  return page.locator(`section.seat-clocks li[data-seat="${seat}"]`);
}

describe("clocks and absent players", () => {
  it("ends the game when a live clock runs out and its player forfeits", { timeout: 120_000 }, async () => {
    const alice = await suite.alice.newPage();
    await createClockGame(alice, { name: "E2E clock runs out", bot: "greedy", clock: "live", bankMinutes: "0.05", incrementSeconds: "0", graceSeconds: "0", onAbsent: "forfeit", onResign: "end" }, SEED);
    await alice.locator('.game-page[data-status][data-sequence]').waitFor({ timeout: TURN_TIMEOUT_MS });
    // Both seats have a clock, and the time control is said in words.
    const clocks = alice.locator("section.seat-clocks");
    await clocks.locator(".time-control-words", { hasText: "Live clock: 3 s + 0 s a turn. A player out of time: forfeits." }).waitFor();
    await expect.poll(() => clocks.locator("li[data-seat]").count()).toBe(2);
    await expect.poll(() => seatRow(alice, 1).locator(".clock-name").textContent()).toBe("Greedy bot");
    // Alice decides first and does not: her clock, the running one, counts down from 00:03.
    const aliceClock = seatRow(alice, 0).locator(".clock-time");
    await expect.poll(() => aliceClock.textContent(), { message: "Alice's clock" }).toMatch(/^00:0[0-3]$/);
    // Out of time, she forfeits and, by the game's policy, the game ends.
    await alice.locator('.game-page[data-status="resigned"]').waitFor({ timeout: TURN_TIMEOUT_MS });
    await expect.poll(() => alice.locator("svg.board-svg rect.legal-cell, section.decision button[data-legal]").count(), { message: "no decision once the game ended" }).toBe(0);
    await alice.getByRole("button", { name: "Rematch", exact: true }).waitFor();
    // The bot's clock never ran: its seat's bank is whole.
    await expect.poll(() => seatRow(alice, 1).locator(".clock-time").textContent()).toBe("00:03");
    await expect.poll(() => alice.locator(".stand-in-banner").isVisible(), { message: "the stand-in banner" }).toBe(false);
    await alice.close();
  });

  it("lets a stand-in play for a player who left, until they come back", { timeout: 180_000 }, async () => {
    const alice = await suite.alice.newPage();
    const id = await createClockGame(alice, { name: "E2E stand-in", clock: "none", graceSeconds: "2", onAbsent: "stand-in", onResign: "bot" }, SEED + 1);
    const bobContext = await suite.browsers.person("bob", DESKTOP);
    let bob = await bobContext.newPage();
    await bobJoins(bob, id);
    for (const page of [alice, bob]) await running(page);
    // No clock, but a grace period: the seats are listed, without clocks, none stood in for.
    await alice.locator("section.seat-clocks .time-control-words", { hasText: "No clock. A player away for 2 s: a stand-in bot plays for them." }).waitFor();
    await expect.poll(() => alice.locator("section.seat-clocks .clock-time").count()).toBe(0);
    await expect.poll(() => alice.locator('section.seat-clocks li[data-stand-in="false"]').count()).toBe(2);

    // Bob leaves; once his grace period is over, a stand-in plays his seat, for everybody to see.
    await bob.close();
    const bobsRow = seatRow(alice, 1);
    await alice.locator('section.seat-clocks li[data-seat="1"][data-stand-in="true"]').waitFor({ timeout: TURN_TIMEOUT_MS });
    await expect.poll(() => bobsRow.locator(".stand-in-badge").textContent()).toBe("stand-in");
    await expect.poll(() => bobsRow.locator(".clock-name").textContent()).toBe("Bob");
    await expect.poll(() => seatRow(alice, 0).getAttribute("data-stand-in")).toBe("false");
    // Alice is not the one stood in for: no banner on her page.
    await expect.poll(() => alice.locator(".stand-in-banner").isVisible(), { message: "a banner on Alice's page" }).toBe(false);

    // The game moves: Alice decides, and the stand-in decides for Bob's seat in between.
    const start = Number((await gameState(alice)).sequence);
    let aliceDecisions = 0;
    for (let i = 0; i < 400 && (aliceDecisions < 3 || Number((await gameState(alice)).sequence) < start + 8); i++) {
      const s = await gameState(alice);
      if (s.error !== null) throw new Error(`Alice's page shows an error: ${describeState("Alice", s)}`);
      if (s.decision !== null && s.decision !== "") {
        await decideFirst(alice, s.decision, TURN_TIMEOUT_MS);
        aliceDecisions += 1;
      } else {
        await sleep(50);
      }
    }
    expect(aliceDecisions, "Alice's decisions while the stand-in played").toBeGreaterThanOrEqual(3);
    expect(Number((await gameState(alice)).sequence), "the game moved on with the stand-in").toBeGreaterThanOrEqual(start + 8);
    expect((await gameState(alice)).status).toBe("running");

    // Bob opens the game again: his page resumes the seat with his stored token, and the
    // stand-in leaves.
    bob = await bobContext.newPage();
    await bob.goto(`/game/${encodeURIComponent(id)}`);
    await running(bob);
    await alice.locator('section.seat-clocks li[data-seat="1"][data-stand-in="false"]').waitFor({ timeout: TURN_TIMEOUT_MS });
    await expect.poll(() => bobsRow.locator(".stand-in-badge").count()).toBe(0);
    await expect.poll(async () => (await gameState(bob)).watching, { message: "Bob has his seat, not a spectator's view" }).toBe(false);
    await expect.poll(() => bob.locator(".stand-in-banner").isVisible(), { message: "a banner on Bob's page" }).toBe(false);
    await bobContext.close();
    await alice.close();
  });

  it("gives a seat a stand-in when its player's clock runs out, and takes it back on request", { timeout: 180_000 }, async () => {
    const alice = await suite.alice.newPage();
    // 4 seconds a decision (in hours, as the form takes it).
    const id = await createClockGame(alice, { name: "E2E take it back", clock: "correspondence", decisionHours: String(4 / 3600), graceSeconds: "0", onAbsent: "stand-in", onResign: "bot" }, SEED + 2);
    const bob = await suite.browsers.page("bob", DESKTOP);
    await bobJoins(bob, id);
    for (const page of [alice, bob]) await running(page);
    await alice.locator("section.seat-clocks .time-control-words", { hasText: "Correspondence: 4 s a decision. A player out of time: a stand-in bot plays for them." }).waitFor();
    // Alice decides first and does not: a stand-in takes her seat; both pages mark it, and hers
    // offers it back.
    for (const page of [alice, bob]) await page.locator('section.seat-clocks li[data-seat="0"][data-stand-in="true"]').waitFor({ timeout: TURN_TIMEOUT_MS });
    const banner = alice.locator(".stand-in-banner");
    await banner.getByRole("button", { name: "Take my seat back", exact: true }).waitFor();
    await expect.poll(() => banner.textContent()).toContain("A stand-in (Greedy bot) plays your seat");
    await expect.poll(() => bob.locator(".stand-in-banner").isVisible(), { message: "only the player stood in for sees the banner" }).toBe(false);
    await expect.poll(() => alice.locator("svg.board-svg rect.legal-cell, section.decision button[data-legal]").count(), { message: "no decision while the stand-in plays" }).toBe(0);
    await banner.getByRole("button", { name: "Take my seat back", exact: true }).click();
    // The seat is Alice's again: the badge goes on both pages.
    for (const page of [alice, bob]) await page.locator('section.seat-clocks li[data-seat="0"][data-stand-in="false"]').waitFor({ timeout: TURN_TIMEOUT_MS });
    expect((await gameState(alice)).error, "no error on Alice's page").toBeNull();
    await bob.context().close();
    await alice.close();
  });
});
