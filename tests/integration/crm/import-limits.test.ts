import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, type Storage } from "@/lib/db";
import { ImportError, loadHealth, loadUsage, parseHealthFile, parseUsageFile, readHealthFile, readUsageFile } from "@/lib/crm/sources-import";
import { PG_URL, backends, dropSchema } from "../support/backends";
import { runChild } from "../support/child";

// What an import refuses before it opens storage: a line longer than the cap (read no further
// than the cap, so a huge line costs no memory), and ids holding characters that do not show or
// that change how the text around them shows (control, bidirectional and zero-width ones).

function importError(fn: () => unknown): ImportError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ImportError);
    if (err instanceof ImportError) return err;
  }
  throw new Error("expected an ImportError");
}

const hex = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

// Each character, and the kind the refusal names.
const invisible: Array<[string, string]> = [
  ["\u0000", "a control character"],
  ["\u001b", "a control character"],
  ["\u0009", "a control character"],
  ["\u007f", "a control character"],
  ["\u0085", "a control character"],
  ["\u009b", "a control character"],
  ["\u202a", "a bidirectional control"],
  ["\u202e", "a bidirectional control"],
  ["\u2066", "a bidirectional control"],
  ["\u2069", "a bidirectional control"],
  ["\u200e", "a bidirectional control"],
  ["\u200f", "a bidirectional control"],
  ["\u061c", "a bidirectional control"],
  ["\u200b", "a zero-width character"],
  ["\u200d", "a zero-width character"],
  ["\u2060", "a zero-width character"],
  ["\ufeff", "a zero-width character"],
];

describe("import ids", () => {
  it.each(invisible)("refuses an id holding %j in CSV and NDJSON, naming the field, the character and its place", (ch, kind) => {
    const csv = importError(() => parseUsageFile(`productSchoolId,weekStart,activePersons\nps_1,2025-03-03,1\nps${ch}2,2025-03-03,2\n`, "csv"));
    expect(csv.issues).toEqual([{ line: 3, message: `productSchoolId: holds ${hex(ch)}, ${kind}, at character 3; an id may not hold control, bidirectional or zero-width characters` }]);
    const ndjson = importError(() => parseHealthFile(`{"companyId":${JSON.stringify(`c${ch}1`)},"date":"2025-03-03","score":5}\n`, "ndjson"));
    expect(ndjson.issues).toEqual([{ line: 1, message: `companyId: holds ${hex(ch)}, ${kind}, at character 2; an id may not hold control, bidirectional or zero-width characters` }]);
  });

  it("refuses such a character at either end too, where trimming would have hidden it", () => {
    const err = importError(() => parseUsageFile("productSchoolId,weekStart,activePersons\n\u202eps_1,2025-03-03,1\nps_2\ufeff,2025-03-03,2\n", "csv"));
    expect(err.issues.map((i) => [i.line, i.message.split(";")[0]])).toEqual([
      [2, "productSchoolId: holds U+202E, a bidirectional control, at character 1"],
      [3, "productSchoolId: holds U+FEFF, a zero-width character, at character 5"],
    ]);
  });

  it("keeps ids in other scripts and with ordinary spaces inside", () => {
    expect(parseHealthFile('{"companyId":"école 12 — 北","date":"2025-03-03","score":5}\n', "ndjson")).toEqual([{ companyId: "école 12 — 北", date: "2025-03-03", score: 5 }]);
  });

  describe.each(backends)("the loaders over $name", (backend) => {
    let h: Awaited<ReturnType<typeof backend.open>>;
    beforeAll(async () => {
      h = await backend.open();
    });
    afterAll(async () => {
      await h.close();
    });

    it("refuse such ids handed to them directly, writing nothing", async () => {
      await loadUsage(h.db, [{ productSchoolId: "ps_1", weekStart: "2025-03-03", activePersons: 1 }], 1_000);
      const before = await h.db.selectFrom("usage_weeks").selectAll().execute();
      await expect(loadUsage(h.db, [{ productSchoolId: "ps\u202e1", weekStart: "2025-03-10", activePersons: 2 }], 2_000)).rejects.toThrow(/bidirectional control/);
      await expect(loadHealth(h.db, [{ companyId: "c\u00001", date: "2025-03-10", score: 2 }], 2_000)).rejects.toThrow(/control character/);
      expect(await h.db.selectFrom("usage_weeks").selectAll().execute()).toEqual(before);
      expect(await h.db.selectFrom("health_scores").selectAll().execute()).toEqual([]);
      expect(await h.db.selectFrom("data_sources").selectAll().execute()).toEqual([{ name: "usage", loaded_at: 1_000, rows: 1 }]);
    });
  });
});

describe("import line length", () => {
  it("names a line over 64 KiB among the other bad lines, and reads the rest", () => {
    const long = `{"companyId":"c2","date":"2025-03-03","score":5,"note":"${"n".repeat(70_000)}"}`;
    const err = importError(() => parseHealthFile(['{"companyId":"c1","date":"2025-03-03","score":5}', long, '{"companyId":"c3","date":"bad","score":5}'].join("\n"), "ndjson"));
    expect(err.issues).toEqual([
      { line: 2, message: "is longer than 64 KiB, the most an import reads in one line (a row is a few dozen bytes: is this the file you meant?)" },
      { line: 3, message: "date: expected a calendar date as YYYY-MM-DD" },
    ]);
  });
});

describe("import files read a line at a time", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dd-import-lines-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("reads a file with a BOM and CRLF line ends as the text reader does, and a line of exactly 64 KiB", async () => {
    const file = path.join(dir, "crlf.csv");
    const wide = `ps_${"w".repeat(190)}`;
    const filler = " ".repeat(64 * 1024 - `${wide},2025-03-10,2`.length);
    fs.writeFileSync(file, `\uFEFFproductSchoolId,weekStart,activePersons\r\nps_1,2025-03-03,1\r\n${wide},2025-03-10,2${filler}\r\n`);
    expect(Buffer.byteLength(`${wide},2025-03-10,2${filler}`)).toBe(64 * 1024);
    expect(await readUsageFile(file, "csv")).toEqual([
      { productSchoolId: "ps_1", weekStart: "2025-03-03", activePersons: 1 },
      { productSchoolId: wide, weekStart: "2025-03-10", activePersons: 2 },
    ]);
    fs.appendFileSync(file, `ps_3,2025-03-10,3${" ".repeat(64 * 1024)}\r\n`);
    await expect(readUsageFile(file, "csv")).rejects.toMatchObject({ issues: [{ line: 4, message: expect.stringMatching(/^is longer than 64 KiB/) }] });
  });

  it("names a line that is not UTF-8", async () => {
    const file = path.join(dir, "latin1.jsonl");
    fs.writeFileSync(file, Buffer.concat([Buffer.from('{"companyId":"c1","date":"2025-03-03","score":5}\n{"companyId":"'), Buffer.from([0xe9]), Buffer.from('cole","date":"2025-03-03","score":5}\n')]));
    await expect(readHealthFile(file, "ndjson")).rejects.toMatchObject({ issues: [{ line: 2, message: "is not UTF-8 text (save the file as UTF-8)" }] });
  });
});

describe("npm run import refuses, changing nothing", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dd-import-limits-"));
  const schema = `t_${randomBytes(6).toString("hex")}`;
  const stores: Array<[string, Storage, Record<string, string>]> = [
    ["SQLite", { kind: "sqlite", file: path.join(dir, "data", "app.sqlite") }, { DATA_DIR: path.join(dir, "data"), DATABASE_URL: "" }],
    ["PostgreSQL", { kind: "postgres", url: PG_URL, schema }, { DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema }],
  ];
  afterAll(async () => {
    await dropSchema(schema);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** `npm run import` in a child, under /usr/bin/time for its peak resident memory. */
  const run = async (env: Record<string, string>, ...args: string[]) => {
    const r = await runChild("/usr/bin/time", ["-q", "-f", "maxrss-kb %M", process.execPath, "--conditions=react-server", "--import", "tsx", "scripts/import.ts", ...args], {
      env: { ...process.env, DEMO_TENANT: "false", ...env },
      cwd: process.cwd(),
    });
    const lines = r.stderr.trimEnd().split("\n");
    const last = lines.findLastIndex((l) => l.startsWith("maxrss-kb "));
    expect(last, r.stderr).toBeGreaterThanOrEqual(0);
    return { status: r.status, stdout: r.stdout, stderr: lines.filter((_, i) => i !== last).join("\n"), mb: Number(lines[last]!.slice(10)) / 1024 };
  };

  const held = async (storage: Storage) => {
    const open = await openDb(storage);
    try {
      return {
        usage: await open.db.selectFrom("usage_weeks").selectAll().orderBy("product_school_id").orderBy("week_start").execute(),
        health: await open.db.selectFrom("health_scores").selectAll().orderBy("company_id").orderBy("date").execute(),
        sources: await open.db.selectFrom("data_sources").selectAll().orderBy("name").execute(),
      };
    } finally {
      await open.close();
    }
  };

  const good = path.join(dir, "good.csv");
  const longJson = path.join(dir, "long.jsonl");
  const longCsv = path.join(dir, "long.csv");
  const bidi = path.join(dir, "bidi.csv");
  /** A 40 MB line between good ones, written in pieces. */
  const withLongLine = (file: string, before: string, open: string, close: string) => {
    const fd = fs.openSync(file, "w");
    fs.writeSync(fd, `${before}${open}`);
    const piece = "x".repeat(1024 * 1024);
    for (let i = 0; i < 40; i++) fs.writeSync(fd, piece);
    fs.writeSync(fd, close);
    fs.closeSync(fd);
  };
  beforeAll(() => {
    fs.writeFileSync(good, "productSchoolId,weekStart,activePersons\nps_1,2025-03-03,3\nps_2,2025-03-03,4\n");
    withLongLine(longJson, '{"companyId":"c1","date":"2025-03-03","score":5}\n', '{"companyId":"', '","date":"2025-03-03","score":5}\n{"companyId":"c3","date":"2025-03-03","score":5}\n');
    withLongLine(longCsv, "companyId,date,score\nc1,2025-03-03,5\n", "", ",2025-03-03,5\nc3,2025-03-03,5\n");
    fs.writeFileSync(bidi, "productSchoolId,weekStart,activePersons\nps_3,2025-03-10,5\nps_\u202e4,2025-03-10,6\n");
  });

  for (const [name, storage, env] of stores) {
    it(`refuses a 40 MB line on ${name} in bounded memory, naming the line and the cap`, async () => {
      const loaded = await run(env, "usage", good);
      expect(loaded.status, loaded.stderr).toBe(0);
      const before = await held(storage);
      expect(before.usage).toHaveLength(2);

      for (const [file, line] of [
        [longJson, 2],
        [longCsv, 3],
      ] as const) {
        const r = await run(env, "health", file);
        expect(r.status, file).toBe(1);
        expect(r.stderr).toBe(`${file}: nothing loaded; fix these lines:\nline ${line}: is longer than 64 KiB, the most an import reads in one line (a row is a few dozen bytes: is this the file you meant?)`);
        // Reading that line whole took 206 MB as JSON and 1.5 GB as CSV; with the cap the
        // process stays at the size it starts at (about 115 MB, most of it the TypeScript loader).
        expect(r.mb, file).toBeLessThan(160);
        expect(await held(storage), file).toEqual(before);
      }
    }, 60_000);

    it(`refuses an id with a bidirectional override on ${name}, naming it, loading nothing`, async () => {
      const before = await held(storage);
      const r = await run(env, "usage", bidi);
      expect(r.status).toBe(1);
      expect(r.stderr).toBe(`${bidi}: nothing loaded; fix these lines:\nline 3: productSchoolId: holds U+202E, a bidirectional control, at character 4; an id may not hold control, bidirectional or zero-width characters`);
      expect(await held(storage)).toEqual(before);
    }, 60_000);
  }
});
