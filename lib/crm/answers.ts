import "server-only";
import { ApiError } from "@/lib/contract/errors";
import { LIMIT_DEFAULT, LIMIT_MAX } from "@/lib/contract/query";
import type { CrmCompany, CrmContact, CrmDeal, CrmSource, CrmSummary } from "@/lib/contract/resources";
import type { Sealer } from "@/lib/crypto/secrets";
import type { Db } from "@/lib/db";
import { decodeCursor, encodeCursor } from "@/lib/http/cursor";
import {
  companiesAfter,
  contactsAfter,
  countRows,
  dealsAfter,
  lastSuccessfulSync,
  latestRun,
  lifecycleCounts,
  pipelineByStage,
  watermarks,
  CRM_CONNECTOR,
  SYNC_LEASE_MS,
  objectsFor,
} from "./store";
import { monetary, type CrmInstance } from "@/lib/connectors/crmportal/records";
import { byKnownOrder, LIFECYCLE_ORDER, PIPELINE_ORDER } from "@/lib/crm/stages";

// The /crm/:instance/* endpoints' domain functions. The API wrapper has already checked the
// session, the permission, the instance and the query; these receive parsed values.

export { lastSuccessfulSync } from "./store";

interface PageQuery {
  limit?: number | undefined;
  cursor?: string | undefined;
}

type PagedObject = "companies" | "contacts" | "deals";

interface CursorPayload {
  after: string;
}

function isCursorPayload(v: unknown): v is CursorPayload {
  return typeof v === "object" && v !== null && "after" in v && typeof v.after === "string";
}

const purpose = (instance: CrmInstance, object: PagedObject) => `crm:${instance}:${object}`;

/** The id to continue after; a cursor of another instance or list is not accepted. */
function afterOf(sealer: Sealer, instance: CrmInstance, object: PagedObject, cursor: string | undefined): string | null {
  return cursor === undefined ? null : decodeCursor(sealer, purpose(instance, object), cursor, isCursorPayload).after;
}

function limitOf(q: PageQuery): number {
  return Math.min(Math.max(1, q.limit ?? LIMIT_DEFAULT), LIMIT_MAX);
}

/**
 * Keyset paging by id: one row more than asked says whether another page exists. A record
 * added while a client pages lands either behind the cursor (left for the next pass) or ahead
 * of it (served on this pass), and no record that existed is skipped or repeated.
 */
async function keysetPage<R extends { id: string }, T>(
  sealer: Sealer,
  instance: CrmInstance,
  object: PagedObject,
  q: PageQuery,
  read: (after: string | null, limit: number) => Promise<R[]>,
  shape: (row: R) => T,
): Promise<{ items: T[]; nextCursor: string | null }> {
  const limit = limitOf(q);
  const after = afterOf(sealer, instance, object, q.cursor);
  const rows = await read(after, limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const nextCursor = rows.length > limit && last ? encodeCursor(sealer, purpose(instance, object), { after: last.id } satisfies CursorPayload) : null;
  return { items: page.map(shape), nextCursor };
}

/** The data endpoints answer only once the instance has been synced at least once. */
async function requireSynced(db: Db, instance: CrmInstance): Promise<void> {
  if ((await lastSuccessfulSync(db, instance)) === null) {
    throw new ApiError(
      "crm_not_synced",
      `The first CRM portal sync of "${instance}" has not completed yet; /crm/${instance}/sources shows its progress.`,
    );
  }
}

export async function companiesPage(db: Db, sealer: Sealer, instance: CrmInstance, q: PageQuery = {}): Promise<{ companies: CrmCompany[]; nextCursor: string | null }> {
  await requireSynced(db, instance);
  const withMoney = monetary[instance];
  const { items, nextCursor } = await keysetPage(
    sealer,
    instance,
    "companies",
    q,
    (after, limit) => companiesAfter(db, instance, after, limit),
    (r): CrmCompany => ({
      id: r.id,
      name: r.name,
      ...(r.domain !== null ? { domain: r.domain } : {}),
      ...(r.industry !== null ? { industry: r.industry } : {}),
      ...(r.employees !== null ? { employees: Number(r.employees) } : {}),
      parentCompanyId: r.parent_company_id,
      arr: withMoney && r.arr !== null ? Number(r.arr) : null,
      updatedAt: Number(r.updated_at),
    }),
  );
  return { companies: items, nextCursor };
}

export async function contactsPage(db: Db, sealer: Sealer, instance: CrmInstance, q: PageQuery = {}): Promise<{ contacts: CrmContact[]; nextCursor: string | null }> {
  await requireSynced(db, instance);
  const { items, nextCursor } = await keysetPage(
    sealer,
    instance,
    "contacts",
    q,
    (after, limit) => contactsAfter(db, instance, after, limit),
    (r): CrmContact => ({
      id: r.id,
      ...(r.email !== null ? { email: r.email } : {}),
      ...(r.first_name !== null ? { firstName: r.first_name } : {}),
      ...(r.last_name !== null ? { lastName: r.last_name } : {}),
      companyId: r.company_id,
      ...(r.lifecycle_stage !== null ? { lifecycleStage: r.lifecycle_stage } : {}),
      updatedAt: Number(r.updated_at),
    }),
  );
  return { contacts: items, nextCursor };
}

export async function dealsPage(db: Db, sealer: Sealer, instance: CrmInstance, q: PageQuery = {}): Promise<{ deals: CrmDeal[]; nextCursor: string | null }> {
  await requireSynced(db, instance);
  if (!monetary[instance]) {
    // Still reject a cursor the server did not issue, so clients see the same rules everywhere.
    afterOf(sealer, instance, "deals", q.cursor);
    return { deals: [], nextCursor: null };
  }
  const { items, nextCursor } = await keysetPage(
    sealer,
    instance,
    "deals",
    q,
    (after, limit) => dealsAfter(db, instance, after, limit),
    (r): CrmDeal => ({
      id: r.id,
      name: r.name,
      companyId: r.company_id,
      ...(r.amount !== null ? { amount: Number(r.amount) } : {}),
      ...(r.stage !== null ? { stage: r.stage } : {}),
      ...(r.close_date !== null ? { closeDate: r.close_date } : {}),
      updatedAt: Number(r.updated_at),
    }),
  );
  return { deals: items, nextCursor };
}


export async function summary(db: Db, instance: CrmInstance): Promise<CrmSummary> {
  await requireSynced(db, instance);
  const withMoney = monetary[instance];
  const [contacts, companies, deals, lifecycle, pipeline] = await Promise.all([
    countRows(db, instance, "contacts"),
    countRows(db, instance, "companies"),
    withMoney ? countRows(db, instance, "deals") : Promise.resolve(0),
    lifecycleCounts(db, instance),
    withMoney ? pipelineByStage(db, instance) : Promise.resolve(null),
  ]);
  return {
    totals: { contacts, companies, deals },
    lifecycle: lifecycle.sort(byKnownOrder(LIFECYCLE_ORDER)),
    ...(pipeline ? { pipeline: pipeline.sort(byKnownOrder(PIPELINE_ORDER)) } : {}),
  };
}

/** The sync state of the instance: always answers, also before the first sync. */
export async function sources(db: Db, instance: CrmInstance, now = Date.now()): Promise<{ sources: CrmSource[] }> {
  const objects = objectsFor(instance);
  const [run, lastSuccessAt, marks, counts] = await Promise.all([
    latestRun(db, instance),
    lastSuccessfulSync(db, instance),
    watermarks(db, instance),
    Promise.all(objects.map((o) => countRows(db, instance, o))),
  ]);

  // A run whose process died still says `running`; once its heartbeat is older than the lease
  // it will never finish, and saying so is more useful than a progress bar that never moves.
  const abandoned = run?.status === "running" && run.heartbeatAt < now - SYNC_LEASE_MS;
  const status: CrmSource["status"] = !run ? "never_run" : abandoned ? "failed" : run.status;
  const lastError = !run ? null : abandoned ? "The sync stopped without finishing (no heartbeat within the lease)." : run.status === "failed" ? run.error : null;

  return {
    sources: [
      {
        connector: CRM_CONNECTOR,
        title: "CRM portal",
        status,
        lastRunAt: run?.startedAt ?? null,
        lastSuccessAt,
        progress: status === "running" && run ? { done: run.rowsDone, expected: run.rowsExpected } : null,
        objects: objects.map((object, i) => ({ object, watermark: marks.get(object) ?? null, rows: counts[i] ?? 0 })),
        lastError,
        rateLimits: run ? { ...run.traffic, limitsHit: [...run.traffic.limitsHit] } : null,
      },
    ],
  };
}
