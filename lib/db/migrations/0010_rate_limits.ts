import "server-only";
import { sql, type Kysely } from "kysely";

// Fixed-window request counters shared by every instance on one PostgreSQL
// (lib/limits/shared.ts): one row per limit, key and minute. A key is a client
// address (IPv6 per /64) or a SHA-256 digest, never a token. Rows are deleted once their window
// is over; the index finds them. On SQLite, one process counts in memory and the table stays empty.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then
export async function up(db: Kysely<any>, dialect: "sqlite" | "postgres"): Promise<void> {
  // Unlogged on PostgreSQL: counters need no write-ahead log (a commit without one costs a
  // fraction), and after a crash PostgreSQL empties the table, which forgets nothing that matters.
  await db.schema
    .createTable("rate_limit_windows")
    .$call((t) => (dialect === "postgres" ? t.modifyFront(sql`unlogged`) : t))
    .addColumn("bucket", "text", (c) => c.notNull())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("window_start", "bigint", (c) => c.notNull())
    .addColumn("n", "integer", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("rate_limit_windows_pk", ["bucket", "key", "window_start"])
    .execute();
  await db.schema.createIndex("rate_limit_windows_by_expiry").on("rate_limit_windows").column("expires_at").execute();
}
