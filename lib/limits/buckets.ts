import "server-only";

// Bounds on what one client, or everyone together, may ask of an instance: token buckets by
// key, and the large answers being written at once.

/**
 * Bytes of large anonymous answers per second, across the instance, and the burst allowed above
 * that rate. Slots bound how many answers are written at once, not how fast they follow each
 * other: fifty readers of a 2 MiB draft were served 80 times a second, 160 MiB/s of copying that
 * kept signed-in people's `/api` waiting. Most drafts are a few KB and never notice.
 */
export const READ_BYTES_PER_SECOND = 16 * 1024 * 1024;
export const READ_BYTES_BURST = 3 * READ_BYTES_PER_SECOND;

export type Take = { ok: true } | { ok: false; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Buckets kept per limiter. A key is a client address (at most 45 characters, IPv6 counted per
 * /64) or a SHA-256 hex digest, and a bucket two numbers, so a limiter holds at most about
 * 10,000 × 150 bytes ≈ 1.5 MB however many addresses ask.
 */
const RATE_LIMIT_MAX_KEYS = 10_000;

/**
 * Token buckets by key: `perMinute` requests, refilled evenly over the minute, with bursts up
 * to `perMinute`. Memory is bounded: at `maxKeys`, full buckets (which carry no information)
 * go first, then the least recently used.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly ratePerMs: number;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
    private readonly maxKeys = RATE_LIMIT_MAX_KEYS,
  ) {
    this.ratePerMs = perMinute / 60_000;
  }

  take(key: string): Take {
    const now = this.now();
    let b = this.buckets.get(key);
    if (b) {
      this.buckets.delete(key);
      b.tokens = Math.min(this.perMinute, b.tokens + (now - b.at) * this.ratePerMs);
      b.at = now;
    } else {
      this.makeRoom(now);
      b = { tokens: this.perMinute, at: now };
    }
    this.buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return { ok: true };
    }
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - b.tokens) / this.ratePerMs / 1000)) };
  }

  size(): number {
    return this.buckets.size;
  }

  private makeRoom(now: number): void {
    if (this.buckets.size < this.maxKeys) return;
    let checked = 0;
    for (const [key, b] of this.buckets) {
      if (b.tokens + (now - b.at) * this.ratePerMs >= this.perMinute) this.buckets.delete(key);
      if (++checked >= 64) break;
    }
    while (this.buckets.size >= this.maxKeys) {
      const oldest = this.buckets.keys().next();
      if (oldest.done) break;
      this.buckets.delete(oldest.value);
    }
  }
}

/**
 * Large anonymous answers (a draft, a page of revisions: up to a few MiB each) being written at
 * once. The rate limit counts requests, not bytes; without this bound, fifty readers each
 * holding a 2 MiB answer keep the event loop busy copying 100 MiB and every other request, signed-in
 * people's API included, waits behind them. A watch page or an agent needs one at a time.
 */
export const READS_IN_FLIGHT_PER_ADDRESS = 4;
/** The same across every address, so many addresses together cannot do what one may not. */
const READS_IN_FLIGHT_TOTAL = 32;


/** A token bucket of bytes: `take(n)` answers 0 when the bytes may go now, else the seconds to wait. */
export class ByteBudget {
  private tokens: number;
  private at: number;

  constructor(
    private readonly perSecond = READ_BYTES_PER_SECOND,
    private readonly burst = READ_BYTES_BURST,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = burst;
    this.at = now();
  }

  take(bytes: number): number {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.at) / 1000) * this.perSecond);
    this.at = t;
    // An answer larger than the burst could never go: it goes once the bucket is full.
    const need = Math.min(bytes, this.burst);
    if (this.tokens >= need) {
      this.tokens -= need;
      return 0;
    }
    return Math.max(1, Math.ceil((need - this.tokens) / this.perSecond));
  }
}

/** Counts answers being written, per key and in all; a key that holds none is forgotten. */
export class InFlight {
  private readonly byKey = new Map<string, number>();
  private total = 0;

  constructor(
    private readonly perKey = READS_IN_FLIGHT_PER_ADDRESS,
    private readonly overall = READS_IN_FLIGHT_TOTAL,
  ) {}

  /** A release function, or null when the key or the instance is at its bound. */
  enter(key: string): (() => void) | null {
    const held = this.byKey.get(key) ?? 0;
    if (held >= this.perKey || this.total >= this.overall) return null;
    this.byKey.set(key, held + 1);
    this.total++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      const left = (this.byKey.get(key) ?? 1) - 1;
      if (left <= 0) this.byKey.delete(key);
      else this.byKey.set(key, left);
    };
  }

  /** Keys holding answers now: at most `overall`, whatever the traffic. */
  keys(): number {
    return this.byKey.size;
  }
}

/**
 * The answer's body as a stream that calls `release` once it is fully written or the reader
 * goes away, so the slot is held exactly as long as the bytes are in flight.
 */
export function releasingBody(bytes: Uint8Array, release: () => void, chunk = 64 * 1024): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.byteLength) {
        controller.close();
        release();
        return;
      }
      controller.enqueue(bytes.subarray(at, at + chunk));
      at += chunk;
    },
    cancel() {
      release();
    },
  });
}
