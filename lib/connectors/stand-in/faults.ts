import "server-only";

// Faults a stand-in answers on demand, so tests can exercise 401, 429, 5xx and slow upstreams
// over real HTTP. Each queued fault applies to one request, in order.

/**
 * A slow upstream without a clock: the request waits here until the test releases it, so a test
 * of a client's timeout or of what happens mid-request waits for no fixed time, only for the
 * moment it asks about (`reached`), and lets the answer go when it is done.
 */
export class Hold {
  private opened!: () => void;
  private arrived!: () => void;
  private readonly gate = new Promise<void>((r) => (this.opened = r));
  /** Resolves once a request is held here. */
  readonly reached = new Promise<void>((r) => (this.arrived = r));

  /** Holds the request until released. */
  async wait(): Promise<void> {
    this.arrived();
    await this.gate;
  }

  release(): void {
    this.opened();
  }
}

interface Fault {
  status?: 401 | 403 | 429 | 500 | 502 | 503;
  /** Seconds, sent as Retry-After. */
  retryAfter?: number;
  /** Held until released before answering (or before the fault's status). */
  hold?: Hold;
  /** Only requests whose path contains this string consume the fault. */
  pathIncludes?: string;
}

/** What the recorder keeps of one request: never a header value that is a credential. */
interface SeenRequest {
  method: string;
  path: string;
  /** The Authorization scheme only ("Bearer", "token", "Basic"), or null when none was sent. */
  authScheme: string | null;
}

/**
 * Requests the recorder keeps, newest last. The mounted stand-ins record every request they
 * receive, anonymous ones included, so the record is a ring: older entries are dropped, and
 * memory stays flat however many requests arrive. Tests look at far fewer than this.
 */
export const RECENT_REQUESTS_MAX = 1_000;
/** Characters of a path (and of a method or scheme) kept, so one entry is at most ~300 bytes and the ring at most ~300 KB. */
const RECENT_REQUEST_FIELD_MAX = 256;
/** Faults a test may queue at once; a test queues a handful, so more is a mistake. */
const QUEUED_FAULTS_MAX = 100;

const clip = (s: string) => (s.length > RECENT_REQUEST_FIELD_MAX ? s.slice(0, RECENT_REQUEST_FIELD_MAX) : s);

function schemeOf(authorization: string | null): string | null {
  if (authorization === null) return null;
  const scheme = /^\s*([A-Za-z][A-Za-z0-9_-]*)\s+\S/.exec(authorization)?.[1];
  // A bare token (no scheme) is a credential itself: record only that one was sent.
  return scheme ? clip(scheme) : "(bare)";
}

export class Faults {
  private queue: Fault[] = [];
  /** Recent requests the stand-in received, for tests to assert on (at most RECENT_REQUESTS_MAX). */
  readonly seen: SeenRequest[] = [];

  next(...faults: Fault[]): void {
    if (this.queue.length + faults.length > QUEUED_FAULTS_MAX) throw new RangeError(`at most ${QUEUED_FAULTS_MAX} faults may be queued`);
    this.queue.push(...faults);
  }

  clear(): void {
    this.queue = [];
    this.seen.length = 0;
  }

  /** Records the request; answers the next matching fault, or null to proceed normally. */
  async apply(request: Request, path: string): Promise<Response | null> {
    this.seen.push({ method: clip(request.method), path: clip(path), authScheme: schemeOf(request.headers.get("authorization")) });
    if (this.seen.length > RECENT_REQUESTS_MAX) this.seen.splice(0, this.seen.length - RECENT_REQUESTS_MAX);
    if (this.queue.length === 0) return null;
    const i = this.queue.findIndex((f) => !f.pathIncludes || path.includes(f.pathIncludes));
    if (i < 0) return null;
    const [fault] = this.queue.splice(i, 1);
    if (!fault) return null;
    if (fault.hold) await fault.hold.wait();
    if (!fault.status) return null;
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (fault.retryAfter !== undefined) headers["retry-after"] = String(fault.retryAfter);
    return new Response(JSON.stringify({ message: `stand-in fault ${fault.status}` }), { status: fault.status, headers });
  }
}
