import "server-only";
import { z } from "zod";
import {
  readUpstreamJson,
  retryAfterMs,
  retryAfterReader,
  upstreamFetch,
  UpstreamError,
  type RateLimitReader,
  type UpstreamOptions,
  type UpstreamRequest,
} from "@/lib/connectors/http";

// A typed client of the GitHub REST API: the authenticated user and the repositories the user
// can see. GitHub pages with the Link response header; the client follows rel="next" only
// while it stays on the API's own origin, so a tampered or misconfigured upstream cannot send
// the token anywhere else. GitHub says "slow down" with 403 as often as 429, so its rate-limit
// headers, not the status alone, tell a limit from a refusal.

/** Headers GitHub documents for every REST call; the version header pins the response shapes. */
const GITHUB_HEADERS = {
  accept: "application/vnd.github+json",
  "x-github-api-version": "2022-11-28",
} as const;

export const ghUser = z.object({
  login: z.string().min(1),
  id: z.number().optional(),
  name: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
});
export type GhUser = z.infer<typeof ghUser>;

export const ghRepo = z.object({
  id: z.number(),
  name: z.string(),
  full_name: z.string(),
  owner: z.object({ login: z.string() }),
  html_url: z.string(),
  private: z.boolean(),
  /** Null for a repository nothing was ever pushed to. */
  pushed_at: z.string().nullable(),
  description: z.string().nullable(),
  visibility: z.string().optional(),
});
export type GhRepo = z.infer<typeof ghRepo>;

const ghRepoPage = z.array(ghRepo);

const DEFAULT_PER_PAGE = 100;
/** 50 pages of 100 is far beyond any one person's repositories; the bound stops a runaway upstream. */
const MAX_PAGES = 50;

/** GitHub asks for at least a minute after a limit that names no time to wait. */
const UNNAMED_WAIT_MS = 60_000;

/** An epoch-seconds header as epoch ms, or null when absent or unreadable. */
function epochSecondsMs(header: string | null): number | null {
  return header !== null && /^\d{1,12}$/.test(header.trim()) ? Number(header.trim()) * 1000 : null;
}

/**
 * GitHub's rate limits, as its REST documentation describes them: the primary limit is a 403 or
 * 429 with `x-ratelimit-remaining: 0`, to be waited out until `x-ratelimit-reset` (epoch seconds);
 * a secondary limit is a 403 or 429 with `retry-after`, or a 429 naming nothing (wait a minute).
 * A 403 with neither is a refusal, not a limit. A 503 is an overloaded server, as for any vendor.
 */
export const githubRateLimit: RateLimitReader = (res, now) => {
  if (res.status !== 403 && res.status !== 429) return retryAfterReader(res, now);
  const after = retryAfterMs(res.headers.get("retry-after"), now);
  if (after !== null) return { waitMs: after, kind: "rate_limited" };
  if (res.headers.get("x-ratelimit-remaining")?.trim() === "0") {
    const reset = epochSecondsMs(res.headers.get("x-ratelimit-reset"));
    // The reset is to the second, and clocks differ: never ask again sooner than a second on.
    return { waitMs: reset === null ? UNNAMED_WAIT_MS : Math.max(1_000, reset - now), kind: "rate_limited" };
  }
  return res.status === 429 ? { waitMs: UNNAMED_WAIT_MS, kind: "rate_limited" } : null;
};

function withGitHubHeaders(up: UpstreamOptions): UpstreamOptions {
  return { ...up, headers: { ...up.headers, ...GITHUB_HEADERS }, rateLimit: up.rateLimit ?? githubRateLimit };
}

async function getJson<S extends z.ZodType>(
  up: UpstreamOptions,
  path: string,
  schema: S,
  req: UpstreamRequest = {},
): Promise<{ data: z.output<S>; headers: Headers }> {
  const res = await upstreamFetch(withGitHubHeaders(up), path, req);
  const label = path.split("?")[0] ?? path;
  return { data: await readUpstreamJson(res, label, schema), headers: res.headers };
}

/** The rel="next" target of an RFC 8288 Link header, or null. */
export function nextLinkOf(header: string | null): string | null {
  if (!header) return null;
  for (const m of header.matchAll(/<([^>]*)>((?:\s*;\s*[^;,]*)*)/g)) {
    const params = m[2] ?? "";
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(params);
    const rels = (rel?.[1] ?? rel?.[2] ?? "").toLowerCase().split(/\s+/);
    if (rels.includes("next")) return m[1] ?? null;
  }
  return null;
}

/**
 * Where a next link points, as an absolute URL, provided it is on the API's origin. Relative
 * links resolve against the base URL; anything on another origin is refused outright, since
 * following it would hand the bearer token to that host.
 */
export function sameOriginNext(link: string, baseUrl: string): URL {
  const base = new URL(baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`);
  let next: URL;
  try {
    next = new URL(link, base);
  } catch {
    throw new UpstreamError("bad_response", "the next-page link is not a URL");
  }
  if (next.origin !== base.origin) throw new UpstreamError("bad_response", `the next-page link leaves ${base.host}; not followed`);
  return next;
}

/** GET /user, with the OAuth scopes GitHub reports the token has (null when it sends none: a GitHub App's user token or a fine-grained token has permissions instead). */
export async function getAuthenticatedUser(up: UpstreamOptions): Promise<{ user: GhUser; scopes: string[] | null }> {
  const { data, headers } = await getJson(up, "/user", ghUser);
  const raw = headers.get("x-oauth-scopes");
  const scopes =
    raw === null
      ? null
      : raw
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean);
  return { user: data, scopes };
}

export interface ListReposOptions {
  /** Page size asked of GitHub (1–100). */
  perPage?: number;
  maxPages?: number;
}

/**
 * GET /user/repos across every page, in GitHub's pushed-desc order. Stops at `maxPages`: the
 * pages past the bound hold the least recently pushed repositories.
 */
export async function listUserRepos(up: UpstreamOptions, options: ListReposOptions = {}): Promise<GhRepo[]> {
  const perPage = Math.min(100, Math.max(1, Math.floor(options.perPage ?? DEFAULT_PER_PAGE)));
  const maxPages = options.maxPages ?? MAX_PAGES;
  const repos: GhRepo[] = [];
  const visited = new Set<string>();

  let page = await getJson(up, "/user/repos", ghRepoPage, {
    query: { affiliation: "owner,collaborator,organization_member", sort: "pushed", direction: "desc", per_page: perPage, page: 1 },
  });
  for (let n = 1; ; n++) {
    repos.push(...page.data);
    const link = nextLinkOf(page.headers.get("link"));
    if (!link || n >= maxPages) break;
    const next = sameOriginNext(link, up.baseUrl);
    if (visited.has(next.href)) throw new UpstreamError("bad_response", "the next-page link repeats an earlier page");
    visited.add(next.href);
    // The link carries its own query (page, per_page, sort…); it is sent exactly as given.
    page = await getJson({ ...up, baseUrl: next.origin }, next.pathname + next.search, ghRepoPage);
  }
  return repos;
}
