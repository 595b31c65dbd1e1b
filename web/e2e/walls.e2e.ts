// The City's wall on the board, at 1280×800: a whole two-player game played by clicking in which
// a wall piece and a tower are chosen on the board itself, by clicking the ghost piece at an end
// of the chain or the ghost tower at the corner where an end stops, each labelled "front" or
// "back" as the decision's buttons are. The legend explains the wall's symbols, followers carry
// the letter of their role, and at the end the sides that R26 took as walled are drawn.
import { join } from "node:path";

import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";

import { OUT_DIR } from "./support/browser";
import { startWatchedGame } from "./support/lobby";
import { gameState, waitForNewSequence } from "./support/pages";
import { playToEnd, type Turn } from "./support/play";
import { e2eSuite } from "./support/suite";

const GAME_SEED = 7;
const SEED = 20240917; // with GAME_SEED, a game with wall rounds and towers (game.e2e.ts plays it too)

const suite = e2eSuite();

const count = (page: Page, selector: string): Promise<number> => page.locator(`svg.board-svg ${selector}`).count();

// The ghosts on the board carry the same ends as the buttons, which keep their names.
async function expectChoicesMatchButtons(page: Page, ghost: string, buttonName: (end: string) => RegExp): Promise<string[]> {
  const ends = await page.locator(`svg.board-svg g.${ghost}`).evaluateAll((gs) => gs.map((g) => g.getAttribute("data-end") ?? ""));
  expect(ends.length, `${ghost}s on the board`).toBeGreaterThan(0);
  for (const end of ends) {
    expect(["front", "back"]).toContain(end);
    const tag = page.locator(`svg.board-svg g.${ghost}[data-end="${end}"] .choice-tag text`);
    expect((await tag.textContent())?.trim()).toBe(end);
    await page.locator("section.decision").getByRole("button", { name: buttonName(end) }).waitFor();
  }
  return ends;
}

async function expectLegend(page: Page): Promise<void> {
  const legend = page.locator(".wall-legend");
  await legend.waitFor({ state: "visible" });
  for (const word of ["Gate", "Wall piece", "Guard", "Tower", "front or back", "walled at the end"]) {
    await expect.poll(() => legend.textContent(), { message: "the wall's legend" }).toContain(word);
  }
  await expect.poll(() => legend.locator("li svg").count(), { message: "a symbol for each line of the legend" }).toBe(6);
}

describe("the wall on the board", () => {
  it("builds a wall piece and a tower by clicking their ghosts", { timeout: 170_000 }, async () => {
    const table = await startWatchedGame(suite.browsers, suite.alice, { name: "Walls", seed: GAME_SEED });
    let wallPicked = false;
    let towerPicked = false;
    let lettered = 0;

    const decide = async (turn: Turn): Promise<boolean> => {
      const page = turn.page;
      if (turn.kind === "build-wall" && !wallPicked) {
        const ends = await expectChoicesMatchButtons(page, "wall-choice", (end) => new RegExp(`^Build wall at the ${end}$`, "i"));
        await expectLegend(page);
        await page.screenshot({ path: join(OUT_DIR, "wall-choice.png") });
        const end = ends[ends.length - 1] ?? "front";
        const pieces = await count(page, "line.wall");
        const before = (await gameState(page)).sequence;
        await page.locator(`svg.board-svg g.wall-choice[data-end="${end}"]`).click();
        await waitForNewSequence(page, before);
        await expect.poll(() => count(page, "line.wall"), { message: "wall pieces after clicking a ghost piece" }).toBe(pieces + 1);
        wallPicked = true;
        return true;
      }
      if (turn.kind === "place-tower" && !towerPicked && (await count(page, "g.tower-choice")) > 0) {
        const ends = await expectChoicesMatchButtons(page, "tower-choice", (end) => new RegExp(`^Tower at the ${end}$`, "i"));
        const towers = await count(page, "g.tower-group");
        const before = (await gameState(page)).sequence;
        await page.locator(`svg.board-svg g.tower-choice[data-end="${ends[0] ?? "front"}"]`).click();
        await waitForNewSequence(page, before);
        await expect.poll(() => count(page, "g.tower-group"), { message: "towers after clicking a ghost tower" }).toBe(towers + 1);
        towerPicked = true;
        return true;
      }
      return false;
    };

    await playToEnd(table, {
      seed: SEED,
      maxSteps: 1000,
      reloadBobAfterTiles: -1,
      keyboardTile: -1,
      checkSpectatorEvery: 25,
      onWallPhase: () => Promise.resolve(),
      decide,
      afterStep: async (t) => {
        const letters = await t.spectator.locator("svg.board-svg g.follower-group .role-letter").allTextContents();
        for (const l of letters) expect(["S", "M", "R"]).toContain(l);
        lettered = Math.max(lettered, letters.length);
      },
    });

    expect(wallPicked, "a wall piece was chosen on the board").toBe(true);
    expect(towerPicked, "a tower was chosen on the board").toBe(true);
    expect(lettered, "followers with the letter of their role").toBeGreaterThan(0);
    const alice = table.alice;
    await alice.locator("section.final-scores").waitFor();
    // R26: what the wall did not cover was taken as walled at the end, and is drawn so.
    const closing = await count(alice, "line.wall-closing");
    const built = await count(alice, "line.wall");
    expect(closing + built, "the wall all around the city at the end").toBeGreaterThan(0);
    await expect.poll(() => alice.locator("svg.board-svg g.wall-choice, svg.board-svg g.tower-choice").count(), { message: "ghosts left at the end" }).toBe(0);
    await expectLegend(alice);
  });
});
