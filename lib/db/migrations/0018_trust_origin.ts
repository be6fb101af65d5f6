import "server-only";
import type { Kysely } from "kysely";

// Each trust entry (lib/saved/trust.ts) records how it was made. Only a person at this site's
// own pages can make one now; entries from before this record was kept say so ("unrecorded"),
// since some may have come through a connected app, and disconnecting an app takes back those
// made while it was connected.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("trusted_authors").addColumn("made_via", "text", (c) => c.notNull().defaultTo("unrecorded")).execute();
}
