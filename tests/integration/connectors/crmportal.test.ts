import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { generateTenant, type Tenant } from "@/demo/tenant";
import { endpointById } from "@/lib/contract/endpoints";
import type { UpstreamOptions } from "@/lib/connectors/http";
import { serveOnLoopback, type Served } from "@/lib/connectors/stand-in/node-server";
import { Hold } from "@/lib/connectors/stand-in/faults";
import { mintStandInToken } from "@/lib/connectors/stand-in/oauth";
import { createSealer } from "@/lib/crypto/secrets";
import { hubspotError } from "@/lib/connectors/crmportal/client";
import {
  createCrmportalStandIn,
  crmportalProbe,
  fetchArchivedIds,
  fetchChanges,
  fetchOwners,
  listPortalCompanies,
  listPortalContacts,
  listPortalDeals,
  portalAuthorization,
  standInPortalToken,
  type ChangeObject,
  type CrmportalStandInOptions,
  type FetchChangesOptions,
} from "@/lib/connectors/crmportal";
import type { CrmportalStandIn, PortalUpstream } from "@/lib/connectors/crmportal";
import type { ChangesPage, CrmInstance, RecordOf } from "@/lib/connectors/crmportal/records";
import { upstreamFailure } from "./upstream-failure";

const tenant = generateTenant();
const sealer = createSealer("test-key-".repeat(4));

/** HubSpot ids are unpadded numbers: shorter first, then by digits. */
function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
function byTimeThenId<T extends { id: string }>(rows: readonly T[], at: (r: T) => number): T[] {
  return [...rows].sort((a, b) => at(a) - at(b) || compareIds(a.id, b.id));
}

interface Portal {
  standIn: CrmportalStandIn;
  served: Served;
}
/**
 * These tests read far more than HubSpot's limits allow in a second; their portals allow this
 * many searches a second (and ten times as many other requests in ten seconds), and the client
 * paces to it. The contract tests (crmportal-contract.test.ts) keep HubSpot's own limits.
 */
const FAST = 1_000;
const portals: Portal[] = [];
async function start(t: Tenant, opts: CrmportalStandInOptions = {}): Promise<Portal> {
  const standIn = createCrmportalStandIn({ tenant: t, sealer }, { ...opts, limits: { searchesPerSecond: FAST, requestsPerTenSeconds: 10 * FAST, ...opts.limits } });
  const served = await serveOnLoopback((req) => standIn.handle(req, new URL(req.url).pathname));
  const p = { standIn, served };
  portals.push(p);
  return p;
}

/** What the client sent, request by request. */
interface Sent {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  authorization: string | null;
}
const sent: Sent[] = [];
const waits: number[] = [];
const recordingFetch: typeof fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const body = typeof init?.body === "string" ? (JSON.parse(init.body) as unknown) : undefined;
  sent.push({ method: init?.method ?? "GET", path: url.pathname, query: url.searchParams, body, authorization: new Headers(init?.headers).get("authorization") });
  return fetch(input, init);
};

function upstream(p: Portal, instance: CrmInstance = "customers", extra: Partial<PortalUpstream> = {}): PortalUpstream {
  return {
    baseUrl: p.served.url,
    authorization: portalAuthorization(standInPortalToken(p.standIn, instance)),
    searchesPerSecond: FAST,
    fetch: recordingFetch,
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...extra,
  };
}

interface SearchBody {
  filterGroups: { filters: { propertyName: string; operator: string; value: string }[] }[];
  sorts: { propertyName: string; direction: string }[];
  properties: string[];
  limit: number;
  after?: string;
}
function searchBodies(type: string): SearchBody[] {
  return sent.filter((s) => s.path === `/crm/v3/objects/${type}/search`).map((s) => s.body as SearchBody);
}

/** Every page of a read, checking the paging invariants on the way. */
async function readAll<O extends ChangeObject>(
  up: UpstreamOptions,
  object: O,
  since: number | null,
  opts: FetchChangesOptions = {},
): Promise<{ records: RecordOf[O][]; pages: { size: number; total: number | null }[] }> {
  const records: RecordOf[O][] = [];
  const pages: { size: number; total: number | null }[] = [];
  let after: string | null = null;
  for (let i = 0; i < 1_000; i++) {
    const page: ChangesPage<RecordOf[O]> = await fetchChanges(up, object, since, after, opts);
    records.push(...page.records);
    pages.push({ size: page.records.length, total: page.total });
    if (page.after === null) return { records, pages };
    expect(typeof page.after).toBe("string");
    after = page.after;
  }
  throw new Error("the read did not end");
}

// ── what the tenant says the portals hold ─────────────────────────────────────────────────

const liveCompanies = tenant.companies.filter((c) => !c.archived);
const liveContacts = tenant.contacts.filter((c) => !c.archived);
const liveDeals = tenant.deals.filter((d) => !d.archived);
const engagementsOf = (kind: "call" | "meeting" | "email") =>
  byTimeThenId(
    tenant.engagements.filter((e) => e.kind === kind),
    (e) => e.timestamp,
  );

const expectedCompanies: RecordOf["companies"][] = byTimeThenId(liveCompanies, (c) => c.updatedAt).map((c) => ({
  id: c.id,
  name: c.name,
  domain: c.domain,
  industry: c.industry,
  employees: c.employees,
  parentCompanyId: c.parentCompanyId,
  arr: c.arr,
  tier: c.tier,
  ownerId: c.ownerId,
  productSchoolId: c.productSchoolId,
  enrolment: c.enrolment,
  churnedDate: c.churnedDate,
  updatedAt: c.updatedAt,
}));

let main: Portal;
let capped: Portal;
let narrow: Portal;

beforeAll(async () => {
  main = await start(tenant);
  capped = await start(tenant, { searchCap: 7 });
  narrow = await start(tenant, { pageSizeCap: 2 });
});

afterAll(async () => {
  await Promise.all(portals.map((p) => p.served.close()));
});

beforeEach(() => {
  for (const p of portals) p.standIn.faults.clear();
  sent.length = 0;
  waits.length = 0;
});

describe("the tenant behind the tests", () => {
  it("has what the assertions below rely on", () => {
    // Distinct modification times make "records at or after a time" a plain slice.
    expect(new Set(liveCompanies.map((c) => c.updatedAt)).size).toBe(liveCompanies.length);
    expect(tenant.companies.some((c) => c.archived)).toBe(true);
    expect(liveDeals.some((d) => d.companyId === null)).toBe(true);
    expect(liveContacts.some((c) => c.companyId === null)).toBe(true);
    expect(tenant.owners.filter((o) => !o.active)).toHaveLength(1);
    expect(liveCompanies.length).toBeGreaterThan(100);
  });
});

describe("fetchChanges: incremental reads from the customers portal", () => {
  it("pages companies oldest change first, every record once, mapped from HubSpot's strings", async () => {
    const { records, pages } = await readAll(upstream(main), "companies", null, { pageSize: 25 });
    expect(records).toEqual(expectedCompanies);
    expect(pages.map((p) => p.size)).toEqual([...Array(Math.floor(liveCompanies.length / 25)).fill(25), liveCompanies.length % 25].filter((n) => n > 0));
    expect(new Set(pages.map((p) => p.total))).toEqual(new Set([liveCompanies.length]));

    // A district carries its own ARR and no school id; its schools carry the same ARR.
    const district = records.find((c) => c.parentCompanyId === null && c.arr !== null);
    const school = records.find((c) => c.parentCompanyId === district?.id);
    expect(district?.productSchoolId).toBeNull();
    expect(school?.arr).toBe(district?.arr);
    expect(typeof school?.enrolment === "number" || school?.enrolment === null).toBe(true);
  });

  it("sends HubSpot's search body: GTE on the modification time, ascending, limit and properties, then `after` as an offset", async () => {
    const since = expectedCompanies[10]?.updatedAt ?? 0;
    const first = await fetchChanges(upstream(main), "companies", since, null, { pageSize: 5 });
    await fetchChanges(upstream(main), "companies", since, first.after, { pageSize: 5 });
    const [a, b] = searchBodies("companies");
    expect(a).toEqual({
      filterGroups: [{ filters: [{ propertyName: "hs_lastmodifieddate", operator: "GTE", value: String(since) }] }],
      sorts: [{ propertyName: "hs_lastmodifieddate", direction: "ASCENDING" }],
      properties: expect.arrayContaining(["name", "domain", "numberofemployees", "hs_parent_company_id", "hubspot_owner_id", "arr", "tier", "product_school_id", "enrolment", "churned_date", "hs_lastmodifieddate"]),
      limit: 5,
    });
    expect(b).toMatchObject({ after: "5", limit: 5 });
    expect(sent[0]).toMatchObject({ method: "POST", authorization: expect.stringMatching(/^Bearer pat-na1_/) });
  });

  it("reads only records modified at or after the watermark, the boundary record included", async () => {
    const k = 97;
    const since = expectedCompanies[k]?.updatedAt ?? 0;
    const { records, pages } = await readAll(upstream(main), "companies", since, { pageSize: 10 });
    expect(records.map((r) => r.id)).toEqual(expectedCompanies.slice(k).map((c) => c.id));
    expect(records[0]?.updatedAt).toBe(since);
    expect(pages[0]?.total).toBe(liveCompanies.length - k);
    for (let i = 1; i < records.length; i++) expect(records[i]?.updatedAt).toBeGreaterThan(records[i - 1]?.updatedAt ?? Infinity);

    const none = await fetchChanges(upstream(main), "companies", (expectedCompanies.at(-1)?.updatedAt ?? 0) + 1, null);
    expect(none).toEqual({ records: [], total: 0, after: null });
  });

  it("pages contacts, keeping a contact without a company as null", async () => {
    const { records, pages } = await readAll(upstream(main), "contacts", null, { pageSize: 40 });
    const expected = byTimeThenId(liveContacts, (c) => c.updatedAt).map((c) => ({
      id: c.id,
      email: c.email,
      firstName: c.firstName,
      lastName: c.lastName,
      companyId: c.companyId,
      lifecycleStage: c.lifecycleStage,
      updatedAt: c.updatedAt,
    }));
    expect(records).toEqual(expected);
    expect(pages.length).toBe(Math.ceil(liveContacts.length / 40));
    expect(records.filter((c) => c.companyId === null).length).toBe(liveContacts.filter((c) => c.companyId === null).length);
    // Contacts keep their modification time in `lastmodifieddate`.
    expect(searchBodies("contacts")[0]?.sorts).toEqual([{ propertyName: "lastmodifieddate", direction: "ASCENDING" }]);
  });

  it("pages deals with the company from the association read; a deal without one has companyId null", async () => {
    const { records, pages } = await readAll(upstream(main), "deals", null, { pageSize: 7 });
    const expected = byTimeThenId(liveDeals, (d) => d.updatedAt).map((d) => ({
      id: d.id,
      name: d.name,
      companyId: d.companyId,
      amount: d.amount,
      stage: d.stage,
      closeDate: d.closeDate,
      ownerId: d.ownerId,
      updatedAt: d.updatedAt,
    }));
    expect(records).toEqual(expected);
    expect(records.some((d) => d.companyId === null)).toBe(true);
    expect(pages.map((p) => p.size)).toEqual(expected.map((_, i) => i).filter((i) => i % 7 === 0).map((i) => Math.min(7, expected.length - i)));

    const batches = sent.filter((s) => s.path === "/crm/v4/associations/deals/companies/batch/read");
    expect(batches).toHaveLength(pages.length);
    expect(batches[0]?.body).toEqual({ inputs: expected.slice(0, 7).map((d) => ({ id: d.id })) });
  });

  it("merges calls, meetings and emails type by type, each oldest first, with their companies and owners", async () => {
    const { records, pages } = await readAll(upstream(main), "engagements", null, { pageSize: 50 });
    const expected = [...engagementsOf("call"), ...engagementsOf("meeting"), ...engagementsOf("email")].map((e) => ({
      id: e.id,
      kind: e.kind,
      companyId: e.companyId,
      ownerId: e.ownerId,
      occurredAt: e.timestamp,
      updatedAt: e.timestamp,
    }));
    expect(records).toEqual(expected);
    expect(new Set(pages.map((p) => p.total))).toEqual(new Set([tenant.engagements.length]));
    const calls = engagementsOf("call").length;
    // The calls' last page is short; the meetings start on a page of their own.
    expect(pages[Math.ceil(calls / 50) - 1]?.size).toBe(calls % 50 || 50);
    for (const type of ["calls", "meetings", "emails"]) {
      expect(sent.some((s) => s.path === `/crm/v4/associations/${type}/companies/batch/read`)).toBe(true);
    }
  });

  it("filters engagements by the watermark within each type", async () => {
    const since = tenant.now - 20 * 86_400_000;
    const { records, pages } = await readAll(upstream(main), "engagements", since, { pageSize: 30 });
    const expected = [...engagementsOf("call"), ...engagementsOf("meeting"), ...engagementsOf("email")].filter((e) => e.timestamp >= since);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(tenant.engagements.length);
    expect(records.map((r) => r.id)).toEqual(expected.map((e) => e.id));
    expect(pages[0]?.total).toBe(expected.length);
    for (const b of [...searchBodies("calls"), ...searchBodies("meetings"), ...searchBodies("emails")]) {
      expect(b.filterGroups).toEqual([{ filters: [{ propertyName: "hs_lastmodifieddate", operator: "GTE", value: String(since) }] }]);
    }
  });

  it("follows the portal's own offsets when it answers shorter pages than asked for", async () => {
    const { records, pages } = await readAll(upstream(narrow), "contacts", null, { pageSize: 100 });
    expect(records.map((r) => r.id)).toEqual(byTimeThenId(liveContacts, (c) => c.updatedAt).map((c) => c.id));
    expect(pages.every((p) => p.size <= 2)).toBe(true);
    expect(searchBodies("contacts").slice(0, 3).map((b) => b.after)).toEqual([undefined, "2", "4"]);
  });

  it("refuses a paging position it did not hand out, or one of another object", async () => {
    const up = upstream(main);
    const contacts = await fetchChanges(up, "contacts", null, null, { pageSize: 3 });
    const engagements = await fetchChanges(up, "engagements", null, null, { pageSize: 3 });
    sent.length = 0;
    await expect(fetchChanges(up, "companies", null, "not-a-position")).rejects.toThrow(RangeError);
    await expect(fetchChanges(up, "companies", null, contacts.after)).rejects.toThrow(RangeError);
    await expect(fetchChanges(up, "deals", null, engagements.after)).rejects.toThrow(RangeError);
    await expect(fetchChanges(up, "engagements", null, contacts.after)).rejects.toThrow(RangeError);
    await expect(fetchChanges(up, "companies", null, null, { pageSize: 201 })).rejects.toThrow(RangeError);
    expect(sent).toHaveLength(0);
  });
});

describe("fetchChanges across the search cap", () => {
  it("restarts from the last modification time when paging would pass the cap, each record exactly once", async () => {
    const { records, pages } = await readAll(upstream(capped), "companies", null, { pageSize: 3, searchCap: 7 });
    expect(records).toEqual(expectedCompanies);
    expect(new Set(pages.map((p) => p.total))).toEqual(new Set([liveCompanies.length]));

    const bodies = searchBodies("companies");
    expect(bodies.every((b) => b.after === undefined || Number(b.after) < 7)).toBe(true);
    const restarts = new Set(bodies.map((b) => b.filterGroups[0]?.filters[0]?.value ?? null));
    expect(restarts.size).toBeGreaterThan(liveCompanies.length / 7);
    // Each restart begins at the time of the last record delivered.
    const delivered = new Set(records.map((r) => String(r.updatedAt)));
    for (const v of restarts) if (v !== null) expect(delivered.has(v)).toBe(true);
  });

  it("restarts engagements the same way, type by type", async () => {
    const { records } = await readAll(upstream(capped), "engagements", null, { pageSize: 3, searchCap: 7 });
    const expected = [...engagementsOf("call"), ...engagementsOf("meeting"), ...engagementsOf("email")].map((e) => e.id);
    expect(records.map((r) => r.id)).toEqual(expected);
  });

  it("is needed: the capped portal refuses an offset at the cap with a 400", async () => {
    const err = await upstreamFailure(readAll(upstream(capped), "companies", null, { pageSize: 3 }));
    expect(err).toMatchObject({ kind: "server", status: 400 });

    const res = await fetch(`${capped.served.url}/crm/v3/objects/companies/search`, {
      method: "POST",
      headers: { authorization: `Bearer ${standInPortalToken(capped.standIn, "customers")}`, "content-type": "application/json" },
      body: JSON.stringify({ limit: 3, after: "7" }),
    });
    expect(res.status).toBe(400);
    expect(hubspotError.parse(await res.json()).category).toBe("VALIDATION_ERROR");
  });

  it("skips the records it already delivered when several share the restart time", async () => {
    // Four companies to a modification time, so restarts land inside a run of equal times.
    const ordered = byTimeThenId(liveCompanies, (c) => c.updatedAt);
    const at = new Map(ordered.map((c, i) => [c.id, 1_700_000_000_000 + Math.floor(i / 4) * 1000]));
    const tied = await start({ ...tenant, companies: tenant.companies.map((c) => ({ ...c, updatedAt: at.get(c.id) ?? c.updatedAt })) }, { searchCap: 7 });
    const { records, pages } = await readAll(upstream(tied), "companies", null, { pageSize: 3, searchCap: 7 });
    // Within a run of equal times the portal orders by id.
    const expected = byTimeThenId(ordered, (c) => at.get(c.id) ?? 0);
    expect(records.map((r) => r.id)).toEqual(expected.map((c) => c.id));
    expect(records.map((r) => r.updatedAt)).toEqual(expected.map((c) => at.get(c.id)));
    expect(new Set(pages.map((p) => p.total))).toEqual(new Set([liveCompanies.length]));
  });

  it("fails loudly when more records than the cap share one time, rather than loop", async () => {
    const same = await start({ ...tenant, companies: tenant.companies.map((c) => ({ ...c, updatedAt: 1_700_000_000_000 })) }, { searchCap: 7 });
    const err = await upstreamFailure(readAll(upstream(same), "companies", null, { pageSize: 3, searchCap: 7 }));
    expect(err.kind).toBe("bad_response");
    expect(err.message).toMatch(/share one modification time/);
  });
});

describe("owners and archived records", () => {
  it("lists active and departed owners across pages, the departed one inactive", async () => {
    const owners = await fetchOwners(upstream(narrow));
    expect(owners.map(({ id, name, email, active }) => ({ id, name, email, active })).sort((a, b) => compareIds(a.id, b.id))).toEqual(
      tenant.owners.map((o) => ({ id: o.ownerId, name: o.name, email: o.email, active: o.active })).sort((a, b) => compareIds(a.id, b.id)),
    );
    const departed = owners.find((o) => !o.active);
    expect(departed?.name).toBe(tenant.owners.find((o) => !o.active)?.name);
    for (const o of owners) expect(o.updatedAt).toBeGreaterThan(0);
    const activeCount = tenant.owners.filter((o) => o.active).length;
    expect(sent.filter((s) => s.path === "/crm/v3/owners" && s.query.get("archived") === "false")).toHaveLength(Math.ceil(activeCount / 2));
    expect(sent.filter((s) => s.path === "/crm/v3/owners" && s.query.get("archived") === "true")).toHaveLength(1);
  });

  it("lists every archived id across pages", async () => {
    const up = upstream(narrow);
    const ids = (rows: { id: string; archived: boolean }[]) => rows.filter((r) => r.archived).map((r) => r.id).sort(compareIds);
    expect((await fetchArchivedIds(up, "companies")).sort(compareIds)).toEqual(ids(tenant.companies));
    const contacts = await fetchArchivedIds(up, "contacts");
    expect(contacts.sort(compareIds)).toEqual(ids(tenant.contacts));
    expect(contacts.length).toBeGreaterThan(2);
    expect((await fetchArchivedIds(up, "deals")).sort(compareIds)).toEqual(ids(tenant.deals));
    expect(await fetchArchivedIds(up, "engagements")).toEqual([]);
    expect(sent.filter((s) => s.path === "/crm/v3/objects/contacts")).toHaveLength(Math.ceil(contacts.length / 2));
    expect(sent.filter((s) => /\/crm\/v3\/objects\/(calls|meetings|emails)$/.test(s.path))).toHaveLength(3);
    expect(sent.every((s) => s.query.get("archived") === "true")).toBe(true);
  });

  it("keeps archived records out of searches and live lists", async () => {
    const archivedIds = new Set(tenant.companies.filter((c) => c.archived).map((c) => c.id));
    const { records } = await readAll(upstream(main), "companies", null);
    expect(records.some((r) => archivedIds.has(r.id))).toBe(false);
    expect((await listPortalCompanies(upstream(main))).some((c) => archivedIds.has(c.id))).toBe(false);
  });
});

describe("direct reads: whole lists in the contract's shapes", () => {
  it("lists companies, parsing with the endpoint's schema", async () => {
    const companies = await listPortalCompanies(upstream(main));
    const body = endpointById("vendors.crmportal.companies").response.parse({ companies });
    const expected = [...liveCompanies]
      .sort((a, b) => compareIds(a.id, b.id))
      .map((c) => ({ id: c.id, name: c.name, domain: c.domain, industry: c.industry, employees: c.employees }));
    expect(body.companies).toEqual(expected);
    expect(sent[0]?.query.get("properties")).toBe("name,domain,industry,numberofemployees");
  });

  it("lists contacts with their company, null when none", async () => {
    const contacts = await listPortalContacts(upstream(main));
    const body = endpointById("vendors.crmportal.contacts").response.parse({ contacts });
    const expected = [...liveContacts]
      .sort((a, b) => compareIds(a.id, b.id))
      .map((c) => ({ id: c.id, email: c.email, firstName: c.firstName, lastName: c.lastName, companyId: c.companyId }));
    expect(body.contacts).toEqual(expected);
    expect(body.contacts.some((c) => c.companyId === null)).toBe(true);
    expect(sent.length).toBe(Math.ceil(liveContacts.length / 100));
  });

  it("lists deals with the company from the inline association, null when not attached", async () => {
    const deals = await listPortalDeals(upstream(main));
    const body = endpointById("vendors.crmportal.deals").response.parse({ deals });
    const expected = [...liveDeals]
      .sort((a, b) => compareIds(a.id, b.id))
      .map((d) => ({ id: d.id, name: d.name, stage: d.stage, closeDate: d.closeDate, amount: d.amount, companyId: d.companyId }));
    expect(body.deals).toEqual(expected);
    expect(body.deals.some((d) => d.companyId === null)).toBe(true);
    expect(sent[0]?.query.get("associations")).toBe("companies");
  });

  it("follows paging when the portal hands out smaller pages", async () => {
    const companies = await listPortalCompanies(upstream(narrow));
    expect(companies).toHaveLength(liveCompanies.length);
    expect(new Set(companies.map((c) => c.id)).size).toBe(liveCompanies.length);
    expect(sent).toHaveLength(Math.ceil(liveCompanies.length / 2));
  });
});

describe("the users portal", () => {
  const teams = [...new Set(tenant.staff.map((s) => s.team))].sort();

  it("holds the staff as contacts, their status as lifecycle stage, each in their team's company", async () => {
    const up = upstream(main, "users");
    const { records: companies } = await readAll(up, "companies", null, { pageSize: 3 });
    expect(companies.map((c) => c.name).sort()).toEqual(teams);
    for (const c of companies) {
      expect(c).toMatchObject({ arr: null, tier: null, parentCompanyId: null, productSchoolId: null, ownerId: null });
      expect(c.employees).toBe(tenant.staff.filter((s) => s.team === c.name).length);
    }
    const teamOf = new Map(companies.map((c) => [c.id, c.name]));

    const { records: contacts } = await readAll(up, "contacts", null, { pageSize: 5 });
    expect(contacts.map((c) => c.id)).toEqual(byTimeThenId(tenant.staff, (s) => s.updatedAt).map((s) => s.id));
    for (const c of contacts) {
      const staff = tenant.staff.find((s) => s.id === c.id);
      expect(c).toMatchObject({ email: staff?.email, firstName: staff?.firstName, lastName: staff?.lastName, lifecycleStage: staff?.lifecycleStage });
      expect(teamOf.get(c.companyId ?? "")).toBe(staff?.team);
    }
    expect(new Set(contacts.map((c) => c.lifecycleStage))).toEqual(new Set(tenant.staff.map((s) => s.lifecycleStage)));
  });

  it("has no deals, owners, engagements or archived records", async () => {
    const up = upstream(main, "users");
    expect(await fetchChanges(up, "deals", null, null)).toEqual({ records: [], total: 0, after: null });
    expect(await fetchChanges(up, "engagements", null, null)).toEqual({ records: [], total: 0, after: null });
    expect(await fetchOwners(up)).toEqual([]);
    expect(await listPortalDeals(up)).toEqual([]);
    expect(await fetchArchivedIds(up, "companies")).toEqual([]);
  });

  it("serves its direct lists in the contract's shapes", async () => {
    const up = upstream(main, "users");
    const { companies } = endpointById("vendors.crmportal.companies").response.parse({ companies: await listPortalCompanies(up) });
    expect(companies).toHaveLength(teams.length);
    for (const c of companies) expect(c).toMatchObject({ domain: "", industry: "Internal" });
    const { contacts } = endpointById("vendors.crmportal.contacts").response.parse({ contacts: await listPortalContacts(up) });
    expect(contacts.map((c) => c.email).sort()).toEqual(tenant.staff.map((s) => s.email).sort());
  });
});

describe("upstream failures", () => {
  it("sorts a forged token, a missing one and one for an unknown account as unauthorized", async () => {
    const forged = mintStandInToken(createSealer("other-key-".repeat(4)), "crmportal", "pat-na1", "portal-customers@crmportal.demo.test");
    const err = await upstreamFailure(fetchChanges(upstream(main, "customers", { authorization: `Bearer ${forged}` }), "companies", null, null));
    expect(err).toMatchObject({ kind: "unauthorized", status: 401 });

    const stranger = mintStandInToken(sealer, "crmportal", "pat-na1", "someone@elsewhere.test");
    expect((await upstreamFailure(fetchOwners(upstream(main, "customers", { authorization: `Bearer ${stranger}` })))).kind).toBe("unauthorized");

    const res = await fetch(`${main.served.url}/crm/v3/owners`);
    expect(res.status).toBe(401);
    const body = hubspotError.parse(await res.json());
    expect(body.category).toBe("INVALID_AUTHENTICATION");
    expect(body.message).toMatch(/^Authentication credentials not found/);
  });

  it("waits out a 429's Retry-After, then carries on", async () => {
    main.standIn.faults.next({ status: 429, retryAfter: 2 });
    const page = await fetchChanges(upstream(main), "companies", null, null, { pageSize: 4 });
    expect(page.records.map((r) => r.id)).toEqual(expectedCompanies.slice(0, 4).map((c) => c.id));
    expect(waits).toEqual([2000]);
    expect(main.standIn.faults.seen).toHaveLength(2);
  });

  it("retries a 429 on the association read in the middle of a page", async () => {
    main.standIn.faults.next({ status: 429, retryAfter: 1, pathIncludes: "/crm/v4/associations" });
    const page = await fetchChanges(upstream(main), "deals", null, null, { pageSize: 10 });
    expect(page.records).toHaveLength(10);
    expect(waits).toEqual([1000]);
    expect(main.standIn.faults.seen.map((s) => s.path)).toEqual([
      "/crm/v3/objects/deals/search",
      "/crm/v4/associations/deals/companies/batch/read",
      "/crm/v4/associations/deals/companies/batch/read",
    ]);
  });

  it("answers a 429 in HubSpot's shape with Retry-After", async () => {
    main.standIn.faults.next({ status: 429, retryAfter: 3 });
    const res = await fetch(`${main.served.url}/crm/v3/owners`, { headers: { authorization: `Bearer ${standInPortalToken(main.standIn, "customers")}` } });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("3");
    expect(hubspotError.parse(await res.json()).category).toBe("RATE_LIMITS");
  });

  it("gives up as rate_limited when every retry is refused", async () => {
    main.standIn.faults.next({ status: 429, retryAfter: 1 }, { status: 429, retryAfter: 1 }, { status: 429, retryAfter: 1 });
    const err = await upstreamFailure(fetchChanges(upstream(main, "customers", { maxRetries: 2 }), "contacts", null, null));
    expect(err.kind).toBe("rate_limited");
    expect(waits).toEqual([1000, 1000]);
    expect(main.standIn.faults.seen).toHaveLength(3);
  });

  it("sorts a 500 as a server failure", async () => {
    main.standIn.faults.next({ status: 500 });
    const err = await upstreamFailure(listPortalCompanies(upstream(main)));
    expect(err).toMatchObject({ kind: "server", status: 500 });
  });

  it("sorts an answer slower than timeoutMs as a timeout", async () => {
    const hold = new Hold();
    main.standIn.faults.next({ hold });
    try {
      const err = await upstreamFailure(fetchChanges(upstream(main, "customers", { timeoutMs: 100 }), "companies", null, null));
      expect(err.kind).toBe("timeout");
    } finally {
      hold.release();
    }
  });

  it("answers HubSpot's 400 for a search it cannot run", async () => {
    const token = standInPortalToken(main.standIn, "customers");
    const post = (body: unknown) =>
      fetch(`${main.served.url}/crm/v3/objects/companies/search`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    for (const body of [{ limit: 500 }, { after: "x" }, { sorts: [{ propertyName: "name", direction: "SIDEWAYS" }] }]) {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(hubspotError.parse(await res.json()).category).toBe("VALIDATION_ERROR");
    }
  });
});

describe("probe", () => {
  it("names the portal and its currency, reading the account details and one company", async () => {
    const details = (await (
      await fetch(`${main.served.url}/account-info/v3/details`, { headers: { authorization: `Bearer ${standInPortalToken(main.standIn, "customers")}` } })
    ).json()) as { portalId: number };
    main.standIn.faults.clear();
    const result = await crmportalProbe(upstream(main));
    expect(result.summary).toBe(`Connected to HubSpot portal ${details.portalId}`);
    expect(result.details.map((d) => d.label)).toEqual(["Portal", "Currency"]);
    expect(result.details[0]?.value).toContain(String(details.portalId));
    expect(result.details[1]?.value).toBe("USD");
    expect(main.standIn.faults.seen.map((s) => s.path)).toEqual(["/account-info/v3/details", "/crm/v3/objects/companies"]);
    expect(sent[1]?.query.get("limit")).toBe("1");
  });

  it("tells the two portals apart", async () => {
    const customers = await crmportalProbe(upstream(main));
    const users = await crmportalProbe(upstream(main, "users"));
    expect(users.summary).toMatch(/^Connected to HubSpot portal \d+$/);
    expect(users.summary).not.toBe(customers.summary);
  });

  it("fails when HubSpot refuses the token", async () => {
    main.standIn.faults.next({ status: 401 });
    expect((await upstreamFailure(crmportalProbe(upstream(main)))).kind).toBe("unauthorized");
  });
});

describe("the stand-in", () => {
  it("mints private-app-looking tokens for its two portal accounts", () => {
    expect(standInPortalToken(main.standIn, "customers")).toMatch(/^pat-na1_/);
    expect(standInPortalToken(main.standIn, "users")).not.toBe(standInPortalToken(main.standIn, "customers"));
  });

  it("hands out no portal token over HTTP: its OAuth routes answer 404 with the envelope", async () => {
    for (const path of ["/oauth/authorize", "/oauth/token"]) {
      const res = await fetch(`${main.served.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ response_type: "code", redirect_uri: "http://127.0.0.1/cb", state: "s", decision: "approve", account: "portal-customers@crmportal.demo.test" }),
        redirect: "manual",
      });
      expect([res.status, res.headers.get("location"), (await res.json()).error]).toEqual([404, null, "not_found"]);
    }
  });

  it("answers the same way every time for the same tenant", async () => {
    const other = await start(generateTenant());
    const a = await fetchChanges(upstream(main), "deals", null, null, { pageSize: 20 });
    const b = await fetchChanges(upstream(other), "deals", null, null, { pageSize: 20 });
    expect(b).toEqual(a);
    expect(await crmportalProbe(upstream(other))).toEqual(await crmportalProbe(upstream(main)));
  });
});
