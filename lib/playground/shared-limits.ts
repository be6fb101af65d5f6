import "server-only";
import { sql } from "kysely";
import type { Db } from "@/lib/db";
import { RateLimiter, type Take } from "./limits";

// Rate limits that hold across instances. Several instances on one PostgreSQL count in one
// table, so N instances allow the limit once, not N times; on the embedded SQLite default there
// is one process and its token buckets (limits.ts) stay in memory.
//
// PostgreSQL counts in fixed one-minute windows: one atomic upsert per request
// (INSERT … ON CONFLICT … DO UPDATE SET n = n + 1 RETURNING n), no read-modify-write race between
// instances. A client may spend a limit at the end of one window and again at the start of the
// next, so a burst can reach twice the limit for a moment; over any longer stretch it is held.

export interface Limiter {
  take(key: string): Promise<Take>;
}

/** A token bucket (limits.ts) behind the same face as the shared one. */
export function localLimiter(perMinute: number, now: () => number = Date.now): Limiter {
  const bucket = new RateLimiter(perMinute, now);
  return { take: async (key) => bucket.take(key) };
}

const WINDOW_MS = 60_000;
/** How often one instance deletes finished windows (every instance does, each at its own pace). */
const SWEEP_EVERY_MS = 60_000;

export interface SharedLimiterOptions {
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
