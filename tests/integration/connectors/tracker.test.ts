import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_ADMIN_EMAIL, DEMO_CSM_EMAIL, DEMO_MEMBER_EMAIL, generateTenant } from "@/demo/tenant";
import { endpointById } from "@/lib/contract/endpoints";
import type { UpstreamOptions } from "@/lib/connectors/http";
import { serveOnLoopback, type Served } from "@/lib/connectors/stand-in/node-server";
import { Hold } from "@/lib/connectors/stand-in/faults";
import { fetchAssignedIssues } from "@/lib/connectors/tracker/client";
import { ApiError } from "@/lib/contract/errors";
import { listIssues, listProjects, trackerConnector } from "@/lib/connectors/tracker";
import { createSealer } from "@/lib/crypto/secrets";
import { upstreamFailure } from "./upstream-failure";

const tenant = generateTenant();
const sealer = createSealer("test-key-".repeat(4));
const standIn = trackerConnector.createStandIn({ tenant, sealer });
const response = endpointById("vendors.tracker.issues").response;
const PROJECT_ONLY = ["priority", "priorityLabel", "assignee", "project"] as const;

let served: Served;
beforeAll(async () => {
  served = await serveOnLoopback((req) => standIn.handle(req, new URL(req.url).pathname));
});
afterAll(async () => {
  await served.close();
});
beforeEach(() => {
  standIn.faults.clear();
});

function up(email: string, extra: Partial<UpstreamOptions> = {}): UpstreamOptions {
  return { baseUrl: served.url, authorization: trackerConnector.authorization(standIn.oauth.mint(email)), ...extra };
}

function openAssigned(email: string) {
  return tenant.tracker.issues.filter((i) => i.assigneeEmail === email && i.stateType !== "completed" && i.stateType !== "canceled");
}

const graphqlCalls = () => standIn.faults.seen.filter((s) => s.path === "/graphql" && s.method === "POST");

describe("assigned issues", () => {
  it.each([DEMO_CSM_EMAIL, DEMO_ADMIN_EMAIL])("lists %s's open assigned issues without project-view fields", async (email) => {
    const expected = openAssigned(email);
    expect(expected.length).toBeGreaterThan(0);
    const body = response.parse(await listIssues(up(email), {}));
    expect(body.issues.map((i) => i.identifier).sort()).toEqual(expected.map((i) => i.identifier).sort());
    for (const issue of body.issues) {
      for (const key of PROJECT_ONLY) expect(issue).not.toHaveProperty(key);
      const source = expected.find((i) => i.id === issue.id);
      expect(issue).toEqual({ id: source?.id, identifier: source?.identifier, title: source?.title, url: source?.url, state: source?.stateName });
    }
    // Sent with Linear's OAuth header.
    expect(graphqlCalls()[0]?.authScheme).toBe("Bearer");
  });

  it("leaves out completed and canceled issues assigned to the viewer", async () => {
    const closed = tenant.tracker.issues.filter((i) => i.assigneeEmail === DEMO_CSM_EMAIL && (i.stateType === "completed" || i.stateType === "canceled"));
    expect(closed.length).toBeGreaterThan(0);
    const { issues } = await listIssues(up(DEMO_CSM_EMAIL), {});
    for (const c of closed) expect(issues.map((i) => i.id)).not.toContain(c.id);
  });

  it("answers an empty list for an account with nothing assigned", async () => {
    expect(tenant.tracker.issues.some((i) => i.assigneeEmail === DEMO_MEMBER_EMAIL)).toBe(false);
    expect(response.parse(await listIssues(up(DEMO_MEMBER_EMAIL), {}))).toEqual({ issues: [] });
  });

  it("follows endCursor across several pages and gets the same list", async () => {
    const whole = await listIssues(up(DEMO_CSM_EMAIL), {});
    standIn.faults.clear();
    const paged = await listIssues(up(DEMO_CSM_EMAIL), {}, { pageSize: 2 });
    expect(paged).toEqual(whole);
    expect(graphqlCalls()).toHaveLength(Math.ceil(whole.issues.length / 2));
    expect(graphqlCalls().length).toBeGreaterThanOrEqual(3);
  });

  it("stops with bad_response when paging exceeds its bound", async () => {
    const err = await upstreamFailure(fetchAssignedIssues(up(DEMO_CSM_EMAIL), { pageSize: 1, maxPages: 2 }));
    expect(err.kind).toBe("bad_response");
    expect(graphqlCalls()).toHaveLength(2);
  });
});

describe("project view", () => {
  const escalations = tenant.tracker.projects.find((p) => p.key === "ESC");
  if (!escalations) throw new Error("the tenant has an ESC project");
  const inProject = tenant.tracker.issues.filter((i) => i.projectId === escalations.id);

  it("lists every issue of a project by id, with priority, assignee and project", async () => {
    const body = response.parse(await listIssues(up(DEMO_CSM_EMAIL), { project: escalations.id }));
    expect(body.issues.map((i) => i.id).sort()).toEqual(inProject.map((i) => i.id).sort());
    // Includes finished work and other people's issues: the project view is not the viewer's queue.
    expect(inProject.some((i) => i.stateType === "completed" || i.assigneeEmail !== DEMO_CSM_EMAIL)).toBe(true);
    const labels = ["No priority", "Urgent", "High", "Medium", "Low"];
    for (const issue of body.issues) {
      const source = inProject.find((i) => i.id === issue.id);
      expect(issue.project).toEqual({ id: escalations.id, name: escalations.name });
      expect(issue.priority).toBe(source?.priority);
      expect(issue.priorityLabel).toBe(labels[source?.priority ?? -1]);
      expect(issue.state).toBe(source?.stateName);
      if (source?.assigneeEmail) expect(issue.assignee).toEqual(expect.any(String));
      else expect(issue).not.toHaveProperty("assignee");
    }
    const casey = body.issues.find((i) => inProject.find((s) => s.id === i.id)?.assigneeEmail === DEMO_CSM_EMAIL);
    expect(casey?.assignee).toBe("casey");
  });

  it("finds a project by name ignoring case, and answers the same as by id", async () => {
    const byId = await listIssues(up(DEMO_ADMIN_EMAIL), { project: escalations.id });
    const byName = await listIssues(up(DEMO_ADMIN_EMAIL), { project: "customer ESCALATIONS" });
    expect(byName).toEqual(byId);
    expect(byName.issues.length).toBe(inProject.length);
  });

  it("pages through projects and issues alike", async () => {
    const whole = await listIssues(up(DEMO_ADMIN_EMAIL), { project: escalations.name });
    standIn.faults.clear();
    const paged = await listIssues(up(DEMO_ADMIN_EMAIL), { project: escalations.name }, { pageSize: 1 });
    expect(paged).toEqual(whole);
    expect(graphqlCalls().length).toBeGreaterThan(inProject.length);
  });

  it("lists every project, unassigned issues included (no assignee key)", async () => {
    let unassigned = 0;
    for (const project of tenant.tracker.projects) {
      const body = response.parse(await listIssues(up(DEMO_ADMIN_EMAIL), { project: project.id }));
      expect(body.issues).toHaveLength(tenant.tracker.issues.filter((i) => i.projectId === project.id).length);
      unassigned += body.issues.filter((i) => !("assignee" in i)).length;
    }
    expect(unassigned).toBe(tenant.tracker.issues.filter((i) => i.projectId !== null && i.assigneeEmail === null).length);
    expect(unassigned).toBeGreaterThan(0);
  });

  it("refuses a project the tracker does not have (404 no_such_project), which an empty list would hide", async () => {
    for (const project of ["No Such Project", "Customer"]) {
      const refused = await listIssues(up(DEMO_CSM_EMAIL), { project }).then(
        () => null,
        (err: unknown) => err,
      );
      expect(refused).toBeInstanceOf(ApiError);
      expect(refused).toMatchObject({ code: "no_such_project", status: 404 });
      expect((refused as ApiError).hint).toContain("/vendors/tracker/projects");
    }
  });

  it("lists the projects by name, each one a project the issues read takes", async () => {
    const { projects } = await listProjects(up(DEMO_CSM_EMAIL));
    expect(projects.map((p) => p.name)).toEqual([...tenant.tracker.projects.map((p) => p.name)].sort((a, b) => a.localeCompare(b)));
    for (const p of projects) {
      const body = response.parse(await listIssues(up(DEMO_CSM_EMAIL), { project: p.name }));
      expect(body.issues.every((i) => i.project?.id === p.id)).toBe(true);
    }
  });
});

describe("failures", () => {
  it("an invalid token is unauthorized, with Linear's AUTHENTICATION_ERROR body", async () => {
    const forged = standIn.oauth.mint(DEMO_CSM_EMAIL).replace(/.$/, (c) => (c === "A" ? "B" : "A"));
    const err = await upstreamFailure(listIssues({ baseUrl: served.url, authorization: `Bearer ${forged}` }, {}));
    expect(err.kind).toBe("unauthorized");

    const raw = await fetch(`${served.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ viewer { id } }" }),
    });
    expect(raw.status).toBe(401);
    expect(await raw.json()).toMatchObject({ errors: [{ message: expect.any(String), extensions: { code: "AUTHENTICATION_ERROR" } }] });
  });

  it("a token for someone who is not an account at the vendor is unauthorized", async () => {
    const err = await upstreamFailure(listIssues(up("stranger@example.test"), {}));
    expect(err.kind).toBe("unauthorized");
  });

  it("waits out a 429's Retry-After, then succeeds", async () => {
    const waits: number[] = [];
    standIn.faults.next({ status: 429, retryAfter: 2 });
    const body = await listIssues(up(DEMO_CSM_EMAIL, { sleep: async (ms) => void waits.push(ms) }), {});
    expect(waits).toEqual([2000]);
    expect(body.issues.length).toBe(openAssigned(DEMO_CSM_EMAIL).length);
    expect(graphqlCalls()).toHaveLength(2);
  });

  it("gives up as rate_limited when 429s outlast the retries", async () => {
    const waits: number[] = [];
    standIn.faults.next({ status: 429, retryAfter: 1 }, { status: 429, retryAfter: 1 }, { status: 429, retryAfter: 1 });
    const err = await upstreamFailure(listIssues(up(DEMO_CSM_EMAIL, { maxRetries: 2, sleep: async (ms) => void waits.push(ms) }), {}));
    expect(err.kind).toBe("rate_limited");
    expect(waits).toEqual([1000, 1000]);
    expect(graphqlCalls()).toHaveLength(3);
  });

  it("a 500 is a server failure, not retried", async () => {
    standIn.faults.next({ status: 500 });
    const err = await upstreamFailure(listIssues(up(DEMO_CSM_EMAIL), { project: "Platform" }));
    expect(err.kind).toBe("server");
    expect(err.status).toBe(500);
    expect(graphqlCalls()).toHaveLength(1);
  });

  it("an answer slower than timeoutMs is a timeout", async () => {
    const hold = new Hold();
    standIn.faults.next({ hold });
    try {
      const err = await upstreamFailure(listIssues(up(DEMO_CSM_EMAIL, { timeoutMs: 50 }), {}));
      expect(err.kind).toBe("timeout");
    } finally {
      hold.release();
    }
  });

  it("GraphQL errors inside a 200 answer are failures, sorted by their code", async () => {
    const answering = (code: string): typeof fetch => async () =>
      new Response(JSON.stringify({ data: null, errors: [{ message: "nope", extensions: { code } }] }), {
        headers: { "content-type": "application/json" },
      });
    const run = (code: string) => upstreamFailure(listIssues({ baseUrl: "http://127.0.0.1:9", fetch: answering(code) }, {}));
    expect((await run("AUTHENTICATION_ERROR")).kind).toBe("unauthorized");
    expect((await run("RATELIMITED")).kind).toBe("rate_limited");
    expect((await run("GRAPHQL_VALIDATION_FAILED")).kind).toBe("bad_response");
  });

  it("an answer of an unexpected shape is bad_response", async () => {
    const fake: typeof fetch = async () =>
      new Response(JSON.stringify({ data: { viewer: { assignedIssues: { nodes: [{ id: 1 }] } } } }), { headers: { "content-type": "application/json" } });
    const err = await upstreamFailure(listIssues({ baseUrl: "http://127.0.0.1:9", fetch: fake }, {}));
    expect(err.kind).toBe("bad_response");
  });
});

describe("stand-in GraphQL", () => {
  async function post(query: string, variables?: Record<string, unknown>) {
    const res = await fetch(`${served.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${standIn.oauth.mint(DEMO_CSM_EMAIL)}` },
      body: JSON.stringify({ query, variables }),
    });
    const body: unknown = await res.json();
    return { status: res.status, body };
  }

  it("answers exactly the selected fields", async () => {
    expect(await post("query { viewer { name } }")).toEqual({ status: 200, body: { data: { viewer: { name: "Casey Morgan" } } } });
  });

  it("refuses a field Linear does not have, with a validation error", async () => {
    const { status, body } = await post("{ viewer { name shoeSize } }");
    expect(status).toBe(400);
    expect(body).toMatchObject({ errors: [{ extensions: { code: "GRAPHQL_VALIDATION_FAILED" } }] });
  });

  it("refuses a page size above Linear's 250", async () => {
    const { status } = await post("query ($n: Int!) { projects(first: $n) { nodes { id } } }", { n: 251 });
    expect(status).toBe(400);
  });
});

describe("probe", () => {
  it("reads the account and workspace in one call", async () => {
    const result = await trackerConnector.probe(up(DEMO_CSM_EMAIL));
    expect(result.summary).toBe("Connected to Linear as Casey Morgan");
    expect(result.details).toContainEqual({ label: "Account", value: DEMO_CSM_EMAIL });
    expect(result.details.find((d) => d.label === "Workspace")?.value).toMatch(/\S/);
    expect(graphqlCalls()).toHaveLength(1);
  });

  it("fails as unauthorized with an invalid token", async () => {
    const err = await upstreamFailure(trackerConnector.probe({ baseUrl: served.url, authorization: "Bearer lin_oauth_bogus.mac" }));
    expect(err.kind).toBe("unauthorized");
  });
});
