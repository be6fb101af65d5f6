import "server-only";
import { createHash } from "node:crypto";
import { z } from "zod";
import { demoUsers } from "@/demo/users";
import type { Tenant, TrackerIssue as TenantIssue, TrackerProject } from "@/demo/tenant";
import { Faults } from "@/lib/connectors/stand-in/faults";
import { StandInOAuth, type StandInCaller } from "@/lib/connectors/stand-in/oauth";
import type { StandIn, StandInDeps } from "@/lib/connectors/types";

// A stand-in of Linear's GraphQL API serving the demo tenant's tracker. It answers the queries
// the tracker client sends and no more: the query text is read only far enough to know which
// fields are selected (so an answer holds exactly those, as a GraphQL server's would) and which
// variables feed which arguments. Aliases, fragments, directives and object literals in
// arguments are refused, so a client relying on them fails here rather than in production.

/** Linear's user access tokens live about a day and come with a refresh token that rotates. */
const LINEAR_TOKEN_TTL_MS = 24 * 3_600_000;

// ── GraphQL errors, in Linear's body shape ────────────────────────────────────────────────

class GraphQLFailure extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

function errorResponse(f: GraphQLFailure): Response {
  const type = f.code === "AUTHENTICATION_ERROR" ? "authentication error" : "graphql error";
  const body = { errors: [{ message: f.message, extensions: { type, code: f.code, userPresentableMessage: f.message } }] };
  return new Response(JSON.stringify(body), { status: f.status, headers: { "content-type": "application/json" } });
}

// ── Reading the query text ────────────────────────────────────────────────────────────────

interface Field {
  name: string;
  /** The raw text between the argument parentheses, or null. */
  args: string | null;
  selection: Field[] | null;
}

function parseOperation(query: string): Field[] {
  let i = 0;
  const skip = () => {
    for (;;) {
      while (i < query.length && /[\s,]/.test(query[i] ?? "")) i++;
      if (query[i] !== "#") return;
      while (i < query.length && query[i] !== "\n") i++;
    }
  };
  const fail = (what: string): never => {
    throw new GraphQLFailure(`Syntax Error: ${what} at offset ${i}.`, "GRAPHQL_PARSE_FAILED");
  };

  skip();
  const header = /^(query|mutation|subscription)\b/.exec(query.slice(i));
  if (header && header[1] !== "query") {
    throw new GraphQLFailure(`This stand-in is read-only; ${header[1]} operations are not served.`, "GRAPHQL_VALIDATION_FAILED");
  }
  // The operation name and variable definitions carry nothing this stand-in needs.
  const open = query.indexOf("{", i);
  if (open < 0) fail("expected a selection set");
  i = open;

  const readParens = (): string => {
    const start = ++i;
    let depth = 1;
    while (i < query.length && depth > 0) {
      const c = query[i];
      if (c === '"') {
        i++;
        while (i < query.length && query[i] !== '"') i += query[i] === "\\" ? 2 : 1;
      } else if (c === "(") depth++;
      else if (c === ")") depth--;
      i++;
    }
    if (depth > 0) fail("unterminated arguments");
    return query.slice(start, i - 1);
  };

  const readSet = (): Field[] => {
    i++; // past "{"
    const fields: Field[] = [];
    for (;;) {
      skip();
      if (i >= query.length) fail("unterminated selection set");
      if (query[i] === "}") {
        i++;
        if (fields.length === 0) fail("empty selection set");
        return fields;
      }
      if (query.startsWith("...", i)) throw new GraphQLFailure("Fragments are not served by this stand-in.", "GRAPHQL_VALIDATION_FAILED");
      const m = /^[_A-Za-z][_0-9A-Za-z]*/.exec(query.slice(i));
      if (!m) fail("expected a field name");
      const name = m?.[0] ?? "";
      i += name.length;
      skip();
      if (query[i] === ":") throw new GraphQLFailure("Aliases are not served by this stand-in.", "GRAPHQL_VALIDATION_FAILED");
      if (query[i] === "@") throw new GraphQLFailure("Directives are not served by this stand-in.", "GRAPHQL_VALIDATION_FAILED");
      let args: string | null = null;
      if (query[i] === "(") {
        args = readParens();
        skip();
      }
      const selection = query[i] === "{" ? readSet() : null;
      fields.push({ name, args, selection });
    }
  };

  const root = readSet();
  skip();
  if (i < query.length) fail("unexpected text after the operation");
  return root;
}

type Args = Record<string, unknown>;

const ARGUMENT = /\s*,?\s*([_A-Za-z][_0-9A-Za-z]*)\s*:\s*(\$[_A-Za-z][_0-9A-Za-z]*|-?\d+|"(?:[^"\\]|\\.)*"|true|false|null)\s*,?/y;

function parseArgs(raw: string | null, variables: Args): Args {
  const args: Args = {};
  if (raw === null) return args;
  ARGUMENT.lastIndex = 0;
  let consumed = 0;
  for (let m = ARGUMENT.exec(raw); m; m = ARGUMENT.exec(raw)) {
    const [, key = "", value = ""] = m;
    args[key] = value.startsWith("$") ? variables[value.slice(1)] : JSON.parse(value);
    consumed = ARGUMENT.lastIndex;
  }
  if (raw.slice(consumed).trim() !== "") {
    throw new GraphQLFailure("This stand-in takes arguments as variables or scalar literals only.", "GRAPHQL_VALIDATION_FAILED");
  }
  return args;
}

// ── Resolving a selection against the data ────────────────────────────────────────────────

type Value = string | number | boolean | null | Value[] | Obj | ((args: Args) => Value);
interface Obj {
  readonly __typename: string;
  readonly [field: string]: Value;
}

function isObj(v: Value): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

type Json = string | number | boolean | null | Json[] | { [k: string]: Json };

function select(value: Value, field: Field, variables: Args): Json {
  const v = typeof value === "function" ? value(parseArgs(field.args, variables)) : value;
  if (Array.isArray(v)) return v.map((item) => select(item, { ...field, args: null }, variables));
  if (isObj(v)) {
    if (!field.selection) {
      throw new GraphQLFailure(`Field "${field.name}" of type "${v.__typename}" must have a selection of subfields.`, "GRAPHQL_VALIDATION_FAILED");
    }
    const out: { [k: string]: Json } = {};
    for (const sub of field.selection) {
      if (!Object.hasOwn(v, sub.name)) {
        throw new GraphQLFailure(`Cannot query field "${sub.name}" on type "${v.__typename}".`, "GRAPHQL_VALIDATION_FAILED");
      }
      out[sub.name] = select(v[sub.name] ?? null, sub, variables);
    }
    return out;
  }
  if (typeof v === "function") throw new GraphQLFailure(`Field "${field.name}" cannot be resolved.`, "INTERNAL_SERVER_ERROR", 500);
  // A null object (an unassigned issue's assignee) answers null whatever was selected.
  if (v === null) return null;
  if (field.selection) throw new GraphQLFailure(`Field "${field.name}" must not have a selection since it is a scalar.`, "GRAPHQL_VALIDATION_FAILED");
  return v;
}

// ── Connections and filters, as far as the client uses them ───────────────────────────────

const MAX_FIRST = 250;
const DEFAULT_FIRST = 50;

const connectionArgs = z.object({
  first: z.number().int().min(1).max(MAX_FIRST).nullish(),
  after: z.string().nullish(),
  filter: z.unknown().optional(),
});

/** Linear's cursors are opaque; here the cursor is the id of the last node of the page. */
function connectionOf<T extends { id: string }>(typename: string, items: readonly T[], args: Args, node: (t: T) => Obj): Obj {
  const extra = Object.keys(args).filter((k) => !["first", "after", "filter"].includes(k));
  if (extra.length > 0) throw new GraphQLFailure(`Unknown argument "${extra[0]}" on field "${typename}".`, "GRAPHQL_VALIDATION_FAILED");
  const parsed = connectionArgs.safeParse(args);
  if (!parsed.success) throw new GraphQLFailure(`Argument Validation Error: first must be between 1 and ${MAX_FIRST}.`, "INVALID_INPUT");
  const first = parsed.data.first ?? DEFAULT_FIRST;
  let start = 0;
  if (parsed.data.after) {
    const at = items.findIndex((t) => t.id === parsed.data.after);
    if (at < 0) throw new GraphQLFailure("Argument Validation Error: after is not a valid cursor.", "INVALID_INPUT");
    start = at + 1;
  }
  const page = items.slice(start, start + first);
  const last = page.at(-1);
  return {
    __typename: `${typename}Connection`,
    nodes: page.map(node),
    pageInfo: {
      __typename: "PageInfo",
      hasNextPage: start + first < items.length,
      hasPreviousPage: start > 0,
      startCursor: page[0]?.id ?? null,
      endCursor: last?.id ?? null,
    },
  };
}

const stringComparator = z.strictObject({
  eq: z.string().optional(),
  neq: z.string().optional(),
  in: z.array(z.string()).optional(),
  nin: z.array(z.string()).optional(),
});

const issueFilter = z.strictObject({
  state: z.strictObject({ type: stringComparator.optional(), name: stringComparator.optional() }).optional(),
  project: z.strictObject({ id: stringComparator.optional() }).optional(),
});

function compare(value: string | null, c: z.infer<typeof stringComparator> | undefined): boolean {
  if (!c) return true;
  if (c.eq !== undefined && value !== c.eq) return false;
  if (c.neq !== undefined && value === c.neq) return false;
  if (c.in && (value === null || !c.in.includes(value))) return false;
  if (c.nin && value !== null && c.nin.includes(value)) return false;
  return true;
}

function issueMatcher(filter: unknown): (i: TenantIssue) => boolean {
  if (filter === undefined || filter === null) return () => true;
  const parsed = issueFilter.safeParse(filter);
  if (!parsed.success) {
    throw new GraphQLFailure("This stand-in filters issues by state.type, state.name and project.id only.", "INVALID_INPUT");
  }
  const f = parsed.data;
  return (i) =>
    compare(i.stateType, f.state?.type) && compare(i.stateName, f.state?.name) && compare(i.projectId, f.project?.id);
}

// ── The tenant, as Linear's objects ───────────────────────────────────────────────────────

const PRIORITY_LABELS = ["No priority", "Urgent", "High", "Medium", "Low"] as const;

/** Linear's ids are UUIDs; people in the tenant have none, so one is derived from the email. */
function uuidFrom(seed: string): string {
  const h = createHash("sha256").update(seed).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

interface Person {
  id: string;
  email: string;
  name: string;
  /** Linear's nickname: unique in the workspace, by default derived from the first name. */
  displayName: string;
  active: boolean;
}

function peopleOf(tenant: Tenant): Person[] {
  const raw = new Map<string, { name: string; first: string; last: string; active: boolean }>();
  for (const u of demoUsers) {
    const [first = u.name, ...rest] = u.name.split(" ");
    raw.set(u.email, { name: u.name, first, last: rest.join(" "), active: true });
  }
  for (const s of tenant.staff) {
    if (raw.has(s.email)) continue;
    raw.set(s.email, { name: `${s.firstName} ${s.lastName}`.trim(), first: s.firstName, last: s.lastName, active: s.lifecycleStage !== "offboarded" });
  }
  const taken = new Set<string>();
  const nick = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");
  return [...raw].map(([email, p]) => {
    const base = nick(p.first) || nick(email.split("@")[0] ?? "") || "user";
    let displayName = base;
    if (taken.has(displayName)) displayName = `${base}${nick(p.last).slice(0, 1)}`;
    for (let n = 2; taken.has(displayName); n++) displayName = `${base}${n}`;
    taken.add(displayName);
    return { id: uuidFrom(`tracker-user:${email}`), email, name: p.name, displayName, active: p.active };
  });
}

const byNewest = (a: TenantIssue, b: TenantIssue) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

class TrackerStandIn implements StandIn {
  readonly oauth: StandInOAuth;
  readonly faults = new Faults();
  private readonly people: Map<string, Person>;
  private readonly projects: TrackerProject[];
  private readonly issues: TenantIssue[];

  constructor(deps: StandInDeps) {
    this.people = new Map(peopleOf(deps.tenant).map((p) => [p.email, p]));
    this.projects = [...deps.tenant.tracker.projects].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    this.issues = [...deps.tenant.tracker.issues].sort(byNewest);
    const accounts = [...this.people.keys()];
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
    if (path === "/graphql") {
      if (request.method !== "POST") return errorResponse(new GraphQLFailure("GraphQL requests are POSTed to /graphql.", "BAD_REQUEST", 405));
      try {
        return await this.graphql(request);
      } catch (err) {
        if (err instanceof GraphQLFailure) return errorResponse(err);
        throw err;
      }
    }
    return new Response(JSON.stringify({ errors: [{ message: "Not found", extensions: { code: "NOT_FOUND" } }] }), {
      status: 404,
      headers: { "content-type": "application/json" },
    });
  }

  private async graphql(request: Request): Promise<Response> {
    const token = await this.oauth.inspect(request.headers.get("authorization"));
    const viewer = token.ok ? this.people.get(token.email) : undefined;
    if (!viewer) {
      const message = token.ok || token.reason === "invalid" ? "Authentication required, not authenticated" : `Authentication failed: the access token ${token.reason === "expired" ? "has expired" : "was revoked"}`;
      throw new GraphQLFailure(message, "AUTHENTICATION_ERROR", 401);
    }

    let body: unknown;
    try {
      body = await request.json();
    } catch {
      throw new GraphQLFailure("Request body is not JSON.", "BAD_REQUEST");
    }
    const parsed = z
      .object({ query: z.string().min(1), variables: z.record(z.string(), z.unknown()).nullish(), operationName: z.string().nullish() })
      .safeParse(body);
    if (!parsed.success) throw new GraphQLFailure("Must provide query string.", "BAD_REQUEST");
    const variables = parsed.data.variables ?? {};
    const root = parseOperation(parsed.data.query);

    const queryRoot: Obj = {
      __typename: "Query",
      viewer: this.userNode(viewer),
      organization: {
        __typename: "Organization",
        id: uuidFrom("tracker-organization"),
        name: "Demo Edu",
        urlKey: "demo-edu",
      },
      projects: (args) => {
        if (args.filter !== undefined) throw new GraphQLFailure("This stand-in does not filter projects.", "INVALID_INPUT");
        return connectionOf("Project", this.projects, args, (p) => this.projectNode(p));
      },
      issues: (args) => {
        const keep = issueMatcher(args.filter);
        return connectionOf("Issue", this.issues.filter(keep), args, (i) => this.issueNode(i));
      },
    };
    const data = select(queryRoot, { name: "query", args: null, selection: root }, variables);
    return new Response(JSON.stringify({ data }), { headers: { "content-type": "application/json" } });
  }

  private userNode(p: Person): Obj {
    return {
      __typename: "User",
      id: p.id,
      name: p.name,
      displayName: p.displayName,
      email: p.email,
      active: p.active,
      // Every issue assigned to the person, whatever its state, as Linear answers it; narrowing
      // to open work is the caller's filter.
      assignedIssues: (args) => {
        const keep = issueMatcher(args.filter);
        const mine = this.issues.filter((i) => i.assigneeEmail === p.email && keep(i));
        return connectionOf("Issue", mine, args, (i) => this.issueNode(i));
      },
    };
  }

  private projectNode(p: TrackerProject): Obj {
    return { __typename: "Project", id: p.id, name: p.name, url: `https://tracker.demo.test/project/${p.key.toLowerCase()}` };
  }

  private issueNode(i: TenantIssue): Obj {
    const assignee = i.assigneeEmail ? this.people.get(i.assigneeEmail) : undefined;
    const project = i.projectId ? this.projects.find((p) => p.id === i.projectId) : undefined;
    return {
      __typename: "Issue",
      id: i.id,
      identifier: i.identifier,
      title: i.title,
      url: i.url,
      priority: i.priority,
      priorityLabel: PRIORITY_LABELS[i.priority],
      state: { __typename: "WorkflowState", id: uuidFrom(`tracker-state:${i.stateName}`), name: i.stateName, type: i.stateType },
      assignee: assignee ? this.userNode(assignee) : null,
      project: project ? this.projectNode(project) : null,
      createdAt: new Date(i.createdAt).toISOString(),
      updatedAt: new Date(i.updatedAt).toISOString(),
    };
  }
}

export function createTrackerStandIn(deps: StandInDeps): StandIn {
  return new TrackerStandIn(deps);
}
