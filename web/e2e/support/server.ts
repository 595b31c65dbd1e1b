// A fresh carc-server for one test file: its own database in a temporary folder, the built client
// from dist/, and a port the system picks (--port 0, read back from the server's "listening on"
// log line). It allows chosen seeds (--allow-chosen-seeds), so that the lobby's /?seed= fixes a
// test's game; it may be one shard of several (--shard NAME). It is ready once GET /healthz answers, and it is stopped by its own PID, never by
// name, because other servers may run on the same machine. A test can also kill it as a crash
// would (SIGKILL) and start it again on the same port and database, to see the clients recover.
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

export interface ServerOptions {
  readonly port?: number; // 0 or absent: the system picks one
  readonly db?: string; // absent: a new file in a temporary folder that stop() removes
  readonly shard?: string; // --shard NAME: its games' ids carry the name; absent: a server alone
}

export interface RunningServer {
  readonly baseUrl: string; // http://127.0.0.1:<port>
  readonly port: number;
  readonly db: string; // the database file
  readonly pid: number; // of the current process
  log(): string; // the last lines of its standard error, across restarts
  kill(): Promise<void>; // SIGKILL, as a crash: nothing is flushed or closed; the database stays
  restart(): Promise<void>; // kills it if it runs, then starts it on the same port and database
  stop(): Promise<void>; // SIGTERM (SIGKILL if it hangs), then removes the temporary folder
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

function remember(lines: string[], line: string): void {
  lines.push(line);
  if (lines.length > MAX_LOG_LINES) lines.shift();
}

function running(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

function exited(child: ChildProcess): Promise<void> {
  if (!running(child)) return Promise.resolve();
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
        remember(lines, line);
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

// A restarted server binds the port its predecessor held; the kernel may still hand that port out
// as the local end of a connection in the meantime (a client retrying, say), so binding is tried
// a few times.
const RESTART_ATTEMPTS = 5;
const RESTART_PAUSE_MS = 300;

class ServerProcess implements RunningServer {
  private child: ChildProcess | null = null;
  private portValue = 0;
  private readonly lines: string[] = [];

  constructor(
    private readonly binary: string,
    private readonly root: string,
    readonly db: string,
    private readonly cleanUp: () => void,
    private readonly shard: string | undefined,
  ) {}

  get port(): number {
    return this.portValue;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.portValue}`;
  }

  get pid(): number {
    return this.child?.pid ?? -1;
  }

  log(): string {
    return this.lines.join("\n");
  }

  // Starts a process on `port` (0: any) and waits until it answers /healthz.
  async spawn(port: number): Promise<void> {
    // --allow-chosen-seeds: the tests fix each game's seed through the lobby's /?seed=.
    const args = ["--port", String(port), "--db", this.db, "--web-root", this.root, "--sync", "normal", "--allow-chosen-seeds"];
    if (this.shard !== undefined) args.push("--shard", this.shard);
    const child = spawn(this.binary, args, { stdio: ["ignore", "ignore", "pipe"] });
    this.child = child;
    if (child.pid === undefined) throw new Error(`could not start ${this.binary}`);
    this.portValue = await listeningPort(child, this.lines);
    if (port !== 0 && this.portValue !== port) {
      throw new Error(`carc-server listens on ${this.portValue}, not on the port asked for, ${port}`);
    }
    await waitHealthy(this.baseUrl);
  }

  async kill(): Promise<void> {
    const child = this.child;
    if (child === null || !running(child)) return;
    child.kill("SIGKILL"); // this child's PID only
    await exited(child);
    remember(this.lines, `[e2e] carc-server (pid ${child.pid}) killed with SIGKILL`);
  }

  async restart(): Promise<void> {
    await this.kill();
    const port = this.portValue;
    for (let attempt = 1; ; attempt++) {
      remember(this.lines, `[e2e] starting carc-server again on port ${port} with ${this.db}`);
      try {
        await this.spawn(port);
        return;
      } catch (e) {
        await this.kill();
        if (attempt >= RESTART_ATTEMPTS) throw e;
        await new Promise((r) => setTimeout(r, RESTART_PAUSE_MS));
      }
    }
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child !== null && running(child)) {
      child.kill("SIGTERM"); // this child's PID only
      const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
      await exited(child);
      clearTimeout(timer);
    }
    this.cleanUp();
  }
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const binary = serverBinary();
  const root = webRoot();
  const dir = options.db === undefined ? mkdtempSync(join(tmpdir(), "carc-e2e-")) : null;
  const db = options.db ?? join(dir ?? "", "games.db");
  const cleanUp = (): void => {
    if (dir !== null) rmSync(dir, { recursive: true, force: true });
  };
  const server = new ServerProcess(binary, root, db, cleanUp, options.shard);
  try {
    await server.spawn(options.port ?? 0);
    return server;
  } catch (e) {
    await server.stop();
    throw e;
  }
}
