import "server-only";
import { BURST_WINDOW_MS, HUBSPOT_LIMITS, SEARCH_WINDOW_MS, type PortalLimits } from "./client";

// HubSpot's rate limits as the CRM portal's stand-in enforces them, per token: searches within
// a rolling second, every other request within a rolling ten seconds (searches do not count
// there: HubSpot's description exempts them), and every request within the portal's day. Only
// answered requests count. Each answer carries HubSpot's X-HubSpot-RateLimit-* headers for the
// window it was counted in, so a client can see how much of it is left.

export type EnforcedLimit = "search" | "burst" | "daily";

/** The portal's day turns at midnight in its time zone (the stand-in's portals are on UTC−05:00). */
const PORTAL_UTC_OFFSET_MS = -5 * 3_600_000;
const DAY_MS = 86_400_000;

/** Times of the requests answered within one rolling window, oldest first; at most `max` of them. */
class RollingWindow {
  private readonly times: number[] = [];

  constructor(
    readonly lengthMs: number,
    readonly max: number,
  ) {}

  private prune(now: number): void {
    while (this.times.length > 0 && (this.times[0] ?? now) <= now - this.lengthMs) this.times.shift();
  }

  /** Counts a request when the window has room; answers whether it had. */
  take(now: number): boolean {
    this.prune(now);
    if (this.times.length >= this.max) return false;
    this.times.push(now);
    return true;
  }

  remaining(now: number): number {
    this.prune(now);
    return Math.max(0, this.max - this.times.length);
  }

  /** Requests counted within the last `ms` (no more than the window). */
  countWithin(now: number, ms: number): number {
    this.prune(now);
    return this.times.filter((t) => t > now - ms).length;
  }
}

interface TokenState {
  search: RollingWindow;
  burst: RollingWindow;
  day: number;
  usedToday: number;
}

interface LimitVerdict {
  /** Null when the request may be answered; else the limit it would pass. */
  refused: EnforcedLimit | null;
  /** HubSpot's rate-limit headers for the window the request is counted in. */
  headers: Record<string, string>;
}

/** What the stand-in has answered and refused, for tests and the benchmark. */
export interface PortalUsage {
  searches: number;
  otherRequests: number;
  refused: Record<EnforcedLimit, number>;
}

function positiveInteger(name: string, v: number): number {
  if (!Number.isInteger(v) || v < 1) throw new RangeError(`${name} must be a positive integer, got ${v}`);
  return v;
}

export class PortalRateLimits {
  private readonly limits: PortalLimits;
  private readonly tokens = new Map<string, TokenState>();
  private readonly counts: PortalUsage = { searches: 0, otherRequests: 0, refused: { search: 0, burst: 0, daily: 0 } };

  constructor(limits: Partial<PortalLimits> = {}) {
    const l = { ...HUBSPOT_LIMITS, ...limits };
    this.limits = {
      searchesPerSecond: positiveInteger("searchesPerSecond", l.searchesPerSecond),
      requestsPerTenSeconds: positiveInteger("requestsPerTenSeconds", l.requestsPerTenSeconds),
      requestsPerDay: positiveInteger("requestsPerDay", l.requestsPerDay),
    };
  }

  get configured(): Readonly<PortalLimits> {
    return this.limits;
  }

  usage(): PortalUsage {
    return { ...this.counts, refused: { ...this.counts.refused } };
  }

  private stateOf(token: string, now: number): TokenState {
    let s = this.tokens.get(token);
    if (!s) {
      s = {
        search: new RollingWindow(SEARCH_WINDOW_MS, this.limits.searchesPerSecond),
        burst: new RollingWindow(BURST_WINDOW_MS, this.limits.requestsPerTenSeconds),
        day: 0,
        usedToday: 0,
      };
      this.tokens.set(token, s);
    }
    const day = Math.floor((now + PORTAL_UTC_OFFSET_MS) / DAY_MS);
    if (s.day !== day) {
      s.day = day;
      s.usedToday = 0;
    }
    return s;
  }

  /** Counts one request of `token` when its limits allow it; either way answers the headers to send. */
  admit(token: string, search: boolean, now: number): LimitVerdict {
    const s = this.stateOf(token, now);
    let refused: EnforcedLimit | null = null;
    if (s.usedToday >= this.limits.requestsPerDay) refused = "daily";
    else if (!(search ? s.search : s.burst).take(now)) refused = search ? "search" : "burst";
    if (refused) this.counts.refused[refused]++;
    else {
      s.usedToday++;
      if (search) this.counts.searches++;
      else this.counts.otherRequests++;
    }
    return { refused, headers: this.headersOf(s, search, now) };
  }

  /** The headers of an answer that counted nothing (a fault the stand-in was told to answer). */
  headersFor(token: string, search: boolean, now: number, exhausted: boolean): Record<string, string> {
    const headers = this.headersOf(this.stateOf(token, now), search, now);
    if (exhausted) {
      headers["x-hubspot-ratelimit-remaining"] = "0";
      headers["x-hubspot-ratelimit-secondly-remaining"] = "0";
    }
    return headers;
  }

  private headersOf(s: TokenState, search: boolean, now: number): Record<string, string> {
    const window = search ? s.search : s.burst;
    const remaining = window.remaining(now);
    // The per-second pair predates the ten-second window; for other requests it is a tenth of it.
    const secondly = search ? this.limits.searchesPerSecond : Math.ceil(this.limits.requestsPerTenSeconds / 10);
    const secondlyRemaining = search ? remaining : Math.max(0, secondly - s.burst.countWithin(now, 1_000));
    return {
      "x-hubspot-ratelimit-daily": String(this.limits.requestsPerDay),
      "x-hubspot-ratelimit-daily-remaining": String(Math.max(0, this.limits.requestsPerDay - s.usedToday)),
      "x-hubspot-ratelimit-interval-milliseconds": String(window.lengthMs),
      "x-hubspot-ratelimit-max": String(window.max),
      "x-hubspot-ratelimit-remaining": String(remaining),
      "x-hubspot-ratelimit-secondly": String(secondly),
      "x-hubspot-ratelimit-secondly-remaining": String(secondlyRemaining),
    };
  }
}
