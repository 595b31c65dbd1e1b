// The client is served by carc-server (--web-root web/dist) from its own origin, so relative asset
// paths keep the bundle working whatever path the server mounts it under.
import { defineConfig } from "vitest/config";

export default defineConfig({
  base: "./",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
  },
  test: {
    include: ["test/**/*.test.ts"],
  },
});
