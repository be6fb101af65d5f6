import { describe, expect, it } from "vitest";
import type { CadenceValue } from "./cadence";
import type { HealthValue } from "./health";
import { priorityScore } from "./priority";

const cadence = (over: Partial<CadenceValue> = {}): CadenceValue => ({
  lastTouchDate: "2026-11-18",
  daysSinceContact: 2,
  byKind: { call: 1, meeting: 0, email: 0 },
  silent30d: false,
  ...over,
});
const health = (band: HealthValue["band"]): HealthValue => ({ series: [], latest: null, band });
const calm = { churned: false, cadence: cadence(), health: health("STRONG"), reachPercentile: 50 };

describe("priorityScore", () => {
  it("is 0 with no reasons when nothing stands out", () => {
    expect(priorityScore(calm)).toEqual({ score: 0, reasons: [] });
    expect(priorityScore({ ...calm, health: health("GOOD") })).toEqual({ score: 0, reasons: [] });
  });

  it("adds the strongest signal of each family, reaching 100 at most", () => {
    expect(
      priorityScore({ churned: false, cadence: cadence({ silent30d: true, daysSinceContact: null }), health: health("POOR"), reachPercentile: 5 }),
    ).toEqual({ score: 100, reasons: ["silent 30 days", "health POOR", "reach in bottom 10%"] });
  });

  it("scores contact gaps short of silence", () => {
    expect(priorityScore({ ...calm, cadence: cadence({ lastTouchDate: null, daysSinceContact: null }) })).toEqual({ score: 20, reasons: ["no touch in window"] });
    expect(priorityScore({ ...calm, cadence: cadence({ daysSinceContact: 14 }) })).toEqual({ score: 20, reasons: ["14 days since last touch"] });
    expect(priorityScore({ ...calm, cadence: cadence({ daysSinceContact: 13 }) })).toEqual({ score: 0, reasons: [] });
  });

  it("scores weak or missing health", () => {
    expect(priorityScore({ ...calm, health: health("MODERATE") })).toEqual({ score: 20, reasons: ["health MODERATE"] });
    expect(priorityScore({ ...calm, health: health("NO_BASELINE") })).toEqual({ score: 10, reasons: ["no health baseline"] });
  });

  it("flags reach below the 10th and 25th percentiles of the book", () => {
    expect(priorityScore({ ...calm, reachPercentile: 9 })).toEqual({ score: 25, reasons: ["reach in bottom 10%"] });
    expect(priorityScore({ ...calm, reachPercentile: 10 })).toEqual({ score: 10, reasons: ["reach in bottom 25%"] });
    expect(priorityScore({ ...calm, reachPercentile: 24 })).toEqual({ score: 10, reasons: ["reach in bottom 25%"] });
    expect(priorityScore({ ...calm, reachPercentile: 25 })).toEqual({ score: 0, reasons: [] });
    expect(priorityScore({ ...calm, reachPercentile: null })).toEqual({ score: 0, reasons: [] });
  });

  it("has no signals from sources that are not wired", () => {
    expect(priorityScore({ churned: false, cadence: null, health: null, reachPercentile: null })).toEqual({ score: 0, reasons: [] });
  });

  it("gives churned schools 0 with the one reason", () => {
    expect(priorityScore({ churned: true, cadence: cadence({ silent30d: true }), health: health("POOR"), reachPercentile: 1 })).toEqual({
      score: 0,
      reasons: ["churned"],
    });
  });
});
