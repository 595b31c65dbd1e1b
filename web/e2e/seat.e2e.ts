// A seat on any device, the watcher count, the turn notice and a game that does not exist.
// Alice creates a two-seat game (/?seed=7) and Bob joins by the invite link: the lobby then shows
// nobody watching, and one watcher once a spectator opens the game. The seat that must decide
// has "● Your turn" in its tab's title, the other not; the other, with the tone and the
// notification switched on (remembered across a reload) and its tab in the background, gets both
// once when its turn comes. Bob's seat link, opened in a fresh browser
// context (his phone), takes his seat there: the address loses its fragment, the phone decides
// for him, and his first page says the seat was taken on another device and only watches, until
// its "Take the seat back here" takes it back. A third context takes the seat by pasting the
// link into the game page. The lobby's Join asks for a name, the remembered one filled in.
// /game/nosuchgame says there is no such game, with a way to the lobby.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";

import { PHONE, TOUCH_PHONE } from "./support/browser";
import { createGame, joinByInvite } from "./support/lobby";
import { gameState, waitForSequence } from "./support/pages";
import { e2eSuite } from "./support/suite";

const GAME = { name: "E2E seat", seed: 7 };
const YOUR_TURN = "● Your turn";
const MAX_DECISIONS_IN_A_TURN = 8;

const suite = e2eSuite();

async function watchers(lobby: Page, gameId: string): Promise<string> {
  await lobby.goto("/");
  const cell = lobby.locator(`tr[data-game="${gameId}"] td`).nth(4);
  await cell.waitFor();
  return ((await cell.textContent()) ?? "").trim();
}

// One decision, as a player makes it: a tile placed with the keyboard (N picks a legal cell,
// Enter places it), or the decision's first button.
async function decideOnce(page: Page): Promise<void> {
  const decision = page.locator("section.decision[data-decision]");
  await decision.waitFor();
  const before = (await gameState(page)).sequence;
  if ((await decision.getAttribute("data-decision")) === "place-tile") {
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press("n");
    await page.locator("svg.board-svg g.tile.ghost").waitFor();
    await page.keyboard.press("Enter");
  } else {
    await decision.locator("button[data-legal]").first().click();
  }
  await page.waitForFunction((prev) => document.querySelector(".game-page")?.getAttribute("data-sequence") !== prev, before);
}

// Switches on the tone and the notification in the page's settings, checks that a reload keeps
// them, then puts the page in the background with a recording sound and notification (a headless
// browser has neither a speaker nor a notification centre): window.turnSignals lists what came.
async function switchOnTurnSignals(page: Page): Promise<void> {
  await page.locator("details.turn-settings summary").click();
  await page.getByLabel("Play a sound on my turn").check();
  await page.getByLabel(/^Notify me on my turn/).check();
  const sequence = (await gameState(page)).sequence;
  await page.reload();
  await waitForSequence(page, sequence);
  await page.locator("details.turn-settings summary").click();
  await expect.poll(() => page.getByLabel("Play a sound on my turn").isChecked(), { message: "the sound setting is remembered" }).toBe(true);
  await expect.poll(() => page.getByLabel(/^Notify me on my turn/).isChecked(), { message: "the notification setting is remembered" }).toBe(true);
  await page.evaluate(() => {
    const signals: string[] = [];
    const w = window as unknown as Record<string, unknown>;
    w["turnSignals"] = signals;
    Object.defineProperty(document, "hidden", { get: () => true, configurable: true });
    w["Notification"] = class {
      static permission = "granted";
      constructor(title: string) {
        signals.push(`notification: ${title}`);
      }
    };
    const node = { connect: () => undefined, start: () => undefined, stop: () => undefined, frequency: { value: 0 }, gain: { setValueAtTime: () => undefined, exponentialRampToValueAtTime: () => undefined } };
    w["AudioContext"] = class {
      currentTime = 0;
      destination = {};
      constructor() {
        signals.push("tone");
      }
      createGain() {
        return node;
      }
      createOscillator() {
        return node;
      }
      close() {
        return Promise.resolve();
      }
    };
  });
}

async function seatMoved(page: Page): Promise<void> {
  await page.locator(".seat-moved", { hasText: "Your seat was taken on another device" }).waitFor();
  await page.locator("section.decision").waitFor({ state: "detached" });
}

async function holdsSeat(page: Page, sequence: string | null): Promise<void> {
  await waitForSequence(page, sequence);
  await page.locator(".seat-moved").waitFor({ state: "detached" });
  expect((await gameState(page)).watching, "the page watches instead of holding the seat").toBe(false);
}

describe("a seat on any device", () => {
  let gameId = "";
  let alice: Page;
  let bob: Page;

  it("counts a player who joined by the invite link as a player, not a watcher", async () => {
    alice = await suite.alice.newPage();
    gameId = await createGame(alice, GAME);
    await expect.poll(() => alice.getByRole("button", { name: /^Start now/ }).count(), { message: "Start now with one seat taken" }).toBe(0);
    const invite = (await alice.locator("p.invite a").getAttribute("href")) ?? "";
    bob = await suite.browsers.page("bob");
    await joinByInvite(bob, invite);
    await bob.locator("details.seat-link[open] input.seat-link-url").waitFor();
    await alice.locator('.game-page[data-status="running"][data-sequence]').waitFor();
    await bob.locator('.game-page[data-status="running"][data-sequence]').waitFor();

    const lobby = await suite.alice.newPage();
    await expect.poll(() => watchers(lobby, gameId), { message: "watching after Bob joined by the invite link" }).toBe("0");
    const spectator = await suite.browsers.page("spectator");
    await spectator.goto(`/game/${encodeURIComponent(gameId)}`);
    await spectator.locator(".role", { hasText: "You are watching." }).waitFor();
    await expect.poll(() => watchers(lobby, gameId), { message: "watching with one spectator" }).toBe("1");
    await lobby.close();
  });

  it("marks the tab's title when it is the seat's decision, and gives it back after", async () => {
    const sequence = (await gameState(alice)).sequence;
    await waitForSequence(bob, sequence);
    const [a, b] = await Promise.all([gameState(alice), gameState(bob)]);
    expect([a.decision, b.decision].filter((d) => d !== null), "one seat decides").toHaveLength(1);
    const [decider, other] = a.decision !== null ? [alice, bob] : [bob, alice];
    await decider.waitForFunction((mark) => document.title.startsWith(mark), YOUR_TURN);
    await expect.poll(() => other.title(), { message: "the other seat's title" }).not.toContain(YOUR_TURN);
    await switchOnTurnSignals(other);
    // The decider plays until the other seat must decide: then the titles change places.
    for (let i = 0; i < MAX_DECISIONS_IN_A_TURN && (await gameState(other)).decision === null; i++) {
      await decideOnce(decider);
    }
    await other.locator("section.decision").waitFor();
    await other.waitForFunction((mark) => document.title.startsWith(mark), YOUR_TURN);
    await decider.waitForFunction((mark) => !document.title.startsWith(mark), YOUR_TURN);
    // The page in the background played its tone and showed one notification, once.
    const signals = await other.evaluate(() => (window as unknown as { turnSignals: string[] }).turnSignals);
    expect(signals, "the tone and the notification when the turn came").toEqual(["tone", "notification: Your turn"]);
  });

  it("takes Bob's seat on another device with his seat link, and back", async () => {
    const link = (await bob.locator("input.seat-link-url").inputValue()).trim();
    expect(link).toMatch(new RegExp(`/game/${encodeURIComponent(gameId)}#seat=[0-9a-f]{32}$`));
    const phone = await suite.browsers.page("bob-phone", PHONE, TOUCH_PHONE);
    await phone.goto(link);
    const sequence = (await gameState(alice)).sequence;
    await holdsSeat(phone, sequence);
    expect(new URL(phone.url()).hash, "the seat link's fragment is left in the address bar").toBe("");
    await seatMoved(bob);
    await expect.poll(() => bob.title(), { message: "the title of the page that lost the seat" }).not.toContain(YOUR_TURN);
    await waitForSequence(bob, sequence); // it still watches the game

    // The first page takes the seat back; the phone is told in turn.
    await bob.getByRole("button", { name: "Take the seat back here" }).click();
    await holdsSeat(bob, sequence);
    await seatMoved(phone);

    // A third device takes it with the link pasted into the game page.
    const laptop = await suite.browsers.page("bob-laptop");
    await laptop.goto(`/game/${encodeURIComponent(gameId)}`);
    await laptop.locator(".role", { hasText: "You are watching." }).waitFor();
    await laptop.locator('input[aria-label="Seat link or code"]').fill(link);
    await laptop.getByRole("button", { name: "Take seat", exact: true }).click();
    await holdsSeat(laptop, sequence);
    await seatMoved(bob);
  });
});

describe("joining from the lobby", () => {
  it("asks for the name, filled in with the remembered one", async () => {
    const alice = await suite.alice.newPage();
    const gameId = await createGame(alice, { name: "E2E lobby join", seed: 8 });
    const carol = await suite.browsers.page("carol");
    await carol.goto("/");
    await carol.locator('section.create input[aria-label="Your name"]').fill("Carol");
    await carol.locator('section.create input[aria-label="Your name"]').press("Tab"); // remembered on change
    const row = carol.locator(`tr[data-game="${gameId}"]`);
    await row.getByRole("button", { name: "Join", exact: true }).click();
    const name = row.locator('input[aria-label="Your name for joining"]');
    await expect.poll(() => name.inputValue(), { message: "the remembered name" }).toBe("Carol");
    await name.fill("Carol C.");
    await row.locator("form.join-name").getByRole("button", { name: "Join", exact: true }).click();
    await carol.waitForURL(new RegExp(`/game/${encodeURIComponent(gameId)}$`));
    await alice.locator('.game-page[data-status="running"][data-sequence]').waitFor();
    await alice.locator("aside.side", { hasText: "Carol C." }).waitFor();
  });
});

describe("a game that does not exist", () => {
  it("says so, with a way to the lobby", async () => {
    const page = await suite.alice.newPage();
    await page.goto("/game/nosuchgame");
    await page.locator('.game-page[data-status="missing"]').waitFor();
    await page.getByRole("heading", { name: "No such game" }).waitFor();
    expect(await page.getByText("Loading the game…").count()).toBe(0);
    await page.getByRole("link", { name: "Go to the lobby" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await page.getByRole("heading", { name: "Play Carcassonne" }).waitFor();
  });
});
