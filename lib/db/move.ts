import "server-only";
import { sql, type Kysely } from "kysely";
import { openDb, type Db, type OpenDb, type Storage } from "./index";
import { EXPIRY_NOTE, describeInstances, runningInstances } from "./instances";
import { appliedMigrations, migrateToLatest } from "./migrate";
import {
  PROGRESS_TABLE,
  Refusal,
  TableDigest,
  appTables,
  digestTable,
  insertRows,
  latestMigration,
  readPages,
  resetSerials,
  rowCounts,
  schemaVersion,
  tablesIn,
  type Row,
  type TableCheck,
  type TableSpec,
} from "./transfer";

interface MoveOptions {
  from: Storage;
  to: Storage;
  /** Empty a target that already holds data instead of refusing it. */
  replace?: boolean;
  /** Copy even though an app instance is registered as running on the source or the target. */
  force?: boolean;
  /** The clock the instance registry's rows are judged by. */
  now?: () => number;
  pageSize?: number;
  /**
   * Opens one sealed value of the source with the key the target's app will have, or throws
   * saying why not. Called before anything is copied.
   */
  checkSealed?: (db: Db) => Promise<string>;
  say?: (line: string) => void;
  progress?: (table: string, done: number, total: number) => void;
  /** Called after each table is committed; tests stop a move part way through here. */
  afterTable?: (table: string) => void | Promise<void>;
}

interface MoveReport {
  schema: string;
  resumed: boolean;
  tables: Array<TableCheck & { targetRows: number; targetDigest: string; same: boolean; copied: boolean }>;
  rows: number;
  /** The whole move, verification included. */
  ms: number;
  /** Copying alone: reading the source and writing the target, table by table. */
  copyMs: number;
  ok: boolean;
}

export function describeStorage(s: Storage): string {
  if (s.kind === "sqlite") return `SQLite ${s.file}`;
  const url = new URL(s.url);
  if (url.password) url.password = "***";
  return `PostgreSQL ${url.toString()}${s.schema ? ` (schema ${s.schema})` : ""}`;
}

/**
 * Copies every table of `from` into `to`. Each table is copied in one transaction on the target
 * that also records it as done in a progress table, so a move stopped at any point is rerun
 * without duplicates: finished tables are skipped, an unfinished one was rolled back whole.
 */
export async function moveDatabase(o: MoveOptions): Promise<MoveReport> {
  const t0 = performance.now();
  const say = o.say ?? (() => {});
  const pageSize = o.pageSize ?? 1_000;
  const fromName = describeStorage(o.from);
  const toName = describeStorage(o.to);
  if (fromName === toName) throw new Refusal("--from and --to name the same database.");

  const source = await openDb(o.from, { migrate: false });
  let target: OpenDb | null = null;
  try {
    const version = schemaVersion(await appliedMigrations(source.db), `The source (${fromName})`);
    if (version === null) throw new Refusal(`The source (${fromName}) holds no app data (no migrations applied).`);
    const now = o.now ?? Date.now;
    if (!o.force) await refuseRunning(source.db, "source", now(), "rows written during the move would be lost");
    if (o.checkSealed) say(await o.checkSealed(source.db));

    target = await openDb(o.to, { migrate: false });
    if (!o.force) await refuseRunning(target.db, "target", now(), "it would serve from tables being replaced");
    const targetVersion = schemaVersion(await appliedMigrations(target.db), `The target (${toName})`);
    const sourceId = `${fromName} @ ${version}`;
    const progress = await readProgress(target.db);
    const resumed = progress !== null && progress.source === sourceId;
    if (progress !== null && !resumed && !o.replace) {
      throw new Refusal(`The target holds an unfinished move from ${progress.source}; --replace empties it and starts again.`);
    }
    if (!resumed) {
      const counts = targetVersion === null ? {} : await rowCounts(target.db);
      const held = Object.entries(counts).filter(([, n]) => n > 0);
      if (held.length > 0 && !o.replace) {
        const total = held.reduce((s, [, n]) => s + n, 0);
        throw new Refusal(`The target already holds data (${total} rows, e.g. ${held.slice(0, 3).map(([t, n]) => `${t}: ${n}`).join(", ")}); --replace empties it first.`);
      }
      if (targetVersion !== null && targetVersion > version) {
        throw new Refusal(`The target is at schema ${targetVersion}, newer than the source's ${version}: start the app once on the source with this release, then move.`);
      }
      if (held.length > 0) {
        say(`Emptying the target (--replace)…`);
        await emptyAll(target.db);
      }
      await dropProgress(target.db);
    } else {
      say(`Resuming an unfinished move: ${progress.done.size} of ${appTables.length} tables were already copied.`);
    }

    // The rows are written under the schema they were read from; newer migrations run after.
    const reached = schemaVersion(await appliedMigrations(target.db), `The target (${toName})`);
    if (reached === null || reached < version) await migrateTarget(target, o.to, version);
    await ensureProgress(target.db, sourceId);
    const done = resumed ? progress.done : new Set<string>();

    let rows = 0;
    const copyStart = performance.now();
    for (const spec of appTables) {
      if (done.has(spec.name)) continue;
      const total = spec.local ? 0 : await countRows(source.db, spec);
      rows += await copyTable(source.db, target.db, spec, pageSize, total, o.progress);
      await o.afterTable?.(spec.name);
    }
    const copyMs = performance.now() - copyStart;
    await resetSerials(target);
    if (version !== latestMigration()) say(`Migrating the target from ${version} to ${latestMigration()}…`);
    await migrateTarget(target, o.to);

    // Verification reads both sides again, trusting nothing recorded while copying.
    const tables: MoveReport["tables"] = [];
    const sameSchema = version === latestMigration();
    for (const spec of appTables) {
      if (spec.local) continue;
      const a = await digestTable(source.db, spec);
      const b = await digestTable(target.db, spec);
      const same = a.rows === b.rows && (!sameSchema || a.digest === b.digest);
      tables.push({ ...a, targetRows: b.rows, targetDigest: b.digest, same, copied: !done.has(spec.name) });
    }
    const ok = tables.every((t) => t.same);
    if (ok) await dropProgress(target.db);
    return { schema: latestMigration(), resumed, tables, rows, ms: performance.now() - t0, copyMs, ok };
  } finally {
    await target?.close();
    await source.close();
  }
}

/** Refuses while the registry names an app instance running on `db`, naming each one. */
async function refuseRunning(db: Db, side: "source" | "target", now: number, why: string): Promise<void> {
  const running = await runningInstances(db, now);
  if (running.length === 0) return;
  throw new Refusal(`The app is running on the ${side}: ${describeInstances(running, now)}. Stop every instance first (${why}); --force copies anyway. ${EXPIRY_NOTE}`);
}

async function migrateTarget(target: OpenDb, storage: Storage, upTo?: string): Promise<void> {
  const schema = storage.kind === "postgres" ? storage.schema : undefined;
  if (schema) await sql`create schema if not exists ${sql.id(schema)}`.execute(target.db);
  await migrateToLatest(target.db, target.dialect, schema, upTo);
}

async function countRows(db: Db, spec: TableSpec): Promise<number> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables are addressed by name
  const r = await (db as Kysely<any>).selectFrom(spec.name).select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow();
  return Number(r.n);
}

/** One table in one transaction on the target, its progress mark included; returns its rows. */
async function copyTable(
  from: Db,
  to: Db,
  spec: TableSpec,
  pageSize: number,
  total: number,
  progress?: (table: string, done: number, total: number) => void,
): Promise<number> {
  return to.transaction().execute(async (trx) => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables are addressed by name
    const t = trx as unknown as Kysely<any>;
    // An earlier attempt's rows never committed, but a replaced target may still hold some.
    await t.deleteFrom(spec.name).execute();
    const digest = new TableDigest();
    progress?.(spec.name, 0, total);
    for await (const page of spec.local ? [] : readPages(from, spec, pageSize)) {
      await insertRows(t, spec.name, page);
      for (const row of page) digest.add(row as Row);
      progress?.(spec.name, digest.rows, total);
    }
    await t.insertInto(PROGRESS_TABLE).values({ name: spec.name, rows: digest.rows, digest: digest.value() }).execute();
    return digest.rows;
  });
}

/** Deletes every app row, children first so no foreign key stands in the way. */
async function emptyAll(db: Db): Promise<void> {
  const present = new Set(await tablesIn(db));
  await db.transaction().execute(async (trx) => {
    for (const spec of [...appTables].reverse()) {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables are addressed by name
      if (present.has(spec.name)) await (trx as unknown as Kysely<any>).deleteFrom(spec.name).execute();
    }
  });
}

async function readProgress(db: Db): Promise<{ source: string; done: Set<string> } | null> {
  try {
    const rows = await sql<{ name: string; digest: string }>`select name, digest from ${sql.table(PROGRESS_TABLE)}`.execute(db);
    const source = rows.rows.find((r) => r.name === "")?.digest ?? "";
    return { source, done: new Set(rows.rows.map((r) => r.name).filter((n) => n !== "")) };
  } catch {
    return null;
  }
}

async function ensureProgress(db: Db, sourceId: string): Promise<void> {
  await sql`create table if not exists ${sql.table(PROGRESS_TABLE)} (name text primary key, rows bigint not null, digest text not null)`.execute(db);
  // The row named "" says which source the marks belong to; a rerun from elsewhere starts over.
  const existing = await sql<{ n: number }>`select count(*) as n from ${sql.table(PROGRESS_TABLE)} where name = ''`.execute(db);
  if (Number(existing.rows[0]?.n ?? 0) === 0) {
    await sql`insert into ${sql.table(PROGRESS_TABLE)} (name, rows, digest) values ('', 0, ${sourceId})`.execute(db);
  }
}

async function dropProgress(db: Db): Promise<void> {
  await sql`drop table if exists ${sql.table(PROGRESS_TABLE)}`.execute(db);
}

export function formatReport(r: MoveReport, verb = "Moved"): string {
  const width = Math.max(...r.tables.map((t) => t.table.length));
  const lines = r.tables.map(
    (t) => `  ${t.table.padEnd(width)}  ${String(t.rows).padStart(8)} → ${String(t.targetRows).padStart(8)}  ${t.digest.slice(0, 12)} ${t.same ? "same" : "DIFFERENT"}${t.copied ? "" : " (copied before)"}`,
  );
  const rate = r.rows > 0 ? ` (${Math.round(r.rows / (r.ms / 1000))} rows/s)` : "";
  const verdict = r.ok ? `${verb} ${r.rows} rows in ${(r.ms / 1000).toFixed(1)} s${rate}; every table verified (rows and content digest), schema ${r.schema}.` : `Verification FAILED: the tables marked DIFFERENT do not match the source. Was the app still writing? Stop it and rerun with --replace.`;
  return [`  table${" ".repeat(Math.max(0, width - 5))}    source →   target  digest`, ...lines, verdict].join("\n");
}
