import type { SchedulerTimers } from "@/lib/crm/scheduler";

// Timers a test moves on itself: nothing fires until the test says so, so a wait of an hour
// costs nothing and a test never sleeps to find out whether something happened in the meantime.

interface Pending {
  fn: () => void;
  ms: number;
}

export class ManualTimers implements SchedulerTimers {
  private readonly pending = new Set<Pending>();
  private waiters: Array<() => void> = [];

  set(fn: () => void, ms: number): unknown {
    const t = { fn, ms };
    this.pending.add(t);
    for (const w of this.waiters.splice(0)) w();
    return t;
  }

  clear(handle: unknown): void {
    this.pending.delete(handle as Pending);
  }

  /** The waits set and not yet fired or cleared, in ms. */
  get waits(): number[] {
    return [...this.pending].map((t) => t.ms);
  }

  /** Resolves with the one wait set once there is one (at once when there is). */
  async next(): Promise<number> {
    while (this.pending.size === 0) await new Promise<void>((r) => this.waiters.push(r));
    if (this.pending.size > 1) throw new Error(`more than one timer set: ${this.waits.join(", ")} ms`);
    return [...this.pending][0]!.ms;
  }

  /** Lets the one wait set run out, as if its time had passed. */
  async fire(): Promise<void> {
    await this.next();
    const [t] = this.pending;
    this.pending.delete(t!);
    t!.fn();
  }
}
