import "server-only";
import {
  execute,
  getOperationAST,
  GraphQLError,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  parse,
  responsePathAsArray,
  validate,
  type DocumentNode,
  type GraphQLFieldResolver,
  type GraphQLOutputType,
  type GraphQLResolveInfo,
  type GraphQLTypeResolver,
} from "graphql";
import { z } from "zod";
import { Faults } from "@/lib/connectors/stand-in/faults";
import { StandInOAuth, type StandInCaller } from "@/lib/connectors/stand-in/oauth";
import type { StandIn, StandInDeps } from "@/lib/connectors/types";
import { LINEAR_ERRORS, type LinearErrorKind } from "./linear-errors";
import { standInLinearSchema } from "./schema";
import { trackerWorld, uuidFrom, ORGANIZATION, type IssueRec, type PersonRec, type ProjectRec, type StateRec, type TeamRec, type TrackerWorld } from "./stand-in-data";
import { FilterNotEmulated, issueFilter, matcher, projectFilter, stateFilter, teamFilter, userFilter, type Build, type FilterEnv } from "./stand-in-filters";
import { LinearRateLimits, queryComplexity } from "./stand-in-limits";
import { serverLog } from "@/lib/http/server-log";

// A stand-in of Linear's GraphQL API serving the demo tenant's tracker. Queries are executed by
// graphql-js against Linear's published schema (schema.ts), so fragments, aliases, variables,
// directives and __typename behave as they do at Linear, and a document Linear would refuse is
// refused here in Linear's words. Resolvers answer the tenant's users, teams, workflow states,
// projects and issues; any other field answers null where the schema allows it and otherwise a
// neutral value of its type (an empty list, zero, false, an empty string, the tenant's clock), so
// a query Linear's SDK makes never breaks on a field the demo has no data for.

/** Linear's user access tokens live about a day and come with a refresh token that rotates. */
const LINEAR_TOKEN_TTL_MS = 24 * 3_600_000;

/** Linear's page size: 50 unless asked, at most 250. */
const DEFAULT_PAGE = 50;
const MAX_PAGE = 250;

/** Parsed and validated documents kept per stand-in: clients send the same few over and over. */
const PREPARED_MAX = 100;
const PREPARED_QUERY_MAX_CHARS = 100_000;

const ANONYMOUS = "(anonymous)";

// ── Linear's error answers ────────────────────────────────────────────────────────────────

const USER_ERRORS: ReadonlySet<LinearErrorKind> = new Set(["invalidInput", "graphql", "parse", "badRequest"]);

function linearError(kind: LinearErrorKind, message: string, userPresentableMessage = message): GraphQLError {
  const e = LINEAR_ERRORS[kind];
  return new GraphQLError(message, {
    extensions: { type: e.type, code: e.code, statusCode: e.statusCode, userError: USER_ERRORS.has(kind), userPresentableMessage },
  });
}

interface ErrorJson {
  message: string;
  locations?: readonly { line: number; column: number }[];
  path?: readonly (string | number)[];
  extensions: Record<string, unknown>;
}

/** One error as Linear sends it; anything the stand-in did not mean to throw is an internal error, without its details. */
function errorJson(err: GraphQLError): ErrorJson {
  const ext = err.extensions;
  const ours = typeof ext.code === "string" && typeof ext.type === "string";
  if (!ours) serverLog("warn", `internal error: ${err.message}`, { component: "tracker stand-in" });
  const shown = ours ? err : linearError("internal", "Internal server error");
  return {
    message: shown.message,
    ...(err.locations ? { locations: err.locations } : {}),
    ...(err.path ? { path: err.path } : {}),
    extensions: { ...shown.extensions },
  };
}

function statusOf(errors: readonly ErrorJson[]): number {
  const s = errors[0]?.extensions.statusCode;
  return typeof s === "number" && s >= 400 && s < 600 ? s : 400;
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8", ...headers } });
}

function errorAnswer(status: number, errors: readonly GraphQLError[], headers: Record<string, string> = {}): Response {
  return json(status, { errors: errors.map(errorJson), data: null }, headers);
}

// ── Faults in Linear's own words ──────────────────────────────────────────────────────────

/**
 * A refusal the next GraphQL request gets whatever its token, with the status Linear may send it
 * with: Linear's gateway answers some errors with 400 and the error's own status inside
 * `extensions.statusCode`, so a client must read the body, not the status alone.
 */
interface LinearFault {
  error: "authentication" | "forbidden" | "internal";
  status?: 400 | 401 | 403 | 500 | 502 | 503;
}

class LinearFaults {
  private queue: LinearFault[] = [];

  next(...faults: LinearFault[]): void {
    if (this.queue.length + faults.length > 100) throw new RangeError("at most 100 Linear faults may be queued");
    this.queue.push(...faults);
  }

  clear(): void {
    this.queue = [];
  }

  take(): LinearFault | undefined {
    return this.queue.shift();
  }
}

const FAULT_ERRORS: Record<LinearFault["error"], { kind: LinearErrorKind; message: string }> = {
  authentication: { kind: "authentication", message: "Authentication required, not authenticated" },
  forbidden: { kind: "forbidden", message: "Forbidden" },
  internal: { kind: "internal", message: "Internal server error" },
};

// ── Resolution ────────────────────────────────────────────────────────────────────────────

type Args = Record<string, unknown>;

interface Ctx {
  viewer: PersonRec;
  env: FilterEnv;
}

/** A field whose value depends on its arguments or on who asks; anything else in a record is its value. */
class Computed {
  constructor(readonly resolve: (args: Args, ctx: Ctx) => unknown) {}
}
const computed = (resolve: (args: Args, ctx: Ctx) => unknown) => new Computed(resolve);

const iso = (ms: number) => new Date(ms).toISOString();

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Linear refuses a page larger than 250 (and a negative one) on any connection. */
function checkPageSize(args: Args, field: string): void {
  for (const name of ["first", "last"] as const) {
    const n = args[name];
    if (typeof n !== "number") continue;
    if (n > MAX_PAGE) throw linearError("invalidInput", "Argument Validation Error", `${name} on ${field} must not be greater than ${MAX_PAGE}.`);
    if (n < 0) throw linearError("invalidInput", "Argument Validation Error", `${name} on ${field} must not be less than 0.`);
  }
}

/** What a field the demo has no data for answers: null where the schema allows, otherwise a neutral value of its type. */
function placeholder(type: GraphQLOutputType, info: GraphQLResolveInfo, ctx: Ctx): unknown {
  if (!isNonNullType(type)) return null;
  const t = type.ofType;
  if (isListType(t)) return [];
  if (isEnumType(t)) return t.getValues()[0]?.value ?? null;
  // An object of its own: each of its fields is resolved the same way.
  if (isObjectType(t)) return {};
  if (isScalarType(t)) {
    switch (t.name) {
      case "ID":
      case "UUID":
        return uuidFrom(`tracker-placeholder:${responsePathAsArray(info.path).join(".")}`);
      case "Int":
      case "Float":
        return 0;
      case "Boolean":
        return false;
      case "DateTime":
      case "DateTimeOrDuration":
        return iso(ctx.env.now);
      case "TimelessDate":
      case "TimelessDateOrDuration":
        return iso(ctx.env.now).slice(0, 10);
      case "JSON":
      case "JSONObject":
        return {};
      case "Duration":
        return "PT0S";
      default:
        return "";
    }
  }
  // An interface or union: stand in with its first possible type.
  const first = info.schema.getPossibleTypes(t)[0];
  return first ? { __typename: first.name } : null;
}

const fieldResolver: GraphQLFieldResolver<unknown, Ctx> = (source, args, ctx, info) => {
  checkPageSize(args, info.fieldName);
  if (isRecord(source) && Object.hasOwn(source, info.fieldName)) {
    const v = source[info.fieldName];
    const value = v instanceof Computed ? v.resolve(args, ctx) : v;
    if (value !== undefined) return value;
  }
  return placeholder(info.returnType, info, ctx);
};

const typeResolver: GraphQLTypeResolver<unknown, Ctx> = (value) => (isRecord(value) && typeof value.__typename === "string" ? value.__typename : undefined);

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 40);

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase() ?? "")
    .join("");

/** The answers of one tenant, as Linear's object graph. */
class TrackerGraph {
  constructor(private readonly w: TrackerWorld) {}

  readonly root = {
    viewer: computed((_args, ctx) => this.user(ctx.viewer)),
    organization: computed(() => this.organization()),
    users: computed((args, ctx) => this.connection(this.w.people, args, ctx, "users", userFilter, (p) => this.user(p))),
    user: computed((args) => this.user(this.find(this.w.people, args.id, "User", (p) => p.id))),
    teams: computed((args, ctx) => this.connection(this.w.teams, args, ctx, "teams", teamFilter, (t) => this.team(t))),
    team: computed((args) => this.team(this.find(this.w.teams, args.id, "Team", (t) => t.id, (t) => t.key))),
    workflowStates: computed((args, ctx) => this.connection(this.w.states, args, ctx, "workflowStates", stateFilter, (s) => this.state(s))),
    workflowState: computed((args) => this.state(this.find(this.w.states, args.id, "WorkflowState", (s) => s.id))),
    projects: computed((args, ctx) => this.connection(this.w.projects, args, ctx, "projects", projectFilter, (p) => this.project(p))),
    project: computed((args) => this.project(this.find(this.w.projects, args.id, "Project", (p) => p.id, (p) => p.slugId))),
    issues: computed((args, ctx) => this.issues(this.w.issues, args, ctx, "issues")),
    issue: computed((args) => this.issue(this.find(this.w.issues, args.id, "Issue", (i) => i.id, (i) => i.identifier))),
  };

  /** By id (or by the other key Linear accepts, such as an issue's identifier); Linear answers an unknown one as invalid input. */
  private find<T>(items: readonly T[], id: unknown, type: string, ...keys: ((t: T) => string)[]): T {
    const wanted = typeof id === "string" ? id.trim() : "";
    const found = items.find((t) => keys.some((k, n) => (n === 0 ? k(t) === wanted : k(t).toLowerCase() === wanted.toLowerCase())));
    if (!found) throw linearError("invalidInput", `Entity not found: ${type}`, `Could not find referenced ${type}.`);
    return found;
  }

  /** Linear's connection arguments over a list already in its default order (createdAt). */
  private connection<T extends { id: string }>(
    items: readonly T[],
    args: Args,
    ctx: Ctx,
    at: string,
    filter: Build<T>,
    node: (t: T) => Record<string, unknown>,
    updatedAt?: (t: T) => number | null,
  ): Record<string, unknown> {
    if (Array.isArray(args.sort) && args.sort.length > 0) {
      throw linearError("invalidInput", `The stand-in does not sort ${at}; use orderBy.`);
    }
    let list: readonly T[] = items;
    try {
      const keep = matcher(filter, args.filter, `${at}.filter`, ctx.env);
      list = list.filter(keep);
    } catch (err) {
      if (err instanceof FilterNotEmulated) throw linearError("invalidInput", err.message);
      throw err;
    }
    if (args.orderBy === "updatedAt" && updatedAt) list = [...list].sort((a, b) => (updatedAt(b) ?? 0) - (updatedAt(a) ?? 0));

    // Linear's cursors are opaque; here a cursor is the id of the node it follows or precedes.
    const indexOf = (cursor: unknown, name: string) => {
      const i = list.findIndex((t) => t.id === cursor);
      if (i < 0) throw linearError("invalidInput", "Argument Validation Error", `${name} is not a valid cursor.`);
      return i;
    };
    let start = 0;
    let end = list.length;
    if (typeof args.after === "string") start = indexOf(args.after, "after") + 1;
    if (typeof args.before === "string") end = Math.max(start, indexOf(args.before, "before"));
    const first = typeof args.first === "number" ? args.first : typeof args.last === "number" ? undefined : DEFAULT_PAGE;
    if (first !== undefined) end = Math.min(end, start + first);
    if (typeof args.last === "number") start = Math.max(start, end - args.last);
    const slice = list.slice(start, end);
    const nodes = slice.map(node);
    return {
      nodes,
      edges: computed(() => slice.map((t, i) => ({ cursor: t.id, node: nodes[i] }))),
      pageInfo: {
        hasNextPage: end < list.length,
        hasPreviousPage: start > 0,
        startCursor: slice[0]?.id ?? null,
        endCursor: slice.at(-1)?.id ?? null,
      },
    };
  }

  private issues(items: readonly IssueRec[], args: Args, ctx: Ctx, at: string): Record<string, unknown> {
    return this.connection(items, args, ctx, at, issueFilter, (i) => this.issue(i), (i) => i.updatedAt);
  }

  private organization(): Record<string, unknown> {
    const known = this.w.people.map((p) => p.createdAt).filter((t): t is number => t !== null);
    return {
      __typename: "Organization",
      id: uuidFrom("tracker-organization"),
      name: ORGANIZATION.name,
      urlKey: ORGANIZATION.urlKey,
      createdAt: iso(known.length > 0 ? Math.min(...known) : this.w.now),
      userCount: this.w.people.filter((p) => p.active).length,
      users: computed((args, ctx) => this.connection(this.w.people, args, ctx, "organization.users", userFilter, (p) => this.user(p))),
      teams: computed((args, ctx) => this.connection(this.w.teams, args, ctx, "organization.teams", teamFilter, (t) => this.team(t))),
    };
  }

  private user(p: PersonRec): Record<string, unknown> {
    const created = p.createdAt ?? this.w.now;
    return {
      __typename: "User",
      id: p.id,
      name: p.name,
      displayName: p.displayName,
      email: p.email,
      active: p.active,
      admin: p.admin,
      owner: p.admin,
      guest: false,
      app: false,
      initials: initials(p.name),
      url: `https://tracker.demo.test/profiles/${p.displayName}`,
      createdAt: iso(created),
      updatedAt: iso(p.updatedAt ?? created),
      isMe: computed((_args, ctx) => ctx.viewer.email === p.email),
      organization: computed(() => this.organization()),
      // Every issue assigned to the person, whatever its state, as Linear answers it; narrowing
      // to open work is the caller's filter.
      assignedIssues: computed((args, ctx) =>
        this.issues(
          this.w.issues.filter((i) => i.assignee?.email === p.email),
          args,
          ctx,
          "assignedIssues",
        ),
      ),
    };
  }

  private team(t: TeamRec): Record<string, unknown> {
    return {
      __typename: "Team",
      id: t.id,
      key: t.key,
      name: t.name,
      createdAt: iso(this.w.now),
      issues: computed((args, ctx) =>
        this.issues(
          this.w.issues.filter((i) => i.team.id === t.id),
          args,
          ctx,
          "team.issues",
        ),
      ),
    };
  }

  private state(s: StateRec): Record<string, unknown> {
    return { __typename: "WorkflowState", id: s.id, name: s.name, type: s.type, position: s.position, color: s.color };
  }

  private project(p: ProjectRec): Record<string, unknown> {
    const created = p.createdAt ?? this.w.now;
    return {
      __typename: "Project",
      id: p.id,
      name: p.name,
      slugId: p.slugId,
      url: p.url,
      createdAt: iso(created),
      updatedAt: iso(p.updatedAt ?? created),
      issues: computed((args, ctx) =>
        this.issues(
          this.w.issues.filter((i) => i.project?.id === p.id),
          args,
          ctx,
          "project.issues",
        ),
      ),
      teams: computed((args, ctx) => this.connection(p.team ? [p.team] : [], args, ctx, "project.teams", teamFilter, (t) => this.team(t))),
    };
  }

  private issue(i: IssueRec): Record<string, unknown> {
    return {
      __typename: "Issue",
      id: i.id,
      identifier: i.identifier,
      number: i.number,
      title: i.title,
      url: i.url,
      priority: i.priority,
      priorityLabel: i.priorityLabel,
      branchName: `${i.assignee ? `${i.assignee.displayName}/` : ""}${i.identifier.toLowerCase()}-${slug(i.title)}`,
      state: this.state(i.state),
      assignee: i.assignee ? this.user(i.assignee) : null,
      project: i.project ? this.project(i.project) : null,
      team: this.team(i.team),
      createdAt: iso(i.createdAt),
      updatedAt: iso(i.updatedAt),
      completedAt: i.state.type === "completed" ? iso(i.updatedAt) : null,
      canceledAt: i.state.type === "canceled" ? iso(i.updatedAt) : null,
    };
  }
}

// ── The stand-in ──────────────────────────────────────────────────────────────────────────

const requestBody = z.object({
  query: z.string().min(1),
  variables: z.record(z.string(), z.unknown()).nullish(),
  operationName: z.string().nullish(),
});

type Prepared = { ok: true; doc: DocumentNode } | { ok: false; errors: readonly GraphQLError[] };

class TrackerStandIn implements StandIn {
  readonly oauth: StandInOAuth;
  readonly faults = new Faults();
  /** Refusals in Linear's words for the next GraphQL requests, whatever their token. */
  readonly linearFaults = new LinearFaults();
  /** Linear's per-person request and complexity budgets; metered and reported, refused only when configured to. */
  readonly limits: LinearRateLimits;
  private readonly world: TrackerWorld;
  private readonly graph: TrackerGraph;
  private readonly prepared = new Map<string, Prepared>();

  constructor(deps: StandInDeps) {
    this.world = trackerWorld(deps.tenant);
    this.graph = new TrackerGraph(this.world);
    this.limits = new LinearRateLimits(deps.now ?? Date.now);
    const accounts = [...this.world.peopleByEmail.keys()];
    this.oauth = new StandInOAuth({
      slug: "tracker",
      product: "Linear",
      tokenPrefix: "lin_oauth",
      sealer: deps.sealer,
      accounts: () => accounts,
      consent: true,
      tokenTtlMs: deps.tokenTtlMs ?? LINEAR_TOKEN_TTL_MS,
      now: deps.now,
      memory: deps.oauthMemory,
    });
  }

  async handle(request: Request, path: string, caller?: StandInCaller): Promise<Response> {
    const fault = await this.faults.apply(request, path);
    if (fault) return fault;
    const oauth = await this.oauth.serve(request, path, caller);
    if (oauth) return oauth;
    if (path !== "/graphql") {
      return json(404, { errors: [{ message: "Not found", extensions: { code: "NOT_FOUND" } }] });
    }
    if (request.method !== "POST") {
      const { headers } = this.limits.spend(ANONYMOUS, 0);
      return errorAnswer(405, [linearError("badRequest", "GraphQL requests are POSTed to /graphql.")], { ...headers, allow: "POST" });
    }
    return this.graphql(request);
  }

  private async graphql(request: Request): Promise<Response> {
    const queued = this.linearFaults.take();
    if (queued) {
      const { kind, message } = FAULT_ERRORS[queued.error];
      const { headers } = this.limits.spend(ANONYMOUS, 0);
      return errorAnswer(queued.status ?? LINEAR_ERRORS[kind].statusCode, [linearError(kind, message)], headers);
    }

    const token = await this.oauth.inspect(request.headers.get("authorization"));
    const viewer = token.ok ? this.world.peopleByEmail.get(token.email) : undefined;
    if (!viewer) {
      const message =
        token.ok || token.reason === "invalid"
          ? "Authentication required, not authenticated"
          : `Authentication failed: the access token ${token.reason === "expired" ? "has expired" : "was revoked"}`;
      const { headers } = this.limits.spend(ANONYMOUS, 0);
      return errorAnswer(401, [linearError("authentication", message, "You need to authenticate to access this operation.")], headers);
    }

    let raw: unknown;
    try {
      raw = await request.json();
    } catch {
      return this.refuse(viewer, linearError("badRequest", "Request body is not JSON."));
    }
    const body = requestBody.safeParse(raw);
    if (!body.success) return this.refuse(viewer, linearError("badRequest", "Must provide query string."));
    const variables = body.data.variables ?? {};

    const prepared = this.prepare(body.data.query);
    if (!prepared.ok) return this.refuse(viewer, ...prepared.errors);
    const operation = getOperationAST(prepared.doc, body.data.operationName ?? undefined);
    if (!operation) {
      return this.refuse(viewer, linearError("graphql", body.data.operationName ? `Unknown operation named "${body.data.operationName}".` : "Must provide operation name if query contains multiple operations."));
    }
    if (operation.operation !== "query") {
      return this.refuse(viewer, linearError("graphql", `This stand-in is read-only; ${operation.operation} operations are not served.`));
    }

    const schema = standInLinearSchema();
    const spent = this.limits.spend(viewer.email, queryComplexity(schema, prepared.doc, operation, variables));
    if (spent.refusedForMs !== null) {
      const retryAfter = String(Math.max(1, Math.ceil(spent.refusedForMs / 1000)));
      return errorAnswer(this.limits.current.status, [linearError("ratelimited", "Rate limit exceeded", "Too many requests: try again shortly.")], {
        ...spent.headers,
        "retry-after": retryAfter,
      });
    }

    const ctx: Ctx = { viewer, env: { viewer: viewer.email, now: this.world.now } };
    const result = await execute({
      schema,
      document: prepared.doc,
      rootValue: this.graph.root,
      contextValue: ctx,
      variableValues: variables,
      operationName: body.data.operationName ?? undefined,
      fieldResolver,
      typeResolver,
    });
    if (!result.errors || result.errors.length === 0) return json(200, { data: result.data }, spent.headers);
    // Variables that do not fit their types fail before any field runs (no path): the request was wrong.
    const errors = result.errors.map((e) => errorJson(e.path ? e : linearError("badRequest", e.message)));
    // A field error under a nullable field leaves the rest of the answer standing, as at Linear.
    const status = result.data ? 200 : statusOf(errors);
    return json(status, { errors, data: result.data ?? null }, spent.headers);
  }

  /** A request refused before it ran: it still counts against the person's requests. */
  private refuse(viewer: PersonRec, ...errors: GraphQLError[]): Response {
    const { headers } = this.limits.spend(viewer.email, 0);
    return errorAnswer(statusOf(errors.map(errorJson)), errors, headers);
  }

  private prepare(query: string): Prepared {
    const known = this.prepared.get(query);
    if (known) return known;
    let out: Prepared;
    try {
      const doc = parse(query);
      const errors = validate(standInLinearSchema(), doc);
      out = errors.length > 0 ? { ok: false, errors: errors.map((e) => withKind(e, "graphql")) } : { ok: true, doc };
    } catch (err) {
      if (!(err instanceof GraphQLError)) throw err;
      out = { ok: false, errors: [withKind(err, "parse")] };
    }
    if (query.length <= PREPARED_QUERY_MAX_CHARS) {
      if (this.prepared.size >= PREPARED_MAX) this.prepared.delete(this.prepared.keys().next().value ?? "");
      this.prepared.set(query, out);
    }
    return out;
  }
}

/** A parse or validation error from graphql-js, keeping its message and place, in Linear's extensions. */
function withKind(err: GraphQLError, kind: LinearErrorKind): GraphQLError {
  const e = LINEAR_ERRORS[kind];
  return new GraphQLError(err.message, {
    nodes: err.nodes,
    source: err.source,
    positions: err.positions,
    extensions: { type: e.type, code: e.code, statusCode: e.statusCode, userError: true, userPresentableMessage: err.message },
  });
}

export function createTrackerStandIn(deps: StandInDeps): TrackerStandIn {
  return new TrackerStandIn(deps);
}
