// A small read-through cache: bounded in entries, fresh for a while, then served stale while one
// refresh runs in the background. Failures are not cached. Callers choose the keys: the vendor
// reads put the user in every key, so one person's answer is never served to another; the CRM
// and CX answers key by data version.

interface Entry {
  value: unknown;
  at: number;
}

interface CacheOptions {
  maxEntries: number;
  freshMs: number;
  staleMs: number;
  now?: () => number;
}

export class ReadCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<unknown>>();
  private readonly now: () => number;

  constructor(private readonly opts: CacheOptions) {
    this.now = opts.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  async get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    const age = hit ? this.now() - hit.at : Infinity;
    if (hit && age < this.opts.freshMs) {
      this.touch(key, hit);
      return hit.value as T;
    }
    if (hit && age < this.opts.freshMs + this.opts.staleMs) {
      this.touch(key, hit);
      this.refresh(key, load).catch(() => undefined); // the stale answer stands; the next read retries
      return hit.value as T;
    }
    return this.refresh(key, load);
  }

  /** Drops every entry whose key starts with the prefix (a user's reads of one connector). */
  invalidate(prefix: string): void {
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  private refresh<T>(key: string, load: () => Promise<T>): Promise<T> {
    const running = this.inflight.get(key);
    if (running) return running as Promise<T>;
    const p = load()
      .then((value) => {
        this.entries.delete(key);
        this.entries.set(key, { value, at: this.now() });
        this.evict();
        return value;
      })
      .finally(() => this.inflight.delete(key));
    this.inflight.set(key, p);
    return p;
  }

  private touch(key: string, entry: Entry): void {
    // Map order is recency order: re-inserting makes this the most recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
  }

  private evict(): void {
    while (this.entries.size > this.opts.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}
