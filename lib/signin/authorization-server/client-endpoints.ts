import "server-only";
import { OAUTH_SCOPE, OAuthError, REGISTRATION_BOUNDS, REGISTRATION_LIMITS, parseRegistration, redeemCode, refreshTokens, registerClient, revokeByToken } from "@/lib/auth/oauth";
import type { RegisteredClientAnswer, TokenAnswer } from "@/lib/contract/oauth";
import { defineRoute, type RouteModule } from "@/lib/http/edge";
import { json } from "@/lib/http/respond";
import { CORS, NO_STORE, answerOAuth, paramsOf, preflight, readBody } from "./answers";
import { mcpResourceOf, type AuthorizationServer } from "./server";

// The endpoints a client calls itself, with no person in between: it registers, exchanges a
// code or a refresh token for tokens, and gives its tokens up. Each answers OAuth's errors.

/** POST /oauth/register: a public client registers (RFC 7591). */
export function registerRoute(server: AuthorizationServer): RouteModule {
  const { deps, allowance } = server;
  return defineRoute({
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
  });
}

/** POST /oauth/token: authorization_code and refresh_token. */
export function tokenRoute(server: AuthorizationServer): RouteModule {
  const { deps, allowance, findClient } = server;
  return defineRoute({
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
  });
}

/** POST /oauth/revoke: a client gives up its tokens (RFC 7009). */
export function revokeRoute(server: AuthorizationServer): RouteModule {
  const { deps, allowance } = server;
  return defineRoute({
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
  });
}
