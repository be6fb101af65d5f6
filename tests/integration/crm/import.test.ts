import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb } from "@/lib/db";
import {
  formatOfFile,
  ImportError,
  loadHealth,
  loadUsage,
  parseHealthFile,
  parseUsageFile,
  splitCsvLine,
} from "@/lib/crm/sources-import";
import { backends } from "../support/backends";

function importError(fn: () => unknown): ImportError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ImportError);
    if (err instanceof ImportError) return err;
  }
  throw new Error("expected an ImportError");
}

describe("usage and health file parsing", () => {
  it("reads a CSV with a header in any accepted spelling, quotes, CRLF and a BOM", () => {
    const text = '\uFEFFweek_start,product_school_id,active_persons\r\n2025-03-03,ps_1,12\r\n\r\n"2025-03-10","ps_""2""",0\r\n';
    expect(parseUsageFile(text, "csv")).toEqual([
      { productSchoolId: "ps_1", weekStart: "2025-03-03", activePersons: 12 },
      { productSchoolId: 'ps_"2"', weekStart: "2025-03-10", activePersons: 0 },
    ]);
  });

  it("keeps numeric-looking ids as text", () => {
    expect(parseHealthFile("companyId,date,score\n0062,2025-03-03,71.5\n", "csv")).toEqual([{ companyId: "0062", date: "2025-03-03", score: 71.5 }]);
  });

  it("reads NDJSON, skipping blank lines, and a blank or null score as null", () => {
    const ndjson = '{"companyId":"c1","date":"2025-03-03","score":80}\n\n{"companyId":"c2","date":"2025-03-03","score":null}\n';
    expect(parseHealthFile(ndjson, "ndjson")).toEqual([
      { companyId: "c1", date: "2025-03-03", score: 80 },
      { companyId: "c2", date: "2025-03-03", score: null },
    ]);
    expect(parseHealthFile("companyId,date,score\nc3,2025-03-03,\n", "csv")).toEqual([{ companyId: "c3", date: "2025-03-03", score: null }]);
  });

  it("names every bad line of a CSV, with the reason", () => {
    const text = [
      "productSchoolId,weekStart,activePersons", // 1
      "ps_1,2025-03-03,5", // 2 good
      "ps_2,2025-02-30,5", // 3 not a calendar date
      "ps_3,2025-03-03", // 4 too few fields
      "ps_4,2025-03-03,-1", // 5 negative
      "ps_5,2025-03-03,2.5", // 6 fractional
      "ps_1,2025-03-03,7", // 7 repeats line 2
      ",2025-03-03,3", // 8 empty id
      'ps_9,"2025-03-03,4', // 9 open quote
    ].join("\n");
    const err = importError(() => parseUsageFile(text, "csv"));
    expect(err.issues.map((i) => i.line)).toEqual([3, 4, 5, 6, 7, 8, 9]);
    const byLine = new Map(err.issues.map((i) => [i.line, i.message]));
    expect(byLine.get(3)).toContain("weekStart");
    expect(byLine.get(3)).toContain("YYYY-MM-DD");
    expect(byLine.get(4)).toBe("has 2 fields, the header has 3");
    expect(byLine.get(5)).toContain("activePersons: must not be negative");
    expect(byLine.get(6)).toContain("activePersons: must be a whole number");
    expect(byLine.get(7)).toBe("repeats line 2 (same productSchoolId and weekStart)");
    expect(byLine.get(8)).toContain("productSchoolId: must not be empty");
    expect(byLine.get(9)).toBe("unterminated quote");
    expect(err.message.split("\n")[0]).toMatch(/^line 3: /);
  });

  it("names bad NDJSON lines: not JSON, a missing field, a score out of range", () => {
    const text = [
      '{"companyId":"c1","date":"2025-03-03","score":50}',
      "{not json",
      '{"companyId":"c2","score":50}',
      '{"companyId":"c3","date":"2025-03-03","score":101}',
      '{"companyId":"c4","date":"2025-03-03","score":"high"}',
    ].join("\n");
    const err = importError(() => parseHealthFile(text, "ndjson"));
    expect(err.issues).toEqual([
      { line: 2, message: "not a JSON object" },
      { line: 3, message: "date is missing" },
      { line: 4, message: "score: must be from 0 to 100" },
      { line: 5, message: "score: must be a number from 0 to 100, or empty" },
    ]);
  });

  it("rejects a header without a required column, and a file without rows", () => {
    expect(importError(() => parseUsageFile("productSchoolId,weekStart\nps_1,2025-03-03\n", "csv")).issues).toEqual([
      { line: 1, message: "the header lacks column(s) activePersons" },
    ]);
    expect(importError(() => parseUsageFile("productSchoolId,weekStart,activePersons\n", "csv")).issues).toEqual([{ line: 1, message: "the file holds no rows" }]);
    expect(importError(() => parseHealthFile("", "ndjson")).issues).toEqual([{ line: 1, message: "the file holds no rows" }]);
  });

  it("splits CSV lines and tells formats from file names", () => {
    expect(splitCsvLine('a,"b,c","d""e",')).toEqual(["a", "b,c", 'd"e', ""]);
    expect(splitCsvLine('a,"b')).toBeNull();
    expect(formatOfFile("x/usage.CSV")).toBe("csv");
    expect(formatOfFile("h.ndjson")).toBe("ndjson");
    expect(formatOfFile("h.jsonl")).toBe("ndjson");
    expect(formatOfFile("h.json")).toBeNull();
  });
});

describe.each(backends)("usage and health loading over $name", (backend) => {
  let h: Awaited<ReturnType<typeof backend.open>>;
  beforeAll(async () => {
    h = await backend.open();
  });
  afterAll(async () => {
    await h.close();
  });

  it("upserts usage and records the source; a reload updates instead of duplicating", async () => {
    const first = await loadUsage(
      h.db,
      [
        { productSchoolId: "ps_1", weekStart: "2025-03-03", activePersons: 10 },
        { productSchoolId: "ps_1", weekStart: "2025-03-10", activePersons: 11 },
        { productSchoolId: "ps_2", weekStart: "2025-03-03", activePersons: 4 },
      ],
      1_000,
    );
    expect(first).toEqual({ loaded: 3, held: 3 });
    const second = await loadUsage(
      h.db,
      [
        { productSchoolId: "ps_1", weekStart: "2025-03-10", activePersons: 15 },
        { productSchoolId: "ps_3", weekStart: "2025-03-03", activePersons: 1 },
      ],
      2_000,
    );
    expect(second).toEqual({ loaded: 2, held: 4 });
    const rows = await h.db.selectFrom("usage_weeks").selectAll().orderBy("product_school_id").orderBy("week_start").execute();
    expect(rows).toEqual([
      { product_school_id: "ps_1", week_start: "2025-03-03", active_persons: 10 },
      { product_school_id: "ps_1", week_start: "2025-03-10", active_persons: 15 },
      { product_school_id: "ps_2", week_start: "2025-03-03", active_persons: 4 },
      { product_school_id: "ps_3", week_start: "2025-03-03", active_persons: 1 },
    ]);
    expect(await h.db.selectFrom("data_sources").selectAll().where("name", "=", "usage").executeTakeFirst()).toEqual({ name: "usage", loaded_at: 2_000, rows: 4 });
  });

  it("loads health scores with nulls, in batches, and records the source", async () => {
    const many = Array.from({ length: 1_234 }, (_, i) => ({ companyId: `c${i}`, date: "2025-03-03", score: i % 10 === 0 ? null : i % 100 }));
    expect(await loadHealth(h.db, many, 3_000)).toEqual({ loaded: 1_234, held: 1_234 });
    const nulls = await h.db.selectFrom("health_scores").select((eb) => eb.fn.countAll().as("n")).where("score", "is", null).executeTakeFirst();
    expect(Number(nulls?.n)).toBe(124);
    const c7 = await h.db.selectFrom("health_scores").selectAll().where("company_id", "=", "c7").executeTakeFirst();
    expect(c7).toEqual({ company_id: "c7", date: "2025-03-03", score: 7 });
    expect(await h.db.selectFrom("data_sources").selectAll().where("name", "=", "health").executeTakeFirst()).toEqual({ name: "health", loaded_at: 3_000, rows: 1_234 });
  });

  it("keeps the last of repeated keys handed to the loader directly", async () => {
    await loadHealth(h.db, [
      { companyId: "dup", date: "2025-04-07", score: 1 },
      { companyId: "dup", date: "2025-04-07", score: 2 },
    ]);
    const row = await h.db.selectFrom("health_scores").select("score").where("company_id", "=", "dup").executeTakeFirst();
    expect(row?.score).toBe(2);
  });
});

describe("npm run import", () => {
  const run = promisify(execFile);
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "dd-import-"));
  });
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const env = () => ({ ...process.env, DATA_DIR: path.join(dir, "data"), DATABASE_URL: "", DEMO_TENANT: "false" });
  const script = (...args: string[]) => run(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/import.ts", ...args], { env: env(), cwd: process.cwd() });

  it("loads a good file into the configured storage and prints the rows loaded", async () => {
    const file = path.join(dir, "usage.csv");
    fs.writeFileSync(file, "productSchoolId,weekStart,activePersons\nps_1,2025-03-03,3\nps_2,2025-03-03,4\n");
    const { stdout } = await script("usage", file);
    expect(stdout).toContain("usage: loaded 2 rows");
    const open = await openDb({ kind: "sqlite", file: path.join(dir, "data", "app.sqlite") });
    try {
      expect(await open.db.selectFrom("usage_weeks").select(["product_school_id", "active_persons"]).orderBy("product_school_id").execute()).toEqual([
        { product_school_id: "ps_1", active_persons: 3 },
        { product_school_id: "ps_2", active_persons: 4 },
      ]);
    } finally {
      await open.close();
    }
  });

  it("loads nothing from a file with a bad line, names the line and exits 1", async () => {
    const file = path.join(dir, "health.jsonl");
    fs.writeFileSync(file, '{"companyId":"c1","date":"2025-03-03","score":5}\n{"companyId":"c2","date":"03/03/2025","score":5}\n');
    const err = await script("health", file).then(
      () => null,
      (e: unknown) => e as { code: number; stderr: string },
    );
    expect(err?.code).toBe(1);
    expect(err?.stderr).toContain("line 2: date: expected a calendar date as YYYY-MM-DD");
    const open = await openDb({ kind: "sqlite", file: path.join(dir, "data", "app.sqlite") });
    try {
      expect(await open.db.selectFrom("health_scores").selectAll().execute()).toEqual([]);
      expect(await open.db.selectFrom("data_sources").select("name").execute()).toEqual([{ name: "usage" }]);
    } finally {
      await open.close();
    }
  });

  it("refuses a file whose format it cannot tell, and a wrong kind", async () => {
    const bad = await script("usage", path.join(dir, "x.json")).then(
      () => null,
      (e: unknown) => e as { code: number; stderr: string },
    );
    expect(bad?.code).toBe(2);
    expect(bad?.stderr).toContain(".csv, .ndjson or .jsonl");
    const wrong = await script("owners", path.join(dir, "x.csv")).then(
      () => null,
      (e: unknown) => e as { code: number; stderr: string },
    );
    expect(wrong?.code).toBe(2);
    expect(wrong?.stderr).toContain("usage: npm run import");
  });
});
