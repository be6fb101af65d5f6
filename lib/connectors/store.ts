import "server-only";
import type { ConnectorSlug } from "@/lib/config";
import type { Sealer } from "@/lib/crypto/secrets";
import type { Db } from "@/lib/db";
import { serverLog } from "@/lib/http/server-log";

// Stored connector credentials. Tokens are sealed on the way in and opened on the way out;
// the context binds each sealed value to its row.

export interface StoredToken {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: number | null;
  scope: string | null;
  account: string | null;
  connectedAt: number;
  /** When the pair was last renewed; null until the first refresh. */
  refreshedAt: number | null;
  /** Why this credential must be connected again, and since when; null while it works. */
  reconnect: { reason: string; at: number } | null;
  /**
   * Where this credential's API is, as the vendor's token answer last named it (Gong's
   * per-customer base); null: the connector's configured API URL.
   */
  apiBaseUrl: string | null;
  /**
   * The stored (sealed) access token as the row holds it: a renewal replaces the pair only while
   * the row still holds the token it renewed, so two renewals never both land.
   */
  sealedAccess: string;
}

export interface TokenGrant {
  accessToken: string;
  refreshToken?: string | null;
  expiresAt?: number | null;
  scope?: string | null;
  account?: string | null;
  /** Where the vendor said this customer's API is; null or absent: the configured API URL. */
  apiBaseUrl?: string | null;
}

/** Whose credential: one person's for a connector, or the organisation's shared one. */
export type CredentialOwner = { kind: "user"; userId: number; slug: ConnectorSlug } | { kind: "donor"; slug: ConnectorSlug };

export const credentialKey = (o: CredentialOwner): string => (o.kind === "user" ? `user:${o.userId}:${o.slug}` : `donor:${o.slug}`);

const contextOf = (o: CredentialOwner, kind: "access" | "refresh" | "api-base") =>
  o.kind === "user" ? `user-token:${o.slug}:${o.userId}:${kind}` : `donor-token:${o.slug}:${kind}`;

/**
 * The pair, and where its API is, sealed to the row. The API base is where the token is sent, so
 * it is sealed like the token: a row edited behind the app's back cannot send it elsewhere.
 */
function sealedPair(sealer: Sealer, owner: CredentialOwner, grant: TokenGrant) {
  return {
    access_token: sealer.seal(grant.accessToken, contextOf(owner, "access")),
    refresh_token: grant.refreshToken ? sealer.seal(grant.refreshToken, contextOf(owner, "refresh")) : null,
    expires_at: grant.expiresAt ?? null,
    api_base_url: grant.apiBaseUrl ? sealer.seal(grant.apiBaseUrl, contextOf(owner, "api-base")) : null,
  };
}

/** A new connection: replaces whatever was stored, including a pending "reconnect". */
export async function saveUserToken(db: Db, sealer: Sealer, userId: number, slug: ConnectorSlug, grant: TokenGrant, now = Date.now()): Promise<void> {
  const row = {
    ...sealedPair(sealer, { kind: "user", userId, slug }, grant),
    scope: grant.scope ?? null,
    account: grant.account ?? null,
    connected_at: now,
    refreshed_at: null,
    reconnect_reason: null,
    reconnect_at: null,
  };
  await db
    .insertInto("connector_tokens")
    .values({ user_id: userId, slug, ...row })
    .onConflict((oc) => oc.columns(["user_id", "slug"]).doUpdateSet(row))
    .execute();
}

export async function saveDonorToken(db: Db, sealer: Sealer, slug: ConnectorSlug, grant: TokenGrant, byUserId: number | null, now = Date.now()): Promise<void> {
  const row = {
    ...sealedPair(sealer, { kind: "donor", slug }, grant),
    account: grant.account ?? null,
    connected_by: byUserId,
    connected_at: now,
    refreshed_at: null,
    reconnect_reason: null,
    reconnect_at: null,
  };
  await db
    .insertInto("donor_credentials")
    .values({ slug, ...row })
    .onConflict((oc) => oc.column("slug").doUpdateSet(row))
    .execute();
}

interface CredentialRow {
  access_token: string;
  refresh_token: string | null;
  expires_at: number | null;
  account: string | null;
  connected_at: number;
  refreshed_at: number | null;
  reconnect_reason: string | null;
  reconnect_at: number | null;
  scope?: string | null;
  api_base_url: string | null;
}

/**
 * A sealed value that no longer opens (the deployment's key changed) is as good as absent: the
 * person is asked to reconnect rather than shown a failure.
 */
function opened(sealer: Sealer, owner: CredentialOwner, row: CredentialRow | undefined): StoredToken | null {
  if (!row) return null;
  try {
    return {
      accessToken: sealer.open(row.access_token, contextOf(owner, "access")),
      refreshToken: row.refresh_token ? sealer.open(row.refresh_token, contextOf(owner, "refresh")) : null,
      expiresAt: row.expires_at,
      scope: row.scope ?? null,
      account: row.account,
      connectedAt: row.connected_at,
      refreshedAt: row.refreshed_at,
      reconnect: row.reconnect_reason !== null ? { reason: row.reconnect_reason, at: row.reconnect_at ?? row.connected_at } : null,
      apiBaseUrl: row.api_base_url ? sealer.open(row.api_base_url, contextOf(owner, "api-base")) : null,
      sealedAccess: row.access_token,
    };
  } catch {
    serverLog("warn", `a stored ${owner.kind === "donor" ? "shared " : ""}${owner.slug} credential could not be opened with the current key; treating it as not connected`, { component: "connectors" });
    return null;
  }
}

/**
 * The stored credential, or null. `lock` (PostgreSQL, inside a transaction) holds the row until
 * the transaction ends, so instances sharing the database renew it one at a time.
 */
export async function readCredential(db: Db, sealer: Sealer, owner: CredentialOwner, lock = false): Promise<StoredToken | null> {
  if (owner.kind === "user") {
    const q = db.selectFrom("connector_tokens").selectAll().where("user_id", "=", owner.userId).where("slug", "=", owner.slug);
    return opened(sealer, owner, await (lock ? q.forUpdate() : q).executeTakeFirst());
  }
  const q = db.selectFrom("donor_credentials").selectAll().where("slug", "=", owner.slug);
  return opened(sealer, owner, await (lock ? q.forUpdate() : q).executeTakeFirst());
}

export const userToken = (db: Db, sealer: Sealer, userId: number, slug: ConnectorSlug) => readCredential(db, sealer, { kind: "user", userId, slug });
export const donorToken = (db: Db, sealer: Sealer, slug: ConnectorSlug) => readCredential(db, sealer, { kind: "donor", slug });

/**
 * Replaces a renewed pair in one statement, only while the row still holds `replacing` (the sealed
 * access token that was renewed). False when another renewal or a new connection came first.
 */
export async function storeRenewal(db: Db, sealer: Sealer, owner: CredentialOwner, grant: TokenGrant, replacing: string, now = Date.now()): Promise<boolean> {
  const set = { ...sealedPair(sealer, owner, grant), refreshed_at: now, reconnect_reason: null, reconnect_at: null };
  const r =
    owner.kind === "user"
      ? await db.updateTable("connector_tokens").set(set).where("user_id", "=", owner.userId).where("slug", "=", owner.slug).where("access_token", "=", replacing).executeTakeFirst()
      : await db.updateTable("donor_credentials").set(set).where("slug", "=", owner.slug).where("access_token", "=", replacing).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * Marks a credential as needing a new connection, with the reason, while the row still holds
 * `refused` (a person who reconnected in the meantime is not marked).
 */
export async function markReconnect(db: Db, owner: CredentialOwner, reason: string, refused: string, now = Date.now()): Promise<void> {
  const set = { reconnect_reason: reason.slice(0, 500), reconnect_at: now };
  if (owner.kind === "user") {
    await db.updateTable("connector_tokens").set(set).where("user_id", "=", owner.userId).where("slug", "=", owner.slug).where("access_token", "=", refused).execute();
  } else {
    await db.updateTable("donor_credentials").set(set).where("slug", "=", owner.slug).where("access_token", "=", refused).execute();
  }
}

/** Disconnecting deletes the stored token; nothing of it remains. */
export async function deleteUserToken(db: Db, userId: number, slug: ConnectorSlug): Promise<boolean> {
  const r = await db.deleteFrom("connector_tokens").where("user_id", "=", userId).where("slug", "=", slug).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** A person's connections, each with why it must be connected again (null while it works). */
export async function connectionStates(db: Db, userId: number): Promise<Map<ConnectorSlug, { reason: string; at: number } | null>> {
  const rows = await db.selectFrom("connector_tokens").select(["slug", "reconnect_reason", "reconnect_at", "connected_at"]).where("user_id", "=", userId).execute();
  return new Map(rows.map((r) => [r.slug as ConnectorSlug, r.reconnect_reason !== null ? { reason: r.reconnect_reason, at: r.reconnect_at ?? r.connected_at } : null]));
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

/**
 * Whether the stored credentials open with this key: the first sealed access token found (a
 * person's, else the shared one) is opened. A move or restore checks this before copying, since
 * sealed values travel sealed and an app given another key would find every connection gone.
 * `firstRow` gives a table's first row, so a backup file can be checked as well as a database.
 */
export async function probeSealed(
  sealer: Sealer,
  firstRow: (table: "connector_tokens" | "donor_credentials") => Promise<Record<string, unknown> | undefined>,
): Promise<{ checked: number; opened: boolean; what: string }> {
  const person = await firstRow("connector_tokens");
  if (person) {
    const owner: CredentialOwner = { kind: "user", userId: Number(person.user_id), slug: person.slug as ConnectorSlug };
    return { checked: 1, opened: opens(sealer, String(person.access_token), contextOf(owner, "access")), what: `${owner.slug} credential of user ${owner.userId}` };
  }
  const donor = await firstRow("donor_credentials");
  if (donor) {
    const owner: CredentialOwner = { kind: "donor", slug: donor.slug as ConnectorSlug };
    return { checked: 1, opened: opens(sealer, String(donor.access_token), contextOf(owner, "access")), what: `shared ${owner.slug} credential` };
  }
  return { checked: 0, opened: true, what: "no sealed credentials" };
}

function opens(sealer: Sealer, sealed: string, context: string): boolean {
  try {
    sealer.open(sealed, context);
    return true;
  } catch {
    return false;
  }
}
