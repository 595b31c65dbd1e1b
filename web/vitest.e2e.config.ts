// The end-to-end tests (e2e/, `npm run e2e`): a real carc-server per test file and headless
// Chromium. One file at a time and one test at a time, never retried; a whole game is played
// within one test, so the time limits are long (each test sets its own).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["e2e/**/*.e2e.ts"],
    fileParallelism: false,
    sequence: { concurrent: false },
    retry: 0,
    testTimeout: 120_000,
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
    // A page shows what the server's messages say once they have arrived, so every check of what
    // it shows is an expect.poll (or a Playwright wait) that retries until it holds; on a busy
    // machine that can take well over vitest's default second.
    expect: { poll: { timeout: 10_000, interval: 20 } },
  },
});
