import "server-only";
import { randomUUID } from "node:crypto";
import os from "node:os";
import type { Db } from "@/lib/db";
import { UpstreamError, type UpstreamFailure, type UpstreamOptions } from "@/lib/connectors/http";
import { fetchArchivedIds, fetchChanges, fetchOwners } from "@/lib/connectors/crmportal";
import { release, renew, tryAcquire } from "./lock";
import {
  deactivateOwners,
  deleteRecords,
  failStaleRuns,
  finishRun,
  insertRun,
  ownerIds,
  pruneRuns,
  setWatermark,
  updateRunProgress,
  upsertCompanies,
  upsertContacts,
  upsertDeals,
  upsertEngagements,
  upsertOwners,
  watermarks,
  CRM_CONNECTOR,
  SYNC_LEASE_MS,
  objectsFor,
} from "./store";
import { monetary, type ChangesPage, type CrmInstance, type RecordOf, type SyncedObject } from "@/lib/connectors/crmportal/records";

export { CRM_CONNECTOR, SYNC_LEASE_MS, objectsFor };

// One sync of one CRM instance from the CRM portal into the normalised store.
//
// Each page of changes is written in one transaction together with the watermark it reaches,
// so a run that dies part-way keeps every page it committed and the next run resumes from the
// watermark. Changes are read with "modified at or after the watermark": the boundary records
// come back once more and are upserted again, which changes nothing.

export type IncrementalObject = Exclude<SyncedObject, "owners">;

/** Finished runs are kept this long (the last successful one always). */
export const RUN_RETENTION_MS = 30 * 86_400_000;

function incrementalObjectsFor(instance: CrmInstance): IncrementalObject[] {
  return objectsFor(instance).filter((o): o is IncrementalObject => o !== "owners");
}

export interface SyncDeps {
  db: Db;
  upstream: UpstreamOptions;
  instance: CrmInstance;
  /** Names this run in the lease; unique per call unless given. */
  holder?: string;
  now?: () => number;
  pageSize?: number;
  log?: (line: string) => void;
  leaseMs?: number;
}

export interface SyncResult {
  status: "ok" | "skipped" | "failed";
  /** Records written (owners included). */
  rows: number;
  error?: string;
  /** On failure: what kind of failure, so a caller can tell "not reachable yet" from the rest. */
  failure?: UpstreamFailure | "other";
}

class LeaseLost extends Error {
  constructor() {
    super("the sync lease expired and was taken by another run");
    this.name = "LeaseLost";
  }
}

function defaultHolder(): string {
  return `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/** A failure as one line for the run record and logs, with credentials taken out. */
export function describeFailure(err: unknown, upstream: UpstreamOptions): string {
  let text = err instanceof UpstreamError ? `CRM portal ${err.kind}: ${err.message}` : err instanceof Error ? err.message : String(err);
  const token = upstream.authorization?.replace(/^\S+\s+/, "");
  if (token && token.length >= 4) text = text.split(token).join("[redacted]");
  text = text
    .replace(/\b(bearer|basic|token)\s+[A-Za-z0-9._~+/=-]+/gi, "$1 [redacted]")
    .replace(/\bpat-[A-Za-z0-9-]+/g, "[redacted]")
    .replace(/([?&](?:access_token|token|hapikey|key)=)[^&\s]+/gi, "$1[redacted]");
  return text.length > 500 ? `${text.slice(0, 497)}...` : text;
}

function failureKind(err: unknown): UpstreamFailure | "other" {
  return err instanceof UpstreamError ? err.kind : "other";
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

export async function syncInstance(deps: SyncDeps): Promise<SyncResult> {
  const { db, upstream, instance } = deps;
  const now = deps.now ?? Date.now;
  const log = deps.log ?? (() => {});
  const leaseMs = deps.leaseMs ?? SYNC_LEASE_MS;
  const holder = deps.holder ?? defaultHolder();
  const withMoney = monetary[instance];
  const pageOpts = deps.pageSize === undefined ? undefined : { pageSize: deps.pageSize };

  if (!(await tryAcquire(db, instance, holder, leaseMs, now()))) {
    log(`crm sync ${instance}: skipped, another run holds the lease`);
    return { status: "skipped", rows: 0 };
  }

  const started = now();
  let runId: number | null = null;
  let rows = 0;
  let leaseLost = false;
  let beating: Promise<void> | null = null;
  let timer: ReturnType<typeof setInterval> | undefined;

  const keepLease = async (at: number) => {
    if (!(await renew(db, instance, holder, leaseMs, at))) leaseLost = true;
    if (leaseLost) throw new LeaseLost();
  };

  try {
    const stale = await failStaleRuns(db, instance, started - leaseMs, started, "The sync stopped without finishing (no heartbeat within the lease).");
    if (stale > 0) log(`crm sync ${instance}: marked ${stale} abandoned run(s) failed`);
    const id = await insertRun(db, instance, CRM_CONNECTOR, started);
    runId = id;

    // A slow upstream answer can outlast the lease; the heartbeat keeps it while we wait.
    timer = setInterval(() => {
      if (beating) return;
      const at = now();
      beating = renew(db, instance, holder, leaseMs, at)
        .then(async (held) => {
          if (!held) leaseLost = true;
          else await updateRunProgress(db, id, { now: at });
        })
        .catch(() => {})
        .finally(() => {
          beating = null;
        });
    }, Math.max(250, Math.floor(leaseMs / 3)));
    timer.unref?.();

    // Owners: the whole list every run; one no longer listed has left.
    const owners = await fetchOwners(upstream);
    {
      const at = now();
      await keepLease(at);
      const listed = new Set(owners.map((o) => o.id));
      await db.transaction().execute(async (trx) => {
        await upsertOwners(trx, instance, owners, at);
        const gone = (await ownerIds(trx, instance)).filter((o) => o.active && !listed.has(o.id)).map((o) => o.id);
        await deactivateOwners(trx, instance, gone, at);
        const newest = owners.reduce((m, o) => Math.max(m, o.updatedAt), -Infinity);
        if (Number.isFinite(newest)) await setWatermark(trx, instance, "owners", newest);
        rows += owners.length;
        await updateRunProgress(trx, id, { now: at, rowsDone: rows });
      });
    }

    // The first page of each object type up front, so the run knows how many rows to expect.
    const marks = await watermarks(db, instance);
    const objects = incrementalObjectsFor(instance);
    const appliers: { [K in IncrementalObject]: (trx: Db, records: RecordOf[K][], at: number) => Promise<void> } = {
      companies: (trx, records, at) => upsertCompanies(trx, instance, records, at, withMoney),
      contacts: (trx, records, at) => upsertContacts(trx, instance, records, at),
      deals: (trx, records, at) => upsertDeals(trx, instance, records, at),
      engagements: (trx, records, at) => upsertEngagements(trx, instance, records, at),
    };

    const prepare = async <K extends IncrementalObject>(object: K) => {
      const since = marks.get(object) ?? null;
      const first = await fetchChanges(upstream, object, since, null, pageOpts);
      const drain = async () => {
        let page: ChangesPage<RecordOf[K]> | null = first;
        let newestRead = -Infinity;
        while (page) {
          const records: RecordOf[K][] = page.records;
          const last: boolean = page.after === null;
          for (const r of records) newestRead = Math.max(newestRead, r.updatedAt);
          const mark = last ? newestRead : safeWatermark(object, records);
          const at = now();
          await keepLease(at);
          await db.transaction().execute(async (trx) => {
            await appliers[object](trx, records, at);
            if (Number.isFinite(mark)) await setWatermark(trx, instance, object, mark);
            await updateRunProgress(trx, id, { now: at, rowsDone: rows + records.length });
          });
          rows += records.length;
          page = last ? null : await fetchChanges(upstream, object, since, page.after, pageOpts);
        }
      };
      return { total: knownTotal(first), drain };
    };

    const prepared: { total: number | null; drain: () => Promise<void> }[] = [];
    for (const object of objects) prepared.push(await prepare(object));
    const expected = prepared.reduce<number | null>((sum, p) => (sum === null || p.total === null ? null : sum + p.total), owners.length);
    await updateRunProgress(db, id, { now: now(), rowsExpected: expected });
    for (const p of prepared) await p.drain();

    for (const object of objects) {
      const archived = await fetchArchivedIds(upstream, object);
      if (archived.length === 0) continue;
      await keepLease(now());
      const removed = await deleteRecords(db, instance, object, archived);
      if (removed > 0) log(`crm sync ${instance}: removed ${removed} archived ${object}`);
    }

    await finishRun(db, id, { now: now(), status: "ok", rowsDone: rows, error: null });
    try {
      await pruneRuns(db, instance, started - RUN_RETENTION_MS);
    } catch (err) {
      log(`crm sync ${instance}: could not prune old runs: ${describeFailure(err, upstream)}`);
    }
    log(`crm sync ${instance}: ok, ${rows} rows in ${now() - started} ms`);
    return { status: "ok", rows };
  } catch (err) {
    const error = describeFailure(err, upstream);
    if (runId !== null) {
      try {
        await finishRun(db, runId, { now: now(), status: "failed", rowsDone: rows, error });
      } catch {
        // The run record stays `running`; the next run marks it failed once its heartbeat is stale.
      }
    }
    log(`crm sync ${instance}: failed after ${rows} rows: ${error}`);
    return { status: "failed", rows, error, failure: failureKind(err) };
  } finally {
    if (timer) clearInterval(timer);
    if (beating) await beating;
    if (!leaseLost) {
      try {
        await release(db, instance, holder);
      } catch {
        // An unreleased lease simply expires.
      }
    }
  }
}
