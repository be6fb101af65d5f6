import "server-only";
import type { Sealer } from "@/lib/crypto/secrets";
import type { Db } from "@/lib/db";
import { PLAYGROUND_BASE } from "@/lib/contract/playground-limits";
import type { RegisteredClient, RegistrationBounds } from "@/lib/auth/oauth";
import type { ClientMetadataFetcher } from "@/lib/auth/client-metadata";
import { trustedOrigin } from "@/lib/http/origin";
import type { HumanDeps } from "@/lib/saved/human";

// What the authorization server's routes share: their dependencies, and the resource they
// guard.

/** Where the MCP endpoint lives; its URL at the request's origin is the resource tokens are bound to. */
export const MCP_PATH = `${PLAYGROUND_BASE}/mcp`;
export const PROTECTED_RESOURCE_PATH = "/.well-known/oauth-protected-resource";

export interface OAuthDeps {
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
export type FindClient = (db: Db, clientId: string, request: Request) => Promise<RegisteredClient | null>;

/** One authorization server's state, built once by oauthRoutes and read by each route. */
export interface AuthorizationServer {
  deps: OAuthDeps;
  /** The request's origin, as the service names itself there. */
  originOf: (request: Request) => string;
  /** Takes from the address's allowance for registering or for the token endpoint; the address, or a 429 OAuthError. */
  allowance: (which: "register" | "token", request: Request) => string;
  findClient: FindClient;
  /** What the person's own forms (consent, disconnecting) are checked with. */
  human: () => Promise<HumanDeps>;
}

/** The MCP endpoint's URL as this request reached the server: the audience of its tokens. */
export function mcpResourceOf(request: Request, deps: Pick<OAuthDeps, "publicOrigin" | "allowedHosts">): string {
  return `${trustedOrigin(request, deps.publicOrigin, deps.allowedHosts)}${MCP_PATH}`;
}

/** The protected-resource metadata's URL, which a 401 from the MCP endpoint names (RFC 9728 §5.1). */
export function resourceMetadataUrlOf(request: Request, deps: Pick<OAuthDeps, "publicOrigin" | "allowedHosts">): string {
  return `${trustedOrigin(request, deps.publicOrigin, deps.allowedHosts)}${PROTECTED_RESOURCE_PATH}${MCP_PATH}`;
}
