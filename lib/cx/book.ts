import type { CxBookRow } from "@/lib/contract/resources";
import type { Db } from "@/lib/db";
import { cadenceOf, type Touch } from "./cadence";
import { healthOf, type HealthPoint } from "./health";
import { groupByCompany, loadHealthPoints, latestUsage, schoolsOwnedBy, schoolsTouchedBy, touchesOn, type SchoolRow } from "./load";
import { priorityScore } from "./priority";
import { percentileRanks, reachOf } from "./reach";
import { readiness, type CxAnswer, type Wiring } from "./ready";
import { resolveWindow, touchesFrom, windowIso, type CxWindow, type WindowQuery } from "./window";

export type BookBasis = "real" | "activity";

interface BookQuery extends WindowQuery {
  owner: string;
  basis?: BookBasis;
}

interface BookData {
  ownerId: string;
  basis: BookBasis;
  window: { sinceIso: string; untilIso: string };
  rows: CxBookRow[];
}

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

/**
 * One owner's book for the window. `real`: the schools assigned to the owner. `activity`: the
 * schools on which the owner logged a touch within the window, whoever is assigned (a derived
 * stand-in for an assignment). An owner id that is not in the roster has an empty book.
 */
export async function cxBook(db: Db, q: BookQuery, now: number = Date.now()): Promise<CxAnswer<BookData>> {
  const ready = await readiness(db);
  if (!ready.ready) return { ok: false, waitingOn: ready.waitingOn };
  const { wiring } = ready;
  const w = resolveWindow(q, now);
  const basis = q.basis ?? "real";

  const schools = basis === "real" ? await schoolsOwnedBy(db, q.owner) : await schoolsTouchedBy(db, q.owner, w.since, w.until);
  const ids = schools.map((s) => s.id);
  const productIds = schools.flatMap((s) => (s.productSchoolId === null ? [] : [s.productSchoolId]));
  const [touches, health, usage] = await Promise.all([
    wiring.engagements && ids.length > 0 ? touchesOn(db, ids, touchesFrom(w), w.until) : [],
    wiring.health && ids.length > 0 ? loadHealthPoints(db, ids, w.untilDate) : [],
    wiring.usage && productIds.length > 0 ? latestUsage(db, productIds, w.untilDate) : new Map<string, number>(),
  ]);

  return {
    ok: true,
    data: {
      ownerId: q.owner,
      basis,
      window: windowIso(w),
      rows: bookRows({ schools, touches: groupByCompany(touches), health: groupByCompany(health), usage }, w, wiring),
    },
  };
}
