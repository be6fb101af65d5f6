import type { CxBookRow } from "@/lib/contract/resources";
import { cadenceOf, type Touch } from "./cadence";
import { healthOf, type HealthPoint } from "./health";
import type { SchoolRow } from "./load";
import { priorityScore } from "./priority";
import { percentileRanks, reachOf } from "./reach";
import type { Wiring } from "./ready";
import type { CxWindow } from "./window";

export type BookBasis = "real" | "activity";

export interface BookInputs {
  schools: readonly SchoolRow[];
  /** Touches per company id. */
  touches: ReadonlyMap<string, readonly Touch[]>;
  /** Health points per company id. */
  health: ReadonlyMap<string, readonly HealthPoint[]>;
  /** Latest-week active persons per product school id. */
  usage: ReadonlyMap<string, number>;
}

const collator = new Intl.Collator("en", { sensitivity: "base" });

/**
 * The rows of a book, most urgent first (priority score descending, then district name, school
 * name and company id). Pure: everything it needs is in `inputs`.
 */
export function bookRows(inputs: BookInputs, w: CxWindow, wiring: Wiring): CxBookRow[] {
  const partial = inputs.schools.map((s) => {
    const usage = s.productSchoolId === null ? undefined : inputs.usage.get(s.productSchoolId);
    return {
      school: s,
      health: wiring.health ? healthOf(inputs.health.get(s.id) ?? [], w) : null,
      cadence: wiring.engagements ? cadenceOf(inputs.touches.get(s.id) ?? [], w) : null,
      reach: wiring.usage && usage !== undefined ? reachOf(usage, s.enrolment) : null,
    };
  });
  const reachPercentiles = percentileRanks(partial.map((p) => p.reach));
  const scored = partial.map((p, i) => {
    const reachPercentile = reachPercentiles[i] ?? null;
    const churned = p.school.churnedDate !== null && p.school.churnedDate <= w.untilDate;
    return { ...p, reachPercentile, ...priorityScore({ churned, cadence: p.cadence, health: p.health, reachPercentile }) };
  });
  const priorityPercentiles = percentileRanks(scored.map((p) => p.score));

  const rows = scored.map((p, i): CxBookRow => {
    const s = p.school;
    return {
      companyId: s.id,
      productSchoolId: s.productSchoolId,
      schoolName: s.name,
      // An orphaned school keeps its parent id as the group key, so districts stay apart.
      districtName: s.districtName ?? s.parentId,
      enrolment: s.enrolment,
      arr: s.arr,
      ...(s.tier !== null ? { tier: s.tier } : {}),
      churnedDate: s.churnedDate,
      health: p.health,
      cadence: p.cadence,
      reach: p.reach,
      reachPercentile: p.reachPercentile,
      priority: { score: p.score, percentile: priorityPercentiles[i] ?? 1, reasons: p.reasons },
    };
  });
  return rows.sort(
    (a, b) =>
      (b.priority?.score ?? 0) - (a.priority?.score ?? 0) ||
      collator.compare(a.districtName, b.districtName) ||
      collator.compare(a.schoolName, b.schoolName) ||
      (a.companyId < b.companyId ? -1 : a.companyId > b.companyId ? 1 : 0),
  );
}
