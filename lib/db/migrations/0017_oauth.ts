import "server-only";
import type { Kysely } from "kysely";

// The service as an OAuth 2.1 authorization server for its MCP endpoint (lib/auth/oauth.ts):
// clients that registered themselves, authorization codes, the grants a person approved, and
// the tokens issued under them. Codes and tokens are kept as SHA-256 digests, never as issued.
// A used code and a rotated refresh token stay until they expire, so presenting one again is
// recognised as a replay and ends the grant it came from.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("oauth_clients")
    .addColumn("client_id", "text", (c) => c.primaryKey())
    .addColumn("client_name", "text", (c) => c.notNull())
    // JSON array of the registered redirect URIs, compared exactly.
    .addColumn("redirect_uris", "text", (c) => c.notNull())
    .addColumn("client_uri", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("oauth_clients_by_created").on("oauth_clients").column("created_at").execute();

  await db.schema
    .createTable("oauth_grants")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("client_id", "text", (c) => c.notNull().references("oauth_clients.client_id").onDelete("cascade"))
    .addColumn("user_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("scope", "text", (c) => c.notNull())
    .addColumn("resource", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("used_at", "bigint", (c) => c.notNull())
    .addColumn("revoked_at", "bigint")
    .execute();
  await db.schema.createIndex("oauth_grants_by_user").on("oauth_grants").columns(["user_id", "revoked_at"]).execute();

  await db.schema
    .createTable("oauth_codes")
    .addColumn("code_hash", "text", (c) => c.primaryKey())
    .addColumn("client_id", "text", (c) => c.notNull().references("oauth_clients.client_id").onDelete("cascade"))
    .addColumn("user_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("redirect_uri", "text", (c) => c.notNull())
    .addColumn("code_challenge", "text", (c) => c.notNull())
    .addColumn("scope", "text", (c) => c.notNull())
    .addColumn("resource", "text", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    // Set when the code is redeemed, with the grant it made: a second redemption revokes it.
    .addColumn("used_at", "bigint")
    .addColumn("grant_id", "text")
    .execute();
  await db.schema.createIndex("oauth_codes_by_expiry").on("oauth_codes").column("expires_at").execute();

  await db.schema
    .createTable("oauth_tokens")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("grant_id", "text", (c) => c.notNull().references("oauth_grants.id").onDelete("cascade"))
    // "access" or "refresh"
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    // A refresh token's rotation: set when it was exchanged for the next one.
    .addColumn("used_at", "bigint")
    .execute();
  await db.schema.createIndex("oauth_tokens_by_grant").on("oauth_tokens").column("grant_id").execute();
  await db.schema.createIndex("oauth_tokens_by_expiry").on("oauth_tokens").column("expires_at").execute();
}
