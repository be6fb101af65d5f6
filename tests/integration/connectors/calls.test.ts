import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { generateTenant, type RecordedCall } from "@/demo/tenant";
import { endpointById } from "@/lib/contract/endpoints";
import type { UpstreamOptions } from "@/lib/connectors/http";
import { serveOnLoopback, type Served } from "@/lib/connectors/stand-in/node-server";
import { Hold } from "@/lib/connectors/stand-in/faults";
import { mintStandInToken } from "@/lib/connectors/stand-in/oauth";
import { createSealer } from "@/lib/crypto/secrets";
import { MAX_PAGES, gongCallsPage, gongTranscriptPage, listGongCalls, windowEndingAt } from "@/lib/connectors/calls/client";
import { createCallsStandIn } from "@/lib/connectors/calls/stand-in";
import { callsConnector, getTranscript, listCalls, probeCalls } from "@/lib/connectors/calls";
import type { StandIn } from "@/lib/connectors/types";
import { upstreamFailure } from "./upstream-failure";

const DAY = 86_400_000;
const PAGE_SIZE = 5;
const tenant = generateTenant({ referenceDate: "2026-11-20" });
const now = tenant.now;
const sealer = createSealer("test-key-".repeat(4));

const listResponse = endpointById("vendors.calls.calls").response;
const detailedResponse = endpointById("vendors.calls.detailed").response;
const transcriptResponse = endpointById("vendors.calls.transcript").response;

const gongError = (body: unknown) => {
  expect(body).toEqual({ requestId: expect.any(String), errors: [expect.any(String)] });
};

/** The tenant's calls Gong returns for a window, in the API's order: most recent first. */
function callsWithin(from: number, to: number): RecordedCall[] {
  return tenant.calls
    .filter((c) => Date.parse(c.started) >= from && Date.parse(c.started) < to)
    .sort((a, b) => Date.parse(b.started) - Date.parse(a.started) || (a.id < b.id ? -1 : 1));
}
const recent = callsWithin(now - 30 * DAY, now);

let standIn: StandIn;
let served: Served;
let defaultStandIn: StandIn;
let defaultServed: Served;
/** Where each stand-in serves the customer's API, as its token answer names it. */
let api: string;
let defaultApi: string;
/** A customer API path as the stand-in receives it. */
const at = (route: string) => `${new URL(api).pathname}${route}`;
const waits: number[] = [];

function upstream(extra: Partial<UpstreamOptions> = {}, email = "admin@demo.test"): UpstreamOptions {
  return {
    baseUrl: api,
    authorization: callsConnector.authorization(standIn.oauth.mint(email)),
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...extra,
  };
}

beforeAll(async () => {
  standIn = createCallsStandIn({ tenant, sealer }, { pageSize: PAGE_SIZE });
  served = await serveOnLoopback((req) => standIn.handle(req, new URL(req.url).pathname));
  defaultStandIn = callsConnector.createStandIn({ tenant, sealer });
  defaultServed = await serveOnLoopback((req) => defaultStandIn.handle(req, new URL(req.url).pathname));
  api = standIn.apiBaseFor!(served.url);
  defaultApi = defaultStandIn.apiBaseFor!(defaultServed.url);
});

afterAll(async () => {
  await served.close();
  await defaultServed.close();
});

beforeEach(() => {
  standIn.faults.clear();
  defaultStandIn.faults.clear();
  waits.length = 0;
});

afterEach(() => {
  vi.useRealTimers();
});

describe("calls connector definition", () => {
  it("describes Gong through a shared donor credential", () => {
    expect(callsConnector).toMatchObject({
      slug: "calls",
      title: "Call recording",
      product: "Gong",
      credential: "donor",
      scope: "api:calls:read:basic api:calls:read:extensive api:calls:read:transcript",
      tokenAuth: "basic",
    });
    expect(callsConnector.authorization("gong_abc")).toBe("Bearer gong_abc");
    expect(callsConnector.probeDescription).toMatch(/7 days/);
  });
});

describe("the tenant this file relies on", () => {
  it("spreads calls beyond the 30-day window and over several stand-in pages", () => {
    expect(recent.length).toBeGreaterThan(2 * PAGE_SIZE);
    expect(recent.length).toBeLessThan(tenant.calls.length);
  });
});

describe("calls against the stand-in", () => {
  it("lists the trailing 30 days across every page, most recent first, parsing with the contract", async () => {
    const result = await listCalls(upstream(), { detailed: false, now });
    const body = listResponse.parse(result);
    expect(body.calls.map((c) => c.id)).toEqual(recent.map((c) => c.id));
    const excluded = tenant.calls.filter((c) => Date.parse(c.started) < now - 30 * DAY);
    expect(excluded.length).toBeGreaterThan(0);
    for (const c of excluded) expect(body.calls.some((x) => x.id === c.id)).toBe(false);

    const first = recent[0];
    expect(body.calls[0]).toEqual({ id: first?.id, title: first?.title, started: first?.started, url: first?.url });
    expect(body.calls[0]).not.toHaveProperty("participants");

    const seen = standIn.faults.seen;
    expect(seen).toHaveLength(Math.ceil(recent.length / PAGE_SIZE));
    expect(seen.every((r) => r.method === "GET" && r.path === at("/v2/calls"))).toBe(true);
    // Sent as a bearer token (the stand-in accepted it; the recorder keeps only the scheme).
    expect(seen[0]?.authScheme).toBe("Bearer");
  });

  it("cuts the window at exactly 30 days before now: the start is in, a millisecond later it is out", async () => {
    const edge = recent.at(-1);
    expect(edge).toBeDefined();
    const startedAt = Date.parse(edge?.started ?? "");
    const ids = async (at: number) => (await listCalls(upstream(), { detailed: false, now: at })).calls.map((c) => c.id);
    expect(await ids(startedAt + 30 * DAY)).toContain(edge?.id);
    expect(await ids(startedAt + 30 * DAY + 1)).not.toContain(edge?.id);
    expect(await ids(startedAt)).not.toContain(edge?.id);
  });

  it("sends the window and passes records.cursor back until it is absent", async () => {
    const sent: URL[] = [];
    const recording: typeof fetch = (input, init) => {
      sent.push(new URL(String(input)));
      return fetch(input, init);
    };
    const calls = await listGongCalls(upstream({ fetch: recording }), windowEndingAt(now, 30));
    expect(calls).toHaveLength(recent.length);
    expect(sent[0]?.searchParams.get("fromDateTime")).toBe(new Date(now - 30 * DAY).toISOString());
    expect(sent[0]?.searchParams.get("toDateTime")).toBe(new Date(now).toISOString());
    expect(sent[0]?.searchParams.has("cursor")).toBe(false);
    for (const u of sent.slice(1)) expect(u.searchParams.get("cursor")).toEqual(expect.any(String));
    expect(new Set(sent.map((u) => u.searchParams.get("cursor"))).size).toBe(sent.length);
  });

  it("lists calls with participants from the extensive endpoint, paging with the cursor in the body", async () => {
    const result = await listCalls(upstream(), { detailed: true, now });
    const body = detailedResponse.parse(result);
    expect(body.calls.map((c) => c.id)).toEqual(recent.map((c) => c.id));
    for (const c of body.calls) {
      const source = tenant.calls.find((t) => t.id === c.id);
      expect(c.participants).toEqual(source?.parties.map((p) => ({ name: p.name, affiliation: p.affiliation, speakerId: p.speakerId })));
    }
    expect(body.calls.some((c) => c.participants.some((p) => p.speakerId === null))).toBe(true);
    expect(body.calls.some((c) => c.participants.some((p) => p.affiliation === "External"))).toBe(true);
    const seen = standIn.faults.seen;
    expect(seen).toHaveLength(Math.ceil(recent.length / PAGE_SIZE));
    expect(seen.every((r) => r.method === "POST" && r.path === at("/v2/calls/extensive"))).toBe(true);
  });

  it("answers the same calls whoever's Gong token is used: the donor sees the whole workspace", async () => {
    const staff = tenant.staff.find((s) => s.team === "Engineering" && s.lifecycleStage === "active");
    expect(staff).toBeDefined();
    const asAdmin = await listCalls(upstream(), { detailed: false, now });
    const asStaff = await listCalls(upstream({}, staff?.email ?? ""), { detailed: false, now });
    expect(asStaff).toEqual(asAdmin);
  });

  it("answers no calls, not a failure, when Gong finds none in the window (its 404)", async () => {
    const before = Date.parse(tenant.calls[0]?.started ?? "") - DAY;
    expect(await listCalls(upstream(), { detailed: false, now: before })).toEqual({ calls: [] });
    expect(await listCalls(upstream(), { detailed: true, now: before })).toEqual({ calls: [] });
    const res = await fetch(`${api}/v2/calls?fromDateTime=2020-01-01T00:00:00Z&toDateTime=2020-01-02T00:00:00Z`, {
      headers: { authorization: `Bearer ${standIn.oauth.mint("admin@demo.test")}` },
    });
    expect(res.status).toBe(404);
    gongError(await res.json());
  });

  it("pages with the default page size too", async () => {
    const result = await listCalls({ ...upstream(), baseUrl: defaultApi }, { detailed: false, now });
    expect(result.calls.map((c) => c.id)).toEqual(recent.map((c) => c.id));
    expect(defaultStandIn.faults.seen).toHaveLength(Math.ceil(recent.length / 20));
    expect(defaultStandIn.faults.seen.length).toBeGreaterThan(1);
  });
});

describe("transcripts", () => {
  it("answers every recent call's transcript as speaker turns, in order, parsing with the contract", async () => {
    const up = upstream();
    for (const c of recent) {
      const t = await getTranscript(up, c.id, { now });
      expect(transcriptResponse.parse(t)).toEqual({ callId: c.id, segments: c.transcript });
    }
    expect(standIn.faults.seen.every((r) => r.method === "POST" && r.path === at("/v2/calls/transcript"))).toBe(true);
    // Gong's speaker ids join segments to participants.
    const detailed = await listCalls(up, { detailed: true, now });
    const c = detailed.calls[0];
    const t = await getTranscript(up, c?.id ?? "", { now });
    const speakers = new Set(c?.participants.map((p) => p.speakerId).filter((s) => s !== null));
    for (const s of t?.segments ?? []) if (s.speakerId !== null) expect(speakers.has(s.speakerId)).toBe(true);
  });

  it("splits turns into timed sentences at the stand-in, which the client joins back", async () => {
    const c = recent.find((x) => x.transcript.some((s) => /[.!?] \S/.test(s.text)));
    expect(c).toBeDefined();
    const res = await fetch(`${api}/v2/calls/transcript`, {
      method: "POST",
      headers: { authorization: `Bearer ${standIn.oauth.mint("admin@demo.test")}`, "content-type": "application/json" },
      body: JSON.stringify({ filter: { callIds: [c?.id] } }),
    });
    expect(res.status).toBe(200);
    const body = gongTranscriptPage.parse(await res.json());
    const monologues = body.callTranscripts[0]?.transcript ?? [];
    expect(body.callTranscripts.map((t) => t.callId)).toEqual([c?.id]);
    expect(monologues.map((m) => m.speakerId ?? null)).toEqual(c?.transcript.map((s) => s.speakerId));
    expect(monologues.some((m) => m.sentences.length > 1)).toBe(true);
    const starts = monologues.flatMap((m) => m.sentences.map((s) => s.start ?? -1));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(starts[0]).toBeGreaterThanOrEqual(0);
  });

  it("answers null for an unknown id, an id Gong could not issue, and a call older than 30 days", async () => {
    const up = upstream();
    expect(await getTranscript(up, "1234567890123456", { now })).toBeNull();
    const before = standIn.faults.seen.length;
    expect(await getTranscript(up, "../v2/calls", { now })).toBeNull();
    expect(standIn.faults.seen).toHaveLength(before);
    const old = tenant.calls.find((c) => Date.parse(c.started) < now - 30 * DAY);
    expect(old).toBeDefined();
    expect(await getTranscript(up, old?.id ?? "", { now })).toBeNull();
    expect(await getTranscript(up, old?.id ?? "", { now: Date.parse(old?.started ?? "") + DAY })).toMatchObject({ callId: old?.id });
  });
});

describe("paging safety", () => {
  const endless = (cursorOf: (n: number) => string): typeof fetch => {
    let n = 0;
    return async () => {
      n += 1;
      return Response.json({ requestId: "r", records: { totalRecords: 9999, currentPageSize: 1, currentPageNumber: n, cursor: cursorOf(n) }, calls: [] });
    };
  };

  it("refuses to run past its page bound rather than answer a partial list", async () => {
    const err = await upstreamFailure(listCalls(upstream({ fetch: endless((n) => `c${n}`) }), { detailed: false, now }));
    expect(err.kind).toBe("bad_response");
    expect(err.message).toContain(String(MAX_PAGES));
  });

  it("refuses a cursor that repeats", async () => {
    const err = await upstreamFailure(listCalls(upstream({ fetch: endless(() => "same") }), { detailed: false, now }));
    expect(err.kind).toBe("bad_response");
  });

  it("refuses a vendor answer of the wrong shape", async () => {
    const broken: typeof fetch = async () => Response.json({ records: { totalRecords: 1 }, calls: [{ id: 7 }] });
    expect((await upstreamFailure(listCalls(upstream({ fetch: broken }), { detailed: false, now }))).kind).toBe("bad_response");
  });

  it("rejects a forged cursor, or one from another window, with Gong's error body", async () => {
    const auth = { authorization: `Bearer ${standIn.oauth.mint("admin@demo.test")}` };
    const w = windowEndingAt(now, 30);
    const first = await fetch(`${api}/v2/calls?${new URLSearchParams({ ...w })}`, { headers: auth });
    const issued = gongCallsPage.parse(await first.json()).records.cursor ?? "";
    expect(issued).not.toBe("");
    const other = windowEndingAt(now, 20);
    for (const [query, c] of [
      [other, issued],
      [w, "forged.cursor"],
    ] as const) {
      const res = await fetch(`${api}/v2/calls?${new URLSearchParams({ ...query, cursor: c })}`, { headers: auth });
      expect(res.status).toBe(400);
      gongError(await res.json());
    }
    const bad = await fetch(`${api}/v2/calls?fromDateTime=yesterday`, { headers: auth });
    expect(bad.status).toBe(400);
  });
});

describe("upstream failures", () => {
  it("sorts an invalid token as unauthorized, with Gong's error body", async () => {
    const forged = mintStandInToken(createSealer("other-key-".repeat(4)), "calls", "gong", "admin@demo.test");
    const err = await upstreamFailure(listCalls(upstream({ authorization: `Bearer ${forged}` }), { detailed: false, now }));
    expect(err.kind).toBe("unauthorized");
    expect(err.status).toBe(401);

    const res = await fetch(`${api}/v2/calls/extensive`, { method: "POST", body: "{}" });
    expect(res.status).toBe(401);
    gongError(await res.json());

    const outsider = mintStandInToken(sealer, "calls", "gong", "someone@elsewhere.test");
    expect((await upstreamFailure(getTranscript(upstream({ authorization: `Bearer ${outsider}` }), recent[0]?.id ?? "", { now }))).kind).toBe("unauthorized");
  });

  it("waits out a 429's Retry-After mid-paging, then completes the list", async () => {
    standIn.faults.next({ status: 429, retryAfter: 2, pathIncludes: "/v2/calls/extensive" });
    const result = await listCalls(upstream(), { detailed: true, now });
    expect(result.calls.map((c) => c.id)).toEqual(recent.map((c) => c.id));
    expect(waits).toEqual([2000]);
    expect(standIn.faults.seen).toHaveLength(Math.ceil(recent.length / PAGE_SIZE) + 1);
  });

  it("gives up as rate_limited when every retry is refused", async () => {
    standIn.faults.next({ status: 429, retryAfter: 1 }, { status: 429, retryAfter: 1 }, { status: 429, retryAfter: 1 });
    const err = await upstreamFailure(listCalls(upstream({ maxRetries: 2 }), { detailed: false, now }));
    expect(err.kind).toBe("rate_limited");
    expect(waits).toEqual([1000, 1000]);
    expect(standIn.faults.seen).toHaveLength(3);
  });

  it("sorts a 500 as a server failure, even on a later page", async () => {
    // The first page goes through (the first fault is nothing), the second is the 500.
    standIn.faults.next({}, { status: 500 });
    const err = await upstreamFailure(listCalls(upstream(), { detailed: false, now }));
    expect(err.kind).toBe("server");
    expect(err.status).toBe(500);
    expect(standIn.faults.seen).toHaveLength(2);
  });

  it("sorts an answer slower than timeoutMs as a timeout", async () => {
    const hold = new Hold();
    standIn.faults.next({ hold });
    try {
      const err = await upstreamFailure(getTranscript(upstream({ timeoutMs: 100 }), recent[0]?.id ?? "", { now }));
      expect(err.kind).toBe("timeout");
    } finally {
      hold.release();
    }
  });
});

describe("probe", () => {
  const week = callsWithin(now - 7 * DAY, now);

  it("counts the last week's calls from the first page only", async () => {
    expect(week.length).toBeGreaterThan(PAGE_SIZE);
    const result = await probeCalls(upstream(), now);
    expect(result.summary).toBe(`Gong answered: ${week.length} calls in the last 7 days`);
    expect(result.details[0]).toEqual({ label: "Calls (7 days)", value: String(week.length) });
    expect(result.details[1]?.label).toBe("Latest call on first page");
    expect(standIn.faults.seen).toEqual([expect.objectContaining({ method: "GET", path: at("/v2/calls") })]);
  });

  it("runs as the connector's probe, reporting the latest call date when one page holds the week", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(now);
    const result = await callsConnector.probe({ ...upstream(), baseUrl: defaultApi });
    expect(result.summary).toBe(`Gong answered: ${week.length} calls in the last 7 days`);
    expect(result.details).toEqual([
      { label: "Calls (7 days)", value: String(week.length) },
      { label: "Latest call date", value: week[0]?.started.slice(0, 10) },
    ]);
    expect(defaultStandIn.faults.seen).toHaveLength(1);
  });

  it("reports an empty week as zero calls", async () => {
    const result = await probeCalls(upstream(), Date.parse(tenant.calls[0]?.started ?? "") - DAY);
    expect(result.summary).toBe("Gong answered: 0 calls in the last 7 days");
  });

  it("fails when Gong refuses the token", async () => {
    standIn.faults.next({ status: 401 });
    expect((await upstreamFailure(probeCalls(upstream(), now))).kind).toBe("unauthorized");
  });
});
