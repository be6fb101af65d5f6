import "server-only";
import * as client from "openid-client";
import type { Config } from "@/lib/config";
import type { Db } from "@/lib/db";
import { neutralised, unsafeCharacter } from "@/lib/contract/display-text";
import { safeNextPath, trustedOrigin } from "@/lib/http/origin";
import { errorResponse, fromThrown, redirectResponse as redirect } from "@/lib/http/respond";
import { isHttps, readCookie, serializeCookie } from "@/lib/auth/cookies";
import type { AuthDeps } from "./routes";
import { SESSION_COOKIE, sessionCookie, startSession } from "@/lib/auth/session";
import { randomToken, sha256Hex } from "@/lib/auth/tokens";
import { upsertUser } from "@/lib/auth/users";
import { serverLog } from "@/lib/http/server-log";

// Sign-in with the organisation's OpenID provider: authorization code flow with PKCE, state and
// nonce. The pending flow lives server-side in auth_flows; the browser only holds a random flow
// id, and the row is deleted on first use so a callback URL can never be replayed.

export const FLOW_COOKIE = "dd_oidc_flow";
const FLOW_COOKIE_PATH = "/signin";
const FLOW_TTL_MS = 10 * 60_000;
const SCOPE = "openid email profile";
const FAILED = "/signin?error=oidc_failed";

type OidcConfig = NonNullable<Config["oidc"]>;

/**
 * The provider's discovered configuration, kept by the app (lib/root builds one per app): discovery
 * once per provider and client; a failed discovery is retried on the next sign-in.
 */
export type OidcDiscovery = (oidc: OidcConfig) => Promise<client.Configuration>;

export function newOidcDiscovery(): OidcDiscovery {
  const configurations = new Map<string, Promise<client.Configuration>>();
  return (oidc) => {
    const secret = oidc.clientSecret || undefined;
    const key = sha256Hex(JSON.stringify([oidc.issuer, oidc.clientId, secret ?? null, oidc.allowHttp]));
    let pending = configurations.get(key);
    if (!pending) {
      pending = client.discovery(
        new URL(oidc.issuer),
        oidc.clientId,
        secret,
        undefined,
        oidc.allowHttp ? { execute: [client.allowInsecureRequests] } : undefined,
      );
      configurations.set(key, pending);
      pending.catch(() => configurations.delete(key));
    }
    return pending;
  };
}

export interface OidcDeps extends AuthDeps {
  discovery: OidcDiscovery;
}

/** Throws untrusted_host for a Host the server does not believe (see trustedOrigin). */
function callbackUrl(request: Request, config: Config): string {
  return `${trustedOrigin(request, config.publicOrigin, config.allowedHosts)}/signin/callback`;
}

function flowCookie(value: string, secure: boolean, maxAgeSeconds: number): string {
  return serializeCookie(FLOW_COOKIE, value, { secure, maxAgeSeconds, path: FLOW_COOKIE_PATH });
}

function notConfigured(): Response {
  return errorResponse("not_found", "This deployment has no identity provider; sign in at /signin.");
}

/** GET /signin/oidc?next=… — starts the flow and sends the browser to the provider. */
export async function oidcStart(request: Request, deps: OidcDeps): Promise<Response> {
  const oidc = deps.config.oidc;
  if (!oidc) return notConfigured();
  let redirectUri: string;
  try {
    redirectUri = callbackUrl(request, deps.config);
  } catch (err) {
    return fromThrown(err);
  }
  const next = safeNextPath(new URL(request.url).searchParams.get("next"));

  let configuration: client.Configuration;
  try {
    configuration = await deps.discovery(oidc);
  } catch (err) {
    logFailure("provider discovery failed", err);
    // Not a redirect to /signin: with a provider configured, /signin starts here again.
    return new Response("Sign-in is unavailable: the identity provider could not be reached. Try again shortly.\n", {
      status: 503,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", "retry-after": "10" },
    });
  }

  const state = client.randomState();
  const nonce = client.randomNonce();
  const codeVerifier = client.randomPKCECodeVerifier();
  const codeChallenge = await client.calculatePKCECodeChallenge(codeVerifier);
  const flowId = randomToken(32);
  const now = Date.now();

  const db = await deps.db();
  await db.deleteFrom("auth_flows").where("expires_at", "<=", now).execute();
  await db
    .insertInto("auth_flows")
    .values({
      id_hash: sha256Hex(flowId),
      state,
      nonce,
      code_verifier: codeVerifier,
      next_path: next,
      expires_at: now + FLOW_TTL_MS,
    })
    .execute();

  const location = client.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUri,
    scope: SCOPE,
    state,
    nonce,
    code_challenge: codeChallenge,
    code_challenge_method: "S256",
  });
  const secure = isHttps(request, deps.config.publicOrigin);
  return redirect(302, location.href, [flowCookie(flowId, secure, FLOW_TTL_MS / 1000)]);
}

/** GET /signin/callback — the provider's answer; signs in and returns to the stored `next`. */
export async function oidcCallback(request: Request, deps: OidcDeps): Promise<Response> {
  const oidc = deps.config.oidc;
  if (!oidc) return notConfigured();
  let redirectUri: string;
  try {
    redirectUri = callbackUrl(request, deps.config);
  } catch (err) {
    return fromThrown(err);
  }
  const secure = isHttps(request, deps.config.publicOrigin);
  const clearFlow = flowCookie("", secure, 0);
  const fail = (reason: string, err?: unknown): Response => {
    logFailure(reason, err);
    return redirect(303, FAILED, [clearFlow]);
  };

  const flowId = readCookie(request, FLOW_COOKIE);
  if (!flowId || flowId.length > 128) return fail("no flow cookie");
  const db = await deps.db();
  const flow = await takeFlow(db, sha256Hex(flowId));
  if (!flow) return fail("unknown or already used flow");
  if (flow.expires_at <= Date.now()) return fail("flow expired");

  const answer = new URL(request.url).searchParams;
  const providerError = answer.get("error");
  if (providerError !== null) return fail(`provider answered error=${printable(providerError)}`);

  // The token request must name exactly the redirect_uri sent at the start, whatever host the
  // callback request reached us under.
  const currentUrl = new URL(redirectUri);
  currentUrl.search = answer.toString();

  let claims: Record<string, unknown>;
  try {
    const configuration = await deps.discovery(oidc);
    const tokens = await client.authorizationCodeGrant(configuration, currentUrl, {
      pkceCodeVerifier: flow.code_verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims();
    if (!idClaims) return fail("no ID token");
    claims = { ...idClaims };
    // Spec-conformant providers release scope claims only from userinfo when an access token is issued.
    if (!("email" in idClaims) || !(oidc.groupsClaim in idClaims)) {
      const info = await client.fetchUserInfo(configuration, tokens.access_token, idClaims.sub);
      claims = { ...info, ...idClaims };
    }
  } catch (err) {
    return fail("code exchange failed", err);
  }

  const identity = identityFrom(claims, oidc.groupsClaim);
  if (typeof identity === "string") return fail(identity);

  try {
    const userId = await upsertUser(db, identity);
    const { token } = await startSession(db, userId, deps.config.sessionTtlMs, readCookie(request, SESSION_COOKIE));
    return redirect(303, safeNextPath(flow.next_path), [sessionCookie(token, deps.config.sessionTtlMs, secure), clearFlow]);
  } catch (err) {
    return fail("could not record the sign-in", err);
  }
}

/** Loads and deletes the flow in one statement, so two callbacks racing cannot both use it. */
async function takeFlow(db: Db, idHash: string) {
  return db.deleteFrom("auth_flows").where("id_hash", "=", idHash).returningAll().executeTakeFirst();
}

/** The person the provider vouches for, or the reason to refuse. */
function identityFrom(
  claims: Record<string, unknown>,
  groupsClaim: string,
): { email: string; name: string; groups: string[] } | string {
  const rawEmail = claims.email;
  if (typeof rawEmail !== "string") return "no email claim";
  const email = rawEmail.trim().toLowerCase();
  if (email.length > 320 || !/^[^\s@]+@[^\s@]+$/.test(email)) return "malformed email claim";
  // The handle is the local part: one that reads as another person's must not become one.
  const unsafe = unsafeCharacter(email);
  if (unsafe) return `email claim contains ${unsafe}`;
  // Some providers send booleans as strings.
  if (claims.email_verified === false || claims.email_verified === "false") return "email not verified by the provider";

  const rawName = typeof claims.name === "string" ? neutralised(claims.name).trim() : "";
  const name = rawName && rawName.length <= 200 ? rawName : email;

  const rawGroups = claims[groupsClaim];
  let groups: string[];
  if (rawGroups === undefined || rawGroups === null) groups = [];
  else if (typeof rawGroups === "string") groups = [rawGroups];
  else if (Array.isArray(rawGroups) && rawGroups.every((g) => typeof g === "string")) groups = rawGroups;
  else return `malformed ${printable(groupsClaim)} claim`;
  groups = groups.map((g) => g.trim()).filter((g) => g.length > 0 && g.length <= 200);

  return { email, name, groups };
}

/** One log line per failed sign-in. Only error names, codes and messages: never tokens or codes. */
function logFailure(reason: string, err?: unknown): void {
  let detail = "";
  if (err instanceof Error) {
    const e = err as Error & { code?: unknown; error?: unknown };
    const code = typeof e.code === "string" ? ` ${e.code}` : "";
    const oauthError = typeof e.error === "string" ? ` error=${e.error}` : "";
    detail = `: ${e.name}${code}${oauthError}: ${e.message}`;
  } else if (err !== undefined) {
    detail = ": non-error thrown";
  }
  serverLog("warn", `sign-in failed, ${printable(reason + detail, 400)}`, { component: "oidc" });
}

/** Provider- or browser-supplied text, made safe for a single log line. */
function printable(text: string, max = 100): string {
  const clean = text.replace(/[^\x20-\x7e]/g, "?");
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}
