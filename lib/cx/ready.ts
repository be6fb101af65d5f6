import type { SyncProgress } from "./load";

// Whether the CX views can answer, and which sources they can draw on.

export type CxAnswer<T> = { ok: true; data: T } | { ok: false; waitingOn: string };

/** Engagements arrive with the CRM portal sync; health and usage are the product's own loads. */
export interface Wiring {
  engagements: boolean;
  health: boolean;
  usage: boolean;
}

/** What the views are waiting for, as a sentence a dashboard can show; null once a sync has completed. */
export function waitingText(p: SyncProgress): string | null {
  if (p.completed) return null;
  const run = p.latest;
  if (!run) return "the first CRM portal sync, which has not started";
  if (run.status === "running") {
    if (run.rowsExpected === null || run.rowsExpected <= 0) return "the first CRM portal sync (running)";
    // Not done until the run says so, however many rows it has counted.
    const pct = Math.min(99, Math.max(0, Math.floor((100 * run.rowsDone) / run.rowsExpected)));
    return `the first CRM portal sync (running, ${pct}% done)`;
  }
  return "the first CRM portal sync (the last attempt failed)";
}
