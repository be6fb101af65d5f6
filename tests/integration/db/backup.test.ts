import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upsertUser } from "@/lib/auth/users";
import { probeSealed } from "@/lib/connectors/store";
import { openDb, type OpenDb, type Storage } from "@/lib/db";
import { backupDatabase, restoreDatabase } from "@/lib/db/backup";
import { migrationNames } from "@/lib/db/migrate";
import { Refusal, appTables, digestTable } from "@/lib/db/transfer";
import { listSpace, saveDashboard } from "@/lib/saved/store";
import { PG_URL, dropSchema, testSealer } from "../support/backends";
import { runChild } from "../support/child";
import { answersOf, expectSameAnswers, populate, type World } from "./world";

// Backups taken while the app writes, restored into either engine; and the files a restore must
// refuse — cut short, damaged, or from a newer release — with nothing changed.

const checkSealed = async (firstRow: (t: string) => Promise<Record<string, unknown> | undefined>) => {
  const r = await probeSealed(testSealer, firstRow);
  if (!r.opened) throw new Refusal(`the ${r.what} does not open with this key`);
  return `opens the ${r.what}`;
};

async function withDb<T>(storage: Storage, f: (open: OpenDb) => Promise<T>, migrate: boolean | string = false): Promise<T> {
  const open = await openDb(storage, { migrate });
  try {
    return await f(open);
  } finally {
    await open.close();
  }
}

const digests = (storage: Storage) => withDb(storage, (open) => Promise.all(appTables.map((t) => digestTable(open.db, t))));

/** Saves dashboards as a person outside the demo three, as fast as storage takes them, until stopped. */
function writeLoad(open: OpenDb, ownerId: number) {
  let stop = false;
  let n = 0;
  let saved = 0;
  let firstSaved!: () => void;
  const saving = new Promise<void>((r) => (firstSaved = r));
  const done = (async () => {
    while (!stop) {
      n++;
      await saveDashboard(open.db, { ownerId, handle: "loader", slug: `load-${n % 40}`, html: `<!doctype html><title>load ${n}</title><p>${"x".repeat(2_000)}</p>` });
      saved++;
      firstSaved();
      // SQLite answers within the same turn of the event loop: yield, as requests arriving would.
      await new Promise((r) => setImmediate(r));
    }
  })();
  return {
    /** Resolves once the first save is in: the app is writing. */
    saving,
    /** Saves so far. */
    get saved() {
      return saved;
    },
    async stop() {
      stop = true;
      await done;
      return n;
    },
  };
}

/** Rewrites a backup's lines and seals them again with a correct checksum: a well-formed file saying something else. */
function rewrite(file: string, out: string, edit: (lines: string[]) => string[]) {
  const lines = zlib.gunzipSync(fs.readFileSync(file)).toString("utf8").trimEnd().split("\n");
  const body = edit(lines.slice(0, -1)).map((l) => `${l}\n`).join("");
  const trailer = JSON.parse(lines[lines.length - 1]!) as Record<string, unknown>;
  trailer.sha256 = createHash("sha256").update(body).digest("hex");
  fs.writeFileSync(out, zlib.gzipSync(`${body}${JSON.stringify(trailer)}\n`));
}

describe("db:backup and db:restore", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dd-backup-"));
  const source: Storage = { kind: "sqlite", file: path.join(dir, "app.sqlite") };
  const schemas = [`t_${randomBytes(6).toString("hex")}`];
  const pg: Storage = { kind: "postgres", url: PG_URL, schema: schemas[0] };
  let world: World;
  let before: Map<string, unknown>;
  let loader: number;

  beforeAll(async () => {
    await withDb(
      source,
      async (open) => {
        world = await populate(open);
        loader = await upsertUser(open.db, { email: "loader@example.test", name: "Loader", groups: [] });
        before = await answersOf(open, world);
      },
      true,
    );
  }, 120_000);
  afterAll(async () => {
    for (const s of schemas) await dropSchema(s);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("backs SQLite up while the app writes, and the backup restores into PostgreSQL and answers", async () => {
    const file = path.join(dir, "live.jsonl.gz");
    await withDb(source, async (app) => {
      const load = writeLoad(app, loader);
      await load.saving;
      const atStart = load.saved;
      const summary = await backupDatabase(source, file);
      // Saves went on while the backup read.
      expect(load.saved).toBeGreaterThan(atStart);
      await load.stop();
      expect(summary.schema).toBe(migrationNames[migrationNames.length - 1]);
    });

    const restored = await restoreDatabase(pg, file, { checkSealed });
    expect(restored.ok).toBe(true);
    expect(restored.tables.filter((t) => !t.same)).toEqual([]);
    await withDb(pg, async (open) => {
      expectSameAnswers(await answersOf(open, world), before);
      // One snapshot: every dashboard the loader had then, with its every revision.
      const space = await listSpace(open.db, loader, "loader");
      expect(space.length).toBeGreaterThan(0);
      for (const d of space) {
        const revisions = await open.db.selectFrom("saved_dashboard_revisions").select("revision").where("owner_id", "=", loader).where("slug", "=", d.slug).execute();
        expect(revisions.map((r) => r.revision).sort((a, b) => a - b), d.slug).toEqual(Array.from({ length: d.revision }, (_, i) => i + 1));
      }
    });
  }, 120_000);

  it("backs PostgreSQL up while the app writes, and the backup restores into SQLite with the same rows", async () => {
    const file = path.join(dir, "pg.jsonl.gz");
    await withDb(pg, async (app) => {
      const load = writeLoad(app, loader);
      await load.saving;
      const atStart = load.saved;
      await backupDatabase(pg, file);
      expect(load.saved).toBeGreaterThan(atStart);
      await load.stop();
    });
    const target: Storage = { kind: "sqlite", file: path.join(dir, "from-pg.sqlite") };
    const restored = await restoreDatabase(target, file, { checkSealed });
    expect(restored.ok).toBe(true);
    await withDb(target, async (open) => expectSameAnswers(await answersOf(open, world), before));
  }, 120_000);

  it("refuses a torn, a cut short, a damaged and a newer file, changing nothing", async () => {
    const good = path.join(dir, "good.jsonl.gz");
    await backupDatabase(source, good);
    const target: Storage = { kind: "sqlite", file: path.join(dir, "kept.sqlite") };
    await restoreDatabase(target, good);
    const kept = await digests(target);

    const torn = path.join(dir, "torn.jsonl.gz");
    fs.writeFileSync(torn, fs.readFileSync(good).subarray(0, Math.floor(fs.statSync(good).size / 2)));
    const short = path.join(dir, "short.jsonl.gz");
    fs.writeFileSync(short, zlib.gzipSync(zlib.gunzipSync(fs.readFileSync(good)).toString("utf8").trimEnd().split("\n").slice(0, -1).join("\n") + "\n"));
    const damaged = path.join(dir, "damaged.jsonl.gz");
    const text = zlib.gunzipSync(fs.readFileSync(good)).toString("utf8").replace("admin@demo.test", "admin@evil.test");
    fs.writeFileSync(damaged, zlib.gzipSync(text));
    const newer = path.join(dir, "newer.jsonl.gz");
    rewrite(good, newer, (lines) => {
      const header = JSON.parse(lines[0]!) as { schema: string; migrations: string[] };
      header.migrations.push("9999_from_the_future");
      header.schema = "9999_from_the_future";
      return [JSON.stringify(header), ...lines.slice(1)];
    });

    const cases: Array<[string, RegExp]> = [
      [torn, /torn or damaged: its compressed data breaks off/],
      [short, /is truncated: it ends before its last line/],
      [damaged, /is damaged: its checksum does not match/],
      [newer, /schema 9999_from_the_future, newer than this code knows/],
    ];
    for (const [file, message] of cases) {
      const err = await restoreDatabase(target, file, { replace: true }).catch((e: unknown) => e);
      expect(err, file).toBeInstanceOf(Refusal);
      expect((err as Error).message, file).toMatch(message);
      expect(await digests(target), file).toEqual(kept);
    }

    // Without --replace a target holding data is refused too, before anything is dropped.
    const err = await restoreDatabase(target, good).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/already holds data.*--replace/);
    expect(await digests(target)).toEqual(kept);
  }, 120_000);

  it("restores a backup of an older schema and migrates it", async () => {
    const older = migrationNames[migrationNames.length - 3]!;
    const oldDb: Storage = { kind: "sqlite", file: path.join(dir, "old.sqlite") };
    await withDb(
      oldDb,
      async (open) => {
        const id = await upsertUser(open.db, { email: "old@example.test", name: "Old", groups: ["cx"] });
        await saveDashboard(open.db, { ownerId: id, handle: "old", slug: "kept", html: "<title>Kept</title>", now: 1_700_000_000_000 });
      },
      older,
    );
    const file = path.join(dir, "old.jsonl.gz");
    const summary = await backupDatabase(oldDb, file);
    expect(summary.schema).toBe(older);
    const target: Storage = { kind: "sqlite", file: path.join(dir, "upgraded.sqlite") };
    const restored = await restoreDatabase(target, file);
    expect(restored).toMatchObject({ ok: true, schema: older, migratedTo: migrationNames[migrationNames.length - 1] });
    await withDb(target, async (open) => {
      const applied = await open.db.selectFrom("kysely_migration" as never).select("name" as never).execute();
      expect(applied.map((r) => (r as { name: string }).name)).toEqual(migrationNames);
      expect(await listSpace(open.db, Number((await open.db.selectFrom("users").select("id").where("handle", "=", "old").executeTakeFirstOrThrow()).id), "old")).toMatchObject([{ slug: "kept", title: "Kept", revision: 1 }]);
    });
  }, 60_000);

  it("npm run db:restore says what is wrong with a cut-short file in one line, exits non-zero and creates nothing", async () => {
    const cut = path.join(dir, "cli.jsonl.gz");
    fs.writeFileSync(cut, zlib.gzipSync('{"format":"dashboards-backup","version":1}\n'));
    const dataDir = path.join(dir, "cli-data");
    const run = await runChild(process.execPath, ["--import", "tsx", "--conditions=react-server", "scripts/db.ts", "restore", cut], {
      cwd: path.resolve(import.meta.dirname, "../../.."),
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
    });
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split("\n")).toEqual([`db:restore: ${cut} is truncated: it ends before its last line (a copy cut short, or a backup that did not finish); nothing was restored.`]);
    expect(fs.existsSync(dataDir)).toBe(false);
  }, 60_000);
});
