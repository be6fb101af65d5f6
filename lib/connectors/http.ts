import "server-only";
import type { z } from "zod";

// The HTTP core every vendor client uses: the vendor's auth header, a time limit, bounded
// retries that honour each vendor's rate-limit answer (429 Retry-After by default; a client
// reads its vendor's own headers and statuses through `rateLimit`), and failures sorted into
// kinds the API can answer. A wait longer than the client will hold a request fails as
// `rate_limited` carrying how long the vendor asked for, so the API can say when to come back.

export type UpstreamFailure = "unauthorized" | "forbidden" | "not_found" | "rate_limited" | "server" | "timeout" | "network" | "bad_response";

export class UpstreamError extends Error {
  constructor(
    readonly kind: UpstreamFailure,
    message: string,
    readonly status?: number,
    /** For `rate_limited`: how long the vendor asked to wait, when it said. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = "UpstreamError";
  }
}

/**
 * A vendor's answer read as a rate limit: how long it asks to wait (null: it did not say, so back
 * off), and whether it is a rate limit or an overloaded server. Null when the answer is neither.
 */
export interface RateLimitAnswer {
  waitMs: number | null;
  kind: "rate_limited" | "server";
}
export type RateLimitReader = (res: Response, now: number) => RateLimitAnswer | null;

/** The default: 429 is a rate limit and 503 an overloaded server, each with its Retry-After. */
export const retryAfterReader: RateLimitReader = (res, now) => {
  if (res.status !== 429 && res.status !== 503) return null;
  return { waitMs: retryAfterMs(res.headers.get("retry-after"), now), kind: res.status === 429 ? "rate_limited" : "server" };
};

export interface UpstreamOptions {
  baseUrl: string;
  /** The full Authorization header value, e.g. "Bearer …" or "Basic …". */
  authorization?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** Retries after a rate limit; each waits what the vendor asked (up to maxRetryWaitMs), or a short backoff. */
  maxRetries?: number;
  maxRetryWaitMs?: number;
  /** How this vendor says "slow down" (default: 429/503 with Retry-After). */
  rateLimit?: RateLimitReader;
  /** Told of each wait before a retry, with the answer's status: a sync records what it waited on. */
  onWait?: (waitMs: number, status: number) => void;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

export interface UpstreamRequest {
  method?: "GET" | "POST";
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  form?: Record<string, string>;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Seconds or an HTTP date, as RFC 9110 allows; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export async function upstreamFetch(opts: UpstreamOptions, path: string, req: UpstreamRequest = {}): Promise<Response> {
  const url = new URL(opts.baseUrl.replace(/\/$/, "") + path);
  for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { accept: "application/json", "user-agent": "dashboards-connector/1", ...opts.headers };
  if (opts.authorization) headers.authorization = opts.authorization;
  let body: string | undefined;
  if (req.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(req.json);
  } else if (req.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(req.form).toString();
  }
  const doFetch = opts.fetch ?? fetch;
  const sleep = opts.sleep ?? defaultSleep;
  const maxRetries = opts.maxRetries ?? 2;
  const maxWait = opts.maxRetryWaitMs ?? 5_000;
  const timeoutMs = opts.timeoutMs ?? 10_000;

  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      res = await doFetch(url, { method: req.method ?? "GET", headers, body, signal: AbortSignal.timeout(timeoutMs), redirect: "error" });
    } catch (err) {
      const name = (err as { name?: string }).name;
      if (name === "TimeoutError" || name === "AbortError") throw new UpstreamError("timeout", `no answer within ${timeoutMs} ms`);
      throw new UpstreamError("network", `could not reach ${url.host}`);
    }
    if (res.ok) return res;

    const limited = (opts.rateLimit ?? retryAfterReader)(res, Date.now());
    const label = `${req.method ?? "GET"} ${url.pathname} answered ${res.status}`;
    if (limited) {
      const wait = limited.waitMs ?? 250 * 2 ** attempt;
      await res.body?.cancel();
      if (attempt < maxRetries && wait <= maxWait) {
        opts.onWait?.(wait, res.status);
        await sleep(wait);
        continue;
      }
      throw new UpstreamError(limited.kind, `${label}${limited.kind === "rate_limited" ? ` (rate limited; wait ${Math.ceil(wait / 1000)} s)` : ""}`, res.status, limited.waitMs ?? undefined);
    }
    await res.body?.cancel();
    throw new UpstreamError(kindOf(res.status), label, res.status);
  }
}

function kindOf(status: number): UpstreamFailure {
  if (status === 401) return "unauthorized";
  if (status === 403) return "forbidden";
  if (status === 404) return "not_found";
  if (status === 429) return "rate_limited";
  return "server";
}

/** Parses a vendor answer with its schema, so a changed API fails loudly as `bad_response`. */
export async function readUpstreamJson<S extends z.ZodType>(res: Response, label: string, schema: S): Promise<z.output<S>> {
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new UpstreamError("bad_response", `${label} did not answer JSON`, res.status);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UpstreamError("bad_response", `${label} answered an unexpected shape at ${issue?.path.join(".") || "(root)"}`, res.status);
  }
  return parsed.data;
}

export async function upstreamJson<S extends z.ZodType>(opts: UpstreamOptions, path: string, schema: S, req: UpstreamRequest = {}): Promise<z.output<S>> {
  return readUpstreamJson(await upstreamFetch(opts, path, req), path, schema);
}
