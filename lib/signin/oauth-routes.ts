import "server-only";
import type { Sealer } from "@/lib/crypto/secrets";
import type { Db } from "@/lib/db";
import { PLAYGROUND_BASE } from "@/lib/contract/playground-limits";
import { readCookie } from "@/lib/auth/cookies";
import { csrfTokenFor } from "@/lib/auth/csrf";
import { SESSION_COOKIE, userForToken, type SessionUser } from "@/lib/auth/session";
import {
  OAUTH_SCOPE,
  OAUTH_SCOPES,
  OAuthError,
  REGISTRATION_BOUNDS,
  REGISTRATION_LIMITS,
  clientById,
  issueCode,
  parseRegistration,
  revokeByToken,
  revokeGrant,
  redeemCode,
  refreshTokens,
  registerClient,
  scopeOf,
  validChallenge,
  type RegisteredClient,
  type RegistrationBounds,
} from "@/lib/auth/oauth";
import { readBodyCapped } from "@/lib/http/body";
import { addressMatcher, clientAddress } from "@/lib/http/client-address";
import { neutralised } from "@/lib/contract/display-text";
import { RateLimiter } from "@/lib/limits/buckets";
import { defineRoute, type RouteModule } from "@/lib/http/edge";
import { trustedOrigin } from "@/lib/http/origin";
import { json } from "@/lib/http/respond";
import { humanGuard, type HumanDeps } from "@/lib/saved/human";
import type { AuthorizationServerMetadata, ProtectedResourceMetadata, RegisteredClientAnswer, TokenAnswer } from "@/lib/contract/oauth";
import { forgetTrustFromApp } from "@/lib/saved/trust";
import { createClientMetadataFetcher, isMetadataClientId, type ClientMetadataFetcher } from "@/lib/auth/client-metadata";

// The service's sign-in as the authorization server of its MCP endpoint, over HTTP:
//   /.well-known/oauth-protected-resource[/dashboards/playground/mcp]  RFC 9728, the resource's metadata
//   /.well-known/oauth-authorization-server                            RFC 8414, this server's metadata
//   POST /oauth/register                                               RFC 7591, public clients register
//                                                                      (or name a Client ID Metadata Document as client_id)
//   GET  /oauth/authorize                                              the consent page (sign-in first)
//   POST /oauth/authorize                                              the person's answer: a code, or access_denied
//   POST /oauth/token                                                  authorization_code and refresh_token
//   POST /oauth/revoke                                                 RFC 7009, a client gives up its tokens
//   POST /oauth/connected-apps                                         the person disconnects an app (/account)
// These answer OAuth's own error format, {error, error_description}, which is what every OAuth
// client reads, with the service's `hint` beside it saying the same; the rules and storage are
// lib/auth/oauth.ts.

/** Where the MCP endpoint lives; its URL at the request's origin is the resource tokens are bound to. */
const MCP_PATH = `${PLAYGROUND_BASE}/mcp`;
const PROTECTED_RESOURCE_PATH = "/.well-known/oauth-protected-resource";

interface OAuthDeps {
  db: () => Promise<Db>;
  sealer: () => Sealer;
  publicOrigin?: string;
  allowedHosts: readonly string[];
  /** Proxies whose X-Forwarded-For names the client (TRUSTED_PROXY), for the per-address allowances. */
  trustedProxy?: readonly string[];
  /** Per client address per minute; the defaults suit a person connecting a few hosts. */
  perMinute?: { register: number; token: number };
  /** How many registered clients are kept, per address and in all (OAUTH_UNAPPROVED_PER_ADDRESS, OAUTH_CLIENTS_MAX). */
  registrations?: RegistrationBounds;
  /** Where clients named by their metadata document's URL are read (OAUTH_CLIENT_METADATA_PRIVATE). */
  clientMetadata?: ClientMetadataFetcher;
}

/** The client a `client_id` names: registered here, or described by the metadata document at its URL. */
type FindClient = (db: Db, clientId: string, request: Request) => Promise<RegisteredClient | null>;

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

/** A host registers once per connection, and a token request follows a sign-in or a 15-minute expiry. */
const PER_MINUTE = { register: 10, token: 60 };

export interface OAuthRoutes {
  protectedResource: RouteModule;
  authorizationServer: RouteModule;
  register: RouteModule;
  authorize: RouteModule;
  token: RouteModule;
  /** POST /oauth/revoke: a client gives up its tokens (RFC 7009). */
  revoke: RouteModule;
  /** POST /oauth/connected-apps: the person disconnects an app from their account page. */
  connectedApps: RouteModule;
}

/** The MCP endpoint's URL as this request reached the server: the audience of its tokens. */
export function mcpResourceOf(request: Request, deps: Pick<OAuthDeps, "publicOrigin" | "allowedHosts">): string {
  return `${trustedOrigin(request, deps.publicOrigin, deps.allowedHosts)}${MCP_PATH}`;
}

/** The protected-resource metadata's URL, which a 401 from the MCP endpoint names (RFC 9728 §5.1). */
export function resourceMetadataUrlOf(request: Request, deps: Pick<OAuthDeps, "publicOrigin" | "allowedHosts">): string {
  return `${trustedOrigin(request, deps.publicOrigin, deps.allowedHosts)}${PROTECTED_RESOURCE_PATH}${MCP_PATH}`;
}

const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };
// Metadata and the token endpoint are read by browser-based clients from other origins; neither
// uses cookies, so any origin may read them.
const CORS = { "access-control-allow-origin": "*", "access-control-allow-headers": "content-type, authorization, mcp-protocol-version" };

function oauthError(err: OAuthError): Response {
  return json({ error: err.error, error_description: err.description, hint: err.description }, err.status, { ...NO_STORE, ...CORS, ...err.headers });
}

function answerOAuth(run: () => Promise<Response>): Promise<Response> {
  return run().catch((err: unknown) => {
    if (err instanceof OAuthError) return oauthError(err);
    throw err;
  });
}

/** A CORS preflight's answer, naming the one method the route takes. */
const preflight = (method: "GET" | "POST") => () =>
  new Response(null, { status: 204, headers: { ...CORS, "access-control-allow-methods": `${method}, OPTIONS`, "access-control-max-age": "600" } });

async function readBody(request: Request, type: string, max: number): Promise<string> {
  const essence = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (essence !== type) throw new OAuthError("invalid_request", `send the body as ${type}`);
  const bytes = await readBodyCapped(request, max);
  if (!bytes) throw new OAuthError("invalid_request", `the body may be at most ${max} bytes`, 413);
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new OAuthError("invalid_request", "the body is not UTF-8");
  }
}

const PARAM_MAX = 1024;

/** Parameters, each at most once (RFC 6749 §3.1) and bounded; absent ones are null. */
function paramsOf<N extends string>(search: URLSearchParams, names: readonly N[]): Record<N, string | null> {
  const out = {} as Record<N, string | null>;
  for (const name of names) {
    const all = search.getAll(name);
    if (all.length > 1) throw new OAuthError("invalid_request", `${name} was sent more than once`);
    const value = all[0] ?? null;
    if (value !== null && (value.length > PARAM_MAX || /[\u0000-\u001f\u007f]/.test(value))) {
      throw new OAuthError("invalid_request", `${name}: at most ${PARAM_MAX} characters, no control characters`);
    }
    out[name] = value === "" ? null : value;
  }
  return out;
}

export function oauthRoutes(deps: OAuthDeps): OAuthRoutes {
  const originOf = (request: Request) => trustedOrigin(request, deps.publicOrigin, deps.allowedHosts);
  const trusted = addressMatcher(deps.trustedProxy ?? []);
  const perMinute = deps.perMinute ?? PER_MINUTE;
  const limiters = { register: new RateLimiter(perMinute.register), token: new RateLimiter(perMinute.token) };
  /** Registration is open to anyone and the token endpoint takes guesses: each is held to an allowance per address. */
  const allowance = (which: keyof typeof limiters, request: Request): string => {
    const from = clientAddress(request, trusted);
    const took = limiters[which].take(from);
    if (!took.ok) throw new OAuthError("temporarily_unavailable", `too many requests from this address; try again in ${took.retryAfterSeconds} s`, 429, { "retry-after": String(took.retryAfterSeconds) });
    return from;
  };
  const human = async (): Promise<HumanDeps> => ({ db: await deps.db(), sealer: deps.sealer(), publicOrigin: deps.publicOrigin });
  const metadata = deps.clientMetadata ?? createClientMetadataFetcher({ allowPrivate: false });
  // A metadata document is fetched at most once per its caching; a fetch not yet kept takes from
  // the address's registration allowance, since it is what registering was.
  const findClient: FindClient = (db, clientId, request) =>
    isMetadataClientId(clientId) ? metadata.client(clientId, () => void allowance("register", request)) : clientById(db, clientId);

  return {
    protectedResource: defineRoute({
      params: (raw) => ({ rest: [raw.path ?? []].flat().join("/") }),
      refuse: "Read the protected resource's metadata with GET.",
      methods: (on) => ({
        GET: on({
          handle: ({ request, params }) => {
            // The root form and the path-inserted form of the MCP endpoint describe the same resource.
            if (params.rest !== "" && `/${params.rest}` !== MCP_PATH) {
              return json({ error: "not_found", hint: `The protected resource here is ${MCP_PATH}: ${PROTECTED_RESOURCE_PATH}${MCP_PATH}.` }, 404, CORS);
            }
            const origin = originOf(request);
            return json(
              {
                resource: `${origin}${MCP_PATH}`,
                authorization_servers: [origin],
                scopes_supported: [...OAUTH_SCOPES],
                bearer_methods_supported: ["header"],
                resource_name: "Dashboards",
                resource_documentation: `${origin}/docs/demo-api#mcp-hosts`,
              } satisfies ProtectedResourceMetadata,
              200,
              { ...CORS, "cache-control": "public, max-age=300" },
            );
          },
        }),
        OPTIONS: on({ handle: preflight("GET") }),
      }),
    }),

    authorizationServer: defineRoute({
      refuse: "Read the authorization server's metadata with GET.",
      methods: (on) => ({
        GET: on({
          handle: ({ request }) => {
            const origin = originOf(request);
            return json(
              {
                issuer: origin,
                authorization_endpoint: `${origin}/oauth/authorize`,
                token_endpoint: `${origin}/oauth/token`,
                registration_endpoint: `${origin}/oauth/register`,
                revocation_endpoint: `${origin}/oauth/revoke`,
                revocation_endpoint_auth_methods_supported: ["none"],
                scopes_supported: [...OAUTH_SCOPES],
                response_types_supported: ["code"],
                response_modes_supported: ["query"],
                grant_types_supported: ["authorization_code", "refresh_token"],
                code_challenge_methods_supported: ["S256"],
                token_endpoint_auth_methods_supported: ["none"],
                authorization_response_iss_parameter_supported: true,
                client_id_metadata_document_supported: true,
                service_documentation: `${origin}/docs/demo-api#mcp-hosts`,
              } satisfies AuthorizationServerMetadata,
              200,
              { ...CORS, "cache-control": "public, max-age=300" },
            );
          },
        }),
        OPTIONS: on({ handle: preflight("GET") }),
      }),
    }),

    register: defineRoute({
      refuse: "Register a client with POST and its metadata as JSON (RFC 7591).",
      methods: (on) => ({
        POST: on({
          handle: ({ request }) =>
            answerOAuth(async () => {
              const from = allowance("register", request);
              const text = await readBody(request, "application/json", REGISTRATION_LIMITS.bodyBytes).catch((err: unknown) => {
                // RFC 7591 has no invalid_request: a body that cannot be metadata is bad metadata.
                if (err instanceof OAuthError) throw new OAuthError("invalid_client_metadata", err.description, err.status);
                throw err;
              });
              let body: unknown;
              try {
                body = JSON.parse(text);
              } catch {
                throw new OAuthError("invalid_client_metadata", "the body is not JSON");
              }
              const client = await registerClient(await deps.db(), parseRegistration(body), from, deps.registrations ?? REGISTRATION_BOUNDS);
              return json(
                {
                  client_id: client.client_id,
                  client_id_issued_at: client.client_id_issued_at,
                  client_name: client.client_name,
                  redirect_uris: client.redirect_uris,
                  ...(client.client_uri ? { client_uri: client.client_uri } : {}),
                  token_endpoint_auth_method: "none",
                  grant_types: ["authorization_code", "refresh_token"],
                  response_types: ["code"],
                  scope: OAUTH_SCOPE,
                } satisfies RegisteredClientAnswer,
                201,
                { ...NO_STORE, ...CORS },
              );
            }),
        }),
        OPTIONS: on({ handle: preflight("POST") }),
      }),
    }),

    token: defineRoute({
      refuse: "Exchange a code or a refresh token with POST, as application/x-www-form-urlencoded.",
      methods: (on) => ({
        POST: on({
          handle: ({ request }) =>
            answerOAuth(async () => {
              allowance("token", request);
              if (request.headers.get("authorization")) {
                throw new OAuthError("invalid_client", "clients here are public: send client_id in the body, no client authentication", 401);
              }
              const form = new URLSearchParams(await readBody(request, "application/x-www-form-urlencoded", 8 * 1024));
              const p = paramsOf(form, ["grant_type", "client_id", "code", "redirect_uri", "code_verifier", "refresh_token", "resource", "scope"]);
              if (p.grant_type === null) throw new OAuthError("invalid_request", "grant_type is required");
              if (p.grant_type !== "authorization_code" && p.grant_type !== "refresh_token") {
                throw new OAuthError("unsupported_grant_type", "grant_type: authorization_code or refresh_token");
              }
              if (p.client_id === null) throw new OAuthError("invalid_request", "client_id is required");
              const db = await deps.db();
              const client = await findClient(db, p.client_id, request).catch((err: unknown) => {
                if (err instanceof OAuthError && err.status === 400) throw new OAuthError("invalid_client", err.description, 401);
                throw err;
              });
              if (!client) throw new OAuthError("invalid_client", "the client_id is not registered here; register again", 401);
              // A resource indicator names this server's MCP endpoint or nothing (RFC 8707 §2).
              if (p.resource !== null && p.resource !== mcpResourceOf(request, deps)) throw new OAuthError("invalid_target", `resource: the only resource here is ${mcpResourceOf(request, deps)}`);
              let tokens: TokenAnswer;
              if (p.grant_type === "authorization_code") {
                if (p.code === null) throw new OAuthError("invalid_request", "code is required");
                if (p.redirect_uri === null) throw new OAuthError("invalid_request", "redirect_uri is required");
                if (p.code_verifier === null) throw new OAuthError("invalid_request", "code_verifier is required (PKCE)");
                tokens = await redeemCode(db, { clientId: client.client_id, code: p.code, redirectUri: p.redirect_uri, codeVerifier: p.code_verifier, resource: p.resource });
              } else {
                if (p.refresh_token === null) throw new OAuthError("invalid_request", "refresh_token is required");
                tokens = await refreshTokens(db, { clientId: client.client_id, refreshToken: p.refresh_token, resource: p.resource, scope: p.scope });
              }
              return json(tokens, 200, { ...NO_STORE, ...CORS });
            }),
        }),
        OPTIONS: on({ handle: preflight("POST") }),
      }),
    }),

    revoke: defineRoute({
      refuse: "Revoke a token with POST, as application/x-www-form-urlencoded (RFC 7009).",
      methods: (on) => ({
        POST: on({
          handle: ({ request }) =>
            answerOAuth(async () => {
              allowance("token", request);
              const form = new URLSearchParams(await readBody(request, "application/x-www-form-urlencoded", 8 * 1024));
              const p = paramsOf(form, ["token", "client_id", "token_type_hint"]);
              if (p.token === null) throw new OAuthError("invalid_request", "token is required");
              if (p.client_id === null) throw new OAuthError("invalid_request", "client_id is required");
              await revokeByToken(await deps.db(), p.client_id, p.token);
              // The same answer whether the token existed or not (RFC 7009 §2.2).
              return new Response(null, { status: 200, headers: { ...NO_STORE, ...CORS } });
            }),
        }),
        OPTIONS: on({ handle: preflight("POST") }),
      }),
    }),

    connectedApps: defineRoute({
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
    }),

    authorize: defineRoute({
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
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// The authorization endpoint

const AUTHORIZE_PARAMS = ["response_type", "client_id", "redirect_uri", "state", "scope", "code_challenge", "code_challenge_method", "resource"] as const;

interface AuthorizeRequest {
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

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;color:#1f2328;background:#f6f8fa;margin:0}
main{max-width:34rem;margin:3rem auto;padding:1.5rem 2rem;background:#fff;border:1px solid #d0d7de;border-radius:8px}
h1{font-size:1.4rem;margin:.2rem 0 1rem}code{font-size:.92em;background:#f6f8fa;padding:.1em .3em;border-radius:4px;word-break:break-all}
ul{padding-left:1.2rem}.muted{color:#57606a;font-size:.9rem}.actions{display:flex;gap:.75rem;margin-top:1.5rem}
button{font:inherit;padding:.5rem 1.1rem;border-radius:6px;border:1px solid #d0d7de;background:#f6f8fa;cursor:pointer}
button.primary{background:#1f6feb;border-color:#1f6feb;color:#fff}button:focus-visible{outline:3px solid #0969da;outline-offset:2px}`;

function page(title: string, body: string, status: number, formAction: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="same-origin"><title>${escapeHtml(title)} · Dashboards</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
  return new Response(html, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      // The form posts here and is answered with a redirect to the app: Chrome holds that
      // redirect to form-action too, so the app's own origin is named beside ours.
      "content-security-policy": `default-src 'none'; style-src 'unsafe-inline'; ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    },
  });
}

function consentPage(req: AuthorizeRequest, user: SessionUser, csrf: string): Response {
  const back = new URL(req.redirectUri);
  const hidden = [
    ["csrf", csrf],
    ["response_type", "code"],
    ["client_id", req.client.client_id],
    ["redirect_uri", req.redirectUri],
    ["scope", req.scope],
    ["code_challenge", req.codeChallenge],
    ["code_challenge_method", "S256"],
    ["resource", req.resource],
    ...(req.state !== null ? [["state", req.state]] : []),
  ]
    .map(([n, v]) => `<input type="hidden" name="${n}" value="${escapeHtml(v!)}">`)
    .join("");
  // Each name the app or a provider chose is shown isolated, so not even a right-to-left one can
  // reorder the words around it; names stored before such characters were refused lose them here.
  // A host known by its metadata document is who serves that document: its host is shown, and
  // a document is only fetched from the host it names.
  const identified = isMetadataClientId(req.client.client_id)
    ? `<p>The app identifies itself by its metadata document at <code data-testid="oauth-client-host">${escapeHtml(new URL(req.client.client_id).host)}</code>.</p>`
    : `<p class="muted">The app registered itself here; nothing vouches for it but the address above.</p>`;
  const shownName = neutralised(req.client.client_name);
  const name = escapeHtml(shownName);
  const body = `<h1 id="consent-title">Connect <bdi data-testid="oauth-client-name">${name}</bdi> to Dashboards?</h1>
<p>Signed in as <strong data-testid="oauth-account"><bdi>${escapeHtml(neutralised(user.name))}</bdi></strong> (<bdi>${escapeHtml(neutralised(user.email))}</bdi>).</p>
<p>If you approve, <strong><bdi>${name}</bdi></strong> may:</p>
<ul>
<li>show your saved dashboards inside the app, on your live data (read only);</li>
<li>show dashboards by authors you trust on this site, on your live data; anyone else's it can only link to, for you to open here;</li>
<li>use the playground's draft tools as anyone can.</li>
</ul>
<p>It cannot save, change or delete anything, cannot trust an author or allow a dashboard for you, and never sees your password or session.</p>
<p>After you answer you will be sent to <code data-testid="oauth-redirect">${escapeHtml(back.origin + back.pathname)}</code>.</p>
${identified}
<p class="muted">The app's name is what it says of itself; check the address above. You can disconnect it at any time on your <a href="/account#connected-apps">account page</a>.</p>
<form method="post" action="/oauth/authorize" aria-labelledby="consent-title">${hidden}
<div class="actions"><button type="submit" name="decision" value="approve" class="primary" data-testid="oauth-approve">Approve</button><button type="submit" name="decision" value="deny" data-testid="oauth-deny">Deny</button></div>
</form>`;
  return page(`Connect ${shownName}`, body, 200, `form-action 'self' ${back.origin}`);
}
