import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { Client, SEARCH_LIMITER_OPTIONS } from "@hubspot/api-client";
import { FilterOperatorEnum } from "@hubspot/api-client/lib/codegen/crm/companies/index";
import { generateTenant } from "@/demo/tenant";
import { serveOnLoopback, type Served } from "@/lib/connectors/stand-in/node-server";
import { mintStandInToken } from "@/lib/connectors/stand-in/oauth";
import { createSealer } from "@/lib/crypto/secrets";
import {
  createCrmportalStandIn,
  crmportalProbe,
  fetchArchivedIds,
  fetchChanges,
  fetchOwners,
  HUBSPOT_LIMITS,
  listPortalCompanies,
  listPortalContacts,
  listPortalDeals,
  portalAuthorization,
  searchIntervalMs,
  standInPortalToken,
  type ChangeObject,
  type CrmportalStandIn,
  type CrmportalStandInOptions,
  type PortalUpstream,
} from "@/lib/connectors/crmportal";
import type { ChangesPage, CrmInstance, RecordOf } from "@/lib/connectors/crmportal/records";
import { HubspotSpec } from "../crm/hubspot-spec";
import { upstreamFailure } from "./upstream-failure";

// The CRM portal's stand-in and client proven against what HubSpot publishes: its official SDK
// (@hubspot/api-client) as a client of the stand-in, its OpenAPI descriptions
// (tests/fixtures/vendor-api/hubspot) as the schema of every answer the service reads, and its
// documented rate limits, enforced by the stand-in at their documented figures and followed by
// the client.

const tenant = generateTenant();
const sealer = createSealer("contract-key-".repeat(3));
const spec = new HubspotSpec();

const compareIds = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
const liveCompanies = tenant.companies.filter((c) => !c.archived);
const liveContacts = tenant.contacts.filter((c) => !c.archived);
const liveDeals = tenant.deals.filter((d) => !d.archived);

interface Portal {
  standIn: CrmportalStandIn;
  served: Served;
  token(instance?: CrmInstance): string;
}
const portals: Portal[] = [];
async function start(opts: CrmportalStandInOptions = {}, now?: () => number): Promise<Portal> {
  const standIn = createCrmportalStandIn({ tenant, sealer, ...(now ? { now } : {}) }, opts);
  const served = await serveOnLoopback((req) => standIn.handle(req, new URL(req.url).pathname));
  const p = { standIn, served, token: (instance: CrmInstance = "customers") => standInPortalToken(standIn, instance) };
  portals.push(p);
  return p;
}
afterAll(async () => {
  await Promise.all(portals.map((p) => p.served.close()));
});

/** Every answer that passed through `checkedFetch`, with what the published description says of it. */
interface Checked {
  operation: string;
  status: number;
  problems: string[];
}
const checked: Checked[] = [];
const checkedFetch: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  const url = new URL(input instanceof Request ? input.url : String(input));
  const method = init?.method ?? "GET";
  const body: unknown = await res.clone().json();
  const op = spec.operation(method, url.pathname);
  checked.push({
    operation: `${method} ${op?.template ?? url.pathname}`,
    status: res.status,
    problems: spec.check(method, url.pathname, res.status, body),
  });
  return res;
};

function upstream(p: Portal, instance: CrmInstance = "customers", extra: Partial<PortalUpstream> = {}): PortalUpstream {
  return { baseUrl: p.served.url, authorization: portalAuthorization(p.token(instance)), fetch: checkedFetch, ...extra };
}

const rateLimitHeaders = [
  "x-hubspot-ratelimit-daily",
  "x-hubspot-ratelimit-daily-remaining",
  "x-hubspot-ratelimit-interval-milliseconds",
  "x-hubspot-ratelimit-max",
  "x-hubspot-ratelimit-remaining",
  "x-hubspot-ratelimit-secondly",
  "x-hubspot-ratelimit-secondly-remaining",
];
const headersOf = (res: Response) => Object.fromEntries(rateLimitHeaders.map((h) => [h, res.headers.get(h)]));

function search(p: Portal, body: unknown = { limit: 1 }, type = "companies"): Promise<Response> {
  return fetch(`${p.served.url}/crm/v3/objects/${type}/search`, {
    method: "POST",
    headers: { authorization: `Bearer ${p.token()}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}
const get = (p: Portal, path: string, token = p.token()) => fetch(`${p.served.url}${path}`, { headers: { authorization: `Bearer ${token}` } });

describe("every answer the service reads conforms to HubSpot's published descriptions", () => {
  // Far above HubSpot's limits, so the whole portal can be read in a moment; the limits have tests of their own below.
  const roomy = { searchesPerSecond: 1_000, requestsPerTenSeconds: 10_000 };
  let main: Portal;
  let narrow: Portal;
  beforeAll(async () => {
    main = await start({ limits: roomy });
    narrow = await start({ limits: roomy, pageSizeCap: 2 });
  });
  beforeEach(() => {
    checked.length = 0;
  });

  const readEverything = async (p: Portal, instance: CrmInstance) => {
    const up = upstream(p, instance, { searchesPerSecond: roomy.searchesPerSecond });
    for (const object of ["companies", "contacts", "deals", "engagements"] as ChangeObject[]) {
      let after: string | null = null;
      do after = (await fetchChanges(up, object, null, after, { pageSize: 50 })).after;
      while (after !== null);
      await fetchArchivedIds(up, object);
    }
    await fetchOwners(up);
    await listPortalCompanies(up);
    await listPortalContacts(up);
    await listPortalDeals(up);
    await crmportalProbe(up);
  };

  it("reads of both portals: searches, lists with associations, archived ids, owners, association batches, account details", async () => {
    await readEverything(main, "customers");
    await readEverything(main, "users");
    // Owners page only on a portal that answers short pages.
    await fetchOwners(upstream(narrow, "customers", { searchesPerSecond: roomy.searchesPerSecond }));
    expect(checked.flatMap((c) => c.problems)).toEqual([]);
    const seen = [...new Set(checked.map((c) => `${c.operation} ${c.status}`))];
    for (const op of [
      "POST /crm/v3/objects/companies/search 200",
      "POST /crm/v3/objects/contacts/search 200",
      "POST /crm/v3/objects/0-3/search 200",
      "POST /crm/v3/objects/calls/search 200",
      "POST /crm/v3/objects/meetings/search 200",
      "POST /crm/v3/objects/emails/search 200",
      "GET /crm/v3/objects/companies 200",
      "GET /crm/v3/objects/contacts 200",
      "GET /crm/v3/objects/0-3 200",
      "GET /crm/v3/objects/calls 200",
      "GET /crm/v3/owners 200",
      "POST /crm/v4/associations/{fromObjectType}/{toObjectType}/batch/read 200",
      // Deals without a company come back as errors beside the others.
      "POST /crm/v4/associations/{fromObjectType}/{toObjectType}/batch/read 207",
      "GET /account-info/v3/details 200",
    ]) {
      expect(seen, op).toContain(op);
    }
  });

  it("paging objects, on searches, lists and owners alike", async () => {
    const up = upstream(narrow, "customers", { searchesPerSecond: roomy.searchesPerSecond });
    const first = await fetchChanges(up, "contacts", null, null, { pageSize: 10 });
    await fetchChanges(up, "contacts", null, first.after, { pageSize: 10 });
    await fetchArchivedIds(up, "deals");
    await fetchOwners(up);
    expect(checked.flatMap((c) => c.problems)).toEqual([]);
    expect(checked.filter((c) => c.operation === "GET /crm/v3/owners").length).toBeGreaterThan(2);
  });

  it("error answers: 400, 401, 403, 404, 429 of each limit and 500, in HubSpot's error body", async () => {
    let clock = Date.UTC(2026, 0, 15, 12);
    const limited = await start({ limits: { searchesPerSecond: 1, requestsPerTenSeconds: 1, requestsPerDay: 3 } }, () => clock);
    const answers: Response[] = [];
    const note = async (method: string, path: string, res: Promise<Response>) => {
      const r = await res;
      answers.push(r);
      const body: unknown = await r.clone().json();
      // A path no description has (an unknown type or route) is held to the error body every one shares.
      const problems = spec.operation(method, path) ? spec.check(method, path, r.status, body) : spec.checkError(body);
      checked.push({ operation: `${method} ${path}`, status: r.status, problems });
    };
    await note("POST", "/crm/v3/objects/companies/search", search(main, { limit: 500 }));
    const forged = mintStandInToken(createSealer("other-key-".repeat(4)), "crmportal", "pat-na1", "portal-customers@crmportal.demo.test");
    await note("GET", "/crm/v3/owners", get(main, "/crm/v3/owners", forged));
    main.standIn.faults.next({ status: 403 });
    await note("GET", "/crm/v3/objects/companies", get(main, "/crm/v3/objects/companies"));
    await note("GET", "/crm/v3/objects/widgets", get(main, "/crm/v3/objects/widgets"));
    await note("GET", "/crm/v3/objects/companies/batch/nothing", get(main, "/crm/v3/objects/companies/batch/nothing"));
    main.standIn.faults.next({ status: 500 });
    await note("GET", "/crm/v3/objects/deals", get(main, "/crm/v3/objects/deals"));
    // One search a second, one other request in ten seconds, three a day.
    await note("POST", "/crm/v3/objects/companies/search", search(limited));
    await note("POST", "/crm/v3/objects/companies/search", search(limited));
    await note("GET", "/crm/v3/owners", get(limited, "/crm/v3/owners"));
    await note("GET", "/crm/v3/owners", get(limited, "/crm/v3/owners"));
    clock += 10_000;
    await note("GET", "/account-info/v3/details", get(limited, "/account-info/v3/details"));
    await note("GET", "/account-info/v3/details", get(limited, "/account-info/v3/details"));

    expect(answers.map((r) => r.status)).toEqual([400, 401, 403, 400, 404, 500, 200, 429, 200, 429, 200, 429]);
    expect(checked.flatMap((c) => c.problems)).toEqual([]);
    const policies = await Promise.all(answers.filter((r) => r.status === 429).map(async (r) => ((await r.json()) as { policyName: string }).policyName));
    expect(policies).toEqual(["SECONDLY", "TEN_SECONDLY_ROLLING", "DAILY"]);
  });
});

describe("HubSpot's official SDK against the stand-in", () => {
  let hubspot: Portal;
  // The portal's clock runs with the real one (the SDK waits out a 429 in real time) and a test
  // moves it on instead of waiting for a window to pass.
  let skew = 0;
  beforeAll(async () => {
    // HubSpot's own limits, as documented.
    hubspot = await start({}, () => Date.now() + skew);
  });

  it("searches contacts page by page, oldest change first, within HubSpot's search limit when paced as the SDK advises", async () => {
    const client = new Client({ accessToken: hubspot.token(), basePath: hubspot.served.url, limiterOptions: SEARCH_LIMITER_OPTIONS });
    const refusedBefore = hubspot.standIn.limits.usage().refused.search;
    const ids: string[] = [];
    let after = "0";
    for (let i = 0; i < 20; i++) {
      const page = await client.crm.contacts.searchApi.doSearch({
        filterGroups: [],
        sorts: ["lastmodifieddate"],
        properties: ["email", "firstname", "lastname"],
        limit: 200,
        after,
      });
      expect(page.total).toBe(liveContacts.length);
      ids.push(...page.results.map((r) => r.id));
      const first = page.results[0];
      const contact = liveContacts.find((c) => c.id === first?.id);
      expect(first?.properties.email).toBe(contact?.email);
      expect(first?.updatedAt).toBeInstanceOf(Date);
      if (!page.paging?.next?.after) break;
      after = page.paging.next.after;
    }
    expect(ids).toEqual([...liveContacts].sort((a, b) => a.updatedAt - b.updatedAt || compareIds(a.id, b.id)).map((c) => c.id));
    expect(hubspot.standIn.limits.usage().refused.search).toBe(refusedBefore);
  });

  it("searches companies with a filter on the modification time", async () => {
    const client = new Client({ accessToken: hubspot.token(), basePath: hubspot.served.url, limiterOptions: SEARCH_LIMITER_OPTIONS });
    const byTime = [...liveCompanies].sort((a, b) => a.updatedAt - b.updatedAt);
    const since = byTime[100]?.updatedAt ?? 0;
    const page = await client.crm.companies.searchApi.doSearch({
      filterGroups: [{ filters: [{ propertyName: "hs_lastmodifieddate", operator: FilterOperatorEnum.Gte, value: String(since) }] }],
      sorts: ["hs_lastmodifieddate"],
      properties: ["name", "domain"],
      limit: 100,
      after: "0",
    });
    expect(page.total).toBe(liveCompanies.filter((c) => c.updatedAt >= since).length);
    expect(page.results.map((r) => r.properties.name)).toEqual(byTime.slice(100).map((c) => c.name));
  });

  it("pages companies, contacts and deals with the basic API, deals with their companies", async () => {
    const client = new Client({ accessToken: hubspot.token(), basePath: hubspot.served.url });
    // Each object's basic API has the same getPage; this is the part of its answer the test reads.
    type Page = {
      results: { id: string; properties: Record<string, string | null>; associations?: Record<string, { results: { id: string }[] }> }[];
      paging?: { next?: { after: string } };
    };
    type GetPage = (limit?: number, after?: string, properties?: string[], withHistory?: string[], associations?: string[], archived?: boolean) => Promise<Page>;
    const all = async (getPage: GetPage, properties: string[], associations?: string[]) => {
      const out: Page["results"] = [];
      let after: string | undefined;
      for (let i = 0; i < 50; i++) {
        const page = await getPage(100, after, properties, undefined, associations, false);
        out.push(...page.results);
        after = page.paging?.next?.after;
        if (!after) return out;
      }
      throw new Error("paging did not end");
    };
    const companies = await all((...a) => client.crm.companies.basicApi.getPage(...a), ["name", "domain"]);
    expect(companies.map((c) => c.id)).toEqual(liveCompanies.map((c) => c.id).sort(compareIds));
    expect(companies.find((c) => c.id === liveCompanies[0]?.id)?.properties.name).toBe(liveCompanies[0]?.name);

    const contacts = await all((...a) => client.crm.contacts.basicApi.getPage(...a), ["email"]);
    expect(contacts).toHaveLength(liveContacts.length);

    const deals = await all((...a) => client.crm.deals.basicApi.getPage(...a), ["dealname", "amount"], ["companies"]);
    expect(deals.map((d) => d.id)).toEqual(liveDeals.map((d) => d.id).sort(compareIds));
    for (const d of deals) {
      const want = liveDeals.find((x) => x.id === d.id)?.companyId ?? null;
      expect(d.associations?.companies?.results[0]?.id ?? null, d.id).toBe(want);
    }

    const owners = await client.crm.owners.ownersApi.getPage(undefined, undefined, 100, false);
    expect(owners.results.map((o) => o.email).sort()).toEqual(tenant.owners.filter((o) => o.active).map((o) => o.email).sort());

    const withCompany = liveDeals.filter((d) => d.companyId !== null).slice(0, 5);
    const batch = await client.crm.associations.v4.batchApi.getPage("deals", "companies", { inputs: withCompany.map((d) => ({ id: d.id })) });
    // The SDK names `from` `_from`, and reads toObjectId as the string the description says.
    expect(batch.results.map((r) => [r._from.id, r.to[0]?.toObjectId])).toEqual(withCompany.map((d) => [d.id, d.companyId]));
  });

  it("answers a burst of searches with the 429 the SDK's own retry recognises, and the SDK completes every one", async () => {
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      // No limiter: six searches at once, past HubSpot's four a second.
      const client = new Client({ accessToken: hubspot.token(), basePath: hubspot.served.url, numberOfApiCallRetries: 3 });
      // The searches of the tests before are a window ago.
      skew += 1_000;
      const before = hubspot.standIn.limits.usage().refused.search;
      const pages = await Promise.all(
        Array.from({ length: 6 }, () => client.crm.companies.searchApi.doSearch({ filterGroups: [], sorts: [], properties: ["name"], limit: 1, after: "0" })),
      );
      expect(pages.map((p) => p.total)).toEqual(Array(6).fill(liveCompanies.length));
      expect(hubspot.standIn.limits.usage().refused.search - before).toBe(2);
      // The SDK waits out a 429 only when its body says it is HubSpot's per-second limit.
      expect(quiet.mock.calls.filter(([line]) => String(line).includes("status code [429]"))).toHaveLength(2);
    } finally {
      quiet.mockRestore();
    }
  });
});

describe("HubSpot's rate limits", () => {
  it("answers four searches a second per token, then 429 in HubSpot's body, every answer with its X-HubSpot-RateLimit-* headers", async () => {
    let clock = Date.UTC(2026, 0, 15, 12);
    const hubspot = await start({}, () => clock);
    const answers = await Promise.all(Array.from({ length: 12 }, () => search(hubspot)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(HUBSPOT_LIMITS.searchesPerSecond);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(12 - HUBSPOT_LIMITS.searchesPerSecond);
    for (const r of answers) {
      const h = headersOf(r);
      expect(Object.values(h).every((v) => v !== null && /^\d+$/.test(v)), JSON.stringify(h)).toBe(true);
      expect(h).toMatchObject({ "x-hubspot-ratelimit-interval-milliseconds": "1000", "x-hubspot-ratelimit-max": "4", "x-hubspot-ratelimit-secondly": "4" });
    }
    expect(answers.filter((r) => r.status === 200).map((r) => r.headers.get("x-hubspot-ratelimit-remaining")).sort()).toEqual(["0", "1", "2", "3"]);
    const refused = answers.find((r) => r.status === 429)!;
    expect(refused.headers.get("x-hubspot-ratelimit-remaining")).toBe("0");
    expect(refused.headers.get("retry-after")).toBeNull();
    const body = await refused.json();
    expect(spec.check("POST", "/crm/v3/objects/companies/search", 429, body)).toEqual([]);
    expect(body).toMatchObject({ status: "error", message: "You have reached your secondly limit.", errorType: "RATE_LIMIT", policyName: "SECONDLY", category: "RATE_LIMITS" });

    // The window rolls: a second later searches are answered again. Another token's are its own.
    expect((await search(hubspot, { limit: 1 }, "contacts")).status).toBe(429);
    const users = await fetch(`${hubspot.served.url}/crm/v3/objects/contacts/search`, {
      method: "POST",
      headers: { authorization: `Bearer ${hubspot.token("users")}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(users.status).toBe(200);
    clock += 1_050;
    expect((await search(hubspot)).status).toBe(200);
  });

  it("counts other requests in ten-second windows apart from searches, and every request in the portal's day", async () => {
    let clock = Date.UTC(2026, 0, 15, 12);
    const p = await start({ limits: { requestsPerTenSeconds: 3, requestsPerDay: 9 } }, () => clock);
    const owners = () => get(p, "/crm/v3/owners");
    const burst = await Promise.all([owners(), owners(), owners(), owners()]);
    expect(burst.map((r) => r.status).sort()).toEqual([200, 200, 200, 429]);
    const refused = burst.find((r) => r.status === 429)!;
    expect(headersOf(refused)).toMatchObject({
      "x-hubspot-ratelimit-interval-milliseconds": "10000",
      "x-hubspot-ratelimit-max": "3",
      "x-hubspot-ratelimit-remaining": "0",
      "x-hubspot-ratelimit-daily": "9",
      "x-hubspot-ratelimit-daily-remaining": "6",
    });
    expect(await refused.json()).toMatchObject({ policyName: "TEN_SECONDLY_ROLLING", message: "You have reached your ten_secondly_rolling limit." });
    // Searches have their own limit: the ten-second window does not stop them.
    for (let i = 0; i < 4; i++) expect((await search(p)).status).toBe(200);
    clock += 10_000;
    const last = await owners();
    expect([last.status, last.headers.get("x-hubspot-ratelimit-daily-remaining")]).toEqual([200, "1"]);
    expect((await search(p)).status).toBe(200);

    // The day is spent: the client names the daily limit and does not hold the read for it.
    clock += 10_000;
    const waits: number[] = [];
    const err = await upstreamFailure(fetchOwners(upstream(p, "customers", { onWait: (ms) => waits.push(ms) })));
    expect(err).toMatchObject({ kind: "rate_limited", status: 429, retryAfterMs: 3_600_000 });
    expect(waits).toEqual([]);
    // The portal's day turns at its midnight (UTC−05:00), not UTC's.
    clock = Date.UTC(2026, 0, 16, 4, 59);
    expect((await owners()).status).toBe(429);
    clock = Date.UTC(2026, 0, 16, 5, 0);
    expect((await owners()).status).toBe(200);
  });

  it("the client spaces its searches to HubSpot's limit and meets no 429; told a faster limit than the portal's, it waits what the 429 says and still reads every page", async () => {
    const sent: number[] = [];
    const timed: typeof fetch = (input, init) => {
      if (String(input instanceof Request ? input.url : input).endsWith("/search")) sent.push(performance.now());
      return fetch(input, init);
    };
    const pageSize = 20;
    const pages = Math.ceil(liveCompanies.length / pageSize);
    const readCompanies = async (up: PortalUpstream) => {
      const ids: string[] = [];
      let after: string | null = null;
      do {
        const page: ChangesPage<RecordOf["companies"]> = await fetchChanges(up, "companies", null, after, { pageSize });
        ids.push(...page.records.map((r) => r.id));
        after = page.after;
      } while (after !== null);
      return ids;
    };
    const everyCompany = [...liveCompanies].sort((a, b) => a.updatedAt - b.updatedAt || compareIds(a.id, b.id)).map((c) => c.id);

    const paced = await start();
    const interval = searchIntervalMs({ baseUrl: paced.served.url });
    expect(interval).toBeCloseTo(1_000 / (HUBSPOT_LIMITS.searchesPerSecond * 0.9), 5);
    expect(await readCompanies(upstream(paced, "customers", { fetch: timed }))).toEqual(everyCompany);
    expect(paced.standIn.limits.usage()).toMatchObject({ searches: pages, refused: { search: 0, burst: 0, daily: 0 } });
    // Searches go in slots `interval` apart; a timer firing late shortens the gap after it, never
    // the span of five, so no second ever holds more than four.
    for (let i = 0; i + 4 < sent.length; i++) expect((sent[i + 4] ?? 0) - (sent[i] ?? 0)).toBeGreaterThan(1_000);
    // The whole span is the slots' span, less what the clocks allow: a timer fires on the event
    // loop's millisecond clock, up to a millisecond early against performance.now(), and the first
    // search is timed a little after its slot was taken. A slot lost would be `interval` short.
    expect((sent.at(-1) ?? 0) - (sent[0] ?? 0)).toBeGreaterThan((pages - 1) * interval - interval / 10);

    sent.length = 0;
    const unpaced = await start();
    const waits: number[] = [];
    const up = upstream(unpaced, "customers", { fetch: timed, searchesPerSecond: 1_000, maxRetries: 3, onWait: (ms, status) => waits.push(ms, status) });
    expect(await readCompanies(up)).toEqual(everyCompany);
    const refused = unpaced.standIn.limits.usage().refused.search;
    expect(refused).toBeGreaterThan(0);
    // Each 429 said none of the one-second window was left: the client waited the window.
    expect(waits).toEqual(Array(refused).fill([1_000, 429]).flat());
    expect(sent).toHaveLength(pages + refused);
  });
});
