// npm run db:move -- --to <postgres url | sqlite file> [--from <…>] [--replace] [--force]
// npm run db:backup -- <file>            npm run db:restore -- <file> [--replace] [--force]
// Moving the app's data between SQLite and PostgreSQL, and backing it up and restoring it
// (docs/operations.md). lib/ is `server-only`: run under the react-server condition
// (`tsx --conditions=react-server`, as the npm scripts do).
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { config as processConfig } from "@/lib/config";
import { probeSealed } from "@/lib/connectors/store";
import { createSealer } from "@/lib/crypto/secrets";
import type { Db, Storage } from "@/lib/db";
import { backupDatabase, restoreDatabase } from "@/lib/db/backup";
import { describeInstances } from "@/lib/db/instances";
import { describeStorage, formatReport, moveDatabase } from "@/lib/db/move";
import { Refusal, type Row } from "@/lib/db/transfer";

const USAGE = `usage:
  npm run db:move -- --to <postgres://… | file.sqlite> [--from <postgres://… | file.sqlite>]
                     [--to-schema S] [--from-schema S] [--replace] [--force]
  npm run db:backup -- <file> [--db <postgres://… | file.sqlite>] [--schema S]
  npm run db:restore -- <file> [--db <postgres://… | file.sqlite>] [--schema S] [--replace] [--force]
Without --from / --db, the configured storage (DATABASE_URL, DATABASE_SCHEMA, DATA_DIR) is used.`;

const [command, ...rest] = process.argv.slice(2);
const name = `db:${command ?? "?"}`;

function storageOf(value: string, schema: string | undefined): Storage {
  if (/^postgres(ql)?:\/\//.test(value)) {
    try {
      new URL(value);
    } catch {
      throw new Refusal(`${value} is not a valid postgres:// URL.`);
    }
    return { kind: "postgres", url: value, ...(schema ? { schema } : {}) };
  }
  if (schema) throw new Refusal(`A schema applies to PostgreSQL only, not to the SQLite file ${value}.`);
  if (/^[a-z]+:\/\//i.test(value)) throw new Refusal(`${value}: give a postgres:// URL or a SQLite file path.`);
  return { kind: "sqlite", file: path.resolve(value) };
}

function configuredStorage(): Storage {
  return processConfig().storage;
}

/** The key the app on the target will use, read without creating one. */
function keyOf(): { material: string; where: string } | null {
  const c = processConfig();
  if (c.secretKey) return { material: c.secretKey, where: "SECRET_KEY" };
  const file = path.join(c.dataDir, "secret.key");
  return fs.existsSync(file) ? { material: fs.readFileSync(file, "utf8").trim(), where: file } : null;
}

async function checkSealed(firstRow: (table: "connector_tokens" | "donor_credentials") => Promise<Row | undefined>): Promise<string> {
  const key = keyOf();
  const travel = "Sealed secrets (connector credentials) travel sealed: the app on the target must run with this same key";
  if (!key) {
    const probe = await firstRow("connector_tokens") ?? (await firstRow("donor_credentials"));
    if (probe) throw new Refusal(`The data holds sealed credentials but no key is set: set SECRET_KEY (or DATA_DIR holding secret.key) to the key the app used.`);
    return `No sealed credentials and no key set. ${travel} (set SECRET_KEY).`;
  }
  const result = await probeSealed(createSealer(key.material), firstRow);
  if (!result.opened) {
    throw new Refusal(
      `The ${result.what} does not open with the key from ${key.where}: run with the key the app used (SECRET_KEY, or the secret.key of its DATA_DIR); the app on the target needs that same key.`,
    );
  }
  return result.checked === 0 ? `No sealed credentials to check. ${travel} (${key.where}).` : `Key from ${key.where} opens the ${result.what}. ${travel}.`;
}

const dbFirstRow = (db: Db) => async (table: "connector_tokens" | "donor_credentials") =>
  (await db.selectFrom(table).selectAll().limit(1).executeTakeFirst()) as Row | undefined;

/**
 * Progress on stderr: on a terminal one line rewritten in place; otherwise (a log) a line every
 * few seconds while a long table is copied, and nothing for short ones.
 */
function progressPrinter() {
  const tty = process.stderr.isTTY;
  let last = Date.now();
  let lastTable = "";
  return {
    update(table: string, done: number, total: number) {
      const now = Date.now();
      if (table !== lastTable) {
        lastTable = table;
        if (!tty) last = now;
      }
      if (now - last < (tty ? 100 : 5_000)) return;
      last = now;
      const pct = total > 0 ? ` ${Math.floor((done / total) * 100)}%` : "";
      const text = `${table}: ${done}${total > 0 ? `/${total}` : ""} rows${pct}`;
      process.stderr.write(tty ? `\r\x1b[2K${text}` : `${text}\n`);
    },
    done() {
      if (tty) process.stderr.write("\r\x1b[2K");
    },
  };
}

async function main(): Promise<number> {
  const say = (line: string) => console.log(line);
  const progress = progressPrinter();
  if (command === "move") {
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { from: { type: "string" }, to: { type: "string" }, "from-schema": { type: "string" }, "to-schema": { type: "string" }, replace: { type: "boolean" }, force: { type: "boolean" } },
    });
    if (!values.to || positionals.length > 0) throw new Refusal(`--to is required.\n${USAGE}`);
    const from = values.from ? storageOf(values.from, values["from-schema"]) : configuredStorage();
    const to = storageOf(values.to, values["to-schema"]);
    if (from.kind === "sqlite" && !fs.existsSync(from.file)) throw new Refusal(`There is no database at ${from.file}.`);
    say(`Moving ${describeStorage(from)} → ${describeStorage(to)}.`);
    say(`Every app instance must be stopped for the move (writes made during it would be lost).`);
    const report = await moveDatabase({
      from,
      to,
      replace: values.replace,
      force: values.force,
      checkSealed: (db) => checkSealed(dbFirstRow(db)),
      say,
      progress: progress.update,
    });
    progress.done();
    say(formatReport(report));
    if (report.ok) say(`Point the app at the target (${to.kind === "postgres" ? "DATABASE_URL" : "DATA_DIR"}) with the same key, then start it.`);
    return report.ok ? 0 : 1;
  }
  if (command === "backup") {
    const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { db: { type: "string" }, schema: { type: "string" } } });
    if (positionals.length !== 1) throw new Refusal(`Name one backup file.\n${USAGE}`);
    const file = path.resolve(positionals[0]!);
    if (fs.existsSync(file)) throw new Refusal(`${file} already exists; choose a new name (a backup never overwrites).`);
    const storage = values.db ? storageOf(values.db, values.schema) : configuredStorage();
    const summary = await backupDatabase(storage, file, { progress: progress.update });
    progress.done();
    say(`Backed up ${describeStorage(storage)} to ${file}: ${summary.rows} rows in ${summary.tables.length} tables, schema ${summary.schema}, ${(summary.bytes / 1024).toFixed(0)} KiB in ${(summary.ms / 1000).toFixed(1)} s.`);
    if (summary.running.length > 0) say(`Taken while the app ran (${describeInstances(summary.running, Date.now())}): the backup is one snapshot, whatever was written after it is not in it.`);
    say(`Sealed credentials stay sealed in it: keep the app's key (SECRET_KEY or secret.key) with the backup, apart from it.`);
    return 0;
  }
  if (command === "restore") {
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { db: { type: "string" }, schema: { type: "string" }, replace: { type: "boolean" }, force: { type: "boolean" } },
    });
    if (positionals.length !== 1) throw new Refusal(`Name one backup file.\n${USAGE}`);
    const storage = values.db ? storageOf(values.db, values.schema) : configuredStorage();
    say(`Restoring into ${describeStorage(storage)}; every app instance on it must be stopped.`);
    const summary = await restoreDatabase(storage, path.resolve(positionals[0]!), {
      replace: values.replace,
      force: values.force,
      checkSealed: (firstRow) => checkSealed(firstRow as (t: string) => Promise<Row | undefined>),
      say,
      progress: progress.update,
    });
    progress.done();
    for (const t of summary.tables) if (!t.same) say(`  ${t.table}: ${t.rows} in the backup, ${t.restored} restored — DIFFERENT`);
    say(summary.ok ? `Restored ${summary.rows} rows (schema ${summary.schema}${summary.schema !== summary.migratedTo ? `, migrated to ${summary.migratedTo}` : ""}) in ${(summary.ms / 1000).toFixed(1)} s; every table verified.` : `Verification FAILED: see the tables above. The restore was rolled back: the target is as it was.`);
    return summary.ok ? 0 : 1;
  }
  throw new Refusal(USAGE);
}

try {
  process.exitCode = await main();
} catch (err) {
  if (err instanceof Refusal) {
    console.error(`${name}: ${err.message}`);
    process.exitCode = 2;
  } else {
    console.error(`${name} failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  }
}
