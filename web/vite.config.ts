// The client is served by carc-server (--web-root web/dist) at the site's root; its pages live at
// /game/<id> and /replay/<id> too, so the bundle's assets are linked from the root (/assets/...).
import { defineConfig } from "vitest/config";

export default defineConfig({
  base: "/",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
  },
  test: {
    include: ["test/**/*.test.ts"],
  },
});
