import "server-only";
import type { Kysely } from "kysely";

// The static check's result, stored with each draft revision, so a read serves it instead of
// running the check again. `check_json` holds `{warnings, reads}` (see lib/drafts/analysis.ts).
// Revisions written before this migration have none: the first read of such a revision checks it
// once and stores the result, so nothing is backfilled here (a backfill would run the check over
// every kept revision at start-up, up to a second of CPU for a large draft).

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("playground_draft_revisions").addColumn("check_json", "text").execute();
}
