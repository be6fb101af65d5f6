import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { generateTenant } from "@/demo/tenant";
import { endpointById } from "@/lib/contract/endpoints";
import type { UpstreamOptions } from "@/lib/connectors/http";
import { serveOnLoopback, type Served } from "@/lib/connectors/stand-in/node-server";
import { Hold } from "@/lib/connectors/stand-in/faults";
import { mintStandInToken } from "@/lib/connectors/stand-in/oauth";
import { createSealer } from "@/lib/crypto/secrets";
import { fetchAllConversations, fetchConversationPage, intercomErrorList } from "@/lib/connectors/support/client";
import { listAllConversations, listConversationsPage, supportConnector } from "@/lib/connectors/support";
import type { StandIn } from "@/lib/connectors/types";
import { upstreamFailure } from "./upstream-failure";

const tenant = generateTenant();
const sealer = createSealer("test-key-".repeat(4));
const response = endpointById("vendors.support.conversations").response;

let standIn: StandIn;
let served: Served;
const waits: number[] = [];
const sentHeaders: Headers[] = [];

/** Records what the client sent, then fetches for real. */
const recordingFetch: typeof fetch = (input, init) => {
  sentHeaders.push(new Headers(init?.headers));
  return fetch(input, init);
};

function upstreamAs(email: string, extra: Partial<UpstreamOptions> = {}): UpstreamOptions {
  return {
    baseUrl: served.url,
    authorization: supportConnector.authorization(standIn.oauth.mint(email)),
    sleep: async (ms) => {
      waits.push(ms);
    },
    fetch: recordingFetch,
    ...extra,
  };
}

/** The tenant's conversations in the order Intercom lists them: newest update first, then id. */
const expectedOrder = [...tenant.conversations].sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map((c) => c.id);

beforeAll(async () => {
  standIn = supportConnector.createStandIn({ tenant, sealer });
  served = await serveOnLoopback((req) => standIn.handle(req, new URL(req.url).pathname));
});

afterAll(async () => {
  await served.close();
});

beforeEach(() => {
  standIn.faults.clear();
  waits.length = 0;
  sentHeaders.length = 0;
});

describe("support connector definition", () => {
  it("describes an Intercom user connection", () => {
    expect(supportConnector).toMatchObject({
      slug: "support",
      title: "Customer messaging",
      product: "Intercom",
      credential: "user",
      scope: "read_conversations",
      tokenAuth: "body",
    });
    expect(supportConnector.authorization("tok_abc")).toBe("Bearer tok_abc");
  });
});

describe("conversations against the stand-in", () => {
  it.each(["admin@demo.test", "csm@demo.test"])("gives %s a first page that parses with the contract", async (email) => {
    const page = await listConversationsPage(upstreamAs(email));
    expect(page.conversations).toHaveLength(50);
    expect(page.nextVendorCursor).toEqual(expect.any(String));
    const body = response.parse({ conversations: page.conversations, nextCursor: page.nextVendorCursor });
    expect(body.conversations.map((c) => c.id)).toEqual(expectedOrder.slice(0, 50));

    const first = tenant.conversations.find((c) => c.id === page.conversations[0]?.id);
    expect(first).toBeDefined();
    expect(page.conversations[0]).toMatchObject({ state: first?.state, open: first?.open, createdAt: first?.createdAt, updatedAt: first?.updatedAt });
  });

  it("sends the bearer token, JSON accept and the pinned Intercom-Version", async () => {
    await listConversationsPage(upstreamAs("csm@demo.test"), { perPage: 5 });
    const sent = sentHeaders[0];
    expect(sent?.get("authorization")).toMatch(/^Bearer tok_/);
    expect(sent?.get("accept")).toBe("application/json");
    expect(sent?.get("intercom-version")).toBe("2.11");
    expect(standIn.faults.seen).toEqual([{ method: "GET", path: "/conversations", authScheme: "Bearer" }]);
  });

  it("round-trips the vendor cursor through every page, each conversation exactly once", async () => {
    const up = upstreamAs("csm@demo.test");
    const ids: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const page = await listConversationsPage(up, { vendorCursor: cursor, perPage: 25 });
      response.parse({ conversations: page.conversations, nextCursor: page.nextVendorCursor });
      ids.push(...page.conversations.map((c) => c.id));
      pages++;
      if (page.nextVendorCursor === null) break;
      expect(page.conversations).toHaveLength(25);
      cursor = page.nextVendorCursor;
      expect(pages).toBeLessThan(100);
    }
    expect(pages).toBe(Math.ceil(tenant.conversations.length / 25));
    expect(pages).toBeGreaterThan(2);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expectedOrder);
  });

  it("omits the title of untitled conversations", async () => {
    const all = await listAllConversations(upstreamAs("admin@demo.test"), { perPage: 150 });
    const untitled = tenant.conversations.filter((c) => c.title === null).map((c) => c.id);
    expect(untitled.length).toBeGreaterThan(0);
    for (const c of all) expect("title" in c).toBe(!untitled.includes(c.id));
  });

  it("pages through everything with the bounded all-pages reader", async () => {
    const all = await listAllConversations(upstreamAs("csm@demo.test"), { perPage: 40 });
    expect(all.map((c) => c.id)).toEqual(expectedOrder);
    expect(standIn.faults.seen).toHaveLength(Math.ceil(tenant.conversations.length / 40));
  });

  it("refuses to go past its page bound rather than return a partial list", async () => {
    const err = await upstreamFailure(fetchAllConversations(upstreamAs("csm@demo.test"), { perPage: 10, maxPages: 3 }));
    expect(err.kind).toBe("bad_response");
    expect(standIn.faults.seen).toHaveLength(3);
  });

  it("shows the workspace's conversations to any teammate, staff included", async () => {
    const staff = tenant.staff.find((s) => s.team === "Support");
    expect(staff).toBeDefined();
    const forStaff = await listConversationsPage(upstreamAs(staff?.email ?? ""), { perPage: 10 });
    const forMember = await listConversationsPage(upstreamAs("member@demo.test"), { perPage: 10 });
    expect(forStaff.conversations.map((c) => c.id)).toEqual(expectedOrder.slice(0, 10));
    expect(forMember).toEqual(forStaff);
  });

  it("surfaces a cursor Intercom did not issue as an upstream failure (400, kind server)", async () => {
    const up = upstreamAs("csm@demo.test");
    const madeUp = Buffer.from("conv:does-not-exist").toString("base64url");
    for (const bad of ["%%%garbage", madeUp, "bm90IGEgY3Vyc29y"]) {
      const err = await upstreamFailure(listConversationsPage(up, { vendorCursor: bad }));
      expect(err.kind).toBe("server");
      expect(err.status).toBe(400);
    }
  });

  it("answers a bad cursor with Intercom's parameter_invalid error body", async () => {
    const res = await fetch(`${served.url}/conversations?starting_after=nope`, {
      headers: { authorization: `Bearer ${standIn.oauth.mint("csm@demo.test")}` },
    });
    expect(res.status).toBe(400);
    const body = intercomErrorList.parse(await res.json());
    expect(body.errors[0]?.code).toBe("parameter_invalid");
  });

  it("rejects a page size outside Intercom's range before calling it", async () => {
    const up = upstreamAs("csm@demo.test");
    await expect(fetchConversationPage(up, { perPage: 0 })).rejects.toThrow(RangeError);
    await expect(fetchConversationPage(up, { perPage: 151 })).rejects.toThrow(RangeError);
    expect(standIn.faults.seen).toHaveLength(0);
  });
});

describe("upstream failures", () => {
  it("sorts an invalid token as unauthorized, with Intercom's error body", async () => {
    const forged = mintStandInToken(createSealer("other-key-".repeat(4)), "support", "tok", "csm@demo.test");
    const err = await upstreamFailure(listConversationsPage(upstreamAs("csm@demo.test", { authorization: `Bearer ${forged}` })));
    expect(err.kind).toBe("unauthorized");
    expect(err.status).toBe(401);

    const res = await fetch(`${served.url}/conversations`, { headers: { authorization: "Bearer tok_nothing.here" } });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({
      type: "error.list",
      request_id: expect.any(String),
      errors: [{ code: "unauthorized", message: "Access Token Invalid" }],
    });
  });

  it("refuses a request without a token and a token for someone outside the workspace", async () => {
    expect((await fetch(`${served.url}/me`)).status).toBe(401);
    const outsider = mintStandInToken(sealer, "support", "tok", "stranger@elsewhere.test");
    const err = await upstreamFailure(supportConnector.probe(upstreamAs("csm@demo.test", { authorization: `Bearer ${outsider}` })));
    expect(err.kind).toBe("unauthorized");
  });

  // A queued 429's seconds come back as Intercom says them: X-RateLimit-Reset, to the second.
  const resetWait = (seconds: number) => [expect.toSatisfy((ms: number) => ms > (seconds - 1) * 1000 && ms <= (seconds + 1) * 1000)];

  it("waits until a 429's X-RateLimit-Reset, then succeeds", async () => {
    standIn.faults.next({ status: 429, retryAfter: 2 });
    const page = await listConversationsPage(upstreamAs("csm@demo.test"), { perPage: 5 });
    expect(page.conversations.map((c) => c.id)).toEqual(expectedOrder.slice(0, 5));
    expect(waits).toEqual(resetWait(2));
    expect(standIn.faults.seen).toHaveLength(2);
  });

  it("answers a 429 with X-RateLimit headers and no Retry-After, as Intercom does", async () => {
    standIn.faults.next({ status: 429, retryAfter: 3 });
    const before = Math.ceil(Date.now() / 1000) + 3;
    const res = await fetch(`${served.url}/conversations`, { headers: { authorization: `Bearer ${standIn.oauth.mint("csm@demo.test")}` } });
    const after = Math.ceil(Date.now() / 1000) + 3;
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBeNull();
    expect(res.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
    expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(Number(res.headers.get("x-ratelimit-reset"))).toBeGreaterThanOrEqual(before);
    expect(Number(res.headers.get("x-ratelimit-reset"))).toBeLessThanOrEqual(after);
    expect(intercomErrorList.parse(await res.json()).errors[0]?.code).toBe("rate_limit_exceeded");
  });

  it("gives up as rate_limited when every retry is refused", async () => {
    standIn.faults.next({ status: 429, retryAfter: 1 }, { status: 429, retryAfter: 1 }, { status: 429, retryAfter: 1 });
    const err = await upstreamFailure(listConversationsPage(upstreamAs("csm@demo.test", { maxRetries: 2 })));
    expect(err.kind).toBe("rate_limited");
    expect(waits).toEqual([...resetWait(1), ...resetWait(1)]);
    expect(standIn.faults.seen).toHaveLength(3);
  });

  it("sorts a 500 as a server failure", async () => {
    standIn.faults.next({ status: 500 });
    const err = await upstreamFailure(listConversationsPage(upstreamAs("csm@demo.test")));
    expect(err.kind).toBe("server");
    expect(err.status).toBe(500);
  });

  it("sorts an answer slower than timeoutMs as a timeout", async () => {
    const hold = new Hold();
    standIn.faults.next({ hold });
    try {
      const err = await upstreamFailure(listConversationsPage(upstreamAs("csm@demo.test", { timeoutMs: 100 })));
      expect(err.kind).toBe("timeout");
    } finally {
      hold.release();
    }
  });
});

describe("probe", () => {
  it("names the workspace and teammate from GET /me", async () => {
    const result = await supportConnector.probe(upstreamAs("csm@demo.test"));
    expect(result.summary).toBe("Connected to Intercom workspace Demo Schools as Casey Morgan");
    expect(result.details.map((d) => d.label)).toEqual(["Workspace", "Account"]);
    expect(result.details[1]?.value).toBe("Casey Morgan <csm@demo.test>");
    expect(standIn.faults.seen).toEqual([expect.objectContaining({ method: "GET", path: "/me" })]);
    expect(sentHeaders[0]?.get("intercom-version")).toBe("2.11");
  });

  it("fails when Intercom refuses the token", async () => {
    standIn.faults.next({ status: 401 });
    expect((await upstreamFailure(supportConnector.probe(upstreamAs("csm@demo.test")))).kind).toBe("unauthorized");
  });
});
