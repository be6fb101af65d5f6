import "server-only";
import type { Kysely } from "kysely";

// Where each OAuth client registered from (lib/auth/oauth.ts RegistrationBounds): the address
// key the allowances use, an IPv6 /64 as one. Registration is open to anyone, so each address
// may hold only so many clients nobody approved, and when the table is full the address holding
// the most gives way first. Clients registered before this was kept share the key "".

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("oauth_clients").addColumn("registered_from", "text", (c) => c.notNull().defaultTo("")).execute();
  await db.schema.createIndex("oauth_clients_by_source").on("oauth_clients").columns(["registered_from", "created_at"]).execute();
}
