// A fresh carc-server for one test file: its own database in a temporary folder, the built client
// from dist/, and a port the system picks (--port 0, read back from the server's "listening on"
// log line). It is ready once GET /healthz answers, and it is stopped by its own PID, never by
// name, because other servers may run on the same machine.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const WEB_DIR = fileURLToPath(new URL("../..", import.meta.url));

const DEFAULT_BINARY = "../build/test/server/carc-server";
const START_TIMEOUT_MS = 15_000;
const STOP_TIMEOUT_MS = 8_000; // the server gives its clients up to 5 s to leave
const MAX_LOG_LINES = 300;

export interface RunningServer {
  readonly baseUrl: string; // http://127.0.0.1:<port>
  readonly pid: number;
  log(): string; // the last lines of its standard error
  stop(): Promise<void>;
}

// $CARC_SERVER (relative to web/ when not absolute), or the build that scripts/test.sh makes.
export function serverBinary(): string {
  const path = resolve(WEB_DIR, process.env.CARC_SERVER ?? DEFAULT_BINARY);
  if (!existsSync(path)) {
    throw new Error(
      `carc-server not found at ${path}: build it (ninja -C build/test carc-server) ` +
        "or point CARC_SERVER at the binary",
    );
  }
  return path;
}

function webRoot(): string {
  const dist = join(WEB_DIR, "dist");
  if (!existsSync(join(dist, "index.html"))) {
    throw new Error(`${dist}/index.html is missing: run "npm run build" in web/ first`);
  }
  return dist;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => child.once("exit", () => done()));
}

// Resolves with the port from the "listening on ws://HOST:PORT/" line; rejects if the server
// exits or stays silent.
function listeningPort(child: ChildProcess, lines: string[]): Promise<number> {
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error("carc-server did not report its port")), START_TIMEOUT_MS);
    let partial = "";
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      const parts = (partial + chunk).split("\n");
      partial = parts.pop() ?? "";
      for (const line of parts) {
        lines.push(line);
        if (lines.length > MAX_LOG_LINES) lines.shift();
        const m = /listening on ws:\/\/[^/]*:(\d+)\//.exec(line);
        if (m?.[1] !== undefined) {
          clearTimeout(timer);
          done(Number(m[1]));
        }
      }
    });
    child.once("error", (e) => {
      clearTimeout(timer);
      fail(e);
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      fail(new Error(`carc-server exited (${code ?? signal}) before listening:\n${lines.join("\n")}`));
    });
  });
}

async function waitHealthy(baseUrl: string): Promise<void> {
  const until = Date.now() + START_TIMEOUT_MS;
  let last = "";
  while (Date.now() < until) {
    try {
      const res = await fetch(`${baseUrl}/healthz`);
      if (res.ok) return;
      last = `HTTP ${res.status}`;
    } catch (e) {
      last = String(e);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${baseUrl}/healthz did not answer: ${last}`);
}

export async function startServer(): Promise<RunningServer> {
  const binary = serverBinary();
  const root = webRoot();
  const dir = mkdtempSync(join(tmpdir(), "carc-e2e-"));
  const args = ["--port", "0", "--db", join(dir, "games.db"), "--web-root", root, "--sync", "normal"];
  const child = spawn(binary, args, { stdio: ["ignore", "ignore", "pipe"] });
  const pid = child.pid;
  const lines: string[] = [];
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM"); // this child's PID only
      const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
      await exited(child);
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    if (pid === undefined) throw new Error(`could not start ${binary}`);
    const port = await listeningPort(child, lines);
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitHealthy(baseUrl);
    return { baseUrl, pid, log: () => lines.join("\n"), stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
