import "server-only";
import { createHash } from "node:crypto";
import { sql, type Kysely } from "kysely";
import { migrationNames } from "./migrate";
import type { Database } from "./schema";
import { type Db, type OpenDb } from "./index";

// Copying the app's rows between databases of either engine: the move, the backup and the
// restore share these pieces, so every path reads, writes and verifies rows the same way.

export type Row = Record<string, unknown>;
export type TableName = keyof Database & string;

export interface TableSpec {
  name: TableName;
  /** The primary key: rows are read in this order, in pages after the last key seen. */
  key: string[];
  /** A PostgreSQL serial column whose sequence must continue after the copied ids. */
  serial?: string;
  /**
   * Rows about the processes using this database, not data: a move, a backup and a restore carry
   * the table (its schema) but none of its rows, and do not compare them.
   */
  local?: true;
}

/**
 * Every table the app owns, parents before the tables whose foreign keys point at them, so rows
 * can be inserted in this order and deleted in the reverse. A test compares this list with the
 * tables the migrations create, so a new table cannot be left out of moves and backups.
 */
export const appTables: TableSpec[] = [
  { name: "meta", key: ["key"] },
  { name: "users", key: ["id"], serial: "id" },
  { name: "user_groups", key: ["user_id", "group_name"] },
  { name: "sessions", key: ["token_hash"] },
  { name: "favourites", key: ["user_id", "href"] },
  { name: "auth_flows", key: ["id_hash"] },
  { name: "connector_tokens", key: ["user_id", "slug"] },
  { name: "donor_credentials", key: ["slug"] },
  { name: "calls_opt_ins", key: ["user_id"] },
  { name: "connect_flows", key: ["id_hash"] },
  { name: "crm_owners", key: ["instance", "id"] },
  { name: "crm_companies", key: ["instance", "id"] },
  { name: "crm_contacts", key: ["instance", "id"] },
  { name: "crm_deals", key: ["instance", "id"] },
  { name: "crm_engagements", key: ["instance", "id"] },
  { name: "crm_sync_state", key: ["instance", "object"] },
  { name: "crm_sync_runs", key: ["id"], serial: "id" },
  { name: "crm_sync_locks", key: ["instance"] },
  { name: "usage_weeks", key: ["product_school_id", "week_start"] },
  { name: "health_scores", key: ["company_id", "date"] },
  { name: "data_sources", key: ["name"] },
  { name: "playground_drafts", key: ["id"] },
  { name: "playground_draft_revisions", key: ["draft_id", "revision"] },
  { name: "playground_draft_reports", key: ["id"], serial: "id" },
  { name: "draft_renders", key: ["draft_id", "revision", "key"] },
  { name: "saved_dashboards", key: ["owner_id", "slug"] },
  { name: "saved_dashboard_revisions", key: ["owner_id", "slug", "revision"] },
  { name: "trusted_authors", key: ["user_id", "author_id"] },
  { name: "snapshots", key: ["id"] },
  { name: "stand_in_oauth_marks", key: ["slug", "kind", "key"] },
  { name: "oauth_clients", key: ["client_id"] },
  { name: "oauth_grants", key: ["id"] },
  { name: "oauth_codes", key: ["code_hash"] },
  { name: "oauth_tokens", key: ["token_hash"] },
  { name: "rate_limit_windows", key: ["bucket", "key", "window_start"] },
  { name: "stream_slots", key: ["bucket", "key", "instance"] },
  { name: "app_instances", key: ["id"], local: true },
];

/** One refusal, worded for the person at the terminal; the tools print it alone and exit 2. */
export class Refusal extends Error {}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables are addressed by name at run time
type AnyDb = Kysely<any>;

/**
 * The tables of this database (on PostgreSQL, of the schema the connection is on) with their
 * columns in order, by introspection (./own-schema keeps it to that schema).
 */
export async function tableColumns(db: Db): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const t of await db.introspection.getTables({ withInternalKyselyTables: true })) out.set(t.name, t.columns.map((c) => c.name));
  return out;
}

/** The app's tables present (the migrator's and the move's own left out). */
export async function tablesIn(db: Db): Promise<string[]> {
  return [...(await tableColumns(db)).keys()].filter((n) => !n.startsWith("kysely_") && n !== PROGRESS_TABLE);
}

/** Rows per table for the tables that exist; tables absent are left out. */
export async function rowCounts(db: Db): Promise<Record<string, number>> {
  const present = new Set(await tablesIn(db));
  const out: Record<string, number> = {};
  for (const t of appTables) {
    if (!present.has(t.name)) continue;
    const r = await (db as AnyDb).selectFrom(t.name).select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow();
    out[t.name] = Number(r.n);
  }
  return out;
}

/** Pages of a table's rows in key order; each page starts after the last key of the one before. */
export async function* readPages(db: Db, spec: TableSpec, pageSize: number): AsyncGenerator<Row[]> {
  let after: unknown[] | null = null;
  for (;;) {
    let q = (db as AnyDb).selectFrom(spec.name).selectAll();
    if (after) {
      const keys = sql.join(spec.key.map((k) => sql.ref(k)));
      const values = sql.join(after.map((v) => sql.val(v)));
      q = q.where(sql<boolean>`(${keys}) > (${values})`);
    }
    for (const k of spec.key) q = q.orderBy(k);
    const rows = (await q.limit(pageSize).execute()) as Row[];
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < pageSize) return;
    const last = rows[rows.length - 1]!;
    after = spec.key.map((k) => last[k]);
  }
}

/**
 * Rows per insert statement, kept under both engines' bound-parameter limits (SQLite 32,766,
 * PostgreSQL 65,535) whatever the table's width.
 */
export function insertChunk(columns: number): number {
  return Math.max(1, Math.floor(30_000 / Math.max(1, columns)));
}

export async function insertRows(db: AnyDb, table: TableName, rows: Row[]): Promise<void> {
  if (rows.length === 0) return;
  const chunk = insertChunk(Object.keys(rows[0]!).length);
  for (let i = 0; i < rows.length; i += chunk) {
    await db.insertInto(table).values(rows.slice(i, i + chunk)).execute();
  }
}

/**
 * A digest of a table's content that does not depend on row order: the engines sort text keys
 * by different collations, so the same rows arrive in a different order. Each row is hashed in a
 * canonical form (columns by name, bytes as base64) and the hashes are added modulo 2^256; the
 * primary key keeps a row from appearing twice, so additions cannot cancel out.
 */
export class TableDigest {
  private sum = 0n;
  rows = 0;
  add(row: Row): void {
    const canonical = Object.keys(row)
      .sort()
      .map((k) => [k, canonicalValue(row[k])]);
    const h = createHash("sha256").update(JSON.stringify(canonical)).digest("hex");
    this.sum = (this.sum + BigInt(`0x${h}`)) & ((1n << 256n) - 1n);
    this.rows++;
  }
  value(): string {
    return this.sum.toString(16).padStart(64, "0");
  }
}

function canonicalValue(v: unknown): unknown {
  if (v instanceof Uint8Array) return { b64: Buffer.from(v).toString("base64") };
  if (typeof v === "bigint") return Number(v);
  return v ?? null;
}

export interface TableCheck {
  table: string;
  rows: number;
  digest: string;
}

export async function digestTable(db: Db, spec: TableSpec, pageSize = 2_000): Promise<TableCheck> {
  const d = new TableDigest();
  for await (const page of readPages(db, spec, pageSize)) for (const row of page) d.add(row);
  return { table: spec.name, rows: d.rows, digest: d.value() };
}

/** After ids were written explicitly, PostgreSQL's sequences must carry on above them. */
export async function resetSerials(open: OpenDb): Promise<void> {
  if (open.dialect !== "postgres") return;
  for (const t of appTables) {
    if (!t.serial) continue;
    await sql`select setval(pg_get_serial_sequence(${t.name}, ${t.serial}), coalesce((select max(${sql.ref(t.serial)}) from ${sql.table(t.name)}), 1), (select count(*) > 0 from ${sql.table(t.name)}))`.execute(open.db);
  }
}

/**
 * The schema a database is at, checked against the migrations this code knows: an unknown one
 * means newer code wrote it, and nothing here may touch it.
 */
export function schemaVersion(applied: string[], what: string): string | null {
  const unknown = applied.filter((m) => !migrationNames.includes(m));
  if (unknown.length > 0) {
    throw new Refusal(
      `${what} is at schema ${unknown[unknown.length - 1]}, newer than this code knows (latest ${latestMigration()}): use the release that wrote it.`,
    );
  }
  return applied.length === 0 ? null : applied[applied.length - 1]!;
}

export const latestMigration = (): string => migrationNames[migrationNames.length - 1]!;

/** The move's own bookkeeping in the target, dropped when the move completes. */
export const PROGRESS_TABLE = "db_move_progress";
