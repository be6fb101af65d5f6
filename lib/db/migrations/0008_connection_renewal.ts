import "server-only";
import type { Kysely } from "kysely";

// Credentials that renew themselves. `refreshed_at` is when the stored pair was last renewed (a
// token's lifetime is then `expires_at - (refreshed_at ?? connected_at)`); `reconnect_reason` and
// `reconnect_at` say why and since when a credential can no longer be used or renewed, so the
// person is asked to reconnect instead of the vendor being asked again.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ["connector_tokens", "donor_credentials"]) {
    await db.schema.alterTable(table).addColumn("refreshed_at", "bigint").execute();
    await db.schema.alterTable(table).addColumn("reconnect_reason", "text").execute();
    await db.schema.alterTable(table).addColumn("reconnect_at", "bigint").execute();
  }
}
