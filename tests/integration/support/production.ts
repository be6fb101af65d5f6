import fs from "node:fs";
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import net from "node:net";
import path from "node:path";

// The production server as people start it (`npm start`, scripts/start.mjs), on a free port,
// with its stdout kept for the tests that read its log lines.

const root = path.resolve(import.meta.dirname, "../../..");

/** Builds the production bundle when it is missing or stale (the build is shared and locked). */
export async function ensureBuilt(): Promise<void> {
  // Not spawnSync: a build takes minutes, and a blocked test worker loses its runner's calls.
  const child = spawn(process.execPath, ["scripts/start.mjs", "--build-only"], { cwd: root, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`the production build failed (${code})`);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export interface ProductionServer {
  url: string;
  port: number;
  process: ChildProcess;
  /** Everything written to stdout so far. */
  stdout(): string;
  /** The JSON log lines on stdout so far. */
  logLines(): Record<string, unknown>[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then the exit. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

// A route, not a static file: the framework serves public files before the instrumentation hook
// has run, and only once a route has answered is every request counted, logged and given an id.
function respondsAt(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get({ host: "127.0.0.1", port, path: "/healthz", timeout: 2_000 }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on("error", () => resolve(false));
    req.on("timeout", () => {
      req.destroy();
      resolve(false);
    });
  });
}

export async function startProduction(env: Record<string, string>): Promise<ProductionServer> {
  const port = await freePort();
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", DATABASE_URL: "", PORT: String(port), ...env },
  });
  let out = "";
  let err = "";
  child.stdout?.on("data", (c: Buffer) => (out += c.toString("utf8")));
  child.stderr?.on("data", (c: Buffer) => (err += c.toString("utf8")));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  let gone = false;
  void exited.then(() => (gone = true));
  for (;;) {
    if (gone) throw new Error(`the production server exited while starting:\n${out}\n${err}`);
    if (await respondsAt(port)) break;
    // A look costs one loopback request; every production-server file waits out half of this.
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    process: child,
    stdout: () => out,
    logLines: () =>
      out
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .flatMap((l) => {
          try {
            return [JSON.parse(l) as Record<string, unknown>];
          } catch {
            return [];
          }
        }),
    exited,
    async stop() {
      if (!gone) child.kill("SIGTERM");
      return exited;
    },
  };
}

/** An event stream read as raw text, over plain HTTP. */
export function rawStream(url: string, headers: Record<string, string> = {}): { text(): string; status: Promise<number>; ended: Promise<void>; close(): void } {
  let text = "";
  let request: http.ClientRequest;
  let resolveStatus: (n: number) => void = () => {};
  const status = new Promise<number>((r) => (resolveStatus = r));
  const ended = new Promise<void>((resolve) => {
    request = http.get(url, { headers }, (res) => {
      resolveStatus(res.statusCode ?? 0);
      res.on("data", (c: Buffer) => (text += c.toString("utf8")));
      res.on("end", () => resolve());
      res.on("close", () => resolve());
    });
    request.on("error", () => resolve());
  });
  return { text: () => text, status, ended, close: () => request.destroy() };
}

/** The production server's own process: the child of scripts/start.mjs whose pid is `parent`. */
export function serverProcessUnder(parent: number): number {
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^[0-9]+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue;
    }
    // pid (comm) state ppid …; comm may hold spaces and parentheses, so read after the last ")".
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (ppid === parent) return Number(entry);
  }
  throw new Error("no server process under start.mjs");
}
