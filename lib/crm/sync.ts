import "server-only";
import { randomUUID } from "node:crypto";
import os from "node:os";
import type { Db } from "@/lib/db";
import { UpstreamError, type UpstreamFailure, type UpstreamOptions } from "@/lib/connectors/http";
import type { PortalUpstream } from "@/lib/connectors/crmportal";
import { acquireLease } from "./sync-lease";
import { removeArchived, syncChanges, syncOwners, type Run } from "./sync-phases";
import { failStaleRuns, finishRun, insertRun, noTraffic, pruneRuns, updateRunProgress, CRM_CONNECTOR, SYNC_LEASE_MS, type RunTraffic } from "./store";
import type { CrmInstance } from "@/lib/connectors/crmportal/records";

// One sync of one CRM instance from the CRM portal into the normalised store.
//
// Each page of changes is written in one transaction together with the watermark it reaches,
// so a run that dies part-way keeps every page it committed and the next run resumes from the
// watermark. Changes are read with "modified at or after the watermark": the boundary records
// come back once more and are upserted again, which changes nothing.
//
// The portal limits searches per token to a few a second: the client paces them, and a run
// waits out a "slow down" answer for longer than a viewer's read would (nobody is waiting on a
// background run), so a rate limit slows a run rather than fails it. What the run met of the
// limits (searches, time held back, waits, the limits named) is kept with it, and a run that
// fails on a limit all the same says so in its error.

/** Finished runs are kept this long (the last successful one always). */
const RUN_RETENTION_MS = 30 * 86_400_000;

/**
 * How often a run asks again for one request the portal told to slow down, and the longest wait
 * it sleeps for that (a whole ten-second window, HubSpot's longest short one), unless the
 * upstream options set their own.
 */
const SYNC_RATE_LIMIT_RETRIES = 5;
const SYNC_RATE_LIMIT_MAX_WAIT_MS = 15_000;

interface SyncDeps {
  db: Db;
  upstream: PortalUpstream;
  instance: CrmInstance;
  /** Names this run in the lease; unique per call unless given. */
  holder?: string;
  now?: () => number;
  pageSize?: number;
  log?: (line: string) => void;
  leaseMs?: number;
  /** How often archived ids are read in full (CRM_ARCHIVED_EVERY_MS); default an hour. */
  archivedEveryMs?: number;
}

/** Archived ids are read in full at most this often unless told otherwise. */
const ARCHIVED_EVERY_MS_DEFAULT = 3_600_000;

export interface SyncResult {
  status: "ok" | "skipped" | "failed";
  /** Records written (owners included). */
  rows: number;
  error?: string;
  /** On failure: what kind of failure, so a caller can tell "not reachable yet" from the rest. */
  failure?: UpstreamFailure | "other";
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

/** One sync's settings, with the defaults filled in. */
interface SyncSettings extends Pick<Run, "db" | "upstream" | "instance" | "now" | "log" | "pageSize" | "archivedEveryMs"> {
  leaseMs: number;
  holder: string;
}

function settingsOf(deps: SyncDeps): SyncSettings {
  return {
    db: deps.db,
    upstream: {
      ...deps.upstream,
      maxRetries: deps.upstream.maxRetries ?? SYNC_RATE_LIMIT_RETRIES,
      maxRetryWaitMs: deps.upstream.maxRetryWaitMs ?? SYNC_RATE_LIMIT_MAX_WAIT_MS,
    },
    instance: deps.instance,
    now: deps.now ?? Date.now,
    log: deps.log ?? (() => {}),
    pageSize: deps.pageSize,
    archivedEveryMs: deps.archivedEveryMs ?? ARCHIVED_EVERY_MS_DEFAULT,
    leaseMs: deps.leaseMs ?? SYNC_LEASE_MS,
    holder: deps.holder ?? defaultHolder(),
  };
}

export async function syncInstance(deps: SyncDeps): Promise<SyncResult> {
  const sync = settingsOf(deps);
  const { db, instance, now, log } = sync;

  const lease = await acquireLease(sync, now());
  if (!lease) {
    log(`crm sync ${instance}: skipped, another run holds the lease`);
    return { status: "skipped", rows: 0 };
  }

  const started = now();
  const traffic = noTraffic();
  let run: Run | null = null;
  try {
    const id = await openRun(sync, started);
    run = { ...sync, upstream: observed(sync.upstream, traffic), lease, id, started, rows: 0, traffic };
    // While the run waits on the portal (paced, or told to slow down), the heartbeat says so.
    lease.startHeartbeat(now, (at) => updateRunProgress(db, id, { now: at, traffic }));
    const owners = await syncOwners(run);
    await syncChanges(run, owners);
    await removeArchived(run);
    return await finishOk(run);
  } catch (err) {
    return await finishFailed(sync, run, err, traffic);
  } finally {
    await lease.end();
  }
}

/** The upstream options of one run: each search, limit met and wait is counted in `t`. */
function observed(up: PortalUpstream, t: RunTraffic): PortalUpstream {
  return {
    ...up,
    traffic: {
      search(heldMs) {
        t.searches++;
        t.pacedMs += heldMs;
        up.traffic?.search?.(heldMs);
      },
      limited(limit, status) {
        if (!t.limitsHit.includes(limit)) t.limitsHit.push(limit);
        up.traffic?.limited?.(limit, status);
      },
    },
    onWait(ms, status) {
      t.waits++;
      t.waitedMs += ms;
      up.onWait?.(ms, status);
    },
  };
}

/** The run's traffic in a few words, for the log. */
function trafficLine(t: RunTraffic): string {
  const waits = t.waits ? `, waited ${t.waits} time(s) ${Math.round(t.waitedMs)} ms on ${t.limitsHit.join(", ")}` : "";
  return `${t.searches} searches (held ${Math.round(t.pacedMs)} ms)${waits}`;
}

// ── the run record ────────────────────────────────────────────────────────────────────────

/** Marks runs whose heartbeat stopped as failed, then records this one as running. */
async function openRun({ db, instance, leaseMs, log }: SyncSettings, started: number): Promise<number> {
  const stale = await failStaleRuns(db, instance, started - leaseMs, started, "The sync stopped without finishing (no heartbeat within the lease).");
  if (stale > 0) log(`crm sync ${instance}: marked ${stale} abandoned run(s) failed`);
  return insertRun(db, instance, CRM_CONNECTOR, started);
}

/** Records the run as done, then forgets finished runs past their retention. */
async function finishOk(run: Run): Promise<SyncResult> {
  const { db, instance, now, log, rows } = run;
  await finishRun(db, run.id, { now: now(), status: "ok", rowsDone: rows, error: null, traffic: run.traffic });
  try {
    await pruneRuns(db, instance, run.started - RUN_RETENTION_MS);
  } catch (err) {
    log(`crm sync ${instance}: could not prune old runs: ${describeFailure(err, run.upstream)}`);
  }
  log(`crm sync ${instance}: ok, ${rows} rows in ${now() - run.started} ms; ${trafficLine(run.traffic)}`);
  return { status: "ok", rows };
}

/** Records the run (when it got as far as having a record) as failed, with the failure in one line. */
async function finishFailed(sync: SyncSettings, run: Run | null, err: unknown, traffic: RunTraffic): Promise<SyncResult> {
  const error = describeFailure(err, sync.upstream);
  const rows = run?.rows ?? 0;
  if (run) {
    try {
      await finishRun(sync.db, run.id, { now: sync.now(), status: "failed", rowsDone: rows, error, traffic });
    } catch {
      // The run record stays `running`; the next run marks it failed once its heartbeat is stale.
    }
  }
  sync.log(`crm sync ${sync.instance}: failed after ${rows} rows: ${error}; ${trafficLine(traffic)}`);
  return { status: "failed", rows, error, failure: failureKind(err) };
}
