import "server-only";
import type { Kysely } from "kysely";

// Written once, never edited: later changes get a migration of their own.
// Column types are chosen to mean the same on SQLite and PostgreSQL.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then
export async function up(db: Kysely<any>, dialect: "sqlite" | "postgres"): Promise<void> {
  const id = dialect === "postgres" ? "bigserial" : "integer";
  await db.schema
    .createTable("users")
    .addColumn("id", id, (c) => (dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("handle", "text", (c) => c.notNull().unique())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("home_path", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("user_groups")
    .addColumn("user_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("group_name", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("user_groups_pk", ["user_id", "group_name"])
    .execute();

  await db.schema
    .createTable("sessions")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sessions_user_idx").on("sessions").column("user_id").execute();
  await db.schema.createIndex("sessions_expiry_idx").on("sessions").column("expires_at").execute();

  await db.schema
    .createTable("favourites")
    .addColumn("user_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("href", "text", (c) => c.notNull())
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("favourites_pk", ["user_id", "href"])
    .execute();
  await db.schema.createIndex("favourites_order_idx").on("favourites").columns(["user_id", "position"]).execute();

  await db.schema
    .createTable("auth_flows")
    .addColumn("id_hash", "text", (c) => c.primaryKey())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("nonce", "text", (c) => c.notNull())
    .addColumn("code_verifier", "text", (c) => c.notNull())
    .addColumn("next_path", "text", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("meta")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .execute();
}
