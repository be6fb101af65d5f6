import type { Db } from "@/lib/db";
import type { Tenant } from "@/demo/tenant";

// Writes CX test data straight into the normalised tables, the way a completed sync and the
// product's health and usage loads leave them.

const CHUNK = 200;
const T0 = Date.UTC(2026, 0, 1);

async function inChunks<T>(rows: T[], write: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await write(rows.slice(i, i + CHUNK));
}

export interface OwnerIn {
  id: string;
  name: string;
  email: string;
  active: boolean;
}
export interface CompanyIn {
  id: string;
  name: string;
  parentId: string | null;
  ownerId: string | null;
  arr: number | null;
  tier: string | null;
  productSchoolId: string | null;
  enrolment: number | null;
  churnedDate: string | null;
}
export interface TouchIn {
  id: string;
  kind: string;
  companyId: string;
  ownerId: string;
  at: number;
  instance?: string;
}

export const insertOwners = (db: Db, owners: OwnerIn[]) =>
  inChunks(
    owners.map((o) => ({ instance: "customers", id: o.id, name: o.name, email: o.email, active: o.active ? 1 : 0, source_updated_at: T0, updated_at: T0 })),
    (chunk) => db.insertInto("crm_owners").values(chunk).execute(),
  );

export const insertCompanies = (db: Db, companies: CompanyIn[]) =>
  inChunks(
    companies.map((c) => ({
      instance: "customers",
      id: c.id,
      name: c.name,
      domain: null,
      industry: null,
      employees: null,
      parent_company_id: c.parentId,
      arr: c.arr,
      tier: c.tier,
      owner_id: c.ownerId,
      product_school_id: c.productSchoolId,
      enrolment: c.enrolment,
      churned_date: c.churnedDate,
      source_updated_at: T0,
      updated_at: T0,
    })),
    (chunk) => db.insertInto("crm_companies").values(chunk).execute(),
  );

export const insertTouches = (db: Db, touches: TouchIn[]) =>
  inChunks(
    touches.map((t) => ({
      instance: t.instance ?? "customers",
      id: t.id,
      kind: t.kind,
      company_id: t.companyId,
      owner_id: t.ownerId,
      occurred_at: t.at,
      source_updated_at: t.at,
      updated_at: t.at,
    })),
    (chunk) => db.insertInto("crm_engagements").values(chunk).execute(),
  );

export const insertHealth = (db: Db, points: { companyId: string; date: string; score: number | null }[]) =>
  inChunks(
    points.map((p) => ({ company_id: p.companyId, date: p.date, score: p.score })),
    (chunk) => db.insertInto("health_scores").values(chunk).execute(),
  );

export const insertUsage = (db: Db, weeks: { productSchoolId: string; weekStart: string; activePersons: number }[]) =>
  inChunks(
    weeks.map((u) => ({ product_school_id: u.productSchoolId, week_start: u.weekStart, active_persons: u.activePersons })),
    (chunk) => db.insertInto("usage_weeks").values(chunk).execute(),
  );

export async function markLoaded(db: Db, name: "health" | "usage", rows: number): Promise<void> {
  await db.insertInto("data_sources").values({ name, loaded_at: T0, rows }).execute();
}

export async function addSyncRun(db: Db, status: string, rowsDone = 0, rowsExpected: number | null = null, instance = "customers"): Promise<void> {
  await db
    .insertInto("crm_sync_runs")
    .values({
      instance,
      connector: "crmportal",
      status,
      started_at: T0,
      finished_at: status === "running" ? null : T0,
      heartbeat_at: T0,
      rows_done: rowsDone,
      rows_expected: rowsExpected,
      error: status === "failed" ? "boom" : null,
    })
    .execute();
}

/** The demo tenant's CRM, health and usage, as a completed sync and loads would store them (archived records are gone). */
export async function loadTenant(db: Db, t: Tenant, opts: { wired: boolean }): Promise<void> {
  await insertOwners(db, t.owners.map((o) => ({ id: o.ownerId, name: o.name, email: o.email, active: o.active })));
  await insertCompanies(
    db,
    t.companies
      .filter((c) => !c.archived)
      .map((c) => ({
        id: c.id,
        name: c.name,
        parentId: c.parentCompanyId,
        ownerId: c.ownerId,
        arr: c.arr,
        tier: c.tier,
        productSchoolId: c.productSchoolId,
        enrolment: c.enrolment,
        churnedDate: c.churnedDate,
      })),
  );
  await insertTouches(db, t.engagements.map((e) => ({ id: e.id, kind: e.kind, companyId: e.companyId, ownerId: e.ownerId, at: e.timestamp })));
  if (!opts.wired) return;
  await insertHealth(db, t.health);
  await insertUsage(db, t.usage);
  await markLoaded(db, "health", t.health.length);
  await markLoaded(db, "usage", t.usage.length);
}
