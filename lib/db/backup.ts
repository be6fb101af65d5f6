import "server-only";
import { createHash } from "node:crypto";
import fs from "node:fs";
import { open as openFile, type FileHandle } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { Kysely, PostgresAdapter, sql } from "kysely";
import { openDb, type Database, type Db, type OpenDb, type Storage } from "./index";
import { EXPIRY_NOTE, describeInstances, runningInstances, type Instance } from "./instances";
import { appliedMigrations, migrateToLatest } from "./migrate";
import { describeStorage } from "./move";
import { SQLite } from "./sqlite-driver";
import { OwnSchemaPostgresDialect } from "./own-schema";
import { BACKUP_LINE_MAX_BYTES, FORMAT, VERSION, scanBackup, shown, type BackupHeader, type CheckedBackup } from "./backup-file";
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
  tableColumns,
  type Row,
  type TableName,
} from "./transfer";

// A backup is one gzip file of JSON lines, the same for both engines (so a backup of one
// restores into the other):
//
//   {"format":"dashboards-backup","version":1,"schema":"<latest migration>","migrations":[…],…}
//   {"table":"users","columns":["id",…]}
//   [1,"admin@demo.test",…]                         one array per row; bytes as {"$b":"<base64>"}
//   {"tableEnd":"users","rows":3,"digest":"…"}
//   …
//   {"end":true,"rows":N,"sha256":"<hex of every byte above>"}
//
// The last line vouches for the rest against damage, but anyone can write a file with a right
// checksum: so a restore also checks every line against the schema the header names
// (backup-file.ts) before it changes anything, and then restores in one transaction, which a
// failure rolls back whole.

interface BackupSummary {
  file: string;
  schema: string;
  tables: Array<{ table: string; rows: number; digest: string }>;
  rows: number;
  bytes: number;
  ms: number;
  /** The app instances registered as running when the backup was taken (it need not stop them). */
  running: Instance[];
}

type Progress = (table: string, done: number, total: number) => void;

function encode(v: unknown): unknown {
  return v instanceof Uint8Array ? { $b: Buffer.from(v).toString("base64") } : (v ?? null);
}

/**
 * Writes a backup of `storage` to `file` while the app may be serving. SQLite is first copied
 * page by page with its online backup API (a consistent snapshot that never blocks the app's
 * writers for long), PostgreSQL is read in one repeatable-read transaction (one snapshot of
 * every table). The file appears under its name only once complete.
 */
export async function backupDatabase(storage: Storage, file: string, opts: { progress?: Progress; now?: () => number } = {}): Promise<BackupSummary> {
  const t0 = performance.now();
  const now = opts.now ?? Date.now;
  if (storage.kind === "sqlite") {
    if (!fs.existsSync(storage.file)) throw new Refusal(`There is no database at ${storage.file}.`);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dd-backup-"));
    const snapshot = path.join(dir, "snapshot.sqlite");
    try {
      const live = new SQLite(storage.file, { fileMustExist: true });
      try {
        // All pages in one step: SQLite restarts a stepwise backup whenever another connection
        // writes, so under a steady write load small steps never finish. One step is one read
        // transaction, which in WAL mode does not hold writers back.
        await live.backup(snapshot, { progress: () => 0x7fffffff });
      } finally {
        live.close();
      }
      const open = await openDb({ kind: "sqlite", file: snapshot }, { migrate: false });
      try {
        return await writeBackup(open.db, "sqlite", file, t0, now(), opts.progress);
      } finally {
        await open.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  const open = await openDb(storage, { migrate: false });
  try {
    return await open.db
      .transaction()
      .setIsolationLevel("repeatable read")
      .execute((trx) => writeBackup(trx as unknown as Db, "postgres", file, t0, now(), opts.progress));
  } finally {
    await open.close();
  }
}

async function writeBackup(db: Db, engine: "sqlite" | "postgres", file: string, t0: number, now: number, progress?: Progress): Promise<BackupSummary> {
  const migrations = await appliedMigrations(db);
  const schema = schemaVersion(migrations, "The database");
  if (schema === null) throw new Refusal("The database holds no app data (no migrations applied).");
  const present = await tableColumns(db);
  const running = await runningInstances(db, now);

  const partial = `${file}.partial`;
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const out = fs.createWriteStream(partial);
  const gzip = zlib.createGzip({ level: 6 });
  gzip.pipe(out);
  const closed = new Promise<void>((resolve, reject) => {
    out.on("finish", resolve);
    out.on("error", reject);
    gzip.on("error", reject);
  });
  const hash = createHash("sha256");
  const write = async (text: string) => {
    hash.update(text);
    if (!gzip.write(text)) await new Promise<void>((r) => gzip.once("drain", () => r()));
  };

  try {
    const header: BackupHeader = { format: FORMAT, version: VERSION, schema, migrations, engine, createdAt: new Date().toISOString() };
    await write(`${JSON.stringify(header)}\n`);
    const tables: BackupSummary["tables"] = [];
    let rows = 0;
    for (const spec of appTables) {
      const columns = present.get(spec.name);
      if (!columns) continue; // a table a later migration adds; the restore's migrations create it
      await write(`${JSON.stringify({ table: spec.name, columns })}\n`);
      const digest = new TableDigest();
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables are addressed by name
      const total = Number((await (db as Kysely<any>).selectFrom(spec.name).select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow()).n);
      progress?.(spec.name, 0, total);
      for await (const page of spec.local ? [] : readPages(db, spec, 1_000)) {
        let chunk = "";
        for (const row of page) {
          digest.add(row);
          const line = JSON.stringify(columns.map((c) => encode(row[c])));
          // A line the restore would refuse makes a backup that cannot be restored: better to
          // say so now, while the data is still there to fix.
          if (line.length > BACKUP_LINE_MAX_BYTES / 3 && Buffer.byteLength(line) > BACKUP_LINE_MAX_BYTES) {
            const key = spec.key.map((k) => `${k} ${shown(String(row[k]))}`).join(", ");
            throw new Refusal(
              `The row of ${spec.name} with ${key} is ${(Buffer.byteLength(line) / 1024 / 1024).toFixed(1)} MiB as a line of the backup, over the ${BACKUP_LINE_MAX_BYTES / 1024 / 1024} MiB a restore reads; no backup was written. No row the app writes is that large: shrink or delete that row, then back up again.`,
            );
          }
          chunk += `${line}\n`;
        }
        await write(chunk);
        progress?.(spec.name, digest.rows, total);
      }
      await write(`${JSON.stringify({ tableEnd: spec.name, rows: digest.rows, digest: digest.value() })}\n`);
      tables.push({ table: spec.name, rows: digest.rows, digest: digest.value() });
      rows += digest.rows;
    }
    const trailer = { end: true, rows, sha256: hash.digest("hex") };
    gzip.end(`${JSON.stringify(trailer)}\n`);
    await closed;
    fs.renameSync(partial, file);
    return { file, schema, tables, rows, bytes: fs.statSync(file).size, ms: performance.now() - t0, running };
  } catch (err) {
    gzip.destroy();
    out.destroy();
    fs.rmSync(partial, { force: true });
    throw err;
  }
}

interface RestoreOptions {
  replace?: boolean;
  /** Restore even though an app instance is registered as running on the target. */
  force?: boolean;
  /** The clock the instance registry's rows are judged by. */
  now?: () => number;
  /** Checks the backup's sealed values open with the key the app will have; throws a Refusal if not. */
  checkSealed?: (firstRow: (table: string) => Promise<Row | undefined>) => Promise<string>;
  say?: (line: string) => void;
  progress?: Progress;
}

interface RestoreSummary {
  from: string;
  schema: string;
  migratedTo: string;
  tables: Array<{ table: string; rows: number; restored: number; same: boolean }>;
  rows: number;
  ms: number;
  /** False when the restored rows did not verify; the restore was then rolled back. */
  ok: boolean;
}

/** Rows sent to the database at once, and the most bytes of backup lines they may come from. */
const LOAD_ROWS = 1_000;
const LOAD_BYTES = 2 * 1024 * 1024;

/**
 * Restores a backup into `storage`. The whole file is checked first (backup-file.ts), the
 * target after it (empty, or `replace`; not in use, or `force`); then, in one transaction, the
 * app's tables are dropped and rebuilt by the migrations up to the backup's schema, the rows
 * loaded and verified against the file's counts and digests, and the newer migrations run. Any
 * failure on the way rolls the transaction back and leaves the target as it was.
 */
export async function restoreDatabase(storage: Storage, file: string, o: RestoreOptions = {}): Promise<RestoreSummary> {
  const t0 = performance.now();
  const say = o.say ?? (() => {});
  if (!fs.existsSync(file)) throw new Refusal(`There is no file at ${file}.`);
  const fh = await openFile(file, "r");
  try {
    const checked = await scanBackup(fh, file);
    const { header } = checked;
    say(`${file}: a backup of ${checked.rows} rows in ${checked.tables.length} tables, schema ${header.schema}, taken ${header.createdAt} (every line checked, checksum verified).`);
    if (o.checkSealed) say(await o.checkSealed((table) => firstRowOf(fh, file, table)));

    const created = storage.kind === "sqlite" && !fs.existsSync(storage.file);
    if (storage.kind === "sqlite") fs.mkdirSync(path.dirname(storage.file), { recursive: true });
    let restored = false;
    try {
      const target = await openDb(storage, { migrate: false });
      try {
        await checkTarget(target, storage, o);
        const summary = await inOneTransaction(target, (db) => load(db, target, storage, fh, file, checked, o.progress));
        restored = summary.ok;
        return { ...summary, ms: performance.now() - t0 };
      } finally {
        await target.close();
      }
    } finally {
      // A SQLite file made for this restore goes again when the restore does not happen.
      if (created && !restored && storage.kind === "sqlite") for (const f of [storage.file, `${storage.file}-wal`, `${storage.file}-shm`]) fs.rmSync(f, { force: true });
    }
  } finally {
    await fh.close();
  }
}

/** The first row of a table in the (checked) file, read again from the start: no table is held. */
async function firstRowOf(fh: FileHandle, file: string, table: string): Promise<Row | undefined> {
  let found: Row | undefined;
  await scanBackup(fh, file, {
    hooks: {
      row: (t, row) => {
        if (t !== table) return false;
        found = row;
        return true;
      },
      // The table ended without a row: nothing further need be read.
      tableEnd: (t) => {
        if (t === table) throw new FoundNothing();
      },
    },
  }).catch((err: unknown) => {
    if (!(err instanceof FoundNothing)) throw err;
  });
  return found;
}

class FoundNothing extends Error {}

async function checkTarget(target: OpenDb, storage: Storage, o: RestoreOptions): Promise<void> {
  const targetVersion = schemaVersion(await appliedMigrations(target.db), `The target (${describeStorage(storage)})`);
  if (targetVersion === null) return;
  if (!o.force) {
    const now = (o.now ?? Date.now)();
    const running = await runningInstances(target.db, now);
    if (running.length > 0) {
      throw new Refusal(`The app is running on the target: ${describeInstances(running, now)}. Stop every instance first (it would serve from tables being dropped); --force restores anyway. ${EXPIRY_NOTE}`);
    }
  }
  const held = Object.entries(await rowCounts(target.db)).filter(([, n]) => n > 0);
  if (held.length > 0 && !o.replace) {
    throw new Refusal(`The target (${describeStorage(storage)}) already holds data (${held.slice(0, 3).map(([t, n]) => `${t}: ${n}`).join(", ")}…); --replace drops it and restores the backup in its place.`);
  }
}

/** The restore's verdict, thrown out of its transaction so that the transaction rolls back. */
class NotVerified extends Error {
  constructor(readonly summary: Omit<RestoreSummary, "ms">) {
    super("the restored rows did not verify");
  }
}

/**
 * Runs `body` in one transaction on one connection of the target, the migrations included.
 * Both engines take DDL in a transaction. Kysely's migrator would begin a transaction of its
 * own on PostgreSQL (committing this one early), so there it is handed a connection whose
 * dialect says it has none; its lock is then PostgreSQL's transaction-scoped advisory lock,
 * which is held until this transaction ends.
 */
async function inOneTransaction(target: OpenDb, body: (db: Db) => Promise<Omit<RestoreSummary, "ms">>): Promise<Omit<RestoreSummary, "ms">> {
  const db = target.dialect === "postgres" ? new Kysely<Database>({ dialect: new OneTransactionPostgres({ pool: target.pool! }) }) : target.db;
  try {
    return await db.connection().execute(async (conn) => {
      await sql`begin`.execute(conn);
      try {
        const summary = await body(conn);
        await sql`commit`.execute(conn);
        return summary;
      } catch (err) {
        // SQLite ends a transaction itself on some errors (a full disk); nothing is left to roll back then.
        await sql`rollback`.execute(conn).catch(() => {});
        throw err;
      }
    });
  } catch (err) {
    if (err instanceof NotVerified) return err.summary;
    if (err instanceof Refusal) throw err;
    throw new Error(`${(err as Error).message} (the restore was rolled back; the target is unchanged)`, { cause: err });
  }
}

class OneTransactionAdapter extends PostgresAdapter {
  override get supportsTransactionalDdl(): boolean {
    return false;
  }
}

class OneTransactionPostgres extends OwnSchemaPostgresDialect {
  override createAdapter(): PostgresAdapter {
    return new OneTransactionAdapter();
  }
}

async function load(db: Db, target: OpenDb, storage: Storage, fh: FileHandle, file: string, checked: CheckedBackup, progress?: Progress): Promise<Omit<RestoreSummary, "ms">> {
  const { header } = checked;
  await dropAppTables(db, target.dialect);
  const schema = storage.kind === "postgres" ? storage.schema : undefined;
  if (schema) await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
  await migrateToLatest(db, target.dialect, schema, header.schema);

  // The file is read again, every line checked again: what is loaded is what was checked, and a
  // file changed in between fails here, inside the transaction.
  const totals = new Map(checked.tables.map((t) => [t.table, t.rows]));
  let page: Row[] = [];
  let pageBytes = 0;
  let done = 0;
  const flush = async (table: string) => {
    try {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables are addressed by name
      await insertRows(db as unknown as Kysely<any>, table as TableName, page);
    } catch (err) {
      throw new Refusal(
        `${file}: the rows of ${table} (up to its row ${done + page.length}) do not load into ${describeStorage(storage)}: ${(err as Error).message}. The restore ran in one transaction and was rolled back: the target is unchanged, nothing was restored.`,
      );
    }
    done += page.length;
    progress?.(table, done, totals.get(table) ?? 0);
    page = [];
    pageBytes = 0;
  };
  await scanBackup(fh, file, {
    hooks: {
      table: (table) => {
        done = 0;
        progress?.(table, 0, totals.get(table) ?? 0);
      },
      row: async (table, row, bytes) => {
        page.push(row);
        pageBytes += bytes;
        if (page.length >= LOAD_ROWS || pageBytes >= LOAD_BYTES) await flush(table);
      },
      tableEnd: (table) => flush(table),
    },
  });
  await resetSerials({ ...target, db });

  // Read back under the backup's own schema, where the digests must match the file's exactly.
  const tables: RestoreSummary["tables"] = [];
  for (const t of checked.tables) {
    const spec = appTables.find((s) => s.name === t.table)!;
    // Pages sized to the table's longest row: a table of large rows is read a few rows at a time.
    const pageSize = Math.max(1, Math.min(2_000, Math.floor(LOAD_BYTES / Math.max(1, t.maxLineBytes))));
    const now = await digestTable(db, spec, pageSize);
    tables.push({ table: t.table, rows: t.rows, restored: now.rows, same: now.rows === t.rows && now.digest === t.digest });
  }
  const summary = { from: file, schema: header.schema, migratedTo: latestMigration(), tables, rows: checked.rows, ok: tables.every((t) => t.same) };
  if (!summary.ok) throw new NotVerified(summary);
  await migrateToLatest(db, target.dialect, schema);
  return summary;
}

/** Every app table and the migrator's own, so the migrations can build the backup's schema. */
async function dropAppTables(db: Db, dialect: OpenDb["dialect"]): Promise<void> {
  const present = new Set((await tableColumns(db)).keys());
  const cascade = dialect === "postgres" ? sql` cascade` : sql``;
  for (const name of [...appTables.map((s) => s.name).reverse(), PROGRESS_TABLE, "kysely_migration", "kysely_migration_lock"]) {
    if (present.has(name)) await sql`drop table ${sql.table(name)}${cascade}`.execute(db);
  }
}
