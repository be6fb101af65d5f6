import "server-only";
import type { Db } from "@/lib/db";
import type { Touch } from "./cadence";
import type { HealthPoint } from "./health";
import { waitingText, type Wiring } from "./ready";

// The CX views' reads: one set-based query per kind of data, never one per company. The CX
// views read the monetary `customers` instance; health and usage rows are keyed by the
// customer's company and product ids.

const INSTANCE = "customers";
/** Keeps IN lists well inside both engines' bound-parameter limits. */
const IN_CHUNK = 900;

async function inChunks<T, R>(items: readonly T[], load: (chunk: T[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += IN_CHUNK) out.push(...(await load(items.slice(i, i + IN_CHUNK))));
  return out;
}

export function groupByCompany<T extends { companyId: string }>(items: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const list = out.get(item.companyId);
    if (list) list.push(item);
    else out.set(item.companyId, [item]);
  }
  return out;
}

export interface SyncProgress {
  completed: boolean;
  /** The most recent run, when no run has completed. */
  latest: { status: string; rowsDone: number; rowsExpected: number | null } | null;
}

async function syncProgress(db: Db): Promise<SyncProgress> {
  const ok = await db
    .selectFrom("crm_sync_runs")
    .select("id")
    .where("instance", "=", INSTANCE)
    .where("status", "=", "ok")
    .limit(1)
    .executeTakeFirst();
  if (ok) return { completed: true, latest: null };
  const latest = await db
    .selectFrom("crm_sync_runs")
    .select(["status", "rows_done", "rows_expected"])
    .where("instance", "=", INSTANCE)
    .orderBy("started_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return {
    completed: false,
    latest: latest ? { status: latest.status, rowsDone: latest.rows_done, rowsExpected: latest.rows_expected } : null,
  };
}

/** Which of the product's own sources have been loaded at least once. */
async function loadedSources(db: Db): Promise<{ health: boolean; usage: boolean }> {
  const rows = await db.selectFrom("data_sources").select("name").where("name", "in", ["health", "usage"]).execute();
  const names = new Set(rows.map((r) => r.name));
  return { health: names.has("health"), usage: names.has("usage") };
}

/** Whether the views can answer now, and from which sources. */
type Readiness = { ready: false; waitingOn: string } | { ready: true; wiring: Wiring };

export async function readiness(db: Db): Promise<Readiness> {
  const [progress, sources] = await Promise.all([syncProgress(db), loadedSources(db)]);
  const waitingOn = waitingText(progress);
  if (waitingOn !== null) return { ready: false, waitingOn };
  return { ready: true, wiring: { engagements: true, ...sources } };
}

interface OwnerRow {
  id: string;
  name: string;
  email: string;
  active: boolean;
}

export async function owners(db: Db, activeOnly: boolean): Promise<OwnerRow[]> {
  let q = db.selectFrom("crm_owners").select(["id", "name", "email", "active"]).where("instance", "=", INSTANCE);
  if (activeOnly) q = q.where("active", "=", 1);
  const rows = await q.execute();
  return rows.map((r) => ({ id: r.id, name: r.name, email: r.email, active: r.active === 1 }));
}

export interface SchoolRow {
  id: string;
  name: string;
  parentId: string;
  /** Null when the parent is not in the store. */
  districtName: string | null;
  arr: number | null;
  tier: string | null;
  productSchoolId: string | null;
  enrolment: number | null;
  churnedDate: string | null;
}

function schoolsQuery(db: Db) {
  return db
    .selectFrom("crm_companies as s")
    .leftJoin("crm_companies as d", (j) => j.onRef("d.instance", "=", "s.instance").onRef("d.id", "=", "s.parent_company_id"))
    .select([
      "s.id",
      "s.name",
      "s.parent_company_id",
      "d.name as district_name",
      "s.arr",
      "s.tier",
      "s.product_school_id",
      "s.enrolment",
      "s.churned_date",
    ])
    .where("s.instance", "=", INSTANCE)
    .where("s.parent_company_id", "is not", null);
}

type SchoolSelect = Awaited<ReturnType<ReturnType<typeof schoolsQuery>["execute"]>>[number];

function toSchool(r: SchoolSelect): SchoolRow {
  return {
    id: r.id,
    name: r.name,
    parentId: r.parent_company_id ?? "",
    districtName: r.district_name,
    arr: r.arr === null ? null : Number(r.arr),
    tier: r.tier,
    productSchoolId: r.product_school_id,
    enrolment: r.enrolment === null ? null : Number(r.enrolment),
    churnedDate: r.churned_date,
  };
}

/** The schools assigned to an owner (schools carry their district's owner). */
export async function schoolsOwnedBy(db: Db, ownerId: string): Promise<SchoolRow[]> {
  const rows = await schoolsQuery(db).where("s.owner_id", "=", ownerId).execute();
  return rows.map(toSchool);
}

/** The schools on which an owner logged a touch within [since, until], whoever is assigned. */
export async function schoolsTouchedBy(db: Db, ownerId: string, since: number, until: number): Promise<SchoolRow[]> {
  const rows = await schoolsQuery(db)
    .where("s.id", "in", (eb) =>
      eb
        .selectFrom("crm_engagements as e")
        .select("e.company_id")
        .where("e.instance", "=", INSTANCE)
        .where("e.owner_id", "=", ownerId)
        .where("e.kind", "in", ["call", "meeting", "email"])
        .where("e.occurred_at", ">=", since)
        .where("e.occurred_at", "<=", until),
    )
    .execute();
  return rows.map(toSchool);
}

interface CompanyTouch extends Touch {
  companyId: string;
}

/** Touches on the given companies within [from, until]. */
export async function touchesOn(db: Db, companyIds: readonly string[], from: number, until: number): Promise<CompanyTouch[]> {
  const rows = await inChunks(companyIds, (chunk) =>
    db
      .selectFrom("crm_engagements")
      .select(["company_id", "kind", "occurred_at"])
      .where("instance", "=", INSTANCE)
      .where("company_id", "in", chunk)
      .where("occurred_at", ">=", from)
      .where("occurred_at", "<=", until)
      .execute(),
  );
  return rows.map((r) => ({ companyId: r.company_id ?? "", kind: r.kind, at: Number(r.occurred_at) }));
}

/** Every touch on any company of the instance within [from, until]. */
export async function allTouches(db: Db, from: number, until: number): Promise<CompanyTouch[]> {
  const rows = await db
    .selectFrom("crm_engagements")
    .select(["company_id", "kind", "occurred_at"])
    .where("instance", "=", INSTANCE)
    .where("company_id", "is not", null)
    .where("occurred_at", ">=", from)
    .where("occurred_at", "<=", until)
    .execute();
  return rows.map((r) => ({ companyId: r.company_id ?? "", kind: r.kind, at: Number(r.occurred_at) }));
}

interface CompanyHealthPoint extends HealthPoint {
  companyId: string;
}

const toPoint = (r: { company_id: string; date: string; score: number | null }): CompanyHealthPoint => ({
  companyId: r.company_id,
  date: r.date,
  score: r.score === null ? null : Number(r.score),
});

/** Health points of the given companies dated on or before `untilDate`: the window and the history behind the band. */
export async function loadHealthPoints(db: Db, companyIds: readonly string[], untilDate: string): Promise<CompanyHealthPoint[]> {
  const rows = await inChunks(companyIds, (chunk) =>
    db
      .selectFrom("health_scores")
      .select(["company_id", "date", "score"])
      .where("company_id", "in", chunk)
      .where("date", "<=", untilDate)
      .execute(),
  );
  return rows.map(toPoint);
}

/** Health points of every school of the instance dated on or before `untilDate`. */
export async function allSchoolHealth(db: Db, untilDate: string): Promise<CompanyHealthPoint[]> {
  const rows = await db
    .selectFrom("health_scores as h")
    .innerJoin("crm_companies as c", (j) => j.onRef("c.id", "=", "h.company_id").on("c.instance", "=", INSTANCE))
    .select(["h.company_id", "h.date", "h.score"])
    .where("c.parent_company_id", "is not", null)
    .where("h.date", "<=", untilDate)
    .execute();
  return rows.map(toPoint);
}

/** Per product school id: active persons of its latest usage week starting on or before `untilDate`. */
export async function latestUsage(db: Db, productSchoolIds: readonly string[], untilDate: string): Promise<Map<string, number>> {
  const rows = await inChunks(productSchoolIds, (chunk) =>
    db
      .selectFrom("usage_weeks as u")
      .innerJoin(
        (eb) =>
          eb
            .selectFrom("usage_weeks")
            .select((e) => ["product_school_id", e.fn.max<string>("week_start").as("week")])
            .where("product_school_id", "in", chunk)
            .where("week_start", "<=", untilDate)
            .groupBy("product_school_id")
            .as("m"),
        (j) => j.onRef("m.product_school_id", "=", "u.product_school_id").onRef("m.week", "=", "u.week_start"),
      )
      .select(["u.product_school_id", "u.active_persons"])
      .execute(),
  );
  return new Map(rows.map((r) => [r.product_school_id, Number(r.active_persons)]));
}

export interface CompanyRow {
  id: string;
  name: string;
  parentId: string | null;
}

/** Every company of the instance: districts (no parent) and their schools. */
export async function allCompanies(db: Db): Promise<CompanyRow[]> {
  const rows = await db
    .selectFrom("crm_companies")
    .select(["id", "name", "parent_company_id"])
    .where("instance", "=", INSTANCE)
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, parentId: r.parent_company_id }));
}
