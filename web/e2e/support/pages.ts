// Reading the pages through the contract of selectors the client keeps for these tests
// (.game-page[data-sequence][data-status], section.decision[data-decision], svg.board-svg g.tile,
// .replay-position ...): one round trip gives everything a step of the game loop looks at.
import type { Page } from "playwright-core";

export interface GameState {
  readonly sequence: string | null; // absent before the game starts
  readonly status: string | null; // open | running | finished
  readonly decision: string | null; // data-decision of section.decision; "" if it has none
  readonly error: string | null; // the text of a visible p.error[role=alert]
  readonly tiles: number; // placed tiles on the board, the ghost not counted
  readonly watching: boolean; // the role line "You are watching." is shown
}

export async function gameState(page: Page): Promise<GameState> {
  return page.evaluate(() => {
    const root = document.querySelector(".game-page");
    const decision = document.querySelector("section.decision");
    const errors = [...document.querySelectorAll<HTMLElement>('p.error[role="alert"]')]
      .filter((e) => !e.hidden && (e.textContent ?? "").trim() !== "")
      .map((e) => (e.textContent ?? "").trim());
    const roles = [...document.querySelectorAll(".role")];
    return {
      sequence: root?.getAttribute("data-sequence") ?? null,
      status: root?.getAttribute("data-status") ?? null,
      decision: decision === null ? null : (decision.getAttribute("data-decision") ?? ""),
      error: errors.length > 0 ? errors.join(" / ") : null,
      tiles: document.querySelectorAll("svg.board-svg g.tile:not(.ghost)").length,
      watching: roles.some((r) => (r.textContent ?? "").includes("You are watching.")),
    };
  });
}

export function describeState(name: string, s: GameState): string {
  const parts = [`sequence ${s.sequence ?? "-"}`, `status ${s.status ?? "-"}`, `decision ${s.decision ?? "-"}`, `${s.tiles} tiles`];
  if (s.watching) parts.push("watching");
  if (s.error !== null) parts.push(`error "${s.error}"`);
  return `${name}: ${parts.join(", ")}`;
}

// Waits until the page shows a state other than `before` (a move of ours was applied), or fails
// with what the page shows (an error from the server, most likely).
export async function waitForNewSequence(page: Page, before: string | null, timeoutMs = 10_000): Promise<void> {
  try {
    await page.waitForFunction(
      (prev) => document.querySelector(".game-page")?.getAttribute("data-sequence") !== prev,
      before,
      { timeout: timeoutMs, polling: 20 },
    );
  } catch {
    throw new Error(`the page stayed at sequence ${before}: ${describeState("page", await gameState(page))}`);
  }
}

// Waits until two pages show one sequence, and returns their states as read together. A move
// can be followed by actions the server takes itself (the next tile's draw), each with its own
// sequence and delta, so reading one page and waiting for another to show exactly that value
// races: the other may already be one further. The pages settle once the game waits on a player.
export async function waitForSameSequence(first: Page, second: Page, timeoutMs = 10_000): Promise<[GameState, GameState]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [a, b] = await Promise.all([gameState(first), gameState(second)]);
    if (a.sequence === b.sequence) return [a, b];
    if (Date.now() > deadline) {
      throw new Error(`the pages did not settle on one sequence: ${describeState("first", a)}; ${describeState("second", b)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// Waits until the page shows sequence `want`.
export async function waitForSequence(page: Page, want: string | null, timeoutMs = 10_000): Promise<void> {
  try {
    await page.waitForFunction(
      (w) => document.querySelector(".game-page")?.getAttribute("data-sequence") === w,
      want,
      { timeout: timeoutMs, polling: 20 },
    );
  } catch {
    throw new Error(`the page did not reach sequence ${want}: ${describeState("page", await gameState(page))}`);
  }
}

// The indices of the legal cells whose centre lies inside the board's view, so a click lands on
// them (Playwright clicks an element's centre).
export async function clickableCells(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const svg = document.querySelector("svg.board-svg");
    if (svg === null) return [];
    const box = svg.getBoundingClientRect();
    const cells = [...svg.querySelectorAll("rect.legal-cell")];
    return cells.flatMap((cell, i) => {
      const r = cell.getBoundingClientRect();
      const cx = r.left + r.width / 2;
      const cy = r.top + r.height / 2;
      const inside = r.width > 0 && cx > box.left && cx < box.right && cy > box.top && cy < box.bottom;
      return inside ? [i] : [];
    });
  });
}

export interface ReplayPosition {
  readonly step: number;
  readonly of: number;
}

export async function replayPosition(page: Page): Promise<ReplayPosition | null> {
  const text = await page.locator(".replay-position").first().textContent({ timeout: 1_000 }).catch(() => null);
  const m = /Step (\d+) of (\d+)/.exec(text ?? "");
  if (m?.[1] === undefined || m[2] === undefined) return null;
  return { step: Number(m[1]), of: Number(m[2]) };
}

// "Nothing happened" is shown by an event that must have come after it, never by waiting a
// while and looking: on a busy machine the page may not have run at all during the wait.

// Counts the page's live intervals (set with setInterval and not cleared): installed before the
// page's own scripts run, on every page the context opens after the call. An interval that was
// cleared can fire no more, so what it drove has stopped for good.
export async function trackIntervals(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const live = new Set<number>();
    const set = window.setInterval.bind(window);
    const clear = window.clearInterval.bind(window);
    window.setInterval = ((handler: TimerHandler, timeout?: number, ...args: unknown[]): number => {
      const id = set(handler, timeout, ...args);
      live.add(id);
      return id;
    }) as typeof window.setInterval;
    window.clearInterval = ((id?: number): void => {
      if (id !== undefined) live.delete(id);
      clear(id);
    }) as typeof window.clearInterval;
    (window as unknown as { carcLiveIntervals: () => number }).carcLiveIntervals = () => live.size;
  });
}

export async function liveIntervals(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { carcLiveIntervals: () => number }).carcLiveIntervals());
}

// Resolves once every timer that the page had set to fire within `ms` from now has fired: the
// browser runs a page's timers in the order they fall due (HTML's timer initialisation steps), so
// this timer of the page's own, due last, fires after them however slowly the page runs. What
// such a timer does at once (a message sent) has then been done.
export async function pageTimersDue(page: Page, ms: number): Promise<void> {
  await page.evaluate((delay) => new Promise<void>((resolve) => setTimeout(resolve, delay)), ms);
}
