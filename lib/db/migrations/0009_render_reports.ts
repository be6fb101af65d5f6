import "server-only";
import type { Kysely } from "kysely";

// Render reports of playground drafts (lib/drafts/reports.ts). Each row belongs to one kept
// revision: the composite foreign key cascades, so a revision pruned from the history, or a
// draft swept, takes its reports with it on both engines, and nothing else has to remember to.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then
export async function up(db: Kysely<any>, dialect: "sqlite" | "postgres"): Promise<void> {
  const id = dialect === "postgres" ? "bigserial" : "integer";
  await db.schema
    .createTable("playground_draft_reports")
    .addColumn("id", id, (c) => (dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn("draft_id", "text", (c) => c.notNull())
    .addColumn("revision", "integer", (c) => c.notNull())
    .addColumn("report", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addForeignKeyConstraint("playground_draft_reports_revision_fk", ["draft_id", "revision"], "playground_draft_revisions", ["draft_id", "revision"], (fk) =>
      fk.onDelete("cascade"),
    )
    .execute();
  // Reports are read, counted and pruned by revision, newest first.
  await db.schema.createIndex("playground_draft_reports_by_revision").on("playground_draft_reports").columns(["draft_id", "revision", "id"]).execute();
}
