import "server-only";
import { createHash } from "node:crypto";
import type { Config, ConnectorSlug } from "@/lib/config";
import type { Sealer } from "@/lib/crypto/secrets";
import type { Db } from "@/lib/db";
import { randomToken, sha256Hex } from "@/lib/auth/tokens";
import type { SessionUser } from "@/lib/auth/session";
import { notCrossSite, trustedOrigin } from "@/lib/http/origin";
import { errorResponse, fromThrown, redirectResponse } from "@/lib/http/respond";
import { deleteDonorToken, deleteUserToken, saveDonorToken, saveUserToken, setCallsOptIn, type TokenGrant } from "./store";
import { requestTokens, type IssuedTokens } from "./token-endpoint";
import type { ConnectorDef } from "./types";
import { serverLog } from "@/lib/http/server-log";

// Connecting an outside system: the OAuth 2.0 authorization-code flow (with PKCE) as the
// client, against the vendor or its stand-in. A pending flow is stored hashed, bound to the
// signed-in person, and used once.

export interface ConnectDeps {
  db: Db;
  sealer: Sealer;
  config: Config;
  user: SessionUser | null;
  connector: ConnectorDef | undefined;
  /** Drops the person's cached reads of this connector. */
  invalidate(userId: number, slug: ConnectorSlug): void;
  /**
   * Mints a stand-in's token in-process, or null when the stand-in has no such account. Shared
   * credentials of stand-ins are issued this way: no stand-in hands them out over HTTP.
   */
  mintStandIn?(slug: ConnectorSlug, email: string): TokenGrant | null;
}

const FLOW_TTL_MS = 10 * 60_000;
const back = (query: string) => redirectResponse(303, `/connections?${query}`);

function guard(request: Request, deps: ConnectDeps, purpose: "user" | "donor"): Response | null {
  if (!deps.user) return redirectResponse(303, `/signin?next=${encodeURIComponent("/connections")}`);
  if (!notCrossSite(request, deps.config.publicOrigin)) return errorResponse("forbidden", "Use the buttons on /connections.");
  if (!deps.connector) return errorResponse("not_found", "No such connector.");
  if (purpose === "donor" && (deps.connector.credential !== "donor" || !deps.user.permissions.includes("calls.donor.manage"))) {
    return errorResponse("forbidden", "Only an admin connects the shared credential.");
  }
  if (purpose === "user" && deps.connector.credential !== "user") return errorResponse("not_found", "This connector uses a shared credential.");
  return null;
}

/**
 * This app's callback for a connector: the only redirect a stand-in's consent step accepts.
 * Throws untrusted_host for a Host the server does not believe (see trustedOrigin).
 */
export function connectorCallbackUrl(request: Request, config: Config, slug: string): string {
  return `${trustedOrigin(request, config.publicOrigin, config.allowedHosts)}/connections/${slug}/callback`;
}

/** POST /connections/<slug>/connect (or …/donor/connect): sends the browser to the vendor's consent page. */
export async function startConnect(request: Request, deps: ConnectDeps, purpose: "user" | "donor"): Promise<Response> {
  const refused = guard(request, deps, purpose);
  if (refused) return refused;
  let origin: string;
  let redirectUri: string;
  try {
    origin = trustedOrigin(request, deps.config.publicOrigin, deps.config.allowedHosts);
    redirectUri = connectorCallbackUrl(request, deps.config, deps.connector!.slug);
  } catch (err) {
    return fromThrown(err);
  }
  const def = deps.connector!;
  const user = deps.user!;
  const up = deps.config.upstreams[def.slug];
  if (up.mode === "off") return back(`error=not_configured&slug=${def.slug}`);
  if (purpose === "donor" && up.mode === "stand-in") return connectStandInDonor(deps, def.slug, user);

  const state = randomToken(32);
  const verifier = randomToken(32);
  const now = Date.now();
  await deps.db.deleteFrom("connect_flows").where("expires_at", "<=", now).execute();
  await deps.db
    .insertInto("connect_flows")
    .values({ id_hash: sha256Hex(state), user_id: user.id, slug: def.slug, purpose, code_verifier: verifier, expires_at: now + FLOW_TTL_MS })
    .execute();

  const authorize = new URL(up.authorizeUrl ?? `${origin}/stand-ins/${def.slug}/oauth/authorize`);
  authorize.searchParams.set("client_id", up.clientId);
  authorize.searchParams.set("redirect_uri", redirectUri);
  authorize.searchParams.set("response_type", "code");
  authorize.searchParams.set("scope", def.scope);
  authorize.searchParams.set("state", state);
  authorize.searchParams.set("code_challenge", createHash("sha256").update(verifier).digest("base64url"));
  authorize.searchParams.set("code_challenge_method", "S256");
  authorize.searchParams.set("login_hint", user.email);
  return redirectResponse(303, authorize.toString());
}

/** GET /connections/<slug>/callback: exchanges the code and stores the sealed token. */
export async function finishConnect(request: Request, deps: ConnectDeps): Promise<Response> {
  if (!deps.user) return redirectResponse(303, `/signin?next=${encodeURIComponent("/connections")}`);
  const def = deps.connector;
  if (!def) return errorResponse("not_found", "No such connector.");
  let redirectUri: string;
  try {
    redirectUri = connectorCallbackUrl(request, deps.config, def.slug);
  } catch (err) {
    return fromThrown(err);
  }
  const q = new URL(request.url).searchParams;
  const state = q.get("state") ?? "";
  const flow = state
    ? await deps.db.deleteFrom("connect_flows").where("id_hash", "=", sha256Hex(state)).returningAll().executeTakeFirst()
    : undefined;
  if (!flow || flow.user_id !== deps.user.id || flow.slug !== def.slug || flow.expires_at <= Date.now()) {
    return back(`error=flow_invalid&slug=${def.slug}`);
  }
  if (q.get("error")) return back(`error=${q.get("error") === "access_denied" ? "denied" : "vendor_error"}&slug=${def.slug}`);
  const up = deps.config.upstreams[def.slug];
  if (up.mode === "off") return back(`error=not_configured&slug=${def.slug}`);

  let stored: IssuedTokens;
  try {
    stored = await requestTokens(deps.config, def, {
      grant_type: "authorization_code",
      code: q.get("code") ?? "",
      redirect_uri: redirectUri,
      code_verifier: flow.code_verifier,
    });
  } catch (err) {
    serverLog("error", `${def.slug} token exchange failed: ${(err as Error).message}`, { component: "connect" });
    return back(`error=token_exchange&slug=${def.slug}`);
  }
  stored.scope ??= def.scope;
  if (flow.purpose === "donor") await saveDonorToken(deps.db, deps.sealer, def.slug, stored, deps.user.id);
  else await saveUserToken(deps.db, deps.sealer, deps.user.id, def.slug, stored);
  deps.invalidate(deps.user.id, def.slug);
  return back(`connected=${def.slug}`);
}

/** The shared credential of a stand-in, minted in-process for the admin connecting it. */
async function connectStandInDonor(deps: ConnectDeps, slug: ConnectorSlug, user: SessionUser): Promise<Response> {
  const grant = deps.mintStandIn?.(slug, user.email) ?? null;
  if (!grant) return back(`error=vendor_error&slug=${slug}`);
  const def = deps.connector!;
  await saveDonorToken(deps.db, deps.sealer, slug, { ...grant, scope: def.scope, account: user.email }, user.id);
  deps.invalidate(user.id, slug);
  return back(`connected=${slug}`);
}

/** POST /connections/<slug>/disconnect (or …/donor/disconnect): deletes the stored token. */
export async function disconnect(request: Request, deps: ConnectDeps, purpose: "user" | "donor"): Promise<Response> {
  const refused = guard(request, deps, purpose);
  if (refused) return refused;
  const def = deps.connector!;
  if (purpose === "donor") await deleteDonorToken(deps.db, def.slug);
  else await deleteUserToken(deps.db, deps.user!.id, def.slug);
  deps.invalidate(deps.user!.id, def.slug);
  return back(`disconnected=${def.slug}`);
}

/** POST /connections/calls/opt-in with form field `optIn` = 1 or 0. */
export async function optIn(request: Request, deps: ConnectDeps): Promise<Response> {
  if (!deps.user) return redirectResponse(303, `/signin?next=${encodeURIComponent("/connections")}`);
  if (!notCrossSite(request, deps.config.publicOrigin)) return errorResponse("forbidden", "Use the switch on /connections.");
  let value: string;
  try {
    value = String((await request.formData()).get("optIn") ?? "");
  } catch {
    return errorResponse("invalid_form", "Send optIn=1 or optIn=0 as a form.");
  }
  if (value !== "1" && value !== "0") return errorResponse("invalid_form", "Send optIn=1 or optIn=0.");
  await setCallsOptIn(deps.db, deps.user.id, value === "1");
  deps.invalidate(deps.user.id, "calls");
  return back(value === "1" ? "optedIn=calls" : "optedOut=calls");
}
