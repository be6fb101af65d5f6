// The bookkeeping drafts keep between requests, each piece with its own bound: the read answers
// kept as bytes, the late checks shared by concurrent reads, the watcher refreshes coalesced per
// draft and the idle sweep's schedule. Each is owned by one Playground (lib/playground/service.ts)
// and handed to the draft functions (drafts.ts) as a typed dependency.

/** A read answer (`GET /draft/<id>`) as UTF-8 JSON, with the revision it is of. */
interface KeptAnswer {
  revision: number;
  updatedAt: number;
  bytes: Uint8Array<ArrayBuffer>;
}

/**
 * Recent read answers by read id, least recently used first, bounded in entries and in bytes.
 * An answer over a quarter of the byte budget is not kept: one draft must not push out the rest.
 */
export class ReadAnswers {
  private readonly kept = new Map<string, KeptAnswer>();
  private keptBytes = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
  ) {}

  /** The answer kept for `id`, which becomes the most recently used. */
  get(id: string): KeptAnswer | undefined {
    const answer = this.kept.get(id);
    if (answer) {
      this.kept.delete(id);
      this.kept.set(id, answer);
    }
    return answer;
  }

  /** Keeps `answer` for `id` in place of any older one, then drops the least recently used past the bounds. */
  set(id: string, answer: KeptAnswer): void {
    this.delete(id);
    if (answer.bytes.byteLength > this.maxBytes / 4) return;
    this.kept.set(id, answer);
    this.keptBytes += answer.bytes.byteLength;
    for (const [oldest, old] of this.kept) {
      if (this.kept.size <= this.maxEntries && this.keptBytes <= this.maxBytes) break;
      this.kept.delete(oldest);
      this.keptBytes -= old.bytes.byteLength;
    }
  }

  delete(id: string): void {
    const old = this.kept.get(id);
    if (!old) return;
    this.kept.delete(id);
    this.keptBytes -= old.bytes.byteLength;
  }

  get size(): number {
    return this.kept.size;
  }

  get bytes(): number {
    return this.keptBytes;
  }
}

/**
 * Work in flight by key, shared by whoever asks for the same key meanwhile; at most `max` keys at
 * once, past which a caller runs its own (a burst over many keys must not grow the map).
 */
export class SharedWork<T> {
  private readonly running = new Map<string, Promise<T>>();

  constructor(private readonly max: number) {}

  /** The work in flight for `key`, if any. */
  inFlight(key: string): Promise<T> | undefined {
    return this.running.get(key);
  }

  /** Runs `work` for `key` unless it is already in flight, and answers its result. */
  async share(key: string, work: () => Promise<T>): Promise<T> {
    const running = this.running.get(key);
    if (running) return running;
    const started = work();
    if (this.running.size >= this.max) return started;
    this.running.set(key, started);
    try {
      return await started;
    } finally {
      this.running.delete(key);
    }
  }

  get size(): number {
    return this.running.size;
  }
}

/**
 * Repeated work by key, run one at a time per key: a request while it runs asks for exactly one
 * more run after it, however many requests came. A burst of notices for a draft costs two runs.
 */
export class Coalesced {
  private readonly again = new Map<string, { again: boolean }>();

  constructor(private readonly onError: (key: string, err: unknown) => void) {}

  request(key: string, work: () => Promise<void>): void {
    const running = this.again.get(key);
    if (running) {
      running.again = true;
      return;
    }
    const entry = { again: false };
    this.again.set(key, entry);
    void (async () => {
      try {
        do {
          entry.again = false;
          await work();
        } while (entry.again);
      } catch (err) {
        this.onError(key, err);
      } finally {
        this.again.delete(key);
      }
    })();
  }

  get size(): number {
    return this.again.size;
  }
}

/** Background work run at most once per period and never twice at once; its failures go to `onError`. */
export class Periodic {
  private lastRunAt = Number.NEGATIVE_INFINITY;
  private running = false;

  constructor(
    private readonly periodMs: number,
    private readonly now: () => number,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Records a run made directly, so the next background one waits a whole period from it. */
  ran(): void {
    this.lastRunAt = this.now();
  }

  /** Starts `work` in the background when a period has passed since the last run and none is running. */
  maybeRun(work: () => Promise<unknown>): void {
    if (this.running || this.now() - this.lastRunAt < this.periodMs) return;
    this.ran();
    this.running = true;
    void work()
      .catch((err: unknown) => this.onError(err))
      .finally(() => {
        this.running = false;
      });
  }
}
