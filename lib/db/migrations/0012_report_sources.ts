import "server-only";
import { sql, type Kysely } from "kysely";

// Where each render report came from, and whether it found errors (lib/drafts/reports.ts):
// anyone with a watch link may report, so what is kept of a revision is bounded per source and a
// report with errors is kept over a clean one. Reports stored before this know neither: they
// count as one unknown watcher, failing when their errors list is not empty.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("playground_draft_reports").addColumn("source_kind", "text", (c) => c.notNull().defaultTo("watcher")).execute();
  await db.schema.alterTable("playground_draft_reports").addColumn("source_id", "text", (c) => c.notNull().defaultTo("w-earlier")).execute();
  await db.schema.alterTable("playground_draft_reports").addColumn("failing", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await sql`update playground_draft_reports set failing = 1 where report not like '%"errors":[]%'`.execute(db);
  // Kept and pruned per source within a revision.
  await db.schema.createIndex("playground_draft_reports_by_source").on("playground_draft_reports").columns(["draft_id", "revision", "source_id"]).execute();
}
