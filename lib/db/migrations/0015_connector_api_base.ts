import "server-only";
import type { Kysely } from "kysely";

// Where a credential's API is, when the vendor's token answer names it (Gong serves each customer
// on a host of its own, `api_base_url_for_customer`). Sealed like the tokens, and replaced with
// them on renewal; null means the connector's configured API URL.

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ["connector_tokens", "donor_credentials"]) {
    await db.schema.alterTable(table).addColumn("api_base_url", "text").execute();
  }
}
