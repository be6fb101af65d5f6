import { describe, expect, it } from "vitest";
import { bandOf, districtHealthOf, healthOf, type HealthPoint } from "./health";
import { resolveWindow } from "./window";

const NOW = Date.UTC(2026, 10, 20, 12); // window 2026-10-22 .. 2026-11-20
const pts = (...scores: (number | null)[]): HealthPoint[] =>
  scores.map((score, i) => ({ date: `2026-10-${String(i + 1).padStart(2, "0")}`, score }));

describe("bandOf", () => {
  it.each([
    [[80, 80], "STRONG"],
    [[80, 80, 80, 79], "GOOD"], // 79.75
    [[65, 65], "GOOD"],
    [[64, 65, 65, 65], "MODERATE"], // 64.75
    [[50, 50], "MODERATE"],
    [[49, 50], "POOR"], // 49.5
    [[0, 0, 0], "POOR"],
  ] as const)("%j → %s (mean of the last up-to-4 non-null scores, inclusive floors)", (scores, band) => {
    expect(bandOf(pts(...scores))).toBe(band);
  });

  it("needs two non-null scores for a baseline", () => {
    expect(bandOf([])).toBe("NO_BASELINE");
    expect(bandOf(pts(90))).toBe("NO_BASELINE");
    expect(bandOf(pts(90, null, null))).toBe("NO_BASELINE");
    expect(bandOf(pts(null, 90, null, 70))).toBe("STRONG"); // 80
  });

  it("uses only the latest four non-null scores, by date whatever the input order", () => {
    expect(bandOf(pts(0, 90, 90, 90, 90))).toBe("STRONG");
    expect(bandOf(pts(0, 90, 90, 90))).toBe("GOOD"); // 67.5
    expect(bandOf(pts(0, 90, 90, 90, 90).reverse())).toBe("STRONG");
  });
});

describe("healthOf", () => {
  it("series in the window, latest and band as of its end, later points ignored", () => {
    const h = healthOf(
      [
        { date: "2026-11-21", score: 10 },
        { date: "2026-10-01", score: 40 },
        { date: "2026-10-08", score: 50 },
        { date: "2026-10-22", score: 70 },
        { date: "2026-10-29", score: null },
        { date: "2026-11-05", score: 72 },
        { date: "2026-11-12", score: 74 },
      ],
      resolveWindow({}, NOW),
    );
    expect(h).toEqual({
      series: [
        { date: "2026-10-22", score: 70 },
        { date: "2026-10-29", score: null },
        { date: "2026-11-05", score: 72 },
        { date: "2026-11-12", score: 74 },
      ],
      latest: { date: "2026-11-12", score: 74 },
      band: "GOOD", // 50, 70, 72, 74 → 66.5
    });
  });

  it("keeps a null-scored latest point and bands on the scores before it", () => {
    const h = healthOf(
      [
        { date: "2026-11-01", score: 80 },
        { date: "2026-11-10", score: 82 },
        { date: "2026-11-19", score: null },
      ],
      resolveWindow({}, NOW),
    );
    expect([h.latest, h.band]).toEqual([{ date: "2026-11-19", score: null }, "STRONG"]);
  });

  it("takes latest and band from before a short window", () => {
    const h = healthOf(
      [
        { date: "2026-10-01", score: 60 },
        { date: "2026-10-08", score: 62 },
      ],
      resolveWindow({ days: 7 }, NOW),
    );
    expect(h).toEqual({ series: [], latest: { date: "2026-10-08", score: 62 }, band: "MODERATE" });
    expect(healthOf([], resolveWindow({}, NOW))).toEqual({ series: [], latest: null, band: "NO_BASELINE" });
  });
});

describe("districtHealthOf", () => {
  const w = resolveWindow({}, NOW);

  it("averages each 7-day period ending on the window's last day, one point per school", () => {
    const a = [
      { date: "2026-10-20", score: 60 },
      { date: "2026-11-03", score: 70 },
      { date: "2026-11-17", score: 80 }, // superseded by the same school's later point in that period
      { date: "2026-11-19", score: 90 },
    ];
    const b = [
      { date: "2026-10-22", score: 40 },
      { date: "2026-11-05", score: null },
      { date: "2026-11-12", score: 50 },
    ];
    const c = [{ date: "2026-11-18", score: null }];
    expect(districtHealthOf([a, b, c], w)).toEqual({
      // 17–23 Oct holds a's 20 Oct (before the window) and b's 22 Oct: the series uses only b's.
      series: [
        { date: "2026-10-23", score: 40 },
        { date: "2026-11-06", score: 70 },
        { date: "2026-11-13", score: 50 },
        { date: "2026-11-20", score: 90 },
      ],
      latest: { date: "2026-11-20", score: 90 },
      band: "GOOD", // periods up to the end: 50 (60 & 40), 70, 50, 90 → 65
    });
  });

  it("rounds period means to one decimal and keeps all-null periods as null", () => {
    const week = resolveWindow({ days: 7 }, NOW);
    expect(
      districtHealthOf(
        [[{ date: "2026-11-20", score: 70 }], [{ date: "2026-11-19", score: 71 }], [{ date: "2026-11-15", score: 71 }]],
        week,
      ),
    ).toEqual({ series: [{ date: "2026-11-20", score: 70.7 }], latest: { date: "2026-11-20", score: 70.7 }, band: "NO_BASELINE" });
    expect(districtHealthOf([[{ date: "2026-11-18", score: null }]], week)).toEqual({
      series: [{ date: "2026-11-20", score: null }],
      latest: { date: "2026-11-20", score: null },
      band: "NO_BASELINE",
    });
  });

  it("has no baseline without schools", () => {
    expect(districtHealthOf([], w)).toEqual({ series: [], latest: null, band: "NO_BASELINE" });
  });
});

describe("districtHealthOf with bad data", () => {
  it("skips a stored date that is not YYYY-MM-DD", () => {
    const w = resolveWindow({}, NOW);
    expect(districtHealthOf([[{ date: "2026-1-5", score: 10 }, { date: "2026-11-20", score: 70 }]], w)).toEqual({
      series: [{ date: "2026-11-20", score: 70 }],
      latest: { date: "2026-11-20", score: 70 },
      band: "NO_BASELINE",
    });
  });
});
