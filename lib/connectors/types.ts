import type { ConnectorSlug } from "@/lib/config";
import type { Sealer } from "@/lib/crypto/secrets";
import type { Tenant } from "@/demo/tenant";
import type { UpstreamOptions } from "./http";
import type { Faults } from "./stand-in/faults";
import type { StandInCaller, StandInOAuth, StandInOAuthMemory } from "./stand-in/oauth";

/** What a read-only probe found: a one-line summary and facts from the live call. */
export interface ProbeResult {
  summary: string;
  details: { label: string; value: string }[];
}

/** A local stand-in of a vendor's API, serving the demo tenant in the vendor's shapes. */
export interface StandIn {
  readonly oauth: StandInOAuth;
  readonly faults: Faults;
  /**
   * `path` is relative to the stand-in's base (e.g. "/graphql", "/oauth/token"). `caller` is
   * who the app that mounts the stand-in sees signed in; without it nobody can give consent.
   */
  handle(request: Request, path: string, caller?: StandInCaller): Promise<Response>;
  /**
   * Where the vendor's token answer says a customer's API is, for this stand-in mounted at
   * `mount` (Gong's per-customer base). Absent: the API is at the mount itself.
   */
  apiBaseFor?(mount: string): string;
}

export interface StandInDeps {
  tenant: Tenant;
  sealer: Sealer;
  /**
   * Access-token lifetime for the stand-ins whose vendor expires tokens, instead of that vendor's
   * own (STAND_IN_TOKEN_TTL_MS; short in tests and the token benchmark). Intercom's tokens never
   * expire, so its stand-in ignores this.
   */
  tokenTtlMs?: number;
  /** The stand-in's clock (tests move it to expire tokens). */
  now?: () => number;
  /** What its OAuth server remembers, kept across the app's daily remounts. */
  oauthMemory?: StandInOAuthMemory;
}

export interface ConnectorDef {
  slug: ConnectorSlug;
  title: string;
  /** The product whose API the connector speaks. */
  product: string;
  /** "user": each person connects their own account; "donor": one shared credential. */
  credential: "user" | "donor";
  scope: string;
  /** How the token endpoint takes the client's credentials. */
  tokenAuth: "body" | "basic";
  /**
   * The token answer's field that names where this customer's API is (Gong:
   * `api_base_url_for_customer`), kept with the credential and renewed with it. Absent: the API
   * is at the configured URL.
   */
  apiBaseField?: string;
  /** The header value a token is sent with. */
  authorization(accessToken: string): string;
  /** What the probe does, in words (shown in the connection check's `probe`). */
  probeDescription: string;
  probe(upstream: UpstreamOptions): Promise<ProbeResult>;
  createStandIn(deps: StandInDeps): StandIn;
}
