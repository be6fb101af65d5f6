import type { Db } from "@/lib/db";
import { fetchArchivedIds, fetchChanges, fetchOwners, MAX_SEARCH_LIMIT, type PortalUpstream } from "@/lib/connectors/crmportal";
import type { SyncLease } from "./sync-lease";
import {
  deactivateOwners,
  archivedCheckedAt,
  deleteRecords,
  setArchivedCheckedAt,
  ownerIds,
  setWatermark,
  updateRunProgress,
  upsertCompanies,
  upsertContacts,
  upsertDeals,
  upsertEngagements,
  upsertOwners,
  watermarks,
  objectsFor,
  type RunTraffic,
} from "./store";
import { monetary, type ChangesPage, type CrmInstance, type RecordOf, type SyncedObject } from "@/lib/connectors/crmportal/records";

// The phases of one sync run that copy the portal into the store: owners, then the changed
// records of each object type, then the deletion of records archived in the portal. Every write
// renews the lease first and records the run's progress in the same transaction.

type IncrementalObject = Exclude<SyncedObject, "owners">;

/**
 * Records a search asks for unless told otherwise: HubSpot's most. Searches are what the portal
 * limits most tightly (a few a second per token), so each carries as much as it may.
 */
const SYNC_PAGE_SIZE = MAX_SEARCH_LIMIT;

/** One run in progress, as its phases share it. */
export interface Run {
  db: Db;
  upstream: PortalUpstream;
  instance: CrmInstance;
  now: () => number;
  log: (line: string) => void;
  pageSize?: number;
  lease: SyncLease;
  /** The run record's id. */
  id: number;
  started: number;
  /** Records written so far (owners included). */
  rows: number;
  /** How often archived ids are read in full. */
  archivedEveryMs: number;
  /** What the run has met of the portal's rate limits; written with every progress update. */
  traffic: RunTraffic;
}

function incrementalObjectsFor(instance: CrmInstance): IncrementalObject[] {
  return objectsFor(instance).filter((o): o is IncrementalObject => o !== "owners");
}

/** Owners: the whole list every run; one no longer listed has left. Answers how many were listed. */
export async function syncOwners(run: Run): Promise<number> {
  const { db, instance } = run;
  const owners = await fetchOwners(run.upstream);
  const at = run.now();
  await run.lease.keep(at);
  const listed = new Set(owners.map((o) => o.id));
  await db.transaction().execute(async (trx) => {
    await upsertOwners(trx, instance, owners, at);
    const gone = (await ownerIds(trx, instance)).filter((o) => o.active && !listed.has(o.id)).map((o) => o.id);
    await deactivateOwners(trx, instance, gone, at);
    const newest = owners.reduce((m, o) => Math.max(m, o.updatedAt), -Infinity);
    if (Number.isFinite(newest)) await setWatermark(trx, instance, "owners", newest);
    run.rows += owners.length;
    await updateRunProgress(trx, run.id, { now: at, rowsDone: run.rows, traffic: run.traffic });
  });
  return owners.length;
}

/**
 * Every object type's changes since its watermark. The first page of each is read up front, so
 * the run knows how many rows to expect (`owners` of them already written); then each is drained.
 */
export async function syncChanges(run: Run, owners: number): Promise<void> {
  const marks = await watermarks(run.db, run.instance);
  const opened: OpenedChanges[] = [];
  for (const object of incrementalObjectsFor(run.instance)) opened.push(await openChanges(run, object, marks.get(object) ?? null));
  const expected = opened.reduce<number | null>((sum, p) => (sum === null || p.total === null ? null : sum + p.total), owners);
  await updateRunProgress(run.db, run.id, { now: run.now(), rowsExpected: expected, traffic: run.traffic });
  for (const p of opened) await p.drain();
}

/**
 * Deletes the records the portal lists as archived. Listing every archived id costs a request
 * per hundred ids and object type, and the portal has no feed of deletions, so it runs at most
 * once per `archivedEveryMs` (a deleted record lingers that long at most), not on every run.
 */
export async function removeArchived(run: Run): Promise<void> {
  const last = await archivedCheckedAt(run.db, run.instance);
  if (last !== null && run.started - last < run.archivedEveryMs) return;
  for (const object of incrementalObjectsFor(run.instance)) {
    const archived = await fetchArchivedIds(run.upstream, object);
    if (archived.length === 0) continue;
    await run.lease.keep(run.now());
    const removed = await deleteRecords(run.db, run.instance, object, archived);
    if (removed > 0) run.log(`crm sync ${run.instance}: removed ${removed} archived ${object}`);
  }
  await setArchivedCheckedAt(run.db, run.instance, run.started);
}

// ── changes, page by page ─────────────────────────────────────────────────────────────────

const appliers: { [K in IncrementalObject]: (trx: Db, instance: CrmInstance, records: RecordOf[K][], at: number) => Promise<void> } = {
  companies: (trx, instance, records, at) => upsertCompanies(trx, instance, records, at, monetary[instance]),
  contacts: (trx, instance, records, at) => upsertContacts(trx, instance, records, at),
  deals: (trx, instance, records, at) => upsertDeals(trx, instance, records, at),
  engagements: (trx, instance, records, at) => upsertEngagements(trx, instance, records, at),
};

interface OpenedChanges {
  /** Records the whole read will bring, or null when the portal does not say. */
  total: number | null;
  drain: () => Promise<void>;
}

function pageOptions(run: Run): { pageSize: number } {
  return { pageSize: run.pageSize ?? SYNC_PAGE_SIZE };
}

/** Reads the first page of one object's changes since `since`; `drain` writes it and every page after it. */
async function openChanges<K extends IncrementalObject>(run: Run, object: K, since: number | null): Promise<OpenedChanges> {
  const first = await fetchChanges(run.upstream, object, since, null, pageOptions(run));
  return { total: knownTotal(first), drain: () => drainChanges(run, object, since, first) };
}

/** Writes each page with the watermark it makes safe, one transaction a page, reading the next after. */
async function drainChanges<K extends IncrementalObject>(run: Run, object: K, since: number | null, first: ChangesPage<RecordOf[K]>): Promise<void> {
  let page: ChangesPage<RecordOf[K]> | null = first;
  let newestRead = -Infinity;
  while (page) {
    const records: RecordOf[K][] = page.records;
    const last: boolean = page.after === null;
    for (const r of records) newestRead = Math.max(newestRead, r.updatedAt);
    const mark = last ? newestRead : safeWatermark(object, records);
    const at = run.now();
    await run.lease.keep(at);
    await run.db.transaction().execute(async (trx) => {
      await appliers[object](trx, run.instance, records, at);
      if (Number.isFinite(mark)) await setWatermark(trx, run.instance, object, mark);
      await updateRunProgress(trx, run.id, { now: at, rowsDone: run.rows + records.length, traffic: run.traffic });
    });
    run.rows += records.length;
    page = last ? null : await fetchChanges(run.upstream, object, since, page.after, pageOptions(run));
  }
}

/**
 * The watermark a committed page makes safe: every record changed before it has been stored.
 * Most objects come as one stream, oldest change first, so that is the page's newest change.
 * Engagements come as one such stream per kind (calls, then meetings, then emails): until the
 * last kind is reached, later kinds still hold older changes, so the watermark must not move;
 * within the last kind every earlier kind is complete. The stream's last page always sets the
 * newest change read.
 */
const ENGAGEMENT_LAST_KIND = "email";

function safeWatermark(object: IncrementalObject, records: readonly { updatedAt: number; kind?: string }[]): number {
  if (object === "engagements" && !records.every((r) => r.kind === ENGAGEMENT_LAST_KIND)) return -Infinity;
  return records.reduce((m, r) => Math.max(m, r.updatedAt), -Infinity);
}

/** Total records a first page promises for its whole query, or null when the portal does not say. */
function knownTotal(page: ChangesPage<unknown>): number | null {
  if (page.total !== null) return page.total;
  return page.after === null ? page.records.length : null;
}
