// Panning and zooming the board of a running game, the ways people do it: dragging with the mouse
// and turning its wheel, the keys (arrows, + and -, F), and on a touch phone one finger to pan
// and two to pinch. The board's view is the viewBox of svg.board-svg; where a board point shows
// on the page is read back through the browser's own transform (getScreenCTM), so the tests
// check what people see rather than how the client computes it.
import { join } from "node:path";

import type { CDPSession, Page } from "playwright-core";
import { describe, expect, it } from "vitest";

import { OUT_DIR, PHONE, TOUCH_PHONE } from "./support/browser";
import { startWatchedGame } from "./support/lobby";
import { clickableCells, gameState } from "./support/pages";
import { playToEnd, type Table } from "./support/play";
import { e2eSuite } from "./support/suite";

const GAME_SEED = 7; // the lobby's ?seed=, so every run plays the same game
const SEED = 20250311; // the clicks' choices
const WARM_UP_STEPS = 6; // decisions made before the view is moved: a board of a few tiles
const MAX_EXTRA_STEPS = 8; // more decisions, one at a time, until someone must place a tile
const BOARD = "svg.board-svg";
const GHOST = "svg.board-svg g.tile.ghost";

interface Box {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

interface Point {
  readonly x: number;
  readonly y: number;
}

const suite = e2eSuite();
let gameId: string | null = null;

async function viewBox(page: Page): Promise<Box> {
  const text = (await page.locator(BOARD).getAttribute("viewBox")) ?? "";
  const [x, y, w, h] = text.trim().split(/[\s,]+/).map(Number);
  if (x === undefined || y === undefined || w === undefined || h === undefined || [x, y, w, h].some(Number.isNaN)) {
    throw new Error(`the board's viewBox is "${text}"`);
  }
  return { x, y, w, h };
}

// Waits until the viewBox differs from `before` (an input was handled), and returns it.
async function changedViewBox(page: Page, before: Box): Promise<Box> {
  await expect.poll(() => viewBox(page), { timeout: 5_000, message: "the board's viewBox" }).not.toEqual(before);
  return viewBox(page);
}

// The board point (SVG units) shown at a point of the page (CSS pixels).
async function boardPointAt(page: Page, at: Point): Promise<Point> {
  return page.evaluate(
    ([sel, px, py]) => {
      const svg = document.querySelector<SVGSVGElement>(sel);
      const m = svg?.getScreenCTM();
      if (svg === null || m === null || m === undefined) throw new Error("the board has no screen transform");
      const p = new DOMPoint(px, py).matrixTransform(m.inverse());
      return { x: p.x, y: p.y };
    },
    [BOARD, at.x, at.y] as const,
  );
}

// The board's box on the page, scrolled into view first.
async function boardRect(page: Page): Promise<Box> {
  const board = page.locator(BOARD);
  await board.scrollIntoViewIfNeeded();
  const r = await board.boundingBox();
  if (r === null) throw new Error("the board is not shown");
  return { x: r.x, y: r.y, w: r.width, h: r.height };
}

// SVG units per CSS pixel: "meet" shows the whole viewBox, so the tighter side sets the scale.
async function unitsPerPixel(page: Page, v: Box): Promise<number> {
  const r = await boardRect(page);
  return Math.max(v.w / r.w, v.h / r.h);
}

// Pointer positions in whole pixels, so that the distance the view moves does not depend on how
// the browser rounds an event's coordinates.
function wholePixels(p: Point): Point {
  return { x: Math.round(p.x), y: Math.round(p.y) };
}

function expectNear(actual: number, want: number, tolerance: number, what: string): void {
  expect(Math.abs(actual - want), `${what}: ${actual}, want ${want} ± ${tolerance}`).toBeLessThanOrEqual(tolerance);
}

function expectSamePoint(actual: Point, want: Point, tolerance: number, what: string): void {
  expectNear(actual.x, want.x, tolerance, `${what} (x)`);
  expectNear(actual.y, want.y, tolerance, `${what} (y)`);
}

// The seat's page that must place a tile now, once both players' pages show the same state.
async function placingPage(t: Table): Promise<Page | null> {
  let found: Page | null = null;
  await expect
    .poll(async () => {
      const [a, b] = await Promise.all([gameState(t.alice), gameState(t.bob)]);
      if (a.sequence !== b.sequence || (a.decision === null && b.decision === null)) return false;
      found = a.decision === "place-tile" ? t.alice : b.decision === "place-tile" ? t.bob : null;
      return true;
    }, { timeout: 10_000, message: "a decision on one of the players' pages" })
    .toBe(true);
  return found;
}

async function play(t: Table, steps: number, seed: number): Promise<void> {
  await playToEnd(t, {
    seed,
    maxSteps: steps + 1,
    stopAfterSteps: steps,
    reloadBobAfterTiles: -1,
    keyboardTile: -1,
    checkSpectatorEvery: 1_000,
    onWallPhase: async () => undefined,
  });
}

// A game with a few tiles on the board, stopped where a player must place a tile; that player's
// page, reloaded so that its view is the fitted one nobody has moved yet.
async function boardWithLegalCells(t: Table): Promise<Page> {
  await play(t, WARM_UP_STEPS, SEED);
  let page = await placingPage(t);
  for (let i = 1; page === null && i <= MAX_EXTRA_STEPS; i++) {
    await play(t, 1, SEED + i);
    page = await placingPage(t);
  }
  if (page === null) throw new Error(`nobody had a tile to place within ${WARM_UP_STEPS + MAX_EXTRA_STEPS} decisions`);
  await page.reload();
  await page.locator('section.decision[data-decision="place-tile"]').waitFor();
  await page.locator(`${BOARD} rect.legal-cell`).first().waitFor();
  await expect.poll(() => gameState(page)).toMatchObject({ watching: false, status: "running" });
  return page;
}

// A legal cell in view, with room around it on the board for a drag of `drag` pixels either way.
async function cellToDragFrom(page: Page, drag: Point): Promise<{ x: string; y: string; centre: Point }> {
  const r = await boardRect(page);
  const cells = page.locator(`${BOARD} rect.legal-cell`);
  for (const i of await clickableCells(page)) {
    const b = await cells.nth(i).boundingBox();
    if (b === null) continue;
    const centre = wholePixels({ x: b.x + b.width / 2, y: b.y + b.height / 2 });
    const room = (c: number, d: number, lo: number, size: number) => c + d > lo + 10 && c + d < lo + size - 10;
    if (room(centre.x, drag.x, r.x, r.w) && room(centre.y, drag.y, r.y, r.h)) {
      const x = (await cells.nth(i).getAttribute("data-x")) ?? "";
      const y = (await cells.nth(i).getAttribute("data-y")) ?? "";
      return { x, y, centre };
    }
  }
  throw new Error(`no legal cell in view leaves room on the board for a drag of ${drag.x}, ${drag.y} px`);
}

// A drag starting on a legal cell pans the view with the pointer and does not pick the cell; a
// plain click on it afterwards does.
async function mouseDrag(page: Page): Promise<void> {
  const drag = { x: 140, y: 70 }; // to the right and down
  const cell = await cellToDragFrom(page, drag);
  const before = await viewBox(page);
  const k = await unitsPerPixel(page, before);
  const grabbed = await boardPointAt(page, cell.centre);
  const end = { x: cell.centre.x + drag.x, y: cell.centre.y + drag.y };
  expect(await page.locator(GHOST).count(), "a ghost tile before any click").toBe(0);

  await page.mouse.move(cell.centre.x, cell.centre.y);
  await page.mouse.down();
  await page.mouse.move(end.x, end.y, { steps: 10 });
  await page.mouse.up();
  const after = await changedViewBox(page, before);
  expectNear(after.x, before.x - drag.x * k, 0.5, "viewBox x after dragging right");
  expectNear(after.y, before.y - drag.y * k, 0.5, "viewBox y after dragging down");
  expect(after.x, "dragging right decreases x").toBeLessThan(before.x);
  expect({ w: after.w, h: after.h }, "the view's size after a drag").toEqual({ w: before.w, h: before.h });
  expectSamePoint(await boardPointAt(page, end), grabbed, 0.5, "the board point under the pointer after the drag");
  expect(await page.locator(GHOST).count(), "a ghost tile after a drag that began on a legal cell").toBe(0);

  // The cell came along under the pointer, and a click that is not a drag picks it.
  const moved = await page.locator(`${BOARD} rect.legal-cell[data-x="${cell.x}"][data-y="${cell.y}"]`).boundingBox();
  if (moved === null) throw new Error(`the legal cell ${cell.x}, ${cell.y} is gone after the drag`);
  const movedCentre = { x: moved.x + moved.width / 2, y: moved.y + moved.height / 2 };
  expectSamePoint(movedCentre, end, 2, "the cell's centre after the drag");
  await page.mouse.click(end.x, end.y);
  await page.locator(GHOST).waitFor();
  expect(await viewBox(page), "the view after a click").toEqual(after);
}

// Wheel up zooms in and down zooms out, both about the point under the pointer.
async function mouseWheel(page: Page): Promise<void> {
  const r = await boardRect(page);
  const at = { x: r.x + r.w * 0.35, y: r.y + r.h * 0.6 };
  await page.mouse.move(at.x, at.y);
  const under = await boardPointAt(page, at);
  const start = await viewBox(page);

  await page.mouse.wheel(0, -100);
  const zoomedIn = await changedViewBox(page, start);
  expect(zoomedIn.w, "the view's width after wheel up").toBeLessThan(start.w);
  expectNear(zoomedIn.w / start.w, zoomedIn.h / start.h, 1e-6, "width and height shrink alike");
  expectSamePoint(await boardPointAt(page, at), under, start.w * 0.01, "the board point under the pointer after wheel up");

  await page.mouse.wheel(0, 100);
  const zoomedOut = await changedViewBox(page, zoomedIn);
  expect(zoomedOut.w, "the view's width after wheel down").toBeGreaterThan(zoomedIn.w);
  expectNear(zoomedOut.w / zoomedIn.w, zoomedOut.h / zoomedIn.h, 1e-6, "width and height grow alike");
  expectSamePoint(await boardPointAt(page, at), under, start.w * 0.01, "the board point under the pointer after wheel down");
}

// The arrows pan a fifth of the view, + and - zoom, F fits the whole board again.
async function keys(page: Page, fitted: Box): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const start = await viewBox(page);
  await page.keyboard.press("ArrowRight");
  const right = await changedViewBox(page, start);
  expectNear(right.x, start.x + 0.2 * start.w, 0.01, "viewBox x after ArrowRight");
  expect({ ...right, x: start.x }, "the rest of the view after ArrowRight").toEqual(start);

  await page.keyboard.press("+");
  const zoomedIn = await changedViewBox(page, right);
  expect(zoomedIn.w, 'the view\'s width after "+"').toBeLessThan(right.w);
  expectNear(zoomedIn.w / right.w, zoomedIn.h / right.h, 1e-6, 'width and height shrink alike on "+"');

  await page.keyboard.press("-");
  const zoomedOut = await changedViewBox(page, zoomedIn);
  expect(zoomedOut.w, 'the view\'s width after "-"').toBeGreaterThan(zoomedIn.w);

  await page.keyboard.press("F");
  await changedViewBox(page, zoomedOut);
  expect(await viewBox(page), 'the view after "F"').toEqual(fitted);
}

describe("panning and zooming the board", () => {
  it("follows the mouse's drags and wheel, and the keys", { timeout: 30_000 }, async () => {
    const table = await startWatchedGame(suite.browsers, suite.alice, { name: "Viewport game", seed: GAME_SEED });
    gameId = decodeURIComponent(new URL(table.alice.url()).pathname.split("/").pop() ?? "");
    const page = await boardWithLegalCells(table);
    const fitted = await viewBox(page);
    expect(fitted.w, "the fitted view's width").toBeGreaterThan(0);

    await mouseDrag(page);
    await mouseWheel(page);
    await keys(page, fitted);
    await table.spectator.context().close();
  });

  it("pans with one finger and pinch-zooms with two on a phone", { timeout: 20_000 }, async () => {
    if (gameId === null) throw new Error("this test needs the game that the mouse test starts");
    const page = await suite.browsers.page("phone", PHONE, TOUCH_PHONE);
    await page.goto(`/game/${encodeURIComponent(gameId)}`);
    await page.locator(".role", { hasText: "You are watching." }).waitFor();
    await expect.poll(async () => (await gameState(page)).tiles).toBeGreaterThan(1);
    const cdp = await page.context().newCDPSession(page);

    await oneFingerDrag(page, cdp);
    await pinchOut(page, cdp);
    await page.screenshot({ path: join(OUT_DIR, "phone-zoomed.png") });
    await page.context().close();
  });
});

type Fingers = readonly Point[];

// Touches through the DevTools protocol (Playwright's touchscreen only taps): the fingers go down
// at `from`, move in `steps` even steps to `to`, and are lifted. Chromium turns them into
// pointer events, as a real touch screen's.
async function touchGesture(cdp: CDPSession, from: Fingers, to: Fingers, steps = 8): Promise<void> {
  const at = (t: number) =>
    from.map((f, id) => {
      const g = to[id] ?? f;
      return { id, x: f.x + (g.x - f.x) * t, y: f.y + (g.y - f.y) * t };
    });
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: at(0) });
  for (let i = 1; i <= steps; i++) await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: at(i / steps) });
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
}

function centreOf(r: Box): Point {
  return wholePixels({ x: r.x + r.w / 2, y: r.y + r.h / 2 });
}

async function oneFingerDrag(page: Page, cdp: CDPSession): Promise<void> {
  const c = centreOf(await boardRect(page));
  const drag = { x: -80, y: 60 }; // to the left and down
  const to = { x: c.x + drag.x, y: c.y + drag.y };
  const before = await viewBox(page);
  const k = await unitsPerPixel(page, before);
  const grabbed = await boardPointAt(page, c);
  await touchGesture(cdp, [c], [to]);
  const after = await changedViewBox(page, before);
  expectNear(after.x, before.x - drag.x * k, 0.5, "viewBox x after a finger's drag to the left");
  expectNear(after.y, before.y - drag.y * k, 0.5, "viewBox y after a finger's drag down");
  expect({ w: after.w, h: after.h }, "the view's size after a finger's drag").toEqual({ w: before.w, h: before.h });
  expectSamePoint(await boardPointAt(page, to), grabbed, 0.5, "the board point under the finger after the drag");
}

// Two fingers on either side of the board's centre move apart to twice their distance.
async function pinchOut(page: Page, cdp: CDPSession): Promise<void> {
  const c = centreOf(await boardRect(page));
  const before = await viewBox(page);
  const fingers = (d: number): Fingers => [{ x: c.x - d, y: c.y }, { x: c.x + d, y: c.y }];
  await touchGesture(cdp, fingers(40), fingers(80));
  const after = await changedViewBox(page, before);
  expect(after.w, "the view's width after a pinch").toBeLessThan(before.w * 0.75);
  expectNear(after.w / before.w, after.h / before.h, 1e-6, "width and height shrink alike in a pinch");
}
