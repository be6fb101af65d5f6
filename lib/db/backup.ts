import "server-only";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import zlib from "node:zlib";
import { sql, type Kysely } from "kysely";
import { openDb, type Db, type OpenDb, type Storage } from "./index";
import { appliedMigrations, migrateToLatest } from "./migrate";
import { describeStorage } from "./move";
import { SQLite } from "./sqlite-driver";
import {
  PROGRESS_TABLE,
  Refusal,
  TableDigest,
  appTables,
  digestTable,
  insertRows,
  latestMigration,
  liveWrites,
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
// The last line vouches for the rest: a file cut short lacks it, and a changed byte breaks the
// checksum, so a restore reads the whole file once before it changes anything.

const FORMAT = "dashboards-backup";
const VERSION = 1;

interface BackupHeader {
  format: typeof FORMAT;
  version: number;
  schema: string;
  migrations: string[];
  engine: "sqlite" | "postgres";
  createdAt: string;
}

interface BackupSummary {
  file: string;
  schema: string;
  tables: Array<{ table: string; rows: number; digest: string }>;
  rows: number;
  bytes: number;
  ms: number;
}

type Progress = (table: string, done: number, total: number) => void;

function encode(v: unknown): unknown {
  return v instanceof Uint8Array ? { $b: Buffer.from(v).toString("base64") } : (v ?? null);
}

function decode(v: unknown): unknown {
  return v !== null && typeof v === "object" && "$b" in v ? Buffer.from(String((v as { $b: string }).$b), "base64") : v;
}

/**
 * Writes a backup of `storage` to `file` while the app may be serving. SQLite is first copied
 * page by page with its online backup API (a consistent snapshot that never blocks the app's
 * writers for long), PostgreSQL is read in one repeatable-read transaction (one snapshot of
 * every table). The file appears under its name only once complete.
 */
export async function backupDatabase(storage: Storage, file: string, opts: { progress?: Progress } = {}): Promise<BackupSummary> {
  const t0 = performance.now();
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
        return await writeBackup(open.db, "sqlite", file, t0, opts.progress);
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
      .execute((trx) => writeBackup(trx as unknown as Db, "postgres", file, t0, opts.progress));
  } finally {
    await open.close();
  }
}

async function writeBackup(db: Db, engine: "sqlite" | "postgres", file: string, t0: number, progress?: Progress): Promise<BackupSummary> {
  const migrations = await appliedMigrations(db);
  const schema = schemaVersion(migrations, "The database");
  if (schema === null) throw new Refusal("The database holds no app data (no migrations applied).");
  const present = await tableColumns(db);

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
      for await (const page of readPages(db, spec, 1_000)) {
        let chunk = "";
        for (const row of page) {
          digest.add(row);
          chunk += `${JSON.stringify(columns.map((c) => encode(row[c])))}\n`;
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
    return { file, schema, tables, rows, bytes: fs.statSync(file).size, ms: performance.now() - t0 };
  } catch (err) {
    gzip.destroy();
    out.destroy();
    fs.rmSync(partial, { force: true });
    throw err;
  }
}

type Line = { kind: "header"; header: BackupHeader } | { kind: "table"; table: TableName; columns: string[] } | { kind: "row"; values: unknown[] } | { kind: "tableEnd"; table: string; rows: number; digest: string } | { kind: "end"; rows: number; sha256: string };

/** The file's lines, parsed; a broken gzip stream or a line that is not JSON is a torn file. */
async function* lines(file: string): AsyncGenerator<{ line: Line; raw: string }> {
  const input = fs.createReadStream(file).pipe(zlib.createGunzip());
  const rl = readline.createInterface({ input, crlfDelay: Infinity });
  let n = 0;
  try {
    for await (const raw of rl) {
      n++;
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        throw new Refusal(`${file} is torn or not a backup: line ${n} is not JSON; nothing was restored.`);
      }
      yield { line: classify(parsed, file, n), raw };
    }
  } catch (err) {
    if (err instanceof Refusal) throw err;
    throw new Refusal(`${file} is torn or damaged: its compressed data breaks off (${(err as Error).message}); nothing was restored.`);
  } finally {
    rl.close();
    input.destroy();
  }
}

function classify(v: unknown, file: string, n: number): Line {
  if (Array.isArray(v)) return { kind: "row", values: v };
  const o = (v ?? {}) as Record<string, unknown>;
  if (o.format === FORMAT) return { kind: "header", header: o as unknown as BackupHeader };
  if (typeof o.table === "string" && Array.isArray(o.columns)) return { kind: "table", table: o.table as TableName, columns: o.columns as string[] };
  if (typeof o.tableEnd === "string") return { kind: "tableEnd", table: o.tableEnd, rows: Number(o.rows), digest: String(o.digest) };
  if (o.end === true) return { kind: "end", rows: Number(o.rows), sha256: String(o.sha256) };
  throw new Refusal(`${file} is not a backup this tool wrote: line ${n} is unexpected; nothing was restored.`);
}

interface VerifiedBackup {
  header: BackupHeader;
  tables: Array<{ table: string; rows: number; digest: string }>;
  rows: number;
  firstRows: Map<string, Row>;
}

/** Reads the whole file once: complete, checksum right, known format and a schema this code knows. */
async function verifyBackup(file: string): Promise<VerifiedBackup> {
  if (!fs.existsSync(file)) throw new Refusal(`There is no file at ${file}.`);
  const hash = createHash("sha256");
  let header: BackupHeader | null = null;
  let current: { table: string; columns: string[]; rows: number } | null = null;
  const tables: VerifiedBackup["tables"] = [];
  const firstRows = new Map<string, Row>();
  let end: { rows: number; sha256: string } | null = null;
  let n = 0;
  for await (const { line, raw } of lines(file)) {
    n++;
    if (end) throw new Refusal(`${file} has lines after its end; nothing was restored.`);
    if (line.kind === "end") {
      end = line;
      continue;
    }
    hash.update(`${raw}\n`);
    if (n === 1) {
      if (line.kind !== "header") throw new Refusal(`${file} is not a backup this tool wrote (no header); nothing was restored.`);
      if (line.header.version !== VERSION) throw new Refusal(`${file} is a backup of format version ${line.header.version}; this code reads version ${VERSION}.`);
      header = line.header;
    } else if (line.kind === "table") {
      current = { table: line.table, columns: line.columns, rows: 0 };
    } else if (line.kind === "row") {
      if (!current) throw new Refusal(`${file} has a row outside any table at line ${n}; nothing was restored.`);
      if (current.rows === 0) firstRows.set(current.table, Object.fromEntries(current.columns.map((c, i) => [c, decode(line.values[i])])));
      current.rows++;
    } else if (line.kind === "tableEnd") {
      if (!current || current.table !== line.table || current.rows !== line.rows) throw new Refusal(`${file} is inconsistent at line ${n} (${line.table}); nothing was restored.`);
      tables.push({ table: line.table, rows: line.rows, digest: line.digest });
      current = null;
    }
  }
  if (!header) throw new Refusal(`${file} is empty or not a backup; nothing was restored.`);
  if (!end) throw new Refusal(`${file} is truncated: it ends before its last line (a copy cut short, or a backup that did not finish); nothing was restored.`);
  if (end.sha256 !== hash.digest("hex")) throw new Refusal(`${file} is damaged: its checksum does not match its content; nothing was restored.`);
  schemaVersion(header.migrations, `The backup ${file}`);
  if (!header.migrations.includes(header.schema)) throw new Refusal(`${file} names schema ${header.schema} but not among its migrations; nothing was restored.`);
  return { header, tables, rows: tables.reduce((s, t) => s + t.rows, 0), firstRows };
}

interface RestoreOptions {
  replace?: boolean;
  force?: boolean;
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
  ok: boolean;
}

/**
 * Restores a backup into `storage`. The file is verified whole first; the target must be empty
 * (or `replace`); its app tables are then dropped and rebuilt by the migrations up to the
 * backup's schema, the rows loaded one table per transaction, and the newer migrations run.
 */
export async function restoreDatabase(storage: Storage, file: string, o: RestoreOptions = {}): Promise<RestoreSummary> {
  const t0 = performance.now();
  const say = o.say ?? (() => {});
  const verified = await verifyBackup(file);
  const { header } = verified;
  say(`${file}: a backup of ${verified.rows} rows in ${verified.tables.length} tables, schema ${header.schema}, taken ${header.createdAt} (checksum verified).`);
  if (o.checkSealed) say(await o.checkSealed(async (t) => verified.firstRows.get(t)));

  if (storage.kind === "sqlite") fs.mkdirSync(path.dirname(storage.file), { recursive: true });
  const target = await openDb(storage, { migrate: false });
  try {
    const targetVersion = schemaVersion(await appliedMigrations(target.db), `The target (${describeStorage(storage)})`);
    if (targetVersion !== null) {
      const held = Object.entries(await rowCounts(target.db)).filter(([, n]) => n > 0);
      if (held.length > 0 && !o.replace) {
        throw new Refusal(`The target (${describeStorage(storage)}) already holds data (${held.slice(0, 3).map(([t, n]) => `${t}: ${n}`).join(", ")}…); --replace drops it and restores the backup in its place.`);
      }
      if (held.length > 0 && !o.force) {
        const live = await liveWrites(target.db);
        if (live) throw new Refusal(`The app looks like it is running on the target: ${live}. Stop every instance first; --force restores anyway.`);
      }
    }
    await dropAppTables(target);
    const schema = storage.kind === "postgres" ? storage.schema : undefined;
    if (schema) await sql`create schema if not exists ${sql.id(schema)}`.execute(target.db);
    await migrateToLatest(target.db, target.dialect, schema, header.schema);
    await loadRows(target.db, file, o.progress);
    await resetSerials(target);
    if (header.schema !== latestMigration()) say(`Migrating from ${header.schema} to ${latestMigration()}…`);
    await migrateToLatest(target.db, target.dialect, schema);

    const tables: RestoreSummary["tables"] = [];
    for (const t of verified.tables) {
      const spec = appTables.find((s) => s.name === t.table)!;
      const now = await digestTable(target.db, spec);
      const same = now.rows === t.rows && (header.schema !== latestMigration() || now.digest === t.digest);
      tables.push({ table: t.table, rows: t.rows, restored: now.rows, same });
    }
    return { from: file, schema: header.schema, migratedTo: latestMigration(), tables, rows: verified.rows, ms: performance.now() - t0, ok: tables.every((t) => t.same) };
  } finally {
    await target.close();
  }
}

/** Every app table and the migrator's own, so the migrations can build the backup's schema. */
async function dropAppTables(target: OpenDb): Promise<void> {
  const present = new Set((await tableColumns(target.db)).keys());
  const cascade = target.dialect === "postgres" ? sql` cascade` : sql``;
  for (const name of [...appTables.map((s) => s.name).reverse(), PROGRESS_TABLE, "kysely_migration", "kysely_migration_lock"]) {
    if (present.has(name)) await sql`drop table ${sql.table(name)}${cascade}`.execute(target.db);
  }
}

async function loadRows(db: Db, file: string, progress?: Progress): Promise<void> {
  const it = lines(file)[Symbol.asyncIterator]();
  for (;;) {
    const next = await it.next();
    if (next.done) return;
    const line = next.value.line;
    if (line.kind !== "table") continue;
    const { table, columns } = line;
    await db.transaction().execute(async (trx) => {
      let page: Row[] = [];
      let done = 0;
      progress?.(table, 0, 0);
      for (;;) {
        const r = await it.next();
        if (r.done || r.value.line.kind === "tableEnd") break;
        const values = (r.value.line as { values: unknown[] }).values;
        page.push(Object.fromEntries(columns.map((c, i) => [c, decode(values[i])])));
        if (page.length >= 1_000) {
          // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables are addressed by name
          await insertRows(trx as unknown as Kysely<any>, table, page);
          done += page.length;
          progress?.(table, done, 0);
          page = [];
        }
      }
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables are addressed by name
      await insertRows(trx as unknown as Kysely<any>, table, page);
    });
  }
}
