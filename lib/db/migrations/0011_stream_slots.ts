import "server-only";
import { sql, type Kysely } from "kysely";

// Open event streams per instance, for the stream caps that hold across instances
// (lib/limits/shared.ts): one row per cap, key and instance, holding how many streams
// that instance has open under the key. An instance refreshes `seen_at` while it lives; rows of
// an instance that stopped refreshing (killed) no longer count and are deleted. Keys are client
// addresses (IPv6 per /64) and SHA-256 digests, never a draft id.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then
export async function up(db: Kysely<any>, dialect: "sqlite" | "postgres"): Promise<void> {
  // Unlogged on PostgreSQL: counters need no write-ahead log (a commit without one costs a
  // fraction), and after a crash PostgreSQL empties the table, which forgets nothing that matters.
  await db.schema
    .createTable("stream_slots")
    .$call((t) => (dialect === "postgres" ? t.modifyFront(sql`unlogged`) : t))
    .addColumn("bucket", "text", (c) => c.notNull())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("instance", "text", (c) => c.notNull())
    .addColumn("n", "integer", (c) => c.notNull())
    .addColumn("seen_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("stream_slots_pk", ["bucket", "key", "instance"])
    .execute();
  await db.schema.createIndex("stream_slots_by_instance").on("stream_slots").column("instance").execute();
}
