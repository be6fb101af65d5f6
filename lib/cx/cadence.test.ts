import { describe, expect, it } from "vitest";
import { cadenceOf } from "./cadence";
import { resolveWindow } from "./window";

const NOW = Date.UTC(2026, 10, 20, 12); // window 2026-10-22 .. 2026-11-20
const at = (iso: string) => Date.parse(iso);

describe("cadenceOf", () => {
  it("counts by kind within [since, until] and measures days to the window's end", () => {
    const c = cadenceOf(
      [
        { kind: "call", at: at("2026-11-18T15:00:00Z") },
        { kind: "email", at: at("2026-11-05T10:00:00Z") },
        { kind: "meeting", at: at("2026-10-22T00:00:00.000Z") }, // first instant: in
        { kind: "email", at: at("2026-10-21T23:59:59.999Z") }, // one ms before: out
        { kind: "call", at: at("2026-11-21T00:00:00.000Z") }, // after the end: ignored
        { kind: "note", at: at("2026-11-19T12:00:00Z") }, // not a touch kind
      ],
      resolveWindow({}, NOW),
    );
    expect(c).toEqual({ lastTouchDate: "2026-11-18", daysSinceContact: 2, byKind: { call: 1, meeting: 1, email: 1 }, silent30d: false });
  });

  it("gives 0 days for a touch on the window's last day, at its last instant", () => {
    const c = cadenceOf([{ kind: "email", at: at("2026-11-20T23:59:59.999Z") }], resolveWindow({}, NOW));
    expect([c.lastTouchDate, c.daysSinceContact]).toEqual(["2026-11-20", 0]);
  });

  it("answers null (not never) without touches in the window, with every kind present", () => {
    expect(cadenceOf([], resolveWindow({}, NOW))).toEqual({
      lastTouchDate: null,
      daysSinceContact: null,
      byKind: { call: 0, meeting: 0, email: 0 },
      silent30d: true,
    });
  });

  it("measures to the end of a past window, not to today", () => {
    const w = resolveWindow({ from: "2026-09-01", to: "2026-09-30" }, NOW);
    const c = cadenceOf([{ kind: "meeting", at: at("2026-09-10T16:00:00Z") }, { kind: "call", at: at("2026-11-18T15:00:00Z") }], w);
    expect(c).toEqual({ lastTouchDate: "2026-09-10", daysSinceContact: 20, byKind: { call: 0, meeting: 1, email: 0 }, silent30d: false });
  });

  it("looks 30 days back from the end for silent30d even when the window is shorter", () => {
    const w = resolveWindow({ days: 7 }, NOW); // 2026-11-14 .. 2026-11-20; trailing 30 days from 2026-10-22
    const recent = cadenceOf([{ kind: "call", at: at("2026-11-01T15:00:00Z") }], w);
    expect(recent).toEqual({ lastTouchDate: null, daysSinceContact: null, byKind: { call: 0, meeting: 0, email: 0 }, silent30d: false });
    expect(cadenceOf([{ kind: "call", at: at("2026-10-22T00:00:00.000Z") }], w).silent30d).toBe(false);
    expect(cadenceOf([{ kind: "call", at: at("2026-10-21T23:59:59.999Z") }], w).silent30d).toBe(true);
  });

  it("flags silence in a long window when the last touch is 30 days before its end", () => {
    const w = resolveWindow({ days: 60 }, NOW);
    const thirty = cadenceOf([{ kind: "email", at: at("2026-10-21T23:59:59.999Z") }], w);
    expect([thirty.daysSinceContact, thirty.silent30d]).toEqual([30, true]);
    const twentyNine = cadenceOf([{ kind: "email", at: at("2026-10-22T00:00:00.000Z") }], w);
    expect([twentyNine.daysSinceContact, twentyNine.silent30d]).toEqual([29, false]);
  });
});
