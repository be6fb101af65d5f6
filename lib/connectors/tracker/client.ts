import "server-only";
import { z } from "zod";
import { UpstreamError, upstreamJson, type UpstreamFailure, type UpstreamOptions } from "@/lib/connectors/http";

// Linear's GraphQL API (POST {apiUrl}/graphql). Every answer is parsed with the shape of the
// fields asked for, so a changed API fails loudly instead of yielding half-empty issues.

// ── Vendor shapes ─────────────────────────────────────────────────────────────────────────

const graphqlError = z.looseObject({
  message: z.string(),
  extensions: z.looseObject({ code: z.string().optional() }).optional(),
});

const graphqlEnvelope = z.object({
  data: z.unknown().optional(),
  errors: z.array(graphqlError).optional(),
});

const pageInfo = z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() });

function connection<T extends z.ZodType>(node: T) {
  return z.object({ nodes: z.array(node), pageInfo });
}

export const linearWorkflowState = z.object({ name: z.string(), type: z.string() });

export const linearIssue = z.object({
  id: z.string(),
  identifier: z.string(),
  title: z.string(),
  url: z.string(),
  state: linearWorkflowState,
});

export const linearUserRef = z.object({ name: z.string(), displayName: z.string() });
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

function failureOf(code: string | undefined): UpstreamFailure {
  switch (code) {
    case "AUTHENTICATION_ERROR":
      return "unauthorized";
    case "FORBIDDEN":
      return "forbidden";
    case "RATELIMITED":
      return "rate_limited";
    case "INTERNAL_SERVER_ERROR":
      return "server";
    default:
      return code?.includes("NOT_FOUND") ? "not_found" : "bad_response";
  }
}

/** One GraphQL request. Errors in a 200 answer are failures too: GraphQL reports them in the body. */
async function graphql<S extends z.ZodType>(
  up: UpstreamOptions,
  query: string,
  variables: Record<string, unknown>,
  schema: S,
): Promise<z.output<S>> {
  const answer = await upstreamJson(up, "/graphql", graphqlEnvelope, { method: "POST", json: { query, variables } });
  const first = answer.errors?.[0];
  if (first) {
    const code = first.extensions?.code;
    throw new UpstreamError(failureOf(code), `GraphQL error${code ? ` ${code}` : ""}: ${first.message}`, 200);
  }
  const parsed = schema.safeParse(answer.data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UpstreamError("bad_response", `/graphql answered an unexpected shape at data.${issue?.path.join(".") ?? ""}`, 200);
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
