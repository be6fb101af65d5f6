import "server-only";
import type { ConnectorSlug } from "@/lib/config";
import type { Sealer } from "@/lib/crypto/secrets";
import type { Db } from "@/lib/db";

// Stored connector credentials. Tokens are sealed on the way in and opened on the way out;
// the context binds each sealed value to its row.

export interface StoredToken {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: number | null;
  scope: string | null;
  account: string | null;
  connectedAt: number;
}

export interface TokenGrant {
  accessToken: string;
  refreshToken?: string | null;
  expiresAt?: number | null;
  scope?: string | null;
  account?: string | null;
}

const userCtx = (slug: string, userId: number, kind: "access" | "refresh") => `user-token:${slug}:${userId}:${kind}`;
const donorCtx = (slug: string, kind: "access" | "refresh") => `donor-token:${slug}:${kind}`;

export async function saveUserToken(db: Db, sealer: Sealer, userId: number, slug: ConnectorSlug, grant: TokenGrant, now = Date.now()): Promise<void> {
  const row = {
    access_token: sealer.seal(grant.accessToken, userCtx(slug, userId, "access")),
    refresh_token: grant.refreshToken ? sealer.seal(grant.refreshToken, userCtx(slug, userId, "refresh")) : null,
    expires_at: grant.expiresAt ?? null,
    scope: grant.scope ?? null,
    account: grant.account ?? null,
    connected_at: now,
  };
  await db
    .insertInto("connector_tokens")
    .values({ user_id: userId, slug, ...row })
    .onConflict((oc) => oc.columns(["user_id", "slug"]).doUpdateSet(row))
    .execute();
}

/**
 * A sealed value that no longer opens (the deployment's key changed) is as good as absent: the
 * person is asked to reconnect rather than shown a failure.
 */
function openOrNull(open: () => StoredToken, what: string): StoredToken | null {
  try {
    return open();
  } catch {
    console.warn(`[connectors] a stored ${what} could not be opened with the current key; treating it as not connected`);
    return null;
  }
}

export async function userToken(db: Db, sealer: Sealer, userId: number, slug: ConnectorSlug): Promise<StoredToken | null> {
  const row = await db.selectFrom("connector_tokens").selectAll().where("user_id", "=", userId).where("slug", "=", slug).executeTakeFirst();
  if (!row) return null;
  return openOrNull(() => ({
    accessToken: sealer.open(row.access_token, userCtx(slug, userId, "access")),
    refreshToken: row.refresh_token ? sealer.open(row.refresh_token, userCtx(slug, userId, "refresh")) : null,
    expiresAt: row.expires_at,
    scope: row.scope,
    account: row.account,
    connectedAt: row.connected_at,
  }), `${slug} token`);
}

/** Disconnecting deletes the stored token; nothing of it remains. */
export async function deleteUserToken(db: Db, userId: number, slug: ConnectorSlug): Promise<boolean> {
  const r = await db.deleteFrom("connector_tokens").where("user_id", "=", userId).where("slug", "=", slug).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function connectedSlugs(db: Db, userId: number): Promise<ConnectorSlug[]> {
  const rows = await db.selectFrom("connector_tokens").select("slug").where("user_id", "=", userId).execute();
  return rows.map((r) => r.slug as ConnectorSlug);
}

export async function saveDonorToken(db: Db, sealer: Sealer, slug: ConnectorSlug, grant: TokenGrant, byUserId: number | null, now = Date.now()): Promise<void> {
  const row = {
    access_token: sealer.seal(grant.accessToken, donorCtx(slug, "access")),
    refresh_token: grant.refreshToken ? sealer.seal(grant.refreshToken, donorCtx(slug, "refresh")) : null,
    expires_at: grant.expiresAt ?? null,
    account: grant.account ?? null,
    connected_by: byUserId,
    connected_at: now,
  };
  await db
    .insertInto("donor_credentials")
    .values({ slug, ...row })
    .onConflict((oc) => oc.column("slug").doUpdateSet(row))
    .execute();
}

export async function donorToken(db: Db, sealer: Sealer, slug: ConnectorSlug): Promise<StoredToken | null> {
  const row = await db.selectFrom("donor_credentials").selectAll().where("slug", "=", slug).executeTakeFirst();
  if (!row) return null;
  return openOrNull(() => ({
    accessToken: sealer.open(row.access_token, donorCtx(slug, "access")),
    refreshToken: row.refresh_token ? sealer.open(row.refresh_token, donorCtx(slug, "refresh")) : null,
    expiresAt: row.expires_at,
    scope: null,
    account: row.account,
    connectedAt: row.connected_at,
  }), `shared ${slug} credential`);
}

export async function deleteDonorToken(db: Db, slug: ConnectorSlug): Promise<boolean> {
  const r = await db.deleteFrom("donor_credentials").where("slug", "=", slug).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function setCallsOptIn(db: Db, userId: number, optIn: boolean, now = Date.now()): Promise<void> {
  if (optIn) {
    await db.insertInto("calls_opt_ins").values({ user_id: userId, opted_in_at: now }).onConflict((oc) => oc.column("user_id").doNothing()).execute();
  } else {
    await db.deleteFrom("calls_opt_ins").where("user_id", "=", userId).execute();
  }
}

export async function hasCallsOptIn(db: Db, userId: number): Promise<boolean> {
  return !!(await db.selectFrom("calls_opt_ins").select("user_id").where("user_id", "=", userId).executeTakeFirst());
}
