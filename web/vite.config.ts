// The client is served by carc-server (--web-root web/dist) at the site's root; its pages live at
// /game/<id> and /replay/<id> too, so the bundle's assets are linked from the root (/assets/...).
// The procedure for checking a game's draws by hand (docs/fairness.md) goes along as
// /fairness.txt (a type the server serves), for the replay page's "Fair draws" to link to.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";

const FAIRNESS_DOC = fileURLToPath(new URL("../docs/fairness.md", import.meta.url));

function fairnessDoc(): Plugin {
  return {
    name: "carc-fairness-doc",
    apply: "build",
    generateBundle() {
      if (!existsSync(FAIRNESS_DOC)) {
        this.warn(`${FAIRNESS_DOC} is missing: the replay page's link to it will not answer`);
        return;
      }
      this.emitFile({ type: "asset", fileName: "fairness.txt", source: readFileSync(FAIRNESS_DOC, "utf8") });
    },
  };
}

export default defineConfig({
  base: "/",
  plugins: [fairnessDoc()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
  },
  test: {
    include: ["test/**/*.test.ts"],
  },
});
