import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, freePort, startProduction } from "../support/production";

// `npm start` refuses a bad configuration before anything listens (scripts/check-config.ts):
// an exit and a line naming the variable, rather than a server answering 500 to everything.

const root = path.resolve(import.meta.dirname, "../../..");
let dataDir: string;

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dd-failfast-"));
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

async function startWith(env: Record<string, string>) {
  const port = await freePort();
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", DATABASE_URL: "", DATA_DIR: dataDir, PORT: String(port), ...env },
  });
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
  child.stdout.resume();
  const started = performance.now();
  const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
  return { port, code, stderr, seconds: (performance.now() - started) / 1000 };
}

function connectOutcome(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve("connected");
    });
    socket.once("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? "error"));
  });
}

describe("npm start with a bad configuration", () => {
  it("exits non-zero within seconds, naming a limit that is not a number, with nothing listening", { timeout: 120_000 }, async () => {
    const run = await startWith({ PLAYGROUND_STREAMS_TOTAL: "lots" });
    expect(run.code).toBe(1);
    // Seconds, not the build's minutes: the check runs first. Loose, for a loaded machine.
    expect(run.seconds).toBeLessThan(60);
    expect(run.stderr.trim().split("\n")).toEqual(["[start] invalid configuration: PLAYGROUND_STREAMS_TOTAL: must be a number"]);
    expect(await connectOutcome(run.port)).toBe("ECONNREFUSED");
  });

  it("exits non-zero when one address may hold more streams than the whole server", { timeout: 120_000 }, async () => {
    const run = await startWith({ PLAYGROUND_STREAMS_PER_ADDRESS: "500", PLAYGROUND_STREAMS_TOTAL: "100" });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^\[start\] invalid configuration: PLAYGROUND_STREAMS_TOTAL: must be above PLAYGROUND_STREAMS_PER_ADDRESS/);
    expect(await connectOutcome(run.port)).toBe("ECONNREFUSED");
  });
});

describe("npm start with a good configuration", () => {
  beforeAll(() => ensureBuilt(), 900_000);

  it("starts and answers /healthz", async () => {
    const server = await startProduction({ DATA_DIR: dataDir, PLAYGROUND_STREAMS_PER_ADDRESS: "20", PLAYGROUND_STREAMS_TOTAL: "100", CRM_SYNC_ON_START: "0" });
    try {
      const res = await fetch(`${server.url}/healthz`);
      expect(res.status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 180_000);
});
