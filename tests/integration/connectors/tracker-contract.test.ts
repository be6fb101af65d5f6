import {
  AuthenticationLinearError,
  GraphqlLinearError,
  InvalidInputLinearError,
  LinearClient,
  LinearError,
  LinearErrorType,
  RatelimitedLinearError,
} from "@linear/sdk";
import { assertValidSchema, parse, validate } from "graphql";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_ADMIN_EMAIL, DEMO_CSM_EMAIL, generateTenant } from "@/demo/tenant";
import { serveOnLoopback, type Served } from "@/lib/connectors/stand-in/node-server";
import { CLOSED_STATE_TYPES, TRACKER_QUERIES } from "@/lib/connectors/tracker/client";
import { FIELDS_AHEAD_OF_SNAPSHOT, publishedLinearSchema, standInLinearSchema } from "@/lib/connectors/tracker/schema";
import { createTrackerStandIn } from "@/lib/connectors/tracker/stand-in";
import { createSealer } from "@/lib/crypto/secrets";

// The tracker's stand-in held to what nobody here wrote: Linear's own SDK is its client, Linear's
// published schema checks the service's documents, and Linear's SDK sorts the stand-in's errors.

const tenant = generateTenant();
const standIn = createTrackerStandIn({ tenant, sealer: createSealer("test-key-".repeat(4)) });

let served: Served;
beforeAll(async () => {
  served = await serveOnLoopback((req) => standIn.handle(req, new URL(req.url).pathname));
});
afterAll(async () => {
  await served.close();
});
beforeEach(() => {
  standIn.faults.clear();
  standIn.linearFaults.clear();
  standIn.limits.reset();
});

const linearAs = (email: string) => new LinearClient({ accessToken: standIn.oauth.mint(email), apiUrl: `${served.url}/graphql` });

/** The LinearError a call of the SDK failed with; anything else (a success included) fails the test. */
async function linearFailure(p: Promise<unknown>): Promise<LinearError> {
  const outcome = await p.then(
    () => "resolved" as const,
    (e: unknown) => e,
  );
  if (outcome instanceof LinearError) return outcome;
  throw new Error(`expected a LinearError, got ${outcome === "resolved" ? "a success" : String(outcome)}`);
}

async function post(body: unknown, token: string | null = standIn.oauth.mint(DEMO_CSM_EMAIL)) {
  const res = await fetch(`${served.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as { data?: unknown; errors?: { message: string; extensions: Record<string, unknown> }[] } };
}

const openAssigned = (email: string) => tenant.tracker.issues.filter((i) => i.assigneeEmail === email && i.stateType !== "completed" && i.stateType !== "canceled");

describe("Linear's SDK as the stand-in's client", () => {
  it("reads the viewer", async () => {
    const viewer = await linearAs(DEMO_CSM_EMAIL).viewer;
    expect(viewer).toMatchObject({ name: "Casey Morgan", email: DEMO_CSM_EMAIL, displayName: "casey", active: true, isMe: true, admin: false });
    expect(viewer.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(viewer.createdAt).toBeInstanceOf(Date);
  });

  it("reads the workspace", async () => {
    const org = await linearAs(DEMO_ADMIN_EMAIL).organization;
    expect(org).toMatchObject({ name: "Demo Edu", urlKey: "demo-edu" });
    expect(org.userCount).toBeGreaterThan(3);
  });

  it("lists the projects, and pages through them with the SDK's own cursors", async () => {
    const linear = linearAs(DEMO_CSM_EMAIL);
    const all = await linear.projects();
    const expected = [...tenant.tracker.projects].sort((a, b) => a.name.localeCompare(b.name));
    expect(all.nodes.map((p) => ({ id: p.id, name: p.name }))).toEqual(expected.map((p) => ({ id: p.id, name: p.name })));
    expect(all.pageInfo.hasNextPage).toBe(false);

    const paged = await linear.projects({ first: 1 });
    while (paged.pageInfo.hasNextPage) await paged.fetchNext();
    expect(paged.nodes.map((p) => p.id)).toEqual(all.nodes.map((p) => p.id));
  });

  it("reads an issue by id and by identifier, and follows its state, assignee, project and team", async () => {
    const linear = linearAs(DEMO_CSM_EMAIL);
    const source = tenant.tracker.issues.find((i) => i.assigneeEmail === DEMO_CSM_EMAIL && i.projectId !== null);
    if (!source) throw new Error("the tenant has an assigned issue in a project");
    const issue = await linear.issue(source.id);
    expect(issue).toMatchObject({ id: source.id, identifier: source.identifier, title: source.title, url: source.url, priority: source.priority });
    expect((await linear.issue(source.identifier)).id).toBe(source.id);
    expect((await issue.state)?.name).toBe(source.stateName);
    expect((await issue.assignee)?.email).toBe(DEMO_CSM_EMAIL);
    expect((await issue.project)?.id).toBe(source.projectId);
    expect((await issue.team)?.key).toBe(source.identifier.split("-")[0]);
  });

  it("filters the viewer's assigned issues as the service does", async () => {
    const viewer = await linearAs(DEMO_CSM_EMAIL).viewer;
    const open = await viewer.assignedIssues({ filter: { state: { type: { nin: [...CLOSED_STATE_TYPES] } } } });
    expect(open.nodes.map((i) => i.id).sort()).toEqual(openAssigned(DEMO_CSM_EMAIL).map((i) => i.id).sort());
  });

  it("gets Linear's InvalidInput for an unknown issue and for a page over 250", async () => {
    const linear = linearAs(DEMO_CSM_EMAIL);
    expect(await linearFailure(linear.issue("NOPE-1"))).toBeInstanceOf(InvalidInputLinearError);
    const tooMany = await linearFailure(linear.projects({ first: 251 }));
    expect(tooMany).toBeInstanceOf(InvalidInputLinearError);
    expect(tooMany.type).toBe(LinearErrorType.InvalidInput);
    expect(tooMany.errors?.[0]?.message).toMatch(/first .*250/);
    expect((await linear.projects({ first: 250 })).nodes).toHaveLength(tenant.tracker.projects.length);
  });

  it("gets Linear's AuthenticationError for a token Linear does not know", async () => {
    const linear = new LinearClient({ accessToken: "lin_oauth_bogus.mac", apiUrl: `${served.url}/graphql` });
    const err = await linearFailure(linear.viewer);
    expect(err).toBeInstanceOf(AuthenticationLinearError);
    expect(err.status).toBe(401);
  });

  it("gets Linear's Ratelimited error, with the budget read from the headers", async () => {
    standIn.limits.configure({ requests: 1, periodMs: 60_000, enforce: true });
    const linear = linearAs(DEMO_CSM_EMAIL);
    await linear.viewer;
    const err = await linearFailure(linear.organization);
    expect(err).toBeInstanceOf(RatelimitedLinearError);
    const limited = err as RatelimitedLinearError;
    expect(limited.status).toBe(400);
    expect(limited.requestsLimit).toBe(1);
    expect(limited.requestsRemaining).toBe(0);
    expect(limited.retryAfter).toBeGreaterThan(0);
    expect(limited.requestsResetAt).toBeGreaterThan(Date.now());
    expect(limited.complexityLimit).toBeGreaterThan(0);
  });

  it("gets Linear's GraphqlError for a field Linear's schema does not have", async () => {
    const linear = linearAs(DEMO_CSM_EMAIL);
    const err = await linearFailure(linear.client.rawRequest("query { viewer { shoeSize } }"));
    expect(err).toBeInstanceOf(GraphqlLinearError);
  });
});

describe("the service's documents against Linear's published schema", () => {
  it("the published snapshot is a valid schema", () => {
    expect(() => assertValidSchema(publishedLinearSchema())).not.toThrow();
  });

  it.each(Object.entries(TRACKER_QUERIES))("%s validates", (_name, query) => {
    expect(validate(publishedLinearSchema(), parse(query)).map((e) => e.message)).toEqual([]);
  });

  it("adds to the snapshot only fields it lacks, so a refreshed snapshot says which additions to drop", () => {
    const published = publishedLinearSchema();
    const added = [...FIELDS_AHEAD_OF_SNAPSHOT.matchAll(/extend type (\w+) \{([^}]*)\}/g)].flatMap(([, type = "", body = ""]) =>
      [...body.matchAll(/^\s+(\w+):/gm)].map(([, field = ""]) => ({ type, field })),
    );
    expect(added.length).toBeGreaterThan(0);
    for (const { type, field } of added) {
      const t = published.getType(type);
      expect(t && "getFields" in t ? Object.keys(t.getFields()) : [], `${type}.${field}`).not.toContain(field);
      const served = standInLinearSchema().getType(type);
      expect(served && "getFields" in served ? Object.keys(served.getFields()) : [], `${type}.${field}`).toContain(field);
    }
  });
});

describe("GraphQL as Linear executes it", () => {
  it("answers fragments, aliases, variables, inline fragments, directives and __typename", async () => {
    const source = openAssigned(DEMO_CSM_EMAIL)[0];
    if (!source) throw new Error("the CSM has an open issue");
    const { status, body } = await post({
      query: `query Mine($id: String!, $withTeam: Boolean!) {
        me: viewer { ...Who }
        org: organization { __typename name }
        one: issue(id: $id) {
          ... on Issue { identifier }
          team @include(if: $withTeam) { key }
          state { ...State }
        }
      }
      fragment Who on User { __typename displayName email }
      fragment State on WorkflowState { name type }`,
      variables: { id: source.id, withTeam: false },
    });
    expect(status).toBe(200);
    expect(body).toEqual({
      data: {
        me: { __typename: "User", displayName: "casey", email: DEMO_CSM_EMAIL },
        org: { __typename: "Organization", name: "Demo Edu" },
        one: { identifier: source.identifier, state: { name: source.stateName, type: source.stateType } },
      },
    });
  });

  it("answers a field the demo has no data for with null, or a neutral value where the schema needs one", async () => {
    const { status, body } = await post({ query: "{ viewer { timezone createdIssueCount guest avatarBackgroundColor teams { nodes { id } } } }" });
    expect(status).toBe(200);
    expect(body.data).toEqual({ viewer: { timezone: null, createdIssueCount: 0, guest: false, avatarBackgroundColor: "", teams: { nodes: [] } } });
  });

  it("filters issues with comparators, and/or and a null relation", async () => {
    const escalations = tenant.tracker.projects.find((p) => p.key === "ESC");
    const { body } = await post({
      query: `query ($f: IssueFilter) { issues(first: 250, filter: $f) { nodes { id } } }`,
      variables: { f: { or: [{ project: { null: true } }, { project: { name: { eqIgnoreCase: escalations?.name.toUpperCase() } }, priority: { lte: 2 } }] } },
    });
    const expected = tenant.tracker.issues.filter((i) => i.projectId === null || (i.projectId === escalations?.id && i.priority <= 2));
    expect(expected.length).toBeGreaterThan(0);
    expect((body.data as { issues: { nodes: { id: string }[] } }).issues.nodes.map((n) => n.id).sort()).toEqual(expected.map((i) => i.id).sort());
  });

  it("refuses, by name, a filter the stand-in cannot evaluate rather than answer a wider list", async () => {
    const { status, body } = await post({ query: "{ issues(filter: { labels: { name: { eq: \"bug\" } } }) { nodes { id } } }" });
    expect(status).toBe(400);
    expect(body.errors?.[0]).toMatchObject({ message: expect.stringMatching(/labels/), extensions: { code: "INVALID_INPUT" } });
  });

  it("serves no mutation", async () => {
    const { status, body } = await post({ query: 'mutation { issueArchive(id: "x") { success } }' });
    expect(status).toBe(400);
    expect(body.errors?.[0]?.message).toMatch(/read-only/);
  });
});

describe("error answers in Linear's shape", () => {
  const linearShape = (code: string, type: string, statusCode: number) => ({
    errors: [{ message: expect.any(String), extensions: { code, type, statusCode, userPresentableMessage: expect.any(String) } }],
  });

  it.each([
    { name: "a syntax error", body: { query: "{ viewer { " }, status: 400, code: "GRAPHQL_PARSE_FAILED", type: "graphql error" },
    { name: "a field Linear has not got", body: { query: "{ viewer { shoeSize } }" }, status: 400, code: "GRAPHQL_VALIDATION_FAILED", type: "graphql error" },
    { name: "a variable of the wrong type", body: { query: "query ($n: Int) { issues(first: $n) { nodes { id } } }", variables: { n: "ten" } }, status: 400, code: "BAD_USER_INPUT", type: "graphql error" },
    { name: "first: 251", body: { query: "{ issues(first: 251) { nodes { id } } }" }, status: 400, code: "INVALID_INPUT", type: "invalid input" },
    { name: "last: 251 on a nested connection", body: { query: "{ viewer { assignedIssues(last: 251) { nodes { id } } } }" }, status: 400, code: "INVALID_INPUT", type: "invalid input" },
  ])("$name", async ({ body, status, code, type }) => {
    const answer = await post(body);
    expect(answer.status).toBe(status);
    expect(answer.body).toMatchObject(linearShape(code, type, 400));
    expect(answer.body.data).toBeNull();
  });

  it("a missing or revoked token: AUTHENTICATION_ERROR with 401", async () => {
    const answer = await post({ query: "{ viewer { id } }" }, null);
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject(linearShape("AUTHENTICATION_ERROR", "authentication error", 401));
  });

  it("a spent budget: RATELIMITED with 400 (or 429 when configured), Retry-After and the budget headers", async () => {
    for (const status of [400, 429] as const) {
      standIn.limits.configure({ requests: 2, periodMs: 10_000, enforce: true, status });
      await post({ query: "{ viewer { id } }" });
      await post({ query: "{ viewer { id } }" });
      const answer = await post({ query: "{ viewer { id } }" });
      expect(answer.status).toBe(status);
      expect(answer.body).toMatchObject(linearShape("RATELIMITED", "ratelimited", 429));
      expect(answer.headers.get("retry-after")).toBe("5");
      expect(answer.headers.get("x-ratelimit-requests-remaining")).toBe("0");
      expect(Number(answer.headers.get("x-ratelimit-requests-reset"))).toBeGreaterThan(Date.now());
    }
  });

  it("every answer of the GraphQL endpoint carries Linear's rate-limit headers", async () => {
    const answers = [
      await post({ query: "{ viewer { id } }" }),
      await post({ query: "{ viewer { shoeSize } }" }),
      await post({ query: "{ viewer { id } }" }, null),
      await post({ query: "{ issues(first: 251) { nodes { id } } }" }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 400, 401, 400]);
    for (const { headers } of answers) {
      expect(Number(headers.get("x-ratelimit-requests-limit"))).toBeGreaterThan(0);
      expect(headers.get("x-ratelimit-requests-remaining")).toMatch(/^\d+$/);
      expect(Number(headers.get("x-ratelimit-requests-reset"))).toBeGreaterThanOrEqual(Date.now() - 1_000);
      expect(headers.get("x-ratelimit-complexity-limit")).toMatch(/^\d+$/);
    }
    // Each request of a person spends one of their budget, and a query's complexity is reported.
    const first = await post({ query: "{ viewer { id } }" });
    const second = await post({ query: "{ issues(first: 100) { nodes { id title } } }" });
    expect(Number(second.headers.get("x-ratelimit-requests-remaining"))).toBe(Number(first.headers.get("x-ratelimit-requests-remaining")) - 1);
    expect(Number(second.headers.get("x-complexity"))).toBeGreaterThan(Number(first.headers.get("x-complexity")));
  });
});
