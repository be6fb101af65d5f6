import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, serverProcessUnder, startProduction, type ProductionServer } from "../support/production";

// `npm run db:move` and `db:backup` beside the production server as people start it: while it
// runs, the move refuses and names it (host, pid, since) and the backup says it was taken live;
// stopped with SIGTERM, its registration is gone and the move goes at once, without --force.

const root = path.resolve(import.meta.dirname, "../../..");

beforeAll(() => ensureBuilt(), 900_000);

function dbTool(dataDir: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", "scripts/db.ts", ...args], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, stdout, stderr })));
}

const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe("the database tools beside the production server on SQLite", () => {
  let server: ProductionServer | undefined;
  let dataDir: string;
  let startedBefore: number;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dd-dbtools-"));
    startedBefore = Date.now();
    server = await startProduction({ DATA_DIR: dataDir });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("refuses to move while the server runs, naming it; moves at once once SIGTERM stopped it", { timeout: 180_000 }, async () => {
    const pid = serverProcessUnder(server!.process.pid!);
    const moved = path.join(dataDir, "moved.sqlite");
    const named = `an instance on host ${escaped(os.hostname())}, pid ${pid}, running since (\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d) UTC \\(last seen \\d+ s ago\\)`;

    const refused = await dbTool(dataDir, ["move", "--to", moved]);
    expect(refused.code, refused.stderr).toBe(2);
    const lines = refused.stderr.trim().split("\n");
    expect(lines).toEqual([expect.stringMatching(new RegExp(`^db:move: The app is running on the source: ${named}\\. Stop every instance first .*--force copies anyway\\.`))]);
    const since = Date.parse(`${new RegExp(named).exec(lines[0]!)![1]!.replace(" ", "T")}Z`);
    expect(since).toBeGreaterThanOrEqual(Math.floor(startedBefore / 1000) * 1000);
    expect(since).toBeLessThanOrEqual(Date.now());
    expect(fs.existsSync(moved)).toBe(false);

    const backup = await dbTool(dataDir, ["backup", path.join(dataDir, "live.jsonl.gz")]);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(new RegExp(`Taken while the app ran \\(${named}\\): the backup is one snapshot`));

    expect(await server!.stop()).toEqual({ code: 0, signal: null });
    server = undefined;

    const after = await dbTool(dataDir, ["move", "--to", moved]);
    expect(after.code, `${after.stdout}\n${after.stderr}`).toBe(0);
    expect(after.stdout).toMatch(/Moved \d+ rows in [\d.]+ s .*; every table verified/);
    expect(fs.existsSync(moved)).toBe(true);
  });
});
