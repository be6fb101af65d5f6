import { describe, expect, it } from "vitest";
import { bookRows, type BookInputs } from "./book";
import type { SchoolRow } from "./load";
import { resolveWindow } from "./window";

const NOW = Date.UTC(2026, 10, 20, 12); // window 2026-10-22 .. 2026-11-20
const w = resolveWindow({}, NOW);
const all = { engagements: true, health: true, usage: true };

const school = (id: string, over: Partial<SchoolRow> = {}): SchoolRow => ({
  id,
  name: `School ${id.toUpperCase()}`,
  parentId: "d",
  districtName: "District D",
  arr: 1000,
  tier: "Growth",
  productSchoolId: `p${id}`,
  enrolment: 100,
  churnedDate: null,
  ...over,
});
const steady = (score: number) => [
  { date: "2026-11-01", score },
  { date: "2026-11-08", score },
];

const inputs: BookInputs = {
  schools: [
    school("a"),
    school("b"),
    school("c"),
    school("d", { tier: null }),
    school("e", { productSchoolId: null }),
    school("f", { enrolment: null, districtName: null, parentId: "gone" }),
  ],
  touches: new Map([
    ["a", [{ kind: "call", at: Date.parse("2026-11-19T15:00:00Z") }]],
    ["c", [{ kind: "email", at: Date.parse("2026-10-30T15:00:00Z") }]],
    ["d", [{ kind: "meeting", at: Date.parse("2026-11-20T15:00:00Z") }]],
    ["e", [{ kind: "call", at: Date.parse("2026-11-15T15:00:00Z") }]],
  ]),
  health: new Map([
    ["a", steady(70)],
    ["c", [{ date: "2026-11-01", score: 40 }, { date: "2026-11-08", score: 44 }]],
    ["d", steady(85)],
    ["e", steady(60)],
    ["f", steady(90)],
  ]),
  usage: new Map([
    ["pa", 10],
    ["pb", 50],
    ["pc", 60],
    ["pd", 70],
    ["pf", 40],
  ]),
};

describe("bookRows", () => {
  it("computes reach, its percentile and the priority of every row, most urgent first", () => {
    const rows = bookRows(inputs, w, all);
    expect(rows.map((r) => [r.companyId, r.reach, r.reachPercentile, r.priority])).toEqual([
      ["c", 0.6, 63, { score: 55, percentile: 92, reasons: ["21 days since last touch", "health POOR"] }],
      ["b", 0.5, 38, { score: 50, percentile: 75, reasons: ["silent 30 days", "no health baseline"] }],
      ["f", null, null, { score: 40, percentile: 59, reasons: ["silent 30 days"] }],
      ["e", null, null, { score: 20, percentile: 42, reasons: ["health MODERATE"] }],
      ["a", 0.1, 13, { score: 10, percentile: 25, reasons: ["reach in bottom 25%"] }],
      ["d", 0.7, 88, { score: 0, percentile: 9, reasons: [] }],
    ]);
  });

  it("carries the school's fields, district-grain ARR unchanged and tier only when set", () => {
    const rows = bookRows(inputs, w, all);
    const byId = new Map(rows.map((r) => [r.companyId, r]));
    expect(byId.get("a")).toMatchObject({
      productSchoolId: "pa",
      schoolName: "School A",
      districtName: "District D",
      enrolment: 100,
      arr: 1000,
      tier: "Growth",
      churnedDate: null,
      cadence: { lastTouchDate: "2026-11-19", daysSinceContact: 1, byKind: { call: 1, meeting: 0, email: 0 }, silent30d: false },
      health: { band: "GOOD", latest: { date: "2026-11-08", score: 70 } },
    });
    expect(byId.get("d")).not.toHaveProperty("tier");
    expect(byId.get("f")?.districtName).toBe("gone");
    expect(rows.every((r) => r.arr === 1000)).toBe(true);
  });

  it("leaves health, cadence and reach null for sources that are not wired", () => {
    const rows = bookRows(inputs, w, { engagements: false, health: false, usage: false });
    for (const r of rows) {
      expect([r.health, r.cadence, r.reach, r.reachPercentile]).toEqual([null, null, null, null]);
      expect(r.priority).toEqual({ score: 0, percentile: 50, reasons: [] });
    }
    expect(rows.map((r) => r.companyId)).toEqual(["a", "b", "c", "d", "e", "f"]); // ties by district, then school name
    expect(bookRows(inputs, w, { ...all, usage: false }).find((r) => r.companyId === "a")?.cadence).not.toBeNull();
  });

  it("treats a school as churned only once its churn date is within the window's reach", () => {
    const churning = { ...inputs, schools: [school("b", { churnedDate: "2026-11-20" }), school("c", { churnedDate: "2026-11-21" })] };
    const rows = bookRows(churning, w, all);
    expect(rows.find((r) => r.companyId === "b")?.priority?.reasons).toEqual(["churned"]);
    expect(rows.find((r) => r.companyId === "c")?.priority?.reasons).toEqual(["21 days since last touch", "health POOR"]);
  });

  it("is empty for an empty book", () => {
    expect(bookRows({ ...inputs, schools: [] }, w, all)).toEqual([]);
  });
});
