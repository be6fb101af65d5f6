import "server-only";
import type { Kysely } from "kysely";

// What the stand-ins' authorization server must remember (lib/connectors/stand-in/oauth.ts): a
// code redeemed and a refresh token used (each good once), and a grant revoked, each until it
// could no longer be presented. In storage, so an instance cannot redeem a code another already
// has, and a revocation holds on every instance. Keys are MACs and grant ids, never tokens.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("stand_in_oauth_marks")
    .addColumn("slug", "text", (c) => c.notNull())
    // "code", "refresh" or "revoked"
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("stand_in_oauth_marks_pk", ["slug", "kind", "key"])
    .execute();
  await db.schema.createIndex("stand_in_oauth_marks_by_expiry").on("stand_in_oauth_marks").column("expires_at").execute();
}
