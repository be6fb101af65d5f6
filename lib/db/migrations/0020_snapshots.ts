import "server-only";
import type { Kysely } from "kysely";

// Snapshots (lib/saved/snapshots.ts): a person's own saved dashboard drawn on their data at one
// moment and kept as an inert document (and its picture), at an unguessable address. The row
// outlives its content: once revoked or expired, the document and picture are emptied and the
// address answers 410 rather than 404. A snapshot is a copy, so it does not point at the saved
// dashboard; it goes with its owner.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then
export async function up(db: Kysely<any>, dialect: "sqlite" | "postgres"): Promise<void> {
  await db.schema
    .createTable("snapshots")
    // The address's token: 32 characters of base64url, 192 random bits.
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("owner_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("slug", "text", (c) => c.notNull())
    .addColumn("revision", "integer", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("viewport", "text", (c) => c.notNull())
    .addColumn("visibility", "text", (c) => c.notNull())
    .addColumn("html", "text", (c) => c.notNull())
    .addColumn("height", "integer", (c) => c.notNull())
    .addColumn("png", dialect === "postgres" ? "bytea" : "blob")
    .addColumn("drawn_at", "bigint", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addColumn("revoked_at", "bigint")
    .execute();
  await db.schema.createIndex("snapshots_owner").on("snapshots").columns(["owner_id", "created_at"]).execute();
}
