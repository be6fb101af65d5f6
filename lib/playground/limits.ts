import "server-only";
import net from "node:net";
import { z } from "zod";
import type { Config } from "@/lib/config";
import { REVISIONS_PAGE_BYTES } from "@/lib/contract/playground";

// Limits against abuse of the public playground, and who a request comes from.

export interface PlaygroundSettings {
  /** Addresses or CIDR ranges of reverse proxies whose X-Forwarded-For is believed (TRUSTED_PROXY). */
  trustedProxy: string[];
  /** A draft not updated for this many days is deleted (DRAFT_IDLE_DAYS). */
  draftIdleDays: number;
  /** Revisions kept per draft, the current one included (DRAFT_HISTORY_KEEP). */
  historyKeep: number;
  /** Draft creations per client address per minute (PLAYGROUND_CREATES_PER_MIN). */
  createsPerMinute: number;
  /** Updates per draft per minute (PLAYGROUND_UPDATES_PER_MIN). */
  updatesPerMinute: number;
  /**
   * Open event streams to one draft from one client address, per instance
   * (PLAYGROUND_STREAMS_PER_DRAFT). Counted per address, so one client cannot lock out others.
   */
  streamsPerDraft: number;
  /** Open event streams per client address, per instance (PLAYGROUND_STREAMS_PER_ADDRESS). */
  streamsPerAddress: number;
  /** Open event streams per instance, a safety cap above what one address may hold (PLAYGROUND_STREAMS_TOTAL). */
  streamsTotal: number;
  /** Anonymous draft reads (GET draft, revisions, events) per client address per minute (PLAYGROUND_READS_PER_MIN). */
  readsPerMinute: number;
  /** Demo API reads per client address per minute (PLAYGROUND_DEMO_READS_PER_MIN). */
  demoReadsPerMinute: number;
  /** Bytes of large anonymous answers per second, per instance (PLAYGROUND_READ_MIB_PER_SEC); bursts to 3×. */
  readBytesPerSecond: number;
  /** Bytes of JSON after which a page of revisions stops (it always holds at least one). */
  revisionsPageBytes: number;
  /** Render reports per client address per minute (PLAYGROUND_REPORTS_PER_MIN). */
  reportsPerMinute: number;
  /** Server-side renders per client address per minute (PLAYGROUND_RENDERS_PER_MIN); answers already made are free. */
  rendersPerMinute: number;
  /** Server-side renders of one draft per minute, everyone together (PLAYGROUND_RENDERS_PER_DRAFT_PER_MIN). */
  rendersPerDraftPerMinute: number;
}

/**
 * Bytes of large anonymous answers per second, across the instance, and the burst allowed above
 * that rate. Slots bound how many answers are written at once, not how fast they follow each
 * other: fifty readers of a 2 MiB draft were served 80 times a second, 160 MiB/s of copying that
 * kept signed-in people's `/api` waiting. Most drafts are a few KB and never notice.
 */
const READ_BYTES_PER_SECOND = 16 * 1024 * 1024;
export const READ_BYTES_BURST = 3 * READ_BYTES_PER_SECOND;

export const defaultPlaygroundSettings: PlaygroundSettings = {
  trustedProxy: [],
  draftIdleDays: 30,
  historyKeep: 50,
  createsPerMinute: 30,
  updatesPerMinute: 120,
  streamsPerDraft: 10,
  streamsPerAddress: 50,
  streamsTotal: 10_000,
  // A watch page or an editor reads the draft once per update it sees (at most 120 a minute per
  // draft), plus reconnects: 300 leaves room for a few tabs behind one address.
  readsPerMinute: 300,
  // The editor's state matrix renders one dashboard six times, each fetching its endpoints again
  // after every pause in typing.
  demoReadsPerMinute: 1200,
  readBytesPerSecond: READ_BYTES_PER_SECOND,
  revisionsPageBytes: REVISIONS_PAGE_BYTES,
  // One report per revision per page load: a watcher following an agent that pushes a revision
  // a second is the most one viewer sends.
  reportsPerMinute: 60,
  // A render costs a browser page for a second or more: an agent checking each revision at two
  // sizes and a few states is well inside these; a loop asking again and again is not.
  rendersPerMinute: 20,
  rendersPerDraftPerMinute: 30,
};

const count = z.number().int().min(1);
const settingsShape = z
  .object({
    trustedProxy: z.array(z.string()),
    draftIdleDays: count,
    historyKeep: count,
    createsPerMinute: count,
    updatesPerMinute: count,
    streamsPerDraft: count,
    streamsPerAddress: count,
    streamsTotal: count,
    readsPerMinute: count,
    demoReadsPerMinute: count,
    readBytesPerSecond: count,
    revisionsPageBytes: count,
    reportsPerMinute: count,
    rendersPerMinute: count,
    rendersPerDraftPerMinute: count,
  })
  .partial();

/**
 * The playground's settings: `config.playground` where the configuration carries them, the
 * defaults above otherwise.
 */
export function playgroundSettingsOf(config: Config): PlaygroundSettings {
  const fromConfig = settingsShape.safeParse(Reflect.get(config, "playground") ?? {});
  return { ...defaultPlaygroundSettings, ...(fromConfig.success ? fromConfig.data : {}) };
}

/** Refuses settings under which one client address alone could fill the instance's stream cap. */
export function checkStreamCaps(s: PlaygroundSettings): void {
  if (s.streamsTotal <= s.streamsPerAddress) {
    throw new Error(`streamsTotal (${s.streamsTotal}) must be above streamsPerAddress (${s.streamsPerAddress}), or one address could lock everyone out`);
  }
}

// ---------------------------------------------------------------------------------------------
// Token buckets

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

// ---------------------------------------------------------------------------------------------
// Answers in flight

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

// ---------------------------------------------------------------------------------------------
// Client address

export { installPeerStamp } from "@/lib/http/origin";
import { PEER_HEADER, peerStampInstalled } from "@/lib/http/origin";

export type AddressMatcher = (address: string) => boolean;

/** Matches addresses against a list of addresses and CIDR ranges (IPv4 and IPv6). */
export function addressMatcher(entries: readonly string[]): AddressMatcher {
  if (entries.length === 0) return () => false;
  const list = new net.BlockList();
  for (const raw of entries) {
    const entry = raw.trim();
    if (!entry) continue;
    const [address = "", prefix] = entry.split("/");
    const family = net.isIP(address);
    if (family === 0) throw new Error(`TRUSTED_PROXY: ${entry} is not an IP address or CIDR range`);
    const type = family === 4 ? "ipv4" : "ipv6";
    if (prefix === undefined) list.addAddress(address, type);
    else {
      const bits = Number(prefix);
      if (!/^[0-9]{1,3}$/.test(prefix) || bits > (family === 4 ? 32 : 128)) throw new Error(`TRUSTED_PROXY: bad prefix in ${entry}`);
      list.addSubnet(address, bits, type);
    }
  }
  return (address) => {
    const family = net.isIP(address);
    return family !== 0 && list.check(address, family === 4 ? "ipv4" : "ipv6");
  };
}

/** IPv4-mapped IPv6 addresses (dual-stack sockets) as plain IPv4. */
export function normaliseAddress(address: string): string {
  const a = address.trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  return mapped?.[1] ?? a;
}

/**
 * The address a request is counted against. The socket peer, unless the peer is a trusted
 * proxy: then X-Forwarded-For is read from the right, skipping trusted proxies, and the first
 * address that is not one is the client. Without a trusted proxy the header is ignored, so a
 * client cannot choose its own address. When the peer is unknown (no stamp), every such
 * request shares one key.
 */
export function clientAddress(request: Request, trusted: AddressMatcher): string {
  const client = clientIp(request, trusted);
  return client === null ? "unknown" : bucketKey(client);
}

/** The client's address as clientAddress finds it, whole (not bucketed); null when the peer is unknown. */
export function clientIp(request: Request, trusted: AddressMatcher): string | null {
  const stamped = peerStampInstalled() ? request.headers.get(PEER_HEADER) : null;
  if (!stamped) return null;
  let client = normaliseAddress(stamped);
  if (trusted(client)) {
    const hops = (request.headers.get("x-forwarded-for") ?? "").split(",").map(normaliseAddress).filter(Boolean);
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i] ?? "";
      if (net.isIP(hop) === 0) break;
      client = hop;
      if (!trusted(hop)) break;
    }
  }
  return client;
}

/** One key per IPv6 /64 (one subscriber's usual allocation), so address hopping gains nothing. */
export function bucketKey(address: string): string {
  if (net.isIP(address) !== 6) return address;
  const [head = "", tail = ""] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = address.includes("::") ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => (g.replace(/^0+/, "") || "0"))
    .join(":")}::/64`;
}
