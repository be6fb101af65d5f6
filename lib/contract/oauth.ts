import { z } from "zod";

// What an MCP host sends to and reads from the service's OAuth 2.1 authorization server. The
// routes (lib/signin/authorization-server/) build their answers against these types, the
// reference documents them, and tests/integration/signin/oauth.test.ts parses the real answers
// with them.

const url = (description: string) => z.string().meta({ description });
const scope = z.string().meta({ description: "Space-separated scopes; the one scope is `dashboards`" });

export const protectedResourceMetadata = z
  .object({
    resource: url("The MCP endpoint's URL: the audience every access token is bound to (RFC 8707)"),
    authorization_servers: z.array(z.string()).meta({ description: "This service's own origin: its sign-in is the authorization server" }),
    scopes_supported: z.array(z.string()),
    bearer_methods_supported: z.array(z.literal("header")).meta({ description: "Send the access token as `Authorization: Bearer …`" }),
    resource_name: z.string(),
    resource_documentation: url("The how-to for connecting a host"),
  })
  .meta({ id: "OAuthProtectedResource" });

export const authorizationServerMetadata = z
  .object({
    issuer: url("This service's origin; authorization answers carry it as `iss` (RFC 9207)"),
    authorization_endpoint: url("The consent page"),
    token_endpoint: url("Codes and refresh tokens are exchanged here"),
    registration_endpoint: url("Hosts register themselves here (RFC 7591); deprecated for hosts that can identify themselves by a Client ID Metadata Document"),
    revocation_endpoint: url("A host gives up its tokens here (RFC 7009)"),
    revocation_endpoint_auth_methods_supported: z.array(z.literal("none")),
    scopes_supported: z.array(z.string()),
    response_types_supported: z.array(z.literal("code")),
    response_modes_supported: z.array(z.literal("query")),
    grant_types_supported: z.array(z.enum(["authorization_code", "refresh_token"])),
    code_challenge_methods_supported: z.array(z.literal("S256")).meta({ description: "PKCE with S256 only; `plain` is refused" }),
    token_endpoint_auth_methods_supported: z.array(z.literal("none")).meta({ description: "Public clients: no client secrets are issued" }),
    authorization_response_iss_parameter_supported: z.literal(true),
    client_id_metadata_document_supported: z.literal(true).meta({ description: "A host may use an https URL as its `client_id`, naming its own metadata document, instead of registering" }),
    service_documentation: url("The how-to for connecting a host"),
  })
  .meta({ id: "OAuthAuthorizationServer" });

export const clientRegistration = z
  .object({
    redirect_uris: z.array(z.string()).min(1).max(5).meta({ description: "One to five: `https://…`, or `http://` to a loopback address (127.0.0.1, [::1], localhost) for a desktop host" }),
    client_name: z
      .string()
      .max(100)
      .optional()
      .meta({ description: "Shown to the person on the consent page and on /account, as written: control, bidirectional and zero-width characters are refused" }),
    client_uri: z.string().max(512).optional().meta({ description: "The host's home page, `https://…`" }),
    token_endpoint_auth_method: z.literal("none").optional(),
    grant_types: z.array(z.enum(["authorization_code", "refresh_token"])).optional(),
    response_types: z.array(z.literal("code")).optional(),
    scope: scope.optional(),
  })
  .meta({ id: "OAuthClientRegistration" });

export const registeredClient = z
  .object({
    client_id: z.string().meta({ description: "Send it as `client_id` to /oauth/authorize, /oauth/token and /oauth/revoke" }),
    client_id_issued_at: z.number().int().meta({ description: "Seconds since the epoch" }),
    client_name: z.string(),
    redirect_uris: z.array(z.string()),
    client_uri: z.string().optional(),
    token_endpoint_auth_method: z.literal("none"),
    grant_types: z.array(z.enum(["authorization_code", "refresh_token"])),
    response_types: z.array(z.literal("code")),
    scope,
  })
  .meta({ id: "OAuthRegisteredClient" });

export const authorizeQuery = z.object({
  response_type: z.literal("code"),
  client_id: z.string().meta({ description: "The `client_id` registration answered" }),
  redirect_uri: z.string().optional().meta({ description: "One of the client's registered redirect URIs, exactly; may be left out when it registered only one" }),
  code_challenge: z.string().meta({ description: "The PKCE challenge: base64url of the verifier's SHA-256" }),
  code_challenge_method: z.literal("S256"),
  state: z.string().optional().meta({ description: "Sent back unchanged with the code or the refusal" }),
  scope: scope.optional(),
  resource: z.string().optional().meta({ description: "The MCP endpoint's URL (RFC 8707)" }),
});

export const tokenRequest = z
  .object({
    grant_type: z.enum(["authorization_code", "refresh_token"]),
    client_id: z.string(),
    code: z.string().optional().meta({ description: "With `authorization_code`: the code the consent page sent to the redirect URI; used once" }),
    redirect_uri: z.string().optional().meta({ description: "With `authorization_code`: the redirect URI the code was sent to" }),
    code_verifier: z.string().optional().meta({ description: "With `authorization_code`: the PKCE verifier whose S256 hash was the `code_challenge`" }),
    refresh_token: z.string().optional().meta({ description: "With `refresh_token`: the last refresh token; each is used once and replaced" }),
    resource: z.string().optional().meta({ description: "The MCP endpoint's URL (RFC 8707); any other value is `invalid_target`" }),
    scope: scope.optional(),
  })
  .meta({ id: "OAuthTokenRequest" });

export const tokenAnswer = z
  .object({
    access_token: z.string().meta({ description: "Sent as `Authorization: Bearer …` to the MCP endpoint; lives 15 minutes" }),
    token_type: z.literal("Bearer"),
    expires_in: z.number().int().meta({ description: "Seconds the access token lives" }),
    refresh_token: z.string().meta({ description: "Exchanged once for the next pair; reusing a spent one ends the grant" }),
    scope,
  })
  .meta({ id: "OAuthTokens" });

export const revocationRequest = z
  .object({
    token: z.string().meta({ description: "An access or refresh token of this client; either ends the whole grant" }),
    client_id: z.string(),
    token_type_hint: z.enum(["access_token", "refresh_token"]).optional(),
  })
  .meta({ id: "OAuthRevocation" });

export const oauthErrorAnswer = z
  .object({
    error: z.string().meta({ description: "OAuth's own code: `invalid_request`, `invalid_client`, `invalid_grant`, `unsupported_grant_type`, `invalid_target`, `invalid_client_metadata`, `invalid_redirect_uri` or `temporarily_unavailable`" }),
    error_description: z.string().meta({ description: "What to fix, in words" }),
    hint: z.string().meta({ description: "The same words, where the service's other answers put them" }),
  })
  .meta({ id: "OAuthError" });

export type ProtectedResourceMetadata = z.infer<typeof protectedResourceMetadata>;
export type AuthorizationServerMetadata = z.infer<typeof authorizationServerMetadata>;
export type RegisteredClientAnswer = z.infer<typeof registeredClient>;
export type TokenAnswer = z.infer<typeof tokenAnswer>;
