import "server-only";
import { z } from "zod";
import type { Config } from "@/lib/config";
import { UpstreamError } from "./http";
import type { ConnectorDef } from "./types";
import { serverLog } from "@/lib/http/server-log";

// A vendor's OAuth token endpoint, as the client: the code exchange when a person connects, and
// the refresh grant that renews a credential. The client authenticates the way the vendor asks
// (HTTP Basic or form fields). Nothing here retries: a refresh token may be good only once, so a
// request that might have reached the vendor is never sent a second time.

const tokenAnswer = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().optional(),
  expires_in: z.coerce.number().positive().optional(),
  scope: z.string().optional(),
});

/** RFC 6749 §5.2's error body; the stand-ins add `hint` beside it. */
const tokenError = z.object({ error: z.string().max(200), error_description: z.string().optional(), hint: z.string().optional() });

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: number | null;
  scope: string | null;
  /** Where this customer's API is, when the vendor names it (the connector's `apiBaseField`); else null. */
  apiBaseUrl: string | null;
}

/**
 * A vendor-named API base, or null when it is not one the app will send a token to: an absolute
 * URL without credentials, query or fragment, over https — or over http only when the token
 * endpoint itself is (a stand-in on loopback), so a vendor reached over TLS cannot downgrade it.
 */
export function namedApiBase(value: unknown, tokenUrl: URL): string | null {
  if (typeof value !== "string" || value.length > 2_048) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  const scheme = url.protocol === "https:" || (url.protocol === "http:" && tokenUrl.protocol === "http:");
  if (!scheme || url.username || url.password || url.search || url.hash) return null;
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

/** The vendor said no (400 or 401, or GitHub's 200 with `error`): the grant is gone, not the network. */
export class TokenRefused extends Error {
  constructor(
    readonly code: string,
    readonly description: string | null,
  ) {
    super(description ? `${code}: ${description}` : code);
    this.name = "TokenRefused";
  }
}

export async function requestTokens(
  config: Pick<Config, "upstreams" | "connectorTimeoutMs">,
  def: Pick<ConnectorDef, "slug" | "tokenAuth" | "apiBaseField">,
  fields: Record<string, string>,
  now = Date.now(),
): Promise<IssuedTokens> {
  const up = config.upstreams[def.slug];
  if (up.mode === "off") throw new UpstreamError("not_found", `${def.slug} is not configured`);
  const form = new URLSearchParams(fields);
  const headers: Record<string, string> = { accept: "application/json", "content-type": "application/x-www-form-urlencoded", "user-agent": "dashboards-connector/1" };
  if (def.tokenAuth === "body") {
    form.set("client_id", up.clientId);
    form.set("client_secret", up.clientSecret);
  } else {
    headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(up.clientId)}:${encodeURIComponent(up.clientSecret)}`).toString("base64")}`;
  }
  const url = new URL(up.tokenUrl);
  let res: Response;
  try {
    res = await fetch(url, { method: "POST", headers, body: form.toString(), signal: AbortSignal.timeout(config.connectorTimeoutMs), redirect: "error" });
  } catch (err) {
    const name = (err as { name?: string }).name;
    if (name === "TimeoutError" || name === "AbortError") throw new UpstreamError("timeout", `no answer within ${config.connectorTimeoutMs} ms`);
    throw new UpstreamError("network", `could not reach ${url.host}`);
  }
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  const refused = tokenError.safeParse(body);
  const refusal = () => {
    const description = refused.success ? (refused.data.error_description ?? refused.data.hint ?? null) : null;
    return new TokenRefused(refused.success ? refused.data.error : `http_${res.status}`, description?.slice(0, 300) ?? null);
  };
  if (res.status === 400 || res.status === 401) throw refusal();
  if (!res.ok) throw new UpstreamError(res.status === 429 ? "rate_limited" : "server", `POST ${url.pathname} answered ${res.status}`, res.status);
  const parsed = tokenAnswer.safeParse(body);
  // GitHub refuses a grant with 200 and `error` (bad_refresh_token, bad_verification_code) in
  // place of a token: the grant is as gone as after a 400, not a failure to try again.
  if (!parsed.success && refused.success) throw refusal();
  if (!parsed.success) throw new UpstreamError("bad_response", `POST ${url.pathname} answered an unexpected shape`, res.status);
  const grant = parsed.data;
  let apiBaseUrl: string | null = null;
  if (def.apiBaseField) {
    const named = (body as Record<string, unknown>)[def.apiBaseField];
    apiBaseUrl = namedApiBase(named, url);
    // The vendor has issued (and, for a refresh, rotated) the pair: it is kept either way, and
    // the read goes where the credential went before rather than where a bad answer says.
    if (named !== undefined && apiBaseUrl === null) serverLog("warn", `${def.slug}: the token answer's ${def.apiBaseField} is not a usable URL; ignored`, { component: "connectors" });
  }
  return {
    accessToken: grant.access_token,
    refreshToken: grant.refresh_token ?? null,
    expiresAt: grant.expires_in ? now + grant.expires_in * 1000 : null,
    scope: grant.scope ?? null,
    apiBaseUrl,
  };
}
