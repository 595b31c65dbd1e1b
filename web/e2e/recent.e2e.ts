// Seeing what just happened, against a real carc-server in headless Chromium. Alice creates a
// two-seat game of The City (`/?seed=7`) with the one-choice answers turned off; Bob joins by the
// invite link with the page's default, on. They play by clicking (a follower whenever one may
// be placed, so that both run out and meet decisions with only one choice) until each of these
// has been seen: Alice's move highlighted on Bob's board in her colour and named in his log in
// words, without coordinates or tile ids; a "+N" label where points were scored; Bob's
// one-choice decision answered by his page (and said so in his log); Alice's one-choice decision
// waiting for her click. Then a whole game played over the protocol by
// scripts/record-replay.mjs: its replay page has as many steps as the players made moves, and
// each step's change is highlighted.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

import { fromBinary } from "@bufbuild/protobuf";
import type { Page } from "playwright-core";
import { expect, it } from "vitest";

import { ActionKind, ActionSchema } from "../src/gen/carcassonne/city/v1/city_pb";
import { ServerMessageSchema } from "../src/gen/carcassonne/server/v2/server_pb";
import { AUTO_ANSWER_DELAY_MS } from "../src/ui/auto-answer";
import { DESKTOP, OUT_DIR } from "./support/browser";
import { createGame, joinByInvite } from "./support/lobby";
import { gameState, pageTimersDue, replayPosition, waitForNewSequence, waitForSameSequence } from "./support/pages";
import { nextTurn, placeTileByMouse, seededRandom, type Table, type Turn } from "./support/play";
import { WEB_DIR } from "./support/server";
import { e2eSuite } from "./support/suite";

const GAME_SEED = 7;
const SEED = 20251126;
const MAX_DECISIONS = 160;
const COORDINATES = /\(-?\d+, ?-?\d+\)/;
const ANSWERED = "the only choice, answered for you";

const suite = e2eSuite();

// A chat line sent from the page, and back from the server on it.
async function sendChatLine(page: Page, text: string): Promise<void> {
  const chat = page.locator("section.chat");
  await chat.getByLabel("Message", { exact: true }).fill(text);
  await chat.getByRole("button", { name: "Send", exact: true }).click();
  await chat.locator(".chat-lines li .chat-text", { hasText: new RegExp(`^${text}$`) }).waitFor();
}

async function logLines(page: Page): Promise<string[]> {
  return (await page.locator(".log li").allTextContents()).map((l) => l.trim());
}

// The log must read like a person's account: no coordinates, no tile ids, no internal steps.
function expectWords(lines: readonly string[]): void {
  for (const line of lines) {
    expect(line, "a log line").not.toMatch(COORDINATES);
    expect(line, "a log line").not.toMatch(/\btile \d+\b/i);
    expect(line, "a log line").not.toMatch(/State received|nobody scored|\b1 (markets|tiles|pieces|points)\b/);
  }
}

// The one button of a one-choice decision, or null for a decision with more (or a tile).
async function onlyButton(turn: Turn): Promise<string | null> {
  if (turn.kind === "place-tile") return null;
  const labels = await turn.page.locator("section.decision button[data-legal]").allTextContents();
  return labels.length === 1 ? (labels[0] ?? "").trim() : null;
}

// A follower (or guard, or tower) whenever the decision offers one, else its only choice.
async function clickFirstAction(turn: Turn): Promise<void> {
  const buttons = turn.page.locator("section.decision button[data-legal]");
  const labels = (await buttons.allTextContents()).map((l) => l.trim());
  const index = Math.max(0, labels.findIndex((l) => !/^no\b/i.test(l)));
  const before = (await gameState(turn.page)).sequence;
  await buttons.nth(index).click();
  await waitForNewSequence(turn.page, before);
}

interface Seen {
  highlight: boolean;
  points: string | null;
  autoAnswered: boolean;
  clickedOnlyChoice: boolean;
}

const done = (s: Seen): boolean => s.highlight && s.points !== null && s.autoAnswered && s.clickedOnlyChoice;

// Alice has just finished a move: Bob's board outlines her tile in her colour, and his log names
// it in words.
async function checkAlicesMoveOnBob(t: Table, seen: Seen): Promise<void> {
  await waitForSameSequence(t.alice, t.bob);
  const outline = t.bob.locator('svg.board-svg g.recent rect.recent-tile[data-player="0"]');
  await expect.poll(() => outline.count(), { message: "Alice's tile outlined on Bob's board" }).toBe(1);
  await expect.poll(() => outline.getAttribute("stroke"), { message: "Alice's colour" }).toBe("#0072B2");
  const alicePlaced = async (): Promise<string | undefined> => (await logLines(t.bob)).find((l) => l.startsWith("Alice placed a tile"));
  await expect.poll(alicePlaced, { message: "Bob's log names Alice's tile" }).toBeDefined();
  const placed = await alicePlaced();
  expect(placed).toMatch(/ (of|as) the first tile$/);
  expect(placed).toMatch(/showing /);
  seen.highlight = true;
}

async function lookForPoints(pages: readonly Page[], seen: Seen): Promise<void> {
  for (const page of pages) {
    // The label's text, then its title ("Alice scored 8").
    const labels = await page.locator("svg.board-svg g.recent text.recent-points").allTextContents();
    const label = labels.map((l) => /^\+\d+/.exec(l.trim())?.[0]).find((l) => l !== undefined);
    if (label !== undefined) seen.points = label;
  }
}

// Bob's page answers by itself, and says so in his log ("No follower — the only choice, …").
async function bobAnswersByHimself(turn: Turn, seen: Seen): Promise<void> {
  await expect.poll(async () => (await logLines(turn.page)).some((l) => l.endsWith(ANSWERED)), { message: "Bob's log says his page answered" }).toBe(true);
  await expect.poll(async () => (await gameState(turn.page)).decision, { message: "Bob's decision answered" }).not.toBe(turn.kind);
  seen.autoAnswered = true;
}

// With the setting off the decision waits, and Alice clicks it. Her page would have sent the
// answer from a timer of its own, set when the decision showed, due after the answering delay:
// once a timer of the page's set later for that delay has fired, that answer would have been
// sent. Then a chat line of hers goes to the server and comes back; the server handles a
// connection's messages in order, so the answer's move would have come back before it.
async function aliceClicksTheOnlyChoice(turn: Turn, seen: Seen): Promise<void> {
  const before = (await gameState(turn.page)).sequence;
  await pageTimersDue(turn.page, AUTO_ANSWER_DELAY_MS);
  await sendChatLine(turn.page, `Waiting at ${before ?? "-"}`);
  const now = await gameState(turn.page);
  expect(now.sequence, "Alice's one-choice decision is not answered for her").toBe(before);
  expect(now.decision).toBe(turn.kind);
  await clickFirstAction(turn);
  expect((await logLines(turn.page)).some((l) => l.endsWith(ANSWERED)), "Alice's log").toBe(false);
  seen.clickedOnlyChoice = true;
}

it("shows the other player's last move, points where they are scored, and answers one-choice decisions when asked to", async () => {
  const alice = await suite.alice.newPage();
  const id = await createGame(alice, { name: "E2E recent", seed: GAME_SEED });
  const bobContext = await suite.browsers.person("bob", DESKTOP, {}, { autoAnswer: "default" });
  const bob = await bobContext.newPage();
  await joinByInvite(bob, `/game/${encodeURIComponent(id)}`);
  await alice.locator('.game-page[data-status="running"][data-sequence]').waitFor();
  await bob.locator('.game-page[data-status="running"][data-sequence]').waitFor();
  // The setting: on by default (Bob), off where it was turned off (Alice, by the test's settings).
  await expect.poll(() => bob.locator(".auto-answer input[type=checkbox]").isChecked(), { message: "Bob's setting" }).toBe(true);
  await expect.poll(() => alice.locator(".auto-answer input[type=checkbox]").isChecked(), { message: "Alice's setting" }).toBe(false);
  const t: Table = { alice, bob, spectator: bob };
  const rng = seededRandom(SEED);
  const seen: Seen = { highlight: false, points: null, autoAnswered: false, clickedOnlyChoice: false };
  let tiles = 0;
  for (let step = 0; step < MAX_DECISIONS && !done(seen); step++) {
    const turn = await nextTurn(t);
    if (turn === null) break;
    const only = await onlyButton(turn);
    if (turn.kind === "place-tile") {
      await placeTileByMouse(turn, rng, tiles);
      tiles += 1;
    } else if (only !== null && turn.name === "Bob") {
      await bobAnswersByHimself(turn, seen);
    } else if (only !== null) {
      await aliceClicksTheOnlyChoice(turn, seen);
    } else {
      await clickFirstAction(turn);
    }
    // Alice's move is over once the next decision is Bob's.
    const next = await nextTurn(t);
    if (turn.name === "Alice" && next?.name === "Bob" && !seen.highlight && tiles > 1) await checkAlicesMoveOnBob(t, seen);
    await lookForPoints([alice, bob], seen);
    // A one-choice decision of Bob's may be answered before this loop looks at it.
    if ((await logLines(bob)).some((l) => l.endsWith(ANSWERED))) seen.autoAnswered = true;
  }
  expect(seen, "what the game showed").toEqual({ highlight: true, points: expect.stringMatching(/^\+\d+$/), autoAnswered: true, clickedOnlyChoice: true });
  await bob.screenshot({ path: join(OUT_DIR, "recent.png") });
  expectWords(await logLines(alice));
  expectWords(await logLines(bob));
  expect((await logLines(bob)).some((l) => / scored \d+ for /.test(l)), "a scoring in Bob's log").toBe(true);
  await bobContext.close();
}, 240_000);

// Plays a whole two-player game over the protocol (every seat taking its first legal action);
// returns the game's id and the moves the players made (the replay's actions that are not the
// server's draws).
async function playWholeGame(port: number): Promise<{ id: string; moves: number; deltas: number }> {
  const dir = mkdtempSync(join(tmpdir(), "carc-recent-"));
  try {
    const out = join(dir, "replay.bin");
    const args = ["scripts/record-replay.mjs", "--seed", "5", "--choose", "first", "--tileset", join(dir, "tiles.bin"), `ws://127.0.0.1:${port}/`, out];
    const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: WEB_DIR });
    const id = /recorded (\S+):/.exec(stdout)?.[1] ?? "";
    const msg = fromBinary(ServerMessageSchema, readFileSync(out));
    if (msg.body.case !== "replay") throw new Error(`record-replay wrote ${msg.body.case}`);
    const steps = msg.body.value.steps;
    const moves = steps.filter((d) => fromBinary(ActionSchema, d.action).kind !== ActionKind.DRAW).length;
    return { id, moves, deltas: steps.length };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

it("steps a finished game's replay by the players' moves and highlights each step's change", async () => {
  const game = await playWholeGame(suite.server.port);
  expect(game.id).not.toBe("");
  expect(game.moves, "moves fewer than the deltas: the draws").toBeLessThan(game.deltas);
  const page = await suite.alice.newPage();
  await page.goto(`/replay/${encodeURIComponent(game.id)}`);
  await expect.poll(() => replayPosition(page), { timeout: 10_000 }).toEqual({ step: game.moves, of: game.moves });
  await page.getByRole("button", { name: "First step" }).click();
  await expect.poll(() => replayPosition(page)).toEqual({ step: 0, of: game.moves });
  await expect.poll(() => page.locator("svg.board-svg g.recent > *").count(), { message: "nothing changed at the start" }).toBe(0);
  await page.getByRole("button", { name: "Next step" }).click();
  await expect.poll(() => replayPosition(page)).toEqual({ step: 1, of: game.moves });
  // The first move places a tile: outlined in its player's colour.
  await expect.poll(() => page.locator("svg.board-svg g.recent rect.recent-tile").count(), { message: "the first move's tile outlined" }).toBe(1);
  await page.getByRole("button", { name: "Next step" }).click();
  await expect.poll(() => replayPosition(page)).toEqual({ step: 2, of: game.moves });
  await page.close();
}, 120_000);
