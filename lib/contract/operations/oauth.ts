import { PLAYGROUND_BASE } from "../playground";
import { authorizationServerMetadata, authorizeQuery, clientRegistration, protectedResourceMetadata, registeredClient, revocationRequest, tokenAnswer, tokenRequest } from "../oauth";
import type { SiteOperationDef } from "./types";

// The authorization server MCP hosts connect through (OAuth 2.1 against the service's sign-in).
// OAuth clients read OAuth's own error format, which the reference states per answer, so these
// list no envelope codes.

export const oauthOperations = [
  {
    id: "oauth.protectedResource",
    method: "GET",
    path: `/.well-known/oauth-protected-resource${PLAYGROUND_BASE}/mcp`,
    summary: "The MCP endpoint's protected-resource metadata (RFC 9728): the resource, its authorization server and scope",
    section: "oauth",
    description: [
      "The MCP endpoint answers a person's tool without a valid token with `401` and `WWW-Authenticate: Bearer resource_metadata=\"…\"` naming this document; a host reads it to find the authorization server. The root form, `/.well-known/oauth-protected-resource`, answers the same. Any origin may read it (CORS).",
    ],
    errors: [],
    answer: protectedResourceMetadata,
  },
  {
    id: "oauth.authorizationServer",
    method: "GET",
    path: "/.well-known/oauth-authorization-server",
    summary: "The authorization server's metadata (RFC 8414): its endpoints, grants, PKCE method and scope",
    section: "oauth",
    description: ["The service's own sign-in is the authorization server. Any origin may read it (CORS)."],
    errors: [],
    answer: authorizationServerMetadata,
  },
  {
    id: "oauth.register",
    method: "POST",
    path: "/oauth/register",
    summary: "Register an MCP host as a public OAuth client (RFC 7591)",
    section: "oauth",
    description: [
      "Deprecated for hosts that can identify themselves by a Client ID Metadata Document (an https `client_id`, below): they need not register. Open to any host, ten registrations a minute per address. Clients are public and prove themselves with PKCE: no secret is issued. A client nobody approves within a day is forgotten.",
      "No one address can use up registration for everyone. An address (an IPv6 /64) may hold 100 registered clients that nobody has approved yet (`OAUTH_UNAPPROVED_PER_ADDRESS`); past that it is answered `429` `temporarily_unavailable` with `Retry-After`, the seconds until its oldest is forgotten, and a client approved (or with a code waiting) stops counting. The server keeps 10,000 clients (`OAUTH_CLIENTS_MAX`); when full, the oldest unapproved client of the address holding the most is forgotten to make room, so a flood from many addresses pushes out its own registrations first. An approved client is never forgotten: only when every client kept is approved or being approved is the answer `503` `temporarily_unavailable`.",
      "`client_name` is shown to people as written, so control, bidirectional and zero-width characters in it (or in a redirect URI) are refused: `400` `invalid_client_metadata` naming the field and the character.",
    ],
    errors: [],
    input: clientRegistration,
    answer: registeredClient,
  },
  {
    id: "oauth.authorize",
    method: "GET",
    path: "/oauth/authorize",
    summary: "The consent page: the signed-in person lets a host show their dashboards on their data",
    section: "oauth",
    description: [
      "The host opens it in the person's browser. Signed out, the person signs in first and comes back. The page names the app, what it may do and where it sends the person back; nothing is granted until they choose Approve. A request that cannot be trusted to go back (an unknown client, a redirect URI it did not register) is shown as an error on the page and never redirected; other refusals go back to the redirect URI as `error`, with `state` and `iss`.",
      "`client_id` is either a registered client's id or, for a host identified by a Client ID Metadata Document, the https URL of that document: JSON with `client_id` equal to its own URL, `client_name` and `redirect_uris` (the registration's fields). The server fetches it from public addresses only (`OAUTH_CLIENT_METADATA_PRIVATE` allows loopback and private ones for closed networks), with no redirects, at most 5 KB within 5 s, keeps it as its `Cache-Control` says (a minute to a day, 5 minutes when it says nothing), shows the document's host on the consent page and accepts only the redirect URIs it lists. A document that cannot be used is shown as an error page saying why.",
    ],
    errors: [],
    query: authorizeQuery,
  },
  {
    id: "oauth.answer",
    method: "POST",
    path: "/oauth/authorize",
    summary: "The person's answer on the consent page: a code for the host, or access_denied",
    section: "oauth",
    description: [
      "Sent by the consent page's form, from this origin only. Approve sends the person to the redirect URI with `code` (used once, within a minute), `state` and `iss`; Deny sends `error=access_denied`.",
    ],
    errors: [],
  },
  {
    id: "oauth.token",
    method: "POST",
    path: "/oauth/token",
    summary: "Exchange a code (with its PKCE verifier) or a refresh token for tokens",
    section: "oauth",
    description: [
      "`authorization_code` redeems the consent page's code with its PKCE verifier; `refresh_token` turns the last refresh token into a new pair. Access tokens live 15 minutes and are bound to the MCP endpoint. A refresh token is used once: presenting a spent one ends the grant, as a stolen token's would. Sixty requests a minute per address.",
    ],
    errors: [],
    input: tokenRequest,
    answer: tokenAnswer,
  },
  {
    id: "oauth.revoke",
    method: "POST",
    path: "/oauth/revoke",
    summary: "A host gives up its tokens, ending its grant (RFC 7009)",
    section: "oauth",
    description: ["Either of the client's tokens ends its grant. The answer is the same `200` whether or not the token existed or was another client's, so it tells a guesser nothing."],
    errors: [],
    input: revocationRequest,
  },
  {
    id: "oauth.disconnect",
    method: "POST",
    path: "/oauth/connected-apps",
    summary: "Disconnect an app from your account",
    section: "oauth",
    description: [
      "Sent by the Connected apps list on `/account`, from this origin only, with the form field `grant`: the app's tokens stop working at once. The person's other apps are untouched.",
    ],
    errors: [],
  },
] as const satisfies readonly SiteOperationDef[];
