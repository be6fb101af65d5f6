import "server-only";
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { Db } from "@/lib/db";
import { RateLimiter, type Take } from "./buckets";

// Rate limits that hold across instances. Several instances on one PostgreSQL count in one
// table, so N instances allow the limit once, not N times; on the embedded SQLite default there
// is one process and its token buckets (buckets.ts) stay in memory.
//
// PostgreSQL counts in fixed one-minute windows: one atomic upsert per request
// (INSERT … ON CONFLICT … DO UPDATE SET n = n + 1 RETURNING n), no read-modify-write race between
// instances. A client may spend a limit at the end of one window and again at the start of the
// next, so a burst can reach twice the limit for a moment; over any longer stretch it is held.

export interface Limiter {
  take(key: string): Promise<Take>;
}

/** A token bucket (buckets.ts) behind the same face as the shared one. */
function localLimiter(perMinute: number, now: () => number = Date.now): Limiter {
  const bucket = new RateLimiter(perMinute, now);
  return { take: async (key) => bucket.take(key) };
}

const WINDOW_MS = 60_000;
/** How often one instance deletes finished windows (every instance does, each at its own pace). */
const SWEEP_EVERY_MS = 60_000;

interface SharedLimiterOptions {
  now?: () => number;
  /** Where a failed count is reported; the request is then counted in memory instead. */
  log?: (line: string) => void;
}

/** Counters of one limit (`bucket`) in PostgreSQL, `perMinute` per key and window. */
export function sharedLimiter(db: Db, bucket: string, perMinute: number, options: SharedLimiterOptions = {}): Limiter {
  const now = options.now ?? Date.now;
  // Storage trouble must not turn every request into a 500, nor lift the limit: each instance
  // then counts on its own until storage answers again.
  const fallback = localLimiter(perMinute, now);
  let lastSweep = Number.NEGATIVE_INFINITY;
  return {
    async take(key) {
      const t = now();
      const windowStart = Math.floor(t / WINDOW_MS) * WINDOW_MS;
      const end = windowStart + WINDOW_MS;
      let n: number;
      try {
        const r = await sql<{ n: number }>`
          insert into rate_limit_windows (bucket, key, window_start, n, expires_at)
          values (${bucket}, ${key}, ${windowStart}, 1, ${end})
          on conflict (bucket, key, window_start) do update set n = rate_limit_windows.n + 1
          returning n`.execute(db);
        n = Number(r.rows[0]?.n ?? 1);
      } catch (err) {
        options.log?.(`shared rate limit ${bucket} not counted in storage (${err instanceof Error ? err.message : String(err)}); counting here`);
        return fallback.take(key);
      }
      if (t - lastSweep >= SWEEP_EVERY_MS) {
        lastSweep = t;
        // Once a minute per limit and instance: one indexed delete, which a request can wait for.
        await sql`delete from rate_limit_windows where expires_at <= ${t}`.execute(db).catch(() => {});
      }
      if (n <= perMinute) return { ok: true };
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((end - t) / 1000)) };
    },
  };
}

/** The limiter for a deployment: shared on PostgreSQL, in memory on SQLite. */
export function limiterFor(open: { db: Db; dialect: "sqlite" | "postgres" }, bucket: string, perMinute: number, options: SharedLimiterOptions = {}): Limiter {
  return open.dialect === "postgres" ? sharedLimiter(open.db, bucket, perMinute, options) : localLimiter(perMinute, options.now);
}

// ---------------------------------------------------------------------------------------------
// Open event streams across instances

/** One cap an open stream counts against: at most `cap` streams under `key` across instances. */
interface SlotClaim {
  bucket: string;
  key: string;
  cap: number;
}

interface StreamSlots {
  /** Counts one open stream under every claim, or none and answers null when any cap is full. */
  acquire(claims: readonly SlotClaim[]): Promise<(() => void) | null>;
  close(): Promise<void>;
}

/** An instance's rows count while it refreshes them at least this often. */
const SLOT_TTL_MS = 45_000;
const SLOT_REFRESH_MS = 15_000;

interface StreamSlotsOptions {
  instance?: string;
  now?: () => number;
  ttlMs?: number;
  log?: (line: string) => void;
}

/**
 * The hub caps open streams in its own process; on PostgreSQL these caps also hold across
 * instances. Each instance keeps, per cap and key, one row with how many streams it has open and
 * when it last said so; a stream is admitted when the live rows together stay within the cap. A
 * killed instance stops refreshing its rows, and after SLOT_TTL_MS they no longer count.
 * Two instances admitting at the same moment may both refuse (each sees the other's claim), never
 * both exceed. When storage cannot count, the hub's own caps are the only ones.
 */
export function streamSlots(open: { db: Db; dialect: "sqlite" | "postgres" }, options: StreamSlotsOptions = {}): StreamSlots {
  if (open.dialect !== "postgres") return { acquire: async () => () => {}, close: async () => {} };
  const db = open.db;
  const now = options.now ?? Date.now;
  const ttl = options.ttlMs ?? SLOT_TTL_MS;
  const instance = options.instance ?? randomUUID();
  let timer: ReturnType<typeof setInterval> | null = null;
  let closed = false;

  const refresh = async () => {
    const t = now();
    await sql`update stream_slots set seen_at = ${t} where instance = ${instance}`.execute(db);
    await sql`delete from stream_slots where seen_at < ${t - ttl} or (n <= 0 and instance = ${instance})`.execute(db);
  };
  const keepAlive = () => {
    if (timer || closed) return;
    timer = setInterval(() => {
      refresh().catch((err: unknown) => options.log?.(`stream slots not refreshed: ${err instanceof Error ? err.message : String(err)}`));
    }, Math.min(SLOT_REFRESH_MS, Math.floor(ttl / 3)));
    timer.unref?.();
  };
  const give = (claim: SlotClaim) =>
    sql`update stream_slots set n = n - 1 where bucket = ${claim.bucket} and key = ${claim.key} and instance = ${instance}`
      .execute(db)
      .then(
        () => undefined,
        () => undefined,
      );

  return {
    async acquire(claims) {
      keepAlive();
      const taken: SlotClaim[] = [];
      try {
        for (const claim of claims) {
          const t = now();
          // The other instances' live rows as they stood, plus this instance's count after it.
          const r = await sql<{ total: number }>`
            with mine as (
              insert into stream_slots (bucket, key, instance, n, seen_at)
              values (${claim.bucket}, ${claim.key}, ${instance}, 1, ${t})
              on conflict (bucket, key, instance) do update set n = stream_slots.n + 1, seen_at = excluded.seen_at
              returning n
            )
            select (select n from mine) + coalesce((
              select sum(n) from stream_slots
              where bucket = ${claim.bucket} and key = ${claim.key} and instance <> ${instance} and seen_at >= ${t - ttl}
            ), 0) as total`.execute(db);
          taken.push(claim);
          if (Number(r.rows[0]?.total ?? 0) > claim.cap) {
            await Promise.all(taken.map(give));
            return null;
          }
        }
      } catch (err) {
        options.log?.(`stream caps not counted in storage (${err instanceof Error ? err.message : String(err)}); this instance's caps apply`);
        await Promise.all(taken.map(give));
        return () => {};
      }
      let given = false;
      return () => {
        if (given) return;
        given = true;
        void Promise.all(taken.map(give));
      };
    },
    async close() {
      closed = true;
      if (timer) clearInterval(timer);
      timer = null;
      await sql`delete from stream_slots where instance = ${instance}`.execute(db).catch(() => {});
    },
  };
}
