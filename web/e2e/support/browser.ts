// Headless Debian Chromium driven by playwright-core: the tests never download a browser. Each
// person is a browser context of their own (separate localStorage, so separate seats), and every
// page's console errors and uncaught exceptions are collected so that a test which caused any can
// fail with them.
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";

import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from "playwright-core";

import { WEB_DIR } from "./server";

export const OUT_DIR = join(WEB_DIR, "e2e", "out");
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

// How a person's device differs from a desktop with a mouse: a touch screen, a phone's browser.
export type Device = Pick<BrowserContextOptions, "hasTouch" | "isMobile">;
export const TOUCH_PHONE: Device = { hasTouch: true, isMobile: true };

const CHROMIUM = process.env.CARC_CHROMIUM ?? "/usr/bin/chromium";
// Without the networking switches Chromium keeps calling Google services, which a closed network
// answers with a flood of failures.
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const ACTION_TIMEOUT_MS = 15_000;

// A person's settings kept in the page's localStorage. The game page answers decisions with only
// one choice by itself unless told not to (src/ui/auto-answer.ts); the tests play every decision
// by clicking, so a person has it off unless `autoAnswer` says to leave the page's default.
export interface Settings {
  readonly autoAnswer?: "off" | "default";
}
const AUTO_ANSWER_KEY = "carc.autoAnswer";

export class Browsers {
  private readonly errors: string[] = [];
  // Console errors a test expects for a while (see allowConsoleErrors), and how many came.
  private allowed: RegExp | null = null;
  private allowedCount = 0;
  private readonly names = new Map<Page, string>();

  private constructor(
    private readonly browser: Browser,
    private readonly baseUrl: string,
  ) {}

  static async launch(baseUrl: string): Promise<Browsers> {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`no Chromium at ${CHROMIUM}: install Debian's chromium (scripts/deps.sh) or set CARC_CHROMIUM`);
    }
    mkdirSync(OUT_DIR, { recursive: true });
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
    return new Browsers(browser, baseUrl);
  }

  // A new person: a context with its own storage. Pages opened in it are watched for errors.
  async person(name: string, viewport = DESKTOP, device: Device = {}, settings: Settings = {}): Promise<BrowserContext> {
    const context = await this.browser.newContext({ ...device, baseURL: this.baseUrl, viewport });
    context.setDefaultTimeout(ACTION_TIMEOUT_MS);
    if ((settings.autoAnswer ?? "off") === "off") {
      // Only when unset: a setting the person changes on the page survives a reload.
      await context.addInitScript((key) => {
        try {
          if (localStorage.getItem(key) === null) localStorage.setItem(key, "off");
        } catch {
          // about:blank has no storage of its own.
        }
      }, AUTO_ANSWER_KEY);
    }
    let count = 0;
    context.on("page", (page) => {
      count += 1;
      this.watch(count === 1 ? name : `${name}-${count}`, page);
    });
    return context;
  }

  // A page of a new person.
  async page(name: string, viewport = DESKTOP, device: Device = {}): Promise<Page> {
    const context = await this.person(name, viewport, device);
    return context.newPage();
  }

  private watch(name: string, page: Page): void {
    this.names.set(page, name);
    page.on("console", (m) => {
      if (m.type() !== "error") return;
      if (this.allowed?.test(m.text()) === true) this.allowedCount += 1;
      else this.errors.push(`${name}: console error: ${m.text()} (${m.location().url})`);
    });
    page.on("pageerror", (e) => this.errors.push(`${name}: uncaught ${e.name}: ${e.message}`));
    page.on("close", () => this.names.delete(page));
  }

  // Until endAllowance(), console errors whose text matches `pattern` are expected (the browser's
  // own complaints while a server is down, say) and do not fail the test.
  allowConsoleErrors(pattern: RegExp): void {
    this.allowed = pattern;
    this.allowedCount = 0;
  }

  // How many console errors the current allowance has let through so far.
  allowedErrors(): number {
    return this.allowedCount;
  }

  // Ends the allowance; returns how many console errors it let through.
  endAllowance(): number {
    this.allowed = null;
    return this.allowedCount;
  }

  // The errors collected since the last call.
  takeErrors(): string[] {
    return this.errors.splice(0);
  }

  // Every open page as e2e/out/<prefix>-<person>.png, to see what a failed test left behind.
  async screenshotAll(prefix: string): Promise<void> {
    for (const [page, name] of this.names) {
      await page.screenshot({ path: join(OUT_DIR, `${prefix}-${name}.png`) }).catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    await this.browser.close();
  }
}
