import "server-only";
import type { Kysely } from "kysely";

// The authors whose dashboards a person lets run on their live data without asking each time.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("trusted_authors")
    .addColumn("user_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("author_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("trusted_authors_pk", ["user_id", "author_id"])
    .execute();
}
