// A match against bots in the browser client, against a real carc-server in headless Chromium:
// Alice alone creates a game of The City with a greedy bot in the second seat from the lobby's
// form, sends a chat line that she and a spectator see, and plays the whole game against the bot
// by clicking (the first legal cell and "Place tile", the first of each decision's buttons); the
// game's replay then shows the chat line and checks the fairness proof ("Fair: N draws match the
// commitment"). A second game (policy: the game ends) she resigns: the page, and the lobby's
// finished games, say "resigned" apart from finished; she asks for a rematch and lands in the new
// game, which the old one links to. A whole game of The Castle against a random bot. And a game
// of three (Alice, Bob and a bot) whose policy lets a bot take a resigned seat: Alice resigns and
// the game plays on with a bot in her seat; Bob resigns too, and with no person left the game ends
// as resigned; Bob asks for a rematch and Alice is offered her seat in it. The seeds are fixed
// (the lobby's ?seed=) and every choice is the first one, so every run plays the same games.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";

import { DESKTOP } from "./support/browser";
import { describeState, gameState, replayPosition } from "./support/pages";
import { decideFirst } from "./support/play";
import { e2eSuite } from "./support/suite";

const CITY_SEED = 7;
const CASTLE_SEED = 10;
const CHAT_LINE = "Good luck, bot!";
const TURN_TIMEOUT_MS = 30_000; // a bot's move comes within its budget

type Level = "random" | "greedy" | "strong";

interface BotGame {
  readonly name: string;
  readonly seed: number;
  readonly ruleSet: string;
  readonly seats?: number; // 2 when left out
  readonly bots: Readonly<Record<number, Level>>; // by seat number (0 is Alice's)
  readonly onResign: "end" | "bot";
  readonly spectatorsChat?: boolean;
}

const suite = e2eSuite();
let finishedId: string | null = null;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function gameIdOf(page: Page): string {
  return decodeURIComponent(new URL(page.url()).pathname.split("/").pop() ?? "");
}

// Alice creates a game with bots in some seats, from the lobby's form; the bots' seats are taken
// at once, so her joining starts the game when no other person is to come. Returns the game's id.
async function createBotGame(page: Page, game: BotGame): Promise<string> {
  const seats = game.seats ?? 2;
  await page.goto(`/?seed=${game.seed}`);
  await page.locator('input[aria-label="Your name"]').fill("Alice");
  await page.locator('input[aria-label="Game name"]').fill(game.name);
  const ruleSets = page.locator('select[aria-label="Rule set"]');
  await ruleSets.locator(`option[value="${game.ruleSet}"]`).waitFor({ state: "attached" });
  await ruleSets.selectOption(game.ruleSet);
  await page.locator('select[aria-label="Seats"]').selectOption(String(seats));
  // A menu for every seat but Alice's.
  await expect.poll(() => page.locator("fieldset.seat-choices select").count(), { message: "seat menus" }).toBe(seats - 1);
  const seat2 = page.locator('fieldset.seat-choices select[data-seat="1"]');
  await expect.poll(() => seat2.locator("option").allTextContents()).toEqual(["Person", "Random bot", "Greedy bot", "Strong bot"]);
  for (const [seat, level] of Object.entries(game.bots)) {
    await page.locator(`fieldset.seat-choices select[data-seat="${seat}"]`).selectOption(level);
  }
  await page.locator('select[aria-label="If a player resigns"]').selectOption(game.onResign);
  if (game.spectatorsChat === true) await page.getByLabel("Spectators may chat").check();
  await page.getByRole("button", { name: "Create game", exact: true }).click();
  await page.waitForURL(/\/game\/[^/]+$/);
  const id = gameIdOf(page);
  expect(id).not.toBe("");
  const people = seats - Object.keys(game.bots).length;
  await page.locator(people === 1 ? '.game-page[data-status="running"][data-sequence]' : "section.open-game").waitFor({ timeout: TURN_TIMEOUT_MS });
  return id;
}

// Alice's decisions until the game is over (the bot answers in between); returns how many.
async function playAgainstBot(page: Page, maxDecisions: number): Promise<number> {
  for (let made = 0; made < maxDecisions; ) {
    const s = await gameState(page);
    if (s.status === "finished") return made;
    if (s.error !== null) throw new Error(`the page shows an error: ${describeState("Alice", s)}`);
    if (s.decision !== null && s.decision !== "") {
      await decideFirst(page, s.decision, TURN_TIMEOUT_MS);
      made += 1;
      continue;
    }
    await sleep(25);
  }
  throw new Error(`the game did not end within ${maxDecisions} of Alice's decisions`);
}

async function sendChat(page: Page, text: string): Promise<void> {
  const chat = page.locator("section.chat");
  await chat.getByLabel("Message", { exact: true }).fill(text);
  await expect.poll(() => chat.locator(".chat-counter").textContent()).toBe(`${new TextEncoder().encode(text).length} / 200`);
  await chat.getByRole("button", { name: "Send", exact: true }).click();
  await chat.locator(".chat-lines li .chat-text", { hasText: text }).waitFor();
  await expect.poll(() => chat.getByLabel("Message", { exact: true }).inputValue(), { message: "the field is emptied once the line is sent" }).toBe("");
}

describe("a match against bots", () => {
  it("plays a whole game of The City against a greedy bot, with a chat line", { timeout: 600_000 }, async () => {
    const page = await suite.alice.newPage();
    const id = await createBotGame(page, { name: "E2E bot match", seed: CITY_SEED, ruleSet: "the-city", bots: { 1: "greedy" }, onResign: "end" });
    // The bot's seat goes by its level, in the game's panel.
    await expect.poll(() => page.locator("aside.side").textContent()).toContain("Greedy bot");

    const spectator = await suite.browsers.page("spectator", DESKTOP);
    await spectator.goto(`/game/${encodeURIComponent(id)}`);
    await spectator.locator(".role", { hasText: "You are watching." }).waitFor();
    // This game's spectators read the chat but may not write in it.
    await expect.poll(() => spectator.locator("section.chat").getByLabel("Message", { exact: true }).isDisabled(), { message: "the spectator's chat field disabled" }).toBe(true);
    await spectator.locator(".chat-note", { hasText: "Spectators may read this game's chat but not write in it." }).waitFor();

    await sendChat(page, CHAT_LINE);
    const line = spectator.locator("section.chat .chat-lines li", { hasText: CHAT_LINE });
    await line.waitFor();
    await expect.poll(() => line.locator(".chat-name").textContent()).toBe("Alice");
    // The bot has nothing to mute; a seat with a person would have its toggle.
    await expect.poll(() => page.locator(".chat-mutes button").count(), { message: "mute toggles" }).toBe(0);

    const decisions = await playAgainstBot(page, 400);
    expect(decisions, "Alice's decisions").toBeGreaterThan(20);
    await page.locator("section.final-scores").waitFor({ state: "visible" });
    await expect.poll(() => page.locator("section.final-scores").textContent()).toMatch(/\bwins?\b/);
    // Over: a seated player may ask for a rematch; the spectator may not.
    await page.getByRole("button", { name: "Rematch", exact: true }).waitFor();
    await spectator.locator('.game-page[data-status="finished"]').waitFor();
    await expect.poll(() => spectator.getByRole("button", { name: "Rematch", exact: true }).count(), { message: "the spectator's Rematch" }).toBe(0);
    // A reloaded page gets the chat again from the snapshot.
    await page.reload();
    await page.locator("section.chat .chat-lines li .chat-text", { hasText: CHAT_LINE }).waitFor();
    finishedId = id;
    await spectator.context().close();
    await page.close();
  });

  it("replays the game with its chat and checks that its draws were fair", { timeout: 60_000 }, async () => {
    if (finishedId === null) throw new Error("this test needs the game that the first test finishes");
    const page = await suite.alice.newPage();
    await page.goto(`/replay/${encodeURIComponent(finishedId)}`);
    await expect.poll(() => replayPosition(page), { timeout: 10_000 }).not.toBeNull();
    const verdict = page.locator('section.fairness [data-fair="yes"]');
    await verdict.waitFor({ timeout: 10_000 });
    await expect.poll(() => verdict.textContent()).toMatch(/^Fair: \d+ draws match the commitment$/);
    const draws = Number(/(\d+) draws/.exec((await verdict.textContent()) ?? "")?.[1]);
    expect(draws, "draws checked").toBeGreaterThan(40);
    await expect.poll(() => page.locator("section.fairness .commitment code").textContent()).toMatch(/^[0-9a-f]{64}$/);
    await page.locator("section.fairness details.proof summary").click();
    await expect.poll(() => page.locator("section.fairness details.proof pre").textContent()).toMatch(/^carc-draws 1\nrule-set the-city \d+\nseed 7\norder [\d ]+\nsalt [0-9a-f]{32}\n$/);
    // The chat line shows at the last step, where everything said has been said.
    await page.locator("section.chat .chat-lines li .chat-text", { hasText: CHAT_LINE }).waitFor();
    await page.close();
  });

  it("resigns a game, which ends it as resigned, and asks for a rematch", { timeout: 120_000 }, async () => {
    const page = await suite.alice.newPage();
    const id = await createBotGame(page, { name: "E2E resign", seed: CITY_SEED + 1, ruleSet: "the-city", bots: { 1: "greedy" }, onResign: "end" });
    // A confirmation first: "Keep playing" takes it back.
    await page.getByRole("button", { name: "Resign", exact: true }).click();
    await page.getByRole("button", { name: "Keep playing", exact: true }).click();
    await expect.poll(async () => (await gameState(page)).status).toBe("running");
    await page.getByRole("button", { name: "Resign", exact: true }).click();
    await page.getByRole("button", { name: "Yes, resign", exact: true }).click();
    await page.locator('.game-page[data-status="resigned"]').waitFor({ timeout: TURN_TIMEOUT_MS });
    await page.locator(".resigned-note", { hasText: "Alice resigned." }).waitFor();
    await expect.poll(() => page.locator("section.decision").count(), { message: "no decision once resigned" }).toBe(0);

    // The lobby lists it with the finished games, as ended by a resignation.
    const lobby = await suite.alice.newPage();
    await lobby.goto("/");
    const row = lobby.locator(`.finished-list tr[data-game="${id}"]`);
    await row.waitFor({ timeout: 10_000 });
    await expect.poll(() => row.locator("td.status").getAttribute("data-status")).toBe("resigned");
    await expect.poll(() => row.locator("td.status").textContent()).toBe("ended by a resignation");
    await expect.poll(() => row.textContent()).toContain("Alice (resigned)");
    await expect.poll(() => row.textContent()).toContain("Greedy bot");
    await lobby.close();

    await page.getByRole("button", { name: "Rematch", exact: true }).click();
    await page.waitForURL((url) => !url.pathname.endsWith(`/${encodeURIComponent(id)}`));
    const rematch = gameIdOf(page);
    expect(rematch).not.toBe(id);
    // Same seats: the bot again, and Alice in seat 1, so the new game runs at once.
    await page.locator('.game-page[data-status="running"][data-sequence]').waitFor({ timeout: TURN_TIMEOUT_MS });
    await expect.poll(() => page.locator("aside.side").textContent()).toContain("Greedy bot");
    // The old game links to its rematch.
    await page.goto(`/game/${encodeURIComponent(id)}`);
    await page.locator(".rematch-link a", { hasText: rematch }).waitFor({ timeout: 10_000 });
    await page.close();
  });

  it("plays a whole game of The Castle against a random bot", { timeout: 300_000 }, async () => {
    const page = await suite.alice.newPage();
    await createBotGame(page, { name: "E2E castle bot", seed: CASTLE_SEED, ruleSet: "the-castle", bots: { 1: "random" }, onResign: "end" });
    await expect.poll(() => page.locator("aside.side").textContent()).toContain("Random bot");
    expect(await playAgainstBot(page, 400), "Alice's decisions").toBeGreaterThan(20);
    await page.locator("section.final-scores").waitFor({ state: "visible" });
    await page.close();
  });

  it("lets a bot take a resigned seat, ends when no person is left, and offers the rematch", { timeout: 180_000 }, async () => {
    const alice = await suite.alice.newPage();
    const id = await createBotGame(alice, { name: "E2E stand-in", seed: CITY_SEED + 2, ruleSet: "the-city", seats: 3, bots: { 2: "random" }, onResign: "bot", spectatorsChat: true });
    const bob = await suite.browsers.page("bob", DESKTOP);
    await bob.goto(`/game/${encodeURIComponent(id)}`);
    const open = bob.locator("section.open-game");
    await open.locator('input[aria-label="Your name"]').fill("Bob");
    await open.getByRole("button", { name: "Join", exact: true }).click();
    for (const page of [alice, bob]) await page.locator('.game-page[data-status="running"][data-sequence]').waitFor({ timeout: TURN_TIMEOUT_MS });
    // Two people: each can mute the other's chat lines.
    await bob.locator('.chat-mutes button[data-mute-seat="0"]', { hasText: "Mute Alice" }).click();
    await bob.locator('.chat-mutes button[data-mute-seat="0"][aria-pressed="true"]', { hasText: "Unmute Alice" }).waitFor();
    await sendChat(alice, "Bob cannot read this");
    // Bob's own line, sent once Alice's was answered, comes back to him after hers would have:
    // the server handles a game's chat in order and writes to a connection in order.
    await sendChat(bob, "Bob writes after Alice");
    expect(await bob.locator(".chat-lines li", { hasText: "Bob cannot read this" }).count(), "a muted seat's line").toBe(0);
    // This game lets spectators write.
    const spectator = await suite.browsers.page("spectator", DESKTOP);
    await spectator.goto(`/game/${encodeURIComponent(id)}`);
    await spectator.locator(".role", { hasText: "You are watching." }).waitFor();
    await sendChat(spectator, "Hello from the stands");
    await alice.locator(".chat-lines li", { hasText: "Hello from the stands" }).waitFor();
    await spectator.context().close();

    await alice.getByRole("button", { name: "Resign", exact: true }).click();
    await alice.getByRole("button", { name: "Yes, resign", exact: true }).click();
    for (const page of [alice, bob]) {
      await page.locator(".resigned-note", { hasText: "Alice resigned: a bot plays the seat now." }).waitFor({ timeout: TURN_TIMEOUT_MS });
    }
    await expect.poll(async () => (await gameState(bob)).status, { message: "the game plays on" }).toBe("running");
    await expect.poll(() => alice.getByRole("button", { name: "Resign", exact: true }).count(), { message: "Alice's Resign" }).toBe(0);
    // Bob makes his decisions until the bots have played Alice's seat at least once.
    const start = Number((await gameState(bob)).sequence);
    let botMoved = false;
    for (let i = 0; i < 400 && !botMoved; i++) {
      const s = await gameState(bob);
      if (s.decision !== null && s.decision !== "") await decideFirst(bob, s.decision, TURN_TIMEOUT_MS);
      else await sleep(50);
      botMoved = Number((await gameState(alice)).sequence) > start + 6;
    }
    expect(botMoved, "the game went on after Alice resigned").toBe(true);
    // Bob resigns too: nobody is left to play, so the game ends as resigned.
    await bob.getByRole("button", { name: "Resign", exact: true }).click();
    await bob.getByRole("button", { name: "Yes, resign", exact: true }).click();
    for (const page of [alice, bob]) await page.locator('.game-page[data-status="resigned"]').waitFor({ timeout: TURN_TIMEOUT_MS });
    // Bob asks for the rematch; Alice, still on the old game's page, is offered her seat in it.
    await bob.getByRole("button", { name: "Rematch", exact: true }).click();
    await bob.waitForURL((url) => !url.pathname.endsWith(`/${encodeURIComponent(id)}`));
    const rematch = gameIdOf(bob);
    await alice.getByRole("button", { name: "Rematch: join the new game", exact: true }).click();
    await alice.waitForURL((url) => url.pathname.endsWith(`/${encodeURIComponent(rematch)}`));
    for (const page of [alice, bob]) await page.locator('.game-page[data-status="running"][data-sequence]').waitFor({ timeout: TURN_TIMEOUT_MS });
    await bob.context().close();
    await alice.close();
  });
});
