import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEAL_STAGES, generateTenant, LIFECYCLE_STAGES } from "@/demo/tenant";
import { endpointById } from "@/lib/contract/endpoints";
import { ApiError } from "@/lib/contract/errors";
import { companiesPage, contactsPage, dealsPage, lastSuccessfulSync, sources, summary } from "@/lib/crm/answers";
import { upsertCompanies } from "@/lib/crm/store";
import { syncInstance } from "@/lib/crm/sync";
import type { CrmInstance, PortalCompanyRecord } from "@/lib/connectors/crmportal/records";
import type { Db } from "@/lib/db";
import { encodeCursor } from "@/lib/http/cursor";
import { backends, testSealer as sealer } from "../support/backends";
import { live, startPortal, type Portal } from "./helpers";

const T1 = 1_800_000_000_000;
const tenant = generateTenant();
const l = live(tenant);
const sortedIds = (xs: readonly { id: string }[]) => xs.map((x) => x.id).sort();

const companiesResponse = endpointById("crm.companies").response;
const contactsResponse = endpointById("crm.contacts").response;
const dealsResponse = endpointById("crm.deals").response;
const summaryResponse = endpointById("crm.summary").response;
const sourcesResponse = endpointById("crm.sources").response;

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  if (!(err instanceof ApiError)) throw new Error("expected an ApiError");
  return err;
}

/** Follows nextCursor to the end, asserting every page against the contract. */
async function allCompanies(db: Db, instance: CrmInstance, limit: number, between?: (page: number, lastId: string) => Promise<void>) {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 1_000; page++) {
    const body = companiesResponse.parse(await companiesPage(db, sealer, instance, { limit, cursor }));
    expect(body.companies.length).toBeLessThanOrEqual(limit);
    ids.push(...body.companies.map((c) => c.id));
    if (body.nextCursor === null) return { ids, pages: page + 1 };
    expect(body.companies).toHaveLength(limit);
    cursor = body.nextCursor;
    await between?.(page, body.companies[body.companies.length - 1]!.id);
  }
  throw new Error("paging did not end");
}

function company(id: string): PortalCompanyRecord {
  return {
    id,
    name: `Added ${id}`,
    domain: null,
    industry: null,
    employees: null,
    parentCompanyId: null,
    arr: null,
    tier: null,
    ownerId: null,
    productSchoolId: null,
    enrolment: null,
    churnedDate: null,
    updatedAt: T1,
  };
}

describe.each(backends)("CRM endpoints over $name", (backend) => {
  let h: Awaited<ReturnType<typeof backend.open>>;
  let portal: Portal;

  beforeAll(async () => {
    portal = await startPortal(tenant);
    h = await backend.open();
  });
  afterAll(async () => {
    await h.close();
    await portal.close();
  });

  const sync = (instance: CrmInstance) =>
    syncInstance({ db: h.db, upstream: portal.upstream(instance), instance, now: () => T1, pageSize: 200 });

  describe("before the first successful sync", () => {
    it("answers crm_not_synced from every data endpoint, and sources says never_run", async () => {
      for (const instance of ["customers", "users"] as const) {
        for (const call of [() => companiesPage(h.db, sealer, instance), () => contactsPage(h.db, sealer, instance), () => dealsPage(h.db, sealer, instance), () => summary(h.db, instance)]) {
          const err = await rejection(call());
          expect(err.code).toBe("crm_not_synced");
          expect(err.status).toBe(503);
          expect(err.hint).toContain(`/crm/${instance}/sources`);
        }
        expect(await lastSuccessfulSync(h.db, instance)).toBeNull();
      }
      const never = await sources(h.db, "customers", T1);
      expect(sourcesResponse.parse(never)).toEqual(never);
      expect(never).toEqual({
        sources: [
          {
            connector: "crmportal",
            title: "CRM portal",
            status: "never_run",
            lastRunAt: null,
            lastSuccessAt: null,
            progress: null,
            objects: ["owners", "companies", "contacts", "deals", "engagements"].map((object) => ({ object, watermark: null, rows: 0 })),
            lastError: null,
            rateLimits: null,
          },
        ],
      });
      const users = await sources(h.db, "users", T1);
      expect(users.sources[0]!.objects.map((o) => o.object)).toEqual(["owners", "companies", "contacts", "engagements"]);
    });

    it("still answers crm_not_synced after a failed run", async () => {
      portal.standIn.faults.next({ status: 500 });
      expect((await sync("customers")).status).toBe("failed");
      expect((await rejection(companiesPage(h.db, sealer, "customers"))).code).toBe("crm_not_synced");
      const s = (await sources(h.db, "customers", T1)).sources[0]!;
      expect(s).toMatchObject({ status: "failed", lastRunAt: T1, lastSuccessAt: null, progress: null });
      expect(s.lastError).toContain("answered 500");
      portal.standIn.faults.clear();
    });
  });

  describe("after a sync", () => {
    beforeAll(async () => {
      expect((await sync("customers")).status).toBe("ok");
      expect((await sync("users")).status).toBe("ok");
    });

    it("pages companies by id, 50 by default, each exactly once", async () => {
      const first = companiesResponse.parse(await companiesPage(h.db, sealer, "customers"));
      expect(first.companies).toHaveLength(50);
      expect(first.nextCursor).toEqual(expect.any(String));

      const { ids, pages } = await allCompanies(h.db, "customers", 37);
      expect(pages).toBe(Math.ceil(l.companies.length / 37));
      expect(ids).toEqual(sortedIds(l.companies));
      expect(new Set(ids).size).toBe(ids.length);
    });

    it("ends with a null cursor when the last page is exactly full", async () => {
      expect(l.companies.length % 53).toBe(0);
      const { ids, pages } = await allCompanies(h.db, "customers", 53);
      expect(pages).toBe(l.companies.length / 53);
      expect(ids).toHaveLength(l.companies.length);
      const whole = companiesResponse.parse(await companiesPage(h.db, sealer, "customers", { limit: 200 }));
      expect(whole.companies).toHaveLength(l.companies.length);
      expect(whole.nextCursor).toBeNull();
    });

    it("shapes companies as the contract says: hierarchy, district-grain ARR, sync time", async () => {
      const { companies } = companiesResponse.parse(await companiesPage(h.db, sealer, "customers", { limit: 200 }));
      const district = companies.find((c) => c.id === "6210001867");
      expect(district).toEqual({
        id: "6210001867",
        name: "East Falls Community Schools",
        domain: "eastfallscs.demo.test",
        industry: "Education Management",
        employees: 222,
        parentCompanyId: null,
        arr: 37000,
        updatedAt: T1,
      });
      const school = companies.find((c) => c.id === "6210011626");
      expect(school).toEqual({
        id: "6210011626",
        name: "Madison Junior High School",
        domain: "madison-ms.eastfallscs.demo.test",
        industry: "Primary/Secondary Education",
        employees: 70,
        parentCompanyId: "6210001867",
        arr: 37000,
        updatedAt: T1,
      });
    });

    it("shapes contacts and deals, with a null companyId kept and unset fields left out", async () => {
      const contacts: { id: string; companyId?: string | null }[] = [];
      let cursor: string | undefined;
      do {
        const body = contactsResponse.parse(await contactsPage(h.db, sealer, "customers", { limit: 200, cursor }));
        contacts.push(...body.contacts);
        cursor = body.nextCursor ?? undefined;
      } while (cursor);
      expect(sortedIds(contacts)).toEqual(sortedIds(l.contacts));
      const src = l.contacts.find((c) => c.companyId === null)!;
      expect(contacts.find((c) => c.id === src.id)).toEqual({
        id: src.id,
        email: src.email,
        firstName: src.firstName,
        lastName: src.lastName,
        companyId: null,
        lifecycleStage: src.lifecycleStage,
        updatedAt: T1,
      });

      const { deals, nextCursor } = dealsResponse.parse(await dealsPage(h.db, sealer, "customers", { limit: 200 }));
      expect(nextCursor).toBeNull();
      expect(sortedIds(deals)).toEqual(sortedIds(l.deals));
      const loose = l.deals.find((d) => d.companyId === null)!;
      expect(deals.find((d) => d.id === loose.id)).toEqual({
        id: loose.id,
        name: loose.name,
        companyId: null,
        amount: loose.amount,
        stage: loose.stage,
        closeDate: loose.closeDate,
        updatedAt: T1,
      });

      const paged = dealsResponse.parse(await dealsPage(h.db, sealer, "customers", { limit: 10 }));
      expect(paged.deals).toHaveLength(10);
      const rest = dealsResponse.parse(await dealsPage(h.db, sealer, "customers", { limit: 200, cursor: paged.nextCursor! }));
      expect([...paged.deals, ...rest.deals].map((d) => d.id)).toEqual(sortedIds(l.deals));
    });

    it("keeps paging complete and free of duplicates while records are added between pages", async () => {
      const original = sortedIds(l.companies);
      const added: string[] = [];
      try {
        const { ids, pages } = await allCompanies(h.db, "customers", 40, async (page, lastId) => {
          // Ids that sort before everything, after everything, and just after the cursor.
          const fresh = [`1${page}`, `9${page}99999999999`, `${lastId}5`];
          added.push(...fresh);
          await upsertCompanies(h.db, "customers", fresh.map(company), T1 + page, true);
        });
        for (const id of original) expect(ids.filter((x) => x === id), id).toHaveLength(1);
        expect(new Set(ids).size).toBe(ids.length);
        // Added ahead of the cursor: seen on this pass; behind it: not.
        expect(ids.filter((id) => id.startsWith("1") && id.length <= 2)).toEqual([]);
        expect(pages).toBeGreaterThanOrEqual(5);
        expect(added).toHaveLength((pages - 1) * 3);
        expect(ids.filter((id) => added.includes(id)).sort()).toEqual(added.filter((id) => !(id.startsWith("1") && id.length <= 2)).sort());
        expect(ids).toHaveLength(original.length + ((pages - 1) * 2));
      } finally {
        await h.db.deleteFrom("crm_companies").where("instance", "=", "customers").where("id", "in", added).execute();
      }
    });

    it("refuses cursors it did not issue, or issued for another list or instance", async () => {
      const page = await companiesPage(h.db, sealer, "customers", { limit: 5 });
      const contacts = await contactsPage(h.db, sealer, "customers", { limit: 5 });
      const cases: (() => Promise<unknown>)[] = [
        () => companiesPage(h.db, sealer, "customers", { cursor: "not-a-cursor" }),
        () => companiesPage(h.db, sealer, "customers", { cursor: contacts.nextCursor! }),
        () => companiesPage(h.db, sealer, "users", { cursor: page.nextCursor! }),
        () => companiesPage(h.db, sealer, "customers", { cursor: encodeCursor(sealer, "crm:customers:companies", { after: 5 }) }),
        () => contactsPage(h.db, sealer, "customers", { cursor: `${page.nextCursor!}x` }),
        () => dealsPage(h.db, sealer, "users", { cursor: "nope" }),
      ];
      for (const call of cases) {
        const err = await rejection(call());
        expect(err.code).toBe("invalid_cursor");
        expect(err.status).toBe(400);
      }
    });

    it("summarises contacts by lifecycle and deals by stage, hand-counted from the tenant", async () => {
      const body = summaryResponse.parse(await summary(h.db, "customers"));
      const lifecycle = LIFECYCLE_STAGES.map((stage) => ({ stage, count: l.contacts.filter((c) => c.lifecycleStage === stage).length })).filter((x) => x.count > 0);
      const pipeline = DEAL_STAGES.map((stage) => {
        const ds = l.deals.filter((d) => d.stage === stage);
        return { stage, count: ds.length, amount: ds.reduce((s, d) => s + d.amount, 0) };
      }).filter((x) => x.count > 0);
      expect(body).toEqual({ totals: { contacts: l.contacts.length, companies: l.companies.length, deals: l.deals.length }, lifecycle, pipeline });
      expect(body.lifecycle?.find((x) => x.stage === "customer")?.count).toBe(431);
      expect(body.pipeline?.reduce((s, x) => s + x.count, 0)).toBe(l.deals.length);
    });

    it("serves the non-monetary users instance without deals, pipeline or ARR", async () => {
      const teams = new Set(tenant.staff.map((s) => s.team));
      const { companies, nextCursor } = companiesResponse.parse(await companiesPage(h.db, sealer, "users", { limit: 200 }));
      expect(nextCursor).toBeNull();
      expect(companies.map((c) => c.name).sort()).toEqual([...teams].sort());
      for (const c of companies) {
        expect(c.arr).toBeNull();
        expect(c.parentCompanyId).toBeNull();
        expect("domain" in c).toBe(false);
        expect(c.industry).toBe("Internal");
      }
      expect(dealsResponse.parse(await dealsPage(h.db, sealer, "users"))).toEqual({ deals: [], nextCursor: null });
      const body = summaryResponse.parse(await summary(h.db, "users"));
      expect(body).not.toHaveProperty("pipeline");
      const statuses = new Map<string, number>();
      for (const s of tenant.staff) statuses.set(s.lifecycleStage, (statuses.get(s.lifecycleStage) ?? 0) + 1);
      expect(body.totals).toEqual({ contacts: tenant.staff.length, companies: teams.size, deals: 0 });
      expect(body.lifecycle).toEqual([...statuses].map(([stage, count]) => ({ stage, count })).sort((a, b) => (a.stage < b.stage ? -1 : 1)));
    });

    it("describes a completed sync in sources", async () => {
      const body = sourcesResponse.parse(await sources(h.db, "customers", T1));
      expect(body.sources).toHaveLength(1);
      const s = body.sources[0]!;
      expect(s).toMatchObject({ connector: "crmportal", title: "CRM portal", status: "ok", lastRunAt: T1, lastSuccessAt: T1, progress: null, lastError: null });
      expect(s.objects).toEqual([
        { object: "owners", watermark: expect.any(Number), rows: tenant.owners.length },
        { object: "companies", watermark: Math.max(...l.companies.map((c) => c.updatedAt)), rows: l.companies.length },
        { object: "contacts", watermark: Math.max(...l.contacts.map((c) => c.updatedAt)), rows: l.contacts.length },
        { object: "deals", watermark: Math.max(...l.deals.map((d) => d.updatedAt)), rows: l.deals.length },
        { object: "engagements", watermark: Math.max(...l.engagements.map((e) => e.timestamp)), rows: l.engagements.length },
      ]);
      expect(await lastSuccessfulSync(h.db, "customers")).toBe(T1);
    });
  });
});

describe.each(backends)("CRM summary and sources from hand-made rows over $name", (backend) => {
  let h: Awaited<ReturnType<typeof backend.open>>;
  const T = 1_700_000_000_000;
  beforeAll(async () => {
    h = await backend.open();
  });
  afterAll(async () => {
    await h.close();
  });

  const run = (status: string, startedAt: number, extra: { heartbeat?: number; done?: number; expected?: number | null; error?: string | null; finished?: number | null } = {}) =>
    h.db
      .insertInto("crm_sync_runs")
      .values({
        instance: "customers",
        connector: "crmportal",
        status,
        started_at: startedAt,
        heartbeat_at: extra.heartbeat ?? startedAt,
        rows_done: extra.done ?? 0,
        rows_expected: extra.expected ?? null,
        finished_at: extra.finished ?? null,
        error: extra.error ?? null,
      })
      .execute();

  it("counts stages, sums amounts (an unset amount adds nothing), and orders known stages first", async () => {
    await run("ok", T, { finished: T + 10 });
    const contact = (id: string, stage: string | null) => ({ instance: "customers", id, email: null, first_name: null, last_name: null, company_id: null, lifecycle_stage: stage, source_updated_at: T, updated_at: T });
    await h.db
      .insertInto("crm_contacts")
      .values([contact("1", "lead"), contact("2", "customer"), contact("3", "lead"), contact("4", null), contact("5", "lead"), contact("6", "aaa_custom")])
      .execute();
    const deal = (id: string, stage: string | null, amount: number | null) => ({ instance: "customers", id, name: `D${id}`, company_id: null, amount, stage, close_date: null, owner_id: null, source_updated_at: T, updated_at: T });
    await h.db
      .insertInto("crm_deals")
      .values([deal("1", "closedwon", 100), deal("2", "closedwon", 250.5), deal("3", "appointmentscheduled", null), deal("4", "zz_custom", 10), deal("5", null, 99)])
      .execute();
    // Another instance's rows never count.
    await h.db.insertInto("crm_contacts").values({ ...contact("7", "lead"), instance: "users" }).execute();

    expect(summaryResponse.parse(await summary(h.db, "customers"))).toEqual({
      totals: { contacts: 6, companies: 0, deals: 5 },
      lifecycle: [
        { stage: "lead", count: 3 },
        { stage: "customer", count: 1 },
        { stage: "aaa_custom", count: 1 },
      ],
      pipeline: [
        { stage: "appointmentscheduled", count: 1, amount: 0 },
        { stage: "closedwon", count: 2, amount: 350.5 },
        { stage: "zz_custom", count: 1, amount: 10 },
      ],
    });

    // The deal shape leaves out what is unset.
    const { deals } = await dealsPage(h.db, sealer, "customers");
    expect(deals.find((d) => d.id === "3")).toEqual({ id: "3", name: "D3", companyId: null, stage: "appointmentscheduled", updatedAt: T });
    const { contacts } = await contactsPage(h.db, sealer, "customers");
    expect(contacts.find((c) => c.id === "4")).toEqual({ id: "4", companyId: null, updatedAt: T });
  });

  it("reports each state of the sync in sources", async () => {
    const state = async (now: number) => {
      const body = sourcesResponse.parse(await sources(h.db, "customers", now));
      return body.sources[0]!;
    };
    // ok (from the first test)
    expect(await state(T + 20)).toMatchObject({ status: "ok", lastRunAt: T, lastSuccessAt: T + 10, progress: null, lastError: null });

    // failed: the last error is shown, the last success stays
    await run("failed", T + 1_000, { finished: T + 1_500, done: 12, error: "CRM portal server: POST /crm/v3/objects/contacts/search answered 500" });
    expect(await state(T + 2_000)).toMatchObject({
      status: "failed",
      lastRunAt: T + 1_000,
      lastSuccessAt: T + 10,
      progress: null,
      lastError: "CRM portal server: POST /crm/v3/objects/contacts/search answered 500",
    });

    // running: progress while the heartbeat is fresh
    await run("running", T + 3_000, { heartbeat: T + 4_000, done: 120, expected: 400 });
    expect(await state(T + 5_000)).toMatchObject({ status: "running", lastRunAt: T + 3_000, progress: { done: 120, expected: 400 }, lastError: null });
    await h.db.updateTable("crm_sync_runs").set({ rows_expected: null }).where("status", "=", "running").execute();
    expect((await state(T + 5_000)).progress).toEqual({ done: 120, expected: null });

    // a running run whose heartbeat stopped long ago will never finish
    const abandoned = await state(T + 4_000 + 10 * 60_000);
    expect(abandoned).toMatchObject({ status: "failed", progress: null, lastSuccessAt: T + 10 });
    expect(abandoned.lastError).toContain("no heartbeat");
  });
});
