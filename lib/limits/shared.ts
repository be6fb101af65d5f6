import "server-only";
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { Db } from "@/lib/db";
import { RateLimiter, type Take } from "./buckets";

// Rate limits that hold across instances. Several instances on one PostgreSQL count in one
// table, so N instances allow the limit once, not N times; on the embedded SQLite default there
// is one process and its token buckets (buckets.ts) stay in memory.
//
// PostgreSQL counts in fixed one-minute windows, with one atomic upsert
// (INSERT … ON CONFLICT … DO UPDATE SET n = n + c RETURNING n): no read-modify-write race between
// instances. A client may spend a limit at the end of one window and again at the start of the
// next, so a burst can reach twice the limit for a moment; over any longer stretch it is held.
//
// An instance claims a key's requests in leases and spends them in memory: the first claim of a
// window is one request, each next one twice the last, up to `leaseSize`. A client that asks a
// few times costs a statement each, as before; one that keeps asking costs storage a statement per
// lease, and once storage has said a window is full the instance refuses the rest of it without
// asking again (a window's count only grows). Each claim is granted only what is left under the
// limit, so the instances together never admit more than the limit; what one instance still
// holds when the client's requests go to another is the most it refuses early (under
// `leaseSize` a window per other instance). Limits under 32 a minute lease one at a time.

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
/** The most requests one claim takes: a sixteenth of the limit, so early refusals stay small. */
const LEASE_MAX = 32;
/** Keys whose leases an instance remembers; past it the oldest go (their unspent requests with them). */
const LEASE_KEYS_MAX = 10_000;

/** Requests one claim of a key takes from a limit of `perMinute`. */
export function leaseSize(perMinute: number): number {
  return Math.max(1, Math.min(LEASE_MAX, Math.floor(perMinute / 16)));
}

interface Lease {
  windowStart: number;
  /** The size of the last claim: the next is twice it, up to the lease size. */
  claimed: number;
  /** Requests claimed and not yet spent; 0 with `full` once storage said the window is spent. */
  left: number;
  full: boolean;
}

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
  const most = leaseSize(perMinute);
  const leases = new Map<string, Lease>();
  // One claim of a key at a time: requests arriving together wait for it and spend its lease,
  // rather than each claiming its own.
  const claiming = new Map<string, Promise<unknown>>();
  let lastSweep = Number.NEGATIVE_INFINITY;
  const refuse = (t: number, end: number): Take => ({ ok: false, retryAfterSeconds: Math.max(1, Math.ceil((end - t) / 1000)) });
  const remember = (key: string, lease: Lease) => {
    leases.delete(key);
    if (leases.size >= LEASE_KEYS_MAX) {
      for (const [k, l] of leases) if (l.windowStart < lease.windowStart) leases.delete(k);
      const oldest = leases.keys().next();
      if (leases.size >= LEASE_KEYS_MAX && !oldest.done) leases.delete(oldest.value);
    }
    leases.set(key, lease);
  };
  const claim = async (key: string, t: number, windowStart: number, end: number): Promise<Take | "counted elsewhere"> => {
    const held = leases.get(key);
    const size = held && held.windowStart === windowStart ? Math.min(most, held.claimed * 2) : 1;
    let n: number;
    try {
      const r = await sql<{ n: number }>`
        insert into rate_limit_windows (bucket, key, window_start, n, expires_at)
        values (${bucket}, ${key}, ${windowStart}, ${size}, ${end})
        on conflict (bucket, key, window_start) do update set n = rate_limit_windows.n + ${size}
        returning n`.execute(db);
      n = Number(r.rows[0]?.n ?? size);
    } catch (err) {
      options.log?.(`shared rate limit ${bucket} not counted in storage (${err instanceof Error ? err.message : String(err)}); counting here`);
      return "counted elsewhere";
    }
    if (t - lastSweep >= SWEEP_EVERY_MS) {
      lastSweep = t;
      // Once a minute per limit and instance: one indexed delete, which a request can wait for.
      await sql`delete from rate_limit_windows where expires_at <= ${t}`.execute(db).catch(() => {});
    }
    // What was left under the limit before this claim is all it may have.
    const granted = Math.min(size, perMinute - (n - size));
    remember(key, { windowStart, claimed: size, left: Math.max(0, granted - 1), full: n >= perMinute });
    return granted > 0 ? { ok: true } : refuse(t, end);
  };
  return {
    async take(key) {
      for (;;) {
        const t = now();
        const windowStart = Math.floor(t / WINDOW_MS) * WINDOW_MS;
        const end = windowStart + WINDOW_MS;
        const held = leases.get(key);
        if (held && held.windowStart === windowStart) {
          if (held.left > 0) {
            held.left -= 1;
            return { ok: true };
          }
          if (held.full) return refuse(t, end);
        }
        const inFlight = claiming.get(key);
        if (inFlight) {
          await inFlight;
          continue;
        }
        const claimed = claim(key, t, windowStart, end);
        claiming.set(key, claimed);
        try {
          const taken = await claimed;
          return taken === "counted elsewhere" ? fallback.take(key) : taken;
        } finally {
          claiming.delete(key);
        }
      }
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
  // Every claim of a stream in one statement, so a stream costs storage one write to open and one
  // to close however many caps it counts against.
  const keysOf = (claims: readonly SlotClaim[]) => sql.join(claims.map((c) => sql`(${c.bucket}, ${c.key})`));
  const give = (claims: readonly SlotClaim[]) =>
    claims.length === 0
      ? Promise.resolve()
      : sql`update stream_slots set n = n - 1 where instance = ${instance} and (bucket, key) in (${keysOf(claims)})`.execute(db).then(
          () => undefined,
          () => undefined,
        );

  return {
    async acquire(claims) {
      keepAlive();
      if (claims.length === 0) return () => {};
      let totals: Map<string, number>;
      try {
        const t = now();
        // This instance's count after the claim, plus the other instances' live rows as they stood.
        const r = await sql<{ bucket: string; key: string; total: number }>`
          with mine as (
            insert into stream_slots (bucket, key, instance, n, seen_at)
            select c.bucket, c.key, ${instance}, 1, ${t}::bigint from (values ${keysOf(claims)}) as c(bucket, key)
            on conflict (bucket, key, instance) do update set n = stream_slots.n + 1, seen_at = excluded.seen_at
            returning bucket, key, n
          )
          select m.bucket, m.key, m.n + coalesce((
            select sum(s.n) from stream_slots s
            where s.bucket = m.bucket and s.key = m.key and s.instance <> ${instance} and s.seen_at >= ${t - ttl}
          ), 0) as total from mine m`.execute(db);
        totals = new Map(r.rows.map((row) => [`${row.bucket}\u0000${row.key}`, Number(row.total)]));
      } catch (err) {
        options.log?.(`stream caps not counted in storage (${err instanceof Error ? err.message : String(err)}); this instance's caps apply`);
        return () => {};
      }
      if (claims.some((c) => (totals.get(`${c.bucket}\u0000${c.key}`) ?? 0) > c.cap)) {
        await give(claims);
        return null;
      }
      let given = false;
      return () => {
        if (given) return;
        given = true;
        void give(claims);
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
