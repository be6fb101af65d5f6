import "server-only";
import type { Kysely } from "kysely";

// What each CRM sync run met of the portal's rate limits (lib/crm/sync.ts): the searches it
// made and how long it held them back to stay under HubSpot's search limit, how often the portal
// still answered "slow down" and the run waited, how long in all, and which limits those were.
// /crm/:instance/sources shows them, so a slow or failed run says what it was waiting on.
// Runs recorded before this count zero of each and no limit.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("crm_sync_runs").addColumn("searches", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("crm_sync_runs").addColumn("paced_ms", "bigint", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("crm_sync_runs").addColumn("limit_waits", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("crm_sync_runs").addColumn("limit_waited_ms", "bigint", (c) => c.notNull().defaultTo(0)).execute();
  // The limits met, comma-separated in the order first met (search, burst, daily, unavailable).
  await db.schema.alterTable("crm_sync_runs").addColumn("limits_hit", "text").execute();
}
