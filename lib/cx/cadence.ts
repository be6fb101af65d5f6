import type { Cadence } from "@/lib/contract/resources";
import { daysBetween, isoDay, type CxWindow } from "./window";

// Contact cadence from logged touches (calls, meetings, emails). Only those three kinds count;
// anything else a CRM might log is not contact with the customer for this purpose.

export type CadenceValue = NonNullable<Cadence>;
type TouchKind = keyof CadenceValue["byKind"];

export interface Touch {
  kind: string;
  /** Epoch ms. */
  at: number;
}

const KINDS: readonly TouchKind[] = ["call", "meeting", "email"];

function isTouchKind(kind: string): kind is TouchKind {
  return (KINDS as readonly string[]).includes(kind);
}

/**
 * - `byKind`: touches within [since, until], per kind; all three keys always present.
 * - `lastTouchDate`: UTC date of the latest touch within the window, else null.
 * - `daysSinceContact`: calendar days from that date to the window's last day (0 = a touch on
 *   the last day); null when nothing was logged within the window.
 * - `silent30d`: no touch within [silentSince, until], the trailing 30 days of the window,
 *   even when the window itself is shorter.
 * Touches after the window's end are ignored.
 */
export function cadenceOf(touches: Iterable<Touch>, w: CxWindow): CadenceValue {
  const byKind: Record<TouchKind, number> = { call: 0, meeting: 0, email: 0 };
  let last: number | null = null;
  let recent = false;
  for (const t of touches) {
    if (!isTouchKind(t.kind) || t.at > w.until) continue;
    if (t.at >= w.silentSince) recent = true;
    if (t.at < w.since) continue;
    byKind[t.kind] += 1;
    if (last === null || t.at > last) last = t.at;
  }
  const lastTouchDate = last === null ? null : isoDay(last);
  return {
    lastTouchDate,
    daysSinceContact: lastTouchDate === null ? null : daysBetween(lastTouchDate, w.untilDate),
    byKind,
    silent30d: !recent,
  };
}
