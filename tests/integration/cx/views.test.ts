import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpointById } from "@/lib/contract/endpoints";
import { cxBook, cxDistricts, cxOwners } from "@/lib/cx";
import { backends } from "../support/backends";
import { addSyncRun, insertCompanies, insertHealth, insertOwners, insertTouches, insertUsage, markLoaded } from "./store";

// A small hand-built book. Every expectation below is worked out by hand from these rows.
// NOW is Friday 2026-11-20 12:00 UTC, so the default window is 2026-10-22 .. 2026-11-20.

const NOW = Date.UTC(2026, 10, 20, 12);
const at = (iso: string) => Date.parse(iso);

const owners = [
  { id: "o-1", name: "Casey Park", email: "casey@example.test", active: true },
  { id: "o-2", name: "Alex Moreno", email: "alex@example.test", active: true },
  { id: "o-3", name: "Blake Old", email: "blake@example.test", active: false },
];
const district = { ownerId: null, productSchoolId: null, enrolment: null, churnedDate: null };
const companies = [
  { ...district, id: "d-1", name: "North District", parentId: null, ownerId: "o-1", arr: 120000, tier: "Enterprise" },
  { id: "s-1", name: "Alder Elementary", parentId: "d-1", ownerId: "o-1", arr: 120000, tier: "Enterprise", productSchoolId: "p-1", enrolment: 400, churnedDate: null },
  { id: "s-2", name: "Birch Middle", parentId: "d-1", ownerId: "o-1", arr: 120000, tier: "Enterprise", productSchoolId: "p-2", enrolment: 200, churnedDate: null },
  { id: "s-3", name: "Cedar High", parentId: "d-1", ownerId: "o-1", arr: 120000, tier: null, productSchoolId: null, enrolment: null, churnedDate: "2026-10-01" },
  { ...district, id: "d-2", name: "South District", parentId: null, ownerId: "o-2", arr: 50000, tier: "Growth" },
  { id: "s-4", name: "Dogwood Elementary", parentId: "d-2", ownerId: "o-2", arr: 50000, tier: "Growth", productSchoolId: "p-4", enrolment: 100, churnedDate: null },
  { ...district, id: "d-3", name: "Empty District", parentId: null, ownerId: "o-2", arr: null, tier: null },
];
const touches = [
  { id: "e1", kind: "call", companyId: "s-1", ownerId: "o-1", at: at("2026-11-18T15:00:00Z") },
  { id: "e2", kind: "email", companyId: "s-1", ownerId: "o-1", at: at("2026-11-02T10:00:00Z") },
  { id: "e3", kind: "meeting", companyId: "s-1", ownerId: "o-2", at: at("2026-10-25T16:00:00Z") },
  { id: "e4", kind: "email", companyId: "s-2", ownerId: "o-1", at: at("2026-10-10T14:00:00Z") },
  { id: "e5", kind: "call", companyId: "s-3", ownerId: "o-1", at: at("2026-09-20T14:00:00Z") },
  { id: "e6", kind: "email", companyId: "s-4", ownerId: "o-1", at: at("2026-11-10T14:00:00Z") },
  { id: "e7", kind: "call", companyId: "s-4", ownerId: "o-2", at: at("2026-11-19T20:00:00Z") },
  { id: "e8", kind: "call", companyId: "s-1", ownerId: "o-1", at: at("2026-11-21T09:00:00Z") }, // after the window
  { id: "e9", kind: "call", companyId: "s-2", ownerId: "o-1", at: at("2026-11-19T09:00:00Z"), instance: "users" }, // another instance
  { id: "e10", kind: "email", companyId: "d-1", ownerId: "o-1", at: at("2026-11-20T08:00:00Z") }, // on the district itself
];
const health = [
  ...[["2026-10-01", 82], ["2026-10-15", 84], ["2026-10-29", 86], ["2026-11-12", 88]].map(([date, score]) => ({ companyId: "s-1", date: String(date), score: Number(score) })),
  { companyId: "s-2", date: "2026-10-08", score: 55 },
  { companyId: "s-2", date: "2026-10-22", score: null },
  { companyId: "s-2", date: "2026-11-05", score: 45 },
  { companyId: "s-2", date: "2026-11-19", score: 40 },
  { companyId: "s-3", date: "2026-09-24", score: 30 },
  { companyId: "s-4", date: "2026-11-16", score: 70 },
];
const usage = [
  { productSchoolId: "p-1", weekStart: "2026-10-26", activePersons: 100 },
  { productSchoolId: "p-1", weekStart: "2026-11-09", activePersons: 300 },
  { productSchoolId: "p-1", weekStart: "2026-11-16", activePersons: 200 },
  { productSchoolId: "p-1", weekStart: "2026-11-23", activePersons: 399 }, // after the window
  { productSchoolId: "p-2", weekStart: "2026-11-16", activePersons: 20 },
  { productSchoolId: "p-4", weekStart: "2026-11-16", activePersons: 150 }, // more than enrolled
];

const zero = { call: 0, meeting: 0, email: 0 };
const silent = { lastTouchDate: null, daysSinceContact: null, byKind: zero, silent30d: true };
const noHealth = { series: [], latest: null, band: "NO_BASELINE" };

const s1 = {
  companyId: "s-1",
  productSchoolId: "p-1",
  schoolName: "Alder Elementary",
  districtName: "North District",
  enrolment: 400,
  arr: 120000,
  tier: "Enterprise",
  churnedDate: null,
  health: {
    series: [
      { date: "2026-10-29", score: 86 },
      { date: "2026-11-12", score: 88 },
    ],
    latest: { date: "2026-11-12", score: 88 },
    band: "STRONG", // 82, 84, 86, 88 → 85
  },
  cadence: { lastTouchDate: "2026-11-18", daysSinceContact: 2, byKind: { call: 1, meeting: 1, email: 1 }, silent30d: false },
  reach: 0.5,
};
const s2 = {
  companyId: "s-2",
  productSchoolId: "p-2",
  schoolName: "Birch Middle",
  districtName: "North District",
  enrolment: 200,
  arr: 120000,
  tier: "Enterprise",
  churnedDate: null,
  health: {
    series: [
      { date: "2026-10-22", score: null },
      { date: "2026-11-05", score: 45 },
      { date: "2026-11-19", score: 40 },
    ],
    latest: { date: "2026-11-19", score: 40 },
    band: "POOR", // 55, 45, 40 → 46.7
  },
  cadence: silent, // e4 is before the window and the trailing 30 days; e9 is another instance's
  reach: 0.1,
};
const s3 = {
  companyId: "s-3",
  productSchoolId: null,
  schoolName: "Cedar High",
  districtName: "North District",
  enrolment: null,
  arr: 120000,
  churnedDate: "2026-10-01",
  health: { series: [], latest: { date: "2026-09-24", score: 30 }, band: "NO_BASELINE" },
  cadence: silent,
  reach: null,
  reachPercentile: null,
  priority: { score: 0, percentile: 34, reasons: ["churned"] },
};
const s4 = {
  companyId: "s-4",
  productSchoolId: "p-4",
  schoolName: "Dogwood Elementary",
  districtName: "South District",
  enrolment: 100,
  arr: 50000,
  tier: "Growth",
  churnedDate: null,
  health: { series: [{ date: "2026-11-16", score: 70 }], latest: { date: "2026-11-16", score: 70 }, band: "NO_BASELINE" },
  cadence: { lastTouchDate: "2026-11-19", daysSinceContact: 1, byKind: { call: 1, meeting: 0, email: 1 }, silent30d: false },
  reach: 1,
};

describe.each(backends)("CX views over $name", (backend) => {
  let h: Awaited<ReturnType<typeof backend.open>>;

  beforeAll(async () => {
    h = await backend.open();
    await insertOwners(h.db, owners);
    await insertCompanies(h.db, companies);
    await insertTouches(h.db, touches);
    await insertHealth(h.db, health);
    await insertUsage(h.db, usage);
    await markLoaded(h.db, "health", health.length);
    await markLoaded(h.db, "usage", usage.length);
    await addSyncRun(h.db, "failed", 3, 10);
    await addSyncRun(h.db, "ok", 20, 20);
  });
  afterAll(async () => {
    await h.close();
  });

  it("lists owners by name, and only active ones on request", async () => {
    const all = await cxOwners(h.db, {});
    expect(all).toEqual({
      ok: true,
      data: {
        owners: [
          { ownerId: "o-2", name: "Alex Moreno", email: "alex@example.test" },
          { ownerId: "o-3", name: "Blake Old", email: "blake@example.test" },
          { ownerId: "o-1", name: "Casey Park", email: "casey@example.test" },
        ],
      },
    });
    const active = await cxOwners(h.db, { activeOnly: true });
    expect(active.ok && active.data.owners.map((o) => o.ownerId)).toEqual(["o-2", "o-1"]);
    expect(endpointById("cx.owners").response.parse(all)).toEqual(all);
  });

  it("builds the assigned book for the default window", async () => {
    const book = await cxBook(h.db, { owner: "o-1" }, NOW);
    expect(book).toEqual({
      ok: true,
      data: {
        ownerId: "o-1",
        basis: "real",
        window: { sinceIso: "2026-10-22T00:00:00.000Z", untilIso: "2026-11-20T23:59:59.999Z" },
        rows: [
          { ...s2, reachPercentile: 25, priority: { score: 75, percentile: 84, reasons: ["silent 30 days", "health POOR"] } },
          { ...s1, reachPercentile: 75, priority: { score: 0, percentile: 34, reasons: [] } },
          s3,
        ],
      },
    });
    expect(endpointById("cx.book").response.parse(book)).toEqual(book);
  });

  it("builds the activity book from the owner's own touches in the window", async () => {
    const book = await cxBook(h.db, { owner: "o-1", basis: "activity" }, NOW);
    expect(book.ok && book.data.basis).toBe("activity");
    expect(book.ok && book.data.rows).toEqual([
      { ...s4, reachPercentile: 75, priority: { score: 10, percentile: 75, reasons: ["no health baseline"] } },
      { ...s1, reachPercentile: 25, priority: { score: 0, percentile: 25, reasons: [] } },
    ]);
    const alex = await cxBook(h.db, { owner: "o-2", basis: "activity" }, NOW);
    // e3 (s-1, 25 Oct) and e7 (s-4, 19 Nov) are Alex's; s-4 lacks a health baseline.
    expect(alex.ok && alex.data.rows.map((r) => r.companyId)).toEqual(["s-4", "s-1"]);
  });

  it("reads a past window as of its end", async () => {
    const book = await cxBook(h.db, { owner: "o-1", from: "2026-10-01", to: "2026-10-31", days: 7 }, NOW);
    expect(book.ok && book.data.window).toEqual({ sinceIso: "2026-10-01T00:00:00.000Z", untilIso: "2026-10-31T23:59:59.999Z" });
    expect(book.ok && book.data.rows).toEqual([
      {
        ...s2,
        health: { series: [{ date: "2026-10-08", score: 55 }, { date: "2026-10-22", score: null }], latest: { date: "2026-10-22", score: null }, band: "NO_BASELINE" },
        cadence: { lastTouchDate: "2026-10-10", daysSinceContact: 21, byKind: { call: 0, meeting: 0, email: 1 }, silent30d: false },
        reach: null,
        reachPercentile: null,
        priority: { score: 30, percentile: 84, reasons: ["21 days since last touch", "no health baseline"] },
      },
      {
        ...s1,
        health: {
          series: [{ date: "2026-10-01", score: 82 }, { date: "2026-10-15", score: 84 }, { date: "2026-10-29", score: 86 }],
          latest: { date: "2026-10-29", score: 86 },
          band: "STRONG",
        },
        cadence: { lastTouchDate: "2026-10-25", daysSinceContact: 6, byKind: { call: 0, meeting: 1, email: 0 }, silent30d: false },
        reach: 0.25,
        reachPercentile: 50,
        priority: { score: 0, percentile: 34, reasons: [] },
      },
      s3,
    ]);
    // Before its churn date the school is an ordinary row: a touch 10 days before the end, one health point.
    const september = await cxBook(h.db, { owner: "o-1", from: "2026-09-01", to: "2026-09-30" }, NOW);
    const cedar = september.ok ? september.data.rows.find((r) => r.companyId === "s-3") : undefined;
    expect(cedar?.cadence).toEqual({ lastTouchDate: "2026-09-20", daysSinceContact: 10, byKind: { call: 1, meeting: 0, email: 0 }, silent30d: false });
    expect(cedar?.priority?.reasons).toEqual(["no health baseline"]);
  });

  it("answers an empty book for an owner id it does not know", async () => {
    for (const basis of ["real", "activity"] as const) {
      const book = await cxBook(h.db, { owner: "o-404", basis }, NOW);
      expect(book).toEqual({ ok: true, data: { ownerId: "o-404", basis, window: { sinceIso: "2026-10-22T00:00:00.000Z", untilIso: "2026-11-20T23:59:59.999Z" }, rows: [] } });
    }
  });

  it("rolls every district up over the window", async () => {
    const districts = await cxDistricts(h.db, {}, NOW);
    expect(districts).toEqual({
      ok: true,
      data: {
        // Said back, as the book does: days since contact count to its end.
        window: { sinceIso: "2026-10-22T00:00:00.000Z", untilIso: "2026-11-20T23:59:59.999Z" },
        rows: [
          { name: "Empty District", health: noHealth, cadence: silent },
          {
            name: "North District",
            health: {
              // 7-day periods ending 20 Nov; the 17–23 Oct period holds only s-2's null inside the window.
              series: [
                { date: "2026-10-23", score: null },
                { date: "2026-10-30", score: 86 },
                { date: "2026-11-06", score: 45 },
                { date: "2026-11-13", score: 88 },
                { date: "2026-11-20", score: 40 },
              ],
              latest: { date: "2026-11-20", score: 40 },
              band: "MODERATE", // 86, 45, 88, 40 → 64.75
            },
            cadence: { lastTouchDate: "2026-11-20", daysSinceContact: 0, byKind: { call: 1, meeting: 1, email: 2 }, silent30d: false },
          },
          {
            name: "South District",
            health: { series: [{ date: "2026-11-20", score: 70 }], latest: { date: "2026-11-20", score: 70 }, band: "NO_BASELINE" },
            cadence: s4.cadence,
          },
        ],
      },
    });
    expect(endpointById("cx.districts").response.parse(districts)).toEqual(districts);
  });

  it("leaves health and reach null while their sources are not wired", async () => {
    await h.db.deleteFrom("data_sources").execute();
    try {
      const book = await cxBook(h.db, { owner: "o-1" }, NOW);
      expect(book.ok && book.data.rows.map((r) => [r.companyId, r.health, r.reach, r.reachPercentile, r.cadence === null])).toEqual([
        ["s-2", null, null, null, false],
        ["s-1", null, null, null, false],
        ["s-3", null, null, null, false],
      ]);
      const districts = await cxDistricts(h.db, {}, NOW);
      expect(districts.ok && districts.data.rows.map((r) => r.health)).toEqual([null, null, null]);
      await markLoaded(h.db, "usage", usage.length);
      const withUsage = await cxBook(h.db, { owner: "o-1" }, NOW);
      expect(withUsage.ok && withUsage.data.rows.map((r) => [r.companyId, r.health, r.reach])).toEqual([
        ["s-2", null, 0.1],
        ["s-1", null, 0.5],
        ["s-3", null, null],
      ]);
    } finally {
      await h.db.deleteFrom("data_sources").execute();
      await markLoaded(h.db, "health", health.length);
      await markLoaded(h.db, "usage", usage.length);
    }
  });

  it("waits for the first completed CRM portal sync of customers", async () => {
    const runs = await h.db.selectFrom("crm_sync_runs").selectAll().execute();
    await h.db.deleteFrom("crm_sync_runs").execute();
    try {
      const waiting = async () => {
        const answers = [await cxOwners(h.db, {}), await cxBook(h.db, { owner: "o-1" }, NOW), await cxDistricts(h.db, {}, NOW)];
        const texts = new Set(answers.map((a) => (a.ok ? "answered" : a.waitingOn)));
        expect(texts.size).toBe(1);
        return [...texts][0];
      };
      expect(await waiting()).toBe("the first CRM portal sync, which has not started");
      await addSyncRun(h.db, "ok", 5, 5, "users"); // another instance's sync does not count
      await addSyncRun(h.db, "running", 40, 100);
      expect(await waiting()).toBe("the first CRM portal sync (running, 40% done)");
      const shape = endpointById("cx.book").response.parse(await cxBook(h.db, { owner: "o-1" }, NOW));
      expect(shape).toEqual({ ok: false, waitingOn: "the first CRM portal sync (running, 40% done)" });
      await addSyncRun(h.db, "ok", 100, 100);
      expect(await waiting()).toBe("answered");
    } finally {
      await h.db.deleteFrom("crm_sync_runs").execute();
      for (const r of runs) await addSyncRun(h.db, r.status, r.rows_done, r.rows_expected, r.instance);
    }
  });
});
