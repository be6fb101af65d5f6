import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_CSM_EMAIL, generateTenant } from "@/demo/tenant";
import { demoUsers } from "@/demo/users";
import { startSession, userForRequest } from "@/lib/auth/session";
import { upsertUser } from "@/lib/auth/users";
import { parseConfig } from "@/lib/config";
import { createCredentials, type Credentials } from "@/lib/connectors/credentials";
import type { UpstreamOptions } from "@/lib/connectors/http";
import { serveOnLoopback, type Served } from "@/lib/connectors/stand-in/node-server";
import { connectionStates, saveUserToken, userToken } from "@/lib/connectors/store";
import { listIssues, trackerConnector } from "@/lib/connectors/tracker";
import { fetchViewer } from "@/lib/connectors/tracker/client";
import { createTrackerStandIn } from "@/lib/connectors/tracker/stand-in";
import { newVendorReadCache } from "@/lib/connectors/vendor-cache";
import { newAnswerCache } from "@/lib/crm/memo";
import type { Db } from "@/lib/db";
import { apiHandlers } from "@/lib/api";
import { handleApi, type HandlerServices } from "@/lib/api/api-route";
import { backends, testSealer } from "../support/backends";
import { upstreamFailure } from "./upstream-failure";

// Linear's "slow down" and "who are you?" as Linear sends them: RATELIMITED with 400 (or 429) and
// its budget headers, AUTHENTICATION_ERROR with 400 as well as 401. The client reads the body
// whatever the status: it waits out a short limit and retries, answers a long one as 503 with
// Retry-After, and renews a refused token once. Over real loopback HTTP, through the API.

const tenant = generateTenant();

describe("the client under Linear's rate limit, on the stand-in's clock", () => {
  // The stand-in's clock runs with the real one (the client reads the vendor's reset against the
  // real clock), moved on by whatever a test's sleep waits instead of waiting it.
  const clock = {
    skew: 0,
    get now(): number {
      return Date.now() + this.skew;
    },
  };
  const standIn = createTrackerStandIn({ tenant, sealer: testSealer, now: () => clock.now });
  const answered: number[] = [];
  let served: Served;
  beforeAll(async () => {
    served = await serveOnLoopback(async (req) => {
      const res = await standIn.handle(req, new URL(req.url).pathname);
      answered.push(res.status);
      return res;
    });
  });
  afterAll(async () => {
    await served.close();
  });
  beforeEach(() => {
    answered.length = 0;
    standIn.limits.reset();
    standIn.linearFaults.clear();
  });

  /** Upstream options whose waits pass on the stand-in's clock, recorded. */
  function up(waits: number[], extra: Partial<UpstreamOptions> = {}): UpstreamOptions {
    const sleep = async (ms: number) => {
      waits.push(ms);
      clock.skew += ms;
    };
    return { baseUrl: served.url, authorization: trackerConnector.authorization(standIn.oauth.mint(DEMO_CSM_EMAIL)), sleep, ...extra };
  }

  it.each([400, 429] as const)("waits out a short RATELIMITED sent with %i, then reads", async (status) => {
    standIn.limits.configure({ requests: 1, periodMs: 2_000, enforce: true, status });
    const waits: number[] = [];
    await fetchViewer(up(waits));
    const { viewer } = await fetchViewer(up(waits));
    expect(viewer.email).toBe(DEMO_CSM_EMAIL);
    expect(waits).toEqual([2_000]);
    expect(answered).toEqual([200, status, 200]);
  });

  it("fails as rate_limited, with Linear's wait, when the wait is longer than it holds a request", async () => {
    standIn.limits.configure({ requests: 1, periodMs: 3_600_000, enforce: true });
    const waits: number[] = [];
    await fetchViewer(up(waits));
    const err = await upstreamFailure(fetchViewer(up(waits)));
    expect(err.kind).toBe("rate_limited");
    expect(err.retryAfterMs).toBe(3_600_000);
    expect(waits).toEqual([]);
    expect(answered).toEqual([200, 400]);
  });

  it("waits for a spent complexity budget as for requests", async () => {
    standIn.limits.configure({ requests: 1_000, complexity: 50, periodMs: 4_000, enforce: true });
    const waits: number[] = [];
    // One page of 100 issues costs more than the whole budget: it passes on a full bucket and empties it.
    await listIssues(up(waits), {});
    await listIssues(up(waits), {});
    expect(waits).toEqual([4_000]);
    expect(answered).toEqual([200, 400, 200]);
  });

  it("reads a Linear AUTHENTICATION_ERROR sent with 400 as a refused token, not an upstream failure", async () => {
    standIn.linearFaults.next({ error: "authentication", status: 400 });
    const err = await upstreamFailure(fetchViewer(up([])));
    expect([err.kind, err.status]).toEqual(["unauthorized", 400]);
    expect(err.message).toMatch(/AUTHENTICATION_ERROR/);
  });

  it("reads FORBIDDEN as forbidden and an internal error as a server failure, whatever the status", async () => {
    standIn.linearFaults.next({ error: "forbidden", status: 400 }, { error: "internal", status: 400 });
    expect((await upstreamFailure(fetchViewer(up([])))).kind).toBe("forbidden");
    expect((await upstreamFailure(fetchViewer(up([])))).kind).toBe("server");
  });
});

describe("the client reading Linear's headers", () => {
  const limited = (headers: Record<string, string>, status = 400) =>
    new Response(JSON.stringify({ errors: [{ message: "Rate limit exceeded", extensions: { type: "ratelimited", code: "RATELIMITED", statusCode: 429 } }] }), {
      status,
      headers: { "content-type": "application/json", ...headers },
    });
  const ok = () => new Response(JSON.stringify({ data: { viewer: { id: "u", name: "N", email: "n@x.test" }, organization: { name: "O", urlKey: "o" } } }), { headers: { "content-type": "application/json" } });

  function scripted(...answers: (() => Response)[]): { fetch: typeof fetch; calls: () => number } {
    let n = 0;
    return {
      fetch: async () => {
        const next = answers[n++];
        if (!next) throw new Error("no more answers");
        return next();
      },
      calls: () => n,
    };
  }

  it("without Retry-After, waits until X-RateLimit-Requests-Reset (epoch ms)", async () => {
    const waits: number[] = [];
    const reset = Date.now() + 1_500;
    const s = scripted(() => limited({ "x-ratelimit-requests-remaining": "0", "x-ratelimit-requests-reset": String(reset) }), ok);
    await fetchViewer({ baseUrl: "http://127.0.0.1:9", fetch: s.fetch, sleep: async (ms) => void waits.push(ms) });
    expect(s.calls()).toBe(2);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(1_000);
    expect(waits[0]).toBeLessThanOrEqual(1_500);
  });

  it("a RATELIMITED inside a 200 answer is rate_limited with the reset it names", async () => {
    const s = scripted(() => limited({ "x-ratelimit-complexity-remaining": "0", "x-ratelimit-complexity-reset": String(Date.now() + 90_000) }, 200));
    const err = await upstreamFailure(fetchViewer({ baseUrl: "http://127.0.0.1:9", fetch: s.fetch }));
    expect(err.kind).toBe("rate_limited");
    expect(err.retryAfterMs).toBeGreaterThan(80_000);
  });

  it("a 429 without GraphQL errors (a gateway's) is still a rate limit by its Retry-After", async () => {
    const waits: number[] = [];
    const s = scripted(() => new Response("slow down", { status: 429, headers: { "retry-after": "1" } }), ok);
    await fetchViewer({ baseUrl: "http://127.0.0.1:9", fetch: s.fetch, sleep: async (ms) => void waits.push(ms) });
    expect(waits).toEqual([1_000]);
  });

  it("a Linear error that is not a rate limit is never retried, even sent as 429", async () => {
    const s = scripted(
      () =>
        new Response(JSON.stringify({ errors: [{ message: "nope", extensions: { type: "invalid input", code: "INVALID_INPUT" } }] }), {
          status: 429,
          headers: { "content-type": "application/json", "retry-after": "1" },
        }),
    );
    const err = await upstreamFailure(fetchViewer({ baseUrl: "http://127.0.0.1:9", fetch: s.fetch, sleep: async () => undefined }));
    expect([err.kind, s.calls()]).toEqual(["bad_response", 1]);
  });
});

describe.each(backends)("tracker reads through the API when Linear slows down or refuses, over $name", (backend) => {
  const standIn = createTrackerStandIn({ tenant, sealer: testSealer });
  const answered: { path: string; status: number }[] = [];
  const graphqlStatuses = () => answered.filter((a) => a.path === "/graphql").map((a) => a.status);
  const tokenStatuses = () => answered.filter((a) => a.path === "/oauth/token").map((a) => a.status);
  let served: Served;
  let h: Awaited<ReturnType<typeof backend.open>>;
  let credentials: Credentials;
  let services: HandlerServices;
  let session: string;
  let csmId: number;

  beforeAll(async () => {
    served = await serveOnLoopback(async (request) => {
      const path = new URL(request.url).pathname.replace(/^\/stand-ins\/tracker/, "") || "/";
      const res = await standIn.handle(request, path);
      answered.push({ path, status: res.status });
      return res;
    });
    h = await backend.open();
    const demo = demoUsers.find((u) => u.email === DEMO_CSM_EMAIL)!;
    csmId = await upsertUser(h.db, { email: demo.email, name: demo.name, groups: demo.groups });
    session = (await startSession(h.db, csmId, 600_000)).token;
  });
  afterAll(async () => {
    await h.close();
    await served.close();
  });
  beforeEach(async () => {
    const config = parseConfig({ SECRET_KEY: "integration-test-key-".repeat(2), STAND_INS: "1", STAND_IN_ORIGIN: served.url });
    credentials = createCredentials({ config, sealer: () => testSealer });
    // Every request reads the vendor: nothing is answered from memory.
    services = { config, sealer: testSealer, answers: newAnswerCache(), vendorReads: newVendorReadCache({ freshMs: 0, staleMs: 0 }), credentials, crmUpstream: () => null };
    const g = standIn.oauth.mintGrant(DEMO_CSM_EMAIL);
    await saveUserToken(h.db, testSealer, csmId, "tracker", {
      accessToken: g.access_token,
      refreshToken: g.refresh_token ?? null,
      expiresAt: g.expires_in ? Date.now() + g.expires_in * 1000 : null,
      account: DEMO_CSM_EMAIL,
    });
    answered.length = 0;
  });
  afterEach(() => {
    standIn.limits.reset();
    standIn.linearFaults.clear();
    standIn.faults.clear();
  });

  const issues = () =>
    handleApi(new Request("http://app.test/api/vendors/tracker/issues", { headers: { cookie: `dd_session=${session}` } }), "/vendors/tracker/issues", {
      db: async () => h.db as Db,
      services: () => services,
      userFor: userForRequest,
      handlers: apiHandlers,
    });

  it("waits out a short RATELIMITED sent with 400 and answers the issues", async () => {
    standIn.limits.configure({ requests: 1, periodMs: 1_000, enforce: true });
    expect((await issues()).status).toBe(200);
    const started = Date.now();
    const res = await issues();
    expect(res.status).toBe(200);
    expect(((await res.json()) as { issues: unknown[] }).issues.length).toBeGreaterThan(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(graphqlStatuses()).toEqual([200, 400, 200]);
  });

  it.each([400, 429] as const)("answers 503 upstream_rate_limited with Linear's Retry-After when the wait is long (sent with %i)", async (status) => {
    standIn.limits.configure({ requests: 1, periodMs: 3_600_000, enforce: true, status });
    expect((await issues()).status).toBe(200);
    const res = await issues();
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("3600");
    const body = (await res.json()) as { error: string; hint: string };
    expect(body.error).toBe("upstream_rate_limited");
    expect(body.hint).toMatch(/3600 s/);
    expect(graphqlStatuses()).toEqual([200, status]);
  });

  it("renews once when Linear refuses the token with AUTHENTICATION_ERROR in a 400, and reads again", async () => {
    const before = await userToken(h.db, testSealer, csmId, "tracker");
    standIn.linearFaults.next({ error: "authentication", status: 400 });
    const res = await issues();
    expect(res.status).toBe(200);
    expect(graphqlStatuses()).toEqual([400, 200]);
    expect(tokenStatuses()).toEqual([200]);
    expect(credentials.renewals).toBe(1);
    expect((await userToken(h.db, testSealer, csmId, "tracker"))?.accessToken).not.toBe(before?.accessToken);
  });

  it("marks the connection when Linear refuses the renewed token too", async () => {
    standIn.linearFaults.next({ error: "authentication", status: 400 }, { error: "authentication", status: 400 });
    const res = await issues();
    expect(res.status).toBe(401);
    const body = (await res.json()) as { error: string; hint: string };
    expect(body.error).toBe("tracker_not_connected");
    expect(body.hint).toMatch(/refused the renewed token/);
    expect(tokenStatuses()).toEqual([200]);
    expect((await connectionStates(h.db, csmId)).get("tracker")?.reason).toMatch(/refused the renewed token/);
  });
});
