import "server-only";
import type { CxBookRow, CxDistrictRow, CxOwner } from "@/lib/contract/resources";
import type { Db } from "@/lib/db";
import { bookRows, type BookBasis } from "./book";
import { districtRows } from "./districts";
import { allCompanies, allSchoolHealth, allTouches, groupByCompany, latestUsage, loadHealthPoints, owners, readiness, schoolsOwnedBy, schoolsTouchedBy, touchesOn } from "./load";
import type { CxAnswer } from "./ready";
import { resolveWindow, touchesFrom, windowIso, type WindowQuery } from "./window";

// The customer-success views, for the API handlers (which have already checked sign-in, the
// cx permission and the query). Each reads its inputs through load.ts and computes with the
// modules beside it, which hold no storage: the demo API, which must stay browser-safe, imports
// those directly and computes its canned answers with the same code.

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

const collator = new Intl.Collator("en", { sensitivity: "base" });

/** The CSM roster, by name (then id); `activeOnly` drops owners who have left. */
export async function cxOwners(db: Db, q: { activeOnly?: boolean }): Promise<CxAnswer<{ owners: CxOwner[] }>> {
  const ready = await readiness(db);
  if (!ready.ready) return { ok: false, waitingOn: ready.waitingOn };
  const rows = await owners(db, q.activeOnly === true);
  rows.sort((a, b) => collator.compare(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { ok: true, data: { owners: rows.map((r) => ({ ownerId: r.id, name: r.name, email: r.email })) } };
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

export async function cxDistricts(db: Db, q: WindowQuery, now: number = Date.now()): Promise<CxAnswer<{ window: { sinceIso: string; untilIso: string }; rows: CxDistrictRow[] }>> {
  const ready = await readiness(db);
  if (!ready.ready) return { ok: false, waitingOn: ready.waitingOn };
  const { wiring } = ready;
  const w = resolveWindow(q, now);
  const [companies, touches, health] = await Promise.all([
    allCompanies(db),
    wiring.engagements ? allTouches(db, touchesFrom(w), w.until) : [],
    wiring.health ? allSchoolHealth(db, w.untilDate) : [],
  ]);
  // The window is said back, as the book does: "days since contact" means nothing without its end.
  return { ok: true, data: { window: windowIso(w), rows: districtRows({ companies, touches: groupByCompany(touches), health: groupByCompany(health) }, w, wiring) } };
}
