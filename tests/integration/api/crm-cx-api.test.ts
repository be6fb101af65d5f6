import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpointById } from "@/lib/contract/endpoints";
import { syncInstance } from "@/lib/crm/sync";
import { loadHealth } from "@/lib/crm/sources-import";
import { generateTenant } from "@/demo/tenant";
import { apiAsDemoUsers, type ApiClient, type Who } from "../support/api";
import { backends } from "../support/backends";
import { startPortal, type Portal } from "../crm/helpers";

// The CRM and CX endpoints through the API wrapper, before and after a sync from the CRM
// portal's stand-in over loopback HTTP, for each demo user.

const today = new Date().toISOString().slice(0, 10);
const tenant = generateTenant({ referenceDate: today });
let portal: Portal;

beforeAll(async () => {
  portal = await startPortal(tenant);
});
afterAll(async () => {
  await portal.close();
});

describe.each(backends)("CRM and CX over the API on $name", (backend) => {
  let h: Awaited<ReturnType<typeof backend.open>>;
  let api: ApiClient;
  const get = (p: string, who: Who) => api.get(p, who);

  beforeAll(async () => {
    h = await backend.open();
    api = await apiAsDemoUsers(() => h.db);
  });
  afterAll(async () => {
    await h.close();
  });

  it("says it is waiting before the first sync: 503 crm_not_synced, sources never run, CX waitingOn", async () => {
    const companies = await get("/crm/customers/companies", "csm");
    expect([companies.status, companies.body.error]).toEqual([503, "crm_not_synced"]);
    const src = endpointById("crm.sources").response.parse((await get("/crm/customers/sources", "csm")).body);
    expect(src.sources[0]).toMatchObject({ connector: "crmportal", status: "never_run", lastSuccessAt: null });
    const book = await get("/cx/book?owner=x", "csm");
    expect(book.status).toBe(200);
    expect(book.body).toEqual({ ok: false, waitingOn: expect.stringContaining("CRM portal sync") });
  });

  it("after a sync, pages through every company exactly once", async () => {
    for (const instance of ["customers", "users"] as const) {
      const r = await syncInstance({ db: h.db, upstream: portal.upstream(instance), instance });
      expect(r.status).toBe("ok");
    }
    await loadHealth(h.db, tenant.health);
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const r = await get(`/crm/customers/companies?limit=37${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, "member");
      expect(r.status).toBe(200);
      const page = endpointById("crm.companies").response.parse(r.body);
      ids.push(...page.companies.map((c) => c.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(ids.length).toBe(tenant.companies.filter((c) => !c.archived).length);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("keeps the users instance to admins, without money", async () => {
    expect((await get("/crm/users/contacts", "csm")).status).toBe(403);
    const contacts = endpointById("crm.contacts").response.parse((await get("/crm/users/contacts", "admin")).body);
    expect(contacts.contacts.length).toBe(tenant.staff.length);
    expect((await get("/crm/users/deals", "admin")).body).toEqual({ deals: [], nextCursor: null });
    const summary = endpointById("crm.summary").response.parse((await get("/crm/users/summary", "admin")).body);
    expect(summary.pipeline).toBeUndefined();
    expect(summary.totals.deals).toBe(0);
    const customers = endpointById("crm.summary").response.parse((await get("/crm/customers/summary", "csm")).body);
    expect(customers.pipeline?.every((p) => typeof p.amount === "number")).toBe(true);
  });

  it("serves the CX views to the cx group only, in the contract's shapes", async () => {
    expect((await get("/cx/owners", "member")).status).toBe(403);
    const owners = endpointById("cx.owners").response.parse((await get("/cx/owners", "csm")).body);
    if (!owners.ok) throw new Error("owners waiting");
    const active = endpointById("cx.owners").response.parse((await get("/cx/owners?activeOnly=true", "csm")).body);
    if (!active.ok) throw new Error("owners waiting");
    expect(owners.data.owners.length - active.data.owners.length).toBe(tenant.owners.filter((o) => !o.active).length);

    const casey = owners.data.owners.find((o) => o.email === "csm@demo.test")!;
    const book = endpointById("cx.book").response.parse((await get(`/cx/book?owner=${casey.ownerId}`, "csm")).body);
    if (!book.ok) throw new Error("book waiting");
    expect(book.data.basis).toBe("real");
    expect(book.data.rows.length).toBe(tenant.companies.filter((c) => c.kind === "school" && !c.archived && c.ownerId === casey.ownerId).length);
    const derived = endpointById("cx.book").response.parse((await get(`/cx/book?owner=${casey.ownerId}&basis=activity&days=90`, "csm")).body);
    expect(derived.ok && derived.data.basis).toBe("activity");

    const districts = endpointById("cx.districts").response.parse((await get("/cx/districts", "admin")).body);
    if (!districts.ok) throw new Error("districts waiting");
    expect(districts.data.rows.length).toBe(tenant.companies.filter((c) => c.kind === "district" && !c.archived).length);
  });

  it("answers fresh figures once a source is loaded again", async () => {
    const owners = (await get("/cx/owners", "csm")).body as { data: { owners: { ownerId: string; email: string }[] } };
    const owner = owners.data.owners.find((o) => o.email === "csm@demo.test")!.ownerId;
    const first = (await get(`/cx/book?owner=${owner}`, "csm")).body;
    expect((await get(`/cx/book?owner=${owner}`, "csm")).body).toEqual(first);
    // Every school's health drops to 10: the next answer must say POOR everywhere it has scores.
    await loadHealth(h.db, tenant.health.map((p) => ({ ...p, score: p.score === null ? null : 10 })), Date.now() + 1000);
    const after = endpointById("cx.book").response.parse((await get(`/cx/book?owner=${owner}`, "csm")).body);
    if (!after.ok) throw new Error("book waiting");
    const bands = new Set(after.data.rows.flatMap((r) => (r.health && r.health.band !== "NO_BASELINE" ? [r.health.band] : [])));
    expect([...bands]).toEqual(["POOR"]);
  });
});
