// The snapshot convention, shared by the frame's bootstrap, the host page and the static check
// (which runs in the browser too, so this module imports nothing).

/** The id of the `<script type="application/json">` element a dashboard embeds its snapshot in. */
export const SNAPSHOT_ELEMENT_ID = "dashboard-snapshot";
/** The attribute on that element saying when the snapshot was taken. */
export const SNAPSHOT_TAKEN_AT_ATTRIBUTE = "data-taken-at";
/** The global function the bootstrap gives every dashboard for falling back to its snapshot. */
export const SNAPSHOT_HELPER = "dashboardSnapshot";

/**
 * When a snapshot was taken: a calendar date (`2026-11-20`) or a date and time with its offset
 * (`2026-11-20T09:30:00Z`, `2026-11-20T10:30+01:00`). A time without an offset is refused: the
 * viewer's clock would silently move it.
 */
export const SNAPSHOT_TIME = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** Whether `value` names a real moment in the form `SNAPSHOT_TIME` describes. */
export function isSnapshotTime(value: unknown): value is string {
  if (typeof value !== "string" || !SNAPSHOT_TIME.test(value)) return false;
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) return false;
  // Date.parse rolls 2026-02-31 over into March; the calendar date must survive the round trip.
  const [y, m, d] = value.slice(0, 10).split("-").map(Number);
  const day = new Date(Date.UTC(y ?? 0, (m ?? 1) - 1, d ?? 1));
  return day.getUTCFullYear() === y && day.getUTCMonth() + 1 === m && day.getUTCDate() === d;
}

/** The longest panel name the page shows (the host clips to it). */
export const SNAPSHOT_PANEL_MAX = 60;
/** The longest panel name the bootstrap sends, before the host cleans and clips it. */
export const SNAPSHOT_PANEL_SENT_MAX = 4 * SNAPSHOT_PANEL_MAX;
/** The panels the page names in its notice; more are counted, not named. */
export const SNAPSHOT_PANELS_SHOWN = 6;

/** A panel name as the page may show it: printable text, trimmed, at most SNAPSHOT_PANEL_MAX characters. */
export function snapshotPanel(value: unknown): string | null {
  if (typeof value !== "string") return null;
  // Control and format characters (bidi overrides among them) could disguise the notice's text.
  const clean = value.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, " ").replace(/\s+/g, " ").trim();
  if (clean === "") return null;
  const chars = Array.from(clean);
  return chars.length > SNAPSHOT_PANEL_MAX ? `${chars.slice(0, SNAPSHOT_PANEL_MAX - 1).join("")}\u2026` : clean;
}
