import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { generateTenant, type Tenant } from "@/demo/tenant";
import { openDb, type OpenDb } from "@/lib/db";
import { Hold } from "@/lib/connectors/stand-in/faults";
import { sources } from "@/lib/crm/answers";
import { leaseOf, tryAcquire } from "@/lib/crm/lock";
import { describeFailure, syncInstance } from "@/lib/crm/sync";
import { backends } from "../support/backends";
import { live, maxOf, runsOf, snapshot, startPortal, totalRecords, watermarkOf, type Portal } from "./helpers";

const T1 = 1_800_000_000_000;
const T2 = T1 + 3_600_000;
const base = generateTenant();

const compareIds = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
/** The order the portal's change search returns: oldest change first, then id. */
const changeOrder = <T extends { id: string; updatedAt: number }>(rows: readonly T[]) => [...rows].sort((a, b) => a.updatedAt - b.updatedAt || compareIds(a.id, b.id));

/** What the store must hold for the customers portal of a tenant. */
function expectedSnapshot(t: Tenant) {
  const l = live(t);
  const byId = <T extends { id: string }>(xs: T[]) => xs.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    companies: byId(
      l.companies.map((c) => ({
        id: c.id,
        name: c.name,
        domain: c.domain,
        industry: c.industry,
        employees: c.employees,
        parent_company_id: c.parentCompanyId,
        arr: c.arr,
        tier: c.tier,
        owner_id: c.ownerId,
        product_school_id: c.productSchoolId,
        enrolment: c.enrolment,
        churned_date: c.churnedDate,
        source_updated_at: c.updatedAt,
      })),
    ),
    contacts: byId(
      l.contacts.map((c) => ({
        id: c.id,
        email: c.email,
        first_name: c.firstName,
        last_name: c.lastName,
        company_id: c.companyId,
        lifecycle_stage: c.lifecycleStage,
        source_updated_at: c.updatedAt,
      })),
    ),
    deals: byId(
      l.deals.map((d) => ({
        id: d.id,
        name: d.name,
        company_id: d.companyId,
        amount: d.amount,
        stage: d.stage,
        close_date: d.closeDate,
        owner_id: d.ownerId,
        source_updated_at: d.updatedAt,
      })),
    ),
    engagements: byId(
      l.engagements.map((e) => ({
        id: e.id,
        kind: e.kind,
        company_id: e.companyId,
        owner_id: e.ownerId,
        occurred_at: e.timestamp,
        source_updated_at: e.timestamp,
      })),
    ),
  };
}

describe.each(backends)("CRM sync over $name", (backend) => {
  let h: Awaited<ReturnType<typeof backend.open>>;
  let portal: Portal;

  beforeAll(async () => {
    portal = await startPortal(base);
  });
  afterAll(async () => {
    await portal.close();
  });
  beforeEach(async () => {
    h = await backend.open();
    portal.reset(base);
  });
  afterEach(async () => {
    await h.close();
  });

  const sync = (at: number, extra: { db?: OpenDb["db"]; pageSize?: number; instance?: "customers" | "users" } = {}) =>
    syncInstance({
      db: extra.db ?? h.db,
      upstream: portal.upstream(extra.instance ?? "customers"),
      instance: extra.instance ?? "customers",
      now: () => at,
      pageSize: extra.pageSize ?? 100,
    });

  it("loads every live record on the first run, with watermarks, a run record and the lease given back", async () => {
    const result = await sync(T1);
    expect(result).toEqual({ status: "ok", rows: totalRecords(base) });

    const snap = await snapshot(h.db, "customers");
    const want = expectedSnapshot(base);
    expect(snap.companies).toEqual(want.companies);
    expect(snap.contacts).toEqual(want.contacts);
    expect(snap.deals).toEqual(want.deals);
    expect(snap.engagements).toEqual(want.engagements);
    expect(snap.owners.map(({ id, name, email, active }) => ({ id, name, email, active }))).toEqual(
      [...base.owners].sort((a, b) => (a.ownerId < b.ownerId ? -1 : 1)).map((o) => ({ id: o.ownerId, name: o.name, email: o.email, active: o.active ? 1 : 0 })),
    );
    // Archived portal records never arrive.
    const archived = base.companies.filter((c) => c.archived).map((c) => c.id);
    expect(archived.length).toBeGreaterThan(0);
    expect(snap.companies.filter((c) => archived.includes(c.id))).toEqual([]);

    // updated_at is the sync time of every row.
    for (const table of ["crm_owners", "crm_companies", "crm_contacts", "crm_deals", "crm_engagements"] as const) {
      const times = await h.db.selectFrom(table).select("updated_at").distinct().execute();
      expect(times.map((r) => Number(r.updated_at)), table).toEqual([T1]);
    }

    const l = live(base);
    expect(await watermarkOf(h.db, "customers", "companies")).toBe(maxOf(l.companies.map((c) => c.updatedAt)));
    expect(await watermarkOf(h.db, "customers", "contacts")).toBe(maxOf(l.contacts.map((c) => c.updatedAt)));
    expect(await watermarkOf(h.db, "customers", "deals")).toBe(maxOf(l.deals.map((d) => d.updatedAt)));
    expect(await watermarkOf(h.db, "customers", "engagements")).toBe(maxOf(l.engagements.map((e) => e.timestamp)));
    expect(await watermarkOf(h.db, "customers", "owners")).toBe(maxOf(snap.owners.map((o) => o.source_updated_at)));

    const runs = await runsOf(h.db, "customers");
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      instance: "customers",
      connector: "crmportal",
      status: "ok",
      started_at: T1,
      finished_at: T1,
      rows_done: totalRecords(base),
      rows_expected: totalRecords(base),
      error: null,
    });
    expect(await leaseOf(h.db, "customers")).toBeNull();
  });

  it("reads only what changed since the watermark on the next run, and marks an owner no longer listed inactive", async () => {
    expect((await sync(T1)).status).toBe("ok");
    const marks = {
      companies: (await watermarkOf(h.db, "customers", "companies"))!,
      contacts: (await watermarkOf(h.db, "customers", "contacts"))!,
      deals: (await watermarkOf(h.db, "customers", "deals"))!,
      engagements: (await watermarkOf(h.db, "customers", "engagements"))!,
    };

    const l = live(base);
    const company = l.companies[5]!;
    const contact = l.contacts[17]!;
    const departing = base.owners[3]!;
    const changedAt = maxOf([...l.companies, ...l.contacts].map((r) => r.updatedAt)) + 60_000;
    const changed = portal.change((t) => {
      const c = t.companies.find((x) => x.id === company.id)!;
      c.name = "Renamed Academy";
      c.updatedAt = changedAt;
      const p = t.contacts.find((x) => x.id === contact.id)!;
      p.lifecycleStage = p.lifecycleStage === "evangelist" ? "customer" : "evangelist";
      p.updatedAt = changedAt + 1;
      t.owners = t.owners.filter((o) => o.ownerId !== departing.ownerId);
    });

    // Hand count: every owner, plus the records changed at or after each watermark (the boundary
    // records are read once more).
    const lc = live(changed);
    const reread = {
      companies: lc.companies.filter((c) => c.updatedAt >= marks.companies).length,
      contacts: lc.contacts.filter((c) => c.updatedAt >= marks.contacts).length,
      deals: lc.deals.filter((d) => d.updatedAt >= marks.deals).length,
      engagements: lc.engagements.filter((e) => e.timestamp >= marks.engagements).length,
    };
    expect(reread.companies).toBeGreaterThanOrEqual(2);
    const second = await sync(T2);
    expect(second).toEqual({
      status: "ok",
      rows: changed.owners.length + reread.companies + reread.contacts + reread.deals + reread.engagements,
    });
    expect(second.rows).toBeLessThan(20);

    const renamed = await h.db.selectFrom("crm_companies").selectAll().where("instance", "=", "customers").where("id", "=", company.id).executeTakeFirstOrThrow();
    expect(renamed).toMatchObject({ name: "Renamed Academy", source_updated_at: changedAt, updated_at: T2 });
    const person = await h.db.selectFrom("crm_contacts").selectAll().where("id", "=", contact.id).executeTakeFirstOrThrow();
    expect(person.lifecycle_stage).toBe(changed.contacts.find((c) => c.id === contact.id)!.lifecycleStage);
    expect(person.updated_at).toBe(T2);

    // Only the records read again carry the new sync time.
    const touched = await h.db.selectFrom("crm_companies").select("id").where("updated_at", "=", T2).execute();
    expect(touched).toHaveLength(reread.companies);
    expect(await watermarkOf(h.db, "customers", "companies")).toBe(changedAt);
    expect(await watermarkOf(h.db, "customers", "contacts")).toBe(changedAt + 1);
    expect(await watermarkOf(h.db, "customers", "deals")).toBe(marks.deals);

    const owner = await h.db.selectFrom("crm_owners").selectAll().where("id", "=", departing.ownerId).executeTakeFirstOrThrow();
    expect(owner).toMatchObject({ active: 0, updated_at: T2 });
    const stillActive = await h.db.selectFrom("crm_owners").select("id").where("active", "=", 1).execute();
    expect(stillActive).toHaveLength(base.owners.filter((o) => o.active).length - 1);

    expect((await snapshot(h.db, "customers")).companies).toEqual(expectedSnapshot(changed).companies);
  });

  it("keeps every committed page when a run dies part-way, and the next run completes it without loss or duplicates", async () => {
    const search = "/crm/v3/objects/contacts/search";
    // The first contacts page is read up front, the second is fine, the third fails.
    portal.standIn.faults.next({ pathIncludes: search }, { pathIncludes: search }, { status: 500, pathIncludes: search });
    const first = await sync(T1, { pageSize: 50 });
    expect(first.status).toBe("failed");
    expect(first.error).toContain("answered 500");
    expect(first.failure).toBe("server");

    const l = live(base);
    expect(first.rows).toBe(base.owners.length + l.companies.length + 100);
    const runs = await runsOf(h.db, "customers");
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: "failed", finished_at: T1, rows_done: first.rows });
    expect(runs[0]!.error).toContain("contacts/search answered 500");
    expect(await leaseOf(h.db, "customers")).toBeNull();

    // Exactly the two committed pages of contacts are there, with the watermark they reached.
    const committed = changeOrder(l.contacts).slice(0, 100);
    const stored = await h.db.selectFrom("crm_contacts").select("id").where("instance", "=", "customers").execute();
    expect(stored.map((r) => r.id).sort()).toEqual(committed.map((c) => c.id).sort());
    const contactsMark = committed[99]!.updatedAt;
    expect(await watermarkOf(h.db, "customers", "contacts")).toBe(contactsMark);
    const companiesMark = maxOf(l.companies.map((c) => c.updatedAt));
    expect(await watermarkOf(h.db, "customers", "companies")).toBe(companiesMark);
    expect(await watermarkOf(h.db, "customers", "deals")).toBeNull();

    portal.standIn.faults.clear();
    const second = await sync(T2, { pageSize: 50 });
    expect(second.status).toBe("ok");
    // It resumed at the watermarks: not a full re-read.
    expect(second.rows).toBe(
      base.owners.length +
        l.companies.filter((c) => c.updatedAt >= companiesMark).length +
        l.contacts.filter((c) => c.updatedAt >= contactsMark).length +
        l.deals.length +
        l.engagements.length,
    );

    const clean = await backend.open();
    try {
      expect((await sync(T2, { db: clean.db, pageSize: 50 })).status).toBe("ok");
      const want = await snapshot(clean.db, "customers");
      const got = await snapshot(h.db, "customers");
      expect(got).toEqual(want);
      expect(got.contacts).toHaveLength(l.contacts.length);
    } finally {
      await clean.close();
    }
  });

  it("never moves the engagements watermark past kinds it has not read yet", async () => {
    // Calls come first, then meetings, then emails; a failure among the meetings must leave the
    // watermark where it was, or emails older than the meetings read would never be fetched.
    const meetings = "/crm/v3/objects/meetings/search";
    // Up front: calls page 1, then the meetings total (limit 1). Then meetings page 1 fails.
    portal.standIn.faults.next({ pathIncludes: meetings }, { status: 500, pathIncludes: meetings });
    const first = await sync(T1, { pageSize: 50 });
    expect(first.status).toBe("failed");
    const calls = await h.db.selectFrom("crm_engagements").select("kind").distinct().execute();
    expect(calls.map((r) => r.kind)).toEqual(["call"]);
    expect(await watermarkOf(h.db, "customers", "engagements")).toBeNull();

    portal.standIn.faults.clear();
    expect((await sync(T2, { pageSize: 50 })).status).toBe("ok");
    expect((await snapshot(h.db, "customers")).engagements).toEqual(expectedSnapshot(base).engagements);
    expect(await watermarkOf(h.db, "customers", "engagements")).toBe(maxOf(base.engagements.map((e) => e.timestamp)));
  });

  it("removes records archived in the portal", async () => {
    expect((await sync(T1)).status).toBe("ok");
    const l = live(base);
    const gone = { company: l.companies[10]!.id, contact: l.contacts[3]!.id, deal: l.deals[2]!.id };
    portal.change((t) => {
      t.companies.find((c) => c.id === gone.company)!.archived = true;
      t.contacts.find((c) => c.id === gone.contact)!.archived = true;
      t.deals.find((d) => d.id === gone.deal)!.archived = true;
    });
    expect((await sync(T2)).status).toBe("ok");
    const snap = await snapshot(h.db, "customers");
    expect(snap.companies).toHaveLength(l.companies.length - 1);
    expect(snap.contacts).toHaveLength(l.contacts.length - 1);
    expect(snap.deals).toHaveLength(l.deals.length - 1);
    expect(snap.companies.some((c) => c.id === gone.company)).toBe(false);
    expect(snap.contacts.some((c) => c.id === gone.contact)).toBe(false);
    expect(snap.deals.some((d) => d.id === gone.deal)).toBe(false);
  });

  it("reads archived ids in full at most once an hour, not on every run, counting requests per run", async () => {
    // Archived ids are the only whole-list GETs a sync makes; changes are searches (POST).
    const archivedReads = () => portal.standIn.faults.seen.filter((r) => r.method === "GET" && /^\/crm\/v3\/objects\/[a-z]+$/.test(r.path)).length;
    const runAt = async (at: number, archivedEveryMs?: number) => {
      portal.standIn.faults.clear();
      const result = await syncInstance({ db: h.db, upstream: portal.upstream("customers"), instance: "customers", now: () => at, pageSize: 100, archivedEveryMs });
      expect(result.status).toBe("ok");
      return { archived: archivedReads(), total: portal.standIn.faults.seen.length };
    };
    const first = await runAt(T1);
    // Companies, contacts, deals, and calls, meetings and emails for engagements: one page each at least.
    expect(first.archived).toBeGreaterThanOrEqual(6);
    const soon = await runAt(T1 + 15 * 60_000);
    expect(soon.archived).toBe(0);
    // Owners and changes are still read.
    expect(soon.total).toBeGreaterThan(0);
    const hourLater = await runAt(T1 + 60 * 60_000);
    expect(hourLater.archived).toBe(first.archived);
    // Configured to every run, every run reads them.
    const every = await runAt(T1 + 61 * 60_000, 0);
    expect(every.archived).toBe(first.archived);
    // With nothing changed in the portal, a run between full reads makes exactly those requests fewer.
    const between = await runAt(T1 + 62 * 60_000);
    expect([between.archived, every.total - between.total]).toEqual([0, first.archived]);

    // A record archived between full reads is gone after the next one.
    const gone = live(base).deals[4]!.id;
    portal.change((t) => {
      t.deals.find((d) => d.id === gone)!.archived = true;
    });
    await runAt(T1 + 70 * 60_000);
    expect((await snapshot(h.db, "customers")).deals.some((d) => d.id === gone)).toBe(true);
    await runAt(T1 + 122 * 60_000);
    expect((await snapshot(h.db, "customers")).deals.some((d) => d.id === gone)).toBe(false);
  });

  it("runs once when triggered many times at once, from one connection and from two", async () => {
    const other = await openDb(h.storage);
    try {
      const results = await Promise.all([h.db, other.db, h.db, other.db, h.db].map((db) => sync(T1, { db })));
      expect(results.filter((r) => r.status === "ok")).toHaveLength(1);
      expect(results.filter((r) => r.status === "skipped")).toEqual(Array(4).fill({ status: "skipped", rows: 0 }));
      expect(await runsOf(h.db, "customers")).toHaveLength(1);
      expect((await snapshot(other.db, "customers")).companies).toHaveLength(live(base).companies.length);
    } finally {
      await other.close();
    }
  });

  it("skips while another process holds the lease, and records nothing", async () => {
    expect(await tryAcquire(h.db, "customers", "elsewhere", 60_000, T1)).toBe(true);
    expect(await sync(T1 + 1_000)).toEqual({ status: "skipped", rows: 0 });
    expect(await runsOf(h.db, "customers")).toEqual([]);
    expect((await leaseOf(h.db, "customers"))?.holder).toBe("elsewhere");
    // Once that lease has run out, a run goes ahead.
    expect((await sync(T1 + 60_000)).status).toBe("ok");
  });

  it("records progress while it runs", async () => {
    const search = "/crm/v3/objects/contacts/search";
    // The second page of contacts is held: the run is between two pages until it is let go.
    const hold = new Hold();
    portal.standIn.faults.next({ pathIncludes: search }, { pathIncludes: search, hold });
    const total = totalRecords(base);
    const running = sync(T1);
    const done = base.owners.length + live(base).companies.length + 100;

    await hold.reached;
    const run = (await runsOf(h.db, "customers"))[0];
    expect(run).toMatchObject({ status: "running", rows_done: done, rows_expected: total, finished_at: null });
    const mid = await sources(h.db, "customers", T1);
    expect(mid.sources[0]).toMatchObject({ status: "running", progress: { done, expected: total }, lastSuccessAt: null });
    hold.release();

    expect((await running).status).toBe("ok");
    const after = await sources(h.db, "customers", T1);
    expect(after.sources[0]).toMatchObject({ status: "ok", progress: null, lastSuccessAt: T1 });
  });

  it("marks a run that stopped without finishing as failed when the next run starts", async () => {
    await h.db
      .insertInto("crm_sync_runs")
      .values({ instance: "customers", connector: "crmportal", status: "running", started_at: T1 - 600_000, heartbeat_at: T1 - 120_000, rows_done: 42, rows_expected: 1_000, finished_at: null, error: null })
      .execute();
    expect((await sync(T1)).status).toBe("ok");
    const runs = await runsOf(h.db, "customers");
    expect(runs.map((r) => r.status)).toEqual(["failed", "ok"]);
    expect(runs[0]).toMatchObject({ finished_at: T1, rows_done: 42 });
    expect(runs[0]!.error).toContain("no heartbeat");
  });

  it("forgets finished runs after 30 days, keeping the last successful one", async () => {
    const day = 86_400_000;
    const old = (status: string, startedAt: number) =>
      h.db
        .insertInto("crm_sync_runs")
        .values({ instance: "customers", connector: "crmportal", status, started_at: startedAt, heartbeat_at: startedAt, rows_done: 1, rows_expected: 1, finished_at: startedAt + 1, error: null })
        .execute();
    await old("ok", T1 - 40 * day);
    await old("failed", T1 - 35 * day);
    await old("failed", T1 - 1 * day);
    expect((await sync(T1)).status).toBe("ok");
    expect((await runsOf(h.db, "customers")).map((r) => [r.status, r.started_at])).toEqual([
      ["failed", T1 - day],
      ["ok", T1],
    ]);
  });

  it("leaves a run with a live heartbeat alone, and another instance's runs", async () => {
    for (const instance of ["customers", "users"]) {
      await h.db
        .insertInto("crm_sync_runs")
        .values({ instance, connector: "crmportal", status: "running", started_at: T1 - 10_000, heartbeat_at: T1 - 5_000, rows_done: 0, rows_expected: null, finished_at: null, error: null })
        .execute();
    }
    expect((await sync(T1)).status).toBe("ok");
    expect((await runsOf(h.db, "customers")).map((r) => r.status)).toEqual(["running", "ok"]);
    expect((await runsOf(h.db, "users")).map((r) => r.status)).toEqual(["running"]);
  });

  it("syncs the non-monetary users portal without deals or ARR", async () => {
    const result = await sync(T1, { instance: "users" });
    const teams = new Set(base.staff.map((s) => s.team));
    expect(result).toEqual({ status: "ok", rows: teams.size + base.staff.length });
    const snap = await snapshot(h.db, "users");
    expect(snap.companies.map((c) => c.name).sort()).toEqual([...teams].sort());
    expect(snap.companies.every((c) => c.arr === null)).toBe(true);
    expect(snap.contacts.map((c) => c.email).sort()).toEqual(base.staff.map((s) => s.email).sort());
    expect(snap.deals).toEqual([]);
    expect(snap.owners).toEqual([]);
    expect(await watermarkOf(h.db, "users", "deals")).toBeNull();
    // The other instance is untouched.
    expect(await runsOf(h.db, "customers")).toEqual([]);
  });

  it("records a failure without the token", async () => {
    portal.standIn.faults.next({ status: 401 });
    const up = portal.upstream("customers");
    const result = await syncInstance({ db: h.db, upstream: up, instance: "customers", now: () => T1 });
    expect(result).toMatchObject({ status: "failed", rows: 0, failure: "unauthorized" });
    const token = up.authorization!.replace("Bearer ", "");
    const run = (await runsOf(h.db, "customers"))[0]!;
    expect(run.status).toBe("failed");
    expect(run.error).toContain("unauthorized");
    expect(run.error).not.toContain(token);
    expect(describeFailure(new Error(`request with Bearer ${token} failed`), up)).toBe("request with Bearer [redacted] failed");
    expect(describeFailure(new Error(`GET /x?hapikey=abc123 failed`), up)).toBe("GET /x?hapikey=[redacted] failed");
  });
});
