// Faults a stand-in answers on demand, so tests can exercise 401, 429, 5xx and slow upstreams
// over real HTTP. Each queued fault applies to one request, in order.

export interface Fault {
  status?: 401 | 403 | 429 | 500 | 502 | 503;
  /** Seconds, sent as Retry-After. */
  retryAfter?: number;
  /** Wait this long before answering (or before the fault's status). */
  delayMs?: number;
  /** Only requests whose path contains this string consume the fault. */
  pathIncludes?: string;
}

export class Faults {
  private queue: Fault[] = [];
  /** Every request the stand-in received, for tests to assert on (method, path, auth header). */
  readonly seen: { method: string; path: string; authorization: string | null }[] = [];

  next(...faults: Fault[]): void {
    this.queue.push(...faults);
  }

  clear(): void {
    this.queue = [];
    this.seen.length = 0;
  }

  /** Records the request; answers the next matching fault, or null to proceed normally. */
  async apply(request: Request, path: string): Promise<Response | null> {
    this.seen.push({ method: request.method, path, authorization: request.headers.get("authorization") });
    const i = this.queue.findIndex((f) => !f.pathIncludes || path.includes(f.pathIncludes));
    if (i < 0) return null;
    const [fault] = this.queue.splice(i, 1);
    if (!fault) return null;
    if (fault.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
    if (!fault.status) return null;
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (fault.retryAfter !== undefined) headers["retry-after"] = String(fault.retryAfter);
    return new Response(JSON.stringify({ message: `stand-in fault ${fault.status}` }), { status: fault.status, headers });
  }
}
