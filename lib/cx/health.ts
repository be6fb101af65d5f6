import type { Health } from "@/lib/contract/resources";
import { DAY_MS, dayIndex, isoDay, type CxWindow } from "./window";

// Health bands from dated scores. The band is read as of the window's end: points dated after
// it are ignored, and points before the window still count towards the baseline.

export type HealthValue = NonNullable<Health>;
type HealthBand = HealthValue["band"];

export interface HealthPoint {
  /** YYYY-MM-DD. */
  date: string;
  score: number | null;
}

/** The band is the mean of up to this many of the latest non-null scores… */
const BASELINE_POINTS = 4;
/** …and needs at least this many of them; fewer is NO_BASELINE. */
const MIN_BASELINE_POINTS = 2;
/** Lower bounds (inclusive) of the mean, best band first; below the last one is POOR. */
const BAND_FLOORS: readonly (readonly [HealthBand, number])[] = [
  ["STRONG", 80],
  ["GOOD", 65],
  ["MODERATE", 50],
];
/** District aggregates group their schools' points into periods of this many days ending on the window's last day. */
const DISTRICT_PERIOD_DAYS = 7;

function byDate(a: HealthPoint, b: HealthPoint): number {
  return a.date < b.date ? -1 : a.date > b.date ? 1 : 0;
}

/** The band of the mean of the last up-to-4 non-null scores of `points` (any order, all counted). */
export function bandOf(points: readonly HealthPoint[]): HealthBand {
  const scores = [...points]
    .sort(byDate)
    .flatMap((p) => (p.score === null ? [] : [p.score]))
    .slice(-BASELINE_POINTS);
  if (scores.length < MIN_BASELINE_POINTS) return "NO_BASELINE";
  const mean = scores.reduce((s, x) => s + x, 0) / scores.length;
  for (const [band, floor] of BAND_FLOORS) if (mean >= floor) return band;
  return "POOR";
}

/**
 * - `series`: the points dated within the window, oldest first (a score may be null).
 * - `latest`: the latest point dated on or before the window's last day, inside the window or
 *   not (its score may be null); null when there is none.
 * - `band`: `bandOf` the points dated on or before the window's last day.
 */
export function healthOf(points: readonly HealthPoint[], w: CxWindow): HealthValue {
  const upToEnd = points.filter((p) => p.date <= w.untilDate).sort(byDate);
  const latest = upToEnd.at(-1);
  return {
    series: upToEnd.filter((p) => p.date >= w.sinceDate).map((p) => ({ date: p.date, score: p.score })),
    latest: latest ? { date: latest.date, score: latest.score } : null,
    band: bandOf(upToEnd),
  };
}

/**
 * Schools report on different weekdays, so a district's points are grouped by period: the 7
 * days ending on the window's last day, the 7 before those, and so on. In each period every
 * school contributes its latest point there; the period's score is the mean of the non-null
 * ones, rounded to one decimal, or null when all were null. The period is dated by its last
 * day. `all` uses every point up to the window's end; `inWindow` only those dated within it.
 */
function districtPoints(schools: readonly (readonly HealthPoint[])[], w: CxWindow): { all: HealthPoint[]; inWindow: HealthPoint[] } {
  const all = new Map<number, Map<number, HealthPoint>>();
  const inWindow = new Map<number, Map<number, HealthPoint>>();
  const keep = (periods: Map<number, Map<number, HealthPoint>>, k: number, school: number, p: HealthPoint) => {
    let bySchool = periods.get(k);
    if (!bySchool) periods.set(k, (bySchool = new Map()));
    const held = bySchool.get(school);
    if (!held || held.date < p.date) bySchool.set(school, p);
  };
  const lastDay = dayIndex(w.untilDate);
  const lastStart = lastDay * DAY_MS;
  schools.forEach((points, school) => {
    for (const p of points) {
      if (p.date > w.untilDate) continue;
      const k = Math.floor((lastDay - dayIndex(p.date)) / DISTRICT_PERIOD_DAYS);
      if (!Number.isFinite(k)) continue; // a malformed stored date belongs to no period
      keep(all, k, school, p);
      if (p.date >= w.sinceDate) keep(inWindow, k, school, p);
    }
  });
  const flatten = (periods: Map<number, Map<number, HealthPoint>>): HealthPoint[] =>
    [...periods.entries()]
      .sort(([a], [b]) => b - a)
      .map(([k, bySchool]) => {
        let sum = 0;
        let n = 0;
        for (const p of bySchool.values()) {
          if (p.score === null) continue;
          sum += p.score;
          n += 1;
        }
        return { date: isoDay(lastStart - k * DISTRICT_PERIOD_DAYS * DAY_MS), score: n === 0 ? null : Math.round((sum / n) * 10) / 10 };
      });
  return { all: flatten(all), inWindow: flatten(inWindow) };
}

/**
 * A district's health: `series` is the period aggregate of its schools' points dated within the
 * window; `latest` and `band` apply the school rules to the aggregate of every point up to the
 * window's end.
 */
export function districtHealthOf(schools: readonly (readonly HealthPoint[])[], w: CxWindow): HealthValue {
  const { all, inWindow } = districtPoints(schools, w);
  return { series: inWindow, latest: all.at(-1) ?? null, band: bandOf(all) };
}
