import "server-only";
import type { Db } from "@/lib/db";
import type { UpstreamFailure } from "@/lib/connectors/http";
import type { PortalUpstream } from "@/lib/connectors/crmportal";
import { syncInstance, type SyncResult } from "./sync";
import { crmInstances, type CrmInstance } from "@/lib/connectors/crmportal/records";

// Runs the CRM sync in the background: once at start, then every interval. Within a process
// runs never overlap (a request made during a run is served by one follow-up run); between
// processes the per-instance lease does the same. Timers are unref'd so they never keep the
// process alive.

interface CrmSyncOptions {
  db: () => Promise<Db>;
  /** Where each instance's portal is; null when that instance is not configured. */
  upstreamFor: (instance: CrmInstance) => PortalUpstream | null;
  intervalMs: number;
  onStart: boolean;
  log: (line: string) => void;
  /**
   * Waits between start-up attempts while the upstream cannot be reached yet: in the embedded
   * default the portal's stand-in is served by this same app, which may not be listening yet.
   */
  startBackoffMs?: readonly number[];
  pageSize?: number;
  /** How often a run reads archived ids in full (see removeArchived). */
  archivedEveryMs?: number;
  /** Told of every run of an instance, with its result and how long it took (metrics). */
  onRun?: (instance: CrmInstance, result: SyncResult, seconds: number) => void;
  /** Where the waits between runs are kept: the process's timers, or a test's, which it moves on itself. */
  timers?: SchedulerTimers;
}

export interface SchedulerTimers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const processTimers: SchedulerTimers = {
  set(fn, ms) {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return t;
  },
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface CrmSyncScheduler {
  /** Stops scheduling; resolves once a run in progress has finished. */
  stop(): Promise<void>;
  /** Runs every configured instance now, or right after the run in progress; resolves when done. */
  runNow(): Promise<void>;
}

const DEFAULT_START_BACKOFF_MS = [500, 1_000, 2_000, 4_000, 8_000, 15_000] as const;
/** Failures that, at start-up, mean "not there yet" rather than "broken". */
const NOT_YET: ReadonlySet<UpstreamFailure | "other"> = new Set(["network", "timeout", "server"]);

export function startCrmSync(opts: CrmSyncOptions): CrmSyncScheduler {
  let stopped = false;
  const timers = opts.timers ?? processTimers;
  let timer: unknown;
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;

  const schedule = (ms: number, fn: () => void) => {
    if (stopped) return;
    if (timer !== undefined) timers.clear(timer);
    timer = timers.set(fn, ms);
  };

  /** One pass over the instances; answers whether it is worth retrying soon. */
  const pass = async (): Promise<{ retryable: boolean }> => {
    let db: Db;
    try {
      db = await opts.db();
    } catch (err) {
      opts.log(`crm sync: storage not ready: ${err instanceof Error ? err.message : String(err)}`);
      return { retryable: true };
    }
    const results: SyncResult[] = [];
    for (const instance of crmInstances) {
      if (stopped) break;
      const upstream = opts.upstreamFor(instance);
      if (!upstream) continue;
      const t0 = performance.now();
      const result = await syncInstance({ db, upstream, instance, log: opts.log, pageSize: opts.pageSize, archivedEveryMs: opts.archivedEveryMs });
      opts.onRun?.(instance, result, (performance.now() - t0) / 1000);
      results.push(result);
    }
    return { retryable: results.some((r) => r.status === "failed" && r.failure !== undefined && NOT_YET.has(r.failure)) };
  };

  const exclusive = (work: () => Promise<unknown>): Promise<void> => {
    if (!running) {
      running = work()
        .then(
          () => undefined,
          (err: unknown) => opts.log(`crm sync: ${err instanceof Error ? err.message : String(err)}`),
        )
        .finally(() => {
          running = null;
        });
      return running;
    }
    // One follow-up run serves every request made while a run is in progress.
    queued ??= running.then(() => {
      queued = null;
      return exclusive(work);
    });
    return queued;
  };

  const tick = () => {
    void exclusive(pass).then(() => schedule(opts.intervalMs, tick));
  };

  const startUp = (attempt: number) => {
    void exclusive(async () => {
      const { retryable } = await pass();
      const wait = (opts.startBackoffMs ?? DEFAULT_START_BACKOFF_MS)[attempt];
      if (retryable && wait !== undefined) {
        opts.log(`crm sync: upstream not reachable yet, retrying in ${wait} ms`);
        schedule(wait, () => startUp(attempt + 1));
      } else {
        schedule(opts.intervalMs, tick);
      }
    });
  };

  if (opts.onStart) schedule(0, () => startUp(0));
  else schedule(opts.intervalMs, tick);

  const scheduler: CrmSyncScheduler = {
    async stop() {
      stopped = true;
      if (timer !== undefined) timers.clear(timer);
      await (queued ?? running);
    },
    runNow: () => exclusive(pass),
  };
  return scheduler;
}
