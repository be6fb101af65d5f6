import "server-only";
import type { z } from "zod";

// The HTTP core every vendor client uses: the vendor's auth header, a time limit, bounded
// retries that honour 429 Retry-After, and failures sorted into kinds the API can answer.

export type UpstreamFailure = "unauthorized" | "forbidden" | "not_found" | "rate_limited" | "server" | "timeout" | "network" | "bad_response";

export class UpstreamError extends Error {
  constructor(
    readonly kind: UpstreamFailure,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "UpstreamError";
  }
}

export interface UpstreamOptions {
  baseUrl: string;
  /** The full Authorization header value, e.g. "Bearer …" or "Basic …". */
  authorization?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** Retries after a 429 or 503; each waits Retry-After (capped), or a short backoff. */
  maxRetries?: number;
  maxRetryWaitMs?: number;
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

    const retryable = res.status === 429 || res.status === 503;
    if (retryable && attempt < maxRetries) {
      const wait = retryAfterMs(res.headers.get("retry-after")) ?? 250 * 2 ** attempt;
      if (wait <= maxWait) {
        await res.body?.cancel();
        await sleep(wait);
        continue;
      }
    }
    await res.body?.cancel();
    throw new UpstreamError(kindOf(res.status), `${req.method ?? "GET"} ${url.pathname} answered ${res.status}`, res.status);
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
