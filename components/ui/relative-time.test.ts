import { describe, expect, it } from "vitest";
import { formatAbsolute, formatRelative } from "./relative-time";

const now = Date.UTC(2025, 2, 3, 14, 5, 9);
const ago = (ms: number) => formatRelative(now - ms, now);
const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe("formatRelative", () => {
  it("calls the last 45 seconds, either way, just now", () => {
    expect(ago(0)).toBe("just now");
    expect(ago(44 * S)).toBe("just now");
    expect(formatRelative(now + 30 * S, now)).toBe("just now");
  });

  it("counts whole minutes, hours and days, rounding down", () => {
    expect(ago(45 * S)).toBe("1 minute ago");
    expect(ago(5 * M)).toBe("5 minutes ago");
    expect(ago(59 * M + 59 * S)).toBe("59 minutes ago");
    expect(ago(H)).toBe("1 hour ago");
    expect(ago(23 * H + 59 * M)).toBe("23 hours ago");
    expect(ago(D)).toBe("1 day ago");
    expect(ago(6 * D)).toBe("6 days ago");
  });

  it("moves to weeks, months and years for older times", () => {
    expect(ago(7 * D)).toBe("1 week ago");
    expect(ago(29 * D)).toBe("4 weeks ago");
    expect(ago(30 * D)).toBe("1 month ago");
    expect(ago(400 * D)).toBe("1 year ago");
  });

  it("says 'in …' for a time ahead of the clock", () => {
    expect(formatRelative(now + 2 * H, now)).toBe("in 2 hours");
  });
});

describe("formatAbsolute", () => {
  it("gives the date and time to the second in the requested zone", () => {
    expect(formatAbsolute(now, "UTC")).toBe("3 Mar 2025, 14:05:09");
    expect(formatAbsolute(Date.UTC(2026, 8, 30, 0, 0, 5), "UTC")).toBe("30 Sept 2026, 00:00:05");
  });

  it("reads as en-GB's medium date and time do, in UTC and in the local zone", () => {
    const british = (timeZone?: string) => new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium", timeZone });
    for (let month = 0; month < 12; month++) {
      const t = Date.UTC(2026, month, 1 + month * 2, month * 2, month * 5, 59 - month);
      expect(formatAbsolute(t, "UTC")).toBe(british("UTC").format(t));
      expect(formatAbsolute(t)).toBe(british().format(t));
    }
  });
});

describe("formatRelative's words", () => {
  it("are Intl.RelativeTimeFormat's in English, for every unit, count and direction", () => {
    const english = new Intl.RelativeTimeFormat("en", { numeric: "always" });
    const sizes = { minute: M, hour: H, day: D, week: 7 * D, month: 30 * D, year: 365 * D } as const;
    const counts = { minute: [1, 2, 59], hour: [1, 5, 23], day: [1, 6], week: [1, 4], month: [1, 11], year: [1, 3] } as const;
    for (const unit of Object.keys(sizes) as (keyof typeof sizes)[]) {
      for (const n of counts[unit]) {
        expect(ago(n * sizes[unit])).toBe(english.format(-n, unit));
        expect(formatRelative(now + n * sizes[unit], now)).toBe(english.format(n, unit));
      }
    }
  });
});
