// What every end-to-end test file sets up the same way: its own carc-server, one Chromium with a
// browser context for Alice, a screenshot of every page and the server's log when a test fails,
// and the rule that console errors and uncaught exceptions fail the test that caused them.
import type { BrowserContext } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";

import { Browsers } from "./browser";
import { startServer, type RunningServer } from "./server";

export interface Suite {
  readonly server: RunningServer;
  readonly browsers: Browsers;
  readonly alice: BrowserContext;
}

// Registers the hooks; the returned object's fields are set once beforeAll has run.
export function e2eSuite(): Suite {
  const suite = {} as { server: RunningServer; browsers: Browsers; alice: BrowserContext };
  beforeAll(async () => {
    suite.server = await startServer();
    suite.browsers = await Browsers.launch(suite.server.baseUrl);
    suite.alice = await suite.browsers.person("alice");
  }, 60_000);
  afterAll(async () => {
    await suite.browsers?.close();
    await suite.server?.stop();
  });
  beforeEach((ctx) => {
    ctx.onTestFailed(async () => {
      await suite.browsers.screenshotAll(`failed-${ctx.task.name.replace(/\W+/g, "-")}`);
      console.error(`carc-server (pid ${suite.server.pid}) standard error, last lines:\n${suite.server.log()}`);
    });
  });
  afterEach(() => {
    const errors = suite.browsers.takeErrors();
    if (errors.length > 0) throw new Error(`errors in the browser:\n${errors.join("\n")}`);
  });
  return suite;
}
