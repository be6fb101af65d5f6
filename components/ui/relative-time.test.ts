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
  });
});
