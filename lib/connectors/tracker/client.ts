import "server-only";
import { z } from "zod";
import { readUpstreamJson, retryAfterReader, UpstreamError, upstreamFetch, type RateLimitReader, type UpstreamFailure, type UpstreamOptions } from "@/lib/connectors/http";
import { failureOfLinearError, linearRateLimitWait, type LinearGraphQLErrorLike } from "./linear-errors";

// Linear's GraphQL API (POST {apiUrl}/graphql). Every answer is parsed with the shape of the
// fields asked for, so a changed API fails loudly instead of yielding half-empty issues.
//
// Linear reports failures as GraphQL errors whatever the HTTP status: a rate limit or a refused
// token may come as 400 as well as 429 or 401. So an error answer is read for its errors, and
// sorted by their type and code as Linear's SDK sorts them; the status decides only when the
// answer carries no GraphQL errors (a gateway's own 429 or 503, say).

// ── Vendor shapes ─────────────────────────────────────────────────────────────────────────

const graphqlError = z.looseObject({
  message: z.string(),
  extensions: z.looseObject({ type: z.string().optional(), code: z.string().optional() }).optional(),
});

const graphqlEnvelope = z.object({
  data: z.unknown().optional(),
  errors: z.array(graphqlError).optional(),
});

const pageInfo = z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() });

function connection<T extends z.ZodType>(node: T) {
  return z.object({ nodes: z.array(node), pageInfo });
}

const linearWorkflowState = z.object({ name: z.string(), type: z.string() });

export const linearIssue = z.object({
  id: z.string(),
  identifier: z.string(),
  title: z.string(),
  url: z.string(),
  state: linearWorkflowState,
});

const linearUserRef = z.object({ name: z.string(), displayName: z.string() });
export const linearProjectRef = z.object({ id: z.string(), name: z.string() });

export const linearProjectIssue = linearIssue.extend({
  // Linear types priority as a Float; the mapping keeps only the documented 0–4 values.
  priority: z.number(),
  priorityLabel: z.string(),
  assignee: linearUserRef.nullable(),
  project: linearProjectRef.nullable(),
});

export const linearViewer = z.object({ id: z.string(), name: z.string(), email: z.string() });
export const linearOrganization = z.object({ name: z.string(), urlKey: z.string() });

export type LinearIssue = z.infer<typeof linearIssue>;
export type LinearProjectIssue = z.infer<typeof linearProjectIssue>;
export type LinearProject = z.infer<typeof linearProjectRef>;
export type LinearViewer = z.infer<typeof linearViewer>;
export type LinearOrganization = z.infer<typeof linearOrganization>;

// ── Queries ───────────────────────────────────────────────────────────────────────────────

const VIEWER_QUERY = `query Viewer {
  viewer { id name email }
  organization { name urlKey }
}`;

const ASSIGNED_ISSUES_QUERY = `query AssignedIssues($first: Int!, $after: String, $filter: IssueFilter) {
  viewer {
    assignedIssues(first: $first, after: $after, filter: $filter) {
      nodes { id identifier title url state { name type } }
      pageInfo { hasNextPage endCursor }
    }
  }
}`;

const PROJECTS_QUERY = `query Projects($first: Int!, $after: String) {
  projects(first: $first, after: $after) {
    nodes { id name }
    pageInfo { hasNextPage endCursor }
  }
}`;

const PROJECT_ISSUES_QUERY = `query ProjectIssues($first: Int!, $after: String, $filter: IssueFilter) {
  issues(first: $first, after: $after, filter: $filter) {
    nodes {
      id identifier title url priority priorityLabel
      state { name type }
      assignee { name displayName }
      project { id name }
    }
    pageInfo { hasNextPage endCursor }
  }
}`;

/** The documents this client sends, for the contract tests that validate them against Linear's schema. */
export const TRACKER_QUERIES = {
  viewer: VIEWER_QUERY,
  assignedIssues: ASSIGNED_ISSUES_QUERY,
  projects: PROJECTS_QUERY,
  projectIssues: PROJECT_ISSUES_QUERY,
} as const;

/**
 * "Assigned" means the active part of the viewer's queue, as Linear's own "My issues" view
 * shows it: finished work (completed or canceled states) would otherwise bury the open issues
 * under years of history. The filter is sent upstream so those pages are never fetched.
 */
export const CLOSED_STATE_TYPES = ["completed", "canceled"] as const;

// ── Transport ─────────────────────────────────────────────────────────────────────────────

export interface PageOptions {
  /** Nodes per request; Linear accepts up to 250. */
  pageSize?: number;
  /** Stop with an error rather than follow more pages than this. */
  maxPages?: number;
}

const DEFAULT_PAGE_SIZE = 100;
const DEFAULT_MAX_PAGES = 50;

/** Longest error answer read to sort it; Linear's are a few hundred bytes. */
const ERROR_BODY_MAX = 64 * 1024;

/** The GraphQL errors of an answer that is not 2xx, read from a copy so the HTTP core still holds the original. */
async function errorsOf(res: Response): Promise<LinearGraphQLErrorLike[]> {
  if (!(res.headers.get("content-type") ?? "").toLowerCase().includes("json") || !res.body) return [];
  const reader = res.clone().body?.getReader();
  if (!reader) return [];
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > ERROR_BODY_MAX) {
        await reader.cancel();
        return [];
      }
      chunks.push(value);
    }
    const parsed = graphqlEnvelope.safeParse(JSON.parse(Buffer.concat(chunks).toString("utf8")));
    return parsed.success ? (parsed.data.errors ?? []) : [];
  } catch {
    return [];
  }
}

interface Verdict {
  kind: UpstreamFailure;
  message: string;
}

function verdictOf(error: LinearGraphQLErrorLike): Verdict {
  const code = typeof error.extensions?.code === "string" ? error.extensions.code : undefined;
  // The vendor's message may be long; the log line needs its gist.
  return { kind: failureOfLinearError(error), message: `GraphQL error${code ? ` ${code}` : ""}: ${error.message.slice(0, 200)}` };
}

/** One GraphQL request. Errors are failures whatever the status: GraphQL reports them in the body. */
async function graphql<S extends z.ZodType>(
  up: UpstreamOptions,
  query: string,
  variables: Record<string, unknown>,
  schema: S,
): Promise<z.output<S>> {
  // What Linear said about each error answer, read before the HTTP core decides about it.
  const verdicts = new WeakMap<Response, Verdict>();
  const seen: { last: Verdict | null } = { last: null };
  const doFetch = up.fetch ?? fetch;
  const fallback: RateLimitReader = up.rateLimit ?? retryAfterReader;
  const opts: UpstreamOptions = {
    ...up,
    fetch: async (input, init) => {
      seen.last = null;
      const res = await doFetch(input, init);
      if (!res.ok) {
        const first = (await errorsOf(res))[0];
        if (first) {
          seen.last = verdictOf(first);
          verdicts.set(res, seen.last);
        }
      }
      return res;
    },
    // Linear's RATELIMITED, whatever its status, waits what its headers ask; its other errors are
    // never a rate limit, even as a 429. An answer without GraphQL errors is read by its status.
    rateLimit: (res, now) => {
      const verdict = verdicts.get(res);
      if (!verdict) return fallback(res, now);
      if (verdict.kind === "rate_limited") return { kind: "rate_limited", waitMs: linearRateLimitWait(res.headers, now) };
      return res.status === 503 ? fallback(res, now) : null;
    },
  };

  let res: Response;
  try {
    res = await upstreamFetch(opts, "/graphql", { method: "POST", json: { query, variables } });
  } catch (err) {
    // The HTTP core sorted the refusal by its status alone; Linear's error says what it was.
    const said = seen.last;
    if (err instanceof UpstreamError && said && said.kind !== "rate_limited" && err.kind !== "timeout" && err.kind !== "network") {
      throw new UpstreamError(said.kind, `${said.message} (HTTP ${err.status ?? "?"})`, err.status);
    }
    throw err;
  }
  const answer = await readUpstreamJson(res, "/graphql", graphqlEnvelope);
  const first = answer.errors?.[0];
  if (first) {
    const verdict = verdictOf(first);
    const wait = verdict.kind === "rate_limited" ? linearRateLimitWait(res.headers, Date.now()) : null;
    throw new UpstreamError(verdict.kind, verdict.message, res.status, wait ?? undefined);
  }
  const parsed = schema.safeParse(answer.data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UpstreamError("bad_response", `/graphql answered an unexpected shape at data.${issue?.path.join(".") ?? ""}`, res.status);
  }
  return parsed.data;
}

type Connection<N> = { nodes: N[]; pageInfo: z.infer<typeof pageInfo> };

/** Follows `endCursor` until the last page; a cursor that does not advance is a broken answer. */
async function collect<N>(opts: PageOptions, fetchPage: (first: number, after: string | null) => Promise<Connection<N>>): Promise<N[]> {
  const pageSize = opts.pageSize ?? DEFAULT_PAGE_SIZE;
  const maxPages = opts.maxPages ?? DEFAULT_MAX_PAGES;
  const out: N[] = [];
  const cursors = new Set<string>();
  let after: string | null = null;
  for (let page = 0; page < maxPages; page++) {
    const c = await fetchPage(pageSize, after);
    out.push(...c.nodes);
    if (!c.pageInfo.hasNextPage) return out;
    const next = c.pageInfo.endCursor;
    if (!next || cursors.has(next)) throw new UpstreamError("bad_response", "/graphql paging did not advance", 200);
    cursors.add(next);
    after = next;
  }
  throw new UpstreamError("bad_response", `/graphql answered more than ${maxPages} pages`, 200);
}

// ── Reads ─────────────────────────────────────────────────────────────────────────────────

export async function fetchViewer(up: UpstreamOptions): Promise<{ viewer: LinearViewer; organization: LinearOrganization }> {
  return graphql(up, VIEWER_QUERY, {}, z.object({ viewer: linearViewer, organization: linearOrganization }));
}

export async function fetchAssignedIssues(up: UpstreamOptions, opts: PageOptions = {}): Promise<LinearIssue[]> {
  const schema = z.object({ viewer: z.object({ assignedIssues: connection(linearIssue) }) });
  const filter = { state: { type: { nin: [...CLOSED_STATE_TYPES] } } };
  return collect(opts, async (first, after) => {
    const data = await graphql(up, ASSIGNED_ISSUES_QUERY, { first, after, filter }, schema);
    return data.viewer.assignedIssues;
  });
}

export async function fetchProjects(up: UpstreamOptions, opts: PageOptions = {}): Promise<LinearProject[]> {
  const schema = z.object({ projects: connection(linearProjectRef) });
  return collect(opts, async (first, after) => (await graphql(up, PROJECTS_QUERY, { first, after }, schema)).projects);
}

export async function fetchProjectIssues(up: UpstreamOptions, projectId: string, opts: PageOptions = {}): Promise<LinearProjectIssue[]> {
  const schema = z.object({ issues: connection(linearProjectIssue) });
  const filter = { project: { id: { eq: projectId } } };
  return collect(opts, async (first, after) => (await graphql(up, PROJECT_ISSUES_QUERY, { first, after, filter }, schema)).issues);
}
