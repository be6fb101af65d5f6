import "server-only";
import { OAuthError, clientById } from "@/lib/auth/oauth";
import { addressMatcher, clientAddress } from "@/lib/http/client-address";
import { RateLimiter } from "@/lib/limits/buckets";
import type { RouteModule } from "@/lib/http/edge";
import { trustedOrigin } from "@/lib/http/origin";
import type { HumanDeps } from "@/lib/saved/human";
import { createClientMetadataFetcher, isMetadataClientId } from "@/lib/auth/client-metadata";
import { authorizeRoute, connectedAppsRoute } from "./authorization-server/authorize";
import { registerRoute, revokeRoute, tokenRoute } from "./authorization-server/client-endpoints";
import { authorizationServerRoute, protectedResourceRoute } from "./authorization-server/metadata";
import type { AuthorizationServer, FindClient, OAuthDeps } from "./authorization-server/server";

export { mcpResourceOf, resourceMetadataUrlOf } from "./authorization-server/server";

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
// lib/auth/oauth.ts. The routes are in authorization-server/: the metadata documents
// (metadata.ts), what a client calls itself (client-endpoints.ts), what the person answers
// (authorize.ts, its pages in pages.ts).

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
  const server: AuthorizationServer = { deps, originOf, allowance, findClient, human };

  return {
    protectedResource: protectedResourceRoute(server),
    authorizationServer: authorizationServerRoute(server),
    register: registerRoute(server),
    token: tokenRoute(server),
    revoke: revokeRoute(server),
    connectedApps: connectedAppsRoute(server),
    authorize: authorizeRoute(server),
  };
}
