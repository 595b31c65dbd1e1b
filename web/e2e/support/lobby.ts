// Starting a two-player game the way people do: the creator fills in the lobby's form, the second
// player opens the invite link and joins, and a third person watches. The lobby's ?seed= fixes
// the game's seed, so every run plays the same game.
import type { BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";

import { DESKTOP, type Browsers, type Device } from "./browser";
import type { Table } from "./play";

export interface NewGame {
  readonly name: string;
  readonly seed: number;
  readonly ruleSet?: string; // the lobby's rule-set menu; The City when left out
  readonly options?: Readonly<Record<string, number>>; // the rule set's option fields
}

// Alice creates a two-seat game of the rule set (with its options) from the lobby and waits on
// its page; returns the game's id.
export async function createGame(page: Page, game: NewGame): Promise<string> {
  await page.goto(`/?seed=${game.seed}`);
  await page.locator('input[aria-label="Your name"]').fill("Alice");
  await page.locator('input[aria-label="Game name"]').fill(game.name);
  await page.locator(`select[aria-label="Rule set"] option[value="${game.ruleSet ?? "the-city"}"]`).waitFor({ state: "attached" });
  await page.locator('select[aria-label="Rule set"]').selectOption(game.ruleSet ?? "the-city");
  for (const [name, value] of Object.entries(game.options ?? {})) {
    await page.locator(`.rule-options input[data-option="${name}"]`).fill(String(value));
  }
  await page.locator('select[aria-label="Seats"]').selectOption("2");
  await page.getByRole("button", { name: "Create game", exact: true }).click();
  await page.waitForURL(/\/game\/[^/]+$/);
  const id = decodeURIComponent(new URL(page.url()).pathname.split("/").pop() ?? "");
  expect(id).not.toBe("");
  // Before the start: no state to show yet, and the seats (one taken: too few to start early).
  await page.locator('.game-page[data-status="open"]:not([data-sequence])').waitFor();
  await page.locator("section.open-game").waitFor();
  return id;
}

// Bob opens the invite link, types his name and joins.
export async function joinByInvite(page: Page, invite: string): Promise<void> {
  await page.goto(invite);
  const open = page.locator("section.open-game");
  await open.locator('input[aria-label="Your name"]').fill("Bob");
  await open.getByRole("button", { name: "Join", exact: true }).click();
}

// A running two-player game with a spectator: Alice in `alice`, Bob and the spectator in browser
// contexts of their own (separate storage, so separate seats).
// `viewport` and `device` are Bob's and the spectator's (Alice's are her context's).
export async function startWatchedGame(browsers: Browsers, alice: BrowserContext, game: NewGame, viewport = DESKTOP, device: Device = {}): Promise<Table> {
  const alicePage = await alice.newPage();
  const id = await createGame(alicePage, game);
  const invite = await alicePage.locator("p.invite a").getAttribute("href");
  expect(invite, "the invite link").toMatch(new RegExp(`/game/${encodeURIComponent(id)}$`));
  const bobPage = await browsers.page("bob", viewport, device);
  await joinByInvite(bobPage, invite ?? "");
  // Two seats: the game starts by itself once the second is taken.
  await alicePage.locator('.game-page[data-status="running"][data-sequence]').waitFor();
  await bobPage.locator('.game-page[data-status="running"][data-sequence]').waitFor();
  const spectator = await browsers.page("spectator", viewport, device);
  await spectator.goto(`/game/${encodeURIComponent(id)}`);
  await spectator.locator(".role", { hasText: "You are watching." }).waitFor();
  return { alice: alicePage, bob: bobPage, spectator };
}
