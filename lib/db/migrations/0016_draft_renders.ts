import "server-only";
import type { Kysely } from "kysely";

// The service's own renders of draft revisions (lib/drafts/renders.ts): one row per
// revision, viewport and demo state, holding the render report and the PNG, so a render asked
// for again is answered from storage by every instance. Each belongs to a kept revision: the
// composite foreign key cascades, so pruning the history or sweeping a draft takes its renders.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then
export async function up(db: Kysely<any>, dialect: "sqlite" | "postgres"): Promise<void> {
  await db.schema
    .createTable("draft_renders")
    .addColumn("draft_id", "text", (c) => c.notNull())
    .addColumn("revision", "integer", (c) => c.notNull())
    // The viewport and demo state, as a digest (lib/drafts/renders.ts, renderKey).
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("viewport", "text", (c) => c.notNull())
    .addColumn("scenario", "text", (c) => c.notNull())
    .addColumn("examples", "text", (c) => c.notNull())
    .addColumn("report", "text", (c) => c.notNull())
    .addColumn("png", dialect === "postgres" ? "bytea" : "blob", (c) => c.notNull())
    .addColumn("width", "integer", (c) => c.notNull())
    .addColumn("height", "integer", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("draft_renders_pk", ["draft_id", "revision", "key"])
    .addForeignKeyConstraint("draft_renders_revision_fk", ["draft_id", "revision"], "playground_draft_revisions", ["draft_id", "revision"], (fk) => fk.onDelete("cascade"))
    .execute();
}
