import "server-only";
import type { Db } from "@/lib/db";
import { readCookie } from "@/lib/auth/cookies";
import { csrfTokenFor } from "@/lib/auth/csrf";
import { SESSION_COOKIE, userForToken, type SessionUser } from "@/lib/auth/session";
import { OAuthError, issueCode, revokeGrant, scopeOf, validChallenge, type RegisteredClient } from "@/lib/auth/oauth";
import { isMetadataClientId } from "@/lib/auth/client-metadata";
import { defineRoute, type RouteModule } from "@/lib/http/edge";
import { humanGuard } from "@/lib/saved/human";
import { forgetTrustFromApp } from "@/lib/saved/trust";
import { paramsOf, readBody } from "./answers";
import { consentPage, escapeHtml, page } from "./pages";
import { MCP_PATH, mcpResourceOf, type AuthorizationServer, type FindClient, type OAuthDeps } from "./server";

// The person's side: the authorization endpoint, where they approve an app or decline it, and
// the account page's form that disconnects one.

/** GET /oauth/authorize shows the consent page (sign-in first); POST is the person's answer. */
export function authorizeRoute(server: AuthorizationServer): RouteModule {
  const { deps, originOf, findClient, human } = server;
  return defineRoute({
    refuse: "Open the authorization page with GET; the page answers with POST.",
    methods: (on) => ({
      GET: on({
        handle: ({ request, url }) => authorizePage(request, url.searchParams, deps, originOf(request), findClient),
      }),
      POST: on({
        guard: async (request) => humanGuard(request, await human(), "approve an app"),
        handle: async ({ request, who }) => {
          const form = new URLSearchParams(await readBody(request, "application/x-www-form-urlencoded", 16 * 1024).catch(() => ""));
          return authorizeAnswer(form, who, deps, originOf(request), request, findClient);
        },
      }),
    }),
  });
}

/** POST /oauth/connected-apps: the person disconnects an app from their account page. */
export function connectedAppsRoute(server: AuthorizationServer): RouteModule {
  const { deps, human } = server;
  return defineRoute({
    refuse: "Disconnect an app with the form on your account page.",
    methods: (on) => ({
      POST: on({
        guard: async (request) => humanGuard(request, await human(), "disconnect an app"),
        handle: async ({ request, who }) => {
          const form = new URLSearchParams(await readBody(request, "application/x-www-form-urlencoded", 16 * 1024).catch(() => ""));
          const grant = form.get("grant") ?? "";
          if (grant.length > 0 && grant.length <= 64) {
            const db = await deps.db();
            // Before its grant ends, while it still names when the app was connected.
            await forgetTrustFromApp(db, who.id, grant);
            await revokeGrant(db, who.id, grant);
          }
          return new Response(null, { status: 303, headers: { location: "/account#connected-apps", "cache-control": "no-store" } });
        },
      }),
    }),
  });
}

/** A client known by its metadata document is kept as a row once someone approves it: codes and grants name it. */
async function keepMetadataClient(db: Db, client: RegisteredClient): Promise<void> {
  const fields = { client_name: client.client_name, redirect_uris: JSON.stringify(client.redirect_uris), client_uri: client.client_uri };
  await db
    .insertInto("oauth_clients")
    .values({ client_id: client.client_id, ...fields, created_at: Date.now(), registered_from: METADATA_SOURCE })
    .onConflict((oc) => oc.column("client_id").doUpdateSet(fields))
    .execute();
}
const METADATA_SOURCE = "metadata-document";

const AUTHORIZE_PARAMS = ["response_type", "client_id", "redirect_uri", "state", "scope", "code_challenge", "code_challenge_method", "resource"] as const;

export interface AuthorizeRequest {
  client: RegisteredClient;
  redirectUri: string;
  state: string | null;
  scope: string;
  codeChallenge: string;
  resource: string;
}

/** A refusal shown to the person (the client or its redirect URI cannot be trusted with a redirect). */
class ShownRefusal extends Error {}
/** A refusal sent back to the client at its redirect URI (RFC 6749 §4.1.2.1). */
class RedirectedRefusal extends Error {
  constructor(
    readonly redirectUri: string,
    readonly state: string | null,
    readonly err: OAuthError,
  ) {
    super(err.message);
  }
}

async function checkAuthorize(search: URLSearchParams, db: Db, resourceHere: string, request: Request, findClient: FindClient): Promise<AuthorizeRequest> {
  let p: Record<(typeof AUTHORIZE_PARAMS)[number], string | null>;
  try {
    p = paramsOf(search, AUTHORIZE_PARAMS);
  } catch (err) {
    throw new ShownRefusal(err instanceof OAuthError ? err.description : "The request is malformed.");
  }
  if (p.client_id === null) throw new ShownRefusal("The app sent no client_id.");
  let client: RegisteredClient | null;
  try {
    client = await findClient(db, p.client_id, request);
  } catch (err) {
    if (err instanceof OAuthError && err.status !== 429) throw new ShownRefusal(`The app's metadata document cannot be used: ${err.description}.`);
    if (err instanceof OAuthError) throw new ShownRefusal(`Too many apps were looked up from this address: ${err.description}.`);
    throw err;
  }
  if (!client) throw new ShownRefusal("The app is not registered here (unknown client_id). It should register again.");
  let redirectUri: string;
  if (p.redirect_uri === null) {
    if (client.redirect_uris.length !== 1) throw new ShownRefusal("The app sent no redirect_uri, and it registered several.");
    redirectUri = client.redirect_uris[0]!;
  } else if (client.redirect_uris.includes(p.redirect_uri)) {
    redirectUri = p.redirect_uri;
  } else {
    throw new ShownRefusal(
      isMetadataClientId(client.client_id)
        ? "The app asked to be sent back to an address its metadata document does not list. Nothing was sent to it."
        : "The app asked to be sent back to an address it did not register. Nothing was sent to it.",
    );
  }
  const back = (error: string, description: string) => new RedirectedRefusal(redirectUri, p.state ?? null, new OAuthError(error, description));
  if (p.state !== null && p.state.length > 512) throw back("invalid_request", "state: at most 512 characters");
  if (p.response_type !== "code") throw back("unsupported_response_type", "response_type: code");
  if (p.code_challenge === null) throw back("invalid_request", "code_challenge is required: PKCE with S256");
  if (p.code_challenge_method !== "S256") throw back("invalid_request", "code_challenge_method: S256 (plain is refused)");
  if (!validChallenge(p.code_challenge)) throw back("invalid_request", "code_challenge: the base64url SHA-256 of the verifier, 43 characters");
  let scope: string;
  try {
    scope = scopeOf(p.scope);
  } catch (err) {
    throw back("invalid_scope", err instanceof OAuthError ? err.description : "unknown scope");
  }
  if (p.resource !== null && p.resource !== resourceHere) throw back("invalid_target", `resource: the only resource here is ${resourceHere}`);
  return { client, redirectUri, state: p.state ?? null, scope, codeChallenge: p.code_challenge, resource: resourceHere };
}

function redirectBack(redirectUri: string, params: Record<string, string | null>): Response {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
  return new Response(null, { status: 303, headers: { location: url.href, "cache-control": "no-store" } });
}

async function authorizePage(request: Request, search: URLSearchParams, deps: OAuthDeps, origin: string, findClient: FindClient): Promise<Response> {
  const db = await deps.db();
  let req: AuthorizeRequest;
  try {
    req = await checkAuthorize(search, db, `${origin}${MCP_PATH}`, request, findClient);
  } catch (err) {
    return refusalAnswer(err, origin);
  }
  const token = readCookie(request, SESSION_COOKIE);
  const user = token ? await userForToken(db, token) : null;
  if (!token || !user) {
    const here = `/oauth/authorize?${search.toString()}`;
    return new Response(null, { status: 303, headers: { location: `/signin?next=${encodeURIComponent(here)}`, "cache-control": "no-store" } });
  }
  return consentPage(req, user, csrfTokenFor(deps.sealer(), token));
}

async function authorizeAnswer(form: URLSearchParams, user: SessionUser, deps: OAuthDeps, origin: string, request: Request, findClient: FindClient): Promise<Response> {
  const decision = form.get("decision");
  const search = new URLSearchParams();
  for (const name of AUTHORIZE_PARAMS) for (const v of form.getAll(name)) search.append(name, v);
  const db = await deps.db();
  let req: AuthorizeRequest;
  try {
    req = await checkAuthorize(search, db, mcpResourceOf(request, deps), request, findClient);
  } catch (err) {
    return refusalAnswer(err, origin);
  }
  if (decision !== "approve") {
    return redirectBack(req.redirectUri, { error: "access_denied", error_description: "The person declined.", state: req.state, iss: origin });
  }
  if (isMetadataClientId(req.client.client_id)) await keepMetadataClient(db, req.client);
  const code = await issueCode(db, { clientId: req.client.client_id, userId: user.id, redirectUri: req.redirectUri, codeChallenge: req.codeChallenge, scope: req.scope, resource: req.resource });
  return redirectBack(req.redirectUri, { code, state: req.state, iss: origin });
}

function refusalAnswer(err: unknown, origin: string): Response {
  if (err instanceof RedirectedRefusal) {
    return redirectBack(err.redirectUri, { error: err.err.error, error_description: err.err.description, state: err.state, iss: origin });
  }
  if (err instanceof ShownRefusal) return page("This app cannot connect", `<h1>This app cannot connect</h1><p role="alert">${escapeHtml(err.message)}</p><p><a href="/">Back to Dashboards</a></p>`, 400, "form-action 'none'");
  throw err;
}
