import "server-only";
import { createHash } from "node:crypto";
import type { FileHandle } from "node:fs/promises";
import { pipeline } from "node:stream";
import zlib from "node:zlib";
import { sql } from "kysely";
import { openDb } from "./index";
import { migrationNames } from "./migrate";
import { Refusal, appTables, schemaVersion, type Row } from "./transfer";

// Reading a backup file (the format is described in backup.ts) and checking every line of it
// against the schema the backup names, before a restore drops or writes anything. The file is
// streamed: no line longer than the cap is ever held, and no table is held at all, so a file
// of any size is checked in a few tens of megabytes.

export const FORMAT = "dashboards-backup";
export const VERSION = 1;

/**
 * The longest line a backup may hold, so the longest row. The largest rows the app writes are a
 * draft revision (2 MiB of html, which JSON escaping can grow to 12 MiB) and a render's PNG
 * (base64 in the file); 32 MiB leaves room above both while one line, parsed, stays well inside
 * a small process. db:backup refuses to write a longer line, so every backup it writes restores.
 */
export const BACKUP_LINE_MAX_BYTES = 32 * 1024 * 1024;

export interface BackupHeader {
  format: typeof FORMAT;
  version: number;
  schema: string;
  migrations: string[];
  engine: "sqlite" | "postgres";
  createdAt: string;
}

const mib = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;

/**
 * A name or value from the file, fit to print on a terminal: quoted, cut short, and with every
 * character outside printable ASCII escaped, so a crafted name cannot move the cursor, clear the
 * screen or reorder the text around it (bidi controls).
 */
export function shown(s: string, max = 60): string {
  const cut = s.length > max ? `${s.slice(0, max)}…` : s;
  return JSON.stringify(cut).replace(/[^\x20-\x7e]/g, (c) => (c === "…" ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`));
}

type Kind = "int32" | "int64" | "float" | "text" | "bytes";

interface ColumnSpec {
  name: string;
  kind: Kind;
  nullable: boolean;
}

/** A table as the migrations build it at one schema version: its columns by name. */
type SchemaAt = Map<string, Map<string, ColumnSpec>>;

const schemas = new Map<string, Promise<SchemaAt>>();

/**
 * The tables and columns of the app at `version`, built by running this release's migrations up
 * to it on an empty in-memory SQLite database and reading back what they made. Nothing is kept
 * by hand, so a migration added later is checked like the rest. The migrations build the same
 * tables and columns on both engines; only the spelling of types differs, and the kinds below
 * are what both engines store.
 */
function schemaAt(version: string): Promise<SchemaAt> {
  let found = schemas.get(version);
  if (!found) {
    found = buildSchema(version);
    schemas.set(version, found);
    found.catch(() => schemas.delete(version));
  }
  return found;
}

async function buildSchema(version: string): Promise<SchemaAt> {
  const open = await openDb({ kind: "sqlite", file: ":memory:" }, { migrate: version });
  try {
    const out: SchemaAt = new Map();
    const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(open.db);
    for (const { name } of tables.rows.filter((t) => !t.name.startsWith("sqlite_") && !t.name.startsWith("kysely_"))) {
      const info = await sql<{ name: string; type: string; notnull: number; pk: number }>`select name, type, "notnull", pk from pragma_table_info(${name})`.execute(open.db);
      const keyColumns = info.rows.filter((c) => c.pk > 0);
      const columns = new Map<string, ColumnSpec>();
      for (const c of info.rows) {
        // SQLite's INTEGER PRIMARY KEY is the 64-bit row id; the same column is a bigserial on
        // PostgreSQL. Every other "integer" is a 32-bit integer there.
        const rowId = keyColumns.length === 1 && c.pk === 1 && c.type.toLowerCase() === "integer";
        columns.set(c.name, { name: c.name, kind: rowId ? "int64" : kindOf(c.type, `${name}.${c.name}`), nullable: c.notnull === 0 && c.pk === 0 });
      }
      out.set(name, columns);
    }
    return out;
  } finally {
    await open.close();
  }
}

function kindOf(declared: string, where: string): Kind {
  const t = declared.toLowerCase();
  if (t === "integer") return "int32";
  if (t === "bigint") return "int64";
  if (t === "real" || t === "double precision") return "float";
  if (t === "text") return "text";
  if (t === "blob") return "bytes";
  // A migration used a type the backup format has no rule for: the format must learn it first.
  throw new Error(`the column ${where} has the type ${declared}, which backups do not carry yet`);
}

const INT32 = 2 ** 31;

function describeValue(v: unknown): string {
  if (typeof v === "string") return "text";
  if (typeof v === "number") return String(v);
  if (typeof v === "boolean") return "true/false";
  if (Array.isArray(v)) return "a list";
  if (v !== null && typeof v === "object" && "$b" in v) return "bytes";
  return "an object";
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * A value of the file as the column needs it (bytes decoded), or why it cannot go there. Every
 * rule here is one a database would otherwise enforce only after the tables were dropped.
 */
function checkValue(v: unknown, c: ColumnSpec): { value: unknown } | { wrong: string } {
  if (v === null) return c.nullable ? { value: null } : { wrong: "is null, which the column does not allow" };
  switch (c.kind) {
    case "int32":
    case "int64": {
      if (typeof v !== "number") return { wrong: `holds ${describeValue(v)}, but it is an integer column` };
      if (!Number.isInteger(v)) return { wrong: `holds ${v}, not a whole number, but it is an integer column` };
      if (c.kind === "int32" && (v < -INT32 || v >= INT32)) return { wrong: `holds ${v}, outside the range of an integer column (${-INT32} to ${INT32 - 1})` };
      if (!Number.isSafeInteger(v)) return { wrong: `holds ${v}, beyond the integers a backup carries exactly (±${Number.MAX_SAFE_INTEGER})` };
      return { value: v };
    }
    case "float":
      if (typeof v !== "number") return { wrong: `holds ${describeValue(v)}, but it is a number column` };
      if (!Number.isFinite(v)) return { wrong: "holds a number too large to store" };
      return { value: v };
    case "text":
      if (typeof v !== "string") return { wrong: `holds ${describeValue(v)}, but it is a text column` };
      if (v.includes("\u0000")) return { wrong: "holds text with NUL (U+0000), which PostgreSQL cannot store and the app never writes" };
      if (LONE_SURROGATE.test(v)) return { wrong: "holds text that is not valid Unicode (a lone surrogate)" };
      return { value: v };
    case "bytes": {
      const b = v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
      if (!b || Object.keys(b).length !== 1 || typeof b.$b !== "string") return { wrong: `holds ${describeValue(v)}, but it is a bytes column ({"$b": base64})` };
      if (!BASE64.test(b.$b)) return { wrong: "holds bytes that are not base64" };
      return { value: Buffer.from(b.$b, "base64") };
    }
  }
}

interface TableSeen {
  table: string;
  rows: number;
  digest: string;
  /** The longest row line, so readers of the restored table can size their pages. */
  maxLineBytes: number;
}

export interface CheckedBackup {
  header: BackupHeader;
  tables: TableSeen[];
  rows: number;
}

interface ScanHooks {
  /** A table begins; its rows follow. */
  table?(table: string): void | Promise<void>;
  /** One row, checked and decoded; answering true stops the scan there (a lookup). */
  row?(table: string, row: Row, bytes: number): boolean | void | Promise<boolean | void>;
  /** A table's rows are all given. */
  tableEnd?(table: string): void | Promise<void>;
}

interface ScanOptions {
  hooks?: ScanHooks;
}

const DIGEST = /^[0-9a-f]{64}$/;

/**
 * Reads the backup open at `fh` from its first byte and checks all of it: the gzip stream, each
 * line's size and JSON, the header's format and schema, each table and column against that
 * schema's (known, once each, in the order this release restores them, none missing, none
 * added), each value against its column, each table's row count, and the checksum. The first
 * fault ends the scan with a Refusal naming the line, the table and the rule. The tables'
 * digests are compared with the rows as the database holds them, once loaded (backup.ts).
 */
export async function scanBackup(fh: FileHandle, file: string, opts: ScanOptions = {}): Promise<CheckedBackup> {
  const hash = createHash("sha256");
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  const refuse = (what: string): never => {
    throw new Refusal(`${file} ${what}; nothing was restored. Restore a backup as db:backup wrote it: this one was edited, damaged or made elsewhere.`);
  };

  let header: BackupHeader | null = null;
  let expected: SchemaAt = new Map();
  /** The tables of the header's schema, in the order this release restores them. */
  let order: string[] = [];
  const seenAt = new Map<string, number>();
  let current: { table: string; columns: ColumnSpec[]; rows: number; maxLineBytes: number } | null = null;
  let lastIndex = -1;
  const tables: TableSeen[] = [];
  let end: { rows: number; sha256: string; line: number } | null = null;

  // The header's schema is checked when the first table begins (or at the end of a file that
  // has none), so a file cut short after its header is called truncated, which is what it is.
  let headerLine: unknown = undefined;
  const begin = async (): Promise<BackupHeader> => {
    const h = checkHeader(headerLine, file, refuse);
    header = h;
    expected = await schemaAt(h.schema);
    order = appTables.map((t) => t.name as string).filter((t) => expected.has(t));
    const unordered = [...expected.keys()].filter((t) => !order.includes(t));
    // A table of the schema this release does not know how to order is a gap in this release,
    // not in the file.
    if (unordered.length > 0) throw new Error(`schema ${h.schema} has the table(s) ${unordered.join(", ")}, which appTables in lib/db/transfer.ts does not list`);
    return h;
  };

  const where = (n: number) => (current ? `line ${n} (row ${current.rows + 1} of ${current.table})` : n === 1 ? "line 1 (the header)" : `line ${n}`);
  const lines = linesOf(fh, file, BACKUP_LINE_MAX_BYTES, (n) => refuse(`${where(n)} is longer than ${mib(BACKUP_LINE_MAX_BYTES)}, the most one line of a backup may hold`));

  for await (const { n, bytes } of lines) {
    if (end) refuse(`has lines after its end (line ${n})`);
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      return refuse(`${where(n)} is not UTF-8 text`);
    }
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch {
      return refuse(`is torn or not a backup: ${where(n)} is not JSON`);
    }

    if (n === 1) {
      headerLine = v;
      const h = (v !== null && typeof v === "object" ? v : {}) as Record<string, unknown>;
      if (h.format !== FORMAT) throw new Refusal(`${file} is not a backup this tool wrote (no header); nothing was restored.`);
      if (h.version !== VERSION) throw new Refusal(`${file} is a backup of format version ${shown(String(h.version))}; this code reads version ${VERSION}.`);
      hash.update(bytes).update("\n");
      continue;
    }
    if (!header) await begin();

    if (Array.isArray(v)) {
      if (!current) refuse(`line ${n}: a row outside any table`);
      const t = current!;
      if (v.length !== t.columns.length) refuse(`${where(n)}: ${v.length} values for ${t.columns.length} columns`);
      const row = rowOf(v, t.columns, (what) => refuse(`${where(n)}: ${what}`));
      t.rows++;
      if (bytes.length > t.maxLineBytes) t.maxLineBytes = bytes.length;
      hash.update(bytes).update("\n");
      if ((await opts.hooks?.row?.(t.table, row, bytes.length)) === true) return { header: header!, tables, rows: tables.reduce((s, x) => s + x.rows, 0) };
      continue;
    }

    const meta = (v ?? {}) as Record<string, unknown>;
    if (typeof v !== "object" || v === null) refuse(`line ${n} is neither a row nor a table's start or end`);
    if ("table" in meta) {
      if (current) refuse(`line ${n}: a table begins before table ${current.table} ends`);
      const opened = openTable(meta, n, { schema: header!.schema, expected, order, seenAt, lastIndex }, refuse);
      seenAt.set(opened.table, n);
      lastIndex = opened.index;
      current = { table: opened.table, columns: opened.columns, rows: 0, maxLineBytes: 0 };
      hash.update(bytes).update("\n");
      await opts.hooks?.table?.(opened.table);
      continue;
    }
    if ("tableEnd" in meta) {
      exactKeys(meta, ["tableEnd", "rows", "digest"], n, refuse);
      if (!current) refuse(`line ${n}: the end of a table that did not begin`);
      const t = current!;
      if (meta.tableEnd !== t.table) refuse(`line ${n}: the end of table ${shown(String(meta.tableEnd))}, but table ${t.table} is open`);
      if (meta.rows !== t.rows) refuse(`line ${n}: table ${t.table} ends saying ${shown(String(meta.rows))} rows, but ${t.rows} precede it`);
      if (typeof meta.digest !== "string" || !DIGEST.test(meta.digest)) refuse(`line ${n}: table ${t.table}'s digest is not 64 hex digits`);
      tables.push({ table: t.table, rows: t.rows, digest: meta.digest as string, maxLineBytes: t.maxLineBytes });
      current = null;
      hash.update(bytes).update("\n");
      await opts.hooks?.tableEnd?.(t.table);
      continue;
    }
    if ("end" in meta) {
      exactKeys(meta, ["end", "rows", "sha256"], n, refuse);
      if (meta.end !== true || typeof meta.rows !== "number" || typeof meta.sha256 !== "string") refuse(`line ${n}: the last line is not one db:backup writes`);
      if (current) refuse(`line ${n}: the backup ends inside table ${current.table}`);
      end = { rows: meta.rows as number, sha256: meta.sha256 as string, line: n };
      continue;
    }
    if (meta.format === FORMAT) refuse(`line ${n}: a second header`);
    refuse(`line ${n} is neither a row nor a table's start or end`);
  }

  if (headerLine === undefined) throw new Refusal(`${file} is empty or not a backup; nothing was restored.`);
  if (!end) throw new Refusal(`${file} is truncated: it ends before its last line (a copy cut short, or a backup that did not finish); nothing was restored.`);
  if (end.sha256 !== hash.digest("hex")) throw new Refusal(`${file} is damaged: its checksum does not match its content; nothing was restored.`);
  const checked = header ?? (await begin());
  const missing = order.slice(lastIndex + 1);
  if (missing.length > 0) refuse(`lacks the table ${missing[0]} of schema ${checked.schema}${missing.length > 1 ? ` (and ${missing.length - 1} more)` : ""}`);
  const rows = tables.reduce((s, t) => s + t.rows, 0);
  if (end.rows !== rows) refuse(`line ${end.line}: the last line counts ${end.rows} rows, but the tables hold ${rows}`);
  return { header: checked, tables, rows };
}

/** A row line's values as the columns need them, or a refusal naming the column that cannot take its value. */
function rowOf(values: unknown[], columns: ColumnSpec[], refuse: (what: string) => never): Row {
  const row: Row = {};
  for (let i = 0; i < columns.length; i++) {
    const c = columns[i]!;
    const checked = checkValue(values[i], c);
    if ("wrong" in checked) refuse(`column ${c.name} ${checked.wrong}`);
    else row[c.name] = checked.value;
  }
  return row;
}

/**
 * A table's first line, checked against the header's schema and the tables before it: the table
 * it opens, its columns in the file's order, and its place in the restore order.
 */
function openTable(
  meta: Record<string, unknown>,
  n: number,
  scan: { schema: string; expected: SchemaAt; order: string[]; seenAt: Map<string, number>; lastIndex: number },
  refuse: (what: string) => never,
): { table: string; columns: ColumnSpec[]; index: number } {
  exactKeys(meta, ["table", "columns"], n, refuse);
  if (typeof meta.table !== "string") refuse(`line ${n}: the table's name is not text`);
  const table = meta.table as string;
  if (!Array.isArray(meta.columns) || !meta.columns.every((c) => typeof c === "string")) refuse(`line ${n}: table ${shown(table)}'s columns are not a list of names`);
  const columnsOf = scan.expected.get(table);
  if (!columnsOf) refuse(`line ${n}: the table ${shown(table)} is not a table of schema ${scan.schema}`);
  const first = scan.seenAt.get(table);
  if (first !== undefined) refuse(`line ${n}: the table ${table} appears a second time (first at line ${first})`);
  const index = scan.order.indexOf(table);
  const rule = `a backup holds every table of schema ${scan.schema} once, in the order this release restores them (parents first)`;
  if (index < scan.lastIndex) refuse(`line ${n}: the table ${table} comes after ${scan.order[scan.lastIndex]}; ${rule}`);
  if (index > scan.lastIndex + 1) refuse(`line ${n}: the table ${table} comes where ${scan.order[scan.lastIndex + 1]} should; ${rule}`);
  const names = meta.columns as string[];
  const twice = names.find((c, i) => names.indexOf(c) !== i);
  if (twice !== undefined) refuse(`line ${n}: table ${table} lists the column ${shown(twice)} twice`);
  const stray = names.find((c) => !columnsOf!.has(c));
  if (stray !== undefined) refuse(`line ${n}: table ${table} has a column ${shown(stray)} that schema ${scan.schema} does not have`);
  const lacking = [...columnsOf!.keys()].filter((c) => !names.includes(c));
  if (lacking.length > 0) refuse(`line ${n}: table ${table} lacks the column${lacking.length > 1 ? "s" : ""} ${lacking.join(", ")} of schema ${scan.schema}`);
  return { table, columns: names.map((c) => columnsOf!.get(c)!), index };
}

function exactKeys(o: Record<string, unknown>, keys: string[], n: number, refuse: (what: string) => never): void {
  const stray = Object.keys(o).find((k) => !keys.includes(k));
  if (stray !== undefined) refuse(`line ${n} has the field ${shown(stray)}, which db:backup never writes there`);
}

function checkHeader(v: unknown, file: string, refuse: (what: string) => never): BackupHeader {
  const h = v as Record<string, unknown>;
  exactKeys(h, ["format", "version", "schema", "migrations", "engine", "createdAt"], 1, refuse);
  if (!Array.isArray(h.migrations) || !h.migrations.every((m) => typeof m === "string")) refuse(`line 1: the header's migrations are not a list of names`);
  const migrations = h.migrations as string[];
  schemaVersion(migrations, `The backup ${file}`);
  if (typeof h.schema !== "string" || migrations[migrations.length - 1] !== h.schema) refuse(`line 1: the header names schema ${shown(String(h.schema))}, which is not the last of its migrations`);
  if (migrations.some((m, i) => migrationNames[i] !== m)) refuse(`line 1: the header's migrations are not this release's first ${migrations.length}, in order`);
  if (h.engine !== "sqlite" && h.engine !== "postgres") refuse(`line 1: the header names the engine ${shown(String(h.engine))}`);
  if (typeof h.createdAt !== "string" || Number.isNaN(Date.parse(h.createdAt)) || !/^\d{4}-\d\d-\d\dT[\d:.]+Z$/.test(h.createdAt)) refuse(`line 1: the header's time is not an ISO 8601 time`);
  return h as unknown as BackupHeader;
}

/**
 * The file's lines, decompressed, as bytes without their newline. A line is gathered only up
 * to `max` bytes: past that `tooLong` is called (and throws), so a huge line costs no more than
 * the cap. A broken gzip stream is a torn file.
 */
async function* linesOf(fh: FileHandle, file: string, max: number, tooLong: (n: number) => never): AsyncGenerator<{ n: number; bytes: Buffer }> {
  // Read by position through the handle, which stays open across passes: a file replaced under
  // its name after it was checked is not the one read again.
  const gunzip = pipeline(chunksOf(fh), zlib.createGunzip(), () => {});
  let parts: Buffer[] = [];
  let size = 0;
  let n = 0;
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      let start = 0;
      for (;;) {
        const nl = chunk.indexOf(0x0a, start);
        const stop = nl < 0 ? chunk.length : nl;
        if (size + (stop - start) > max) tooLong(n + 1);
        if (stop > start) {
          parts.push(chunk.subarray(start, stop));
          size += stop - start;
        }
        if (nl < 0) break;
        n++;
        const bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts, size);
        parts = [];
        size = 0;
        yield { n, bytes };
        start = nl + 1;
      }
    }
  } catch (err) {
    if (err instanceof Refusal) throw err;
    throw new Refusal(`${file} is torn or damaged: its compressed data breaks off (${(err as Error).message}); nothing was restored.`);
  } finally {
    gunzip.destroy();
  }
  if (size > 0) yield { n: n + 1, bytes: parts.length === 1 ? parts[0]! : Buffer.concat(parts, size) };
}

async function* chunksOf(fh: FileHandle, size = 256 * 1024): AsyncGenerator<Buffer> {
  for (let at = 0; ; ) {
    const { bytesRead, buffer } = await fh.read(Buffer.allocUnsafe(size), 0, size, at);
    if (bytesRead === 0) return;
    at += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}
