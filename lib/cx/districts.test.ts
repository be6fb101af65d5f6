import { describe, expect, it } from "vitest";
import { districtRows } from "./districts";
import { resolveWindow } from "./window";

const NOW = Date.UTC(2026, 10, 20, 12);
const w = resolveWindow({}, NOW);
const companies = [
  { id: "d2", name: "Weston", parentId: null },
  { id: "d1", name: "ashford", parentId: null },
  { id: "d3", name: "Empty", parentId: null },
  { id: "s1", name: "One", parentId: "d1" },
  { id: "s2", name: "Two", parentId: "d1" },
  { id: "s3", name: "Three", parentId: "d2" },
  { id: "s9", name: "Orphan", parentId: "nowhere" },
];
const touch = (kind: string, iso: string) => ({ kind, at: Date.parse(iso) });

describe("districtRows", () => {
  it("has one row per top-level company, by name, pooling its schools' and its own touches", () => {
    const rows = districtRows(
      {
        companies,
        touches: new Map([
          ["s1", [touch("call", "2026-11-02T15:00:00Z"), touch("email", "2026-10-01T15:00:00Z")]],
          ["s2", [touch("email", "2026-11-10T15:00:00Z")]],
          ["d1", [touch("meeting", "2026-11-12T15:00:00Z")]],
          ["s3", [touch("call", "2026-10-15T15:00:00Z")]],
          ["s9", [touch("call", "2026-11-19T15:00:00Z")]],
        ]),
        health: new Map([
          ["s1", [{ date: "2026-11-16", score: 60 }, { date: "2026-11-09", score: 50 }]],
          ["s2", [{ date: "2026-11-18", score: 80 }, { date: "2026-11-11", score: 70 }]],
        ]),
      },
      w,
      { engagements: true, health: true, usage: true },
    );
    expect(rows).toEqual([
      {
        name: "ashford",
        health: {
          series: [
            { date: "2026-11-13", score: 60 },
            { date: "2026-11-20", score: 70 },
          ],
          latest: { date: "2026-11-20", score: 70 },
          band: "GOOD", // 65
        },
        cadence: { lastTouchDate: "2026-11-12", daysSinceContact: 8, byKind: { call: 1, meeting: 1, email: 1 }, silent30d: false },
      },
      {
        name: "Empty",
        health: { series: [], latest: null, band: "NO_BASELINE" },
        cadence: { lastTouchDate: null, daysSinceContact: null, byKind: { call: 0, meeting: 0, email: 0 }, silent30d: true },
      },
      {
        name: "Weston",
        health: { series: [], latest: null, band: "NO_BASELINE" },
        cadence: { lastTouchDate: null, daysSinceContact: null, byKind: { call: 0, meeting: 0, email: 0 }, silent30d: true },
      },
    ]);
  });

  it("leaves health and cadence null when their sources are not wired", () => {
    const rows = districtRows({ companies, touches: new Map(), health: new Map() }, w, { engagements: false, health: false, usage: false });
    expect(rows.map((r) => [r.name, r.health, r.cadence])).toEqual([
      ["ashford", null, null],
      ["Empty", null, null],
      ["Weston", null, null],
    ]);
  });
});
