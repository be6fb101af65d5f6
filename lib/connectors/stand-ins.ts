import "server-only";
import { connectorSlugs, type Config, type ConnectorSlug } from "@/lib/config";
import type { Sealer } from "@/lib/crypto/secrets";
import { generateTenant, referenceDateAt } from "@/demo/tenant";
import { userForRequest } from "@/lib/auth/session";
import { ApiError, type ErrorCode } from "@/lib/contract/errors";
import type { Db } from "@/lib/db";
import { readBodyCapped } from "@/lib/http/body";
import { handedOn } from "@/lib/http/edge";
import { notCrossSite } from "@/lib/http/origin";
import { errorResponse, fromThrown } from "@/lib/http/respond";
import { connectorCallbackUrl } from "./connect";
import { createCrmportalStandIn } from "./crmportal";
import { connectors } from "./registry";
import { storedOAuthMemory } from "./stand-in/memory-store";
import type { StandInCaller, StandInOAuthMemory } from "./stand-in/oauth";
import type { TokenGrant } from "./store";
import type { StandIn } from "./types";
import { serverLog } from "@/lib/http/server-log";

// The stand-ins this app serves under /stand-ins/<slug> in the embedded default: the same
// vendor clients that talk to the real products talk to these over loopback HTTP. The tenant is
// generated for today, so "the trailing 30 days" always has data.
//
// They serve demo data /api guards, so this mount is where the app says who is asking: the
// consent step sees the session (a person connects only their own account, and only back to
// this app's callback); data endpoints take only bearer tokens, which come from that flow or
// from the app minting in-process. Every refusal carries the error envelope.

interface Mounted {
  day: string;
  byslug: Record<ConnectorSlug, StandIn>;
  crmportal: StandIn;
}

/**
 * Largest request body a stand-in reads into memory. The largest the vendor clients send is a
 * batch of 1,000 ids (about 30 KB); a body is held whole while it is parsed, so it is capped.
 */
const STAND_IN_BODY_MAX = 256 * 1024;

// The tenant's day turns at noon UTC, when its clock (noon of its date) stops being in the future.
function today(): string {
  return referenceDateAt(Date.now());
}

interface StandInsDeps {
  config: Config;
  sealer: () => Sealer;
  db: () => Promise<Db>;
}

/** The app's stand-ins: mounted for today's tenant on first use, and again when the day turns. */
export interface StandIns {
  /** Every connector's stand-in. */
  all(): Record<ConnectorSlug, StandIn>;
  /** The CRM portal's stand-in, which serves both portals (customers and users). */
  crmportal(): StandIn;
  /**
   * A new grant minted in-process (the shared credentials no stand-in hands out over HTTP), or
   * null when the stand-in has no such account.
   */
  mintForConnect(slug: ConnectorSlug, email: string): TokenGrant | null;
  /** /stand-ins/<slug>/<path>. */
  serve(request: Request, slug: string, path: string): Promise<Response>;
}

export function createStandIns(deps: StandInsDeps): StandIns {
  let current: Mounted | undefined;
  // In storage: shared by every instance, and kept across the daily remounts (a grant revoked
  // before midnight stays revoked after it).
  const memory = Object.fromEntries(connectorSlugs.map((s) => [s, storedOAuthMemory(deps.db, s)])) as Record<ConnectorSlug, StandInOAuthMemory>;
  const mounted = (): Mounted => {
    const day = today();
    if (current?.day !== day) {
      const tenant = generateTenant({ scale: deps.config.demo.scale, referenceDate: day });
      const sealer = deps.sealer();
      current = {
        day,
        byslug: Object.fromEntries(
          connectorSlugs.map((s) => [s, connectors[s].createStandIn({ tenant, sealer, tokenTtlMs: deps.config.standInTokenTtlMs ?? undefined, oauthMemory: memory[s] })]),
        ) as Record<ConnectorSlug, StandIn>,
        crmportal: createCrmportalStandIn({ tenant, sealer }),
      };
    }
    return current;
  };

  /** The stand-in serving a slug in this deployment, or null (the slug uses the real product, or is off, or unknown). */
  const served = (slug: string): StandIn | null => {
    const c = deps.config;
    if (slug === "crmportal") return c.crmportal.mode === "stand-in" ? mounted().crmportal : null;
    if (!c.standIns || !(connectorSlugs as readonly string[]).includes(slug)) return null;
    return c.upstreams[slug as ConnectorSlug].mode === "stand-in" ? mounted().byslug[slug as ConnectorSlug] : null;
  };

  return {
    all: () => mounted().byslug,
    crmportal: () => mounted().crmportal,
    mintForConnect(slug, email) {
      const standIn = mounted().byslug[slug];
      if (!standIn.oauth.knows(email)) return null;
      const g = standIn.oauth.mintGrant(email);
      const up = deps.config.upstreams[slug];
      return {
        accessToken: g.access_token,
        refreshToken: g.refresh_token ?? null,
        expiresAt: g.expires_in !== undefined ? Date.now() + g.expires_in * 1000 : null,
        // What the vendor's token answer would name: the customer's API base where the app reaches the stand-in.
        apiBaseUrl: up.mode === "off" ? null : (standIn.apiBaseFor?.(up.apiUrl) ?? null),
      };
    },

    // Only while that connector uses its stand-in (per slug: a connector configured for the real
    // product answers 404, the others keep their stand-ins).
    async serve(request, slug, path) {
      const standIn = served(slug);
      if (!standIn) return errorResponse("not_found", "No stand-in is served here: this connector uses the real product, or is not configured.");

      let forwarded = request;
      if (request.method !== "GET" && request.method !== "HEAD") {
        const body = await readBodyCapped(request, STAND_IN_BODY_MAX);
        if (!body) return errorResponse("payload_too_large", `A stand-in reads bodies of at most ${STAND_IN_BODY_MAX} bytes.`);
        forwarded = handedOn(request.url, { method: request.method, headers: request.headers, body: body as Uint8Array<ArrayBuffer> });
      }

      try {
        // A Host the server does not believe is refused here (untrusted_host), before any consent.
        const caller: StandInCaller = {
          signedIn: async () => (await userForRequest(await deps.db(), request))?.email ?? null,
          callback: connectorCallbackUrl(request, deps.config, slug),
          sameSite: notCrossSite(request, deps.config.publicOrigin),
        };
        return await withEnvelope(await standIn.handle(forwarded, path, caller));
      } catch (err) {
        if (err instanceof ApiError) return fromThrown(err);
        serverLog("error", `${slug} ${request.method} ${path} failed: ${err instanceof Error ? err.message : String(err)}`, { component: "stand-in" });
        return errorResponse("internal_error", "The stand-in failed on this request.");
      }
    },
  };
}

const codeForStatus: Partial<Record<number, ErrorCode>> = {
  400: "invalid_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  413: "payload_too_large",
  429: "rate_limited",
};

/**
 * Every non-2xx answer carries the error envelope. A stand-in answers in its vendor's error
 * shape (the vendor clients read it), so an `error` code and a `hint` are added beside the
 * vendor's fields; answers that already carry the envelope, and redirects, pass unchanged.
 */
async function withEnvelope(response: Response): Promise<Response> {
  if (response.ok || (response.status >= 300 && response.status < 400)) return response;
  const text = await response.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: the text becomes the hint.
  }
  const vendor = typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const headers = new Headers(response.headers);
  headers.set("content-type", "application/json; charset=utf-8");
  if (typeof vendor.error === "string") return new Response(text, { status: response.status, headers });
  const error = codeForStatus[response.status] ?? (response.status >= 500 ? "internal_error" : "invalid_request");
  const hint = vendorMessage(vendor) ?? (text && body === null ? text.slice(0, 200) : undefined);
  return new Response(JSON.stringify({ ...vendor, error, ...(hint ? { hint } : {}) }), { status: response.status, headers });
}

/** The human message in a vendor's error body (HubSpot, GitHub, Gong, Intercom, Linear shapes). */
function vendorMessage(body: Record<string, unknown>): string | undefined {
  if (typeof body.message === "string") return body.message;
  const first = Array.isArray(body.errors) ? (body.errors[0] as unknown) : undefined;
  if (typeof first === "string") return first;
  if (typeof first === "object" && first !== null && typeof (first as { message?: unknown }).message === "string") return (first as { message: string }).message;
  return undefined;
}
