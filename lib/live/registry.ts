import "server-only";

// Who watches which draft, and the counts the stream caps are checked against. Every map holds
// entries only for open streams, so the caps bound them all: at most `total` watchers, and one
// entry per watched draft, per address and per (draft, address) pair.

/**
 * The caps on open streams. `total` is kept above `perAddress` so no single address can reach it;
 * `perDraftPerAddress` keeps one client from filling a draft for everyone else.
 */
export interface WatchLimits {
  perDraftPerAddress: number;
  perAddress: number;
  total: number;
}

/** What the registry needs to know of a watcher. */
interface Registered {
  readonly draftId: string;
  readonly address: string;
}

function increment(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

function decrement(counts: Map<string, number>, key: string): void {
  const n = (counts.get(key) ?? 1) - 1;
  if (n <= 0) counts.delete(key);
  else counts.set(key, n);
}

const pairOf = (draftId: string, address: string) => `${draftId} ${address}`;

export class Registry<W extends Registered> {
  private readonly byDraft = new Map<string, Set<W>>();
  private readonly byAddress = new Map<string, number>();
  /** Open streams per `${draftId} ${address}`. */
  private readonly byDraftAddress = new Map<string, number>();
  private count = 0;

  /** Whether one more stream from `address` to `draftId` stays within every cap. */
  admits(draftId: string, address: string, limits: WatchLimits): boolean {
    return (
      this.count < limits.total &&
      (this.byAddress.get(address) ?? 0) < limits.perAddress &&
      (this.byDraftAddress.get(pairOf(draftId, address)) ?? 0) < limits.perDraftPerAddress
    );
  }

  add(w: W): void {
    let watchers = this.byDraft.get(w.draftId);
    if (!watchers) this.byDraft.set(w.draftId, (watchers = new Set()));
    watchers.add(w);
    increment(this.byAddress, w.address);
    increment(this.byDraftAddress, pairOf(w.draftId, w.address));
    this.count++;
  }

  /** Takes a watcher out; true when it was its draft's last. */
  delete(w: W): boolean {
    const watchers = this.byDraft.get(w.draftId);
    if (!watchers?.delete(w)) return false;
    decrement(this.byAddress, w.address);
    decrement(this.byDraftAddress, pairOf(w.draftId, w.address));
    this.count--;
    if (watchers.size > 0) return false;
    this.byDraft.delete(w.draftId);
    return true;
  }

  /** A draft's watchers; a watcher deleted while they are iterated is skipped, as a Set's iteration does. */
  of(draftId: string): ReadonlySet<W> | undefined {
    return this.byDraft.get(draftId);
  }

  *all(): IterableIterator<W> {
    for (const watchers of this.byDraft.values()) yield* watchers;
  }

  drafts(): string[] {
    return [...this.byDraft.keys()];
  }

  size(): number {
    return this.count;
  }

  watching(draftId: string): number {
    return this.byDraft.get(draftId)?.size ?? 0;
  }

  fromAddress(address: string): number {
    return this.byAddress.get(address) ?? 0;
  }

  /** Entries in the per-address bookkeeping (for tests of its bounds). */
  bookkeepingSize(): { addresses: number; pairs: number; drafts: number } {
    return { addresses: this.byAddress.size, pairs: this.byDraftAddress.size, drafts: this.byDraft.size };
  }
}
