import "server-only";
import type { Selectable } from "kysely";
import type { Db } from "@/lib/db";
import type { CrmCompaniesTable, CrmContactsTable, CrmDealsTable, CrmSyncRunsTable } from "@/lib/db/schema";
import { portalLimits, type PortalLimit } from "@/lib/connectors/crmportal/client";
import {
  monetary,
  type CrmInstance,
  type PortalCompanyRecord,
  type PortalContactRecord,
  type PortalDealRecord,
  type PortalEngagementRecord,
  type PortalOwner,
  type SyncedObject,
} from "@/lib/connectors/crmportal/records";

// The normalised CRM store: one function per query. Writes are idempotent upserts keyed by
// (instance, id), so applying the same page twice leaves the same rows. `updated_at` is the
// time this deployment synced the row; `source_updated_at` is the portal's own time.

export const CRM_CONNECTOR = "crmportal";
/** How long a sync lease lasts without renewal; also how old a heartbeat must be to call a run dead. */
export const SYNC_LEASE_MS = 60_000;

/** The object types an instance syncs, in dependency order: a non-monetary instance has no deals. */
export function objectsFor(instance: CrmInstance): SyncedObject[] {
  return monetary[instance] ? ["owners", "companies", "contacts", "deals", "engagements"] : ["owners", "companies", "contacts", "engagements"];
}

const tableOf = {
  owners: "crm_owners",
  companies: "crm_companies",
  contacts: "crm_contacts",
  deals: "crm_deals",
  engagements: "crm_engagements",
} as const satisfies Record<SyncedObject, string>;

/** Rows per INSERT, well under both engines' bound-parameter limits at 15 columns. */
const CHUNK = 500;

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

// ── Writes (sync) ─────────────────────────────────────────────────────────────────────────

export async function upsertOwners(db: Db, instance: CrmInstance, owners: readonly PortalOwner[], syncedAt: number): Promise<void> {
  for (const part of chunks(owners)) {
    await db
      .insertInto("crm_owners")
      .values(
        part.map((o) => ({
          instance,
          id: o.id,
          name: o.name,
          email: o.email,
          active: o.active ? 1 : 0,
          source_updated_at: o.updatedAt,
          updated_at: syncedAt,
        })),
      )
      .onConflict((oc) =>
        oc.columns(["instance", "id"]).doUpdateSet((eb) => ({
          name: eb.ref("excluded.name"),
          email: eb.ref("excluded.email"),
          active: eb.ref("excluded.active"),
          source_updated_at: eb.ref("excluded.source_updated_at"),
          updated_at: eb.ref("excluded.updated_at"),
        })),
      )
      .execute();
  }
}

export async function ownerIds(db: Db, instance: CrmInstance): Promise<{ id: string; active: boolean }[]> {
  const rows = await db.selectFrom("crm_owners").select(["id", "active"]).where("instance", "=", instance).execute();
  return rows.map((r) => ({ id: r.id, active: Number(r.active) === 1 }));
}

export async function deactivateOwners(db: Db, instance: CrmInstance, ids: readonly string[], syncedAt: number): Promise<void> {
  for (const part of chunks(ids)) {
    await db
      .updateTable("crm_owners")
      .set({ active: 0, updated_at: syncedAt })
      .where("instance", "=", instance)
      .where("id", "in", part)
      .execute();
  }
}

export async function upsertCompanies(
  db: Db,
  instance: CrmInstance,
  records: readonly PortalCompanyRecord[],
  syncedAt: number,
  withMoney: boolean,
): Promise<void> {
  for (const part of chunks(records)) {
    await db
      .insertInto("crm_companies")
      .values(
        part.map(
          (c): CrmCompaniesTable => ({
            instance,
            id: c.id,
            name: c.name,
            domain: c.domain,
            industry: c.industry,
            employees: c.employees,
            parent_company_id: c.parentCompanyId,
            arr: withMoney ? c.arr : null,
            tier: c.tier,
            owner_id: c.ownerId,
            product_school_id: c.productSchoolId,
            enrolment: c.enrolment,
            churned_date: c.churnedDate,
            source_updated_at: c.updatedAt,
            updated_at: syncedAt,
          }),
        ),
      )
      .onConflict((oc) =>
        oc.columns(["instance", "id"]).doUpdateSet((eb) => ({
          name: eb.ref("excluded.name"),
          domain: eb.ref("excluded.domain"),
          industry: eb.ref("excluded.industry"),
          employees: eb.ref("excluded.employees"),
          parent_company_id: eb.ref("excluded.parent_company_id"),
          arr: eb.ref("excluded.arr"),
          tier: eb.ref("excluded.tier"),
          owner_id: eb.ref("excluded.owner_id"),
          product_school_id: eb.ref("excluded.product_school_id"),
          enrolment: eb.ref("excluded.enrolment"),
          churned_date: eb.ref("excluded.churned_date"),
          source_updated_at: eb.ref("excluded.source_updated_at"),
          updated_at: eb.ref("excluded.updated_at"),
        })),
      )
      .execute();
  }
}

export async function upsertContacts(db: Db, instance: CrmInstance, records: readonly PortalContactRecord[], syncedAt: number): Promise<void> {
  for (const part of chunks(records)) {
    await db
      .insertInto("crm_contacts")
      .values(
        part.map(
          (c): CrmContactsTable => ({
            instance,
            id: c.id,
            email: c.email,
            first_name: c.firstName,
            last_name: c.lastName,
            company_id: c.companyId,
            lifecycle_stage: c.lifecycleStage,
            source_updated_at: c.updatedAt,
            updated_at: syncedAt,
          }),
        ),
      )
      .onConflict((oc) =>
        oc.columns(["instance", "id"]).doUpdateSet((eb) => ({
          email: eb.ref("excluded.email"),
          first_name: eb.ref("excluded.first_name"),
          last_name: eb.ref("excluded.last_name"),
          company_id: eb.ref("excluded.company_id"),
          lifecycle_stage: eb.ref("excluded.lifecycle_stage"),
          source_updated_at: eb.ref("excluded.source_updated_at"),
          updated_at: eb.ref("excluded.updated_at"),
        })),
      )
      .execute();
  }
}

export async function upsertDeals(db: Db, instance: CrmInstance, records: readonly PortalDealRecord[], syncedAt: number): Promise<void> {
  for (const part of chunks(records)) {
    await db
      .insertInto("crm_deals")
      .values(
        part.map(
          (d): CrmDealsTable => ({
            instance,
            id: d.id,
            name: d.name,
            company_id: d.companyId,
            amount: d.amount,
            stage: d.stage,
            close_date: d.closeDate,
            owner_id: d.ownerId,
            source_updated_at: d.updatedAt,
            updated_at: syncedAt,
          }),
        ),
      )
      .onConflict((oc) =>
        oc.columns(["instance", "id"]).doUpdateSet((eb) => ({
          name: eb.ref("excluded.name"),
          company_id: eb.ref("excluded.company_id"),
          amount: eb.ref("excluded.amount"),
          stage: eb.ref("excluded.stage"),
          close_date: eb.ref("excluded.close_date"),
          owner_id: eb.ref("excluded.owner_id"),
          source_updated_at: eb.ref("excluded.source_updated_at"),
          updated_at: eb.ref("excluded.updated_at"),
        })),
      )
      .execute();
  }
}

export async function upsertEngagements(db: Db, instance: CrmInstance, records: readonly PortalEngagementRecord[], syncedAt: number): Promise<void> {
  for (const part of chunks(records)) {
    await db
      .insertInto("crm_engagements")
      .values(
        part.map((e) => ({
          instance,
          id: e.id,
          kind: e.kind,
          company_id: e.companyId,
          owner_id: e.ownerId,
          occurred_at: e.occurredAt,
          source_updated_at: e.updatedAt,
          updated_at: syncedAt,
        })),
      )
      .onConflict((oc) =>
        oc.columns(["instance", "id"]).doUpdateSet((eb) => ({
          kind: eb.ref("excluded.kind"),
          company_id: eb.ref("excluded.company_id"),
          owner_id: eb.ref("excluded.owner_id"),
          occurred_at: eb.ref("excluded.occurred_at"),
          source_updated_at: eb.ref("excluded.source_updated_at"),
          updated_at: eb.ref("excluded.updated_at"),
        })),
      )
      .execute();
  }
}

/** Removes the given records of one object type; answers how many were there. */
export async function deleteRecords(db: Db, instance: CrmInstance, object: Exclude<SyncedObject, "owners">, ids: readonly string[]): Promise<number> {
  let deleted = 0;
  for (const part of chunks(ids)) {
    const r = await db.deleteFrom(tableOf[object]).where("instance", "=", instance).where("id", "in", part).executeTakeFirst();
    deleted += Number(r.numDeletedRows);
  }
  return deleted;
}

// ── Watermarks ────────────────────────────────────────────────────────────────────────────

export async function watermarks(db: Db, instance: CrmInstance): Promise<Map<string, number | null>> {
  const rows = await db.selectFrom("crm_sync_state").select(["object", "watermark"]).where("instance", "=", instance).execute();
  return new Map(rows.map((r) => [r.object, r.watermark === null ? null : Number(r.watermark)]));
}

export async function setWatermark(db: Db, instance: CrmInstance, object: SyncedObject, watermark: number): Promise<void> {
  await db
    .insertInto("crm_sync_state")
    .values({ instance, object, watermark })
    .onConflict((oc) => oc.columns(["instance", "object"]).doUpdateSet({ watermark }))
    .execute();
}

/** The watermark row that records when archived ids were last read in full (not an object type). */
const ARCHIVED_CHECK = "archived-check";

/** When the instance's archived ids were last read in full, or null if never. */
export async function archivedCheckedAt(db: Db, instance: CrmInstance): Promise<number | null> {
  return (await watermarks(db, instance)).get(ARCHIVED_CHECK) ?? null;
}

export async function setArchivedCheckedAt(db: Db, instance: CrmInstance, at: number): Promise<void> {
  await db
    .insertInto("crm_sync_state")
    .values({ instance, object: ARCHIVED_CHECK, watermark: at })
    .onConflict((oc) => oc.columns(["instance", "object"]).doUpdateSet({ watermark: at }))
    .execute();
}

// ── Sync runs ─────────────────────────────────────────────────────────────────────────────

/** What a run met of the portal's rate limits, so far. */
export interface RunTraffic {
  /** Search requests sent, retries included. */
  searches: number;
  /** Time searches were held back to stay under the search limit, ms. */
  pacedMs: number;
  /** Waits after the portal answered "slow down", and their total, ms. */
  waits: number;
  waitedMs: number;
  /** The limits the portal said were reached, in the order first met. */
  limitsHit: PortalLimit[];
}

export function noTraffic(): RunTraffic {
  return { searches: 0, pacedMs: 0, waits: 0, waitedMs: 0, limitsHit: [] };
}

interface SyncRun {
  id: number;
  status: "running" | "ok" | "failed";
  startedAt: number;
  finishedAt: number | null;
  heartbeatAt: number;
  rowsDone: number;
  rowsExpected: number | null;
  error: string | null;
  traffic: RunTraffic;
}

function limitsOf(text: string | null): PortalLimit[] {
  return (text ?? "").split(",").filter((l): l is PortalLimit => (portalLimits as readonly string[]).includes(l));
}

function runOf(r: Selectable<CrmSyncRunsTable>): SyncRun {
  return {
    id: Number(r.id),
    status: r.status === "ok" || r.status === "failed" ? r.status : "running",
    startedAt: Number(r.started_at),
    finishedAt: r.finished_at === null ? null : Number(r.finished_at),
    heartbeatAt: Number(r.heartbeat_at),
    rowsDone: Number(r.rows_done),
    rowsExpected: r.rows_expected === null ? null : Number(r.rows_expected),
    error: r.error,
    traffic: {
      searches: Number(r.searches),
      pacedMs: Number(r.paced_ms),
      waits: Number(r.limit_waits),
      waitedMs: Number(r.limit_waited_ms),
      limitsHit: limitsOf(r.limits_hit),
    },
  };
}

/** The run's traffic as its columns; times are whole milliseconds. */
function trafficColumns(t: RunTraffic) {
  return {
    searches: t.searches,
    paced_ms: Math.round(t.pacedMs),
    limit_waits: t.waits,
    limit_waited_ms: Math.round(t.waitedMs),
    limits_hit: t.limitsHit.length ? t.limitsHit.join(",") : null,
  };
}

export async function insertRun(db: Db, instance: CrmInstance, connector: string, now: number): Promise<number> {
  const row = await db
    .insertInto("crm_sync_runs")
    .values({ instance, connector, status: "running", started_at: now, heartbeat_at: now, rows_done: 0, rows_expected: null, finished_at: null, error: null })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateRunProgress(
  db: Db,
  runId: number,
  progress: { now: number; rowsDone?: number; rowsExpected?: number | null; traffic?: RunTraffic },
): Promise<void> {
  await db
    .updateTable("crm_sync_runs")
    .set({
      heartbeat_at: progress.now,
      ...(progress.rowsDone !== undefined ? { rows_done: progress.rowsDone } : {}),
      ...(progress.rowsExpected !== undefined ? { rows_expected: progress.rowsExpected } : {}),
      ...(progress.traffic ? trafficColumns(progress.traffic) : {}),
    })
    .where("id", "=", runId)
    .execute();
}

export async function finishRun(
  db: Db,
  runId: number,
  outcome: { now: number; status: "ok" | "failed"; rowsDone: number; error: string | null; traffic?: RunTraffic },
): Promise<void> {
  await db
    .updateTable("crm_sync_runs")
    .set({
      status: outcome.status,
      finished_at: outcome.now,
      heartbeat_at: outcome.now,
      rows_done: outcome.rowsDone,
      error: outcome.error,
      ...(outcome.traffic ? trafficColumns(outcome.traffic) : {}),
    })
    .where("id", "=", runId)
    .execute();
}

/** Marks as failed the runs that still say `running` but have not beaten since `staleBefore`. */
export async function failStaleRuns(db: Db, instance: CrmInstance, staleBefore: number, now: number, error: string): Promise<number> {
  const r = await db
    .updateTable("crm_sync_runs")
    .set({ status: "failed", finished_at: now, error })
    .where("instance", "=", instance)
    .where("status", "=", "running")
    .where("heartbeat_at", "<", staleBefore)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/**
 * Forgets finished runs that started before `before`, except the last successful one, which
 * the endpoints still need; answers how many went.
 */
export async function pruneRuns(db: Db, instance: CrmInstance, before: number): Promise<number> {
  const keep = await db
    .selectFrom("crm_sync_runs")
    .select("id")
    .where("instance", "=", instance)
    .where("status", "=", "ok")
    .orderBy("finished_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  let q = db.deleteFrom("crm_sync_runs").where("instance", "=", instance).where("status", "<>", "running").where("started_at", "<", before);
  if (keep) q = q.where("id", "<>", keep.id);
  const r = await q.executeTakeFirst();
  return Number(r.numDeletedRows);
}

export async function latestRun(db: Db, instance: CrmInstance): Promise<SyncRun | null> {
  const row = await db
    .selectFrom("crm_sync_runs")
    .selectAll()
    .where("instance", "=", instance)
    .orderBy("started_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? runOf(row) : null;
}

/** When the instance's last successful sync finished; null before the first one. */
export async function lastSuccessfulSync(db: Db, instance: CrmInstance): Promise<number | null> {
  const row = await db
    .selectFrom("crm_sync_runs")
    .select((eb) => eb.fn.max("finished_at").as("at"))
    .where("instance", "=", instance)
    .where("status", "=", "ok")
    .executeTakeFirst();
  return row?.at === null || row?.at === undefined ? null : Number(row.at);
}

// ── Reads (endpoints) ─────────────────────────────────────────────────────────────────────

/** Keyset pages: ids strictly after `after`, in id order. */
export async function companiesAfter(db: Db, instance: CrmInstance, after: string | null, limit: number) {
  let q = db
    .selectFrom("crm_companies")
    .select(["id", "name", "domain", "industry", "employees", "parent_company_id", "arr", "updated_at"])
    .where("instance", "=", instance);
  if (after !== null) q = q.where("id", ">", after);
  return q.orderBy("id").limit(limit).execute();
}

export async function contactsAfter(db: Db, instance: CrmInstance, after: string | null, limit: number) {
  let q = db
    .selectFrom("crm_contacts")
    .select(["id", "email", "first_name", "last_name", "company_id", "lifecycle_stage", "updated_at"])
    .where("instance", "=", instance);
  if (after !== null) q = q.where("id", ">", after);
  return q.orderBy("id").limit(limit).execute();
}

export async function dealsAfter(db: Db, instance: CrmInstance, after: string | null, limit: number) {
  let q = db
    .selectFrom("crm_deals")
    .select(["id", "name", "company_id", "amount", "stage", "close_date", "updated_at"])
    .where("instance", "=", instance);
  if (after !== null) q = q.where("id", ">", after);
  return q.orderBy("id").limit(limit).execute();
}

export async function countRows(db: Db, instance: CrmInstance, object: SyncedObject): Promise<number> {
  const row = await db
    .selectFrom(tableOf[object])
    .select((eb) => eb.fn.countAll().as("n"))
    .where("instance", "=", instance)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Contacts per lifecycle stage; contacts without a stage are not counted. */
export async function lifecycleCounts(db: Db, instance: CrmInstance): Promise<{ stage: string; count: number }[]> {
  const rows = await db
    .selectFrom("crm_contacts")
    .select((eb) => ["lifecycle_stage", eb.fn.countAll().as("n")])
    .where("instance", "=", instance)
    .where("lifecycle_stage", "is not", null)
    .groupBy("lifecycle_stage")
    .execute();
  return rows.map((r) => ({ stage: r.lifecycle_stage ?? "", count: Number(r.n) }));
}

/** Deals per stage with their summed amount (a deal without an amount adds 0). */
export async function pipelineByStage(db: Db, instance: CrmInstance): Promise<{ stage: string; count: number; amount: number }[]> {
  const rows = await db
    .selectFrom("crm_deals")
    .select((eb) => ["stage", eb.fn.countAll().as("n"), eb.fn.sum("amount").as("amount")])
    .where("instance", "=", instance)
    .where("stage", "is not", null)
    .groupBy("stage")
    .execute();
  return rows.map((r) => ({ stage: r.stage ?? "", count: Number(r.n), amount: Number(r.amount ?? 0) }));
}
