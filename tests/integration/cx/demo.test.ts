import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpointById } from "@/lib/contract/endpoints";
import type { CxBookRow } from "@/lib/contract/resources";
import { cxBook, cxDistricts, cxOwners } from "@/lib/cx";
import { DAY_MS, generateTenant, type Company } from "@/demo/tenant";
import { backends } from "../support/backends";
import { addSyncRun, loadTenant, markLoaded } from "./store";

// The demo tenant, stored as a completed sync would leave it: shapes and invariants of the
// three views over realistic data.

const tenant = generateTenant({ scale: 1 });
const NOW = tenant.now;
const live = tenant.companies.filter((c) => !c.archived);
const byId = new Map<string, Company>(live.map((c) => [c.id, c]));
const districts = live.filter((c) => c.parentCompanyId === null);
const schools = live.filter((c) => c.parentCompanyId !== null);
const casey = tenant.owners[0]!;
const bookSchema = endpointById("cx.book").response;

function parsedRows(answer: unknown): CxBookRow[] {
  const parsed = bookSchema.parse(answer);
  if (!parsed.ok) throw new Error(`not answered: ${parsed.waitingOn}`);
  return parsed.data.rows;
}

describe.each(backends)("CX views over the demo tenant on $name", (backend) => {
  let h: Awaited<ReturnType<typeof backend.open>>;

  beforeAll(async () => {
    h = await backend.open();
    await loadTenant(h.db, tenant, { wired: true });
    await addSyncRun(h.db, "ok", 1, 1);
  });
  afterAll(async () => {
    await h.close();
  });

  it("lists the roster, the departed owner only without activeOnly", async () => {
    const all = endpointById("cx.owners").response.parse(await cxOwners(h.db, {}));
    const active = endpointById("cx.owners").response.parse(await cxOwners(h.db, { activeOnly: true }));
    if (!all.ok || !active.ok) throw new Error("not answered");
    expect(all.data.owners.map((o) => o.ownerId).sort()).toEqual(tenant.owners.map((o) => o.ownerId).sort());
    expect(active.data.owners.map((o) => o.ownerId).sort()).toEqual(tenant.owners.filter((o) => o.active).map((o) => o.ownerId).sort());
    expect(active.data.owners.length).toBeLessThan(all.data.owners.length);
  });

  it("gives every owner their assigned schools, with district-grain ARR and sound ranks", async () => {
    for (const owner of tenant.owners) {
      const rows = parsedRows(await cxBook(h.db, { owner: owner.ownerId }, NOW));
      expect(rows.map((r) => r.companyId).sort()).toEqual(schools.filter((s) => s.ownerId === owner.ownerId).map((s) => s.id).sort());
      for (const r of rows) {
        const school = byId.get(r.companyId)!;
        const district = byId.get(school.parentCompanyId!)!;
        expect([r.arr, r.districtName, r.enrolment, r.productSchoolId]).toEqual([district.arr, district.name, school.enrolment, school.productSchoolId]);
        expect(r.priority!.percentile).toBeGreaterThanOrEqual(1);
        expect(r.priority!.percentile).toBeLessThanOrEqual(100);
        expect(r.priority!.score > 0).toBe(r.priority!.reasons.length > 0 && !r.priority!.reasons.includes("churned"));
        expect(r.reachPercentile === null).toBe(r.reach === null);
        if (r.reachPercentile !== null && r.reachPercentile !== undefined) expect(r.reachPercentile).toBeGreaterThanOrEqual(1);
        if (school.enrolment === null || school.productSchoolId === null) expect(r.reach).toBeNull();
        expect(r.cadence).not.toBeNull();
        expect(r.health).not.toBeNull();
      }
      const scores = rows.map((r) => r.priority!.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
    }
  });

  it("shows the demo CSM's edge cases", async () => {
    const rows = parsedRows(await cxBook(h.db, { owner: casey.ownerId }, NOW));
    const live = rows.filter((r) => r.churnedDate === null);
    expect(rows.some((r) => r.enrolment === null && r.reach === null)).toBe(true);
    expect(rows.some((r) => r.productSchoolId === null && r.reach === null)).toBe(true);
    expect(live.some((r) => r.cadence!.silent30d && r.priority!.reasons.includes("silent 30 days"))).toBe(true);
    expect(live.some((r) => r.health!.band === "NO_BASELINE" && r.priority!.reasons.includes("no health baseline"))).toBe(true);
    const churned = rows.filter((r) => r.churnedDate !== null);
    expect(churned.length).toBeGreaterThan(0);
    for (const r of churned) expect(r.priority).toMatchObject({ score: 0, reasons: ["churned"] });
  });

  it("derives the activity book from who logged touches in the window", async () => {
    const since = Date.parse(`${new Date(NOW - 29 * DAY_MS).toISOString().slice(0, 10)}T00:00:00Z`);
    for (const owner of tenant.owners) {
      const answer = await cxBook(h.db, { owner: owner.ownerId, basis: "activity" }, NOW);
      const rows = parsedRows(answer);
      const touched = new Set(
        tenant.engagements.filter((e) => e.ownerId === owner.ownerId && e.timestamp >= since && byId.has(e.companyId)).map((e) => e.companyId),
      );
      expect(rows.map((r) => r.companyId).sort()).toEqual([...touched].sort());
      expect(answer.ok && answer.data.basis).toBe("activity");
      // Every school in an activity book has at least the owner's own touch in the window.
      for (const r of rows) expect(r.cadence!.lastTouchDate).not.toBeNull();
    }
  });

  it("rolls up every district, consistent with the books", async () => {
    const answer = endpointById("cx.districts").response.parse(await cxDistricts(h.db, {}, NOW));
    if (!answer.ok) throw new Error("not answered");
    const rows = answer.data.rows;
    expect(rows.map((r) => r.name).sort()).toEqual(districts.map((d) => d.name).sort());
    expect(new Set(districts.map((d) => d.name)).size).toBe(districts.length);

    const bookRows = (await Promise.all(tenant.owners.map((o) => cxBook(h.db, { owner: o.ownerId }, NOW)))).flatMap(parsedRows);
    for (const row of rows) {
      const mine = bookRows.filter((r) => r.districtName === row.name);
      // The demo logs touches on schools only, so the district's counts are its schools' sums.
      const sum = { call: 0, meeting: 0, email: 0 };
      for (const r of mine) for (const k of ["call", "meeting", "email"] as const) sum[k] += r.cadence!.byKind[k];
      expect(row.cadence!.byKind).toEqual(sum);
      expect(row.cadence!.silent30d).toBe(mine.every((r) => r.cadence!.silent30d));
      const last = mine.map((r) => r.cadence!.lastTouchDate).filter((d): d is string => d !== null).sort().at(-1) ?? null;
      expect(row.cadence!.lastTouchDate).toBe(last);
      expect(row.health).not.toBeNull();
      expect(row).not.toHaveProperty("arr");
    }
  });

  it("leaves health and reach null while those sources are not wired", async () => {
    const sources = await h.db.selectFrom("data_sources").selectAll().execute();
    await h.db.deleteFrom("data_sources").execute();
    try {
      const rows = parsedRows(await cxBook(h.db, { owner: casey.ownerId }, NOW));
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) {
        expect([r.health, r.reach, r.reachPercentile]).toEqual([null, null, null]);
        expect(r.cadence).not.toBeNull();
      }
      const d = await cxDistricts(h.db, {}, NOW);
      expect(d.ok && d.data.rows.every((r) => r.health === null && r.cadence !== null)).toBe(true);
    } finally {
      for (const s of sources) await markLoaded(h.db, s.name === "health" ? "health" : "usage", s.rows);
    }
  });

  it("answers waitingOn, not zeroes, before the first completed sync", async () => {
    await h.db.deleteFrom("crm_sync_runs").execute();
    try {
      for (const answer of [await cxOwners(h.db, {}), await cxBook(h.db, { owner: casey.ownerId }, NOW), await cxDistricts(h.db, {}, NOW)]) {
        expect(answer).toEqual({ ok: false, waitingOn: "the first CRM portal sync, which has not started" });
      }
    } finally {
      await addSyncRun(h.db, "ok", 1, 1);
    }
  });
});
