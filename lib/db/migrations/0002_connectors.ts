import "server-only";
import type { Kysely } from "kysely";

// Connector credentials. Every token column holds a sealed value (lib/crypto/secrets.ts).

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("connector_tokens")
    .addColumn("user_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("slug", "text", (c) => c.notNull())
    .addColumn("access_token", "text", (c) => c.notNull())
    .addColumn("refresh_token", "text")
    .addColumn("expires_at", "bigint")
    .addColumn("scope", "text")
    .addColumn("account", "text")
    .addColumn("connected_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("connector_tokens_pk", ["user_id", "slug"])
    .execute();

  await db.schema
    .createTable("donor_credentials")
    .addColumn("slug", "text", (c) => c.primaryKey())
    .addColumn("access_token", "text", (c) => c.notNull())
    .addColumn("refresh_token", "text")
    .addColumn("expires_at", "bigint")
    .addColumn("account", "text")
    .addColumn("connected_by", "bigint", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("connected_at", "bigint", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("calls_opt_ins")
    .addColumn("user_id", "bigint", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("opted_in_at", "bigint", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("connect_flows")
    .addColumn("id_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("slug", "text", (c) => c.notNull())
    .addColumn("purpose", "text", (c) => c.notNull())
    .addColumn("code_verifier", "text", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .execute();
}
