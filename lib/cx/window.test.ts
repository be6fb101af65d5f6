import { describe, expect, it } from "vitest";
import { addDays, dayIndex, daysBetween, resolveWindow, touchesFrom, windowIso } from "./window";

const NOW = Date.UTC(2026, 10, 20, 12, 0, 0); // Friday 2026-11-20 12:00 UTC

describe("resolveWindow", () => {
  it("defaults to the 30 calendar days ending today, UTC, with untilIso the last instant of today", () => {
    const w = resolveWindow({}, NOW);
    expect([w.sinceDate, w.untilDate]).toEqual(["2026-10-22", "2026-11-20"]);
    expect(windowIso(w)).toEqual({ sinceIso: "2026-10-22T00:00:00.000Z", untilIso: "2026-11-20T23:59:59.999Z" });
    expect(w.silentSince).toBe(Date.UTC(2026, 9, 22));
    expect(touchesFrom(w)).toBe(w.since);
  });

  it("counts `days` whole days with today as the last", () => {
    expect(resolveWindow({ days: 1 }, NOW).sinceDate).toBe("2026-11-20");
    const w = resolveWindow({ days: 7 }, NOW);
    expect([w.sinceDate, w.untilDate]).toEqual(["2026-11-14", "2026-11-20"]);
    // The trailing 30 days reach back past a short window.
    expect(w.silentSince).toBe(Date.UTC(2026, 9, 22));
    expect(touchesFrom(w)).toBe(Date.UTC(2026, 9, 22));
    expect(resolveWindow({ days: 365 }, NOW).sinceDate).toBe("2025-11-21");
  });

  it("takes today from `now` in UTC at both ends of the day", () => {
    expect(resolveWindow({ days: 2 }, Date.UTC(2026, 10, 20, 0, 0, 0, 0)).untilDate).toBe("2026-11-20");
    expect(resolveWindow({ days: 2 }, Date.UTC(2026, 10, 20, 23, 59, 59, 999)).untilDate).toBe("2026-11-20");
    expect(resolveWindow({ days: 2 }, Date.UTC(2026, 10, 21, 0, 0, 0, 0)).untilDate).toBe("2026-11-21");
  });

  it("uses from..to as inclusive calendar days and ignores days then", () => {
    const w = resolveWindow({ from: "2024-02-27", to: "2024-03-01", days: 5 }, NOW);
    expect(windowIso(w)).toEqual({ sinceIso: "2024-02-27T00:00:00.000Z", untilIso: "2024-03-01T23:59:59.999Z" });
    expect(w.silentSince).toBe(Date.UTC(2024, 1, 1)); // 2024 is a leap year: 1 March − 29 days
    const one = resolveWindow({ from: "2026-01-05", to: "2026-01-05" }, NOW);
    expect(one.until - one.since).toBe(86_400_000 - 1);
  });

  it("rejects inconsistent queries the handler should never pass", () => {
    expect(() => resolveWindow({ from: "2026-01-01" }, NOW)).toThrow(RangeError);
    expect(() => resolveWindow({ from: "2026-01-02", to: "2026-01-01" }, NOW)).toThrow(RangeError);
    expect(() => resolveWindow({ from: "2026-02-30", to: "2026-03-01" }, NOW)).toThrow(RangeError);
    expect(() => resolveWindow({ days: 0 }, NOW)).toThrow(RangeError);
  });
});

describe("calendar helpers", () => {
  it("counts whole calendar days", () => {
    expect(daysBetween("2026-10-21", "2026-11-20")).toBe(30);
    expect(daysBetween("2026-11-20", "2026-11-20")).toBe(0);
    expect(daysBetween("2026-03-01", "2026-02-28")).toBe(-1);
    expect(addDays("2024-03-01", -1)).toBe("2024-02-29");
  });
});

describe("dayIndex", () => {
  it("matches the calendar across leap years, centuries and eras", () => {
    for (let ms = Date.UTC(1899, 0, 1); ms <= Date.UTC(2101, 0, 1); ms += 86_400_000 * 7 + 3_600_000 * 5) {
      const date = new Date(ms).toISOString().slice(0, 10);
      expect(dayIndex(date)).toBe(Math.floor(ms / 86_400_000));
    }
    expect(dayIndex("1970-01-01")).toBe(0);
    expect(dayIndex("2000-02-29")).toBe(11_016);
    expect(dayIndex("2100-03-01") - dayIndex("2100-02-28")).toBe(1);
  });
});
