import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { generateTenant } from "@/demo/tenant";
import { endpointById } from "@/lib/contract/endpoints";
import { HUBSPOT_LIMITS, searchIntervalMs } from "@/lib/connectors/crmportal";
import { syncInstance } from "@/lib/crm/sync";
import { apiAsDemoUsers } from "../support/api";
import { backends } from "../support/backends";
import { live, runsOf, snapshot, startPortal, totalRecords, type Portal, type PortalOptions } from "./helpers";

// A first sync against a portal that enforces HubSpot's rate limits: paced to the search limit
// it meets no 429; when the portal is slower than the client was told, or another limit is
// reached, the run waits what the portal's answer says and completes with every record; when it
// cannot (the daily limit), it fails saying so. Whatever it met, /crm/:instance/sources shows.

const tenant = generateTenant();
const T1 = 1_800_000_000_000;
const sourcesResponse = endpointById("crm.sources").response;

describe.each(backends)("CRM sync under HubSpot's rate limits over $name", (backend) => {
  let h: Awaited<ReturnType<typeof backend.open>>;
  let portal: Portal | undefined;
  beforeEach(async () => {
    h = await backend.open();
  });
  afterEach(async () => {
    await portal?.close();
    portal = undefined;
    await h.close();
  });

  const open = async (opts: PortalOptions) => {
    portal = await startPortal(tenant, 0, opts);
    return portal;
  };
  /** The sources answer over the API, as a dashboard reads it. */
  const sourcesOverApi = async () => {
    const api = await apiAsDemoUsers(() => h.db);
    const res = await api.get("/crm/customers/sources", "csm");
    expect(res.status).toBe(200);
    const source = sourcesResponse.parse(res.body).sources[0];
    if (!source) throw new Error("no source");
    return source;
  };
  const stored = async () => {
    const snap = await snapshot(h.db, "customers");
    return { companies: snap.companies.length, contacts: snap.contacts.length, deals: snap.deals.length, engagements: snap.engagements.length };
  };
  const l = live(tenant);
  const everything = { companies: l.companies.length, contacts: l.contacts.length, deals: l.deals.length, engagements: l.engagements.length };

  it("paced to HubSpot's search limit, a first sync meets no 429, and sources tells its searches and the time it held them", async () => {
    const p = await open({ limits: { ...HUBSPOT_LIMITS } });
    const up = p.upstream("customers");
    expect(up.searchesPerSecond).toBe(HUBSPOT_LIMITS.searchesPerSecond);
    const t0 = performance.now();
    const result = await syncInstance({ db: h.db, upstream: up, instance: "customers", now: () => T1 });
    const elapsed = performance.now() - t0;
    expect(result).toEqual({ status: "ok", rows: totalRecords(tenant) });
    expect(await stored()).toEqual(everything);

    const usage = p.standIn.limits.usage();
    expect(usage.refused).toEqual({ search: 0, burst: 0, daily: 0 });
    const source = await sourcesOverApi();
    expect(source).toMatchObject({ status: "ok", lastError: null, rateLimits: { searches: usage.searches, waits: 0, waitedMs: 0, limitsHit: [] } });
    // The searches went no faster than the pace allows, and the run says how long it held them back.
    const interval = searchIntervalMs(up);
    expect(elapsed).toBeGreaterThan((usage.searches - 1) * interval - 5);
    expect(source.rateLimits?.pacedMs).toBeGreaterThan((usage.searches - 1) * interval * 0.5);
  });

  it("told a faster search limit than the portal's, the sync waits out each 429 as its headers say and completes with every record; sources says what it waited on", async () => {
    const p = await open({ limits: { ...HUBSPOT_LIMITS } });
    // The sync's own patience: no retry count given.
    const up = p.upstream("customers", { searchesPerSecond: 1_000, maxRetries: undefined });
    const result = await syncInstance({ db: h.db, upstream: up, instance: "customers", now: () => T1 });
    expect(result).toEqual({ status: "ok", rows: totalRecords(tenant) });
    expect(await stored()).toEqual(everything);

    const usage = p.standIn.limits.usage();
    expect(usage.refused.search).toBeGreaterThan(0);
    const source = await sourcesOverApi();
    expect(source.status).toBe("ok");
    expect(source.rateLimits).toEqual({
      searches: usage.searches + usage.refused.search,
      pacedMs: expect.any(Number),
      // Each 429 said the one-second window was spent; each was waited out once.
      waits: usage.refused.search,
      waitedMs: usage.refused.search * 1_000,
      limitsHit: ["search"],
    });
    const run = (await runsOf(h.db, "customers"))[0];
    expect(run).toMatchObject({ status: "ok", limit_waits: usage.refused.search, limits_hit: "search" });
  });

  it("waits out HubSpot's ten-second limit on the other requests, the whole window each time", async () => {
    let clock = T1;
    // The portal's clock moves only as the client waits, so the ten seconds pass at once.
    const p = await open({ limits: { requestsPerTenSeconds: 5 }, now: () => clock });
    const waited: number[] = [];
    const up = p.upstream("customers", {
      maxRetries: undefined,
      sleep: async (ms) => {
        waited.push(ms);
        clock += ms;
      },
    });
    const result = await syncInstance({ db: h.db, upstream: up, instance: "customers", now: () => T1 });
    expect(result.status).toBe("ok");
    expect(await stored()).toEqual(everything);

    const refused = p.standIn.limits.usage().refused;
    expect(refused.burst).toBeGreaterThan(1);
    expect(waited).toEqual(Array(refused.burst).fill(10_000));
    expect((await sourcesOverApi()).rateLimits).toMatchObject({ waits: refused.burst, waitedMs: refused.burst * 10_000, limitsHit: ["burst"] });
  });

  it("fails on HubSpot's daily limit without waiting for tomorrow, and says which limit in the run's error and sources", async () => {
    const p = await open({ limits: { requestsPerDay: 6 } });
    const result = await syncInstance({ db: h.db, upstream: p.upstream("customers", { maxRetries: undefined }), instance: "customers", now: () => T1 });
    expect(result).toMatchObject({ status: "failed", failure: "rate_limited" });
    expect(p.standIn.limits.usage().refused.daily).toBe(1);
    const source = await sourcesOverApi();
    expect(source.status).toBe("failed");
    expect(source.lastError).toMatch(/rate_limited: .* answered 429 \(rate limited; wait 3600 s\)/);
    expect(source.rateLimits).toMatchObject({ waits: 0, waitedMs: 0, limitsHit: ["daily"] });
  });
});
