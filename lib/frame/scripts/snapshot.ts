// Snapshot fallback: a dashboard may embed its data as
//   <script type="application/json" id="dashboard-snapshot" data-taken-at="2026-11-20T09:00:00Z">…</script>
// and call window.dashboardSnapshot() when it falls back to it. The helper answers
// {data, takenAt} (or null when there is no parsable snapshot) and tells the host page, which
// then says above the frame that snapshot data is shown, and from when.
import type { FrameConfig } from "./config";
import { D, dateParse, dateUTC, parseJson, strSlice } from "./primordials";
import type { Send } from "./report";

/** The same rule as isSnapshotTime in lib/frame/snapshot.ts, so the host never drops what this sends. */
export function snapshotTime(v: unknown, shape: RegExp): string | null {
  if (typeof v !== "string" || !shape.test(v) || !isFinite(dateParse(v))) return null;
  const y = +v.slice(0, 4);
  const m = +v.slice(5, 7);
  const d = +v.slice(8, 10);
  const day = new D(dateUTC(y, m - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() + 1 === m && day.getUTCDate() === d ? v : null;
}

interface Snapshot {
  data: unknown;
  takenAt: string | null;
}

/** window.dashboardSnapshot: `panel` names the panel falling back (the page then names it), or nothing for the whole dashboard. */
export function snapshotHelper(send: Send, config: FrameConfig): (panel?: unknown) => Snapshot | null {
  const { elementId, takenAtAttribute, panelMax } = config.snapshot;
  const shape = new RegExp(config.snapshot.time);
  return function dashboardSnapshot(panel) {
    const el = document.getElementById(elementId);
    if (!el) return null;
    let data: unknown;
    try {
      data = parseJson(el.textContent || "");
    } catch {
      return null;
    }
    const takenAt = snapshotTime(el.getAttribute(takenAtAttribute), shape);
    const notice: { type: "snapshot"; takenAt?: string; panel?: string } = { type: "snapshot" };
    if (takenAt) notice.takenAt = takenAt;
    // Only text names a panel; anything else reads as the whole dashboard.
    if (typeof panel === "string") notice.panel = panel.length > panelMax ? strSlice(panel, 0, panelMax) : panel;
    send(notice);
    return { data: data, takenAt: takenAt };
  };
}
