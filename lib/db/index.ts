import "server-only";
import fs from "node:fs";
import path from "node:path";
import type SQLiteTypes from "better-sqlite3";
import { Kysely, PostgresAdapter, SqliteDialect, sql } from "kysely";
import pg from "pg";
import { migrateToLatest, type Dialect } from "./migrate";
import { OwnSchemaPostgresDialect } from "./own-schema";
import { SQLite } from "./sqlite-driver";
import type { Database } from "./schema";

export type { Database } from "./schema";
export type Db = Kysely<Database>;

export type Storage =
  | { kind: "sqlite"; file: string }
  | { kind: "postgres"; url: string; schema?: string };

export interface OpenDb {
  db: Db;
  dialect: Dialect;
  /** The pg pool, for LISTEN/NOTIFY and advisory locks; absent on SQLite. */
  pool?: pg.Pool;
  /** Statements sent to the database since it was opened (on SQLite, statements run), for the metrics. */
  statements(): number;
  close(): Promise<void>;
}

const INT8_OID = 20;

/**
 * better-sqlite3 compiles a statement on every prepare, which was the largest single cost of a
 * small API request; Kysely prepares each time it runs a query. Reusing prepared statements by
 * their SQL text (bounded) removes that. SQLite recompiles a cached statement by itself when the
 * schema changes.
 */
function withStatementCache(database: SQLiteTypes.Database, counted: { n: number }, max = 500) {
  const cache = new Map<string, SQLiteTypes.Statement>();
  return {
    close: () => database.close(),
    // Kysely prepares once per query it runs, so a prepare is a statement run.
    prepare(sqlText: string): SQLiteTypes.Statement {
      counted.n++;
      let statement = cache.get(sqlText);
      if (!statement) {
        statement = database.prepare(sqlText);
        cache.set(sqlText, statement);
        if (cache.size > max) cache.delete(cache.keys().next().value as string);
      }
      return statement;
    },
  };
}

interface OpenOptions {
  /**
   * How far to migrate: the latest migration (the default), up to a named one (a restore first
   * builds the schema its rows were written under), or `false` to leave the schema as it is.
   */
  migrate?: boolean | string;
}

/** Opens storage and brings its schema up to date. */
export async function openDb(storage: Storage, options: OpenOptions = {}): Promise<OpenDb> {
  const migrate = options.migrate ?? true;
  const upTo = typeof migrate === "string" ? migrate : undefined;
  if (storage.kind === "sqlite") {
    if (storage.file !== ":memory:") fs.mkdirSync(path.dirname(storage.file), { recursive: true });
    const database = new SQLite(storage.file);
    database.pragma("journal_mode = WAL");
    database.pragma("foreign_keys = ON");
    database.pragma("busy_timeout = 5000");
    const counted = { n: 0 };
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database, counted) }) });
    if (migrate !== false) await migrateToLatest(db, "sqlite", undefined, upTo);
    return { db, dialect: "sqlite", statements: () => counted.n, close: () => db.destroy() };
  }

  const schema = storage.schema;
  const pool = new pg.Pool({
    connectionString: storage.url,
    max: 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
    // Epoch-millisecond columns are bigint; they fit a JS number exactly.
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        oid === INT8_OID ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // Every statement, Kysely's and the pool's own (LISTEN, NOTIFY, advisory locks), goes through a
  // client's query; counting there gives what a request costs the database.
  let statements = 0;
  pool.on("connect", (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      statements++;
      return query(...args);
    };
  });
  const db = new Kysely<Database>({ dialect: new OwnSchemaPostgresDialect({ pool }) });
  if (schema && migrate !== false) await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
  if (migrate !== false) await migrateToLatest(db, "postgres", schema, upTo);
  return { db, dialect: "postgres", pool, statements: () => statements, close: () => db.destroy() };
}

/**
 * Whether this database holds rows for a transaction (SELECT … FOR UPDATE): PostgreSQL does.
 * SQLite is one process's file and has no row locks; a write transaction there would hold the
 * whole database, so callers serialise in-process instead.
 */
export function locksRows(db: Kysely<Database>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
