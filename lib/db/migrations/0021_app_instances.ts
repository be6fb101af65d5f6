import "server-only";
import type { Kysely } from "kysely";

// The instance registry (lib/db/instances.ts): one row per app process serving from this
// database, written when it starts, refreshed while it runs, deleted when it stops cleanly. The
// database tools read it to know whether an app is running, instead of guessing from recent
// writes. A row that has not been refreshed for a while belongs to a process that died.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("app_instances")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("host", "text", (c) => c.notNull())
    .addColumn("pid", "integer", (c) => c.notNull())
    .addColumn("started_at", "bigint", (c) => c.notNull())
    .addColumn("seen_at", "bigint", (c) => c.notNull())
    .execute();
}
