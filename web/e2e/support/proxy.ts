// Debian's nginx in front of several carc-server shards, configured as in production by
// deploy/nginx/render-shards.sh (--standalone: its configuration, logs and temporary files in a
// temporary folder of its own): /shard/NAME/ goes to shard NAME, GET /shards lists them, the rest
// goes to any shard. It listens on a free loopback port, is ready once GET /shards answers, and is
// stopped by its own PID, never by name.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { WEB_DIR } from "./server";

const NGINX = process.env.CARC_NGINX ?? "/usr/sbin/nginx";
const RENDER = join(WEB_DIR, "..", "deploy", "nginx", "render-shards.sh");
const START_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 5_000;
const START_ATTEMPTS = 3; // the free port may be taken between finding it and nginx binding it

export interface RunningProxy {
  readonly baseUrl: string; // http://127.0.0.1:<port>
  log(): string; // nginx's standard error and error log
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => done(port));
    });
  });
}

function running(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (!running(child)) return;
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  child.kill("SIGTERM"); // this child's PID only: nginx's master, which stops its workers
  const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

// Waits until nginx answers its shard list; fails at once if it exits.
async function waitListening(child: ChildProcess, baseUrl: string, log: () => string): Promise<void> {
  const until = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < until) {
    if (!running(child)) throw new Error(`nginx exited (${child.exitCode ?? child.signalCode}):\n${log()}`);
    try {
      const res = await fetch(`${baseUrl}/shards`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nginx did not answer ${baseUrl}/shards:\n${log()}`);
}

// nginx in front of the shards, each given by name and its server's loopback port.
export async function startProxy(shards: Readonly<Record<string, number>>): Promise<RunningProxy> {
  if (!existsSync(NGINX)) {
    throw new Error(`no nginx at ${NGINX}: scripts/deps.sh installs it (nginx-light), or set CARC_NGINX`);
  }
  const dir = mkdtempSync(join(tmpdir(), "carc-e2e-nginx-"));
  // nginx's workers run as another user when it is started as root: they must reach their files.
  chmodSync(dir, 0o755);
  const upstreams = Object.entries(shards).map(([name, port]) => `${name}=127.0.0.1:${port}`);
  let lastError: unknown = null;
  for (let attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
    const port = await freePort();
    const config = join(dir, "nginx.conf");
    writeFileSync(config, execFileSync(RENDER, ["--standalone", dir, `127.0.0.1:${port}`, ...upstreams], { encoding: "utf8" }));
    const lines: string[] = [];
    const child = spawn(NGINX, ["-p", dir, "-c", config, "-g", "daemon off;"], { stdio: ["ignore", "ignore", "pipe"] });
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => lines.push(chunk));
    const log = (): string => {
      const errorLog = join(dir, "error.log");
      return lines.join("") + (existsSync(errorLog) ? readFileSync(errorLog, "utf8") : "");
    };
    const baseUrl = `http://127.0.0.1:${port}`;
    try {
      await waitListening(child, baseUrl, log);
      return {
        baseUrl,
        log,
        stop: async () => {
          await stopChild(child);
          rmSync(dir, { recursive: true, force: true });
        },
      };
    } catch (e) {
      lastError = e;
      await stopChild(child);
    }
  }
  rmSync(dir, { recursive: true, force: true });
  throw lastError;
}
