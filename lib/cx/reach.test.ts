import { describe, expect, it } from "vitest";
import { percentileRanks, reachOf } from "./reach";

describe("reachOf", () => {
  it("divides latest-week active persons by enrolment, clamped to 0..1", () => {
    expect(reachOf(50, 200)).toBe(0.25);
    expect(reachOf(0, 200)).toBe(0);
    expect(reachOf(250, 200)).toBe(1);
  });

  it("is null when either side is unknown or enrolment is not positive", () => {
    expect(reachOf(10, null)).toBeNull();
    expect(reachOf(null, 200)).toBeNull();
    expect(reachOf(5, 0)).toBeNull();
  });
});

describe("percentileRanks", () => {
  it("ranks at the mid-rank, rounded up", () => {
    expect(percentileRanks([0.4, 0.1, 0.3, 0.2])).toEqual([88, 13, 63, 38]);
  });

  it("puts ties at their shared mid-rank", () => {
    expect(percentileRanks([0, 0, 0, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1])).toEqual([15, 15, 15, 35, 45, 55, 65, 75, 90, 90]);
    expect(percentileRanks([5, 5, 5])).toEqual([50, 50, 50]);
    expect(percentileRanks([7])).toEqual([50]);
  });

  it("keeps nulls out of the population", () => {
    expect(percentileRanks([null, 3, null, 1])).toEqual([null, 75, null, 25]);
    expect(percentileRanks([])).toEqual([]);
  });

  it("stays within 1..100 at the extremes", () => {
    const twenty = percentileRanks(Array.from({ length: 20 }, (_, i) => i));
    expect([twenty[0], twenty[1], twenty[4], twenty[5], twenty[19]]).toEqual([3, 8, 23, 28, 98]);
    const many = percentileRanks(Array.from({ length: 1000 }, (_, i) => i));
    expect([many[0], many[999]]).toEqual([1, 100]);
  });
});
