import fs from "node:fs";
import path from "node:path";
import { IntercomClient } from "intercom-client";
import yaml from "js-yaml";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { conversationThread, generateTenant } from "@/demo/tenant";
import { ApiError } from "@/lib/contract/errors";
import { toApiError } from "@/lib/connectors/errors";
import type { UpstreamOptions } from "@/lib/connectors/http";
import { serveOnLoopback, type Served } from "@/lib/connectors/stand-in/node-server";
import { intercomRateLimit, INTERCOM_VERSION } from "@/lib/connectors/support/client";
import { getConversation, listAllConversations, listConversationsPage, supportConnector } from "@/lib/connectors/support";
import { createSupportStandIn, INTERCOM_VERSIONS, type SupportStandInOptions } from "@/lib/connectors/support/stand-in";
import type { StandIn } from "@/lib/connectors/types";
import { createSealer } from "@/lib/crypto/secrets";
import { OpenApiDescription } from "./stand-in-openapi";
import { upstreamFailure } from "./upstream-failure";

// The Intercom stand-in judged by what Intercom publishes: its answers are checked against
// Intercom's OpenAPI description of version 2.11 (tests/fixtures/vendor-api/intercom), and
// Intercom's official SDK, intercom-client, reads the demo data through it with its own default
// API version. Rate limits are answered as Intercom documents them and read by the client.

const intercom = new OpenApiDescription(
  yaml.load(fs.readFileSync(path.resolve("tests/fixtures/vendor-api/intercom/api.intercom.io-2.11.yaml"), "utf8")),
  "https://api.intercom.io/openapi/2.11",
);

const tenant = generateTenant();
const sealer = createSealer("test-key-".repeat(4));
// The stand-in's clock runs with the real one (the client reads the vendor's reset against the
// real clock), moved on by whatever a test's sleep waits instead of waiting it.
const clock = {
  skew: 0,
  get now(): number {
    return Date.now() + this.skew;
  },
};
const ordered = [...tenant.conversations].sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map((c) => c.id);

async function serve(options: SupportStandInOptions = {}): Promise<{ standIn: StandIn; served: Served }> {
  const standIn = createSupportStandIn({ tenant, sealer, now: () => clock.now }, options);
  return { standIn, served: await serveOnLoopback((req) => standIn.handle(req, new URL(req.url).pathname)) };
}

let main: Awaited<ReturnType<typeof serve>>;
beforeAll(async () => {
  main = await serve();
});
afterAll(async () => {
  await main.served.close();
});
beforeEach(() => {
  clock.skew = 0;
  main.standIn.faults.clear();
});

const tokenFor = (standIn: StandIn, email: string) => standIn.oauth.mintGrant(email).access_token;
const headersAs = (standIn: StandIn, email: string, version = INTERCOM_VERSION) => ({ authorization: `Bearer ${tokenFor(standIn, email)}`, "intercom-version": version });

function expectConforms(result: { ok: boolean; errors: string[] }): void {
  expect(result.errors).toEqual([]);
  expect(result.ok).toBe(true);
}

/** An error answer checked against what the operation documents for its status, else Intercom's Error model. */
async function expectIntercomError(res: Response, method: string, route: string, code: string): Promise<void> {
  const body = (await res.json()) as { errors: { code: string }[] };
  expectConforms(intercom.documents(method, route, res.status) ? intercom.body(method, route, res.status, body) : intercom.component("error", body));
  expect(body.errors[0]?.code).toBe(code);
}

describe("the stand-in's answers validate against Intercom's published OpenAPI description (2.11)", () => {
  it("GET /me is an admin_with_app", async () => {
    const res = await fetch(`${main.served.url}/me`, { headers: headersAs(main.standIn, "csm@demo.test") });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expectConforms(intercom.body("get", "/me", 200, body));
    expect(body).toMatchObject({ type: "admin", email: "csm@demo.test", name: "Casey Morgan", job_title: expect.any(String), team_ids: expect.any(Array) });
  });

  it("every page of GET /conversations is a paginated_conversation_response, its cursor naming per_page", async () => {
    const auth = headersAs(main.standIn, "admin@demo.test");
    const ids: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 100; pages++) {
      const q = new URLSearchParams({ per_page: "40", ...(cursor ? { starting_after: cursor } : {}) });
      const res = await fetch(`${main.served.url}/conversations?${q}`, { headers: auth });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { conversations: { id: string }[]; pages: { next?: { starting_after: string; per_page: number } } };
      expectConforms(intercom.body("get", "/conversations", 200, body));
      ids.push(...body.conversations.map((c) => c.id));
      cursor = body.pages.next?.starting_after;
      if (!cursor) break;
      expect(body.pages.next?.per_page).toBe(40);
    }
    expect(ids).toEqual(ordered);
  });

  it("errors: 401 for a bad token, 400 for a bad cursor or an unknown version, in Intercom's error.list", async () => {
    const bad = await fetch(`${main.served.url}/conversations`, { headers: { authorization: "Bearer tok_nothing.here" } });
    expect(bad.status).toBe(401);
    await expectIntercomError(bad, "get", "/conversations", "unauthorized");

    const me = await fetch(`${main.served.url}/me`, { headers: { authorization: "Bearer tok_nothing.here" } });
    await expectIntercomError(me, "get", "/me", "unauthorized");

    const cursor = await fetch(`${main.served.url}/conversations?starting_after=nope`, { headers: headersAs(main.standIn, "csm@demo.test") });
    expect(cursor.status).toBe(400);
    await expectIntercomError(cursor, "get", "/conversations", "parameter_invalid");

    const version = await fetch(`${main.served.url}/me`, { headers: headersAs(main.standIn, "csm@demo.test", "2.99") });
    expect(version.status).toBe(400);
    await expectIntercomError(version, "get", "/me", "intercom_version_invalid");
  });
});

describe("Intercom-Version", () => {
  it.each(["2.12", "2.13", "2.14", "2.15", "Unstable"])("accepts %s, which Intercom documents", async (version) => {
    const res = await fetch(`${main.served.url}/me`, { headers: headersAs(main.standIn, "csm@demo.test", version) });
    expect(res.status).toBe(200);
  });

  it("knows every 2.x version up to the newest documented, and the 1.x ones", () => {
    for (const v of ["1.0", "1.4", "2.0", "2.9", "2.10", "2.11", "2.14"]) expect(INTERCOM_VERSIONS).toContain(v);
  });
});

describe("Intercom's own SDK, intercom-client, against the stand-in", () => {
  const sent: Headers[] = [];
  const recording: typeof fetch = (input, init) => {
    sent.push(new Headers(init?.headers));
    return fetch(input, init);
  };
  const sdk = (email: string) => new IntercomClient({ token: tokenFor(main.standIn, email), baseUrl: main.served.url, fetch: recording, maxRetries: 0 });

  it("admins.identify() with the SDK's default Intercom-Version names the teammate and workspace", async () => {
    sent.length = 0;
    const me = await sdk("csm@demo.test").admins.identify();
    expect(sent[0]?.get("intercom-version")).toBe("2.14");
    expect(me).toMatchObject({ type: "admin", email: "csm@demo.test", name: "Casey Morgan", app: { name: "Demo Schools" } });
  });

  it("conversations.list pages through every conversation with starting_after, as the service reads them", async () => {
    const page = await sdk("admin@demo.test").conversations.list({ per_page: 50 });
    const ids: string[] = [];
    for await (const c of page) ids.push(String(c.id));
    expect(ids).toEqual(ordered);
    const viaService = await listAllConversations({ baseUrl: main.served.url, authorization: supportConnector.authorization(tokenFor(main.standIn, "admin@demo.test")) }, { perPage: 50 });
    expect(viaService.map((c) => c.id)).toEqual(ids);
  });

  it("meets a refused token as Intercom's 401", async () => {
    const client = new IntercomClient({ token: "tok_nothing.here", baseUrl: main.served.url, maxRetries: 0 });
    await expect(client.admins.identify()).rejects.toMatchObject({ statusCode: 401 });
  });
});

describe("Intercom's rate limit", () => {
  const as = (standIn: StandIn, extra: Partial<UpstreamOptions> = {}, served = main.served): UpstreamOptions => ({
    baseUrl: served.url,
    authorization: supportConnector.authorization(tokenFor(standIn, "csm@demo.test")),
    timeoutMs: 5_000,
    ...extra,
  });

  it("reports the window's allowance on authenticated answers only", async () => {
    const s = await serve({ rateLimit: 5, rateWindowMs: 10_000 });
    try {
      const auth = headersAs(s.standIn, "csm@demo.test");
      const before = clock.now;
      const first = await fetch(`${s.served.url}/me`, { headers: auth });
      const after = clock.now;
      const second = await fetch(`${s.served.url}/conversations`, { headers: auth });
      expect([first.headers.get("x-ratelimit-limit"), first.headers.get("x-ratelimit-remaining"), second.headers.get("x-ratelimit-remaining")]).toEqual(["5", "4", "3"]);
      // The window opened with the first request, somewhere between these two readings of the clock.
      const reset = Number(first.headers.get("x-ratelimit-reset"));
      expect(reset).toBeGreaterThanOrEqual(Math.ceil((before + 10_000) / 1000));
      expect(reset).toBeLessThanOrEqual(Math.ceil((after + 10_000) / 1000));
      const anonymous = await fetch(`${s.served.url}/me`);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get("x-ratelimit-limit")).toBeNull();
    } finally {
      await s.served.close();
    }
  });

  it("answers 429 with X-RateLimit headers and no Retry-After once the allowance is spent", async () => {
    const s = await serve({ rateLimit: 1 });
    try {
      const auth = headersAs(s.standIn, "csm@demo.test");
      expect((await fetch(`${s.served.url}/me`, { headers: auth })).status).toBe(200);
      const limited = await fetch(`${s.served.url}/conversations`, { headers: auth });
      expect(limited.status).toBe(429);
      expect(limited.headers.get("retry-after")).toBeNull();
      expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(Number(limited.headers.get("x-ratelimit-reset"))).toBeGreaterThan(clock.now / 1000);
      await expectIntercomError(limited, "get", "/conversations", "rate_limit_exceeded");
    } finally {
      await s.served.close();
    }
  });

  it("waits until X-RateLimit-Reset when it is near, then reads on", async () => {
    const s = await serve({ rateLimit: 1, rateWindowMs: 3_000 });
    try {
      const waits: number[] = [];
      // Waiting moves the stand-in's clock, so its window turns as Intercom's would.
      const up = as(s.standIn, { sleep: async (ms) => void (waits.push(ms), (clock.skew += ms)) }, s.served);
      await supportConnector.probe(up);
      const page = await listConversationsPage(up, { perPage: 5 });
      expect(page.conversations.map((c) => c.id)).toEqual(ordered.slice(0, 5));
      expect(waits).toHaveLength(1);
      expect(waits[0]).toBeGreaterThanOrEqual(1_000);
      expect(waits[0]).toBeLessThanOrEqual(4_000);
    } finally {
      await s.served.close();
    }
  });

  it("fails as rate_limited when the reset is far off, which the API answers 503 upstream_rate_limited with Retry-After", async () => {
    const s = await serve({ rateLimit: 1, rateWindowMs: 60_000 });
    try {
      const waits: number[] = [];
      const up = as(s.standIn, { sleep: async (ms) => void waits.push(ms) }, s.served);
      await supportConnector.probe(up);
      const err = await upstreamFailure(listConversationsPage(up));
      expect(err).toMatchObject({ kind: "rate_limited", status: 429 });
      expect(waits).toEqual([]);
      expect(err.retryAfterMs).toBeGreaterThan(55_000);
      const api = toApiError("support", err) as ApiError;
      expect(api).toMatchObject({ code: "upstream_rate_limited", status: 503 });
      expect(Number(api.headers?.["retry-after"])).toBeGreaterThanOrEqual(56);
      expect(Number(api.headers?.["retry-after"])).toBeLessThanOrEqual(61);
    } finally {
      await s.served.close();
    }
  });

  it("reads a reset in the past as a second's wait, and a Retry-After first when one is sent", () => {
    const now = 1_900_000_000_000;
    const at = (headers: Record<string, string>) => intercomRateLimit(new Response("", { status: 429, headers }), now);
    expect(at({ "x-ratelimit-reset": String(now / 1000 - 5) })).toEqual({ waitMs: 1_000, kind: "rate_limited" });
    expect(at({ "x-ratelimit-reset": String(now / 1000 + 7) })).toEqual({ waitMs: 7_000, kind: "rate_limited" });
    expect(at({ "x-ratelimit-reset": String(now / 1000 + 7), "retry-after": "2" })).toEqual({ waitMs: 2_000, kind: "rate_limited" });
    expect(at({})).toEqual({ waitMs: null, kind: "rate_limited" });
    expect(intercomRateLimit(new Response("", { status: 500 }), now)).toBeNull();
  });
});

describe("one conversation with its parts, GET /conversations/{id}", () => {
  // A closed conversation with a teammate has replies and a close; an open one without does not.
  const closed = tenant.conversations.find((c) => c.state === "closed" && c.assigneeEmail !== null && c.title !== null)!;
  const unassigned = tenant.conversations.find((c) => c.assigneeEmail === null)!;

  it("is a conversation in Intercom's description, its parts oldest first, in HTML or plain text as asked", async () => {
    const auth = headersAs(main.standIn, "csm@demo.test");
    for (const c of [closed, unassigned]) {
      for (const display of ["", "?display_as=plaintext"]) {
        const res = await fetch(`${main.served.url}/conversations/${c.id}${display}`, { headers: auth });
        expect(res.status).toBe(200);
        const body = (await res.json()) as { id: string; source: { body: string }; conversation_parts: { conversation_parts: { part_type: string; body: string | null; created_at: number }[]; total_count: number } };
        expectConforms(intercom.body("get", "/conversations/{conversation_id}", 200, body));
        expect(body.id).toBe(c.id);
        const parts = body.conversation_parts.conversation_parts;
        expect(parts.length).toBe(conversationThread(tenant, c).length - 1);
        expect(body.conversation_parts.total_count).toBe(parts.length);
        expect(parts.map((p) => p.created_at)).toEqual(parts.map((p) => p.created_at).sort((a, b) => a - b));
        expect(body.source.body).toBe(display ? c.title ?? "Hello, I have a question." : `<p>${c.title ?? "Hello, I have a question."}</p>`.replace(/'/g, "&#39;"));
      }
    }
    const last = (await (await fetch(`${main.served.url}/conversations/${closed.id}`, { headers: auth })).json()) as { conversation_parts: { conversation_parts: { part_type: string; body: unknown }[] } };
    expect(last.conversation_parts.conversation_parts.at(-1)).toMatchObject({ part_type: "close", body: null });
  });

  it("answers an id the workspace does not have with Intercom's 404", async () => {
    const res = await fetch(`${main.served.url}/conversations/1`, { headers: headersAs(main.standIn, "csm@demo.test") });
    expect(res.status).toBe(404);
    await expectIntercomError(res, "get", "/conversations/{conversation_id}", "not_found");
  });

  it("intercom-client's conversations.find reads it, parts and all", async () => {
    const sdk = new IntercomClient({ token: tokenFor(main.standIn, "csm@demo.test"), baseUrl: main.served.url, maxRetries: 0 });
    const found = await sdk.conversations.find({ conversation_id: closed.id, display_as: "plaintext" });
    expect(found.id).toBe(closed.id);
    expect(found.conversation_parts?.conversation_parts?.map((p) => p.part_type).at(-1)).toBe("close");
    expect(found.source?.body).toBe(closed.title);
  });

  it("the service's client maps it: the opening message first, who wrote each part, text bodies; an unknown or malformed id is null", async () => {
    const asked: string[] = [];
    const counting = await serveOnLoopback((req) => {
      const p = new URL(req.url).pathname;
      asked.push(p);
      return main.standIn.handle(req, p);
    });
    try {
      const up: UpstreamOptions = { baseUrl: counting.url, authorization: supportConnector.authorization(tokenFor(main.standIn, "csm@demo.test")) };
      const detail = await getConversation(up, closed.id);
      const thread = conversationThread(tenant, closed);
      expect(detail).toMatchObject({ id: closed.id, state: "closed", title: closed.title });
      expect(detail?.parts.map((p) => [p.kind, p.author.type, p.body])).toEqual(thread.map((p) => [p.kind, p.author.kind, p.kind === "close" ? null : p.body]));
      expect(detail?.parts[0]?.author).toMatchObject({ type: "customer", name: thread[0]?.author.name });
      expect(await getConversation(up, "1")).toBeNull();
      expect(asked).toEqual([`/conversations/${closed.id}`, "/conversations/1"]);
      // Not a conversation id: never sent to the vendor, whose path it would otherwise change.
      for (const bad of ["../me", "1/reply", "%2e%2e", "", "1".repeat(21), "１２"]) expect(await getConversation(up, bad)).toBeNull();
      expect(asked).toHaveLength(2);
    } finally {
      await counting.close();
    }
  });
});
