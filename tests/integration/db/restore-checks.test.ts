import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, type OpenDb, type Storage } from "@/lib/db";
import { backupDatabase, restoreDatabase } from "@/lib/db/backup";
import { migrationNames } from "@/lib/db/migrate";
import { Refusal, TableDigest, appTables, digestTable, rowCounts } from "@/lib/db/transfer";
import { seedDemo } from "@/lib/seed";
import { PG_URL, dropSchema, testSeed } from "../support/backends";
import { runChild, type ChildResult } from "../support/child";

// A restore checks the whole file before it drops or writes anything. Every backup crafted here
// is well formed: its counts, digests and checksum are made again for what it says, as anyone
// can (the checksum detects damage, not forgery). Each is refused with the target unchanged, on
// a SQLite file and on a PostgreSQL schema, and the refusal names what is wrong and where.

const ROOT = path.resolve(import.meta.dirname, "../../..");
const KEY = "integration-test-key-".repeat(2);
const LATEST = migrationNames[migrationNames.length - 1]!;

interface Section {
  table: string;
  columns: string[];
  rows: unknown[][];
}
interface Parsed {
  header: Record<string, unknown>;
  sections: Section[];
}

function readBackupFile(file: string): Parsed {
  const lines = zlib.gunzipSync(fs.readFileSync(file)).toString("utf8").trimEnd().split("\n");
  const header = JSON.parse(lines[0]!) as Record<string, unknown>;
  const sections: Section[] = [];
  let current: Section | null = null;
  for (const line of lines.slice(1, -1)) {
    const v = JSON.parse(line) as unknown;
    if (Array.isArray(v)) current!.rows.push(v);
    else if (typeof (v as { table?: unknown }).table === "string") sections.push((current = { table: (v as Section).table, columns: (v as Section).columns, rows: [] }));
  }
  return { header, sections };
}

const decode = (v: unknown) => (v !== null && typeof v === "object" && "$b" in v ? Buffer.from(String((v as { $b: string }).$b), "base64") : v);

/** Writes a backup with every count, digest and the checksum made again for what it holds. */
function writeBackupFileSync(file: string, parsed: Parsed, forged: Record<string, string> = {}): void {
  const parts: string[] = [];
  const hash = createHash("sha256");
  const put = (text: string) => {
    hash.update(text);
    parts.push(text);
  };
  put(`${JSON.stringify(parsed.header)}\n`);
  let total = 0;
  for (const s of parsed.sections) {
    put(`${JSON.stringify({ table: s.table, columns: s.columns })}\n`);
    const digest = new TableDigest();
    for (const row of s.rows) {
      digest.add(Object.fromEntries(s.columns.map((c, i) => [c, decode(row[i])])));
      put(`${JSON.stringify(row)}\n`);
    }
    put(`${JSON.stringify({ tableEnd: s.table, rows: s.rows.length, digest: forged[s.table] ?? digest.value() })}\n`);
    total += s.rows.length;
  }
  parts.push(`${JSON.stringify({ end: true, rows: total, sha256: hash.digest("hex") })}\n`);
  fs.writeFileSync(file, zlib.gzipSync(Buffer.from(parts.join("")), { level: 1 }));
}

const section = (p: Parsed, table: string) => p.sections.find((s) => s.table === table)!;
const col = (s: Section, name: string) => s.columns.indexOf(name);

async function withDb<T>(storage: Storage, f: (open: OpenDb) => Promise<T>): Promise<T> {
  const open = await openDb(storage, { migrate: false });
  try {
    return await f(open);
  } finally {
    await open.close();
  }
}

/** Every app table's row count and content digest: what "unchanged" means. */
const stateOf = (storage: Storage) =>
  withDb(storage, async (open) => ({ counts: await rowCounts(open.db), digests: await Promise.all(appTables.map((t) => digestTable(open.db, t))) }));

/** The demo tenant and 746 CRM contacts, as in the deployment where the finding was measured. */
async function fill(storage: Storage): Promise<void> {
  const open = await openDb(storage);
  try {
    await seedDemo(open.db, testSeed());
    const contacts = Array.from({ length: 746 }, (_, i) => ({
      instance: "customers",
      id: `ct-${i}`,
      email: `person${i}@example.test`,
      first_name: `First${i}`,
      last_name: `Last${i}`,
      company_id: null,
      lifecycle_stage: "customer",
      source_updated_at: 1_700_000_000_000 + i,
      updated_at: 1_700_000_000_000,
    }));
    for (let i = 0; i < contacts.length; i += 200) await open.db.insertInto("crm_contacts").values(contacts.slice(i, i + 200)).execute();
  } finally {
    await open.close();
  }
}

const cli = (args: string[], env: Record<string, string> = {}) =>
  runChild("/usr/bin/time", ["-q", "-f", "maxrss-kb %M", process.execPath, "--import", "tsx", "--conditions=react-server", "scripts/db.ts", ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: "", SECRET_KEY: KEY, ...env },
  });

/** The child's peak resident memory in MB, from /usr/bin/time, and its stderr without that line. */
function measured(run: ChildResult): { mb: number; stderr: string[] } {
  const lines = run.stderr.trim().split("\n");
  const last = lines.findLastIndex((l) => l.startsWith("maxrss-kb "));
  expect(last, run.stderr).toBeGreaterThanOrEqual(0);
  const kb = Number(lines[last]!.slice("maxrss-kb ".length));
  return { mb: kb / 1024, stderr: lines.filter((_, i) => i !== last) };
}

describe("db:restore checks the whole file first", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dd-restore-checks-"));
  const sqlite: Storage = { kind: "sqlite", file: path.join(dir, "target.sqlite") };
  const schema = `t_${randomBytes(6).toString("hex")}`;
  const pg: Storage = { kind: "postgres", url: PG_URL, schema };
  const targets: Array<[string, Storage]> = [
    ["SQLite", sqlite],
    ["PostgreSQL", pg],
  ];
  const good = path.join(dir, "good.jsonl.gz");
  let base: Parsed;

  beforeAll(async () => {
    await fill(sqlite);
    await fill(pg);
    await backupDatabase(sqlite, good);
    base = readBackupFile(good);
  }, 120_000);
  afterAll(async () => {
    await dropSchema(schema);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const craft = (name: string, edit: (p: Parsed) => void, forged?: Record<string, string>): string => {
    const p = structuredClone(base);
    edit(p);
    const file = path.join(dir, `${name}.jsonl.gz`);
    writeBackupFileSync(file, p, forged);
    return file;
  };

  const renameTable = (from: string, to: string) => (p: Parsed) => {
    section(p, from).table = to;
  };

  // What each crafted file must be refused for: the line, the table or column, and the rule.
  const cases: Array<[string, (p: Parsed) => void, RegExp]> = [
    [
      "a missing last table",
      (p) => void p.sections.pop(),
      /lacks the table \w+ of schema/,
    ],
    [
      "an unknown first table",
      (p) => p.sections.unshift({ table: "zz_notes", columns: ["id", "body"], rows: [[1, "hello"]] }),
      new RegExp(`line 2: the table "zz_notes" is not a table of schema ${LATEST}`),
    ],
    ["a path-like table name", renameTable("users", "../../users"), /line \d+: the table "\.\.\/\.\.\/users" is not a table of schema/],
    ["a schema-qualified table name", renameTable("users", "main.users"), /line \d+: the table "main\.users" is not a table of schema/],
    ["a table name with a terminal escape", renameTable("users", "users\u001b[2J"), /line \d+: the table "users\\u001b\[2J" is not a table of schema/],
    [
      "a stray column",
      (p) => {
        const users = section(p, "users");
        users.columns.push("is_admin");
        for (const r of users.rows) r.push(1);
      },
      /line \d+: table users has a column "is_admin" that schema \S+ does not have/,
    ],
    [
      "text in an integer column",
      (p) => {
        const users = section(p, "users");
        users.rows[1]![col(users, "created_at")] = "yesterday";
      },
      /line \d+ \(row 2 of users\): column created_at holds text, but it is an integer column/,
    ],
    [
      "text in a key column",
      (p) => {
        const contacts = section(p, "user_groups");
        contacts.rows[0]![col(contacts, "user_id")] = "1 or 1=1";
      },
      /line \d+ \(row 1 of user_groups\): column user_id holds text, but it is an integer column/,
    ],
    [
      "a duplicate table",
      (p) => {
        const i = p.sections.findIndex((s) => s.table === "users");
        p.sections.splice(i + 1, 0, structuredClone(p.sections[i]!));
      },
      /line \d+: the table users appears a second time \(first at line \d+\)/,
    ],
    [
      "a 64 MB row",
      (p) => {
        const contacts = section(p, "crm_contacts");
        contacts.rows[0]![col(contacts, "email")] = "x".repeat(64 * 1024 * 1024);
      },
      /line \d+ \(row 1 of crm_contacts\) is longer than 32 MiB, the most one line of a backup may hold/,
    ],
    [
      "a missing table",
      (p) => {
        p.sections = p.sections.filter((s) => s.table !== "favourites");
      },
      /line \d+: the table \w+ comes where favourites should; a backup holds every table of schema \S+ once/,
    ],
    [
      "a missing column",
      (p) => {
        const users = section(p, "users");
        const i = col(users, "handle");
        users.columns.splice(i, 1);
        for (const r of users.rows) r.splice(i, 1);
      },
      /line \d+: table users lacks the column handle of schema/,
    ],
    [
      "tables out of order",
      (p) => {
        const i = p.sections.findIndex((s) => s.table === "user_groups");
        const [groups] = p.sections.splice(i, 1);
        p.sections.unshift(groups!);
      },
      /line 2: the table user_groups comes where meta should/,
    ],
    [
      "a row of the wrong width",
      (p) => section(p, "users").rows[0]!.pop(),
      /line \d+ \(row 1 of users\): (\d+) values for (\d+) columns/,
    ],
    [
      "null in a column that may not be null",
      (p) => {
        const users = section(p, "users");
        users.rows[0]![col(users, "email")] = null;
      },
      /line \d+ \(row 1 of users\): column email is null, which the column does not allow/,
    ],
    [
      "an integer too large for the column",
      (p) => {
        const fav = section(p, "data_sources");
        fav.rows[0]![col(fav, "rows")] = 2 ** 40;
      },
      /line \d+ \(row 1 of data_sources\): column rows holds 1099511627776, outside the range of an integer column/,
    ],
    [
      "a fraction in an integer column",
      (p) => {
        const users = section(p, "users");
        users.rows[0]![col(users, "created_at")] = 1.5;
      },
      /column created_at holds 1\.5, not a whole number, but it is an integer column/,
    ],
    [
      "NUL in text",
      (p) => {
        const users = section(p, "users");
        users.rows[0]![col(users, "name")] = "Ad\u0000min";
      },
      /column name holds text with NUL \(U\+0000\)/,
    ],
    [
      "bytes in a text column",
      (p) => {
        const users = section(p, "users");
        users.rows[0]![col(users, "name")] = { $b: "AAAA" };
      },
      /column name holds bytes, but it is a text column/,
    ],
  ];

  for (const [name, storage] of targets) {
    it(`refuses each crafted backup on ${name}, naming what is wrong, with the target unchanged`, async () => {
      const before = await stateOf(storage);
      expect(before.counts.users).toBe(3);
      expect(before.counts.crm_contacts).toBe(746);
      for (const [what, edit, message] of cases) {
        const file = craft(what.replace(/\W+/g, "-"), edit);
        const err = await restoreDatabase(storage, file, { replace: true }).catch((e: unknown) => e);
        expect(err, what).toBeInstanceOf(Refusal);
        expect((err as Error).message, what).toMatch(message);
        expect((err as Error).message, what).toContain("nothing was restored");
        expect(await stateOf(storage), what).toEqual(before);
      }
    }, 240_000);
  }

  for (const [name, storage] of targets) {
    it(`rolls back a load that fails part way on ${name} (a repeated primary key, a foreign key to nothing), leaving the target unchanged`, async () => {
      const before = await stateOf(storage);
      const repeated = craft("repeated-key", (p) => {
        const contacts = section(p, "crm_contacts");
        contacts.rows.push(structuredClone(contacts.rows[0]!));
      });
      const dangling = craft("dangling-key", (p) => {
        const groups = section(p, "user_groups");
        groups.rows.push([999_999, "admin"]);
      });
      for (const [file, table] of [
        [repeated, "crm_contacts"],
        [dangling, "user_groups"],
      ] as const) {
        const err = await restoreDatabase(storage, file, { replace: true }).catch((e: unknown) => e);
        expect(err, file).toBeInstanceOf(Refusal);
        expect((err as Error).message, file).toMatch(new RegExp(`rows of ${table} .*do not load.*rolled back: the target is unchanged`));
        expect(await stateOf(storage), file).toEqual(before);
      }
    }, 120_000);
  }

  for (const [name, storage] of targets) {
    it(`rolls back rows that load but do not match their table's digest on ${name}, leaving the target unchanged`, async () => {
      const before = await stateOf(storage);
      const file = craft(
        "forged-digest",
        (p) => {
          const users = section(p, "users");
          users.rows[0]![col(users, "name")] = "Someone else";
        },
        { users: "0".repeat(64) },
      );
      const restored = await restoreDatabase(storage, file, { replace: true });
      expect(restored.ok).toBe(false);
      expect(restored.tables.filter((t) => !t.same).map((t) => t.table)).toEqual(["users"]);
      expect(await stateOf(storage)).toEqual(before);
    }, 120_000);
  }

  it("still restores the good backup into either engine, every table as it was backed up", async () => {
    const backedUp = await stateOf(sqlite);
    for (const [, storage] of targets) {
      const restored = await restoreDatabase(storage, good, { replace: true });
      expect(restored.ok).toBe(true);
      expect(await stateOf(storage)).toEqual(backedUp);
    }
  }, 120_000);

  for (const [name, storage] of targets) {
    it(`npm run db:restore --replace refuses an unknown first table on ${name} in one line, exit 2, dropping nothing`, async () => {
      const before = await stateOf(storage);
      const file = craft("cli-unknown-first", (p) => p.sections.unshift({ table: "zz_notes", columns: ["id"], rows: [[1]] }));
      const target = storage.kind === "sqlite" ? ["--db", storage.file] : ["--db", storage.url, "--schema", storage.schema!];
      const run = await cli(["restore", file, ...target, "--replace"]);
      const { stderr } = measured(run);
      expect(stderr).toEqual([expect.stringMatching(/^db:restore: .*cli-unknown-first\.jsonl\.gz line 2: the table "zz_notes" is not a table of schema \S+; nothing was restored/)]);
      expect(run.status).toBe(2);
      expect(await stateOf(storage)).toEqual(before);
    }, 120_000);
  }

  it("refuses a 64 MB row within bounded memory (peak RSS of the CLI under 250 MB), target unchanged", async () => {
    const before = await stateOf(sqlite);
    const file = craft("cli-64mb-row", (p) => {
      const meta = section(p, "meta");
      meta.rows[0]![col(meta, "value")] = "y".repeat(64 * 1024 * 1024);
    });
    const run = await cli(["restore", file, "--db", sqlite.file, "--replace"]);
    const { mb, stderr } = measured(run);
    expect(stderr).toEqual([expect.stringMatching(/line 3 \(row 1 of meta\) is longer than 32 MiB, the most one line of a backup may hold; nothing was restored/)]);
    expect(run.status).toBe(2);
    expect(mb).toBeLessThan(250);
    expect(await stateOf(sqlite)).toEqual(before);
  }, 120_000);

  it("restores a table of 256 MiB (256 rows of 1 MiB) a few rows at a time, peak RSS of the CLI under 400 MB", async () => {
    const file = craft("wide-table", (p) => {
      const meta = section(p, "meta");
      for (let i = 0; i < 256; i++) meta.rows.push([`wide-${String(i).padStart(3, "0")}`, `${i}:${"w".repeat(1024 * 1024)}`]);
    });
    const target = path.join(dir, "wide.sqlite");
    const run = await cli(["restore", file, "--db", target]);
    const { mb, stderr } = measured(run);
    // A long table reports its progress on stderr every few seconds; nothing else may be there.
    expect(stderr.filter((l) => !/^meta: \d+\/\d+ rows/.test(l))).toEqual([]);
    expect(run.status, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/every table verified/);
    // The code that loaded a table in pages of 1,000 rows held all of it: 990 MB here.
    expect(mb).toBeLessThan(400);
    await withDb({ kind: "sqlite", file: target }, async (open) => {
      const wide = await open.db.selectFrom("meta").select(["key"]).where("key", "like", "wide-%").execute();
      expect(wide).toHaveLength(256);
    });
  }, 120_000);

  it("db:backup refuses to write a row the restore would refuse (over 32 MiB as a line), naming it, leaving no file", async () => {
    const source: Storage = { kind: "sqlite", file: path.join(dir, "oversized.sqlite") };
    const open = await openDb(source);
    try {
      await open.db.insertInto("meta").values({ key: "oversized", value: "o".repeat(33 * 1024 * 1024) }).execute();
    } finally {
      await open.close();
    }
    const file = path.join(dir, "oversized.jsonl.gz");
    const err = await backupDatabase(source, file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Refusal);
    expect((err as Error).message).toMatch(/^The row of meta with key "oversized" is 33\.0 MiB as a line of the backup, over the 32 MiB a restore reads; no backup was written\./);
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.existsSync(`${file}.partial`)).toBe(false);
  }, 120_000);
});
