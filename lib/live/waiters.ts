import "server-only";

// Callers waiting for a draft's next revision (an inline view following it over MCP), by draft.

/** Callers allowed to wait at once; past it, a caller is answered at once and asks again. */
const WAITERS_MAX = 2_000;

interface Waiter {
  readonly after: number;
  done(revision: number | null): void;
}

export class Waiters {
  private readonly byDraft = new Map<string, Set<Waiter>>();
  private waiting = 0;

  /**
   * Resolves with the first revision above `after` woken for the draft; null once `ms` have
   * passed, when `signal` aborts, on `closeAll`, or at once when WAITERS_MAX callers wait already.
   */
  next(draftId: string, after: number, ms: number, signal?: AbortSignal): Promise<number | null> {
    if (this.waiting >= WAITERS_MAX || signal?.aborted) return Promise.resolve(null);
    return new Promise((resolve) => {
      let set = this.byDraft.get(draftId);
      if (!set) this.byDraft.set(draftId, (set = new Set()));
      const waiters = set;
      let settled = false;
      const entry: Waiter = {
        after,
        done: (revision) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          signal?.removeEventListener("abort", aborted);
          waiters.delete(entry);
          if (waiters.size === 0 && this.byDraft.get(draftId) === waiters) this.byDraft.delete(draftId);
          this.waiting--;
          resolve(revision);
        },
      };
      const aborted = () => entry.done(null);
      const timer = setTimeout(aborted, ms);
      signal?.addEventListener("abort", aborted, { once: true });
      waiters.add(entry);
      this.waiting++;
    });
  }

  /** Answers every caller of the draft waiting for something older than `revision`. */
  wake(draftId: string, revision: number): void {
    const waiting = this.byDraft.get(draftId);
    if (waiting) for (const w of [...waiting]) if (revision > w.after) w.done(revision);
  }

  has(draftId: string): boolean {
    return this.byDraft.has(draftId);
  }

  /** Answers every caller null. */
  closeAll(): void {
    for (const set of [...this.byDraft.values()]) for (const w of [...set]) w.done(null);
  }
}
