import "server-only";
import type { Kysely } from "kysely";

// Playground drafts and their bounded revision history.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("playground_drafts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("write_hash", "text", (c) => c.notNull().unique())
    .addColumn("revision", "integer", (c) => c.notNull())
    .addColumn("html", "text", (c) => c.notNull())
    .addColumn("data_mode", "text", (c) => c.notNull())
    .addColumn("scenario", "text", (c) => c.notNull())
    .addColumn("examples", "text", (c) => c.notNull())
    .addColumn("dash", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();
  // The idle sweep looks for the oldest drafts.
  await db.schema.createIndex("playground_drafts_updated_at").on("playground_drafts").column("updated_at").execute();

  await db.schema
    .createTable("playground_draft_revisions")
    .addColumn("draft_id", "text", (c) => c.notNull().references("playground_drafts.id").onDelete("cascade"))
    .addColumn("revision", "integer", (c) => c.notNull())
    .addColumn("html", "text", (c) => c.notNull())
    .addColumn("scenario", "text", (c) => c.notNull())
    .addColumn("examples", "text", (c) => c.notNull())
    .addColumn("dash", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("playground_draft_revisions_pk", ["draft_id", "revision"])
    .execute();
}
