import "server-only";
import { createHash } from "node:crypto";
import type { ExpressionBuilder } from "kysely";
import type { Db } from "@/lib/db";
import type { Database } from "@/lib/db/schema";
import { neutralised, unsafeCharacter } from "@/lib/contract/display-text";
import { constantTimeEqual, randomToken, sha256Hex } from "./tokens";

// The service's authorization server for its MCP endpoint (OAuth 2.1 as the MCP authorization
// specification profiles it): public clients that register themselves (RFC 7591), the
// authorization code with PKCE S256 only, codes and tokens bound to one resource (RFC 8707),
// refresh tokens that rotate, and opaque access tokens stored as digests. The HTTP side is
// lib/signin/oauth-routes.ts and lib/signin/authorization-server/; this module holds the rules
// and the storage, so every rule can be tested against both engines without a server.
//
// Replays end the grant: a code redeemed twice, or a refresh token used after it was rotated,
// means two parties hold it, and the RFC 9700 answer is to revoke what it issued.

/** The one scope: show the person's saved dashboards, and others' they allow, on their data. */
export const OAUTH_SCOPE = "dashboards";
export const OAUTH_SCOPES = [OAUTH_SCOPE] as const;

export const CODE_TTL_MS = 60_000;
export const ACCESS_TTL_MS = 15 * 60_000;
const REFRESH_TTL_MS = 30 * 24 * 3600_000;

/** Bounds on what an unauthenticated registration may store. */
export const REGISTRATION_LIMITS = { redirectUris: 5, uriChars: 512, nameChars: 100, bodyBytes: 8 * 1024 } as const;

/**
 * How many registered clients are kept (OAUTH_UNAPPROVED_PER_ADDRESS, OAUTH_CLIENTS_MAX).
 * Registration is open to anyone, so no one source may use up what everyone shares: an address
 * (an IPv6 /64) holds at most `perAddress` registrations nobody has approved, and when `total`
 * is reached an unapproved registration of the address holding the most makes room, its oldest
 * first. A client someone approved is never forgotten to make room.
 */
export interface RegistrationBounds {
  perAddress: number;
  total: number;
}

export const REGISTRATION_BOUNDS: RegistrationBounds = { perAddress: 100, total: 10_000 };
/** Registered clients with nothing approved are forgotten after a day. */
const UNUSED_CLIENT_MS = 24 * 3600_000;
/** Clients forgotten to make room by one registration, when a lowered total left more than one too many. */
const EVICT_AT_ONCE = 100;

const ACCESS_PREFIX = "dd_at_";
const REFRESH_PREFIX = "dd_rt_";

/** An OAuth error response (RFC 6749 §5.2, RFC 7591 §3.2.2): the code, words for a developer, the status. */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(`${error}: ${description}`);
  }
}

interface ClientMetadata {
  client_name: string;
  redirect_uris: string[];
  client_uri: string | null;
}

export interface RegisteredClient extends ClientMetadata {
  client_id: string;
  client_id_issued_at: number;
}

const isLoopbackHost = (hostname: string) => hostname === "127.0.0.1" || hostname === "[::1]" || hostname === "localhost";

/**
 * Why a redirect URI cannot be registered, or null when it can: an absolute https URL, or http on
 * the loopback interface (a native app's listener, RFC 8252 §7.3); no fragment, no credentials.
 * Anything else could hand a code to someone who merely sees the traffic, or to another app.
 */
export function redirectUriProblem(value: unknown): string | null {
  if (typeof value !== "string") return "each redirect URI must be a string";
  if (value.length === 0 || value.length > REGISTRATION_LIMITS.uriChars) return `each redirect URI must be 1–${REGISTRATION_LIMITS.uriChars} characters`;
  const unsafe = unsafeCharacter(value);
  if (unsafe) return `a redirect URI may not contain ${unsafe}`;
  if (/\s/.test(value)) return "a redirect URI may not contain spaces";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `not an absolute URL: ${JSON.stringify(value.slice(0, 80))}`;
  }
  if (url.hash !== "" || value.includes("#")) return "a redirect URI may not have a fragment";
  if (url.username !== "" || url.password !== "") return "a redirect URI may not carry credentials";
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:" && isLoopbackHost(url.hostname)) return null;
  return "use https, or http on a loopback address (127.0.0.1, [::1], localhost)";
}

/** Text the consent page and /account show as the client says it: refused when it could show something else. */
function displayText(value: unknown, field: string, max: number): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") throw new OAuthError("invalid_client_metadata", `${field} must be a string`);
  const unsafe = unsafeCharacter(value);
  if (unsafe) throw new OAuthError("invalid_client_metadata", `${field} may not contain ${unsafe}: people read it on the consent page, and it must read as it is`);
  const text = value.trim();
  if (text.length > max) throw new OAuthError("invalid_client_metadata", `${field} may be at most ${max} characters`);
  return text || null;
}

function listOf(value: unknown, field: string, allowed: readonly string[]): void {
  if (value === undefined) return;
  if (!Array.isArray(value) || value.length > 8 || !value.every((v) => typeof v === "string" && allowed.includes(v))) {
    throw new OAuthError("invalid_client_metadata", `${field} may list only ${allowed.join(", ")}`);
  }
}

/** A registration request's metadata, checked: what is stored, or the OAuth error to answer. */
export function parseRegistration(body: unknown): ClientMetadata {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new OAuthError("invalid_client_metadata", "send the client metadata as a JSON object");
  const m = body as Record<string, unknown>;
  const uris = m.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0) throw new OAuthError("invalid_redirect_uri", "redirect_uris: list at least one redirect URI");
  if (uris.length > REGISTRATION_LIMITS.redirectUris) throw new OAuthError("invalid_redirect_uri", `redirect_uris: at most ${REGISTRATION_LIMITS.redirectUris}`);
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthError("invalid_redirect_uri", `redirect_uris: ${problem}`);
  }
  const method = m.token_endpoint_auth_method;
  if (method !== undefined && method !== "none") {
    throw new OAuthError("invalid_client_metadata", "token_endpoint_auth_method: only \"none\" (a public client using PKCE); this server issues no client secrets");
  }
  listOf(m.grant_types, "grant_types", ["authorization_code", "refresh_token"]);
  listOf(m.response_types, "response_types", ["code"]);
  if (m.scope !== undefined) {
    if (typeof m.scope !== "string" || m.scope.length > 200 || !m.scope.split(" ").every((s) => s === "" || (OAUTH_SCOPES as readonly string[]).includes(s))) {
      throw new OAuthError("invalid_client_metadata", `scope: the scopes are ${OAUTH_SCOPES.join(" ")}`);
    }
  }
  const clientUri = displayText(m.client_uri, "client_uri", REGISTRATION_LIMITS.uriChars);
  if (clientUri !== null && !/^https:\/\/[^\s]+$/.test(clientUri)) throw new OAuthError("invalid_client_metadata", "client_uri: an https URL");
  return {
    client_name: displayText(m.client_name, "client_name", REGISTRATION_LIMITS.nameChars) ?? "An unnamed app",
    redirect_uris: [...new Set(uris as string[])],
    client_uri: clientUri,
  };
}

/** A client nobody has approved: no grant, and no code waiting to be exchanged for one. */
const unapproved = (now: number) => (eb: ExpressionBuilder<Database, "oauth_clients">) =>
  eb.and([
    eb.not(eb.exists(eb.selectFrom("oauth_grants").select("id").whereRef("oauth_grants.client_id", "=", "oauth_clients.client_id"))),
    eb.not(eb.exists(eb.selectFrom("oauth_codes").select("code_hash").whereRef("oauth_codes.client_id", "=", "oauth_clients.client_id").where("oauth_codes.expires_at", ">", now))),
  ]);

/**
 * Stores a client registered from `from` (the address key the allowances use). Clients nobody
 * approved within a day are forgotten first; then the bounds hold (RegistrationBounds).
 */
export async function registerClient(db: Db, metadata: ClientMetadata, from: string, bounds: RegistrationBounds = REGISTRATION_BOUNDS, now = Date.now()): Promise<RegisteredClient> {
  await db.deleteFrom("oauth_clients").where("created_at", "<", now - UNUSED_CLIENT_MS).where(unapproved(now)).execute();
  const mine = await db
    .selectFrom("oauth_clients")
    .select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.min("created_at").as("oldest")])
    .where("registered_from", "=", from)
    .where(unapproved(now))
    .executeTakeFirstOrThrow();
  if (Number(mine.n) >= bounds.perAddress) {
    // The oldest of them is forgotten a day after it was made, and frees a place.
    const seconds = Math.max(1, Math.ceil((Number(mine.oldest) + UNUSED_CLIENT_MS - now) / 1000));
    throw new OAuthError(
      "temporarily_unavailable",
      `this address already has ${Number(mine.n)} registered clients that nobody has approved (at most ${bounds.perAddress}); finish connecting one of them, or register again in ${seconds} s, when the oldest is forgotten`,
      429,
      { "retry-after": String(seconds) },
    );
  }
  const { n } = await db.selectFrom("oauth_clients").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  if (Number(n) >= bounds.total && (await makeRoom(db, Number(n) - bounds.total + 1, now)) === 0) {
    throw new OAuthError("temporarily_unavailable", `this server keeps ${bounds.total} registered clients and every one of them is in use; its operator can raise the limit`, 503);
  }
  const client_id = `dd_client_${randomToken(18)}`;
  await db
    .insertInto("oauth_clients")
    .values({ client_id, client_name: metadata.client_name, redirect_uris: JSON.stringify(metadata.redirect_uris), client_uri: metadata.client_uri, created_at: now, registered_from: from })
    .execute();
  return { ...metadata, client_id, client_id_issued_at: Math.floor(now / 1000) };
}

/**
 * Forgets up to `count` unapproved clients of the address that holds the most (the one whose
 * oldest is oldest, between equals), oldest first; answers how many went. A flood from many
 * addresses pushes out its own registrations before anyone else's, so a person who registered a
 * moment ago keeps theirs while they approve it.
 */
async function makeRoom(db: Db, count: number, now: number): Promise<number> {
  const heaviest = await db
    .selectFrom("oauth_clients")
    .select((eb) => ["registered_from", eb.fn.countAll<number>().as("n"), eb.fn.min("created_at").as("oldest")])
    .where(unapproved(now))
    .groupBy("registered_from")
    .orderBy("n", "desc")
    .orderBy("oldest", "asc")
    .limit(1)
    .executeTakeFirst();
  if (!heaviest) return 0;
  const oldest = db
    .selectFrom("oauth_clients")
    .select("client_id")
    .where("registered_from", "=", heaviest.registered_from)
    .where(unapproved(now))
    .orderBy("created_at")
    .orderBy("client_id")
    .limit(Math.min(count, EVICT_AT_ONCE));
  const gone = await db.deleteFrom("oauth_clients").where("client_id", "in", oldest).where(unapproved(now)).executeTakeFirst();
  return Number(gone.numDeletedRows);
}

export async function clientById(db: Db, clientId: string): Promise<RegisteredClient | null> {
  if (clientId.length === 0 || clientId.length > 64) return null;
  const row = await db.selectFrom("oauth_clients").selectAll().where("client_id", "=", clientId).executeTakeFirst();
  if (!row) return null;
  return {
    client_id: row.client_id,
    client_name: row.client_name,
    redirect_uris: JSON.parse(row.redirect_uris) as string[],
    client_uri: row.client_uri,
    client_id_issued_at: Math.floor(Number(row.created_at) / 1000),
  };
}

// ---------------------------------------------------------------------------------------------
// PKCE (RFC 7636), S256 only: "plain" would hand the verifier to whoever sees the request.

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function validChallenge(challenge: string): boolean {
  return CHALLENGE.test(challenge);
}

function s256(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}

export function pkceMatches(verifier: string, challenge: string): boolean {
  return VERIFIER.test(verifier) && CHALLENGE.test(challenge) && constantTimeEqual(s256(verifier), challenge);
}

/** A requested scope, checked: the scopes asked for (the default when none), or invalid_scope. */
export function scopeOf(requested: string | null): string {
  if (requested === null || requested.trim() === "") return OAUTH_SCOPE;
  const asked = [...new Set(requested.trim().split(/ +/))];
  if (asked.length > 8 || !asked.every((s) => (OAUTH_SCOPES as readonly string[]).includes(s))) {
    throw new OAuthError("invalid_scope", `the scopes are: ${OAUTH_SCOPES.join(" ")}`);
  }
  return asked.sort().join(" ");
}

// ---------------------------------------------------------------------------------------------
// Codes, grants and tokens

interface CodeRequest {
  clientId: string;
  userId: number;
  redirectUri: string;
  codeChallenge: string;
  scope: string;
  resource: string;
}

export async function issueCode(db: Db, req: CodeRequest, now = Date.now()): Promise<string> {
  const code = randomToken(32);
  await db.deleteFrom("oauth_codes").where("expires_at", "<", now - CODE_TTL_MS).execute();
  await db
    .insertInto("oauth_codes")
    .values({
      code_hash: sha256Hex(code),
      client_id: req.clientId,
      user_id: req.userId,
      redirect_uri: req.redirectUri,
      code_challenge: req.codeChallenge,
      scope: req.scope,
      resource: req.resource,
      expires_at: now + CODE_TTL_MS,
      used_at: null,
      grant_id: null,
    })
    .execute();
  return code;
}

/** The token response (RFC 6749 §5.1). */
interface TokenSet {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  scope: string;
}

interface TokenLifetimes {
  accessMs: number;
  refreshMs: number;
}

const defaultLifetimes: TokenLifetimes = { accessMs: ACCESS_TTL_MS, refreshMs: REFRESH_TTL_MS };

const invalidGrant = (why: string) => new OAuthError("invalid_grant", why);

type Tx = Parameters<Parameters<ReturnType<Db["transaction"]>["execute"]>[0]>[0];

async function issueTokens(tx: Tx, grantId: string, scope: string, now: number, life: TokenLifetimes): Promise<TokenSet> {
  const access = ACCESS_PREFIX + randomToken(32);
  const refresh = REFRESH_PREFIX + randomToken(32);
  await tx
    .insertInto("oauth_tokens")
    .values([
      { token_hash: sha256Hex(access), grant_id: grantId, kind: "access", expires_at: now + life.accessMs, used_at: null },
      { token_hash: sha256Hex(refresh), grant_id: grantId, kind: "refresh", expires_at: now + life.refreshMs, used_at: null },
    ])
    .execute();
  await tx.updateTable("oauth_grants").set({ used_at: now }).where("id", "=", grantId).execute();
  return { access_token: access, token_type: "Bearer", expires_in: Math.floor(life.accessMs / 1000), refresh_token: refresh, scope };
}

async function revokeInside(tx: Tx, grantId: string, now: number): Promise<void> {
  await tx.updateTable("oauth_grants").set({ revoked_at: now }).where("id", "=", grantId).where("revoked_at", "is", null).execute();
  await tx.deleteFrom("oauth_tokens").where("grant_id", "=", grantId).execute();
}

interface CodeRedemption {
  clientId: string;
  code: string;
  redirectUri: string;
  codeVerifier: string;
  /** The resource the token request names; null when it names none (the code's own applies). */
  resource: string | null;
}

/**
 * The authorization_code grant. The code is claimed before anything else is compared, so a code
 * presented with a wrong verifier is spent too: whoever holds a stolen code gets one try, and the
 * client that was meant to have it starts over.
 */
export async function redeemCode(db: Db, r: CodeRedemption, now = Date.now(), life = defaultLifetimes): Promise<TokenSet> {
  if (r.code.length === 0 || r.code.length > 128) throw invalidGrant("the code is not one this server issued");
  const hash = sha256Hex(r.code);
  const outcome = await db.transaction().execute(async (tx) => {
    const row = await tx.selectFrom("oauth_codes").selectAll().where("code_hash", "=", hash).executeTakeFirst();
    if (!row) return { error: invalidGrant("the code is not one this server issued, or it has expired") };
    if (row.used_at !== null) {
      if (row.grant_id !== null) await revokeInside(tx, row.grant_id, now);
      return { error: invalidGrant("the code was already used; the tokens issued for it are revoked") };
    }
    const claimed = await tx.updateTable("oauth_codes").set({ used_at: now }).where("code_hash", "=", hash).where("used_at", "is", null).executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) {
      // Redeemed by a request that ran at the same moment: a replay all the same. On PostgreSQL
      // this statement sees what that one committed, the grant it made included.
      const now2 = await tx.selectFrom("oauth_codes").select("grant_id").where("code_hash", "=", hash).executeTakeFirst();
      if (now2?.grant_id) await revokeInside(tx, now2.grant_id, now);
      return { error: invalidGrant("the code was already used; the tokens issued for it are revoked") };
    }
    if (Number(row.expires_at) <= now) return { error: invalidGrant("the code has expired; authorize again") };
    if (row.client_id !== r.clientId) return { error: invalidGrant("the code was issued to another client") };
    if (row.redirect_uri !== r.redirectUri) return { error: invalidGrant("redirect_uri differs from the one the code was issued for") };
    if (r.resource !== null && r.resource !== row.resource) return { error: new OAuthError("invalid_target", "resource differs from the one the code was issued for") };
    if (!pkceMatches(r.codeVerifier, row.code_challenge)) return { error: invalidGrant("code_verifier does not match the code_challenge (S256)") };
    const grantId = randomToken(18);
    await tx
      .insertInto("oauth_grants")
      .values({ id: grantId, client_id: row.client_id, user_id: Number(row.user_id), scope: row.scope, resource: row.resource, created_at: now, used_at: now, revoked_at: null })
      .execute();
    await tx.updateTable("oauth_codes").set({ grant_id: grantId }).where("code_hash", "=", hash).execute();
    return { tokens: await issueTokens(tx, grantId, row.scope, now, life) };
  });
  // Thrown after the transaction, so the code's claim and a replay's revocation are kept.
  if ("error" in outcome) throw outcome.error;
  return outcome.tokens;
}

interface RefreshRequest {
  clientId: string;
  refreshToken: string;
  resource: string | null;
  scope: string | null;
}

/** The refresh_token grant: a new pair for the old refresh token, which is spent; reusing it revokes the grant. */
export async function refreshTokens(db: Db, r: RefreshRequest, now = Date.now(), life = defaultLifetimes): Promise<TokenSet> {
  if (!r.refreshToken.startsWith(REFRESH_PREFIX) || r.refreshToken.length > 128) throw invalidGrant("the refresh token is not one this server issued");
  const hash = sha256Hex(r.refreshToken);
  const outcome = await db.transaction().execute(async (tx) => {
    const row = await tx
      .selectFrom("oauth_tokens")
      .innerJoin("oauth_grants", "oauth_grants.id", "oauth_tokens.grant_id")
      .select(["oauth_tokens.expires_at", "oauth_tokens.used_at", "oauth_grants.id as grant_id", "oauth_grants.client_id", "oauth_grants.scope", "oauth_grants.resource", "oauth_grants.revoked_at"])
      .where("oauth_tokens.token_hash", "=", hash)
      .where("oauth_tokens.kind", "=", "refresh")
      .executeTakeFirst();
    if (!row || row.revoked_at !== null) return { error: invalidGrant("the refresh token is unknown or its grant was revoked; authorize again") };
    if (row.client_id !== r.clientId) return { error: invalidGrant("the refresh token was issued to another client") };
    if (row.used_at !== null) {
      await revokeInside(tx, row.grant_id, now);
      return { error: invalidGrant("the refresh token was already used; the grant is revoked, authorize again") };
    }
    if (Number(row.expires_at) <= now) return { error: invalidGrant("the refresh token has expired; authorize again") };
    if (r.resource !== null && r.resource !== row.resource) return { error: new OAuthError("invalid_target", "resource differs from the grant's") };
    let scope = row.scope;
    if (r.scope !== null && r.scope.trim() !== "") {
      const asked = scopeOf(r.scope);
      if (!asked.split(" ").every((s) => row.scope.split(" ").includes(s))) return { error: new OAuthError("invalid_scope", "a refresh may narrow the scope, never widen it") };
      scope = asked;
    }
    const claimed = await tx.updateTable("oauth_tokens").set({ used_at: now }).where("token_hash", "=", hash).where("used_at", "is", null).executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) {
      await revokeInside(tx, row.grant_id, now);
      return { error: invalidGrant("the refresh token was already used; the grant is revoked") };
    }
    // The spent access tokens of the grant stay valid until they expire; expired rows go.
    await tx.deleteFrom("oauth_tokens").where("grant_id", "=", row.grant_id).where("expires_at", "<=", now).execute();
    return { tokens: await issueTokens(tx, row.grant_id, scope, now, life) };
  });
  if ("error" in outcome) throw outcome.error;
  return outcome.tokens;
}

interface BearerIdentity {
  userId: number;
  grantId: string;
  clientId: string;
  scope: string;
}

/** Who an access token speaks for, when it is current, unrevoked and issued for `resource`; else null. */
export async function bearerIdentity(db: Db, token: string, resource: string, now = Date.now()): Promise<BearerIdentity | null> {
  if (!token.startsWith(ACCESS_PREFIX) || token.length > 128) return null;
  const row = await db
    .selectFrom("oauth_tokens")
    .innerJoin("oauth_grants", "oauth_grants.id", "oauth_tokens.grant_id")
    .select(["oauth_tokens.expires_at", "oauth_grants.id", "oauth_grants.user_id", "oauth_grants.client_id", "oauth_grants.scope", "oauth_grants.resource", "oauth_grants.revoked_at"])
    .where("oauth_tokens.token_hash", "=", sha256Hex(token))
    .where("oauth_tokens.kind", "=", "access")
    .executeTakeFirst();
  if (!row || row.revoked_at !== null || Number(row.expires_at) <= now || row.resource !== resource) return null;
  return { userId: Number(row.user_id), grantId: row.id, clientId: row.client_id, scope: row.scope };
}

/**
 * RFC 7009: a client gives up a token it holds; the grant it belongs to ends, access and refresh
 * tokens alike. A token that is unknown, or another client's, changes nothing, and the caller
 * learns nothing either way.
 */
export async function revokeByToken(db: Db, clientId: string, token: string, now = Date.now()): Promise<void> {
  if (token.length === 0 || token.length > 128) return;
  await db.transaction().execute(async (tx) => {
    const row = await tx
      .selectFrom("oauth_tokens")
      .innerJoin("oauth_grants", "oauth_grants.id", "oauth_tokens.grant_id")
      .select(["oauth_grants.id", "oauth_grants.client_id"])
      .where("oauth_tokens.token_hash", "=", sha256Hex(token))
      .executeTakeFirst();
    if (row && row.client_id === clientId) await revokeInside(tx, row.id, now);
  });
}

interface ConnectedApp {
  grantId: string;
  clientName: string;
  scope: string;
  /** ISO 8601 */
  since: string;
  lastUsed: string;
}

/** The apps a person has approved and not revoked, most recently used first. */
export async function connectedApps(db: Db, userId: number): Promise<ConnectedApp[]> {
  const rows = await db
    .selectFrom("oauth_grants")
    .innerJoin("oauth_clients", "oauth_clients.client_id", "oauth_grants.client_id")
    .select(["oauth_grants.id", "oauth_clients.client_name", "oauth_grants.scope", "oauth_grants.created_at", "oauth_grants.used_at"])
    .where("oauth_grants.user_id", "=", userId)
    .where("oauth_grants.revoked_at", "is", null)
    .orderBy("oauth_grants.used_at", "desc")
    .limit(100)
    .execute();
  return rows.map((r) => ({
    grantId: r.id,
    // Names stored before such characters were refused are shown without them.
    clientName: neutralised(r.client_name),
    scope: r.scope,
    since: new Date(Number(r.created_at)).toISOString(),
    lastUsed: new Date(Number(r.used_at)).toISOString(),
  }));
}

/** Ends one of the person's grants: its tokens stop working at once. Revoking what is gone is not an error. */
export async function revokeGrant(db: Db, userId: number, grantId: string, now = Date.now()): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const row = await tx.selectFrom("oauth_grants").select("id").where("id", "=", grantId).where("user_id", "=", userId).executeTakeFirst();
    if (row) await revokeInside(tx, row.id, now);
  });
}
