// Carcassonne: The Castle in the browser client, against a real carc-server in headless
// Chromium: Alice creates a game of rule set "the-castle" (two players, the only count it has)
// from the lobby, Bob joins by the invite link, a spectator watches, and both seats play the
// whole game by clicking (tiles on the board inside the castle wall, every other decision with
// its buttons in words: followers, which feature scores next, wall tile 1's extra turn, the final
// wall tiles), with Bob's page reloaded in the middle and resuming his seat; then the final
// scores by source, and the game's replay. The game's seed is fixed (the lobby's ?seed=) and
// every choice comes from a seeded generator.
import { join } from "node:path";

import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";

import { OUT_DIR } from "./support/browser";
import { startWatchedGame } from "./support/lobby";
import { gameState, replayPosition, waitForSequence } from "./support/pages";
import { checkSpectator, playToEnd, type Table, type Turn } from "./support/play";
import { e2eSuite } from "./support/suite";

const GAME_NAME = "E2E castle";
const GAME_SEED = 10;
const SEED = 20251126;
const START_SPACES = 7;

interface FinishedGame {
  readonly id: string;
  readonly tiles: number;
}

const suite = e2eSuite();
let finished: FinishedGame | null = null;

function shot(name: string): string {
  return join(OUT_DIR, name);
}

// What the board and the panel have shown at least once over the game.
interface Seen {
  followers: number;
  towers: number;
  houses: number;
  courts: number;
  paths: number;
  keeps: number;
  faceDown: number;
  wallTilesHeld: number;
}

async function lookAtBoard(page: Page, seen: Seen): Promise<void> {
  const counts = await page.evaluate(() => {
    const board = document.querySelector("svg.board-svg");
    const n = (sel: string): number => board?.querySelectorAll(sel).length ?? 0;
    return {
      followers: n(".follower-group"),
      towers: n("g.tile:not(.ghost) .castle-tower"),
      houses: n("g.tile:not(.ghost) .castle-house"),
      courts: n("g.tile:not(.ghost) .castle-court"),
      paths: n("g.tile:not(.ghost) path.castle-path"),
      keeps: n("g.keep"),
      faceDown: n("g.wall-tile.face-down"),
      wallTilesHeld: document.querySelectorAll(".wall-tile-held").length,
    };
  });
  for (const k of Object.keys(counts) as (keyof Seen)[]) seen[k] = Math.max(seen[k], counts[k]);
}

// Every label a decision offered, to check the words of each kind of decision.
const offered = new Map<string, Set<string>>();

async function noteChoices(turn: Turn): Promise<boolean> {
  if (turn.kind === "place-tile") return false;
  const labels = await turn.page.locator("section.decision button[data-legal]").allTextContents();
  const heading = (await turn.page.locator("section.decision h3").textContent()) ?? "";
  const set = offered.get(turn.kind) ?? new Set<string>();
  for (const l of [heading, ...labels]) set.add(l.trim());
  offered.set(turn.kind, set);
  return false;
}

describe("Carcassonne: The Castle", () => {
  it("is offered by the lobby, for two players only", { timeout: 30_000 }, async () => {
    const page = await suite.alice.newPage();
    await page.goto("/");
    const ruleSets = page.locator('select[aria-label="Rule set"]');
    await ruleSets.locator('option[value="the-castle"]:not([disabled])').waitFor({ state: "attached" });
    await ruleSets.selectOption("the-castle");
    const seats = await page.locator('select[aria-label="Seats"] option').allTextContents();
    expect(seats).toEqual(["2 players"]);
    await page.close();
  });

  it("plays a whole game by clicking, watched by a spectator", { timeout: 300_000 }, async () => {
    const table: Table = await startWatchedGame(suite.browsers, suite.alice, { name: GAME_NAME, seed: GAME_SEED, ruleSet: "the-castle" });
    const { alice: alicePage, bob: bobPage, spectator } = table;
    const id = decodeURIComponent(new URL(alicePage.url()).pathname.split("/").pop() ?? "");
    await checkSpectator(table);
    // The castle inside its wall: the start spaces lie on the wall before the first draw, the
    // scoring track runs 0-99 round it, both markers stand at 0, and every corner tower but the
    // first holds a wall tile face down.
    const board = alicePage.locator("svg.board-svg");
    await expect.poll(() => board.locator("g.tile:not(.ghost)").count(), { message: "tiles before the first draw" }).toBe(START_SPACES);
    await expect.poll(() => board.locator("g.tile:not(.ghost) .start-space").count(), { message: "start spaces" }).toBe(START_SPACES);
    await expect.poll(() => board.locator(".track-number").count(), { message: "track numbers" }).toBe(100);
    await expect.poll(() => board.locator(".score-marker").count(), { message: "scoring markers" }).toBe(2);
    await expect.poll(() => board.locator("g.wall-tile.face-down").count(), { message: "face-down wall tiles" }).toBeGreaterThan(0);
    await expect.poll(() => alicePage.locator(".stacks").textContent()).toMatch(/^Tiles left (59|60) · wall tiles on corner towers 13$/);
    await alicePage.screenshot({ path: shot("castle-start.png") });

    const seen: Seen = { followers: 0, towers: 0, houses: 0, courts: 0, paths: 0, keeps: 0, faceDown: 0, wallTilesHeld: 0 };
    const result = await playToEnd(table, {
      seed: SEED,
      maxSteps: 400,
      reloadBobAfterTiles: 30,
      keyboardTile: 12,
      checkSpectatorEvery: 10,
      onWallPhase: () => Promise.resolve(),
      decide: noteChoices,
      afterStep: async (t) => {
        await lookAtBoard(t.alice, seen);
      },
    });
    expect(result.tiles, "tiles placed by clicking").toBeGreaterThan(40);
    expect(seen.towers, "towers on the board").toBeGreaterThan(0);
    expect(seen.houses, "houses on the board").toBeGreaterThan(0);
    expect(seen.courts, "courts on the board").toBeGreaterThan(0);
    expect(seen.paths, "paths on the board").toBeGreaterThan(0);
    expect(seen.followers, "followers on the board").toBeGreaterThan(0);
    expect(seen.faceDown, "face-down wall tiles on the corner towers").toBeGreaterThan(0);
    const followerChoices = [...(offered.get("place-follower") ?? [])].join("\n");
    expect(followerChoices).toContain("No follower");
    expect(followerChoices).toMatch(/^(Herald on the path|Knight on the tower|Squire on the house|Merchant on the court)/m);
    for (const [kind, labels] of offered) {
      for (const l of labels) expect(l, `a ${kind} choice`).not.toMatch(/\(-?\d+, ?-?\d+\)/);
    }
    for (const l of offered.get("score-next") ?? []) expect(l).toMatch(/^(Score the (path|tower|house|court)|Your move)/);
    for (const l of offered.get("extra-turn") ?? []) expect(["Use wall tile 1: take another turn", "End the turn", "Your move: another turn with wall tile 1?"]).toContain(l);
    // This game (its seed and choices fixed) ends with a wall tile 4-7 to use or keep.
    expect(offered.has("wall-tile"), "a final wall-tile decision").toBe(true);
    for (const l of offered.get("wall-tile") ?? []) expect(l).toMatch(/^(Wall tile [4-7]: |Keep it unused|The final scoring: wall tile [4-7] — at the end)/);

    for (const [who, page] of [
      ["Alice", alicePage],
      ["Bob", bobPage],
    ] as const) {
      const scores = page.locator("section.final-scores");
      await scores.waitFor({ state: "visible" });
      const text = (await scores.textContent()) ?? "";
      expect(text, `${who}'s final scores`).toMatch(/\bwins?\b/);
      for (const source of ["Paths", "Towers", "Houses", "Courts", "Keep", "Wall tiles", "Total"]) expect(text).toContain(source);
      expect((await gameState(page)).status).toBe("finished");
    }
    const end = await gameState(alicePage);
    await waitForSequence(spectator, end.sequence);
    await spectator.locator("section.final-scores").waitFor({ state: "visible" });
    expect((await gameState(spectator)).tiles).toBe(end.tiles);
    const log = (await alicePage.locator(".log").textContent()) ?? "";
    expect(log).toMatch(/placed a tile showing/);
    expect(log).not.toMatch(/\(-?\d+, ?-?\d+\)/);
    await alicePage.screenshot({ path: shot("castle-final-scores.png") });
    finished = { id, tiles: end.tiles };
    await bobPage.context().close();
    await spectator.context().close();
    await alicePage.close();
  });

  it("replays the finished game, checking every step", { timeout: 60_000 }, async () => {
    if (finished === null) throw new Error("this test needs the game that the full-game test finishes");
    const game = finished;
    const page = await suite.alice.newPage();
    await page.goto(`/replay/${encodeURIComponent(game.id)}`);
    await expect.poll(() => replayPosition(page), { timeout: 10_000 }).not.toBeNull();
    const total = (await replayPosition(page))?.of ?? 0;
    expect(total, "steps in the replay").toBeGreaterThan(80);
    const slider = page.locator('input[type="range"][aria-label="Step"]');
    const middle = Math.floor(total / 2);
    await slider.fill(String(middle));
    await expect.poll(() => replayPosition(page)).toEqual({ step: middle, of: total });
    await page.screenshot({ path: shot("castle-replay.png") });
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
